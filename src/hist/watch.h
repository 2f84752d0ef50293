/*
 * watch.h - the ticks gained between two reads of the same profile, as
 * --interval reports them: two arrays of its words in host order, the
 * last read and the difference to the one before.  A counter that went
 * down means a reset: the difference is then the new values, the ticks
 * since.  Pure: no I/O, no symbols.
 */
#ifndef RP_WATCH_H
#define RP_WATCH_H

#include <stdint.h>

#include "hist/counters.h"

struct watch {
	uint64_t nwords;	/* step word included */
	uint32_t *prev;		/* the last read; word 0 the step */
	uint32_t *diff;		/* the difference; NULL before a second read */
};

/* Start from the first read FIRST, NWORDS words (W takes it: malloc'd). */
void watch_start(struct watch *w, uint32_t *first, uint64_t nwords);

/* The next read CUR, as many words (W takes it): its difference to the
 * last replaces the previous one.  1 when a counter went down (a reset). */
int watch_update(struct watch *w, uint32_t *cur);

/* The difference, for attribution (valid until the next update). */
struct counters watch_counters(const struct watch *w);

/* The difference is no longer needed: freed before the next read. */
void watch_forget(struct watch *w);

void watch_free(struct watch *w);

#endif
