/*
 * collect.c - a bounded heap of the functions with most ticks.
 */
#include <stdlib.h>
#include <string.h>

#include "core/collect.h"
#include "base/util.h"

void
collect_init(struct collect *k, size_t limit)
{
	memset(k, 0, sizeof *k);
	k->limit = limit;
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

static void
swap(struct func_rec *a, struct func_rec *b)
{
	struct func_rec t = *a;

	*a = *b;
	*b = t;
}

/* The heap's root is the worst kept function: the first to go. */
static void
sift_up(struct func_rec *v, size_t i)
{
	while (i > 0) {
		size_t up = (i - 1) / 2;

		if (!collect_before(&v[up], &v[i]))
			break;
		swap(&v[up], &v[i]);
		i = up;
	}
}

static void
sift_down(struct func_rec *v, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, worst = i;

		if (l < n && collect_before(&v[worst], &v[l]))
			worst = l;
		if (r < n && collect_before(&v[worst], &v[r]))
			worst = r;
		if (worst == i)
			return;
		swap(&v[i], &v[worst]);
		i = worst;
	}
}

static void
set_name(struct func_rec *f, const char *name, size_t namelen)
{
	f->name = xrealloc(f->name, namelen + 1);
	memcpy(f->name, name, namelen);
	f->name[namelen] = '\0';
	f->namelen = namelen;
}

void
collect_add(struct collect *k, uint64_t addr, uint64_t len, uint64_t ticks,
    uint64_t calls, const struct attrib_span *sp, const char *name,
    size_t namelen)
{
	struct func_rec f = { addr, len, ticks, calls, k->seen++, *sp, NULL, 0 };

	if (k->limit == 0)
		return;
	if (k->n == k->limit) {
		if (!collect_before(&f, &k->v[0]))
			return;
		f.name = k->v[0].name;	/* reuse the evicted one's buffer */
		set_name(&f, name, namelen);
		k->v[0] = f;
		sift_down(k->v, k->n, 0);
		return;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 64;
		if (k->limit < k->cap)
			k->cap = k->limit;
		k->v = xrealloc(k->v, k->cap * sizeof *k->v);
	}
	set_name(&f, name, namelen);
	k->v[k->n] = f;
	if (k->limit != SIZE_MAX)
		sift_up(k->v, k->n);
	k->n++;
}

void
collect_sort(struct collect *k)
{
	size_t n = k->n;

	if (k->limit == SIZE_MAX)
		return;		/* all kept, already in address order */
	/* heap sort: the worst goes last, leaving the best first */
	while (n > 1) {
		swap(&k->v[0], &k->v[n - 1]);
		n--;
		sift_down(k->v, n, 0);
	}
}

void
collect_free(struct collect *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof *k);
}
