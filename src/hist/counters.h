/*
 * counters.h - a histogram as attribution sees it: words 0..n-1 in host
 * byte order, read a span at a time.  A kernel profile's word 0 is its
 * sampling step, word k >= 1 the counter for [origin + (k-1)*step,
 * origin + k*step), the last also every tick outside the kernel text.  A
 * gmon.out's bins lie over ascending, disjoint ranges (struct hist_range)
 * from word 1 on; its word 0 is unused.  Pure: no I/O.
 */
#ifndef RP_COUNTERS_H
#define RP_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define COUNTERS_BLOCK 1024	/* the words of a block sum */

struct counters {
	uint64_t n;		/* words, step word included */
	/* Words [from, from + *got) with 1 <= *got <= to - from, from < to <= n. */
	const uint32_t *(*span)(void *ctx, uint64_t from, uint64_t to, size_t *got);
	void *ctx;
	/* NULL, or blk[j] the sum of words [j, j + 1) * COUNTERS_BLOCK */
	const uint64_t *blk;
};

/* Counters over an array in memory, with its block sums or NULL. */
struct counters counters_array(const uint32_t *w, uint64_t n,
    const uint64_t *blk);

/* Sum of words [from, to), 1 <= from: counters, never the step word. */
uint64_t counters_sum(const struct counters *c, uint64_t from, uint64_t to);

/* Word k; k < c->n. */
uint32_t counters_get(const struct counters *c, uint64_t k);

/* A range of a gmon.out's histogram: NBINS bins over [low, high) in words
 * first.., bin j at low + floor(j * (high - low) / nbins) (a width that
 * may be fractional). */
struct hist_range {
	uint64_t low, high;	/* low < high */
	uint64_t nbins;		/* 1 <= nbins <= high - low */
	uint64_t first;		/* its first word */
};

#endif
