/*
 * profile.h - the profile source: /proc/profile, a snapshot file, a pipe.
 *
 * Knows the step, the counters and the byte order; knows nothing of
 * symbols.  A seekable input (a regular file, /proc/profile) is read a
 * window at a time with pread, never held whole: one pass finds the byte
 * order and keeps the non-zero counters, from which the report is made;
 * only a non-seekable one (a pipe, stdin, a decompressor) is kept in
 * memory.
 */
#ifndef RP_PROFILE_H
#define RP_PROFILE_H

#include <stdint.h>

#include "attrib.h"
#include "input.h"

/* Larger than any profile a kernel can produce: 2^28 counters + step. */
#define PROFILE_MAX_BYTES ((uint64_t)1 << 30 | 4)

struct profile {
	const char *name;
	struct input in;
	unsigned char *data;	/* whole contents, non-seekable input */
	uint64_t bytes;		/* whole words only */
	unsigned trailing;	/* bytes of a partial last word, left out */
	uint64_t nwords;	/* step word included */
	int swap;		/* words are in the other byte order */
	uint32_t step;
	struct profile *base;	/* subtracted, or NULL */
	uint32_t *rawbuf;	/* pread buffer */
	uint32_t *win;		/* window of words, host order */
	const uint32_t *cur;	/* the window: win, or rawbuf in place */
	/* The non-zero counters, kept by the byte-order pass (profile.c). */
	int nz_ok;		/* the index is complete and in use */
	size_t nz_budget;	/* most bytes it may take, else dropped */
	unsigned char *nz_buf;
	size_t nz_len, nz_cap;
	size_t *nz_ck;		/* stream offset of each window */
	uint64_t nz_nck, nz_base;
	uint64_t nz_win, nz_next, nz_code, nz_from;	/* the sum's decoder */
	size_t nz_pos;
	uint64_t win_first;
	size_t win_n;
};

/* Open and size NAME ("-" for stdin); fatal on any error. */
void profile_open(struct profile *p, const char *name);

/* Warn when a trailing partial word was left out (after util-linux's own
 * messages). */
void profile_warn_trailing(const struct profile *p);

/*
 * Decide the byte order (unless NOAUTO), read the step and, with a
 * baseline, check that it belongs to the same boot.  Returns 1 when the
 * byte order was found reversed.
 */
int profile_setup(struct profile *p, struct profile *base, int noauto);

/* The byte-order heuristic: reversed when more words use the upper half. */
int profile_guess_swapped(uint64_t big, uint64_t small);

/* Count words of W[0..n) with bits in their upper/lower 16 bits. */
void profile_count_halves(const uint32_t *w, size_t n, uint64_t *big,
    uint64_t *small);

/*
 * Most bytes of the non-zero index (about 2 to 3 per non-zero counter):
 * past it the report reads the file a second time.
 */
#define PROFILE_INDEX_MAX ((size_t)9 << 19)

/* The counters, for attribution (valid until profile_close). */
struct counters profile_counters(struct profile *p);

void profile_close(struct profile *p);

#endif
