/*
 * export.c - --pprof and --folded: their inputs, comments and file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/outfile.h"
#include "base/util.h"
#include "cli/export.h"
#include "cli/kernel.h"
#include "cli/kroot.h"
#include "hist/profile.h"
#include "sym/elfsym.h"

/* The command line of O as one string, words with other than
 * [-+=.,/:@%_A-Za-z0-9] in single quotes (malloc'd). */
static char *
command_line(const struct options *o)
{
	static const char plain[] = "-+=.,/:@%_abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *s = NULL;
	size_t n;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL)
		fatalx("out of memory");
	for (int i = 0; i < o->argc; i++) {
		const char *a = o->argv[i];
		const char *q = a[0] == '\0' || a[strspn(a, plain)] != '\0' ?
		    "'" : "";

		fprintf(f, "%s%s", i ? " " : "", q);
		for (; *a; a++)
			if (*a == '\'')	/* ' -> '\'' */
				fputs("'\\''", f);
			else
				putc(*a, f);
		fputs(q, f);
	}
	if (fclose(f) != 0)
		fatalx("out of memory");
	return s;
}

void
export_prepare(const struct options *o, struct outfile *f)
{
	if (o->pprof)
		outfile_open(f, o->pprof);
}

/* The report's stream on standard output as a stream's writer, for
 * --pprof - (or /dev/stdout, /dev/fd/1): a profile cut short by an error
 * is said to be incomplete, as a report is. */
static ssize_t
to_out(void *cookie, const char *p, size_t n)
{
	out_str(cookie, p, n);
	return (ssize_t)n;
}

/* The running kernel's build-id when R's profile is its live one; or NULL. */
static const struct build_id *
live_id(const struct run *r)
{
	return r->live && r->gmon == NULL ? &r->k->id : NULL;
}

/* IN's Mapping: the text's range and an ELF map's build-id (and for a
 * program, the text's file offset); else for the live profile the running
 * kernel's build-id, and then 1 is returned. */
static int
mapping_of(const struct export_stream *x, const struct report_result *res,
    struct pprof_meta *in)
{
	const struct run *r = x->r;
	struct elf_peek pk;

	in->start = res->origin;
	in->limit = res->have_etext || r->gmon != NULL ? res->etext :
	    res->origin + (x->c->n - 1) * (uint64_t)r->step;
	if (elf_peek(r->map, &pk) == 0) {
		in->build_id = pk.bid;
		/* a program: where its text lies in the file, so that pprof
		 * finds it (a kernel image: at 0, pprof's rule for kernels) */
		if (r->gmon != NULL)
			elf_peek_offset(&pk, in->start, &in->file_offset);
	}
	if (in->build_id.n > 0 || live_id(r) == NULL)
		return 0;
	in->build_id = *live_id(r);
	return in->build_id.n > 0;
}

/* The comments of the finished report (malloc'd into COM). */
static size_t
comments_of(const struct export_stream *x, int from_kernel, char **com)
{
	const struct run *r = x->r;
	const struct options *o = r->o;
	const struct gmon *g = r->gmon;
	const struct counted *counted = g == NULL ? r->counting : NULL;
	const struct report_result *res = x->res;
	char hex[BUILD_ID_HEX];
	char *cmd = command_line(o);
	char **c = com;

	*c++ = xasprintf("readprofile %s", RP_VERSION);
	*c++ = xasprintf("command: %s", cmd);
	free(cmd);
	*c++ = xasprintf("profile: %s%s", r->profile, live_id(r) ?
	    " (the running kernel's)" : "");
	*c++ = xasprintf("map: %s", r->map);
	if (x->in.build_id.n > 0)
		*c++ = xasprintf("build-id: %s (%s)", build_id_hex(
		    &x->in.build_id, hex), from_kernel ? "the running kernel's, "
		    SYS_NOTES : "the map's");
	if (o->baseline)
		*c++ = xasprintf("baseline: %s (subtracted)", o->baseline);
	if (g == NULL)
		*c++ = xasprintf("format: kernel, step %u, %s attribution",
		    r->step, run_mode(r) == ATTRIB_EXACT ? "exact" : "classic");
	else
		*c++ = xasprintf("format: %s", g->format == GMON_GNU ?
		    "gmon.out (GNU)" : "gmon.out (BSD)");
	if (counted != NULL)
		*c++ = xasprintf("counting: %s", counted->what);
	if (x->in.rate)
		*c++ = xasprintf("tick rate: %u Hz (%s)", x->in.rate,
		    x->rate_from);
	else if (counted != NULL && !counted->ticks)
		*c++ = xasprintf("tick rate: none (the counters count %s, not "
		    "time)", counted->what);
	else
		*c++ = xasprintf("tick rate: unknown (give it with --hz)");
	if (o->counters || o->bins)
		*c++ = xasprintf("locations: one per non-zero %s",
		    o->bins ? "histogram bin (-b)" : "counter (-s)");
	*c++ = xasprintf("unknown: %llu ticks in no function (the samples "
	    "of *unknown* and [no symbol])", (unsigned long long)
	    (report_unknown(res) + res->nosym));
	return (size_t)(c - com);
}

static void
pprof_sink_begin(void *ctx, const struct report_result *res)
{
	static const cookie_io_functions_t io = { .write = to_out };
	struct export_stream *x = ctx;
	const struct run *r = x->r;
	struct stat sb;
	struct timespec t;

	/* the snapshot's time: the file's mtime; now for the live profile */
	if (live_id(r) == NULL && strcmp(r->profile, "-") != 0 &&
	    stat(r->profile, &sb) == 0)
		t = sb.st_mtim;
	else
		clock_gettime(CLOCK_REALTIME, &t);
	x->res = res;
	x->in.time_nanos = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
	x->f = r->pprof->f != NULL ? r->pprof->f : fopencookie(r->out, "w", io);
	if (x->f == NULL)
		fatal("%s", r->o->pprof);
	setvbuf(x->f, NULL, _IONBF, 0);	/* the encoder's blocks are the buffer */
	pprof_begin(&x->e, x->f, r, &x->in);
}

static void
pprof_sink_func(void *ctx, const struct func_rec *f)
{
	struct export_stream *x = ctx;

	if (report_shown(x->r->o, f))
		pprof_func(&x->e, f, x->c, &x->res->a);
	pprof_calls(&x->e, f);	/* any function's, listed or not */
}

/* Whether F's name may be asked: a function listed with ticks, or one
 * the call arcs' walk may name (asked ahead, then dropped if not). */
static int
pprof_sink_named(void *ctx, const struct func_rec *f)
{
	const struct export_stream *x = ctx;

	return (f->ticks && report_shown(x->r->o, f)) ||
	    (x->r->arcs != NULL && f->len > 0);
}

/* The Mapping, the ticks of no function and the comments, known now. */
static void
pprof_sink_end(void *ctx, const struct report_result *res)
{
	struct export_stream *x = ctx;
	char *com[12];		/* as many as comments_of may make */
	/* the comments say where the Mapping's build-id comes from */
	size_t ncom = comments_of(x, mapping_of(x, res, &x->in), com);

	x->in.comments = (const char *const *)com;
	x->in.ncomments = ncom;
	pprof_calls_end(&x->e);	/* its *unknown* is the ticks' */
	/* as in --top: a share of all ticks counted */
	pprof_unplaced(&x->e, "*unknown*", report_unknown(res));
	pprof_unplaced(&x->e, "[no symbol]", res->nosym);
	if (pprof_end(&x->e) < 0)
		fatal("%s: write error", x->r->o->pprof);
	if (x->f != x->r->pprof->f && fclose(x->f) != 0)
		fatal("%s: write error", x->r->o->pprof);
	while (ncom)
		free(com[--ncom]);
}

/* X's tick rate, and where it comes from; what a kernel's counters
 * count names the sample type. */
static void
rate_of(struct export_stream *x)
{
	const struct run *r = x->r;
	const struct counted *counted = r->gmon ? NULL : r->counting;

	x->in.type = counted ? counted->type : NULL;
	x->in.unit = counted ? counted->unit : NULL;
	if (r->gmon != NULL) {	/* its rate its own */
		x->in.rate = r->gmon->rate;
		x->rate_from = "gmon.out";
	} else if (counted != NULL && !counted->ticks) {
		return;	/* schedule() calls, KVM exits: counts, not time */
	} else if (r->o->hz) {
		x->in.rate = (uint32_t)r->o->hz;
		x->rate_from = "--hz";
	} else if (live_id(r)) {	/* CONFIG_HZ of the running kernel's */
		x->in.rate = (uint32_t)kernel_config_hz(r->k, &x->rate_from);
	}
}

struct report_sink
export_sink(struct export_stream *x)
{
	rate_of(x);
	if (x->r->o->pprof == NULL)
		return view_folded_sink(&x->fs, x->r);
	return (struct report_sink){ pprof_sink_begin, pprof_sink_func,
	    pprof_sink_end, x, pprof_sink_named };
}
