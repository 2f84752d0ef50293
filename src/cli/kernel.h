/*
 * kernel.h - the running kernel's side: writes to /proc/profile (-r, -M),
 * the profile to read, its tick rate and the default map.  Its files and
 * the rights to open them: kroot.h.
 */
#ifndef RP_KERNEL_H
#define RP_KERNEL_H

#include "cli/kroot.h"

/* The profile to read for NAME: the kernel's under the test root. */
const char *kernel_profile(const char *name);

/*
 * Write to /proc/profile and exit: *MULTIPLIER as an int (multiplier and
 * reset), or, with NULL, one byte (a reset).
 */
_Noreturn void kernel_write_profile(const int *multiplier);

/*
 * The map to use without -m, for PROFILE: the first with a non-zero _stext
 * of /boot/System.map, /boot/System.map-R, /usr/lib/debug/boot/System.map-R,
 * /lib/modules/R/System.map (R: uname -r), /usr/lib/debug/boot/vmlinux-R,
 * /usr/lib/debug/lib/modules/R/vmlinux, then /proc/kallsyms; an ELF file
 * whose build-id is not the running kernel's comes last.  Anything but a
 * System.map is said on stderr with what each place held before it (and
 * for an ELF file, whether its build-id matched).  When none will do,
 * says so place by place, and what to do, and exits.
 */
const char *kernel_default_map(const char *profile);

/*
 * The running kernel's tick rate: CONFIG_HZ of its config,
 * /boot/config-R (R: uname -r), whose path goes to *FROM; 0 when it cannot
 * be read.  Each CPU's timer tick is one count of /proc/profile.
 */
unsigned long kernel_config_hz(const char **from);

/* The same map, or NULL when there is none; silent. */
const char *kernel_default_map_quiet(void);

#endif
