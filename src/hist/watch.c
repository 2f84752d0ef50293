/* watch.c - the difference between successive reads of a profile. */
#include <stdlib.h>
#include <string.h>

#include "hist/watch.h"

void
watch_start(struct watch *w, uint32_t *first, uint64_t nwords)
{
	*w = (struct watch){ nwords, first, NULL };
}

/* The difference is made in the last read's array, which CUR then
 * replaces: two arrays are held, never three. */
int
watch_update(struct watch *w, uint32_t *cur)
{
	uint32_t *d = w->prev;
	int down = 0;

	watch_forget(w);
	for (uint64_t k = 1; k < w->nwords; k++) {
		down |= cur[k] < d[k];
		d[k] = cur[k] - d[k];
	}
	if (down)	/* reset: the ticks since, the new values */
		memcpy(d, cur, (size_t)w->nwords * sizeof *d);
	d[0] = cur[0];
	w->diff = d;
	w->prev = cur;
	return down;
}

struct counters
watch_counters(const struct watch *w)
{
	return counters_array(w->diff, w->nwords, NULL);
}

void
watch_forget(struct watch *w)
{
	free(w->diff);
	w->diff = NULL;
}

void
watch_free(struct watch *w)
{
	watch_forget(w);
	free(w->prev);
	w->prev = NULL;
}
