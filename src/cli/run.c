/*
 * run.c - one report of a kernel profile, from the options.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/export.h"
#include "cli/kernel.h"
#include "cli/profiling.h"
#include "cli/run.h"
#include "sym/demangle.h"
#include "core/collect.h"
#include "views/classic.h"
#include "hist/step.h"

void
run_finish(struct out *out, struct outfile *pprof)
{
	if (out_finish(out) < 0) {
		if (errno == EPIPE)
			exit(0);	/* the reader left: nothing to say */
		fatal("write error");
	}
	if (pprof != NULL && pprof->f != NULL)
		outfile_commit(pprof);
}

void
run_open_map(struct symsrc *m, const char *name)
{
	if (symsrc_open(m, name) < 0)
		fatal("%s", name);
}

const char *
run_byte_order(int swapped)
{
	static const uint32_t one = 1;

	return (*(const unsigned char *)&one == 1) != (swapped != 0) ?
	    "little-endian" : "big-endian";
}

uint32_t
run_step_from_map(struct symsrc *m, uint64_t counters,
    struct report_result *res, int quiet)
{
	char why[512];
	uint32_t step;
	enum step_found r;
	struct step_text t;

	symsrc_hold(m);
	report_text_bounds(m, res);
	symsrc_rewind(m);
	t = (struct step_text){ m->name, res->origin, res->etext,
	    res->have_etext, counters };
	r = step_infer(&t, &step);
	if (r == STEP_FOUND)
		warnx_("the profile's step word is 0, as 64-bit big-endian "
		    "kernels write it; using step %u from %s", step, m->name);
	else if (!quiet) {
		step_why(why, sizeof why, r, &t);
		fatalx("%s", why);
	}
	return step;
}

/* --pprof, --folded: what the profile was made from. */
static void
export_src_of(const struct run *r, struct export_src *s)
{
	const struct gmon *g = r->gmon;

	*s = (struct export_src){ .profile = r->profile, .map = r->map,
	    .baseline = r->o->baseline, .kernel = g == NULL, .step = r->step,
	    .live = r->live && !g ? &r->k.id : NULL, .arcs = r->arcs,
	    .format = !g ? "kernel" :
	    g->format == GMON_GNU ? "gmon.out (GNU)" : "gmon.out (BSD)" };
	if (g != NULL) {	/* its rate its own */
		s->rate = g->rate;
		s->rate_from = "gmon.out";
	} else if (r->o->hz) {
		s->rate = (uint32_t)r->o->hz;
		s->rate_from = "--hz";
	} else if (s->live) {	/* CONFIG_HZ of the running kernel's config */
		s->rate = (uint32_t)kernel_config_hz(&r->k);
		s->rate_from = r->k.config;
	}
}

void
run_report(const struct run *r, struct symsrc *m, const struct counters *c,
    struct report_result *res)
{
	const struct options *o = r->o;
	struct demangler dm = { 0 };
	struct report_opts ro = { .verbose = o->verbose, .all = o->all,
	    .bins = o->bins, .counters = o->counters, .step = r->step,
	    .hist = r->hist, .default_map = o->mapfile == NULL,
	    .mode = r->hist ? ATTRIB_HIST :
	    o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC,
	    /* a program's names demangled; a kernel's as they are */
	    .rename = r->hist && !o->no_demangle ? demangle_or_same : NULL,
	    .rename_ctx = &dm,
	    .last_is_text = o->exact &&
	    kroot_last_counter_is_text(&r->k, r->live) == 1 };
	struct export_src s;
	struct export_stream x = { .o = o, .out = r->out, .file = r->pprof,
	    .c = c, .ro = &ro, .s = &s };
	/* what --json says of R's inputs: from R alone */
	struct view_inputs vi = { .profile = r->profile, .map = r->map,
	    .baseline = o->baseline, .step = r->step, .counters = c->n - 1,
	    .byte_order = !r->gmon ? run_byte_order(r->swapped) :
	    r->gmon->big_endian ? "big-endian" : "little-endian",
	    .gmon = r->gmon, .top = o->top, .read = r->read,
	    .counting = r->counting };
	struct collect k;
	struct report_sink sink = { 0 };	/* none: the classic one */
	struct json_stream js;

	if (o->pprof != NULL || o->folded) {
		export_src_of(r, &s);
		sink = export_sink(&x);
	} else if (o->json && !o->top) {	/* streamed */
		sink = view_json_sink(&js, r->out, c, &ro, &vi);
	} else if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	if (sink.func != NULL)
		report_run(m, c, &ro, &sink, res);
	else
		classic_run(m, c, &ro, r->out, res);
	if (r->walked)
		r->walked(r, res);
	if (ro.collect != NULL) {
		collect_sort(&k);
		if (o->json)
			view_json(r->out, res, c, &ro, &vi);
		else	/* what a gmon.out counts is not the kernel's */
			view_top(r->out, res, c, &ro, r->hist ? NULL :
			    r->counting);
		collect_free(&k);
	}
	demangler_free(&dm);
}

void
run_init(struct run *r, const struct options *o, struct out *out,
    struct outfile *pprof, const struct rights *rt)
{
	*r = (struct run){ .o = o, .out = out, .pprof = pprof };
	kroot_files(&r->k, rt);
	/* the one place that tells the live profile from a snapshot */
	r->profile = strcmp(o->profile, "/proc/profile") == 0 ? r->k.profile :
	    o->profile;
	r->live = strcmp(r->profile, r->k.profile) == 0;
	r->counting = r->live ? profiling_counting(&r->k) : NULL;
}

const char *
run_map(const struct run *r)
{
	return r->o->mapfile ? r->o->mapfile : kernel_default_map(&r->k,
	    r->profile, r->live, 0);
}
