/*
 * gmonrun.c - the gmon.out path from options to report.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sym/elfsym.h"
#include "hist/gmon.h"
#include "cli/debugfile.h"
#include "cli/gmonrun.h"
#include "cli/run.h"
#include "base/wide.h"
#include "sym/symsrc.h"
#include "base/util.h"
#include "views/view.h"

int
gmonrun_detect(struct profile *p)
{
	size_t n = p->bytes < 48 ? (size_t)p->bytes : 48;
	int kind = gmon_sniff(p->head, n), rc;
	struct gmon g;
	char err[256];

	if (kind != GMON_SNIFF_BSD || !gmon_maybe_kernel(p->head, n, p->bytes))
		return kind != GMON_SNIFF_NO;
	/* a kernel profile's counter may equal the BSD version: read it all */
	rc = gmon_parse(&g, p->data, (size_t)p->bytes, err,
	    sizeof err);
	gmon_free(&g);
	return rc == 0;
}

static void
load(struct gmon *g, struct profile *p)
{
	char err[256];

	if (gmon_parse(g, p->data, (size_t)p->bytes, err,
	    sizeof err) < 0)
		fatalx("%s: %s", p->name, err);
}

/* "Sampling_step: 4"; with ranges of several widths, each one's. */
static void
print_step(struct out *o, const struct gmon *g)
{
	const struct hist_range *x = &g->ranges[0], *y;
	uint64_t ah, al, bh, bl;
	size_t i, n = 1;

	for (i = 1; i < g->nranges && n == 1; i++) {	/* bins of one width? */
		y = &g->ranges[i];
		wide_mul(x->high - x->low, y->nbins, &ah, &al);
		wide_mul(y->high - y->low, x->nbins, &bh, &bl);
		if (ah != bh || al != bl)
			n = g->nranges;
	}
	out_printf(o, "Sampling_step: ");
	for (i = 0; i < n; i++) {
		if (i)
			out_printf(o, ", ");
		view_width(o, &g->ranges[i]);
	}
	out_printf(o, "\n");
}

static void
print_info_verbose(struct out *o, const struct gmon *g)
{
	out_printf(o, g->format == GMON_GNU ? "Format: GNU gmon.out, version "
	    "%u\n" : "Format: BSD gmon.out, version 0x%x\n", g->version);
	out_printf(o, "Pointer_size: %d\nByte_order: %s\n", g->ptrsize,
	    g->big_endian ? "big-endian" : "little-endian");
	for (size_t i = 0; i < g->nranges; i++) {
		const struct hist_range *r = &g->ranges[i];

		out_printf(o, "Range: 0x%llx-0x%llx (%llu bytes",
		    (unsigned long long)r->low, (unsigned long long)r->high,
		    (unsigned long long)(r->high - r->low));
		if (g->nranges > 1)
			out_printf(o, ", %llu bins",
			    (unsigned long long)r->nbins);
		out_printf(o, ")\n");
	}
	out_printf(o, "Bins: %llu\nProfiling_rate: %u Hz\nHistogram_records: "
	    "%llu\nArc_records: %llu\n", (unsigned long long)g->nbins,
	    g->rate, (unsigned long long)g->nhist,
	    (unsigned long long)g->narcs);
	if (g->format == GMON_GNU)
		out_printf(o, "Basic_block_records: %llu\n",
		    (unsigned long long)g->nblocks);
}

/* A histogram's end may lie past its program's text by the rounding of
 * its writer: glibc and the BSDs round etext up to 4 bytes. */
#define TEXT_SLACK 16

/*
 * -m must be the profiled program: R's histogram must cover its text
 * [LO, HI), from no lower than its first loaded address (glibc's starts at
 * __executable_start, the BSDs' at the text) to its etext, rounded up by
 * less than TEXT_SLACK.  An ELF file's (with section headers) is checked
 * before the report, nm text's (with etext) once the walk found it; fatal
 * when not, naming both.
 */
static void
check_text(const struct run *r, uint64_t lo, uint64_t hi)
{
	const struct gmon *g = r->gmon;

	if (g->low >= lo && g->high >= hi && g->high - hi < TEXT_SLACK)
		return;
	fatalx("%s: the histogram 0x%llx-0x%llx does not match the text of "
	    "%s, 0x%llx-0x%llx: it is the profile of another program, or of "
	    "another build of it", r->profile, (unsigned long long)g->low,
	    (unsigned long long)g->high, r->o->mapfile, (unsigned long long)lo,
	    (unsigned long long)hi);
}

/* Once the report is walked: nm text checked, then the ticks of no function
 * said on stderr with their likely cause (an error when no function holds
 * any), or a warning for a range with no text symbol; ctx: -m's debugfile. */
static void
tell_unattributed(const struct run *r, const struct report_result *res)
{
	const struct debugfile *d = r->walked_ctx;
	const char *gmon = r->profile, *prog = r->o->mapfile;
	uint64_t all = res->total + res->unknown;
	char head[512], *cause, *text;

	if (res->have_text_hi)
		check_text(r, res->text_lo, res->text_hi);
	if (res->unknown == 0) {
		if (res->nsyms == 0)
			warnx_("warning: no text symbol of %s lies in %s's "
			    "range 0x%llx-0x%llx: is it the profiled program?",
			    prog, gmon, (unsigned long long)res->origin,
			    (unsigned long long)res->etext);
		return;
	}
	if (res->total == 0)
		snprintf(head, sizeof head, "none of the %llu ticks in %s lies in "
		    "a function of %s:", (unsigned long long)all, gmon, prog);
	else
		snprintf(head, sizeof head, "warning: %llu of the %llu ticks in "
		    "%s lie in no function of %s (*unknown* in the report):",
		    (unsigned long long)res->unknown, (unsigned long long)all,
		    gmon, prog);
	cause = d->stripped ? debugfile_cause(d, prog) : xasprintf("%s "
	    "0x%llx-0x%llx: is %s the profiled program, and whole?",
	    res->nsyms ? "they lie before its first text symbol in the "
	    "histogram's range" : "no text symbol of it lies in the "
	    "histogram's range", (unsigned long long)res->origin,
	    (unsigned long long)res->etext, prog);
	text = xasprintf("%s %s", head, cause);
	free(cause);
	say_wrapped("", "  ", text, res->total == 0);
	free(text);
}

/* The baseline PROFILE does not subtract from (ERR says why): two runs,
 * or two programs, which --baseline cannot compare; pprof can. */
static _Noreturn void
two_runs(const char *profile, const char *err)
{
	warnx_("%s: %s", profile, err);
	fatalx("--baseline subtracts an earlier snapshot of one run; two runs "
	    "of a program are compared with --pprof of each, then go tool "
	    "pprof -diff_base old.pb.gz new.pb.gz");
}

void
gmonrun_run(struct run *r, struct profile *p)
{
	const struct options *opt = r->o;
	struct gmon g, bg;
	struct gmon_walk calls = { &g, 0 };
	struct gmon_graph graph = { 0 };
	struct report_hist h;
	struct profile bp;
	struct counters c;
	struct report_result res;
	struct debugfile d;
	struct symsrc m;
	struct elf_peek pk;
	char err[256];

	load(&g, p);
	if (opt->info) {	/* its shape: no baseline (a warning says so) */
		print_step(r->out, &g);
		if (opt->verbose)
			print_info_verbose(r->out, &g);
		gmon_free(&g);
		return;
	}
	if (opt->baseline) {	/* its bytes read until the report is done */
		profile_load(&bp, opt->baseline);
		if (!gmonrun_detect(&bp))
			fatalx("%s: not a gmon.out, unlike %s", opt->baseline,
			    r->profile);
		load(&bg, &bp);
		if (gmon_subtract(&g, &bg, err, sizeof err) < 0)
			two_runs(r->profile, err);
	}
	if (opt->mapfile == NULL)
		fatalx("%s is a gmon.out: name the program with -m (the "
		    "program itself, or its nm -n output)", p->name);
	r->gmon = &g;
	if (elf_peek(opt->mapfile, &pk) == 0 && pk.have_exec)
		check_text(r, pk.have_load && pk.load_lo < pk.exec_lo ?
		    pk.load_lo : pk.exec_lo, pk.exec_hi);
	h = (struct report_hist){ g.low, g.high, g.nbins, g.ranges,
	    g.nranges, g.rate, NULL, &calls };
	/* call counts when there are arcs (a difference has none): --pprof's
	 * call graph, or the calls of -v */
	if (g.narcs && !opt->baseline && opt->pprof) {
		gmon_graph_arcs(&g, p->data, &graph);	/* no longer a gmon.out */
		r->arcs = &graph;
	} else if (g.narcs && !opt->baseline) {
		h.calls = gmon_calls;
		gmon_index_arcs(&g, p->data);	/* no longer a gmon.out */
	}
	c = gmon_counters(&g);
	debugfile_resolve(&d, opt->mapfile, r->k->debug);
	run_open_map(&m, d.use);
	m.map.skip_undefined = 1;	/* plain `nm -n PROGRAM` output */
	r->map = m.name;
	r->hist = &h;
	r->walked = tell_unattributed;
	r->walked_ctx = &d;
	run_report(r, &m, &c, &res);
	symsrc_close(&m);
	debugfile_free(&d);
	r->arcs = NULL;
	gmon_graph_free(&graph);
	gmon_free(&g);
	if (opt->baseline) {
		gmon_free(&bg);
		profile_close(&bp);
	}
}
