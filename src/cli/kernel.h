/*
 * kernel.h - the running kernel's side: privileges, writes to
 * /proc/profile (-r, -M) and the default map.
 *
 * A set-user-ID install runs as the caller from the start, takes its
 * installed rights back only to open /proc/profile for writing, and gives
 * them up for good as soon as nothing can need them.
 */
#ifndef RP_KERNEL_H
#define RP_KERNEL_H

#ifndef PROC_PROFILE
#define PROC_PROFILE "/proc/profile"
#endif
#define PROC_KALLSYMS "/proc/kallsyms"
#define BOOT_MAP "/boot/System.map"

/*
 * For tests: when READPROFILE_TEST_ROOT is set (and the program is not
 * set-user-ID), the kernel's files (/proc/profile, /proc/kallsyms,
 * /proc/cmdline, the default maps, /boot/config-*) are looked for under it.
 */
#define KERNEL_ROOT_ENV "READPROFILE_TEST_ROOT"

/* A copy of PATH, under the test root if there is one. */
const char *kernel_path(const char *path);

/* The profile to read for NAME: the kernel's under the test root. */
const char *kernel_profile(const char *name);

/* At start: act as the caller, keeping the right to come back once. */
void kernel_drop_privileges(void);

/* Give the installed rights up for good. */
void kernel_drop_privileges_for_good(void);

/*
 * Write to /proc/profile and exit: *MULTIPLIER as an int (multiplier and
 * reset), or, with NULL, one byte (a reset).
 */
_Noreturn void kernel_write_profile(const int *multiplier);

/*
 * The map to use without -m, for PROFILE: the first with a non-zero _stext
 * of /boot/System.map, /boot/System.map-R, /usr/lib/debug/boot/System.map-R,
 * /lib/modules/R/System.map (R: uname -r), then /proc/kallsyms, which is
 * said on stderr with what each place held.  When none will do, says so
 * place by place, and what to do, and exits.
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
