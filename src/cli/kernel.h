/*
 * kernel.h - the running kernel's side: writes to /proc/profile (-r, -M),
 * the profile to read, its tick rate, the default map and the kernel's
 * build-id against a map's.  Its files and the rights to open them:
 * kroot.h.
 *
 * The running kernel's build-id is in /sys/kernel/notes (its .notes
 * section, read once into struct kfiles); an ELF map's (vmlinux) in its
 * own notes.  They are compared only when the profile is the running
 * kernel's /proc/profile.
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
 * says so place by place, and what to do, and exits.  QUIET: nothing is
 * said, and NULL is returned when there is none.
 */
const char *kernel_default_map(const struct kfiles *k, const char *profile,
    int live, int quiet);

/*
 * After a report with the map MAPNAME given with -m, of build-id MAP: when
 * the profile is the running kernel's, of build-id K (else NULL), and the
 * two are known and differ, a warning naming both.
 */
void kernel_build_id_warn(const struct build_id *map, const char *mapname,
    const struct build_id *k);

/*
 * The running kernel's tick rate: CONFIG_HZ of its config, K->config
 * (/boot/config-R, R: uname -r); 0 when it cannot be read.  Each CPU's
 * timer tick is one count of /proc/profile.
 */
unsigned long kernel_config_hz(const struct kfiles *k);

#endif
