/* step.c - the step of a zero step word, from the map's text. */
#include <stdio.h>

#include "hist/step.h"

enum step_found
step_infer(const struct step_text *t, uint32_t *step)
{
	uint64_t size;

	*step = 0;
	if (!t->have_etext)
		return STEP_NO_ETEXT;
	if (t->etext < t->stext || t->counters == 0)
		return STEP_NO_FIT;
	size = t->etext - t->stext;
	for (int k = 0; k <= 31; k++)
		if (size >> k == t->counters) {
			*step = (uint32_t)1 << k;
			return STEP_FOUND;
		}
	return STEP_NO_FIT;
}

void
step_why(char *buf, size_t n, enum step_found r, const struct step_text *t)
{
	if (r == STEP_NO_ETEXT)
		snprintf(buf, n, "the profile's step word is 0 and %s has "
		    "no _etext: the sampling step is unknown (give the map of "
		    "the profiled kernel with -m)", t->map);
	else if (t->etext < t->stext)
		snprintf(buf, n, "the profile's step word is 0 and %s has "
		    "_etext below _stext: the sampling step is unknown",
		    t->map);
	else
		snprintf(buf, n, "the profile's step word is 0 and no "
		    "power of two fits %s: _etext - _stext is %llu bytes, but "
		    "the profile has %llu counters; the sampling step is "
		    "unknown (wrong map file?)", t->map,
		    (unsigned long long)(t->etext - t->stext),
		    (unsigned long long)t->counters);
}
