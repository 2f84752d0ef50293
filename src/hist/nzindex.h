/*
 * nzindex.h - the non-zero counters of a profile, kept by the pass that
 * guesses the byte order, so that the report needs no second pass over
 * the file.
 *
 * A byte stream, per counter: its distance D from the word after the
 * previous one, and its raw value V coded as C = V << 1, or bswap(V) << 1
 * | 1 when that is smaller, so that small counts are small in either byte
 * order before the order is known.  The usual entry of a dense profile
 * (D < 32, C < 1024) takes two bytes: 1, D in 5 bits, C in 10.  Any other
 * takes D in a byte below 127 (127 and two bytes when D >= 127), then C
 * in two bytes little-endian when C < 2^15, else two with the top bit set
 * and three more.  Each window of NZ_WIN_WORDS words starts afresh
 * (distances from the window's first word, so D < 2^16) at stream offset
 * ck[window]: any window can be decoded on its own.  Past its budget the
 * index is dropped, and the report reads the file again.
 */
#ifndef RP_NZINDEX_H
#define RP_NZINDEX_H

#include <stddef.h>
#include <stdint.h>

#define NZ_WIN_WORDS ((size_t)1 << 16)

/*
 * Most bytes of the index (about 2 to 3 per non-zero counter): past it
 * the report reads the file a second time.
 */
#define NZ_MAX_BYTES ((size_t)9 << 19)

struct nzindex {
	unsigned char *buf;
	size_t len, cap, budget;
	size_t *ck;		/* stream offset of each window, then the end */
	uint64_t base;		/* building: the word after the last entry */
	int ok;			/* building, or complete and in use */
	/* the decoder of nz_sum: see nzindex.c */
	uint64_t win, next, code, from;
	size_t pos;
};

/* Start an index of NWIN windows, at most BUDGET bytes; 0 when none. */
int nz_begin(struct nzindex *x, uint64_t nwin, size_t budget);

/* Entries from now on are of window W. */
void nz_window(struct nzindex *x, uint64_t w);

/*
 * Count the words of W[0..n) with bits in their upper and lower 16 bits
 * (BIG, SMALL) and, with X building, note the non-zero ones; W[0] is word
 * FIRST of the profile.
 */
void nz_scan(struct nzindex *x, const uint32_t *w, size_t n, uint64_t first,
    uint64_t *big, uint64_t *small);

/* The index is complete (NWIN windows) or, past its budget, dropped. */
void nz_end(struct nzindex *x, uint64_t nwin);

/* Window W, N words, host order (SWAP: the raw words are reversed). */
void nz_decode(const struct nzindex *x, uint64_t w, int swap, uint32_t *out,
    size_t n);

/* The sum of words [from, to); moving forward is cheapest. */
uint64_t nz_sum(struct nzindex *x, int swap, uint64_t from, uint64_t to);

/*
 * The first word at or after FROM with a non-zero counter, or N (the
 * profile's words) when none is; like nz_sum, it moves the decoder on.
 */
uint64_t nz_next(struct nzindex *x, uint64_t from, uint64_t n);

void nz_free(struct nzindex *x);

#endif
