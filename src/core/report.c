/* report.c - the report loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fit.h"
#include "core/report.h"
#include "base/util.h"

/* The symbol waiting for its successor's address. */
struct pending {
	uint64_t addr;
	const char *name;
	size_t len;
	char *buf;
	size_t cap;
};

/* The state of one report: its totals grow in RES as symbols close. */
struct walk {
	struct symsrc *m;
	const struct counters *c;
	const struct run *run;
	const struct report_sink *sink;
	struct report_result *res;
	struct pending p;
	uint64_t end;		/* histogram: where the pending one's bytes end */
	uint64_t seq;		/* symbols closed */
};

/* S is the pending symbol: its name copied, unless it stays valid. */
static void
pending_set(struct pending *p, const struct sym *s)
{
	size_t len = s->namelen;

	p->addr = s->addr;
	p->len = len;
	if (s->stable) {	/* no copy: each name is read once */
		p->name = s->name;
		return;
	}
	if (len + 1 > p->cap) {
		p->cap = len + 64;
		p->buf = xrealloc(p->buf, p->cap);
	}
	memmove(p->buf, s->name, len);
	p->buf[len] = '\0';
	p->name = p->buf;
}

/* The origin; a map without _stext, or with _stext at 0, is fatal: at 0
 * and the next symbol too, /proc/kallsyms read as a user
 * (kernel.kptr_restrict), however it was given. */
static uint64_t
need_stext(struct symsrc *m, struct sym *s)
{
	int found = symsrc_find_stext(m, s);
	char hint[320];

	if (found && s->addr == 0) {	/* no origin, hidden or not */
		if (symsrc_next(m, s) && s->addr == 0) {
			warnx_("can't find \"_stext\" in %s", m->name);
			fatalx_hint("%s: " SYMSRC_HIDDEN, m->name);
		}
		found = 0;
	}
	if (!found)
		sniff_map_fatal(m->name, m->map.kind, "can't find \"_stext\" "
		    "in %s%s", m->name, symsrc_hint(m, hint, sizeof hint));
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

/* Symbol AT lies beyond the profile: util-linux's line (second, when the
 * profile is shorter than the map's text), the sizes that do not fit (the
 * map is read on for _etext), and without -m, that a copy needs its map. */
#define OUT_OF_RANGE "profile address out of range. Wrong map file?"
static _Noreturn void
out_of_range(struct walk *r, const struct sym *at)
{
	const struct attrib *a = &r->res->a;
	struct sym s = *at;
	uint64_t n = a->nwords - 1, step = a->step, end = a->origin + n * step;
	int etext = sym_is_etext(&s), short_profile;
	char detail[512], where[64] = "", name[257];

	/* its name while it is there: a map's lines go as it is read on */
	snprintf(name, sizeof name, "%.*s", (int)(at->namelen > 256 ? 256 :
	    at->namelen), at->name);
	while (!etext && symsrc_next(r->m, &s))
		etext = sym_is_etext(&s);
	short_profile = etext && s.addr > end;
	if (short_profile) {
		fit_short(detail, sizeof detail, &(struct step_text){
		    r->m->name, a->origin, s.addr, 1, n }, (uint32_t)step);
	} else if (etext && s.addr >= a->origin) {
		/* the sizes agree: the symbol itself is what lies beyond */
		if (r->m->elf == NULL)
			snprintf(where, sizeof where, "(%llu)",
			    (unsigned long long)at->lineno);
		snprintf(detail, sizeof detail, "%s%s: %s at 0x%llx lies "
		    "beyond the end of the profile's text (0x%llx)%s",
		    r->m->name, where, name, (unsigned long long)at->addr,
		    (unsigned long long)end, at->addr == UINT64_MAX ?
		    "; an address of more than 16 hex digits reads as the "
		    "largest one" : "");
	} else {
		char sizes[64] = "no _etext";

		if (etext)
			snprintf(sizes, sizeof sizes, "_etext - _stext is %llu "
			    "bytes", (unsigned long long)(s.addr - a->origin));
		snprintf(detail, sizeof detail, "%s: %s, but the profile's %llu "
		    "counters at step %llu cover %llu bytes", r->m->name, sizes,
		    (unsigned long long)n, (unsigned long long)step,
		    (unsigned long long)(n * step));
	}
	/* a short profile is the cause: said first, then util-linux's line */
	warnx_("%s", short_profile ? detail : OUT_OF_RANGE);
	if (r->run->o->mapfile != NULL)
		fatalx("%s", short_profile ? OUT_OF_RANGE : detail);
	warnx_("%s", short_profile ? OUT_OF_RANGE : detail);
	fatalx("no -m: %s belongs to the running kernel; a profile copied "
	    "from another machine or boot needs the map of the kernel it came "
	    "from, given with -m", r->m->name);
}

uint64_t
report_unknown(const struct report_result *res)
{
	return res->last_in_func ? 0 : res->unknown;
}

int
report_shown(const struct options *o, const struct func_rec *f)
{
	if (o->bins)
		return f->ticks || (o->all && f->sp.end > f->sp.first);
	return f->len && (f->ticks || o->all);
}

/* The line S closes the pending symbol; print or collect it. */
static void
close_pending(struct walk *r, const struct sym *s)
{
	struct attrib_span sp;
	const struct options *o = r->run->o;
	const struct report_hist *h = r->run->hist;
	struct pending *p = &r->p;
	struct func_rec f;

	if (s->addr < p->addr)
		fatalx("%s(%llu): address goes backwards (0x%llx after 0x%llx)",
		    r->m->name, (unsigned long long)s->lineno,
		    (unsigned long long)s->addr, (unsigned long long)p->addr);
	if (attrib_close(&r->res->a, p->addr, s->addr, &sp) < 0)
		out_of_range(r, s);
	f = (struct func_rec){ .addr = p->addr, .len = s->addr - p->addr,
	    .ticks = counters_sum(r->c, sp.first, sp.end), .seq = r->seq++,
	    .sp = sp, .name = (char *)p->name, .namelen = p->len };
	r->res->total += f.ticks;
	if (sp.end >= r->res->a.nwords && r->res->a.mode == ATTRIB_CLASSIC)
		r->res->last_in_func = 1;
	/* a histogram's calls into [start, next), added to the total's; with
	 * -b, every symbol's count in the total, as -b -v lists */
	if (h != NULL && h->calls != NULL &&
	    (o->bins || report_shown(o, &f))) {
		f.calls = h->calls(h->calls_ctx, p->addr, s->addr);
		r->res->calls += f.calls;
	}
	r->sink->func(r->sink->ctx, &f);
	pending_set(p, s);
}

/* The text rules for the line S: 0 when it ends the report. */
static int
take_line(struct walk *r, const struct sym *s)
{
	if (sym_is_etext(s)) {
		close_pending(r, s);
		r->res->etext = s->addr;
		r->res->have_etext = 1;
		return 0;
	}
	/* Absolute symbols are skipped until ticks are seen. */
	if (s->kind == SYM_ABS &&
	    (r->res->total == 0 || sym_is(s, "__init_end")))
		return 1;
	if (s->kind != SYM_TEXT)
		return 0;
	close_pending(r, s);
	return 1;
}

/* Histogram: close the pending symbol at S (at its end, when its bytes
 * end before: the bins from there to S are no symbol's); S is pending. */
static void
close_hist(struct walk *r, const struct sym *s)
{
	struct sym e = *s;

	if (r->end < s->addr)
		e.addr = r->end;
	close_pending(r, &e);	/* E is pending, with S's name */
	r->p.addr = s->addr;
}

/* Histogram: the bounds of a text map's program text, from its line S. */
static void
text_bound(struct walk *r, const struct sym *s)
{
	struct report_result *res = r->res;

	if (r->m->elf != NULL)
		return;
	if (sym_is(s, "__executable_start"))
		res->text_lo = s->addr;
	else if (!res->have_text_hi && (sym_is(s, "etext") ||
	    sym_is_etext(s))) {
		res->text_hi = s->addr;
		res->have_text_hi = 1;
	}
}

/* The histogram's rules for the line S: 0 when it ends the report. */
static int
take_hist(struct walk *r, const struct sym *s)
{
	const struct report_hist *h = r->run->hist;

	text_bound(r, s);
	if (s->kind != SYM_TEXT)
		return 1;
	if (s->addr >= h->high)
		return 0;
	r->res->nsyms += s->addr >= h->low;
	if (s->addr >= h->low && r->p.name != NULL)
		close_hist(r, s);
	else	/* one below low may reach into the range */
		pending_set(&r->p, s);
	/* where S's bytes end: a .dynsym symbol's own, else its successor */
	r->end = !s->dynamic || s->size > UINT64_MAX - s->addr ? UINT64_MAX :
	    s->addr + s->size;
	return 1;
}

void
report_run(struct symsrc *m, const struct counters *c,
    const struct run *rn, const struct report_sink *sink,
    struct report_result *res)
{
	const struct report_hist *h = rn->hist;
	int (*take)(struct walk *, const struct sym *) = h ? take_hist :
	    take_line;
	int more, last_is_text = rn->last_is_text &&
	    run_mode(rn) == ATTRIB_EXACT;
	struct walk r = { .m = m, .c = c, .run = rn, .sink = sink,
	    .res = res };
	struct sym s;

	memset(res, 0, sizeof *res);
	res->h = h;
	if (h != NULL) {
		res->origin = h->low;
		res->etext = h->high;
		attrib_init_hist(&res->a, h->ranges, h->nranges);
	} else {
		res->origin = need_stext(m, &s);
		pending_set(&r.p, &s);
		res->unknown = last_is_text ? 0 : counters_get(c, c->n - 1);
		attrib_init(&res->a, res->origin, rn->step, c->n, run_mode(rn));
		res->a.last_is_text = last_is_text;
	}
	/* a profile of its step word alone: that word is util-linux's
	 * *unknown*, and so the whole */
	res->all = c->n > 1 ? counters_sum(c, 1, c->n) : res->unknown;
	if (sink->begin)
		sink->begin(sink->ctx, res);
	while ((more = symsrc_next(m, &s)) && take(&r, &s))
		continue;
	if (h != NULL && r.p.name != NULL)	/* the last one ends at high */
		close_hist(&r, &(struct sym){ .addr = h->high, .name = "" });
	/* the end of a text map's text may lie past the histogram's: read
	 * on to it (not past the map's end, once met) */
	while (more && h != NULL && m->elf == NULL && !res->have_text_hi &&
	    (more = symsrc_next(m, &s)))
		text_bound(&r, &s);
	if (h != NULL)	/* a histogram's: the bins of no function */
		res->unknown = res->all - res->total;
	res->span = r.p.addr > res->origin ? r.p.addr - res->origin : 0;
	res->load = attrib_load(res->total, res->span);
	/* ticks no symbol holds, and the likely cause (stdout stays as
	 * util-linux writes it); with _etext, a map of less text than the
	 * profile: fit.c says so */
	res->nosym = res->all - res->total - report_unknown(res);
	if (res->nosym != 0 && !res->have_etext)
		snprintf(res->note, sizeof res->note, "%llu of %llu ticks lie "
		    "past the last symbol of %.128s (0x%llx), which has no "
		    "_etext: is the map truncated, or of another kernel?",
		    (unsigned long long)res->nosym,
		    (unsigned long long)res->all, m->name,
		    (unsigned long long)r.p.addr);
	sink->end(sink->ctx, res);
	free(r.p.buf);
}
