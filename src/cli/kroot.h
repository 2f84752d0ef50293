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

#include "sym/notes.h"

#define SYS_NOTES "/sys/kernel/notes"
#ifndef SYS_PROFILING
#define SYS_PROFILING "/sys/kernel/profiling"
#endif

/*
 * For tests: when READPROFILE_TEST_ROOT is set (and the program is not
 * set-user-ID), the kernel's files (/proc/profile, /proc/kallsyms,
 * /proc/cmdline, /sys/kernel/profiling, /sys/kernel/notes, the default
 * maps, /boot/config-*, programs' debug files in /usr/lib/debug) are
 * looked for under it.
 */
#define KERNEL_ROOT_ENV "READPROFILE_TEST_ROOT"

#define KPATH 4096

/*
 * Whether a line of the text file PATH has a word (blanks apart) that
 * begins with KEY (which may go on over blanks; "": the first word): 1,
 * 0 when none has, -1 with errno set when PATH cannot be opened.  The
 * rest of that word, or "", goes to VAL (N bytes, cut to fit).
 */
int kroot_word(const char *path, const char *key, char *val, size_t n);

/* The places of the default map chain (kernel.h), in order. */
#define KFILES_MAPS 7

/*
 * The running kernel's files a run may read or write, under the test
 * root, and what it says of itself: resolved once, at start (R below is
 * uname -r).
 */
struct kfiles {
	char profile[KPATH];	/* /proc/profile */
	char cmdline[KPATH];	/* /proc/cmdline */
	char profiling[KPATH];	/* /sys/kernel/profiling */
	char config[KPATH];	/* /boot/config-R */
	char debug[KPATH];	/* /usr/lib/debug, of separate debug files */
	char maps[KFILES_MAPS][KPATH];	/* /boot/System.map ... kallsyms */
	/* uname -r; under the test root, its /proc/sys/kernel/osrelease */
	char release[256];
	struct build_id id;	/* the running kernel's, SYS_NOTES; n 0: unknown */
};

void kroot_files(struct kfiles *k);

/* At start: act as the caller, keeping the right to come back once. */
void kroot_drop_privileges(void);

/* Whether this is a set-user-ID (or set-group-ID) install run by
 * another user. */
int kroot_setuid_install(void);

void kroot_drop_privileges_for_good(void);

/*
 * NAME opened with FLAGS with the installed rights, which are then given
 * up for good; errno as open(2) left it.
 */
int kroot_open_installed(const char *name, int flags);

/*
 * What the last counter of a profile holds: 1 text ticks only (the LIVE
 * profile of K, a kernel 6.11 or later, which drops ticks outside the
 * text), 0 also every tick outside the text (an older live kernel clamps
 * them into it), -1 unknown (a snapshot, or an unreadable release).
 */
int kroot_last_counter_is_text(const struct kfiles *k, int live);

#endif
