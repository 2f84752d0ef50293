/*
 * kernel.h - the running kernel's side: writes to /proc/profile (-r, -M),
 * the profile to read, its tick rate and the default map.  Its files and
 * the rights to open them: kroot.h.
 */
#ifndef RP_KERNEL_H
#define RP_KERNEL_H

#include "cli/kroot.h"

/* The kernel's profile K->profile is to be read: fatal, saying why, when
 * it is missing. */
void kernel_profile_check(const struct kfiles *k);

/*
 * Write to /proc/profile and exit: *MULTIPLIER as an int (multiplier and
 * reset), or, with NULL, one byte (a reset).
 */
_Noreturn void kernel_write_profile(const struct kfiles *k,
    const int *multiplier);

/*
 * The map to use without -m, for PROFILE (LIVE: the running kernel's),
 * from the places of K: the first with a non-zero _stext
 * of /boot/System.map, /boot/System.map-R, /usr/lib/debug/boot/System.map-R,
 * /lib/modules/R/System.map (R: uname -r), /usr/lib/debug/boot/vmlinux-R,
 * /usr/lib/debug/lib/modules/R/vmlinux, then /proc/kallsyms; an ELF file
 * whose build-id is not the running kernel's comes last.  Anything but a
 * System.map is said on stderr with what each place held before it (and
 * for an ELF file, whether its build-id matched).  When none will do,
 * says so place by place, and what to do, and exits.
 */
const char *kernel_default_map(const struct kfiles *k, const char *profile,
    int live);

/*
 * The running kernel's tick rate: CONFIG_HZ of its config, K->config
 * (/boot/config-R, R: uname -r); 0 when it cannot be read.  Each CPU's
 * timer tick is one count of /proc/profile.
 */
unsigned long kernel_config_hz(const struct kfiles *k);

/* The same map, or NULL when there is none; silent. */
const char *kernel_default_map_quiet(const struct kfiles *k);

#endif
