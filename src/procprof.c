/*
 * procprof.c - the gmon.out path from options to report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gmon.h"
#include "procprof.h"
#include "report.h"
#include "symsrc.h"
#include "util.h"

int
procprof_detect(struct profile *p)
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

/* "Sampling_step: 4", or the fractional width with six decimals. */
static void
print_step(struct out *o, const struct gmon *g)
{
	uint64_t span = g->high - g->low;

	if (span % g->nbins == 0)
		put(o, "Sampling_step: %llu\n",
		    (unsigned long long)(span / g->nbins));
	else
		put(o, "Sampling_step: %.6f\n", (double)span /
		    (double)g->nbins);
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
	put(o, "Range: 0x%llx-0x%llx (%llu bytes)\n",
	    (unsigned long long)g->low, (unsigned long long)g->high,
	    (unsigned long long)(g->high - g->low));
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
	if (!procprof_detect(&bp))
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

void
procprof_run(const struct options *opt, struct profile *p, struct out *o)
{
	struct gmon g;
	struct symsrc m;
	struct counters c;
	struct report_opts ro = { .verbose = opt->verbose, .all = opt->all,
	    .bins = opt->bins, .counters = opt->counters, .mode = ATTRIB_HIST };
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
		fatalx("%s is a gmon.out: name the program's symbols with -m "
		    "(nm -n output)", p->name);
	if (symsrc_open(&m, opt->mapfile) < 0)
		fatal("%s", opt->mapfile);
	m.map.skip_undefined = 1;	/* plain `nm -n PROGRAM` output */
	h.low = g.low;
	h.high = g.high;
	h.nbins = g.nbins;
	h.rate = g.rate;
	/* call counts when there are arcs; a difference has none */
	h.calls = g.narcs && !opt->baseline ? calls_in : NULL;
	h.calls_ctx = &calls;
	c = gmon_counters(&g);
	report_hist_run(&m, &c, &h, &ro, o, &res);
	symsrc_close(&m);
	if (res.nsyms == 0)
		warnx_("warning: no text symbol of %s lies in %s's range "
		    "0x%llx-0x%llx: is it the profiled program?", opt->mapfile,
		    p->name, (unsigned long long)g.low,
		    (unsigned long long)g.high);
	gmon_free(&g);
}
