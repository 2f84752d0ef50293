/*
 * watch.c - the difference between successive reads of a profile.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"
#include "watch.h"

#define WIN_WORDS ((size_t)1 << 16)

static void
note(struct watch *w, uint64_t k, uint32_t d)
{
	if (w->dn == w->dcap) {
		w->dcap = w->dcap ? w->dcap * 2 : 1024;
		w->didx = xrealloc(w->didx, w->dcap * sizeof *w->didx);
		w->dval = xrealloc(w->dval, w->dcap * sizeof *w->dval);
	}
	w->didx[w->dn] = (uint32_t)k;
	w->dval[w->dn++] = d;
}

void
watch_fold_begin(struct watch *w)
{
	w->dn = 0;
	w->dcur = 0;
	w->win_n = 0;
}

int
watch_fold(struct watch *w, const uint32_t *cur, uint64_t first, size_t n)
{
	uint32_t *prev = w->prev + first;
	int down = 0;

	for (size_t i = 0; i < n; i++) {
		if (cur[i] == prev[i])
			continue;
		if (cur[i] < prev[i])
			down = 1;
		else
			note(w, first + i, cur[i] - prev[i]);
		prev[i] = cur[i];
	}
	return down;
}

void
watch_fold_end(struct watch *w, int reset)
{
	if (!reset)
		return;
	w->dn = 0;
	for (uint64_t k = 1; k < w->nwords; k++)
		if (w->prev[k])
			note(w, k, w->prev[k]);
}

/* Open and set up one read of the profile, in the first read's order. */
static struct counters
open_read(struct watch *w, struct profile *p)
{
	profile_open(p, w->name);
	p->swap = w->swap;
	profile_setup(p, NULL, 1);
	if (p->step != w->step || p->nwords != w->nwords)
		fatalx("%s: the profile changed shape (step %u, %llu counters; "
		    "was step %u, %llu counters)", w->name, p->step,
		    (unsigned long long)(p->nwords - 1), w->step,
		    (unsigned long long)(w->nwords - 1));
	return profile_counters(p);
}

/* Fold every counter of one read; returns 1 when one went down. */
static int
fold_all(struct watch *w, const struct counters *c)
{
	int down = 0;

	for (uint64_t k = 1; k < c->n;) {
		size_t got;
		const uint32_t *cur = c->span(c->ctx, k, c->n, &got);

		down |= watch_fold(w, cur, k, got);
		k += got;
	}
	return down;
}

int
watch_start(struct watch *w, const char *name, int noauto)
{
	struct profile p;
	struct counters c;

	memset(w, 0, sizeof *w);
	w->name = name;
	profile_open(&p, name);
	w->swap = profile_setup(&p, NULL, noauto);
	w->step = p.step;
	w->nwords = p.nwords;
	w->prev = calloc((size_t)w->nwords, sizeof *w->prev);
	if (w->prev == NULL)
		fatal("keeping %llu counters",
		    (unsigned long long)(w->nwords - 1));
	w->prev[0] = w->step;
	c = profile_counters(&p);
	fold_all(w, &c);
	profile_close(&p);
	watch_fold_begin(w);
	return w->swap;
}

int
watch_next(struct watch *w)
{
	struct profile p;
	struct counters c = open_read(w, &p);
	int reset;

	watch_fold_begin(w);
	reset = fold_all(w, &c);
	watch_fold_end(w, reset);
	profile_close(&p);
	return reset;
}

/* The first changed word at or after K. */
static size_t
find(const struct watch *w, uint64_t k)
{
	size_t lo = 0, hi = w->dn;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->didx[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const uint32_t *
span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct watch *w = ctx;

	if (from < w->win_first || from >= w->win_first + w->win_n) {
		size_t n = w->nwords - from < WIN_WORDS ?
		    (size_t)(w->nwords - from) : WIN_WORDS;

		if (w->win == NULL)
			w->win = xmalloc(WIN_WORDS * sizeof *w->win);
		memset(w->win, 0, n * sizeof *w->win);
		if (from == 0)
			w->win[0] = w->step;
		for (size_t i = find(w, from); i < w->dn &&
		    w->didx[i] < from + n; i++)
			w->win[w->didx[i] - from] = w->dval[i];
		w->win_first = from;
		w->win_n = n;
	}
	*got = (size_t)(w->win_first + w->win_n - from);
	if (*got > to - from)
		*got = (size_t)(to - from);
	return w->win + (from - w->win_first);
}

static uint64_t
sum(void *ctx, uint64_t from, uint64_t to)
{
	struct watch *w = ctx;
	size_t i = w->dcur;
	uint64_t s = 0;

	if (i > w->dn || (i > 0 && w->didx[i - 1] >= from))
		i = find(w, from);
	while (i < w->dn && w->didx[i] < from)
		i++;
	for (; i < w->dn && w->didx[i] < to; i++)
		s += w->dval[i];
	w->dcur = i;
	return s;
}

struct counters
watch_counters(struct watch *w)
{
	struct counters c = { w->nwords, span, sum, w };

	return c;
}

void
watch_free(struct watch *w)
{
	free(w->prev);
	free(w->didx);
	free(w->dval);
	free(w->win);
	memset(w, 0, sizeof *w);
}
