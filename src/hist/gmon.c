/*
 * gmon.c - reading gmon.out: GNU tagged records and the BSD header.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/gmon.h"
#include "base/util.h"

#define GNU_HDR 20		/* "gmon", version, 12 spare bytes */
#define TAG_HIST 0
#define TAG_ARC 1
#define TAG_BB 2
/* Bins converted to host-order words at a time. */
#define WINDOW 4096

/*
 * The bins as served: read from the file's bytes, where they stay (no
 * copy), a window at a time; the records of one range added up, a
 * baseline's subtracted.
 */
struct gmon_bins {
	const unsigned char *b;	/* the file */
	size_t n;		/* its size */
	int big;
	const struct hist_range *ranges;
	size_t nranges;
	size_t *recs;		/* the records' bin offsets, by range */
	size_t *rfirst;		/* range i's: recs[rfirst[i]..rfirst[i + 1]) */
	const struct gmon_bins *base;	/* subtracted, or NULL */
	uint32_t win[WINDOW];
};

/* Bin K of the record whose bins start at OFF. */
static uint32_t
bin16(const struct gmon_bins *v, size_t off, uint64_t k)
{
	const unsigned char *p = v->b + off + 2 * (size_t)k;

	return v->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

/* Bins [k, k + n) of range I, added up over its records, into W. */
static void
range_bins(const struct gmon_bins *v, size_t i, uint64_t k, size_t n,
    uint32_t *w)
{
	memset(w, 0, n * sizeof *w);
	for (size_t j = v->rfirst[i]; j < v->rfirst[i + 1]; j++)
		for (size_t x = 0; x < n; x++)
			w[x] += bin16(v, v->recs[j], k + x);
}

/* The range that holds word K >= 1 (K at most the last word). */
static size_t
range_of_word(const struct gmon_bins *v, uint64_t k)
{
	size_t lo = 0, hi = v->nranges;

	while (lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k >= v->ranges[mid].first)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Words [k, k + *got) into W: at most WINDOW, within one range, at most
 * TO - K (word 0 alone: 0).  Not less a baseline's.
 */
static void
window(const struct gmon_bins *v, uint64_t k, uint64_t to, uint32_t *w,
    size_t *got)
{
	size_t i, n;
	const struct hist_range *x;

	if (k == 0) {
		w[0] = 0;
		*got = 1;
		return;
	}
	i = range_of_word(v, k);
	x = &v->ranges[i];
	n = to - k < WINDOW ? (size_t)(to - k) : WINDOW;
	if (x->first + x->nbins - k < n)
		n = (size_t)(x->first + x->nbins - k);
	range_bins(v, i, k - x->first, n, w);
	*got = n;
}

/* A cursor over the file under one guess of byte order and address size. */
struct rd {
	const unsigned char *b;
	size_t n, pos;
	int big, ptr;
	char *err;
	size_t errlen;
	/* the ranges met so far: by (low, high, nbins) in an open-addressing
	 * table of range index + 1; where each was made; capacities */
	size_t *slot, nslot, *made_at, rcap;
	/* the histogram records: range index (in file order) and bin offset */
	size_t *rec_range, *rec_off, reccap;
};

static int
fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t
get(const struct rd *r, size_t off, int len)
{
	uint64_t v = 0;

	for (int i = 0; i < len; i++) {
		int k = r->big ? i : len - 1 - i;
		v = v << 8 | r->b[off + (size_t)k];
	}
	return v;
}

/* Whether LEN more bytes are there. */
static int
have(const struct rd *r, uint64_t len)
{
	return r->n - r->pos >= len;
}

static uint64_t
take(struct rd *r, int len)
{
	uint64_t v = get(r, r->pos, len);

	r->pos += (size_t)len;
	return v;
}

/*
 * Check a histogram's range and bin count, and that its bins are there.
 * NB: the bins start at r->pos.
 */
static int
check_hist(struct rd *r, uint64_t low, uint64_t high, uint64_t nbins,
    uint32_t rate)
{
	if (low >= high)
		return fail(r, "histogram range 0x%llx-0x%llx is empty "
		    "(low_pc >= high_pc)", (unsigned long long)low,
		    (unsigned long long)high);
	if (nbins == 0 || nbins > GMON_MAX_BINS || nbins > high - low)
		return fail(r, "impossible bin count %llu for a range of "
		    "%llu bytes", (unsigned long long)nbins,
		    (unsigned long long)(high - low));
	if (!have(r, nbins * 2))
		return fail(r, "short histogram: %llu bins need %llu bytes, "
		    "%llu left", (unsigned long long)nbins,
		    (unsigned long long)nbins * 2,
		    (unsigned long long)(r->n - r->pos));
	if (rate == 0)
		return fail(r, "profiling rate is 0");
	return 0;
}

static size_t
hash_range(uint64_t low, uint64_t high, uint64_t nbins)
{
	uint64_t h = low * 0x9e3779b97f4a7c15ull ^ high * 0xc2b2ae3d27d4eb4full ^
	    nbins * 0x165667b19e3779f9ull;

	return (size_t)(h ^ h >> 29);
}

/* The table slot of [low, high) in NBINS bins: its range, or empty. */
static size_t *
range_slot(struct rd *r, const struct gmon *g, uint64_t low, uint64_t high,
    uint64_t nbins)
{
	size_t i = hash_range(low, high, nbins) & (r->nslot - 1);

	for (;; i = (i + 1) & (r->nslot - 1)) {
		const struct hist_range *x;

		if (r->slot[i] == 0)
			return &r->slot[i];
		x = &g->ranges[r->slot[i] - 1];
		if (x->low == low && x->high == high && x->nbins == nbins)
			return &r->slot[i];
	}
}

/* Room for one more range in the table (kept at most half full). */
static int
grow_slots(struct rd *r, const struct gmon *g)
{
	size_t *old = r->slot, n = r->nslot;

	if (g->nranges + 1 <= n / 2)
		return 0;
	r->nslot = n ? n * 2 : 64;
	r->slot = calloc(r->nslot, sizeof *r->slot);
	if (r->slot == NULL) {
		r->slot = old;
		r->nslot = n;
		return fail(r, "out of memory for histogram ranges");
	}
	for (size_t i = 0; i < n; i++)
		if (old[i] != 0) {
			const struct hist_range *x = &g->ranges[old[i] - 1];

			*range_slot(r, g, x->low, x->high, x->nbins) = old[i];
		}
	free(old);
	return 0;
}

static int
low_cmp(const void *x, const void *y, void *ctx)
{
	const struct hist_range *a = x, *b = y;

	(void)ctx;
	return (a->low > b->low) - (a->low < b->low);
}

/* Whether two of the N ranges at V overlap; sorts V by low. */
static int
any_overlap(struct hist_range *v, size_t n)
{
	heap_sort(v, n, sizeof *v, low_cmp, NULL);
	for (size_t i = 1; i < n; i++)
		if (v[i].low < v[i - 1].high)
			return 1;
	return 0;
}

/*
 * Overlapping ranges are an error, found when all are in (O(n log n), not
 * a scan of all ranges per record): the one reported is the first that
 * the file order meets, with the first range it overlaps, as a scan would
 * have found them.  Returns -1 with that message, or 0 when none do.
 */
static int
check_overlap(struct rd *r, const struct gmon *g)
{
	struct hist_range *v;
	const struct hist_range *x, *y;
	size_t lo = 1, hi = g->nranges, c;

	if (g->nranges < 2)
		return 0;
	v = malloc(g->nranges * sizeof *v);
	if (v == NULL)
		return fail(r, "out of memory for histogram ranges");
	memcpy(v, g->ranges, g->nranges * sizeof *v);
	if (!any_overlap(v, g->nranges)) {
		free(v);
		return 0;
	}
	while (lo + 1 < hi) {	/* the first lo ranges do not overlap; hi do */
		size_t mid = lo + (hi - lo) / 2;

		memcpy(v, g->ranges, mid * sizeof *v);
		if (any_overlap(v, mid))
			hi = mid;
		else
			lo = mid;
	}
	free(v);
	c = hi - 1;		/* the range that overlaps an earlier one */
	y = &g->ranges[c];
	for (x = g->ranges; !(y->low < x->high && x->low < y->high); x++)
		;
	r->pos = r->made_at[c];
	return fail(r, "histogram records overlap (0x%llx-0x%llx in %llu bins, "
	    "0x%llx-0x%llx in %llu)", (unsigned long long)x->low,
	    (unsigned long long)x->high, (unsigned long long)x->nbins,
	    (unsigned long long)y->low, (unsigned long long)y->high,
	    (unsigned long long)y->nbins);
}

/*
 * Where the range [low, high) of NBINS bins is among G's: 1 with *AT its
 * index, 0 when it is new (overlaps are checked at the end).
 */
static int
find_range(struct rd *r, const struct gmon *g, uint64_t low, uint64_t high,
    uint64_t nbins, size_t *at)
{
	size_t *s;

	if (r->nslot == 0)
		return 0;
	s = range_slot(r, g, low, high, nbins);
	*at = *s - 1;
	return *s != 0;
}

/* A new range (in file order, for now); the arrays grow by doubling. */
static int
new_range(struct rd *r, struct gmon *g, uint64_t low, uint64_t high,
    uint64_t nbins, size_t *at)
{
	struct hist_range *x;

	if (grow_slots(r, g) < 0)
		return -1;
	if (g->nranges == r->rcap) {
		size_t cap = r->rcap ? r->rcap * 2 : 16, *m;

		x = realloc(g->ranges, cap * sizeof *x);
		if (x == NULL)
			return fail(r, "out of memory for histogram ranges");
		g->ranges = x;
		m = realloc(r->made_at, cap * sizeof *m);
		if (m == NULL)
			return fail(r, "out of memory for histogram ranges");
		r->made_at = m;
		r->rcap = cap;
	}
	x = &g->ranges[g->nranges];
	x->low = low;
	x->high = high;
	x->nbins = nbins;
	x->first = g->nranges;	/* its index in file order, until ordered */
	r->made_at[g->nranges] = r->pos;
	*range_slot(r, g, low, high, nbins) = g->nranges + 1;
	*at = g->nranges++;
	return 0;
}

/* Keep the record of range AT whose bins start at r->pos. */
static int
add_record(struct rd *r, const struct gmon *g, size_t at)
{
	size_t n = (size_t)g->nhist;

	if (n == r->reccap) {
		size_t cap = r->reccap ? r->reccap * 2 : 16, *a, *b;

		a = realloc(r->rec_range, cap * sizeof *a);
		if (a == NULL)
			return fail(r, "out of memory for histogram records");
		r->rec_range = a;
		b = realloc(r->rec_off, cap * sizeof *b);
		if (b == NULL)
			return fail(r, "out of memory for histogram records");
		r->rec_off = b;
		r->reccap = cap;
	}
	r->rec_range[n] = at;
	r->rec_off[n] = r->pos;
	return 0;
}

/* Add the bins at r->pos to G: to the same range's, or as a new range. */
static int
add_hist(struct rd *r, struct gmon *g, uint64_t low, uint64_t high,
    uint64_t nbins, uint32_t rate)
{
	size_t at = 0;

	if (g->nhist == GMON_MAX_HIST)
		return fail(r, "more than %llu histogram records (a program's "
		    "profile has one per profiled range)",
		    (unsigned long long)GMON_MAX_HIST);
	if (g->nhist == 0)
		g->rate = rate;
	else if (rate != g->rate)
		return fail(r, "histogram records disagree on the profiling "
		    "rate (%u and %u)", g->rate, rate);
	if (!find_range(r, g, low, high, nbins, &at) &&
	    new_range(r, g, low, high, nbins, &at) < 0)
		return -1;
	if (add_record(r, g, at) < 0)
		return -1;
	r->pos += (size_t)nbins * 2;
	g->nhist++;
	return 0;
}

/*
 * The records of each range, in file order, after the ranges were put in
 * address order (NEWAT: a range's index by its index in file order).
 */
static int
index_records(struct rd *r, struct gmon *g, const size_t *newat)
{
	struct gmon_bins *v = g->bins;
	size_t *fill;

	v->rfirst = calloc(g->nranges + 1, sizeof *v->rfirst);
	v->recs = malloc((size_t)g->nhist * sizeof *v->recs);
	fill = calloc(g->nranges, sizeof *fill);
	if (v->rfirst == NULL || v->recs == NULL || fill == NULL) {
		free(fill);
		return fail(r, "out of memory for histogram records");
	}
	for (uint64_t i = 0; i < g->nhist; i++)
		v->rfirst[newat[r->rec_range[i]] + 1]++;
	for (size_t i = 0; i < g->nranges; i++)
		v->rfirst[i + 1] += v->rfirst[i];
	for (uint64_t i = 0; i < g->nhist; i++) {
		size_t x = newat[r->rec_range[i]];

		v->recs[v->rfirst[x] + fill[x]++] = r->rec_off[i];
	}
	free(fill);
	return 0;
}

/*
 * Whether the records of one range add up within 32 bits: only more
 * than 65537 records of 16-bit bins can pass 2^32 - 1.
 */
static int
check_sums(struct rd *r, const struct gmon *g)
{
	const struct gmon_bins *v = g->bins;

	for (size_t i = 0; i < g->nranges; i++) {
		size_t n = v->rfirst[i + 1] - v->rfirst[i];

		if (n <= 65537)
			continue;
		for (uint64_t k = 0; k < g->ranges[i].nbins; k++) {
			uint64_t sum = 0;

			for (size_t j = v->rfirst[i]; j < v->rfirst[i + 1]; j++)
				sum += bin16(v, v->recs[j], k);
			if (sum > UINT32_MAX)
				return fail(r, "bin %llu overflows when the "
				    "histogram records are added up",
				    (unsigned long long)k);
		}
	}
	return 0;
}

/* Put the ranges in address order, number their bins, index the records. */
static int
order_ranges(struct rd *r, struct gmon *g)
{
	uint64_t pos = 1;
	size_t *newat;
	int rc;

	if (check_overlap(r, g) < 0)
		return -1;
	heap_sort(g->ranges, g->nranges, sizeof *g->ranges, low_cmp, NULL);
	newat = malloc(g->nranges * sizeof *newat);
	g->bins = calloc(1, sizeof *g->bins);
	if (newat == NULL || g->bins == NULL) {
		free(newat);
		return fail(r, "out of memory for histogram ranges");
	}
	g->bins->b = r->b;
	g->bins->n = r->n;
	g->bins->big = r->big;
	g->bins->ranges = g->ranges;
	g->bins->nranges = g->nranges;
	g->nbins = 0;
	for (size_t i = 0; i < g->nranges; i++) {
		struct hist_range *x = &g->ranges[i];

		newat[x->first] = i;
		x->first = pos;
		pos += x->nbins;
		g->nbins += x->nbins;
	}
	rc = index_records(r, g, newat);
	free(newat);
	if (rc < 0 || check_sums(r, g) < 0)
		return -1;
	g->low = g->ranges[0].low;
	g->high = g->ranges[g->nranges - 1].high;
	return 0;
}

static int
gnu_hist(struct rd *r, struct gmon *g)
{
	uint64_t low, high, nbins;
	uint32_t rate;
	size_t at = r->pos - 1;

	if (!have(r, (uint64_t)2 * (unsigned)r->ptr + 24))
		return fail(r, "short histogram record header at offset %zu",
		    at);
	low = take(r, r->ptr);
	high = take(r, r->ptr);
	nbins = take(r, 4);
	rate = (uint32_t)take(r, 4);
	if (g->nhist == 0) {
		memcpy(g->dimen, r->b + r->pos, 15);
		g->dimen[15] = '\0';
		g->abbrev = (char)r->b[r->pos + 15];
	}
	r->pos += 16;
	if (check_hist(r, low, high, nbins, rate) < 0)
		return -1;
	return add_hist(r, g, low, high, nbins, rate);
}

static int
gnu_records(struct rd *r, struct gmon *g)
{
	while (r->pos < r->n) {
		size_t at = r->pos;
		int tag = r->b[r->pos++];
		uint64_t len;

		switch (tag) {
		case TAG_HIST:
			if (gnu_hist(r, g) < 0)
				return -1;
			break;
		case TAG_ARC:
			if (!have(r, (uint64_t)2 * (unsigned)r->ptr + 4))
				return fail(r, "short call arc record at "
				    "offset %zu", at);
			r->pos += 2 * (size_t)r->ptr + 4;
			g->narcs++;	/* kept by gmon_index_arcs */
			break;
		case TAG_BB:
			if (!have(r, 4))
				return fail(r, "short basic-block record at "
				    "offset %zu", at);
			len = take(r, 4) * 2 * (unsigned)r->ptr;
			if (!have(r, len))
				return fail(r, "short basic-block record at "
				    "offset %zu", at);
			r->pos += (size_t)len;
			g->nblocks++;
			break;
		default:
			return fail(r, "unknown record tag %d at offset %zu",
			    tag, at);
		}
	}
	if (g->nhist == 0)
		return fail(r, "no histogram record");
	return order_ranges(r, g);
}

static int
parse_gnu(struct rd *r, struct gmon *g)
{
	if (r->n < GNU_HDR)
		return fail(r, "short gmon.out header");
	g->format = GMON_GNU;
	g->version = (uint32_t)get(r, 4, 4);
	r->pos = GNU_HDR;
	if (gnu_records(r, g) == 0)
		return 0;
	/* an overlap the file met before this error is reported instead */
	check_overlap(r, g);
	return -1;
}

static size_t
bsd_hdr(int ptr)
{
	return 2 * (size_t)ptr + 24;
}

static int
parse_bsd(struct rd *r, struct gmon *g)
{
	size_t hdr = bsd_hdr(r->ptr), arc = 3 * (size_t)r->ptr;
	uint64_t low, high, ncnt, nbins;
	uint32_t rate;

	if (r->n < hdr)
		return fail(r, "short BSD gmon.out header");
	low = take(r, r->ptr);
	high = take(r, r->ptr);
	ncnt = take(r, 4);
	g->format = GMON_BSD;
	g->version = (uint32_t)take(r, 4);
	rate = (uint32_t)take(r, 4);
	r->pos = hdr;
	if (g->version != GMON_BSD_VERSION)
		return fail(r, "not a gmon.out (no \"gmon\" magic, no BSD "
		    "version)");
	if (ncnt < hdr || ncnt > r->n || (ncnt - hdr) % 2)
		return fail(r, "impossible byte count %llu in the BSD header "
		    "(file of %zu bytes)", (unsigned long long)ncnt, r->n);
	nbins = (ncnt - hdr) / 2;
	if (check_hist(r, low, high, nbins, rate) < 0 ||
	    add_hist(r, g, low, high, nbins, rate) < 0 ||
	    order_ranges(r, g) < 0)
		return -1;
	if ((r->n - r->pos) % arc)
		return fail(r, "short call arc record at offset %zu",
		    r->pos + (r->n - r->pos) / arc * arc);
	g->narcs = (r->n - r->pos) / arc;	/* kept by gmon_index_arcs */
	r->pos = r->n;
	return 0;
}

/* Whether the dimension field reads as text (a hint for ambiguous files). */
static int
dimen_is_text(const struct gmon *g)
{
	size_t i = 0;

	while (i < 15 && g->dimen[i] >= 0x20 && g->dimen[i] < 0x7f)
		i++;
	while (i < 15 && g->dimen[i] == '\0')
		i++;
	return i == 15;
}

int
gmon_sniff(const unsigned char *b, size_t n)
{
	static const unsigned char v_le[4] = { 0x79, 0x18, 0x05, 0x00 };
	static const unsigned char v_be[4] = { 0x00, 0x05, 0x18, 0x79 };

	if (n >= 4 && memcmp(b, "gmon", 4) == 0)
		return GMON_SNIFF_GNU;
	for (int ptr = 4; ptr <= 8; ptr += 4) {
		size_t off = 2 * (size_t)ptr + 4;
		if (n >= off + 4 && (memcmp(b + off, v_le, 4) == 0 ||
		    memcmp(b + off, v_be, 4) == 0))
			return GMON_SNIFF_BSD;
	}
	return GMON_SNIFF_NO;
}

int
gmon_maybe_kernel(const unsigned char *b, size_t n, uint64_t total)
{
	uint32_t le, be;

	if (n < 4 || total % 4)
		return 0;
	le = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
	be = __builtin_bswap32(le);
	return (le && le <= 1024 && (le & (le - 1)) == 0) ||
	    (be && be <= 1024 && (be & (be - 1)) == 0);
}

/* A guess of byte order and address size, and how far it read. */
struct guess {
	int big, ptr;
	size_t reached;
	int score;		/* ranks successes */
};

static int
try_parse(struct gmon *g, const unsigned char *b, size_t n, struct guess *x,
    char *err, size_t errlen)
{
	struct rd r = { .b = b, .n = n, .big = x->big, .ptr = x->ptr,
	    .err = err, .errlen = errlen };
	int bsd = n < 4 || memcmp(b, "gmon", 4) != 0, rc;

	memset(g, 0, sizeof *g);
	g->ptrsize = x->ptr;
	g->big_endian = x->big;
	rc = bsd ? parse_bsd(&r, g) : parse_gnu(&r, g);
	free(r.slot);
	free(r.made_at);
	free(r.rec_range);
	free(r.rec_off);
	x->reached = r.pos;
	/* the version is small in the right byte order; text; then 64-bit */
	x->score = (bsd || g->version <= 0xffff) * 4 +
	    (bsd || dimen_is_text(g)) * 2 + (x->ptr == 8);
	if (rc < 0)
		gmon_free(g);
	return rc;
}

/* Every guess is read; the one taken is read again, into G. */
int
gmon_parse(struct gmon *g, const unsigned char *b, size_t n, char *err,
    size_t errlen)
{
	struct gmon cand;
	struct guess x, best = { 0 };
	char msg[256];
	size_t best_reach = 0;
	int found = 0, best_fail = -1;

	memset(g, 0, sizeof *g);
	snprintf(err, errlen, "not a gmon.out");
	for (x.big = 0; x.big <= 1; x.big++)
		for (x.ptr = 8; x.ptr >= 4; x.ptr -= 4) {
			if (try_parse(&cand, b, n, &x, msg, sizeof msg) == 0) {
				if (!found || x.score > best.score) {
					best = x;
					found = 1;
				}
				gmon_free(&cand);
				continue;
			}
			/* the guess that read furthest names the error */
			if (best_fail < 0 || x.reached > best_reach ||
			    (x.reached == best_reach && x.score > best_fail)) {
				best_reach = x.reached;
				best_fail = x.score;
				snprintf(err, errlen, "%s", msg);
			}
		}
	if (!found)
		return -1;
	return try_parse(g, b, n, &best, err, errlen);
}

/* The first bin of G lower than BASE's (same ranges), or 0 when none. */
static uint64_t
first_lower(const struct gmon *g, const struct gmon *base)
{
	uint32_t *w = malloc(2 * WINDOW * sizeof *w);
	uint64_t k = 1, low = 0;

	if (w == NULL)
		fatalx("out of memory");
	while (k <= g->nbins && low == 0) {
		size_t got, got2;

		window(g->bins, k, g->nbins + 1, w, &got);
		window(base->bins, k, g->nbins + 1, w + WINDOW, &got2);
		for (size_t i = 0; i < got && low == 0; i++)
			if (w[i] < w[WINDOW + i])
				low = k + i;
		k += got;
	}
	free(w);
	return low;
}

int
gmon_subtract(struct gmon *g, const struct gmon *base, char *err,
    size_t errlen)
{
	uint64_t low;

	for (size_t i = 0; i < g->nranges || i < base->nranges; i++) {
		const struct hist_range *x = i < base->nranges ?
		    &base->ranges[i] : NULL, *y = i < g->nranges ?
		    &g->ranges[i] : NULL;

		if (x && y && x->low == y->low && x->high == y->high &&
		    x->nbins == y->nbins)
			continue;
		if (x == NULL || y == NULL) {
			snprintf(err, errlen, "the baseline has %zu histogram "
			    "ranges, the profile %zu", base->nranges,
			    g->nranges);
			return -1;
		}
		snprintf(err, errlen, "the baseline's histogram 0x%llx-0x%llx "
		    "in %llu bins differs from 0x%llx-0x%llx in %llu bins",
		    (unsigned long long)x->low, (unsigned long long)x->high,
		    (unsigned long long)x->nbins, (unsigned long long)y->low,
		    (unsigned long long)y->high, (unsigned long long)y->nbins);
		return -1;
	}
	if ((low = first_lower(g, base)) != 0) {
		snprintf(err, errlen, "bin %llu is lower than in the "
		    "baseline (is the baseline a later run?)",
		    (unsigned long long)low - 1);
		return -1;
	}
	g->bins->base = base->bins;
	return 0;
}

static const uint32_t *
bins_span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct gmon_bins *v = ctx;
	uint32_t sub[WINDOW];

	window(v, from, to, v->win, got);
	if (v->base != NULL && from > 0) {
		size_t n;

		window(v->base, from, from + *got, sub, &n);
		for (size_t i = 0; i < n; i++)
			v->win[i] -= sub[i];
	}
	return v->win;
}

struct counters
gmon_counters(const struct gmon *g)
{
	struct counters c = { g->nbins + 1, bins_span, g->bins };

	return c;
}

uint64_t
gmon_total(const struct gmon *g)
{
	struct counters c = gmon_counters(g);

	return counters_sum(&c, 1, c.n);
}

/*
 * The call arcs, kept in the bytes parsed: each becomes a unit of the
 * callee (PTR bytes) and its count (8 bytes), host order, no wider than
 * its record (13 or 21 bytes in GNU, 12 or 24 in BSD).  The units are
 * gathered, in one pass in file order, from the first arc on; the bins
 * of a histogram record met after it are moved before them, padded to
 * whole units.  Then they are sorted by callee and each callee's counts
 * added up.
 */
struct units {
	unsigned char *b;	/* the bytes parsed */
	int ptr;		/* 4 or 8 */
	size_t unit;		/* ptr + 8 */
};

static uint64_t
unit_pc(const struct units *u, const unsigned char *p)
{
	uint32_t v4;
	uint64_t v8;

	if (u->ptr == 4) {
		memcpy(&v4, p, 4);
		return v4;
	}
	memcpy(&v8, p, 8);
	return v8;
}

static uint64_t
unit_count(const struct units *u, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p + u->ptr, 8);
	return v;
}

static void
unit_put(const struct units *u, unsigned char *p, uint64_t pc, uint64_t count)
{
	uint32_t v4 = (uint32_t)pc;

	if (u->ptr == 4)
		memcpy(p, &v4, 4);
	else
		memcpy(p, &pc, 8);
	memcpy(p + u->ptr, &count, 8);
}

/* Exchange the N bytes at X and Y (apart). */
static void
swap_bytes(unsigned char *x, unsigned char *y, size_t n)
{
	unsigned char t[256];

	while (n > 0) {
		size_t k = n < sizeof t ? n : sizeof t;

		memcpy(t, x, k);
		memcpy(x, y, k);
		memcpy(y, t, k);
		x += k;
		y += k;
		n -= k;
	}
}

static void
reverse(unsigned char *p, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		unsigned char t = p[i];

		p[i] = p[j - 1];
		p[j - 1] = t;
	}
}

/* The gathering: [from, wb) bins moved, [wb, w) the units so far. */
struct gather {
	struct rd r;		/* the file, read under G's guess */
	struct units u;
	struct gmon *g;
	size_t wb, w;
	int started;
};

static void
gather_arc(struct gather *x, size_t at, uint64_t pc, uint64_t count)
{
	if (!x->started) {
		x->wb = x->w = at;
		x->started = 1;
	}
	unit_put(&x->u, x->u.b + x->w, pc, count);
	x->w += x->u.unit;
}

/* The record of range LOW whose bins were at OLD now has them at NEW. */
static void
moved_bins(struct gather *x, uint64_t low, size_t old, size_t new)
{
	const struct gmon *g = x->g;
	size_t lo = 0, hi = g->nranges, *recs = g->bins->recs;

	while (lo + 1 < hi) {	/* ranges are disjoint: low names one */
		size_t mid = lo + (hi - lo) / 2;

		if (g->ranges[mid].low <= low)
			lo = mid;
		else
			hi = mid;
	}
	/* its records are in file order: those moved before it lie lower */
	hi = g->bins->rfirst[lo + 1];
	lo = g->bins->rfirst[lo];
	while (recs[lo] != old) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid] <= old)
			lo = mid;
		else
			hi = mid;
	}
	recs[lo] = new;
}

/*
 * The LEN bytes of bins at OLD, met after the first arc: moved to W
 * (lower: their record's header is longer than a unit), then exchanged
 * with the units before them, so that the units stay together.  Each
 * move costs O(LEN): a rotation only when the units are fewer.
 */
static void
gather_bins(struct gather *x, uint64_t low, size_t old, size_t len)
{
	unsigned char *b = x->u.b;
	size_t pad = (len + x->u.unit - 1) / x->u.unit * x->u.unit;
	size_t s = x->w - x->wb;

	if (!x->started)
		return;		/* before every arc: where it is */
	memmove(b + x->w, b + old, len);
	if (pad <= s) {
		swap_bytes(b + x->wb, b + x->w, pad);
	} else if (s > 0) {
		reverse(b + x->wb, s);
		reverse(b + x->w, pad);
		reverse(b + x->wb, s + pad);
	}
	moved_bins(x, low, old, x->wb);
	x->wb += pad;
	x->w += pad;
}

/* The GNU records in order, already checked. */
static void
gather_gnu(struct gather *x)
{
	struct rd *r = &x->r;
	size_t ptr = (size_t)r->ptr;

	for (size_t p = GNU_HDR; p < r->n;) {
		uint64_t k;

		switch (r->b[p]) {
		case TAG_HIST:
			k = get(r, p + 1 + 2 * ptr, 4);
			gather_bins(x, get(r, p + 1, r->ptr), p + 25 + 2 * ptr,
			    (size_t)k * 2);
			p += 25 + 2 * ptr + (size_t)k * 2;
			break;
		case TAG_ARC:
			gather_arc(x, p, get(r, p + 1 + ptr, r->ptr),
			    get(r, p + 1 + 2 * ptr, 4));
			p += 5 + 2 * ptr;
			break;
		default:	/* TAG_BB */
			k = get(r, p + 1, 4);
			p += 5 + (size_t)k * 2 * ptr;
			break;
		}
	}
}

/* The BSD arcs, after the bins, to the end. */
static void
gather_bsd(struct gather *x)
{
	struct rd *r = &x->r;
	size_t ptr = (size_t)r->ptr;

	for (size_t p = (size_t)get(r, 2 * ptr, 4); p < r->n; p += 3 * ptr)
		gather_arc(x, p, get(r, p + ptr, r->ptr),
		    get(r, p + 2 * ptr, r->ptr));
}

static void
insertion_sort(const struct units *u, unsigned char *v, size_t n)
{
	unsigned char t[16];
	size_t w = u->unit;

	for (size_t i = 1; i < n; i++) {
		uint64_t pc = unit_pc(u, v + i * w);
		size_t j = i;

		memcpy(t, v + i * w, w);
		for (; j > 0 && unit_pc(u, v + (j - 1) * w) > pc; j--)
			memcpy(v + j * w, v + (j - 1) * w, w);
		memcpy(v + j * w, t, w);
	}
}

/*
 * Sort the N units at V by callee, on its byte at SHIFT and the lower
 * ones: one counting pass, the units put into their buckets in place,
 * each bucket sorted on the next byte (at most 8 levels: linear).
 */
static void
radix_sort(const struct units *u, unsigned char *v, size_t n, int shift)
{
	size_t w = u->unit, first[257] = { 0 }, next[256];
	unsigned char t[16];

	if (n <= 32) {
		insertion_sort(u, v, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		first[(unit_pc(u, v + i * w) >> shift & 0xff) + 1]++;
	for (int d = 0; d < 256; d++) {
		first[d + 1] += first[d];
		next[d] = first[d];
	}
	for (int d = 0; d < 256; d++)
		while (next[d] < first[d + 1]) {	/* a cycle through d */
			unsigned char *p = v + next[d] * w;
			size_t e = unit_pc(u, p) >> shift & 0xff;

			if ((int)e == d) {
				next[d]++;
				continue;
			}
			memcpy(t, p, w);
			memcpy(p, v + next[e] * w, w);
			memcpy(v + next[e]++ * w, t, w);
		}
	if (shift > 0)
		for (int d = 0; d < 256; d++)
			if (first[d + 1] - first[d] > 1)
				radix_sort(u, v + first[d] * w,
				    first[d + 1] - first[d], shift - 8);
}

/* Sort the N units at V; then each callee once, its counts added up. */
static size_t
sort_units(const struct units *u, unsigned char *v, size_t n)
{
	size_t w = u->unit, k = 0;
	uint64_t diff = 0;
	int shift = 0;

	for (size_t i = 1; i < n; i++)	/* the bytes that differ at all */
		diff |= unit_pc(u, v + i * w) ^ unit_pc(u, v);
	while (shift < 56 && diff >> shift > 0xff)
		shift += 8;
	radix_sort(u, v, n, shift);
	for (size_t i = 0; i < n; i++) {
		uint64_t pc = unit_pc(u, v + i * w);

		if (k > 0 && unit_pc(u, v + (k - 1) * w) == pc)
			unit_put(u, v + (k - 1) * w, pc, unit_count(u, v +
			    (k - 1) * w) + unit_count(u, v + i * w));
		else if (k++ < i)
			memcpy(v + (k - 1) * w, v + i * w, w);
	}
	return k;
}

void
gmon_index_arcs(struct gmon *g, unsigned char *b)
{
	struct gather x = { .r = { .b = b, .n = 0, .big = g->big_endian,
	    .ptr = g->ptrsize }, .u = { b, g->ptrsize,
	    (size_t)g->ptrsize + 8 }, .g = g };

	if (g->narcs == 0 || g->arcs != NULL || g->bins == NULL ||
	    g->bins->b != b)
		return;
	x.r.n = g->bins->n;
	if (g->format == GMON_GNU)
		gather_gnu(&x);
	else
		gather_bsd(&x);
	g->ncallees = sort_units(&x.u, b + x.wb, (x.w - x.wb) / x.u.unit);
	g->arcs = b + x.wb;
}

uint64_t
gmon_calls(const struct gmon *g, uint64_t start, uint64_t next,
    size_t *cursor)
{
	struct units u = { NULL, g->ptrsize, (size_t)g->ptrsize + 8 };
	const unsigned char *v = g->arcs;
	size_t i = *cursor, n = g->ncallees, w = u.unit;
	uint64_t sum = 0;

	if (i > 0 && i <= n && unit_pc(&u, v + (i - 1) * w) >= start)
		i = 0;		/* not ascending: start over */
	while (i < n && unit_pc(&u, v + i * w) < start)
		i++;
	for (; i < n && unit_pc(&u, v + i * w) < next; i++)
		sum += unit_count(&u, v + i * w);
	*cursor = i;
	return sum;
}

void
gmon_free(struct gmon *g)
{
	if (g->bins != NULL) {
		free(g->bins->recs);
		free(g->bins->rfirst);
		free(g->bins);
	}
	free(g->ranges);
	g->bins = NULL;
	g->arcs = NULL;
	g->ranges = NULL;
}
