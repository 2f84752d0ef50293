/* fit.c - the map's text against the profile's number of counters. */
#include <stdio.h>

#include "core/fit.h"
#include "base/util.h"

enum fit
fit_check(const struct step_text *t, uint32_t step, uint64_t *map_counters)
{
	*map_counters = 0;
	if (!t->have_etext || step == 0 || t->etext < t->stext)
		return FIT_UNKNOWN;
	*map_counters = (t->etext - t->stext) / step;
	return *map_counters == t->counters ? FIT_MATCH : FIT_MISMATCH;
}

void
fit_describe(struct out *out, const struct step_text *t, uint32_t step)
{
	uint64_t mc;

	if (!t->have_etext)
		out_printf(out, "Map: %s has no _etext\n", t->map);
	else if (fit_check(t, step, &mc) == FIT_MATCH)
		out_printf(out, "Map: %s matches\n", t->map);
	else
		out_printf(out, "Map: %s does not match (_etext - _stext is "
		    "%llu bytes, %llu counters; profile has %llu)\n", t->map,
		    (unsigned long long)(t->etext - t->stext),
		    (unsigned long long)mc, (unsigned long long)t->counters);
}

void
fit_short(char *buf, size_t n, const struct step_text *t, uint32_t step)
{
	snprintf(buf, n, "the profile is shorter than the map's text: "
	    "its %llu counters at step %u cover %llu bytes, but _etext - "
	    "_stext in %s is %llu bytes (a cut copy of the profile, or the map "
	    "of another kernel)", (unsigned long long)t->counters, step,
	    (unsigned long long)(t->counters * step), t->map,
	    (unsigned long long)(t->etext - t->stext));
}

void
fit_warn(const struct step_text *t, const char *profile, uint32_t step)
{
	uint64_t mc;

	if (fit_check(t, step, &mc) != FIT_MISMATCH)
		return;
	if (t->counters < mc) {	/* the profile is short: named first */
		warnx_("warning: %s is shorter than the text of %s, which it "
		    "does not match: its %llu counters at step %u cover %llu "
		    "bytes, but _etext - _stext is %llu bytes (%llu counters): "
		    "a cut copy of the profile, or else pass the map of the "
		    "kernel that wrote the profile with -m", profile, t->map,
		    (unsigned long long)t->counters, step,
		    (unsigned long long)(t->counters * step),
		    (unsigned long long)(t->etext - t->stext),
		    (unsigned long long)mc);
		return;
	}
	warnx_("warning: %s does not match %s: _etext - _stext is %llu bytes, "
	    "%llu counters at step %u, but the profile has %llu counters; "
	    "pass the map of the kernel that wrote the profile with -m",
	    t->map, profile, (unsigned long long)(t->etext - t->stext),
	    (unsigned long long)mc, step, (unsigned long long)t->counters);
}
