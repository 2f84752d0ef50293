/*
 * kroot.h - the running kernel's files, under the test root, and the
 * rights to open them.
 *
 * A set-user-ID install runs as the caller from the start, takes its
 * installed rights back only to open /proc/profile for writing, and gives
 * them up for good as soon as nothing can need them.
 */
#ifndef RP_KROOT_H
#define RP_KROOT_H

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

/* PATH under the test root if there is one: made once, valid for the
 * whole run. */
const char *kroot_path(const char *path);

/* The places of the default map chain (kernel.h), in order. */
#define KFILES_MAPS 7

/*
 * The running kernel's files a run may read or write, under the test
 * root: resolved once, at start (R below is uname -r).
 */
struct kfiles {
	const char *profile;	/* /proc/profile */
	const char *cmdline;	/* /proc/cmdline */
	const char *config;	/* /boot/config-R */
	const char *maps[KFILES_MAPS];	/* /boot/System.map ... kallsyms */
};

void kroot_files(struct kfiles *k);

/* At start: act as the caller, keeping the right to come back once. */
void kroot_drop_privileges(void);

/* Whether this is a set-user-ID (or set-group-ID) install run by
 * another user. */
int kroot_setuid_install(void);

/* Give the installed rights up for good. */
void kroot_drop_privileges_for_good(void);

/*
 * NAME opened with FLAGS with the installed rights, which are then given
 * up for good; errno as open(2) left it.
 */
int kroot_open_installed(const char *name, int flags);

/*
 * The running kernel's release (uname -r; under the test root, its
 * /proc/sys/kernel/osrelease), into BUF of N bytes; returns BUF.
 */
const char *kroot_release(char *buf, size_t n);

/*
 * What the last counter of a profile holds: 1 text ticks only (the LIVE
 * profile of a kernel 6.11 or later, which drops ticks outside the text),
 * 0 also every tick outside the text (an older live kernel clamps them
 * into it), -1 unknown (a snapshot, or an unreadable release).
 */
int kroot_last_counter_is_text(int live);

#endif
