/*
 * profiling.h - /sys/kernel/profiling, of every kernel with
 * CONFIG_PROFILING (kernel/ksysfs.c): it reads as prof_on; writing what
 * profile= takes starts profiling and makes /proc/profile, once per boot
 * (a second write fails with EEXIST).
 */
#ifndef RP_PROFILING_H
#define RP_PROFILING_H

#include <stddef.h>

#include "base/output.h"
#include "cli/kroot.h"
#include "hist/profile.h"

/* prof_on: what the counters count. */
enum prof_mode {
	PROF_OFF = 0,
	PROF_CPU = 1,		/* CPU ticks */
	PROF_SCHED = 2,		/* schedule() calls */
	PROF_SLEEP = 3,		/* milliseconds of uninterruptible sleep */
	PROF_KVM = 4,		/* KVM exits */
};

/* What K's /proc/profile counts, as K->profiling says; or NULL. */
const struct counted *profiling_counting(const struct kfiles *k);

/*
 * ARG as profile= takes it: N, schedule[,N], sleep[,N] or kvm[,N], N a
 * shift from 0 to 30 (options_number).  Returns its mode, the shift in
 * *SHIFT (0 when not given, as the kernel's default) and ARG as the kernel
 * is to read it in CANON of N bytes (no leading zeros or sign: the kernel
 * reads 010 as octal, 08 as 0); or -1.
 */
int profiling_parse(const char *arg, unsigned *shift, char *canon, size_t n);

/* --enable=ARG, for the real root user only: write ARG to K->profiling,
 * then print on OUT what the kernel counts, its step and the memory its
 * counters take.  Anything else is fatal, saying why. */
void profiling_enable(const struct kfiles *k, const char *arg,
    struct out *out);

/* K->profile is missing (already said): when K->profiling tells why (off:
 * how to start it; on: /proc not mounted?), a hint, and exit. */
void profiling_hint(const struct kfiles *k);

#endif
