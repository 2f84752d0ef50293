/*
 * gmonrun.c - the gmon.out path from options to report.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/export.h"
#include "sym/elfpeek.h"
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

/* A baseline gmon.out: its bytes are read until the report is done. */
struct baseline {
	struct profile p;
	struct gmon g;
};

static void
subtract_baseline(struct gmon *g, const struct options *opt,
    struct baseline *b)
{
	char err[256];

	profile_load(&b->p, opt->baseline);
	if (!gmonrun_detect(&b->p))
		fatalx("%s: not a gmon.out, unlike %s", opt->baseline,
		    opt->profile);
	load(&b->g, &b->p);
	if (gmon_subtract(g, &b->g, err, sizeof err) < 0)
		fatalx("%s: %s", opt->profile, err);
}

/*
 * A histogram's end may lie past its program's text by the rounding of
 * its writer: glibc and the BSDs round etext up to 4 bytes.
 */
#define TEXT_SLACK 16

/*
 * The histogram of G (from GMON) must cover the text of PROG, [LO, HI):
 * no lower than its first loaded address (glibc's histogram starts at
 * __executable_start, the BSDs' at the text), and ending at the end of
 * its text (etext), rounded up by less than TEXT_SLACK.  Fatal when not,
 * naming both.
 */
static void
text_fits(const struct gmon *g, const char *gmon, const char *prog,
    uint64_t lo, uint64_t hi)
{
	if (g->low >= lo && g->high >= hi && g->high - hi < TEXT_SLACK)
		return;
	fatalx("%s: the histogram 0x%llx-0x%llx does not match the text of "
	    "%s, 0x%llx-0x%llx: it is the profile of another program, or of "
	    "another build of it", gmon, (unsigned long long)g->low,
	    (unsigned long long)g->high, prog, (unsigned long long)lo,
	    (unsigned long long)hi);
}

/*
 * A map given as nm -n text, read once ahead when it is a file (not
 * standard input, nor compressed): its etext (or _etext, __etext) and,
 * when it has one, its __executable_start.  Lines that are no symbol are
 * passed over (the report says what is wrong with those it reads); a map
 * without etext is not checked.
 */
static void
check_nm_text(const struct gmon *g, const char *gmon, const char *map)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t lo = 0, hi = 0;
	int have_hi = 0;

	if (strcmp(map, "-") == 0 || (f = fopen(map, "r")) == NULL)
		return;		/* the report says why it cannot be opened */
	while ((n = getline(&line, &cap, f)) > 0) {
		struct sym s;

		if (map_parse_line(line, line + n - (line[n - 1] == '\n'),
		    &s) < 0)
			continue;
		if (sym_is(&s, "__executable_start"))
			lo = s.addr;
		else if (!have_hi && (sym_is(&s, "etext") ||
		    sym_is(&s, "_etext") || sym_is(&s, "__etext"))) {
			hi = s.addr;
			have_hi = 1;
		}
	}
	free(line);
	fclose(f);
	if (have_hi)
		text_fits(g, gmon, map, lo, hi);
}

/*
 * The program given with -m must be the profiled one: for an ELF file,
 * from its first loaded address to the end of its executable sections
 * (one without section headers is not checked); for nm text, from its
 * symbols.
 */
static void
check_program(const struct gmon *g, const char *gmon, const char *prog)
{
	struct elf_peek pk;
	uint64_t lo;

	if (elf_peek(prog, &pk) < 0) {
		check_nm_text(g, gmon, prog);
		return;
	}
	if (!pk.have_exec)
		return;
	lo = pk.have_load && pk.load_lo < pk.exec_lo ? pk.load_lo : pk.exec_lo;
	text_fits(g, gmon, prog, lo, pk.exec_hi);
}

#define WRAP 80
#define PREFIX_LEN 13		/* "readprofile: " */

/*
 * TEXT on stderr in lines of at most WRAP columns (a word longer than a
 * line has one of its own), each "readprofile: ", the second on indented
 * by two spaces; with FATAL, exit 1 after it (as fatalx: the held-back
 * report is dropped).
 */
static void
say_wrapped(const char *text, int fatal_)
{
	size_t len = strlen(text), at = 0;
	int first = 1;

	while (at < len) {
		size_t room = WRAP - PREFIX_LEN - (first ? 0 : 2), n = len - at;
		const char *sp;

		if (n > room) {	/* the last space that leaves a line in room */
			for (n = room; n > 0 && text[at + n] != ' '; n--)
				;
			if (n == 0) {	/* one word longer than the room */
				sp = strchr(text + at, ' ');
				n = sp ? (size_t)(sp - text - at) : len - at;
			}
		}
		if (at + n >= len && fatal_)
			fatalx("%s%.*s", first ? "" : "  ", (int)n, text + at);
		warnx_("%s%.*s", first ? "" : "  ", (int)n, text + at);
		at += n;
		while (at < len && text[at] == ' ')
			at++;
		first = 0;
	}
}

/*
 * Ticks that no function holds are counted on stderr with their likely
 * cause; when no function holds any, it is an error.
 */
static void
tell_unattributed(const struct report_result *res, const char *gmon,
    const char *prog, const struct debugfile *d)
{
	uint64_t all = res->total + res->unknown;
	char head[512], *cause, *text;
	size_t len;

	if (res->unknown == 0)
		return;
	if (res->total == 0)
		snprintf(head, sizeof head, "none of the %llu ticks in %s lies in "
		    "a function of %s:", (unsigned long long)all, gmon, prog);
	else
		snprintf(head, sizeof head, "warning: %llu of the %llu ticks in "
		    "%s lie in no function of %s (*unknown* in the report):",
		    (unsigned long long)res->unknown, (unsigned long long)all,
		    gmon, prog);
	if (d->stripped) {
		cause = debugfile_cause(d, prog);
	} else {
		len = strlen(prog) + 160;
		cause = xmalloc(len);
		snprintf(cause, len, "%s 0x%llx-0x%llx: is %s the profiled "
		    "program, and whole?", res->nsyms ? "they lie before its "
		    "first text symbol in the histogram's range" : "no text "
		    "symbol of it lies in the histogram's range",
		    (unsigned long long)res->origin,
		    (unsigned long long)res->etext, prog);
	}
	len = strlen(head) + strlen(cause) + 2;
	text = xmalloc(len);
	snprintf(text, len, "%s %s", head, cause);
	free(cause);
	say_wrapped(text, res->total == 0);
	free(text);
}

/* One report of a gmon.out against its program. */
struct run {
	const struct options *opt;
	const struct gmon *g;
	const char *name;	/* the gmon.out's */
	struct symsrc *m;
	const struct debugfile *d;
	const struct counters *c;
	const struct report_hist *h;
	struct report_opts *ro;
	struct out *o;
	struct report_result *res;
};

/* The ticks no function holds, and a map with no symbol in the range. */
static void
tell(const struct run *x)
{
	const struct report_result *res = x->res;

	if (res->nsyms == 0 && res->unknown == 0)
		warnx_("warning: no text symbol of %s lies in %s's range "
		    "0x%llx-0x%llx: is it the profiled program?",
		    x->opt->mapfile, x->name, (unsigned long long)x->g->low,
		    (unsigned long long)x->g->high);
	tell_unattributed(res, x->name, x->opt->mapfile, x->d);
}

/*
 * --top, --json, --pprof and --folded: collect the reported functions,
 * then print them; an error about the ticks comes before a file is
 * written.
 */
static void
report_view(const struct run *x)
{
	const struct options *opt = x->opt;
	const struct gmon *g = x->g;
	struct view_inputs vi = { .profile = opt->profile, .map = x->m->name,
	    .baseline = opt->baseline, .byte_order = g->big_endian ?
	    "big-endian" : "little-endian", .gmon_format = g->format == GMON_GNU ?
	    "GNU" : "BSD", .gmon_version = g->version,
	    .pointer_size = g->ptrsize, .top = opt->top };
	struct collect k;
	struct export_src s = { .profile = opt->profile, .map = x->m->name,
	    .baseline = opt->baseline, .rate = g->rate, .rate_from = "gmon.out",
	    .format = g->format == GMON_GNU ? "gmon.out (GNU)" :
	    "gmon.out (BSD)" };
	struct export_stream e = { .o = opt, .out = x->o, .c = x->c,
	    .ro = x->ro, .s = &s };
	struct report_sink sink;
	struct json_stream js;

	if (export_wanted(opt) || (opt->json && !opt->top)) {	/* streamed */
		sink = export_wanted(opt) ? export_sink(&e) :
		    view_json_sink(&js, x->o, x->c, x->ro, &vi);
		report_hist_run(x->m, x->c, x->h, x->ro, &sink, x->res);
		tell(x);	/* before --pprof's file is put in place */
		return;
	}
	collect_init(&k, opt->top ? opt->top : SIZE_MAX);
	x->ro->collect = &k;
	classic_hist_run(x->m, x->c, x->h, x->ro, x->o, x->res);
	tell(x);
	collect_sort(&k);
	if (opt->json)
		view_json(x->o, &k, x->res, x->c, x->ro, &vi);
	else
		view_top(x->o, &k, x->res, x->c, x->ro, NULL);
	collect_free(&k);
}

/* The symbols of -m, the histogram H, the report and what is told. */
static void
report(const struct options *opt, const struct gmon *g, const char *name,
    struct report_hist *h, struct out *o)
{
	struct report_opts ro = { .verbose = opt->verbose, .all = opt->all,
	    .bins = opt->bins, .counters = opt->counters, .mode = ATTRIB_HIST,
	    .rename = opt->no_demangle ? NULL : demangle_or_same };
	struct report_result res;
	struct counters c = gmon_counters(g);
	struct debugfile d;
	struct symsrc m;
	struct run x = { opt, g, name, &m, &d, &c, h, &ro, o, &res };

	debugfile_resolve(&d, opt->mapfile);
	if (symsrc_open(&m, d.use) < 0)
		fatal("%s", m.name);
	m.map.skip_undefined = 1;	/* plain `nm -n PROGRAM` output */
	if (opt->top || opt->json || export_wanted(opt)) {
		report_view(&x);
	} else {
		classic_hist_run(&m, &c, h, &ro, o, &res);
		tell(&x);
	}
	symsrc_close(&m);
	debugfile_free(&d);
}

void
gmonrun_run(const struct options *opt, struct profile *p, struct out *o)
{
	struct gmon g;
	struct report_hist h;
	struct gmon_walk calls = { &g, 0 };
	struct baseline base;

	load(&g, p);
	if (opt->info) {	/* the file's shape: no baseline (a warning says so) */
		print_step(o, &g);
		if (opt->verbose)
			print_info_verbose(o, &g);
		gmon_free(&g);
		return;
	}
	if (opt->baseline)
		subtract_baseline(&g, opt, &base);
	if (opt->mapfile == NULL)
		fatalx("%s is a gmon.out: name the program with -m (the "
		    "program itself, or its nm -n output)", p->name);
	check_program(&g, p->name, opt->mapfile);
	h.low = g.low;
	h.high = g.high;
	h.nbins = g.nbins;
	h.ranges = g.ranges;
	h.nranges = g.nranges;
	h.rate = g.rate;
	/* call counts when there are arcs; a difference has none */
	h.calls = g.narcs && !opt->baseline ? gmon_calls : NULL;
	if (h.calls)
		gmon_index_arcs(&g, p->data);	/* no longer a gmon.out */
	h.calls_ctx = &calls;
	report(opt, &g, p->name, &h, o);
	gmon_free(&g);
	if (opt->baseline) {
		gmon_free(&base.g);
		profile_close(&base.p);
	}
}
