/*
 * classic.c - the classic report's lines, and its sink.
 */
#include <stdio.h>
#include <string.h>

#include "core/batch.h"
#include "views/classic.h"

typedef unsigned long long ull;

void
fmt_seconds(char *dst, size_t size, uint64_t ticks, uint32_t rate)
{
	uint64_t pow = 1, whole = ticks / rate, rem = ticks % rate, frac;
	int d = 0;
	char f[8];

	while (d < 6 && (d < 2 || pow % rate != 0)) {
		pow *= 10;
		d++;
	}
	/* rem < rate < 2^32 and pow <= 10^6: no overflow */
	frac = (rem * pow * 2 + rate) / (2 * (uint64_t)rate);
	if (frac == pow) {
		whole++;
		frac = 0;
	}
	/* six digits, of which the first D are shown */
	snprintf(f, sizeof f, "%06u", (unsigned)(frac * (1000000 / pow)));
	snprintf(dst, size, "%llu.%.*s", (ull)whole, d, f);
}

/* "%*llu" at the end of P: V right-aligned in WIDTH columns at least. */
static char *
put_u64(char *p, uint64_t v, int width)
{
	char t[20];
	int n = 0;

	do
		t[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (width-- > n)
		*p++ = ' ';
	while (n)
		*p++ = t[--n];
	return p;
}

/* " %8.4f" of LOAD (not negative) at P, as printf rounds it: its digits
 * from LOAD * 10^4, whose error is below 2^-19 for a load under 2^20, so
 * that it rounds as the exact value does unless it lies within 10^-5 of
 * a tie; then, and for a larger load, by snprintf. */
static char *
put_load(char *p, double load)
{
	double t = load * 10000.0, f;
	uint64_t q;

	if (!(load < 1048576.0) ||
	    ((f = t - (double)(uint64_t)t) > 0.49999 && f < 0.50001))
		return p + snprintf(p, 64, " %8.4f", load);
	q = (uint64_t)(t + 0.5);
	*p++ = ' ';
	p = put_u64(p, q / 10000, 3);
	*p++ = '.';
	for (uint64_t d = 1000; d > 0; d /= 10)
		*p++ = (char)('0' + q / d % 10);
	return p;
}

/* NAME, N bytes, at P in LINE, a buffer of LINE_ROOM bytes; when it is long,
 * LINE up to P and NAME are written out first, and P starts LINE again
 * (what follows a name, a load or a counter's figures, takes less than
 * 128 bytes).
 * Returns where the line goes on. */
#define LINE_ROOM 256
static char *
put_name(struct out *o, char *line, char *p, const char *name, size_t n)
{
	if (n > LINE_ROOM - 128) {
		out_str(o, line, (size_t)(p - line));
		out_str(o, name, n);
		return line;
	}
	memcpy(p, name, n);
	return p + n;
}

/* "%6llu %-40.*s %8.4f\n", the line in one write when its name is
 * not long.  -a writes tens of thousands of lines, most with no tick, and
 * the dense report 151,591 with a load: printf would take twice the whole
 * report's time (bench/run.sh, real-a), and a tenth of the dense one's,
 * so it is written by hand. */
static void
out_plain(struct out *o, const struct line *l)
{
	char b[LINE_ROOM], *p = put_u64(b, l->ticks, 6);

	*p++ = ' ';
	p = put_name(o, b, p, l->name, l->nlen);
	if (l->nlen < 40) {
		memset(p, ' ', 40 - l->nlen);
		p += 40 - l->nlen;
	}
	p = put_load(p, l->load);
	*p++ = '\n';
	out_str(o, b, (size_t)(p - b));
}

/* A histogram's seconds (and calls) of L, -v. */
static void
out_seconds(struct out *o, const struct line *l)
{
	char secs[32];

	if (l->h != NULL && l->h->rate) {
		fmt_seconds(secs, sizeof secs, l->ticks, l->h->rate);
		out_printf(o, " %10s", secs);
		if (l->h->calls)
			out_printf(o, " %8llu", (ull)l->calls);
	}
}

/* --top's row: the name last, after the columns of numbers. */
static void
out_top_row(struct out *o, const struct line *l)
{
	if (l->verbose)
		out_printf(o, "%016llx ", (ull)l->addr);
	out_printf(o, "%6llu %8.4f", (ull)l->ticks, l->load);
	if (l->verbose)
		out_seconds(o, l);
	out_printf(o, " %7s ", l->share);
	out_str(o, l->name, l->nlen);
	out_str(o, "\n", 1);
}

void
out_line(struct out *o, const struct line *l)
{
	if (l->share != NULL) {
		out_top_row(o, l);
		return;
	}
	if (!l->verbose) {
		out_plain(o, l);
		return;
	}
	out_printf(o, "%016llx %-40.*s %6llu %8.4f", (ull)l->addr,
	    (int)l->nlen, l->name, (ull)l->ticks, l->load);
	out_seconds(o, l);
	out_str(o, "\n", 1);
}

void
out_total(struct out *o, const struct report_result *res, uint64_t total,
    int verbose)
{
	struct line l = { .ticks = total, .name = "total", .nlen = 5,
	    .load = res->load, .verbose = verbose, .h = res->h,
	    .calls = res->calls };

	out_line(o, &l);
}

void
out_top_total(struct out *o, const struct report_result *res, int verbose)
{
	struct line l = { .ticks = res->all, .name = "total", .nlen = 5,
	    .load = attrib_load(res->all, res->span), .verbose = verbose,
	    .h = res->h, .calls = res->calls, .share = "" };

	out_line(o, &l);
}

/* -b: F's bins, with its header (L's name) before the first one. */
static void
out_bins(const struct classic *cl, const struct func_rec *f,
    const struct line *l)
{
	struct out *o = cl->r->out;
	int header = 0;

	for (uint64_t k = f->sp.first; k < f->sp.end;) {
		size_t got;
		const uint32_t *w = cl->c->span(cl->c->ctx, k, f->sp.end, &got);

		for (size_t i = 0; i < got; i++) {
			if (w[i] == 0 && !cl->r->o->all)
				continue;
			if (!header)
				out_printf(o, "%.*s:\n", (int)l->nlen, l->name);
			header = 1;
			out_printf(o, "\t%llx\t%u\n",
			    (ull)attrib_word_addr(&cl->res->a, k + i), w[i]);
		}
		k += got;
	}
}

/* "%#llx" at the end of P.  -s writes a line per counter, millions of
 * them: printf's cost is five times this (bench/run.sh, dense-s). */
static char *
put_althex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	int n;

	if (v == 0) {
		*p++ = '0';
		return p;
	}
	n = (67 - __builtin_clzll(v)) / 4;	/* its digits, written in place */
	*p++ = '0';
	*p++ = 'x';
	for (int i = n; i-- > 0; v >>= 4)
		p[i] = hex[v & 15];
	return p + n;
}

/* "\t%#llx\t%s+%#llx\t%u\n", ADDR in L: one write when its name is not long. */
static void
out_counter(struct out *o, const struct line *l, uint64_t addr,
    uint32_t count)
{
	char line[LINE_ROOM], *p = line;

	*p++ = '\t';
	p = put_althex(p, addr);
	*p++ = '\t';
	p = put_name(o, line, p, l->name, l->nlen);
	*p++ = '+';
	p = put_althex(p, addr - l->addr);
	*p++ = '\t';
	p = put_u64(p, count, 0);
	*p++ = '\n';
	out_str(o, line, (size_t)(p - line));
}

/* -s: the counters of function F, named as its line L. */
static void
out_counters(const struct classic *cl, const struct func_rec *f,
    const struct line *l)
{
	const struct counters *c = cl->c;
	const struct attrib *a = &cl->res->a;

	for (uint64_t k = f->sp.list_first; k < f->sp.list_end;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, f->sp.list_end, &got);
		uint64_t addr = attrib_word_addr(a, k);

		/* the next words' addresses by the step; a histogram's bins
		 * may have a fractional width: each its own */
		for (size_t i = 0; i < got; i++) {
			if (a->mode == ATTRIB_HIST)
				addr = attrib_word_addr(a, k + i);
			out_counter(cl->r->out, l, addr, w[i]);
			addr += a->step;
		}
		k += got;
	}
}

/* Whether F's line shows its name as the rename hook makes it. */
static int
renamed(const struct options *o, const struct func_rec *f)
{
	return f->ticks || o->all || o->verbose;
}

void
classic_out(const struct classic *k, const struct func_rec *f,
    const char *share)
{
	const struct options *opt = k->r->o;
	const struct run *r = k->r;
	const struct report_result *res = k->res;
	struct line l = { .addr = f->addr, .ticks = f->ticks, .name = f->name,
	    .nlen = f->namelen, .load = attrib_load(f->ticks, f->len),
	    .verbose = opt->verbose, .h = res->h, .calls = f->calls,
	    .share = share };

	if (r->rename && renamed(opt, f))
		l.name = r->rename(r->rename_ctx, f->name, f->namelen,
		    &l.nlen);
	if (opt->bins) {
		out_bins(k, f, &l);
		if (f->ticks || opt->verbose || share)
			out_printf(k->r->out, "  total\t\t\t\t%llu%s%s\n",
			    (ull)f->ticks, share ? " " : "", share ? share : "");
		return;
	}
	out_line(k->r->out, &l);
	if (opt->counters && (res->a.step || res->h))
		out_counters(k, f, &l);
}

/* One function as the classic text shows it, or collected. */
static void
classic_func(void *ctx, const struct func_rec *f)
{
	struct classic *k = ctx;

	if (k->r->collect != NULL) {
		if (report_shown(k->r->o, f))
			collect_add(k->r->collect, f);
	} else if (k->r->o->bins || report_shown(k->r->o, f)) {
		classic_out(k, f, NULL);
	}
}

/* Whether classic_func asks for F's name renamed. */
static int
classic_named(void *ctx, const struct func_rec *f)
{
	const struct classic *k = ctx;
	const struct options *o = k->r->o;

	return k->r->collect == NULL && (o->bins || report_shown(o, f)) &&
	    renamed(o, f);
}

/* util-linux's last two lines (collected: later), then the note. */
static void
classic_end(void *ctx, const struct report_result *res)
{
	struct classic *k = ctx;

	if (k->r->collect == NULL) {
		out_printf(k->r->out, "%6llu *unknown*\n", (ull)res->unknown);
		out_total(k->r->out, res, res->total, k->r->o->verbose);
	}
	out_note(k->r->out, res->note);
}

void
classic_run(struct symsrc *m, const struct counters *c,
    const struct run *r, struct report_result *res)
{
	struct classic cl = { r, c, res };	/* RES filled as it goes */
	struct report_sink s = { NULL, classic_func, classic_end, &cl,
	    classic_named };

	batch_report(m, c, r, &s, res);
}
