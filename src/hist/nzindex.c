/*
 * nzindex.c - the non-zero index of a profile (see nzindex.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hist/nzindex.h"
#include "base/util.h"

#define NZ_STEP ((size_t)1 << 16)	/* grown at a time, at most */

int
nz_begin(struct nzindex *x, uint64_t nwin, size_t budget)
{
	memset(x, 0, sizeof *x);
	if (budget == 0)
		return 0;
	x->budget = budget;
	x->ck = xmalloc((size_t)(nwin + 1) * sizeof *x->ck);
	x->ok = 1;
	x->win = UINT64_MAX;
	return 1;
}

void
nz_window(struct nzindex *x, uint64_t w)
{
	if (!x->ok)
		return;
	x->ck[w] = x->len;
	x->base = w * (uint64_t)NZ_WIN_WORDS;
}

/* The index is full: grow it, or drop it past its budget; 0 when dropped. */
static int
nz_grow(struct nzindex *x)
{
	size_t step = x->budget / 16 < NZ_STEP ? x->budget / 16 + 32 : NZ_STEP;

	if (x->cap + step > x->budget) {
		x->ok = 0;
		return 0;
	}
	x->cap += step;
	x->buf = xrealloc(x->buf, x->cap);
	return 1;
}

/* Append the entry D, C (see nzindex.h) at B; returns the end. */
static unsigned char *
nz_put(unsigned char *b, uint64_t d, uint64_t c)
{
	if (d < 32 && c < 1024) {
		b[0] = (unsigned char)(0x80 | d << 2 | c >> 8);
		b[1] = (unsigned char)c;
		return b + 2;
	}
	if (d < 127)
		*b++ = (unsigned char)d;
	else {
		b[0] = 127;
		b[1] = (unsigned char)d;
		b[2] = (unsigned char)(d >> 8);
		b += 3;
	}
	b[0] = (unsigned char)c;
	b[1] = (unsigned char)(c >> 8);
	if (c < 0x8000)
		return b + 2;
	b[1] = (unsigned char)((c >> 8 & 0x7f) | 0x80);
	b[2] = (unsigned char)(c >> 15);
	b[3] = (unsigned char)(c >> 23);
	b[4] = (unsigned char)(c >> 31);
	return b + 5;
}

/*
 * Decode the entry at *PP: its distance; *C its value's code.  The two
 * usual forms are decoded without a branch (they mix in a dense profile),
 * the escapes are rare.  It may read a byte past the entry (the index has
 * room after its end).
 */
static inline __attribute__((always_inline)) uint64_t
nz_get(const unsigned char **pp, uint64_t *c)
{
	const unsigned char *b = *pp;
	uint64_t b0 = b[0], b1 = b[1], b2 = b[2];
	uint64_t two = b0 >> 7, d, x;

	if (b0 == 127) {		/* D >= 127 */
		d = b1 | b2 << 8;
		b += 2;
		b2 = b[2];
		b1 = b[1];
		two = 0;
	} else
		d = two ? (b0 >> 2) & 31 : b0;
	x = two ? (b0 & 3) << 8 | b1 : b1 | b2 << 8;
	b += 3 - two;
	if (x & ~two << 15 & 0x8000) {	/* C >= 2^15 */
		x = (x & 0x7fff) | ((uint64_t)b[0] | (uint64_t)b[1] << 8 |
		    (uint64_t)b[2] << 16) << 15;
		b += 3;
	}
	*c = x;
	*pp = b;
	return d;
}

/*
 * Record word K, raw value V != 0, K above every word recorded before
 * (inline: it is called for every non-zero counter).
 */
static inline __attribute__((always_inline)) void
nz_note(struct nzindex *x, uint64_t k, uint32_t v)
{
	uint32_t sv = __builtin_bswap32(v);
	unsigned char *b;

	/* room for an entry, and a byte past it */
	if (x->len + 20 > x->cap && !nz_grow(x))
		return;
	b = nz_put(x->buf + x->len, k - x->base,
	    sv < v ? (uint64_t)sv << 1 | 1 : (uint64_t)v << 1);
	x->len = (size_t)(b - x->buf);
	x->base = k + 1;
}

/*
 * The non-zero words among 16, as a bit mask, with no branch: a vector of
 * 0/1 bytes, then eight bytes at a time gathered by one multiplication
 * (byte i of X lands in bit 56 + i of X * 0x0102040810204080, X holding
 * byte i in its bits 8i..8i+7: loaded as is on a little-endian host,
 * byte-swapped on a big-endian one).
 */
static unsigned
mask16(const uint32_t *w)
{
	unsigned char nz[16];
	uint64_t lo, hi;
	const uint64_t gather = UINT64_C(0x0102040810204080);

	for (int j = 0; j < 16; j++)
		nz[j] = w[j] != 0;
	memcpy(&lo, nz, 8);
	memcpy(&hi, nz + 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	lo = __builtin_bswap64(lo);	/* byte i to bits 8i..8i+7, as above */
	hi = __builtin_bswap64(hi);
#endif
	return (unsigned)((lo * gather) >> 56) |
	    (unsigned)((hi * gather) >> 56) << 8;
}

/* Count the halves in use among 16 words, branch-free (vectorised). */
static void
halves16(const uint32_t *w, uint64_t *big, uint64_t *small)
{
	uint32_t b = 0, s = 0;

	for (int j = 0; j < 16; j++) {
		b += w[j] > 0xffffu;
		s += (w[j] & 0xffffu) != 0;
	}
	*big += b;
	*small += s;
}

/*
 * Sixty-four words at a time, with no branch but one loop over the
 * non-zero words, found through a bit mask: the mask is vector code at
 * -O2, and a dense profile (one counter in 50 non-zero, say) costs one
 * mispredicted branch per 64 words rather than one per non-zero word.
 * Returns the words done (a multiple of 64).
 */
static size_t
scan64(struct nzindex *x, const uint32_t *w, size_t n, uint64_t first,
    uint64_t *big, uint64_t *small)
{
	size_t i = 0;
	uint64_t b = 0, s = 0;

	for (; i + 64 <= n && x->ok; i += 64) {
		uint64_t m = 0;

		for (int g = 0; g < 4; g++)
			m |= (uint64_t)mask16(w + i + 16 * g) << 16 * g;
		for (; m; m &= m - 1) {	/* the block is counted whole */
			size_t j = i + (size_t)__builtin_ctzll(m);

			b += w[j] > 0xffffu;
			s += (w[j] & 0xffffu) != 0;
			nz_note(x, first + j, w[j]);
		}
	}
	*big += b;
	*small += s;
	return i;
}

void
nz_scan(struct nzindex *x, const uint32_t *w, size_t n, uint64_t first,
    uint64_t *big, uint64_t *small)
{
	int note = x != NULL && x->ok;
	size_t i = note ? scan64(x, w, n, first, big, small) : 0;

	note = note && x->ok;
	for (; i + 16 <= n; i += 16) {
		unsigned m = note ? mask16(w + i) : 0;

		halves16(w + i, big, small);
		for (; m && x->ok; m &= m - 1)
			nz_note(x, first + i + (size_t)__builtin_ctz(m),
			    w[i + (size_t)__builtin_ctz(m)]);
	}
	for (; i < n; i++) {
		*big += w[i] > 0xffffu;
		*small += (w[i] & 0xffffu) != 0;
		if (note && x->ok && w[i])
			nz_note(x, first + i, w[i]);
	}
}

void
nz_end(struct nzindex *x, uint64_t nwin)
{
	if (!x->ok) {
		nz_free(x);
		return;
	}
	x->ck[nwin] = x->len;
	x->win = UINT64_MAX;
	if (x->buf == NULL)	/* no entry: a buffer all the same, as the
				 * decoders offset it (NULL + 0 is undefined) */
		x->buf = xmalloc(1);
}

/* The host-order value of a coded counter. */
static uint32_t
nz_value(int swap, uint64_t code)
{
	uint32_t v = (uint32_t)(code >> 1);

	return ((unsigned)code & 1) ^ (unsigned)swap ? __builtin_bswap32(v) : v;
}

void
nz_decode(const struct nzindex *x, uint64_t w, int swap, uint32_t *out,
    size_t n)
{
	const unsigned char *b = x->buf + x->ck[w];
	const unsigned char *e = x->buf + x->ck[w + 1];
	uint64_t k = 0;

	memset(out, 0, n * 4);
	while (b < e) {
		uint64_t c;

		k += nz_get(&b, &c);
		out[k++] = nz_value(swap, c);
	}
}

/*
 * The sum's decoder.  Reports move forward: it resumes where the last sum
 * stopped, and jumps to the window of FROM when that is further on, or
 * behind.  win is the window being decoded (UINT64_MAX: none), pos the
 * offset of the entry after the pending one, next the pending entry's
 * word (UINT64_MAX: none left in the window), code its value; every entry
 * below from was consumed, and none lies in [from, next) (nz_next may
 * leave from in a window before win, all of whose later words are zero).
 */
static void
nz_seek(struct nzindex *x, uint64_t w)
{
	const unsigned char *b = x->buf + x->ck[w];

	x->win = w;
	x->from = w * (uint64_t)NZ_WIN_WORDS;
	x->next = UINT64_MAX;
	if (x->ck[w] < x->ck[w + 1])
		x->next = x->from + nz_get(&b, &x->code);
	x->pos = (size_t)(b - x->buf);
}

/* The decoder ready for a walk from FROM on: seeking only when it must. */
static void
nz_resume(struct nzindex *x, uint64_t from)
{
	if (x->win == UINT64_MAX || from < x->from ||
	    from / NZ_WIN_WORDS > x->win)
		nz_seek(x, from / NZ_WIN_WORDS);
}

uint64_t
nz_sum(struct nzindex *x, int swap, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	if (from >= to)
		return 0;
	nz_resume(x, from);
	for (;;) {
		const unsigned char *b = x->buf + x->pos;
		const unsigned char *e = x->buf + x->ck[x->win + 1];
		uint64_t next = x->next, code = x->code;
		uint64_t wend = (x->win + 1) * (uint64_t)NZ_WIN_WORDS;
		uint64_t end = to < wend ? to : wend;

		while (next < end) {
			if (next >= from)
				sum += nz_value(swap, code);
			if (b < e)
				next += 1 + nz_get(&b, &code);
			else
				next = UINT64_MAX;
		}
		x->pos = (size_t)(b - x->buf);
		x->next = next;
		x->code = code;
		if (to <= wend)
			break;
		nz_seek(x, x->win + 1);
	}
	x->from = to;
	return sum;
}

uint64_t
nz_next(struct nzindex *x, uint64_t from, uint64_t n)
{
	uint64_t nwin = (n + NZ_WIN_WORDS - 1) / NZ_WIN_WORDS;

	if (from >= n)
		return n;
	nz_resume(x, from);
	for (;;) {
		const unsigned char *b = x->buf + x->pos;
		const unsigned char *e = x->buf + x->ck[x->win + 1];

		while (x->next < from) {	/* consumed: below FROM */
			if (b < e)
				x->next += 1 + nz_get(&b, &x->code);
			else
				x->next = UINT64_MAX;
		}
		x->pos = (size_t)(b - x->buf);
		if (x->next != UINT64_MAX || x->win + 1 >= nwin)
			break;
		nz_seek(x, x->win + 1);
	}
	x->from = from;
	return x->next < n ? x->next : n;
}

void
nz_free(struct nzindex *x)
{
	free(x->buf);
	free(x->ck);
	x->buf = NULL;
	x->ck = NULL;
	x->ok = 0;
	x->len = x->cap = 0;
}
