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
#include "views/view.h"
#include "core/collect.h"
#include "views/classic.h"
#include "hist/profile.h"
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

void
run_read_notes(const struct run *r, struct profile *p)
{
	if (r->swapped)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	profile_warn_step(p);
	profile_warn_trailing(p);
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
	struct step_text t;

	report_text_bounds(m, res);
	t.map = m->name;
	t.stext = res->origin;
	t.etext = res->etext;
	t.have_etext = res->have_etext;
	t.counters = counters;
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

/* --pprof, --folded: a kernel profile's report, streamed into its sink. */
static void
kernel_export(const struct run *r, struct symsrc *m, const struct counters *c,
    const struct report_opts *ro, struct report_result *res)
{
	struct export_src s = { .profile = r->profile, .map = r->map,
	    .baseline = r->o->baseline, .kernel = 1, .step = r->step,
	    .format = "kernel", .live = r->live ? &r->k.id : NULL };
	struct export_stream x = { .o = r->o, .out = r->out, .c = c, .ro = ro,
	    .s = &s };
	struct report_sink k;

	if (r->o->hz) {
		s.rate = (uint32_t)r->o->hz;
		s.rate_from = "--hz";
	} else if (s.live) {	/* CONFIG_HZ of the running kernel's config */
		s.rate = (uint32_t)kernel_config_hz(&r->k);
		s.rate_from = r->k.config;
	}
	k = export_sink(&x);
	report_run(m, c, r->step, ro, &k, res);
}

void
run_inputs(const struct run *r, const struct counters *c,
    struct view_inputs *vi)
{
	memset(vi, 0, sizeof *vi);
	vi->profile = r->profile;
	vi->map = r->map;
	vi->baseline = r->o->baseline;
	vi->step = r->step;
	vi->counters = c->n - 1;
	vi->byte_order = run_byte_order(r->swapped);
	vi->top = r->o->top;
	vi->gmon = r->gmon;
	if (r->gmon)
		vi->byte_order = r->gmon->big_endian ? "big-endian" :
		    "little-endian";
	vi->counting = r->counting;
	vi->read = r->read;
}

void
run_report(const struct run *r, struct symsrc *m, const struct counters *c,
    struct report_result *res)
{
	const struct options *o = r->o;
	struct report_opts ro = { .verbose = o->verbose, .all = o->all,
	    .bins = o->bins, .counters = o->counters,
	    .mode = o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC,
	    .default_map = o->mapfile == NULL, .last_is_text = o->exact &&
	    kroot_last_counter_is_text(&r->k, r->live) == 1 };
	struct collect k;
	struct view_inputs vi;
	struct report_sink s;
	struct json_stream js;

	if (export_wanted(o)) {
		kernel_export(r, m, c, &ro, res);
		return;
	}
	run_inputs(r, c, &vi);
	if (o->json && !o->top) {	/* streamed */
		s = view_json_sink(&js, r->out, c, &ro, &vi);
		report_run(m, c, r->step, &ro, &s, res);
		return;
	}
	if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	classic_run(m, c, r->step, &ro, r->out, res);
	if (ro.collect == NULL)
		return;
	collect_sort(&k);
	if (o->json)
		view_json(r->out, &k, res, c, &ro, &vi);
	else
		view_top(r->out, &k, res, c, &ro, r->counting);
	collect_free(&k);
}

void
run_init(struct run *r, const struct options *o, struct out *out)
{
	memset(r, 0, sizeof *r);
	r->o = o;
	r->out = out;
	kroot_files(&r->k);
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
