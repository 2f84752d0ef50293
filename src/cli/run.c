/*
 * run.c - one report of a kernel profile, from the options.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/run.h"
#include "core/collect.h"
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

/* A second reader of the profile's counters, for a second thread. */
static struct counters
par_reader(void *ctx, void **state)
{
	struct pcursor *pc = xmalloc(sizeof *pc);

	memset(pc, 0, sizeof *pc);
	*state = pc;
	return profile_counters_cursor(ctx, pc);
}

static void
par_reader_done(void *state)
{
	pcursor_free(state);
	free(state);
}

void
run_report(const struct options *o, struct symsrc *m, const struct counters *c,
    uint32_t step, struct view_inputs *vi, struct report_result *res,
    struct profile *prof, struct out *out)
{
	struct report_opts ro = { .verbose = o->verbose, .all = o->all,
	    .bins = o->bins, .counters = o->counters,
	    .mode = o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC,
	    .default_map = o->mapfile == NULL };
	struct report_par par = { par_reader, par_reader_done, prof };
	struct collect k;

	if (prof != NULL && profile_shareable(prof))
		ro.par = &par;

	if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	report_run(m, c, step, &ro, out, res);
	if (ro.collect == NULL)
		return;
	collect_sort(&k);
	vi->map = m->name;
	vi->step = step;
	vi->counters = c->n - 1;
	vi->top = o->top;
	if (o->json)
		view_json(out, &k, res, c, &ro, vi);
	else
		view_top(out, &k, res, c, &ro);
	collect_free(&k);
}
