/*
 * info.c - -i and -i -v for a kernel profile.
 */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "cli/buildid.h"
#include "cli/info.h"
#include "cli/kernel.h"
#include "cli/profiling.h"
#include "cli/run.h"
#include "core/fit.h"

/* -i -v: what the profile holds, and whether the map RES fits it. */
static void
print_info_verbose(const struct run *r, const struct profile *p,
    uint32_t step, const char *mapname, const struct report_result *res)
{
	struct out *out = r->out;
	int swapped = r->swapped, noauto = r->o->noauto;
	char line[512];
	uint64_t counters = p->nwords - 1;
	int n;

	n = snprintf(line, sizeof line, "Counters: %llu\nText_bytes: %llu\n"
	    "Byte_order: %s (%s)\n", (unsigned long long)counters,
	    (unsigned long long)(counters * step), run_byte_order(swapped),
	    noauto ? "native, -n" : swapped ? "reversed" : "native");
	out_str(out, line, (size_t)n);
	if (res == NULL)
		return;
	out_str(out, line, fit_describe(line, sizeof line, mapname,
	    res->origin, res->etext, res->have_etext, step, counters));
}

/*
 * The map is read for -v, and to infer a zero step: the one given with
 * -m or, for the running kernel's own /proc/profile, the default map (a
 * snapshot may come from another kernel than the running one).
 */
void
info_print(const struct run *r, const struct profile *p)
{
	const struct options *o = r->o;
	struct out *out = r->out;
	int live = r->source == RUN_LIVE;
	char line[512];
	const char *mapname = o->mapfile;
	struct symsrc m;
	struct report_result res;
	struct build_id bid = { 0 };
	uint32_t step = p->step;
	int n, have_map = 0;

	if (step == 0 && mapname == NULL && live)
		mapname = kernel_default_map_quiet(&r->k);
	if (mapname != NULL && (step == 0 || o->verbose)) {
		if (symsrc_open(&m, mapname) < 0)
			fatal("%s", mapname);
		if (step == 0)
			step = run_step_from_map(&m, p->nwords - 1, &res,
			    o->mapfile == NULL);
		else
			report_text_bounds(&m, &res);
		bid = *symsrc_build_id(&m);
		symsrc_close(&m);
		have_map = step != 0;
	}
	if (step == 0)
		warnx_("this kernel does not report its sampling step: the "
		    "profile's step word is 0, as 64-bit big-endian kernels "
		    "write it; to infer the step from the kernel's map, run "
		    "readprofile -i -m MAP");
	n = snprintf(line, sizeof line, "Sampling_step: %u%s%s%s\n", step,
	    o->verbose && step != p->step ? " (inferred from " : "",
	    o->verbose && step != p->step ? mapname : "",
	    o->verbose && step != p->step ? ")" : "");
	out_str(out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n :
	    sizeof line - 1);
	if (o->verbose) {
		print_info_verbose(r, p, step, mapname, have_map ? &res :
		    NULL);
		profiling_info(out, live);
		buildid_info(out, live, have_map ? &bid : NULL);
	}
}
