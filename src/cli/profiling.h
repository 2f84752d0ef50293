/*
 * profiling.h - the kernel's profiling switch, /sys/kernel/profiling.
 *
 * Every kernel built with CONFIG_PROFILING has it (kernel/ksysfs.c):
 * reading it gives the kernel's prof_on, writing what the kernel's
 * profile= parameter takes starts profiling, once per boot (a second
 * write fails with EEXIST), and makes /proc/profile.
 */
#ifndef RP_PROFILING_H
#define RP_PROFILING_H

#include <stddef.h>

#include "base/output.h"
#include "cli/kroot.h"

/* prof_on: what the counters count. */
enum prof_mode {
	PROF_OFF = 0,
	PROF_CPU = 1,		/* CPU ticks */
	PROF_SCHED = 2,		/* schedule() calls */
	PROF_SLEEP = 3,		/* milliseconds of uninterruptible sleep */
	PROF_KVM = 4,		/* KVM exits */
};

/* What the counters of K's /proc/profile count, as K->profiling says;
 * NULL when it does not. */
const char *profiling_counting(const struct kfiles *k);

/*
 * ARG as profile= takes it: N, schedule[,N], sleep[,N] or kvm[,N], N a
 * shift from 0 to 30, decimal by the rule of every number (options.h).
 * Returns the mode it asks for, with the shift in *SHIFT (0 when not
 * given, as the kernel's default) and ARG as the kernel is to read it in
 * CANON, N bytes (N without leading zeros or sign: the kernel reads 010 as
 * octal, 08 as 0), or -1.
 */
int profiling_parse(const char *arg, unsigned *shift, char *canon, size_t n);

/*
 * --enable=ARG: as the real root user only (not by a set-user-ID
 * install), write ARG to K->profiling, then print on OUT what the kernel
 * now counts, its step and the memory its counters take.  Anything else
 * is fatal, with the reason (already on, in which mode; not root; no such
 * file).
 */
void profiling_enable(const struct kfiles *k, const char *arg,
    struct out *out);

/*
 * K->profile is missing (already said): when K->profiling tells why
 * (profiling is off: how to start it now; on: /proc not mounted?), say so
 * as a hint and exit; else return.
 */
void profiling_hint(const struct kfiles *k);

#endif
