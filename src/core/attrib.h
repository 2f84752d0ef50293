/*
 * attrib.h - attribution of profile counters to symbols.  Pure, no I/O.
 * Through struct counters (hist/counters.h): word 0 the step, word k >= 1
 * the counter for [origin + (k-1)*step, origin + k*step), the last word
 * also every tick outside the kernel text.  A symbol [start, next) closes
 * when the line at NEXT is read, into the words it is credited with and
 * those -s lists, by one of three modes:
 *   classic: from where the previous symbol stopped up to, not including,
 *            word (next - origin) / step: a symbol's last bucket goes to
 *            its successor (util-linux's rule);
 *   exact:   the words whose bucket starts inside [start, next), never the
 *            last (up to 6.10 the kernel clamps addresses outside the text
 *            into it), unless last_is_text (6.11 on: a text bucket);
 *   hist:    a gmon.out's ascending, disjoint ranges: range r's NBINS bins
 *            over [low, high) are words first..first+nbins-1 (from word 1),
 *            bin j from low + floor(j * (high - low) / nbins); a symbol gets
 *            the bins that start inside it, no word *unknown* by position.
 */
#ifndef RP_ATTRIB_H
#define RP_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "hist/counters.h"

enum attrib_mode { ATTRIB_CLASSIC, ATTRIB_EXACT, ATTRIB_HIST };

struct attrib {
	uint64_t origin;
	uint64_t step;
	uint64_t nwords;
	enum attrib_mode mode;
	uint64_t cursor;	/* classic: the next word to read */
	int shift;		/* log2(step) when a power of two, else -1 */
	int last_is_text;	/* exact: the last word is a text bucket */
	const struct hist_range *ranges;	/* hist */
	size_t nranges;
};

struct attrib_span {
	uint64_t first, end;		/* words credited: [first, end) */
	uint64_t list_first, list_end;	/* words -s lists */
};

void attrib_init(struct attrib *a, uint64_t origin, uint32_t step,
    uint64_t nwords, enum attrib_mode mode);

/* Histograms over the N >= 1 ranges R (R must outlive A). */
void attrib_init_hist(struct attrib *a, const struct hist_range *r,
    size_t n);

/* Close the symbol [start, next), origin <= start <= next: 0, or -1 when
 * it lies beyond the end of the profile. */
int attrib_close(struct attrib *a, uint64_t start, uint64_t next,
    struct attrib_span *sp);

/* Address of word k >= 1 (hist: its bin's; the last range's end past it). */
uint64_t attrib_word_addr(const struct attrib *a, uint64_t k);

/* ticks / length, or 0 when the length is 0. */
double attrib_load(uint64_t ticks, uint64_t length);

#endif
