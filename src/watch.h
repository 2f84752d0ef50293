/*
 * watch.h - the histogram source of --interval: the ticks gained between
 * two reads of the same profile.
 *
 * Keeps the previous read as one 32-bit word per counter (the kernel's
 * own size for its profile), and the difference as a list of the words
 * that changed (8 bytes each: few change within an interval).  A counter
 * that went down means the counters were reset: the difference is then
 * the new values, the ticks since the reset.  Knows nothing of symbols.
 */
#ifndef RP_WATCH_H
#define RP_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "attrib.h"

struct watch {
	const char *name;
	int swap;		/* the byte order found at the first read */
	uint32_t step;
	uint64_t nwords;	/* step word included */
	uint32_t *prev;		/* the last read, host order */
	uint32_t *didx, *dval;	/* the words that changed, and by how much */
	size_t dn, dcap, dcur;
	uint32_t *win;		/* span(): the difference, dense */
	uint64_t win_first;
	size_t win_n;
};

/* The first read (NOAUTO: -n).  Returns 1 when the byte order is reversed. */
int watch_start(struct watch *w, const char *name, int noauto);

/* Read again; returns 1 when the counters were reset since the last read. */
int watch_next(struct watch *w);

/*
 * Fold the words CUR[0..n), words FIRST.. of the new read, into the
 * previous ones and the difference.  Returns 1 when one went down.
 */
int watch_fold(struct watch *w, const uint32_t *cur, uint64_t first,
    size_t n);

/* After a fold of every word: a reset makes the new values the difference. */
void watch_fold_end(struct watch *w, int reset);

/* Start a fold. */
void watch_fold_begin(struct watch *w);

/* The difference, for attribution (valid until the next read). */
struct counters watch_counters(struct watch *w);

void watch_free(struct watch *w);

#endif
