/*
 * profile.h - the profile source: /proc/profile, a snapshot file, a pipe.
 *
 * Knows the step, the counters and the byte order; knows nothing of
 * symbols.  A regular file (or /proc/profile) is read a window at a time
 * with pread into one bounded buffer, never held whole: one pass finds
 * the byte order and keeps the non-zero counters (nzindex.h), from which
 * the report is made; only a non-seekable input (a pipe, stdin, a
 * decompressor) is kept in memory.  A regular file whose size changes
 * while it is read is an error naming it.
 */
#ifndef RP_PROFILE_H
#define RP_PROFILE_H

#include <stdint.h>

#include "hist/counters.h"
#include "base/input.h"
#include "hist/nzindex.h"

/* Larger than any profile a kernel can produce: 2^28 counters + step. */
#define PROFILE_MAX_BYTES ((uint64_t)1 << 30 | 4)

/* The file reader: memory-held data, or a window at a time. */
struct preader {
	struct input in;
	unsigned char *data;	/* whole contents, non-seekable input */
	uint32_t *buf;		/* a window read from the file */
};

/* The window the counters were last served from. */
struct pwindow {
	uint32_t *buf;		/* host order, baseline subtracted */
	const uint32_t *cur;	/* the words: buf, or the data in place */
	uint64_t first;
	size_t n;
};

struct profile {
	const char *name;
	uint64_t bytes;		/* whole words only */
	unsigned trailing;	/* bytes of a partial last word, left out */
	uint64_t nwords;	/* step word included */
	int swap;		/* words are in the other byte order */
	uint32_t step;
	struct profile *base;	/* subtracted, or NULL */
	size_t index_budget;	/* most bytes of the index; 0: none */
	struct preader rd;
	struct nzindex nz;	/* the non-zero counters, when nz.ok */
	struct pwindow win;
};

/* Open and size NAME ("-" for stdin); fatal on any error. */
void profile_open(struct profile *p, const char *name);

/* Warn when a trailing partial word was left out (after util-linux's own
 * messages). */
void profile_warn_trailing(const struct profile *p);

/*
 * A kernel writes 1 << N as the step: warn when P's is not a power of two
 * (and not 0, which some kernels write), naming what P looks like.
 */
void profile_warn_step(struct profile *p);

/*
 * The two halves of profile_open: open NAME (fatal when it is empty or
 * too large), then check that it is a whole number of words.  In between,
 * the caller may look at the contents to tell another format.
 */
void profile_load(struct profile *p, const char *name);
void profile_check(struct profile *p);

/* The first N bytes at most into BUF; returns the count. */
size_t profile_peek(struct profile *p, unsigned char *buf, size_t n);

/* The whole contents, read into memory (valid until profile_close). */
const unsigned char *profile_bytes(struct profile *p);

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

/* The counters, for attribution (valid until profile_close). */
struct counters profile_counters(struct profile *p);

/*
 * Close P: a regular file whose size changed since it was opened is an
 * error naming it (what was read of it may be of two versions).
 */
void profile_close(struct profile *p);

#endif
