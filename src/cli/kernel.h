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
#include <stddef.h>

#define PROC_KALLSYMS "/proc/kallsyms"
#define BOOT_MAP "/boot/System.map"

/*
 * For tests: when READPROFILE_TEST_ROOT is set (and the program is not
 * set-user-ID), the kernel's files (/proc/profile, /proc/kallsyms,
 * /proc/cmdline, /sys/kernel/profiling, /sys/kernel/notes, the default
 * maps, /boot/config-*, programs' debug files in /usr/lib/debug) are
 * looked for under it.
 */
#define KERNEL_ROOT_ENV "READPROFILE_TEST_ROOT"

/* A copy of PATH, under the test root if there is one. */
const char *kernel_path(const char *path);

/* The profile to read for NAME: the kernel's under the test root. */
const char *kernel_profile(const char *name);

/* At start: act as the caller, keeping the right to come back once. */
void kernel_drop_privileges(void);

/* Whether this is a set-user-ID (or set-group-ID) install run by
 * another user. */
int kernel_setuid_install(void);

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

/*
 * The running kernel's release (uname -r; under the test root, its
 * /proc/sys/kernel/osrelease), into BUF of N bytes; returns BUF.
 */
const char *kernel_release(char *buf, size_t n);

/*
 * What the last counter of PROFILE holds: 1 text ticks only (the live
 * profile of a kernel 6.11 or later, which drops ticks outside the text),
 * 0 also every tick outside the text (an older live kernel clamps them
 * into it), -1 unknown (a snapshot, or an unreadable release).
 */
int kernel_last_counter_is_text(const char *profile);

/* The same map, or NULL when there is none; silent. */
const char *kernel_default_map_quiet(void);

#endif
