/*
 * profile.h - the profile source: /proc/profile, a snapshot file, a pipe.
 *
 * Knows the step, the counters and the byte order; knows nothing of
 * symbols.  A seekable input is read a chunk at a time (mapped, or with
 * pread where mapping fails, as on /proc), never held whole; only a
 * non-seekable one (a pipe, stdin, a decompressor) is kept in memory.
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
	void *map_base;		/* mapped chunk of a seekable file */
	size_t map_len;
	uint64_t map_off;
	int no_mmap, sigbus_set;
	uint32_t *rawbuf;	/* pread buffer where mapping fails */
	uint32_t *win;		/* window of words, host order */
	/* The non-zero counters, found by the byte-order pass, if few. */
	uint32_t *nz_idx, *nz_val;	/* word index, raw value */
	size_t nz_n, nz_cap, nz_cur;
	int nz_ok;
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

/* Most non-zero counters kept from the byte-order pass (else a 2nd pass). */
#define PROFILE_SPARSE_MAX ((size_t)1 << 17)

/* The counters, for attribution (valid until profile_close). */
struct counters profile_counters(struct profile *p);

void profile_close(struct profile *p);

#endif
