/* fit.c - the map's text against the profile's number of counters. */
#include <stdio.h>

#include "core/fit.h"
#include "base/util.h"

enum fit
fit_check(uint64_t stext, uint64_t etext, int have_etext, uint32_t step,
    uint64_t counters, uint64_t *map_counters)
{
	*map_counters = 0;
	if (!have_etext || step == 0 || etext < stext)
		return FIT_UNKNOWN;
	*map_counters = (etext - stext) / step;
	return *map_counters == counters ? FIT_MATCH : FIT_MISMATCH;
}

void
fit_describe(struct out *out, const char *map, uint64_t stext,
    uint64_t etext, int have_etext, uint32_t step, uint64_t counters)
{
	uint64_t mc;

	if (!have_etext)
		out_printf(out, "Map: %s has no _etext\n", map);
	else if (fit_check(stext, etext, have_etext, step, counters, &mc) ==
	    FIT_MATCH)
		out_printf(out, "Map: %s matches\n", map);
	else
		out_printf(out, "Map: %s does not match (_etext - _stext is "
		    "%llu bytes, %llu counters; profile has %llu)\n", map,
		    (unsigned long long)(etext - stext),
		    (unsigned long long)mc, (unsigned long long)counters);
}

void
fit_short(char *buf, size_t n, const char *map, uint64_t text, uint32_t step,
    uint64_t counters)
{
	snprintf(buf, n, "the profile is shorter than the map's text: "
	    "its %llu counters at step %u cover %llu bytes, but _etext - "
	    "_stext in %s is %llu bytes (a cut copy of the profile, or the map "
	    "of another kernel)", (unsigned long long)counters, step,
	    (unsigned long long)(counters * step), map,
	    (unsigned long long)text);
}

void
fit_warn(const char *map, const char *profile, uint64_t stext,
    uint64_t etext, int have_etext, uint32_t step, uint64_t counters)
{
	uint64_t mc;

	if (fit_check(stext, etext, have_etext, step, counters, &mc) !=
	    FIT_MISMATCH)
		return;
	if (counters < mc) {	/* the profile is short: named first */
		warnx_("warning: %s is shorter than the text of %s, which it "
		    "does not match: its %llu counters at step %u cover %llu "
		    "bytes, but _etext - _stext is %llu bytes (%llu counters): "
		    "a cut copy of the profile, or else pass the map of the "
		    "kernel that wrote the profile with -m", profile, map,
		    (unsigned long long)counters, step,
		    (unsigned long long)(counters * step),
		    (unsigned long long)(etext - stext),
		    (unsigned long long)mc);
		return;
	}
	warnx_("warning: %s does not match %s: _etext - _stext is %llu bytes, "
	    "%llu counters at step %u, but the profile has %llu counters; "
	    "pass the map of the kernel that wrote the profile with -m",
	    map, profile, (unsigned long long)(etext - stext),
	    (unsigned long long)mc, step, (unsigned long long)counters);
}
