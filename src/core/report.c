/*
 * report.c - the report loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fit.h"
#include "core/report.h"
#include "base/util.h"

/* The symbol waiting for its successor's address; its name a copy. */
struct pending {
	uint64_t addr;
	const char *name;
	size_t len;
	char *buf;
	size_t cap;
};

/* The state of one report. */
struct run {
	struct symsrc *m;
	const struct counters *c;
	const struct report_opts *opt;
	struct out *o;
	struct attrib a;
	struct pending p;
	uint64_t total;
	uint32_t rate;		/* histogram: ticks per second, else 0 */
	const struct report_hist *h;	/* histogram, else NULL */
	uint64_t calls;		/* histogram: total of the calls column */
};

/* S is the pending symbol: its name copied. */
static void
pending_set(struct pending *p, const struct sym *s)
{
	size_t len = s->namelen;

	if (len + 1 > p->cap) {
		p->cap = len + 64;
		p->buf = xrealloc(p->buf, p->cap);
	}
	memmove(p->buf, s->name, len);
	p->buf[len] = '\0';
	p->name = p->buf;
	p->len = len;
	p->addr = s->addr;
}

static void
pending_free(struct pending *p)
{
	free(p->buf);
	p->buf = NULL;
	p->name = NULL;
	p->cap = 0;
}

/* The origin; a map without _stext, or with _stext at 0, is fatal. */
static uint64_t
need_stext(struct symsrc *m, struct sym *s)
{
	if (!symsrc_find_stext(m, s) || s->addr == 0)
		symsrc_fatal(m, "can't find \"_stext\" in %s%s", m->name,
		    symsrc_hint(m));
	return s->addr;
}

void
report_text_bounds(struct symsrc *m, struct report_result *res)
{
	struct sym s;

	memset(res, 0, sizeof *res);
	res->origin = need_stext(m, &s);
	while (symsrc_next(m, &s))
		if (sym_is_etext(&s)) {
			res->etext = s.addr;
			res->have_etext = 1;
			return;
		}
}

/* -b: the bins of one symbol, with its header before the first one. */
void
report_list_bins(struct out *o, const struct counters *c,
    const struct attrib *a, const struct attrib_span *sp, const char *name,
    size_t nlen, int all)
{
	int header = 0;

	for (uint64_t k = sp->first; k < sp->end;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, sp->end, &got);

		for (size_t i = 0; i < got; i++) {
			if (w[i] == 0 && !all)
				continue;
			if (!header) {
				out_bin_header(o, name, nlen);
				header = 1;
			}
			out_bin(o, attrib_word_addr(a, k + i), w[i]);
		}
		k += got;
	}
}

/* -s: the counters of one symbol at START. */
void
report_list_counters(struct out *o, const struct counters *c,
    const struct attrib *a, const struct attrib_span *sp, const char *name,
    size_t nlen, uint64_t start)
{
	for (uint64_t k = sp->list_first; k < sp->list_end;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, sp->list_end, &got);
		uint64_t addr = attrib_word_addr(a, k);

		/*
		 * The addresses of the words that follow, by the step; a
		 * histogram's bins may have a fractional width: each its own.
		 */
		for (size_t i = 0; i < got; i++) {
			if (a->mode == ATTRIB_HIST)
				addr = attrib_word_addr(a, k + i);
			out_counter(o, addr, name, nlen, addr - start, w[i]);
			addr += a->step;
		}
		k += got;
	}
}

/* Histogram: the calls into [start, next), added to the total's. */
static uint64_t
take_calls(struct run *r, uint64_t start, uint64_t next)
{
	uint64_t calls;

	if (r->h == NULL || r->h->calls == NULL)
		return 0;
	calls = r->h->calls(r->h->calls_ctx, start, next);
	r->calls += calls;
	return calls;
}

/* The -v line of a histogram's symbol: seconds, and calls if known. */
static void
out_hist_verbose(struct run *r, uint64_t addr, const char *name, size_t len,
    uint64_t next, uint64_t ticks, double load)
{
	uint64_t calls = take_calls(r, addr, next);

	out_sym_seconds(r->o, addr, name, len, ticks, load, r->rate,
	    r->h->calls ? &calls : NULL);
}

/*
 * Symbol AT lies beyond the profile: util-linux's line, then the sizes
 * that do not fit (the rest of the map is read for _etext), and, when the
 * map was not chosen with -m, that a copied profile needs its own.  A
 * profile shorter than the map's text says so first, then util-linux's
 * line.
 */
#define OUT_OF_RANGE "profile address out of range. Wrong map file?"
static _Noreturn void
out_of_range(struct run *r, const struct sym *at)
{
	struct sym s = *at;
	uint64_t n = r->a.nwords - 1, step = r->a.step;
	uint64_t end = r->a.origin + n * step;
	int etext = sym_is_etext(&s), short_profile;
	char detail[512], where[64] = "";

	while (!etext && symsrc_next(r->m, &s))
		etext = sym_is_etext(&s);
	short_profile = etext && s.addr > end;
	if (short_profile) {
		fit_short(detail, sizeof detail, r->m->name,
		    s.addr - r->a.origin, (uint32_t)step, n);
	} else if (etext && s.addr >= r->a.origin) {
		/* the sizes agree: the symbol itself is what lies beyond */
		if (r->m->elf == NULL)
			snprintf(where, sizeof where, "(%llu)",
			    (unsigned long long)at->lineno);
		snprintf(detail, sizeof detail, "%s%s: %.*s at 0x%llx lies "
		    "beyond the end of the profile's text (0x%llx)%s",
		    r->m->name, where, (int)(at->namelen > 256 ? 256 :
		    at->namelen), at->name, (unsigned long long)at->addr,
		    (unsigned long long)end, at->addr == UINT64_MAX ?
		    "; an address of more than 16 hex digits reads as the "
		    "largest one" : "");
	} else {
		char sizes[64] = "no _etext";

		if (etext)
			snprintf(sizes, sizeof sizes, "_etext - _stext is %llu "
			    "bytes", (unsigned long long)(s.addr - r->a.origin));
		snprintf(detail, sizeof detail, "%s: %s, but the profile's %llu "
		    "counters at step %llu cover %llu bytes", r->m->name, sizes,
		    (unsigned long long)n, (unsigned long long)step,
		    (unsigned long long)(n * step));
	}
	/* a short profile is the cause: said first, then util-linux's line */
	warnx_("%s", short_profile ? detail : OUT_OF_RANGE);
	if (!r->opt->default_map)
		fatalx("%s", short_profile ? OUT_OF_RANGE : detail);
	warnx_("%s", short_profile ? OUT_OF_RANGE : detail);
	fatalx("no -m: %s belongs to the running kernel; a profile copied "
	    "from another machine or boot needs the map of the kernel it came "
	    "from, given with -m", r->m->name);
}

/* The classic text of one closed symbol, written as it comes. */
static void
print_symbol(struct run *r, const struct attrib_span *sp, uint64_t ticks,
    uint64_t len)
{
	const struct report_opts *opt = r->opt;
	struct pending *p = &r->p;
	const char *name = p->name;
	size_t nlen = p->len;

	if (opt->rename && (ticks || opt->all || opt->verbose))
		name = opt->rename(p->name, p->len, &nlen);
	if (opt->bins) {
		report_list_bins(r->o, r->c, &r->a, sp, name, nlen,
		    opt->all);
		if (ticks || opt->verbose)
			out_bin_total(r->o, ticks);
		if (opt->verbose)	/* each symbol has a total: count its calls */
			take_calls(r, p->addr, p->addr + len);
	} else if (len && (ticks || opt->all)) {
		double load = attrib_load(ticks, len);
		if (opt->verbose && r->h)
			out_hist_verbose(r, p->addr, name, nlen,
			    p->addr + len, ticks, load);
		else if (opt->verbose)
			out_sym_verbose(r->o, p->addr, name, nlen, ticks,
			    load);
		else
			out_sym(r->o, ticks, name, nlen, load);
		if (opt->counters && (r->a.step || r->a.mode == ATTRIB_HIST))
			report_list_counters(r->o, r->c, &r->a, sp, name,
			    nlen, p->addr);
	}
}

/*
 * Whether --top/--json report a symbol: as the text report would.  With
 * -b, a symbol that has a bin to list (a non-zero one; any with -a).
 */
static int
reported(const struct report_opts *opt, const struct attrib_span *sp,
    uint64_t ticks, uint64_t len)
{
	if (opt->bins)
		return ticks || (opt->all && sp->end > sp->first);
	return len && (ticks || opt->all);
}

/* The line S closes the pending symbol; print or collect it. */
static void
close_pending(struct run *r, const struct sym *s)
{
	struct attrib_span sp;
	const struct report_opts *opt = r->opt;
	struct pending *p = &r->p;
	uint64_t ticks, len;

	if (s->addr < p->addr)
		fatalx("%s(%llu): address goes backwards (0x%llx after 0x%llx)",
		    r->m->name, (unsigned long long)s->lineno,
		    (unsigned long long)s->addr, (unsigned long long)p->addr);
	if (attrib_close(&r->a, p->addr, s->addr, &sp) < 0)
		out_of_range(r, s);
	ticks = counters_sum(r->c, sp.first, sp.end);
	r->total += ticks;
	len = s->addr - p->addr;
	if (opt->collect == NULL)
		print_symbol(r, &sp, ticks, len);
	else if (reported(opt, &sp, ticks, len))
		collect_add(opt->collect, p->addr, len, ticks,
		    take_calls(r, p->addr, s->addr), &sp, p->name, p->len);
	else if (opt->bins)	/* its calls count in the total, as with -b -v */
		take_calls(r, p->addr, s->addr);
	pending_set(p, s);
}

enum { LINE_NEXT, LINE_END };

/* The text rules for the line S: LINE_END when it ends the report. */
static int
take_line(struct run *r, const struct sym *s, struct report_result *res)
{
	if (sym_is_etext(s)) {
		close_pending(r, s);
		res->etext = s->addr;
		res->have_etext = 1;
		return LINE_END;
	}
	/* Absolute symbols are skipped until ticks are seen. */
	if (s->kind == SYM_ABS &&
	    (r->total == 0 || sym_is(s, "__init_end")))
		return LINE_NEXT;
	if (s->kind != SYM_TEXT)
		return LINE_END;
	close_pending(r, s);
	return LINE_NEXT;
}

void
report_run(struct symsrc *m, const struct counters *c, uint32_t step,
    const struct report_opts *opt, struct out *o, struct report_result *res)
{
	struct run r = { .m = m, .c = c, .opt = opt, .o = o };
	struct sym s;

	memset(res, 0, sizeof *res);
	res->origin = need_stext(m, &s);
	attrib_init(&r.a, res->origin, step, c->n, opt->mode);
	r.a.last_is_text = opt->last_is_text && opt->mode == ATTRIB_EXACT;
	pending_set(&r.p, &s);
	while (symsrc_next(m, &s))
		if (take_line(&r, &s, res) == LINE_END)
			break;
	res->unknown = r.a.last_is_text ? 0 : counters_get(c, c->n - 1);
	res->total = r.total;
	res->load = r.p.addr > res->origin ?
	    attrib_load(r.total, r.p.addr - res->origin) : 0.0;
	res->a = r.a;
	if (opt->collect == NULL) {
		out_unknown(o, res->unknown);
		out_total(o, res->total, res->load, opt->verbose);
	}
	pending_free(&r.p);
}

/*
 * Histogram: the end of the bytes that S is credited with; UINT64_MAX:
 * up to its successor.  A symbol of a stripped program's .dynsym names
 * what the program exports, not every function: it is credited with its
 * own bytes (its ELF size) and no more.
 */
static uint64_t
own_end(const struct sym *s)
{
	if (!s->dynamic)
		return UINT64_MAX;
	return s->size > UINT64_MAX - s->addr ? UINT64_MAX : s->addr + s->size;
}

/*
 * Histogram: close the pending symbol, whose bytes end at *END, at S, and
 * make S pending.  One that ends before S is closed at its end: the bins
 * from there to S are no symbol's.
 */
static void
close_hist(struct run *r, const struct sym *s, uint64_t *end)
{
	if (*end < s->addr) {
		struct sym e = *s;

		e.addr = *end;
		close_pending(r, &e);
		pending_set(&r->p, s);
	} else {
		close_pending(r, s);
	}
	*end = own_end(s);
}

void
report_hist_run(struct symsrc *m, const struct counters *c,
    const struct report_hist *h, const struct report_opts *opt, struct out *o,
    struct report_result *res)
{
	struct run r = { .m = m, .c = c, .opt = opt, .o = o, .rate = h->rate,
	    .h = h };
	struct sym s;
	uint64_t all = counters_sum(c, 1, c->n), end = UINT64_MAX;
	int below = 0;

	memset(res, 0, sizeof *res);
	res->origin = h->low;
	res->etext = h->high;
	attrib_init_hist(&r.a, h->ranges, h->nranges);
	while (symsrc_next(m, &s)) {
		if (s.kind != SYM_TEXT)
			continue;
		if (s.addr < h->low) {	/* may reach into the range */
			pending_set(&r.p, &s);
			end = own_end(&s);
			below = 1;
			continue;
		}
		if (s.addr >= h->high)
			break;
		if (res->nsyms++ == 0 && !below) {
			pending_set(&r.p, &s);
			end = own_end(&s);
		} else {
			close_hist(&r, &s, &end);
		}
	}
	if (res->nsyms || below) {
		memset(&s, 0, sizeof s);
		s.addr = h->high;
		s.name = "";
		close_hist(&r, &s, &end);
	}
	res->total = r.total;
	res->unknown = all - r.total;
	res->load = attrib_load(r.total, h->high - h->low);
	res->a = r.a;
	res->h = h;
	res->calls = r.calls;
	if (opt->collect == NULL) {
		out_unknown(o, res->unknown);
		report_hist_total(o, res, opt->verbose);
	}
	pending_free(&r.p);
}

void
report_hist_total(struct out *o, const struct report_result *res,
    int verbose)
{
	if (verbose)
		out_sym_seconds(o, 0, "total", 5, res->total, res->load,
		    res->h->rate, res->h->calls ? &res->calls : NULL);
	else
		out_sym(o, res->total, "total", 5, res->load);
}
