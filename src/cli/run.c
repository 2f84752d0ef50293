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
#include "core/batch.h"
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
	if (pprof != NULL && pprof->name != NULL)
		outfile_commit(pprof);
}

void
run_open_map(struct symsrc *m, const char *name)
{
	if (symsrc_open(m, name) < 0)
		fatal("%s", name);
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

void
run_report(struct run *r, struct symsrc *m, const struct counters *c,
    struct report_result *res)
{
	const struct options *o = r->o;
	struct demangler dm = { 0 };
	struct export_stream x = { .r = r, .c = c };
	struct collect k;
	struct report_sink sink = { 0 };	/* none: the classic one */
	struct json_stream js;

	r->last_is_text = o->exact &&
	    kroot_last_counter_is_text(r->k, r->live) == 1;
	/* a program's names demangled; a kernel's as they are */
	r->rename = r->hist && !o->no_demangle ? demangle_or_same : NULL;
	r->rename_ctx = &dm;
	r->ahead = r->rename ? demangle_ahead : NULL;
	if (o->pprof != NULL || o->folded)
		sink = export_sink(&x);
	else if (o->json && !o->top)	/* streamed */
		sink = view_json_sink(&js, r, c);
	else if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		r->collect = &k;
	}
	if (sink.func != NULL)
		batch_report(m, c, r, &sink, res);
	else
		classic_run(m, c, r, res);
	if (r->walked)
		r->walked(r, res);
	if (r->collect != NULL) {
		collect_sort(&k);
		if (o->json)
			view_json(r, res, c);
		else
			view_top(r, res, c);
		collect_free(&k);
	}
	/* nothing of this report's frame outlives it */
	r->collect = NULL;
	r->rename = NULL;
	r->rename_ctx = NULL;
	r->ahead = NULL;
	demangler_free(&dm);
}

void
run_init(struct run *r, const struct options *o, const struct kfiles *k,
    struct out *out, struct outfile *pprof)
{
	*r = (struct run){ .o = o, .out = out, .pprof = pprof, .k = k };
	/* the one place that tells the live profile from a snapshot */
	r->profile = strcmp(o->profile, "/proc/profile") == 0 ? k->profile :
	    o->profile;
	r->live = strcmp(r->profile, k->profile) == 0;
	r->counting = r->live ? profiling_counting(k) : NULL;
}

const char *
run_map(const struct run *r)
{
	return r->o->mapfile ? r->o->mapfile : kernel_default_map(r->k,
	    r->profile, r->live, 0);
}
