/*
 * kernel.h - the running kernel's side: writes to /proc/profile (-r, -M),
 * the profile to read, its tick rate, the default map and the kernel's
 * build-id (SYS_NOTES) against a map's, compared only when the profile is
 * the running kernel's /proc/profile.
 */
#ifndef RP_KERNEL_H
#define RP_KERNEL_H

#include "cli/kroot.h"

/* K->profile is to be read: fatal, saying why, when it is missing. */
void kernel_profile_check(const struct kfiles *k);

/* Write to /proc/profile and exit: *MULTIPLIER as an int (multiplier and
 * reset), or, with NULL, one byte (a reset). */
_Noreturn void kernel_write_profile(const struct kfiles *k,
    const int *multiplier);

/* The map without -m for PROFILE (LIVE: the running kernel's): the first
 * of K->maps with a non-zero _stext, an ELF file of another build last.
 * Anything but a System.map is said on stderr, with what each place before
 * held; none: says so place by place, and what to do, and exits.  QUIET:
 * nothing said, NULL when there is none. */
const char *kernel_default_map(const struct kfiles *k, const char *profile,
    int live, int quiet);

/* After a report with MAPNAME given with -m, of build-id MAP, K the live
 * kernel's (else NULL): a warning when both are known and differ. */
void kernel_build_id_warn(const struct build_id *map, const char *mapname,
    const struct build_id *k);

/* The running kernel's tick rate (each CPU's timer tick is a count of
 * /proc/profile): CONFIG_HZ of the first of K's configs that can be read,
 * named in *FROM; 0 when none can, or it has no CONFIG_HZ. */
unsigned long kernel_config_hz(const struct kfiles *k, const char **from);

#endif
