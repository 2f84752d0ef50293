/*
 * gmonrun.c - the gmon.out path from options to report.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/export.h"
#include "hist/gmon.h"
#include "sym/demangle.h"
#include "cli/debugfile.h"
#include "cli/gmonrun.h"
#include "base/wide.h"
#include "core/report.h"
#include "sym/symsrc.h"
#include "base/util.h"
#include "views/classic.h"
#include "views/view.h"

int
gmonrun_detect(struct profile *p)
{
	unsigned char head[48];
	size_t n = profile_peek(p, head, sizeof head);
	int kind = gmon_sniff(head, n), rc;
	struct gmon g;
	char err[256];

	if (kind != GMON_SNIFF_BSD || !gmon_maybe_kernel(head, n, p->bytes))
		return kind != GMON_SNIFF_NO;
	/* a kernel profile's counter may equal the BSD version: read it all */
	rc = gmon_parse(&g, profile_bytes(p), (size_t)p->bytes, err,
	    sizeof err);
	gmon_free(&g);
	return rc == 0;
}

static void
load(struct gmon *g, struct profile *p)
{
	char err[256];

	if (gmon_parse(g, profile_bytes(p), (size_t)p->bytes, err,
	    sizeof err) < 0)
		fatalx("%s: %s", p->name, err);
}

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_str(o, line, (size_t)n < sizeof line ? (size_t)n :
		    sizeof line - 1);
}

/* One range's bin width: "4", or the fractional width with six decimals. */
static void
print_width(struct out *o, const struct hist_range *r)
{
	uint64_t span = r->high - r->low;

	if (span % r->nbins == 0)
		put(o, "%llu", (unsigned long long)(span / r->nbins));
	else
		put(o, "%.6f", (double)span / (double)r->nbins);
}

/* Whether ranges X and Y have bins of one width. */
static int
same_width(const struct hist_range *x, const struct hist_range *y)
{
	uint64_t ah, al, bh, bl;

	wide_mul(x->high - x->low, y->nbins, &ah, &al);
	wide_mul(y->high - y->low, x->nbins, &bh, &bl);
	return ah == bh && al == bl;
}

/* "Sampling_step: 4"; with ranges of several widths, each one's. */
static void
print_step(struct out *o, const struct gmon *g)
{
	size_t i = 1, n = 1;

	while (i < g->nranges && same_width(&g->ranges[0], &g->ranges[i]))
		i++;
	if (i < g->nranges)
		n = g->nranges;
	put(o, "Sampling_step: ");
	for (i = 0; i < n; i++) {
		if (i)
			put(o, ", ");
		print_width(o, &g->ranges[i]);
	}
	put(o, "\n");
}

static void
print_info_verbose(struct out *o, const struct gmon *g)
{
	if (g->format == GMON_GNU)
		put(o, "Format: GNU gmon.out, version %u\n", g->version);
	else
		put(o, "Format: BSD gmon.out, version 0x%x\n", g->version);
	put(o, "Pointer_size: %d\n", g->ptrsize);
	put(o, "Byte_order: %s\n", g->big_endian ? "big-endian" :
	    "little-endian");
	for (size_t i = 0; i < g->nranges; i++) {
		const struct hist_range *r = &g->ranges[i];

		put(o, "Range: 0x%llx-0x%llx (%llu bytes", (unsigned long long)
		    r->low, (unsigned long long)r->high,
		    (unsigned long long)(r->high - r->low));
		if (g->nranges > 1)
			put(o, ", %llu bins", (unsigned long long)r->nbins);
		put(o, ")\n");
	}
	put(o, "Bins: %llu\n", (unsigned long long)g->nbins);
	put(o, "Profiling_rate: %u Hz\n", g->rate);
	put(o, "Histogram_records: %llu\nArc_records: %llu\n",
	    (unsigned long long)g->nhist, (unsigned long long)g->narcs);
	if (g->format == GMON_GNU)
		put(o, "Basic_block_records: %llu\n",
		    (unsigned long long)g->nblocks);
}

static void
subtract_baseline(struct gmon *g, const struct options *opt)
{
	struct profile bp;
	struct gmon base;
	char err[256];

	profile_load(&bp, opt->baseline);
	if (!gmonrun_detect(&bp))
		fatalx("%s: not a gmon.out, unlike %s", opt->baseline,
		    opt->profile);
	load(&base, &bp);
	if (gmon_subtract(g, &base, err, sizeof err) < 0)
		fatalx("%s: %s", opt->profile, err);
	gmon_free(&base);
	profile_close(&bp);
}

/* The calls column: the arcs of a gmon.out, read in one pass. */
struct calls {
	const struct gmon *g;
	size_t cursor;
};

static uint64_t
calls_in(void *ctx, uint64_t start, uint64_t next)
{
	struct calls *k = ctx;

	return gmon_calls(k->g, start, next, &k->cursor);
}

/* --top and --json: collect the reported functions, then print them. */
static void
report_view(const struct options *opt, const struct gmon *g,
    struct symsrc *m, const struct counters *c, const struct report_hist *h,
    struct report_opts *ro, struct out *o, struct report_result *res)
{
	struct view_inputs vi = { .profile = opt->profile, .map = m->name,
	    .baseline = opt->baseline, .byte_order = g->big_endian ?
	    "big-endian" : "little-endian", .gmon_format = g->format == GMON_GNU ?
	    "GNU" : "BSD", .gmon_version = g->version,
	    .pointer_size = g->ptrsize, .top = opt->top };
	struct collect k;
	struct export_src s = { .profile = opt->profile, .map = m->name,
	    .baseline = opt->baseline, .rate = g->rate, .rate_from = "gmon.out",
	    .format = g->format == GMON_GNU ? "gmon.out (GNU)" :
	    "gmon.out (BSD)" };

	struct report_sink sink;
	struct json_stream js;
	struct folded_stream fs;

	if ((opt->json && !opt->top) || (opt->folded && !opt->pprof)) {
		sink = opt->folded ? view_folded_sink(&fs, o, ro) :
		    view_json_sink(&js, o, c, ro, &vi);
		report_hist_run(m, c, h, ro, &sink, res);	/* streamed */
		return;
	}
	collect_init(&k, opt->top ? opt->top : SIZE_MAX);
	ro->collect = &k;
	classic_hist_run(m, c, h, ro, o, res);
	collect_sort(&k);
	if (export_wanted(opt))
		export_run(opt, o, &k, res, c, ro, &s);
	else if (opt->json)
		view_json(o, &k, res, c, ro, &vi);
	else
		view_top(o, &k, res, c, ro, NULL);
	collect_free(&k);
}

void
gmonrun_run(const struct options *opt, struct profile *p, struct out *o)
{
	struct gmon g;
	struct symsrc m;
	struct counters c;
	struct report_opts ro = { .verbose = opt->verbose, .all = opt->all,
	    .bins = opt->bins, .counters = opt->counters, .mode = ATTRIB_HIST,
	    .rename = opt->no_demangle ? NULL : demangle_or_same };
	struct report_hist h;
	struct report_result res;
	struct calls calls = { &g, 0 };

	load(&g, p);
	if (opt->info) {	/* the file's shape: no baseline (a warning says so) */
		print_step(o, &g);
		if (opt->verbose)
			print_info_verbose(o, &g);
		gmon_free(&g);
		return;
	}
	if (opt->baseline)
		subtract_baseline(&g, opt);
	if (opt->mapfile == NULL)
		fatalx("%s is a gmon.out: name the program with -m (the "
		    "program itself, or its nm -n output)", p->name);
	if (symsrc_open(&m, debugfile_resolve(opt->mapfile)) < 0)
		fatal("%s", m.name);
	m.map.skip_undefined = 1;	/* plain `nm -n PROGRAM` output */
	h.low = g.low;
	h.high = g.high;
	h.nbins = g.nbins;
	h.ranges = g.ranges;
	h.nranges = g.nranges;
	h.rate = g.rate;
	/* call counts when there are arcs; a difference has none */
	h.calls = g.narcs && !opt->baseline ? calls_in : NULL;
	h.calls_ctx = &calls;
	c = gmon_counters(&g);
	if (opt->top || opt->json || export_wanted(opt))
		report_view(opt, &g, &m, &c, &h, &ro, o, &res);
	else
		classic_hist_run(&m, &c, &h, &ro, o, &res);
	symsrc_close(&m);
	if (res.nsyms == 0)
		warnx_("warning: no text symbol of %s lies in %s's range "
		    "0x%llx-0x%llx: is it the profiled program?", opt->mapfile,
		    p->name, (unsigned long long)g.low,
		    (unsigned long long)g.high);
	gmon_free(&g);
}
