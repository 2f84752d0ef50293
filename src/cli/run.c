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
#include "cli/run.h"
#include "core/collect.h"
#include "views/classic.h"
#include "hist/step.h"

void
run_finish(struct out *out)
{
	if (out_finish(out) == 0)
		return;
	if (errno == EPIPE)
		exit(0);	/* the reader went away: nothing to say */
	fatal("write error");
}

const char *
run_byte_order(int swapped)
{
	static const uint32_t one = 1;
	int little = *(const unsigned char *)&one == 1;

	if (swapped)
		little = !little;
	return little ? "little-endian" : "big-endian";
}

uint32_t
run_step_from_map(struct symsrc *m, uint64_t counters,
    struct report_result *res, int quiet)
{
	char why[512];
	uint32_t step;
	enum step_found r;

	report_text_bounds(m, res);
	r = step_infer(res->origin, res->etext, res->have_etext, counters,
	    &step);
	if (r == STEP_FOUND)
		warnx_("the profile's step word is 0, as 64-bit big-endian "
		    "kernels write it; using step %u from %s", step, m->name);
	else if (!quiet) {
		step_why(why, sizeof why, r, m->name, res->origin, res->etext,
		    counters);
		fatalx("%s", why);
	}
	return step;
}

/* --pprof, --folded: a kernel profile's functions K. */
static void
kernel_export(const struct options *o, const struct symsrc *m,
    const struct counters *c, uint32_t step, const struct view_inputs *vi,
    const struct report_result *res, const struct report_opts *ro,
    const struct collect *k, struct out *out)
{
	struct export_src s = { .profile = vi->profile, .map = m->name,
	    .baseline = vi->baseline, .kernel = 1, .step = step,
	    .format = "kernel" };

	s.live = strcmp(vi->profile, kroot_path(PROC_PROFILE)) == 0;
	if (o->hz) {
		s.rate = (uint32_t)o->hz;
		s.rate_from = "--hz";
	} else if (s.live)	/* CONFIG_HZ of the running kernel's config */
		s.rate = (uint32_t)kernel_config_hz(&s.rate_from);
	export_run(o, out, k, res, c, ro, &s);
}

void
run_report(const struct options *o, struct symsrc *m, const struct counters *c,
    uint32_t step, struct view_inputs *vi, struct report_result *res,
    struct out *out)
{
	struct report_opts ro = { .verbose = o->verbose, .all = o->all,
	    .bins = o->bins, .counters = o->counters,
	    .mode = o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC,
	    .default_map = o->mapfile == NULL, .last_is_text = o->exact &&
	    kroot_last_counter_is_text(o->profile) == 1 };
	struct collect k;
	struct report_sink s;
	struct json_stream js;
	struct folded_stream fs;

	vi->map = m->name;
	vi->step = step;
	vi->counters = c->n - 1;
	vi->top = o->top;
	if ((o->json && !o->top) || (o->folded && !o->pprof)) {	/* streamed */
		s = o->folded ? view_folded_sink(&fs, out, &ro) :
		    view_json_sink(&js, out, c, &ro, vi);
		report_run(m, c, step, &ro, &s, res);
		return;
	}
	if (o->top || o->json || export_wanted(o)) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	classic_run(m, c, step, &ro, out, res);
	if (ro.collect == NULL)
		return;
	collect_sort(&k);
	if (export_wanted(o)) {
		kernel_export(o, m, c, step, vi, res, &ro, &k, out);
		collect_free(&k);
		return;
	}
	if (o->json)
		view_json(out, &k, res, c, &ro, vi);
	else
		view_top(out, &k, res, c, &ro, vi->counting);
	collect_free(&k);
}
