/*
 * kroot.h - the running kernel's files, under the test root, and the
 * rights to open them: a set-user-ID install runs as the caller, takes its
 * rights back only to open /proc/profile for writing, and gives them up for
 * good as soon as nothing can need them.
 */
#ifndef RP_KROOT_H
#define RP_KROOT_H

#ifndef PROC_PROFILE
#define PROC_PROFILE "/proc/profile"
#endif
#include <stddef.h>
#include <sys/types.h>

#include "sym/notes.h"

#define SYS_NOTES "/sys/kernel/notes"
#ifndef SYS_PROFILING
#define SYS_PROFILING "/sys/kernel/profiling"
#endif

/* For tests: when set (and the program is not set-user-ID), every file of
 * struct kfiles is looked for under it. */
#define KERNEL_ROOT_ENV "READPROFILE_TEST_ROOT"

#define KPATH 4096

/* Whether a line of the text file PATH (compressed: through its
 * decompressor, base/input.h) has a word beginning with KEY (which may hold
 * blanks; "": the first word): 1, 0, or -1 with errno set when it cannot
 * be opened.  The rest of that word, or "", goes to VAL (N bytes). */
int kroot_word(const char *path, const char *key, char *val, size_t n);

/* The rights the program was started with. */
struct rights {
	uid_t euid;		/* the installed user's, to come back to once */
	int setuid;		/* a set-user-ID (or -group-ID) install run by
				 * another: it ignores the test root */
};

/* The places of the default map chain (kernel.h), in order: the
 * System.map files, then the ELF images of debug packages, then
 * /proc/kallsyms; and of the kernel's config.  Where distributions keep
 * a kernel's files: /boot, then /usr/lib/modules/R, then /lib/modules/R. */
#define KFILES_MAPS 9
#define KFILES_SYSTEM_MAPS 5
#define KFILES_CONFIGS 4

/* The running kernel's files, under the test root, and what it says of
 * itself: resolved once, at start (R is uname -r). */
struct kfiles {
	char profile[KPATH];	/* /proc/profile */
	char cmdline[KPATH];	/* /proc/cmdline */
	char profiling[KPATH];	/* /sys/kernel/profiling */
	/* /boot/config-R, /usr/lib/modules/R/config, /lib/modules/R/config,
	 * /proc/config.gz (read through gzip) */
	char config[KFILES_CONFIGS][KPATH];
	char debug[KPATH];	/* /usr/lib/debug, of separate debug files */
	char maps[KFILES_MAPS][KPATH];	/* /boot/System.map ... kallsyms */
	/* uname -r; under the test root, its /proc/sys/kernel/osrelease */
	char release[256];
	struct build_id id;	/* the running kernel's, SYS_NOTES; n 0: unknown */
	struct rights rights;
};

/* K's files for a run with the rights RT. */
void kroot_files(struct kfiles *k, const struct rights *rt);

/* At start: act as the caller, keeping in RT the right to come back once. */
void kroot_drop_privileges(struct rights *rt);

void kroot_drop_privileges_for_good(const struct rights *rt);

/* NAME opened with FLAGS with the installed rights RT, then given up for
 * good; errno as open(2) left it. */
int kroot_open_installed(const struct rights *rt, const char *name,
    int flags);

/* What the last counter of a profile holds: 1 text ticks only (the LIVE
 * profile of a kernel 6.11 or later drops those outside), 0 also every
 * tick outside (an older one clamps them in), -1 unknown (a snapshot, or an
 * unreadable release). */
int kroot_last_counter_is_text(const struct kfiles *k, int live);

#endif
