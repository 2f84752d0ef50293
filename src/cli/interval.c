/*
 * interval.c - --interval: the reads of a profile, each whole (their
 * difference: hist/watch.c), and the loop that reports it.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/input.h"
#include "core/fit.h"
#include "hist/profile.h"
#include "base/util.h"
#include "cli/interval.h"
#include "hist/watch.h"

/* One read of the profile, whole, as the FIRST was (its words taken, its
 * size and order kept). */
static uint32_t *
read_again(const struct profile *first)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	struct stat sb;
	struct profile p;
	uint32_t *w;

	/* a file rewritten in place (not renamed over) can be caught
	 * half-written: give a regular file up to a second to get back the
	 * first read's size (a compressed one's says nothing) */
	for (int i = 0; i < 50 && input_tool(first->name) == NULL; i++) {
		if (stat(first->name, &sb) < 0 || !S_ISREG(sb.st_mode) ||
		    (uint64_t)sb.st_size == first->bytes + first->trailing)
			break;
		nanosleep(&pause, NULL);
	}
	profile_open(&p, first->name);
	p.swap = first->swap;
	profile_setup(&p, 1);
	if (p.step != first->step || p.nwords != first->nwords)
		fatalx("%s: the profile changed shape (step %u, %llu counters; "
		    "was step %u, %llu counters)", first->name, p.step,
		    (unsigned long long)(p.nwords - 1), first->step,
		    (unsigned long long)(first->nwords - 1));
	w = profile_take(&p);
	profile_close(&p);
	return w;
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

/* Report the difference W of read R->read against the map, opened afresh,
 * under a heading; MAP_ST: the map as the last report saw it. */
static void
report_read(struct run *r, const struct watch *w, struct stat *map_st)
{
	const struct run_read *rd = r->read;
	struct report_result res;
	struct counters c = watch_counters(w);
	struct symsrc m;
	struct stat sb;
	int map_new = rd->number == 1;

	if (rd->reset)
		warnx_("%s: counters went down: reset in interval %llu; "
		    "reporting the ticks since the reset", r->profile,
		    (unsigned long long)rd->number);
	if (!r->o->json)	/* home, clear: each screen in place */
		out_printf(r->out, "%s--- %s interval %llu: %.3f s%s\n",
		    isatty(STDOUT_FILENO) ? "\033[H\033[2J" : "", rd->time,
		    (unsigned long long)rd->number, rd->seconds, rd->reset ?
		    " (counters were reset: ticks since the reset)" : "");
	/* the fit is checked again whenever the map changed */
	if (stat(r->map, &sb) == 0) {
		map_new = map_new || sb.st_size != map_st->st_size ||
		    sb.st_mtim.tv_sec != map_st->st_mtim.tv_sec ||
		    sb.st_mtim.tv_nsec != map_st->st_mtim.tv_nsec ||
		    sb.st_ino != map_st->st_ino || sb.st_dev != map_st->st_dev;
		*map_st = sb;
	}
	run_open_map(&m, r->map);
	run_report(r, &m, &c, &res);
	symsrc_close(&m);
	run_finish(r->out, r->pprof);
	if (map_new)
		fit_warn(&(struct step_text){ r->map, res.origin, res.etext,
		    res.have_etext, w->nwords - 1 }, r->profile, r->step);
}

void
interval_run(struct run *r, struct profile *p)
{
	const struct options *o = r->o;
	char when[64];
	struct run_read rd = { .time = when };
	struct report_result res;
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESTART };
	struct timespec due, last, now;
	struct tm tm;
	time_t t;
	long long ns;
	struct watch w;
	struct symsrc m;
	struct stat map_st = { 0 };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	watch_start(&w, profile_take(p), p->nwords);
	profile_close(p);
	r->map = run_map(r);
	r->step = p->step;
	if (r->step == 0) {	/* 64-bit big-endian: the map tells the step */
		run_open_map(&m, r->map);
		r->step = run_step_from_map(&m, p->nwords - 1, &res, 0);
		symsrc_close(&m);
	}
	r->read = &rd;
	clock_gettime(CLOCK_MONOTONIC, &last);
	due = last;
	for (rd.number = 1; !o->iterations || rd.number <= o->iterations;
	    rd.number++) {
		ns = (long long)(o->interval * 1e9 + 0.5) + due.tv_nsec;
		due.tv_sec += (time_t)(ns / 1000000000);
		due.tv_nsec = (long)(ns % 1000000000);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (elapsed(&due, &now) > 0)
			due = now;	/* late: do not try to catch up */
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
		    &due, NULL) != 0)
			;
		if (stop)
			break;
		rd.reset = watch_update(&w, read_again(p));
		clock_gettime(CLOCK_MONOTONIC, &now);
		rd.seconds = elapsed(&last, &now);
		last = now;
		t = time(NULL);
		if (localtime_r(&t, &tm) == NULL || strftime(when, sizeof when,
		    "%Y-%m-%d %H:%M:%S %z", &tm) == 0)
			snprintf(when, sizeof when, "@%lld", (long long)t);
		report_read(r, &w, &map_st);
		watch_forget(&w);	/* two arrays at most: before a read */
		if (stop)
			break;
	}
	watch_free(&w);
}
