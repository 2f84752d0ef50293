/*
 * interval.h - the histogram source of --interval: the ticks gained between
 * two reads of the same profile.
 *
 * Keeps the previous read as the list of its non-zero counters (8 bytes
 * each: on a real capture a fraction of a percent of them; a dense copy
 * would take 4 bytes for every counter), and the difference as the list
 * of the counters that changed (8 bytes each).  A counter that went down
 * means the counters were reset: the difference is then the new values,
 * the ticks since the reset.  Knows nothing of symbols.
 */
#ifndef RP_INTERVAL_H
#define RP_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "hist/counters.h"

struct watch {
	const char *name;
	int swap;		/* the byte order found at the first read */
	uint32_t step;
	uint64_t nwords;	/* step word included */
	uint64_t size;		/* bytes of the first read, as the file said */
	struct watch_list {
		uint32_t *idx, *val;	/* word index, value; idx going up */
		size_t n, cap;
	} prev, diff, added;	/* non-zero words; changes; new non-zero */
	size_t pcur, dcur;	/* fold and sum() positions */
	int down;		/* a counter went down in this fold */
	uint32_t *win;		/* span(): the difference, dense */
	uint64_t win_first;
	size_t win_n;
};

/*
 * The first read (NOAUTO: -n), with the notes a report's read gives (a
 * reversed byte order, an odd step, a trailing partial word).  Returns 1
 * when the byte order is reversed.
 */
int watch_start(struct watch *w, const char *name, int noauto);

/* Read again; returns 1 when the counters were reset since the last read. */
int watch_next(struct watch *w);

/*
 * One read, in three steps (the unit tests feed them arrays): begin,
 * fold the words CUR[0..n) (words FIRST.. of the read, in order, all of
 * words 1.. once), end.  watch_fold_end() returns 1 when a counter went
 * down: the difference is then the new values.
 */
void watch_fold_begin(struct watch *w);
void watch_fold(struct watch *w, const uint32_t *cur, uint64_t first,
    size_t n);
int watch_fold_end(struct watch *w);

/* The difference, for attribution (valid until the next read). */
struct counters watch_counters(struct watch *w);

void watch_free(struct watch *w);

#endif
