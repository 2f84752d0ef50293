/*
 * profile.h - the profile source: /proc/profile, a snapshot file, a pipe,
 * read once, whole, into memory; its step, counters and byte order, no
 * symbols.  After profile_setup its words are in host order, a baseline
 * (read once, a piece at a time) is subtracted from them in place, and
 * every view of the run is made from them.  A regular file whose size
 * changes while it is read is an error naming it.
 */
#ifndef RP_PROFILE_H
#define RP_PROFILE_H

#include <stdint.h>

#include "hist/counters.h"
#include "base/input.h"

/* The first bytes kept as read, for what a profile looks like. */
#define PROFILE_HEAD 256

struct profile {
	const char *name;
	struct input in;
	unsigned char *data;	/* the whole contents; words after setup */
	unsigned char head[PROFILE_HEAD];	/* its first bytes, as read */
	uint64_t bytes;		/* whole words only, after profile_check */
	unsigned trailing;	/* bytes of a partial last word, left out */
	uint64_t nwords;	/* step word included */
	uint64_t *blk;		/* block sums (hist/counters.h) */
	uint64_t big, small;	/* counters using their upper, lower 16 bits */
	int swap;		/* words are in the other byte order */
	uint32_t step;
};

/* What a kernel profile's counters count, by the mode the kernel reads
 * back in /sys/kernel/profiling (prof_on: 1 CPU ticks, 2 schedule() calls,
 * 3 sleep, 4 KVM exits).  Every view names it: -i -v, --top's header,
 * --json, --pprof's sample type. */
struct counted {
	const char *what;	/* "CPU ticks", "schedule() calls", ... */
	const char *column;	/* --top's header: "ticks", "calls", ... */
	const char *type, *unit;	/* --pprof's sample type */
	int ticks;		/* CPU ticks: a time at the tick rate */
};

/* MODE's, or NULL for a mode this program does not know (0: off). */
const struct counted *profile_counted(int mode);

/* Open, read and size NAME ("-" for stdin); fatal on any error. */
void profile_open(struct profile *p, const char *name);

/* Warn of a partial last word left out (after util-linux's own messages). */
void profile_warn_trailing(const struct profile *p);

/* A kernel writes 1 << N as the step: warn when P's is not a power of two
 * (nor 0, which some kernels write), naming what P looks like. */
void profile_warn_step(struct profile *p);

/* profile_open's halves, between which the caller may tell another format:
 * read NAME whole (fatal when empty or too large), then keep whole words
 * (a partial last word, a snapshot cut short, left out as util-linux). */
void profile_load(struct profile *p, const char *name);
void profile_check(struct profile *p);

/* Decide the byte order (unless NOAUTO: P's swap is kept, 0 when opened),
 * put the words in host order, read the step; 1 when found reversed. */
int profile_setup(struct profile *p, int noauto);

/* Read the baseline NAME once, a piece at a time, in P's byte order, and
 * subtract it from P, set up: it needs P's step and size and no counter
 * above P's (the same boot).  BASE, for its warnings and profile_close,
 * holds no counters. */
void profile_subtract(struct profile *p, struct profile *base,
    const char *name);

/* The counters, for attribution (valid until profile_close). */
struct counters profile_counters(const struct profile *p);

/* The words, set up, for the caller to keep and free; P holds none then. */
uint32_t *profile_take(struct profile *p);

/* Close P.  (Its size was checked once it was read, before any report:
 * a change after that leaves the copy read, which is what is reported.) */
void profile_close(struct profile *p);

#endif
