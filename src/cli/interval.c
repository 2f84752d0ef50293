/*
 * interval.c - --interval: the difference between successive reads of a
 * profile, and the loop that reports it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/input.h"
#include "cli/gmonrun.h"
#include "cli/kernel.h"
#include "cli/profiling.h"
#include "cli/run.h"
#include "core/fit.h"
#include "hist/profile.h"
#include "base/util.h"
#include "cli/interval.h"

#define WIN_WORDS ((size_t)1 << 16)

static void
push(struct watch_list *l, uint64_t k, uint32_t v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->idx = xrealloc(l->idx, l->cap * sizeof *l->idx);
		l->val = xrealloc(l->val, l->cap * sizeof *l->val);
	}
	l->idx[l->n] = (uint32_t)k;
	l->val[l->n++] = v;
}

static void
list_free(struct watch_list *l)
{
	free(l->idx);
	free(l->val);
	memset(l, 0, sizeof *l);
}

void
watch_fold_begin(struct watch *w)
{
	w->diff.n = 0;
	w->added.n = 0;
	w->pcur = 0;
	w->dcur = 0;
	w->win_n = 0;
	w->down = 0;
}

/* Whether the 8 words at P are all zero. */
static int
zero8(const uint32_t *p)
{
	uint64_t a, b, c, d;

	memcpy(&a, p, 8);
	memcpy(&b, p + 2, 8);
	memcpy(&c, p + 4, 8);
	memcpy(&d, p + 6, 8);
	return (a | b | c | d) == 0;
}

void
watch_fold(struct watch *w, const uint32_t *cur, uint64_t first, size_t n)
{
	struct watch_list *p = &w->prev;
	size_t i = 0;

	while (i < n) {
		uint64_t k = first + i;
		/* the next word the previous read had non-zero */
		uint64_t next = w->pcur < p->n ? p->idx[w->pcur] : UINT64_MAX;
		uint32_t was;

		if (k < next && cur[i] == 0) {	/* zero then, zero now */
			if (n - i >= 8 && next - k >= 8 && zero8(cur + i))
				i += 8;
			else
				i++;
			continue;
		}
		was = k == next ? p->val[w->pcur] : 0;
		if (cur[i] < was)
			w->down = 1;
		else if (cur[i] > was)
			push(&w->diff, k, cur[i] - was);
		if (k == next)
			p->val[w->pcur++] = cur[i];
		else
			push(&w->added, k, cur[i]);
		i++;
	}
}

/* Merge the newly non-zero words into the previous read, in place from
 * the end; after a reset, drop the words that fell to zero. */
static void
merge_added(struct watch *w)
{
	struct watch_list *p = &w->prev, *a = &w->added;
	size_t i = p->n, j = a->n, out = p->n + a->n, z = 0;

	if (out > p->cap) {
		p->cap = out;
		p->idx = xrealloc(p->idx, p->cap * sizeof *p->idx);
		p->val = xrealloc(p->val, p->cap * sizeof *p->val);
	}
	while (j > 0) {
		if (i > 0 && p->idx[i - 1] > a->idx[j - 1]) {
			i--;
			p->idx[--out] = p->idx[i];
			p->val[out] = p->val[i];
		} else {
			j--;
			p->idx[--out] = a->idx[j];
			p->val[out] = a->val[j];
		}
	}
	p->n += a->n;
	if (!w->down)
		return;
	for (i = 0; i < p->n; i++)
		if (p->val[i]) {
			p->idx[z] = p->idx[i];
			p->val[z++] = p->val[i];
		}
	p->n = z;
}

int
watch_fold_end(struct watch *w)
{
	merge_added(w);
	w->added.n = 0;
	if (w->down) {
		w->diff.n = 0;
		for (size_t i = 0; i < w->prev.n; i++)
			push(&w->diff, w->prev.idx[i], w->prev.val[i]);
	}
	return w->down;
}

/*
 * A file rewritten in place (not replaced by a rename) can be caught
 * half-written: give a regular file up to a second to get back the size
 * of the first read before reading it.
 */
static void
settle(const struct watch *w)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	struct stat sb;

	if (input_tool(w->name) != NULL)
		return;		/* compressed: its size says nothing */
	for (int i = 0; i < 50; i++) {
		if (stat(w->name, &sb) < 0 || !S_ISREG(sb.st_mode) ||
		    (uint64_t)sb.st_size == w->size)
			return;
		nanosleep(&pause, NULL);
	}
}

/* Open and set up one read of the profile, in the first read's order. */
static struct counters
open_read(struct watch *w, struct profile *p)
{
	settle(w);
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
	watch_fold_begin(w);
	for (uint64_t k = 1; k < c->n;) {
		size_t got;
		const uint32_t *cur = c->span(c->ctx, k, c->n, &got);

		watch_fold(w, cur, k, got);
		k += got;
	}
	return watch_fold_end(w);
}

/*
 * The first read (NOAUTO: -n), with the notes a report's read gives (a
 * reversed byte order, an odd step, a trailing partial word).  Returns 1
 * when the byte order is reversed.
 */
static int
watch_start(struct watch *w, const char *name, int noauto)
{
	struct profile p;
	struct counters c;

	memset(w, 0, sizeof *w);
	w->name = name;
	profile_load(&p, name);
	if (gmonrun_detect(&p))	/* it will not change: nothing to watch */
		fatalx("%s is a gmon.out: --interval watches a kernel profile; "
		    "a program writes its gmon.out once, when it exits", name);
	profile_check(&p);
	w->swap = profile_setup(&p, NULL, noauto);
	if (w->swap)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	profile_warn_step(&p);
	profile_warn_trailing(&p);
	w->step = p.step;
	w->nwords = p.nwords;
	w->size = p.bytes + p.trailing;
	c = profile_counters(&p);
	fold_all(w, &c);
	profile_close(&p);
	w->diff.n = 0;
	return w->swap;
}

/* Read again; returns 1 when the counters were reset since the last read. */
static int
watch_next(struct watch *w)
{
	struct profile p;
	struct counters c = open_read(w, &p);
	int reset = fold_all(w, &c);

	profile_close(&p);
	return reset;
}

/* The first changed word at or after K. */
static size_t
find(const struct watch *w, uint64_t k)
{
	size_t lo = 0, hi = w->diff.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->diff.idx[mid] < k)
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
		for (size_t i = find(w, from); i < w->diff.n &&
		    w->diff.idx[i] < from + n; i++)
			w->win[w->diff.idx[i] - from] = w->diff.val[i];
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
	const struct watch_list *d = &w->diff;
	size_t i = w->dcur;
	uint64_t s = 0;

	/* reports move forward: resume where the last sum ended, if we can */
	if (i > d->n || (i > 0 && d->idx[i - 1] >= from))
		i = find(w, from);
	while (i < d->n && d->idx[i] < from)
		i++;
	for (; i < d->n && d->idx[i] < to; i++)
		s += d->val[i];
	w->dcur = i;
	return s;
}

struct counters
watch_counters(struct watch *w)
{
	struct counters c = { w->nwords, span, sum, w, NULL };

	return c;
}

void
watch_free(struct watch *w)
{
	list_free(&w->prev);
	list_free(&w->diff);
	list_free(&w->added);
	free(w->win);
	memset(w, 0, sizeof *w);
}

static volatile sig_atomic_t stop;

static void
on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static double
elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Sleep until T; returns 0, or -1 when told to stop. */
static int
sleep_until(struct timespec *t, double seconds)
{
	struct timespec now;
	long long ns = (long long)(seconds * 1e9 + 0.5);

	t->tv_sec += (time_t)(ns / 1000000000);
	t->tv_nsec += (long)(ns % 1000000000);
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (elapsed(t, &now) > 0)
		*t = now;	/* late: do not try to catch up */
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t,
	    NULL) != 0)
		;
	return stop ? -1 : 0;
}

/*
 * Whether the map NAME changed (size or modification time) since *LAST,
 * which is updated; the first call says it changed.
 */
static int
map_changed(const char *name, struct stat *last, int first)
{
	struct stat sb;
	int changed;

	if (stat(name, &sb) < 0)
		return first;
	changed = first || sb.st_size != last->st_size ||
	    sb.st_mtim.tv_sec != last->st_mtim.tv_sec ||
	    sb.st_mtim.tv_nsec != last->st_mtim.tv_nsec ||
	    sb.st_ino != last->st_ino || sb.st_dev != last->st_dev;
	*last = sb;
	return changed;
}

static void
open_map(struct symsrc *m, const char *name)
{
	if (symsrc_open(m, name) < 0)
		fatal("%s", name);
}

int
interval_run(const struct options *o, struct out *out)
{
	struct view_inputs vi = { .profile = o->profile, .interval = 1 };
	struct report_result res;
	struct sigaction sa;
	struct timespec due, last, now;
	struct watch w;
	struct symsrc m;
	struct counters c;
	struct stat map_st = { 0 };
	const char *mapname;
	uint32_t step;
	int map_new;
	char when[64], line[256];
	struct tm tm;
	time_t t;
	int n, redraw = isatty(STDOUT_FILENO);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	watch_start(&w, o->profile, o->noauto);
	vi.byte_order = run_byte_order(w.swap);
	vi.counting = profiling_counting(o->profile);
	mapname = o->mapfile ? o->mapfile : kernel_default_map(o->profile);
	step = w.step;
	if (step == 0) {	/* 64-bit big-endian: the map tells the step */
		open_map(&m, mapname);
		step = run_step_from_map(&m, w.nwords - 1, &res, 0);
		symsrc_close(&m);
	}
	clock_gettime(CLOCK_MONOTONIC, &last);
	due = last;
	for (vi.number = 1; !o->iterations || vi.number <= o->iterations;
	    vi.number++) {
		if (sleep_until(&due, o->interval) < 0)
			break;
		vi.reset = watch_next(&w);
		clock_gettime(CLOCK_MONOTONIC, &now);
		vi.seconds = elapsed(&last, &now);
		last = now;
		t = time(NULL);
		if (localtime_r(&t, &tm) == NULL ||
		    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", &tm) == 0)
			snprintf(when, sizeof when, "@%lld", (long long)t);
		vi.time = when;
		if (vi.reset)
			warnx_("%s: counters went down: reset in interval %llu; "
			    "reporting the ticks since the reset", o->profile,
			    (unsigned long long)vi.number);
		if (!o->json) {
			if (redraw)	/* home, clear: each screen in place */
				out_str(out, "\033[H\033[2J", 7);
			n = snprintf(line, sizeof line, "--- %s interval %llu: "
			    "%.3f s%s\n", when, (unsigned long long)vi.number,
			    vi.seconds, vi.reset ? " (counters were reset: "
			    "ticks since the reset)" : "");
			out_str(out, line, (size_t)n);
		}
		c = watch_counters(&w);
		/* the fit is checked again whenever the map changed */
		map_new = map_changed(mapname, &map_st, vi.number == 1);
		open_map(&m, mapname);
		run_report(o, &m, &c, step, &vi, &res, out);
		symsrc_close(&m);
		run_finish(out);
		if (map_new)
			fit_warn(mapname, o->profile, res.origin, res.etext,
			    res.have_etext, step, w.nwords - 1);
		if (stop)
			break;
	}
	watch_free(&w);
	return 0;
}
