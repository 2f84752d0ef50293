/* collect.c - a bounded heap of the functions with most ticks. */
#include <stdlib.h>
#include <string.h>

#include "core/collect.h"
#include "base/util.h"

void
collect_init(struct collect *k, size_t limit)
{
	*k = (struct collect){ .limit = limit };
}

/* Whether A ranks before B: more ticks, then the lower address, then the
 * one first in the map. */
static int
collect_before(const struct func_rec *a, const struct func_rec *b)
{
	if (a->ticks != b->ticks)
		return a->ticks > b->ticks;
	if (a->addr != b->addr)
		return a->addr < b->addr;
	return a->seq < b->seq;
}

/* Heap order: the worst kept function is the greatest, the first to go. */
static int
worse(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return collect_before(b, a) - collect_before(a, b);
}

void
collect_add(struct collect *k, const struct func_rec *f)
{
	size_t at = k->n;
	struct heap h;

	if (k->n == k->limit) {	/* full: in place of the worst kept, or not */
		if (k->n == 0 || !collect_before(f, &k->v[0]))
			return;
		free(k->v[0].name);
		at = 0;
	} else if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 64;
		if (k->limit < k->cap)
			k->cap = k->limit;
		k->v = xrealloc(k->v, k->cap * sizeof *k->v);
	}
	k->v[at] = *f;
	k->v[at].name = xmalloc(f->namelen + 1);
	memcpy(k->v[at].name, f->name, f->namelen);
	k->v[at].name[f->namelen] = '\0';
	h = (struct heap){ k->v, sizeof *k->v, worse, NULL };
	if (at < k->n)
		heap_sift_down(&h, 0, k->n);
	else if (++k->n == k->limit)	/* full: made a heap once */
		for (size_t i = k->n / 2; i-- > 0;)
			heap_sift_down(&h, i, k->n);
}

void
collect_sort(struct collect *k)
{
	/* without a limit all are kept, already in address order */
	if (k->limit != SIZE_MAX)
		heap_sort(k->v, k->n, sizeof *k->v, worse, NULL);
}

void
collect_free(struct collect *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof *k);
}
