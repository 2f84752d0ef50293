/* attrib.c - the classic, exact and histogram attribution rules. */
#include "core/attrib.h"
#include "base/wide.h"

void
attrib_init(struct attrib *a, uint64_t origin, uint32_t step, uint64_t nwords,
    enum attrib_mode mode)
{
	*a = (struct attrib){ .origin = origin, .step = step,
	    .nwords = nwords, .mode = mode, .cursor = 1, .shift = -1 };
	if (step && (step & (step - 1)) == 0)
		a->shift = __builtin_ctz(step);
}

void
attrib_init_hist(struct attrib *a, const struct hist_range *r, size_t n)
{
	attrib_init(a, r[0].low, 0, r[n - 1].first + r[n - 1].nbins,
	    ATTRIB_HIST);
	a->ranges = r;
	a->nranges = n;
}

/* off / step: a shift for the usual power-of-two steps. */
static uint64_t
div_step(const struct attrib *a, uint64_t off)
{
	return a->shift >= 0 ? off >> a->shift : off / a->step;
}

/* First word whose bucket starts at or after ADDR, LAST at most. */
static uint64_t
bucket_at_or_after(const struct attrib *a, uint64_t addr, uint64_t last)
{
	uint64_t off = addr - a->origin, q = div_step(a, off);

	q += (q * a->step != off) + 1;
	return q < last ? q : last;
}

/* floor(A * B / C), C > 0, for a quotient that fits 64 bits; *REM: whether
 * there is a remainder.  Without a 128-bit integer (32-bit targets) the
 * product is divided a bit at a time: a few hundred operations a symbol. */
static uint64_t
muldiv(uint64_t a, uint64_t b, uint64_t c, int *rem)
{
#ifdef __SIZEOF_INT128__
	__extension__ unsigned __int128 x = (unsigned __int128)a * b;

	*rem = x % c != 0;
	return (uint64_t)(x / c);
#else
	uint64_t hi, lo, q = 0, r = 0;

	wide_mul(a, b, &hi, &lo);
	for (int i = 127; i >= 0; i--) {
		uint64_t top = r >> 63;		/* r << 1 would pass 2^64 */

		r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	*rem = r != 0;
	return q;
#endif
}

/* The first range that ends past X: its high address, or (BY_WORD) its
 * last word; nranges when none does. */
static size_t
range_past(const struct attrib *a, uint64_t x, int by_word)
{
	size_t lo = 0, hi = a->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hist_range *r = &a->ranges[mid];

		if (x >= (by_word ? r->first + r->nbins : r->high))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Hist: the first word whose bin starts at or after ADDR.  Bin j starts at
 * low + floor(j * span / nbins), >= low + d exactly when j * span >=
 * d * nbins: j = ceil(d * nbins / span). */
static uint64_t
bin_at_or_after(const struct attrib *a, uint64_t addr)
{
	size_t i = range_past(a, addr, 0);
	const struct hist_range *r = &a->ranges[i];
	uint64_t q;
	int rem;

	if (i == a->nranges)
		return a->nwords;
	if (addr <= r->low)
		return r->first;
	q = muldiv(addr - r->low, r->nbins, r->high - r->low, &rem);
	return r->first + q + (rem != 0);
}

int
attrib_close(struct attrib *a, uint64_t start, uint64_t next,
    struct attrib_span *sp)
{
	uint64_t last, j;

	if (a->mode == ATTRIB_HIST) {
		sp->first = sp->list_first = bin_at_or_after(a, start);
		sp->end = sp->list_end = bin_at_or_after(a, next);
		return 0;
	}
	if (a->mode == ATTRIB_EXACT) {
		/* *unknown*, unless the kernel keeps only text ticks there */
		last = a->nwords - (a->last_is_text ? 0 : 1);
		if (a->nwords <= 1 ||
		    (a->step && div_step(a, start - a->origin) >= a->nwords))
			return -1;
		sp->first = sp->end = 1;
		if (a->step) {
			sp->first = bucket_at_or_after(a, start, last);
			sp->end = bucket_at_or_after(a, next, last);
		}
		sp->list_first = sp->first;
		sp->list_end = sp->end;
		return 0;
	}
	/* classic: the word a symbol that ends at NEXT is credited up to */
	j = a->step ? div_step(a, next - a->origin) : 0;
	if (a->cursor >= a->nwords || j > a->nwords)
		return -1;
	sp->first = a->cursor;
	sp->end = j > a->cursor ? j : a->cursor;
	a->cursor = sp->end;
	sp->list_first = a->step ? div_step(a, start - a->origin) + 1 : 0;
	sp->list_end = j;
	return 0;
}

uint64_t
attrib_word_addr(const struct attrib *a, uint64_t k)
{
	const struct hist_range *r;
	size_t i;
	int rem;

	if (a->mode != ATTRIB_HIST)
		return (k - 1) * a->step + a->origin;
	if ((i = range_past(a, k, 1)) == a->nranges)
		return a->ranges[a->nranges - 1].high;
	r = &a->ranges[i];
	return r->low + muldiv(k - r->first, r->high - r->low, r->nbins, &rem);
}

double
attrib_load(uint64_t ticks, uint64_t length)
{
	return length ? (double)ticks / (double)length : 0.0;
}
