/* gmon.c - reading gmon.out: GNU tagged records and the BSD header. */
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
#define WINDOW 4096		/* bins put in host-order words at a time */

typedef unsigned long long ull;

/* A histogram record: its range, and where its bins are in the file. */
struct hrec {
	uint64_t low, high, nbins;
	size_t off;
};

/* The bins, served from the file's bytes (no copy) a window at a time:
 * the records of one range added up, a baseline's subtracted. */
struct gmon_bins {
	const unsigned char *b;	/* the file */
	size_t n;		/* its size */
	int big;
	const struct hist_range *ranges;
	size_t nranges;
	struct hrec *recs;	/* by low, each range's in file order */
	size_t *rfirst;		/* range i's: recs[rfirst[i]..rfirst[i + 1]) */
	const struct gmon_bins *base;	/* subtracted, or NULL */
	uint32_t win[WINDOW];
};

/* Bin K of the record whose bins start at OFF. */
static uint32_t
bin16(const struct gmon_bins *v, size_t off, uint64_t k)
{
	return (uint32_t)word_at(v->b + off + 2 * (size_t)k, 2, v->big);
}

/* Into V's window bins [k, k + n) of range I, summed over its records,
 * less those of the baseline's (modulo 2^32). */
static void
fill_window(struct gmon_bins *v, size_t i, uint64_t k, size_t n)
{
	const struct gmon_bins *src[2] = { v, v->base }, *b;
	uint32_t *w = v->win, sign = 1;	/* then UINT32_MAX: -1 modulo 2^32 */

	memset(w, 0, n * sizeof *w);
	for (int s = 0; s < 2 && (b = src[s]) != NULL; s++, sign = UINT32_MAX)
		for (size_t j = b->rfirst[i]; j < b->rfirst[i + 1]; j++)
			for (size_t x = 0; x < n; x++)
				w[x] += sign * bin16(b, b->recs[j].off, k + x);
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

/* Words [from, from + *got): at most WINDOW, within one range (word 0
 * alone: 0), less a baseline's. */
static const uint32_t *
bins_span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct gmon_bins *v = ctx;
	const struct hist_range *x;
	size_t i, n;

	v->win[0] = 0;
	*got = 1;
	if (from == 0)
		return v->win;
	i = range_of_word(v, from);
	x = &v->ranges[i];
	n = to - from < WINDOW ? (size_t)(to - from) : WINDOW;
	if (x->first + x->nbins - from < n)
		n = (size_t)(x->first + x->nbins - from);
	fill_window(v, i, from - x->first, n);
	*got = n;
	return v->win;
}

/* A cursor over the file under one guess of byte order and address size. */
struct rd {
	const unsigned char *b;
	size_t n, pos;
	int big, ptr, bsd;
	uint32_t version;
	const unsigned char *dimen;	/* the first histogram's dimension */
	struct hrec *recs;	/* the histogram records, in file order */
	size_t reccap;
	char *err;
	size_t errlen;
};

/* One record: a histogram, a call arc (from_pc, self_pc, a count of 4
 * bytes in GNU, of a pointer's in BSD) or basic blocks. */
struct rec {
	int tag;
	size_t at;		/* where it starts (GNU: its tag) */
	struct hrec h;		/* a histogram's range and bins */
	uint32_t rate;
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

/* 0 when LEN more bytes are there; else -1, "short WHAT at offset AT". */
static int
need(struct rd *r, uint64_t len, const char *what, size_t at)
{
	if (r->n - r->pos >= len)
		return 0;
	return fail(r, "short %s at offset %zu", what, at);
}

static uint64_t
take(struct rd *r, int len)
{
	uint64_t v = word_at(r->b + r->pos, len, r->big);

	r->pos += (size_t)len;
	return v;
}

/* The histogram E, whose bins start at r->pos: checked, then passed. */
static int
hist_bins(struct rd *r, struct rec *e)
{
	uint64_t low = e->h.low, high = e->h.high, nbins = e->h.nbins;

	if (low >= high)
		return fail(r, "histogram range 0x%llx-0x%llx is empty "
		    "(low_pc >= high_pc)", (ull)low, (ull)high);
	if (nbins == 0 || nbins > GMON_MAX_BINS || nbins > high - low)
		return fail(r, "impossible bin count %llu for a range of "
		    "%llu bytes", (ull)nbins, (ull)(high - low));
	if (r->n - r->pos < nbins * 2)
		return fail(r, "short histogram: %llu bins need %llu bytes, "
		    "%llu left", (ull)nbins, (ull)nbins * 2,
		    (ull)(r->n - r->pos));
	if (e->rate == 0)
		return fail(r, "profiling rate is 0");
	e->h.off = r->pos;
	r->pos += (size_t)nbins * 2;
	return 1;
}

static int
gnu_rec(struct rd *r, struct rec *e)
{
	size_t ptr = (size_t)r->ptr;
	uint64_t len;

	e->at = r->pos;
	e->tag = r->b[r->pos++];
	switch (e->tag) {
	case TAG_HIST:
		if (need(r, 2 * ptr + 24, "histogram record header", e->at) < 0)
			return -1;
		e->h.low = take(r, r->ptr);
		e->h.high = take(r, r->ptr);
		e->h.nbins = take(r, 4);
		e->rate = (uint32_t)take(r, 4);
		if (r->dimen == NULL)
			r->dimen = r->b + r->pos;
		r->pos += 16;
		return hist_bins(r, e);
	case TAG_ARC:
		if (need(r, 2 * ptr + 4, "call arc record", e->at) < 0)
			return -1;
		r->pos += 2 * ptr + 4;
		return 1;
	case TAG_BB:
		if (need(r, 4, "basic-block record", e->at) < 0 ||
		    need(r, len = take(r, 4) * 2 * ptr, "basic-block record",
		    e->at) < 0)
			return -1;
		r->pos += (size_t)len;
		return 1;
	}
	return fail(r, "unknown record tag %d at offset %zu", e->tag, e->at);
}

/* The BSD header and its histogram, at 0; then the arcs to the end. */
static int
bsd_rec(struct rd *r, struct rec *e)
{
	size_t hdr = 2 * (size_t)r->ptr + 24, arc = 3 * (size_t)r->ptr;
	uint64_t ncnt;

	e->at = r->pos;
	if (r->pos > 0) {	/* an arc, or the end */
		e->tag = TAG_ARC;
		if (r->pos == r->n)
			return 0;
		r->pos += arc;
		return 1;
	}
	e->tag = TAG_HIST;
	if (r->n < hdr)
		return fail(r, "short BSD gmon.out header");
	e->h.low = take(r, r->ptr);
	e->h.high = take(r, r->ptr);
	ncnt = take(r, 4);
	r->version = (uint32_t)take(r, 4);
	e->rate = (uint32_t)take(r, 4);
	r->pos = hdr;
	if (r->version != GMON_BSD_VERSION)
		return fail(r, "not a gmon.out (no \"gmon\" magic, no BSD "
		    "version)");
	if (ncnt < hdr || ncnt > r->n || (ncnt - hdr) % 2)
		return fail(r, "impossible byte count %llu in the BSD header "
		    "(file of %zu bytes)", (ull)ncnt, r->n);
	e->h.nbins = (ncnt - hdr) / 2;
	if (hist_bins(r, e) < 0)
		return -1;
	if ((r->n - r->pos) % arc)	/* the arcs run to the end */
		return fail(r, "short call arc record at offset %zu",
		    r->pos + (r->n - r->pos) / arc * arc);
	return 1;
}

/* The next record into E: 1, 0 at the end, or -1 with a message. */
static int
next_rec(struct rd *r, struct rec *e)
{
	if (r->bsd)
		return bsd_rec(r, e);
	if (r->pos == 0) {
		if (r->n < GNU_HDR)
			return fail(r, "short gmon.out header");
		r->version = (uint32_t)word_at(r->b + 4, 4, r->big);
		r->pos = GNU_HDR;
	}
	return r->pos < r->n ? gnu_rec(r, e) : 0;
}

/* Keep the histogram E (its range is made when all are in). */
static int
add_hist(struct rd *r, struct gmon *g, const struct rec *e)
{
	size_t end = r->pos;

	r->pos = e->h.off;	/* where an error is met */
	if (g->nhist == GMON_MAX_HIST)
		return fail(r, "more than %llu histogram records (a program's "
		    "profile has one per profiled range)", (ull)GMON_MAX_HIST);
	if (g->nhist == 0)
		g->rate = e->rate;
	else if (e->rate != g->rate)
		return fail(r, "histogram records disagree on the profiling "
		    "rate (%u and %u)", g->rate, e->rate);
	if (g->nhist == r->reccap) {
		r->reccap = r->reccap ? 2 * r->reccap : 16;
		r->recs = xrealloc(r->recs, r->reccap * sizeof *r->recs);
	}
	r->recs[g->nhist++] = e->h;
	r->pos = end;
	return 0;
}

/* Count the arc E, its calls added to G's: a sum past 2^64 - 1 is refused,
 * as a bin that overflows is, never wrapped. */
static int
add_arc(struct rd *r, struct gmon *g, const struct rec *e)
{
	/* past any tag, from_pc and self_pc: 4 bytes in GNU, a pointer's in BSD */
	uint64_t n = word_at(r->b + e->at + !r->bsd + 2 * (size_t)r->ptr,
	    r->bsd ? r->ptr : 4, r->big);

	g->narcs++;
	if (n > UINT64_MAX - g->calls) {
		r->pos = e->at;
		return fail(r, "call counts add up past 2^64 - 1 (the call "
		    "arc at offset %zu)", e->at);
	}
	g->calls += n;
	return 0;
}

/* By low, then in file order. */
static int
low_cmp(const void *x, const void *y, void *ctx)
{
	const struct hrec *a = x, *b = y;

	(void)ctx;
	if (a->low != b->low)
		return a->low > b->low ? 1 : -1;
	return (a->off > b->off) - (a->off < b->off);
}

/* Whether two of the N records at S (sorted by low_cmp) before offset
 * END, of different ranges, share an address: two neighbours then do. */
static int
any_overlap(const struct hrec *s, size_t n, size_t end)
{
	const struct hrec *p = NULL;

	for (size_t i = 0; i < n; i++) {
		if (s[i].off >= end)
			continue;
		if (p != NULL && s[i].low < p->high && (s[i].low != p->low ||
		    s[i].high != p->high || s[i].nbins != p->nbins))
			return 1;
		p = &s[i];
	}
	return 0;
}

/* Overlaps (S: the N sorted by low_cmp) in O(n log n), not a scan per
 * record, yet reported as a scan would: the first the file order meets,
 * with the first it overlaps. */
static int
check_overlap(struct rd *r, const struct hrec *s, size_t n)
{
	const struct hrec *x = r->recs, *y;
	size_t lo = 1, hi = n;

	if (!any_overlap(s, n, SIZE_MAX))
		return 0;
	while (lo + 1 < hi) {	/* the first lo records do not overlap; hi do */
		size_t mid = lo + (hi - lo) / 2;

		if (any_overlap(s, n, r->recs[mid].off))
			hi = mid;
		else
			lo = mid;
	}
	y = &r->recs[hi - 1];	/* the record that overlaps an earlier one */
	while (!(y->low < x->high && x->low < y->high))
		x++;
	r->pos = y->off;
	return fail(r, "histogram records overlap (0x%llx-0x%llx in %llu bins, "
	    "0x%llx-0x%llx in %llu)", (ull)x->low, (ull)x->high,
	    (ull)x->nbins, (ull)y->low, (ull)y->high, (ull)y->nbins);
}

/* The records of a range must add up within 32 bits: only more than
 * 65537 records of 16-bit bins can pass 2^32 - 1. */
static int
check_sums(struct rd *r, const struct gmon *g)
{
	const struct gmon_bins *v = g->bins;

	for (size_t i = 0; i < g->nranges; i++) {
		if (v->rfirst[i + 1] - v->rfirst[i] <= 65537)
			continue;
		for (uint64_t k = 0; k < g->ranges[i].nbins; k++) {
			uint64_t sum = 0;

			for (size_t j = v->rfirst[i]; j < v->rfirst[i + 1]; j++)
				sum += bin16(v, v->recs[j].off, k);
			if (sum > UINT32_MAX)
				return fail(r, "bin %llu overflows when the "
				    "histogram records are added up", (ull)k);
		}
	}
	return 0;
}

/* The records, none overlapping, sorted by low_cmp: each range's bins
 * numbered after the lower ones'. */
static int
order_ranges(struct rd *r, struct gmon *g)
{
	size_t n = (size_t)g->nhist;
	struct gmon_bins *v = xmalloc(sizeof *v);
	uint64_t pos = 1;

	*v = (struct gmon_bins){ .b = r->b, .n = r->n, .big = r->big,
	    .recs = r->recs, .rfirst = xmalloc((n + 1) * sizeof *v->rfirst) };
	r->recs = NULL;
	g->bins = v;
	g->ranges = xmalloc(n * sizeof *g->ranges);
	for (size_t i = 0; i < n; i++) {
		const struct hrec *h = &v->recs[i];

		if (i > 0 && h->low == h[-1].low)
			continue;
		g->ranges[g->nranges] = (struct hist_range){ h->low, h->high,
		    h->nbins, pos };
		pos += h->nbins;
		v->rfirst[g->nranges++] = i;
	}
	v->rfirst[g->nranges] = n;
	v->ranges = g->ranges;
	v->nranges = g->nranges;
	g->nbins = pos - 1;
	g->low = g->ranges[0].low;
	g->high = g->ranges[g->nranges - 1].high;
	return check_sums(r, g);
}

/* Every record of the file into G, under R's guess. */
static int
parse(struct rd *r, struct gmon *g)
{
	struct rec e;
	struct hrec *s;
	size_t n;
	int rc;

	while ((rc = next_rec(r, &e)) > 0) {
		if (e.tag == TAG_ARC)
			rc = add_arc(r, g, &e);	/* kept by gmon_index_arcs */
		else if (e.tag == TAG_BB)
			g->nblocks++;
		else
			rc = add_hist(r, g, &e);
		if (rc < 0)
			break;
	}
	if ((n = (size_t)g->nhist) == 0)
		return rc < 0 ? -1 : fail(r, "no histogram record");
	s = xmalloc(n * sizeof *s);
	memcpy(s, r->recs, n * sizeof *s);
	heap_sort(s, n, sizeof *s, low_cmp, NULL);
	/* an overlap the file met before an error is reported instead */
	if (check_overlap(r, s, n) < 0)
		rc = -1;
	free(r->recs);
	r->recs = s;
	return rc < 0 ? -1 : order_ranges(r, g);
}

/* Whether the dimension field reads as text (a hint for ambiguous files). */
static int
dimen_is_text(const unsigned char *d)
{
	size_t i = 0;

	while (d != NULL && i < 15 && d[i] >= 0x20 && d[i] < 0x7f)
		i++;
	while (d != NULL && i < 15 && d[i] == '\0')
		i++;
	return d == NULL || i == 15;
}

int
gmon_sniff(const unsigned char *b, size_t n)
{
	if (n >= 4 && memcmp(b, "gmon", 4) == 0)
		return GMON_SNIFF_GNU;
	for (int ptr = 4; ptr <= 8; ptr += 4) {
		size_t off = 2 * (size_t)ptr + 4;

		if (n >= off + 4 &&
		    (word_at(b + off, 4, 0) == GMON_BSD_VERSION ||
		    word_at(b + off, 4, 1) == GMON_BSD_VERSION))
			return GMON_SNIFF_BSD;
	}
	return GMON_SNIFF_NO;
}

/* Either byte order; a BSD file's first word, its low_pc, is rarely small. */
int
gmon_maybe_kernel(const unsigned char *b, size_t n, uint64_t total)
{
	if (n < 4 || total % 4)
		return 0;
	for (int big = 0; big <= 1; big++) {
		uint64_t step = word_at(b, 4, big);

		if (step && step <= 1024 && (step & (step - 1)) == 0)
			return 1;
	}
	return 0;
}

/* The file read under each guess of byte order and address size: the best
 * (by score) that reads whole is kept, else the error that read furthest. */
int
gmon_parse(struct gmon *g, const unsigned char *b, size_t n, char *err,
    size_t errlen)
{
	char msg[256];
	size_t reach = 0;
	int best = -1, best_fail = -1;

	memset(g, 0, sizeof *g);
	for (int big = 0; big <= 1; big++)
		for (int ptr = 8; ptr >= 4; ptr -= 4) {
			struct rd r = { .b = b, .n = n, .big = big, .ptr = ptr,
			    .bsd = n < 4 || memcmp(b, "gmon", 4) != 0,
			    .err = msg, .errlen = sizeof msg };
			struct gmon x = { .format = r.bsd ? GMON_BSD : GMON_GNU,
			    .ptrsize = ptr, .big_endian = big };
			int rc = parse(&r, &x), score;

			free(r.recs);
			x.version = r.version;
			/* the version small in the right byte order; text;
			 * then 64-bit */
			score = (r.bsd || r.version <= 0xffff) * 4 +
			    (r.bsd || dimen_is_text(r.dimen)) * 2 + (ptr == 8);
			if (rc == 0 && score > best) {
				gmon_free(g);
				*g = x;
				best = score;
				continue;
			}
			gmon_free(&x);
			if (rc == 0 || (best_fail >= 0 && (r.pos < reach ||
			    (r.pos == reach && score <= best_fail))))
				continue;
			reach = r.pos;
			best_fail = score;
			snprintf(err, errlen, "%s", msg);
		}
	return best < 0 ? -1 : 0;
}

int
gmon_subtract(struct gmon *g, const struct gmon *base, char *err,
    size_t errlen)
{
	struct rd r = { .err = err, .errlen = errlen };
	size_t n = g->nranges < base->nranges ? g->nranges : base->nranges;
	struct counters c = gmon_counters(g), d = gmon_counters(base);
	size_t got;

	for (size_t i = 0; i < n; i++) {
		const struct hist_range *x = &base->ranges[i];
		const struct hist_range *y = &g->ranges[i];

		if (memcmp(x, y, sizeof *x) != 0)	/* first follows */
			return fail(&r, "the baseline's histogram "
			    "0x%llx-0x%llx in %llu bins differs from "
			    "0x%llx-0x%llx in %llu bins", (ull)x->low,
			    (ull)x->high, (ull)x->nbins, (ull)y->low,
			    (ull)y->high, (ull)y->nbins);
	}
	if (g->nranges != base->nranges)
		return fail(&r, "the baseline has %zu histogram ranges, the "
		    "profile %zu", base->nranges, g->nranges);
	for (uint64_t k = 1; k < c.n; k += got) {	/* the same ranges */
		const uint32_t *w = c.span(c.ctx, k, c.n, &got);
		const uint32_t *u = d.span(d.ctx, k, c.n, &got);

		for (size_t i = 0; i < got; i++)
			if (w[i] < u[i])
				return fail(&r, "bin %llu is lower than in the "
				    "baseline (is the baseline a later run?)",
				    (ull)(k + i - 1));
	}
	g->bins->base = base->bins;
	return 0;
}

struct counters
gmon_counters(const struct gmon *g)
{
	return (struct counters){ g->nbins + 1, bins_span, g->bins, NULL };
}

/* The call arcs are kept in the bytes parsed, taking no memory however
 * many: each a unit, callee (PTR bytes) and count (8), or for a call
 * graph caller, callee and count (as wide as the record's), big-endian,
 * no wider than its record (GNU 13 or 21 bytes, BSD 12 or 24), gathered
 * in one pass from the first arc on, the bins met after it moved before
 * them (padded to whole units); then sorted, and for -v's calls each
 * callee's counts added up. */
#define unit_pc(ptr, p) word_at(p, ptr, 1)
#define unit_count(ptr, p) word_at((p) + (ptr), 8, 1)

/* V as the LEN bytes at P, big-endian. */
static void
store(unsigned char *p, int len, uint64_t v)
{
	for (; len > 0; v >>= 8)
		p[--len] = (unsigned char)v;
}

/* The gathering: [first arc, wb) bins moved, [wb, w) the units so far;
 * wb 0 before the first arc (which lies after the file's header). */
struct gather {
	unsigned char *b;	/* the bytes parsed */
	size_t unit;		/* the bytes of a unit */
	struct gmon_bins *v;
	size_t wb, w;
};

/* The bins of H, met after the first arc: moved to W (lower: their header
 * is longer than a unit), then the units (S bytes) trade places with the
 * next S bytes of bins while more are left, then with the rest, changing
 * only their order (sorted later): O(the bins' bytes + S).  The records
 * stay in order: those of H's range moved before lie lower. */
static void
gather_bins(struct gather *x, const struct hrec *h)
{
	unsigned char *b = x->b;
	size_t len = (size_t)h->nbins * 2, s = x->w - x->wb;
	size_t pad = (len + x->unit - 1) / x->unit * x->unit;
	size_t lo = 0, hi = x->v->rfirst[x->v->nranges], done;
	struct hrec *recs = x->v->recs;

	if (x->wb == 0)
		return;		/* before every arc: where it is */
	memmove(b + x->w, b + h->off, len);
	for (done = 0; pad - done > s; done += s)
		swap_bytes(b + x->wb + done, b + x->wb + done + s, s);
	swap_bytes(b + x->wb + done, b + x->wb + done + s, pad - done);
	while (lo + 1 < hi) {	/* the record, in low_cmp's order */
		size_t mid = lo + (hi - lo) / 2;

		if (low_cmp(&recs[mid], h, NULL) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	recs[lo].off = x->wb;
	x->wb += pad;
	x->w += pad;
}

/* What a sort orders: elements of W bytes, each a unit whose key is its
 * first PTR bytes (big-endian), or (UNITS not NULL) a 4-byte index of a
 * unit of UW bytes at UNITS whose key is at KOFF. */
struct rsort {
	int ptr;
	size_t w;
	const unsigned char *units;
	size_t uw, koff;
};

static const unsigned char *
rkey(const struct rsort *s, const unsigned char *e)
{
	uint32_t i;

	if (s->units == NULL)
		return e;
	memcpy(&i, e, sizeof i);
	return s->units + i * s->uw + s->koff;
}

/* By key, big-endian. */
static int
key_cmp(const void *x, const void *y, void *ctx)
{
	const struct rsort *s = ctx;

	return memcmp(rkey(s, x), rkey(s, y), (size_t)s->ptr);
}

/* Sort the N elements at V by key from its byte AT on, in place: a
 * counting pass, the elements into their buckets, each bucket sorted on
 * the next byte (at most 8 levels: linear); a small one by heap_sort. */
static void
radix_sort(const struct rsort *s, unsigned char *v, size_t n, int at)
{
	size_t w = s->w, first[257] = { 0 }, next[256];

	if (n <= 32) {
		heap_sort(v, n, w, key_cmp, (void *)s);
		return;
	}
	for (size_t i = 0; i < n; i++)
		first[rkey(s, v + i * w)[at] + 1]++;
	for (int d = 0; d < 256; d++) {
		first[d + 1] += first[d];
		next[d] = first[d];
	}
	for (int d = 0; d < 256; d++)
		while (next[d] < first[d + 1]) {	/* a cycle through d */
			unsigned char *p = v + next[d] * w;
			int e = rkey(s, p)[at];

			if (e == d)
				next[d]++;
			else
				swap_bytes(p, v + next[e]++ * w, w);
		}
	if (at + 1 < s->ptr)
		for (int d = 0; d < 256; d++)
			if (first[d + 1] - first[d] > 1)
				radix_sort(s, v + first[d] * w,
				    first[d + 1] - first[d], at + 1);
}

/* Sort the N units at V; then each callee once, its counts added up. */
static size_t
sort_units(int ptr, unsigned char *v, size_t n)
{
	size_t w = (size_t)ptr + 8, k = n > 0;
	struct rsort s = { ptr, w, NULL, 0, 0 };

	radix_sort(&s, v, n, 0);
	for (size_t i = 1; i < n; i++) {
		unsigned char *last = v + (k - 1) * w, *p = v + i * w;

		if (memcmp(last, p, (size_t)ptr) == 0)
			store(last + ptr, 8, unit_count(ptr, last) +
			    unit_count(ptr, p));
		else
			memmove(v + k++ * w, p, w);
	}
	return k;
}

/* G's arcs gathered in B as units of UNIT bytes (callee, count of 8
 * bytes; or with FULL, caller, callee, count of the record's width), in
 * file order: where they start; *N units. */
static unsigned char *
gather_arcs(struct gmon *g, unsigned char *b, size_t unit, int full,
    size_t *n)
{
	struct rd r = { .b = b, .n = g->bins->n, .big = g->big_endian,
	    .ptr = g->ptrsize, .bsd = g->format == GMON_BSD };
	struct gather x = { b, unit, g->bins, 0, 0 };
	int cw = r.bsd ? r.ptr : 4;
	struct rec e;

	while (next_rec(&r, &e) > 0) {	/* read whole before: no error */
		const unsigned char *a;
		uint64_t from, pc, count;

		if (e.tag == TAG_HIST)
			gather_bins(&x, &e.h);
		if (e.tag != TAG_ARC)
			continue;
		a = b + e.at + !r.bsd;	/* past any tag */
		from = word_at(a, r.ptr, r.big);
		pc = word_at(a + r.ptr, r.ptr, r.big);	/* self_pc */
		count = word_at(a + 2 * r.ptr, cw, r.big);
		if (x.wb == 0)
			x.wb = x.w = e.at;
		if (full) {
			store(b + x.w, r.ptr, from);
			store(b + x.w + r.ptr, r.ptr, pc);
			store(b + x.w + 2 * r.ptr, cw, count);
		} else {
			store(b + x.w, r.ptr, pc);
			store(b + x.w + r.ptr, 8, count);
		}
		x.w += x.unit;
	}
	*n = (x.w - x.wb) / x.unit;
	return b + x.wb;
}

void
gmon_index_arcs(struct gmon *g, unsigned char *b)
{
	size_t n;
	unsigned char *v = gather_arcs(g, b, (size_t)g->ptrsize + 8, 0, &n);

	g->ncallees = sort_units(g->ptrsize, v, n);
	g->arcs = v;
}

void
gmon_graph_arcs(struct gmon *g, unsigned char *b, struct gmon_graph *x)
{
	int ptr = g->ptrsize, cw = g->format == GMON_BSD ? ptr : 4;
	size_t w = 2 * (size_t)ptr + (size_t)cw;
	struct rsort by_from = { ptr, w, NULL, 0, 0 };
	struct rsort by_self = { ptr, sizeof *x->by_self, NULL, w,
	    (size_t)ptr };

	*x = (struct gmon_graph){ .ptr = ptr, .cw = cw, .w = w };
	x->v = gather_arcs(g, b, w, 1, &x->n);
	radix_sort(&by_from, x->v, x->n, 0);
	/* n < 2^32: a unit takes at least 12 of at most 2^30 + 4 bytes */
	x->by_self = xmalloc((x->n ? x->n : 1) * sizeof *x->by_self);
	for (size_t i = 0; i < x->n; i++)
		x->by_self[i] = (uint32_t)i;
	by_self.units = x->v;
	radix_sort(&by_self, (unsigned char *)x->by_self, x->n, 0);
}

uint64_t
gmon_graph_pc(const struct gmon_graph *x, size_t i, int self)
{
	return word_at(x->v + i * x->w + (self ? (size_t)x->ptr : 0),
	    (size_t)x->ptr, 1);
}

void
gmon_graph_set(struct gmon_graph *x, size_t i, int self, uint64_t v)
{
	store(x->v + i * x->w + (self ? (size_t)x->ptr : 0), x->ptr, v);
}

uint64_t
gmon_graph_count(const struct gmon_graph *x, size_t i)
{
	return word_at(x->v + i * x->w + 2 * (size_t)x->ptr, (size_t)x->cw,
	    1);
}

void
gmon_graph_free(struct gmon_graph *x)
{
	free(x->by_self);
	x->by_self = NULL;
}

uint64_t
gmon_calls(void *walk, uint64_t start, uint64_t next)
{
	struct gmon_walk *k = walk;
	const unsigned char *v = k->g->arcs;
	size_t i = k->at, n = k->g->ncallees, w = (size_t)k->g->ptrsize + 8;
	int ptr = k->g->ptrsize;
	uint64_t sum = 0;

	if (i > 0 && i <= n && unit_pc(ptr, v + (i - 1) * w) >= start)
		i = 0;		/* not ascending: start over */
	while (i < n && unit_pc(ptr, v + i * w) < start)
		i++;
	for (; i < n && unit_pc(ptr, v + i * w) < next; i++)
		sum += unit_count(ptr, v + i * w);
	k->at = i;
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
}
