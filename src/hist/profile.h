/*
 * profile.h - the profile source: /proc/profile, a snapshot file, a pipe.
 *
 * Knows the step, the counters and the byte order; knows nothing of
 * symbols.  A seekable input is read a chunk at a time (mapped, or with
 * pread where mapping fails, as on /proc), never held whole: one pass finds the byte
 * order and keeps the non-zero counters, from which the report is made;
 * only a non-seekable one (a pipe, stdin, a decompressor) is kept in
 * memory.
 */
#ifndef RP_PROFILE_H
#define RP_PROFILE_H

#include <stdint.h>

#include "hist/counters.h"
#include "base/input.h"

/* From this size on, the byte-order pass runs on two threads. */
#define PROFILE_TWO_THREADS ((uint64_t)1 << 20)

/* Larger than any profile a kernel can produce: 2^28 counters + step. */
#define PROFILE_MAX_BYTES ((uint64_t)1 << 30 | 4)

struct profile;

/*
 * Where a reader of the counters is: its window of words and its place in
 * the non-zero index.  Readers with cursors of their own may read the
 * same profile at once (profile_counters_cursor).
 */
struct pcursor {
	struct profile *p;
	uint32_t *win;		/* window of words, host order */
	const uint32_t *cur;	/* the window: win, or rawbuf in place */
	uint64_t win_first;
	size_t win_n;
	uint64_t nz_win, nz_next, nz_code, nz_from;	/* the sum's decoder */
	size_t nz_pos;
};

/* Where one thread reads the file: a mapped chunk, or a pread buffer. */
struct preader {
	void *map_base;		/* mapped chunk of a regular file */
	size_t map_len;
	uint64_t map_off;
	int no_mmap;
	uint32_t *rawbuf;	/* pread buffer where mapping fails */
};

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
	struct preader rd;	/* how this thread reads the file */
	/* The non-zero counters, kept by the byte-order pass (profile.c). */
	int nz_ok;		/* the index is complete and in use */
	size_t nz_budget;	/* most bytes it may take, else dropped */
	unsigned char *nz_buf;	/* mapped: nz_region bytes, nz_len used */
	size_t nz_len, nz_region;
	size_t nz_used;		/* reserved by the passes (atomic) */
	int nz_full;		/* a pass found the budget spent (atomic) */
	size_t *nz_ck;		/* stream offset of each window */
	struct pcursor c0;	/* the reading state of profile_counters */
};

/* Open and size NAME ("-" for stdin); fatal on any error. */
void profile_open(struct profile *p, const char *name);

/* Warn when a trailing partial word was left out (after util-linux's own
 * messages). */
void profile_warn_trailing(const struct profile *p);

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

/*
 * Most bytes of the non-zero index (about 2 to 3 per non-zero counter):
 * past it the report reads the file a second time.
 */
#define PROFILE_INDEX_MAX ((size_t)9 << 19)

/* The counters, for attribution (valid until profile_close). */
struct counters profile_counters(struct profile *p);

/*
 * Whether readers with cursors of their own may read P at once: when the
 * counters come from the index or from memory, not from the file.
 */
int profile_shareable(const struct profile *p);

/*
 * The counters read through cursor C (zeroed by the caller, freed with
 * pcursor_free), for one thread; profile_shareable(P) must hold.
 */
struct counters profile_counters_cursor(struct profile *p, struct pcursor *c);
void pcursor_free(struct pcursor *c);

void profile_close(struct profile *p);

#endif
