/*
 * readprofile - read the kernel's tick profile and attribute it to symbols.
 *
 * main.c: options and wiring only.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/collect.h"
#include "core/fit.h"
#include "cli/kernel.h"
#include "cli/options.h"
#include "base/output.h"
#include "cli/gmonrun.h"
#include "hist/profile.h"
#include "core/report.h"
#include "base/sniff.h"
#include "hist/step.h"
#include "sym/symsrc.h"
#include "base/util.h"
#include "out/view.h"
#include "cli/interval.h"
#include "base/worker.h"

static struct out out;
static volatile sig_atomic_t stop;

static _Noreturn void usage(void);

/*
 * Descriptors 0-2 closed by the caller would be taken by the next open:
 * fill them with /dev/null, read-only, so that writes to them still fail.
 */
static void
sanitize_stdio(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) != fd)
			abort();
}

static void
drop_output(void)
{
	out_discard(&out);
}

static void
finish_output(void)
{
	if (out_finish(&out) == 0)
		return;
	if (errno == EPIPE)
		exit(0);	/* the reader went away: nothing to say */
	fatal("write error");
}

static const char *
byte_order_name(int swapped)
{
	static const uint32_t one = 1;
	int little = *(const unsigned char *)&one == 1;

	if (swapped)
		little = !little;
	return little ? "little-endian" : "big-endian";
}

/*
 * A zero step word, as 64-bit big-endian kernels write it: the step from
 * the text of map M, whose bounds go to RES.  When it is unknown: fatal,
 * or with QUIET, 0.
 */
static uint32_t
step_from_map(struct symsrc *m, uint64_t counters, struct report_result *res,
    int quiet)
{
	char why[512];
	uint32_t step;
	enum step_found r;

	report_text_bounds(m, res);
	r = step_infer(res->origin, res->etext, res->have_etext, counters,
	    &step);
	if (r == STEP_FOUND)
		warnx_("the profile's step word is 0, as 64-bit big-endian "
		    "kernels write it; using step %u from %s", step, m->name);
	else if (!quiet) {
		step_why(why, sizeof why, r, m->name, res->origin, res->etext,
		    counters);
		fatalx("%s", why);
	}
	return step;
}

/* -i -v: what the profile holds, and whether the map RES fits it. */
static void
print_info_verbose(const struct profile *p, uint32_t step, int swapped,
    int noauto, const char *mapname, const struct report_result *res)
{
	char line[512];
	uint64_t counters = p->nwords - 1;
	int n;

	n = snprintf(line, sizeof line, "Counters: %llu\nText_bytes: %llu\n"
	    "Byte_order: %s (%s)\n", (unsigned long long)counters,
	    (unsigned long long)(counters * step), byte_order_name(swapped),
	    noauto ? "native, -n" : swapped ? "reversed" : "native");
	out_str(&out, line, (size_t)n);
	if (res == NULL)
		return;
	out_str(&out, line, fit_describe(line, sizeof line, mapname,
	    res->origin, res->etext, res->have_etext, step, counters));
}

/*
 * -i.  The map is read for -v, and to infer a zero step: the one given
 * with -m or, for the running kernel's own /proc/profile, the default map
 * (a snapshot may come from another kernel than the running one).
 */
static void
print_info(const struct options *o, const struct profile *p, int swapped)
{
	char line[512];
	const char *mapname = o->mapfile;
	struct symsrc m;
	struct report_result res;
	uint32_t step = p->step;
	int n, have_map = 0;

	if (step == 0 && mapname == NULL &&
	    strcmp(o->profile, PROC_PROFILE) == 0)
		mapname = kernel_default_map_quiet();
	if (mapname != NULL && (step == 0 || o->verbose)) {
		if (symsrc_open(&m, mapname) < 0)
			fatal("%s", mapname);
		if (step == 0)
			step = step_from_map(&m, p->nwords - 1, &res,
			    o->mapfile == NULL);
		else
			report_text_bounds(&m, &res);
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
	out_str(&out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n :
	    sizeof line - 1);
	if (o->verbose)
		print_info_verbose(p, step, swapped, o->noauto, mapname,
		    have_map ? &res : NULL);
}

/* A second reader of the profile's counters, for a second thread. */
static struct counters
par_reader(void *ctx, void **state)
{
	struct pcursor *pc = xmalloc(sizeof *pc);

	memset(pc, 0, sizeof *pc);
	*state = pc;
	return profile_counters_cursor(ctx, pc);
}

static void
par_reader_done(void *state)
{
	pcursor_free(state);
	free(state);
}

/* One report of C against the open map M: the classic text, --top or
 * --json.  With PROF (its counters shareable) it may use two threads. */
static void
report(const struct options *o, struct symsrc *m, const struct counters *c,
    uint32_t step, struct view_inputs *vi, struct report_result *res,
    struct profile *prof)
{
	struct report_opts ro = { .verbose = o->verbose, .all = o->all,
	    .bins = o->bins, .counters = o->counters,
	    .mode = o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC,
	    .default_map = o->mapfile == NULL };
	struct report_par par = { par_reader, par_reader_done, prof };
	struct collect k;

	if (prof != NULL && profile_shareable(prof))
		ro.par = &par;

	if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	report_run(m, c, step, &ro, &out, res);
	if (ro.collect == NULL)
		return;
	collect_sort(&k);
	vi->map = m->name;
	vi->step = step;
	vi->counters = c->n - 1;
	vi->top = o->top;
	if (o->json)
		view_json(&out, &k, res, c, &ro, vi);
	else
		view_top(&out, &k, res, c, &ro);
	collect_free(&k);
}

static void
open_map(struct symsrc *m, const char *name)
{
	if (symsrc_open(m, name) < 0)
		fatal("%s", name);
}

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

/* --interval: the ticks gained between reads, every O->interval seconds. */
static int
run_interval(const struct options *o)
{
	struct view_inputs vi = { .profile = o->profile, .interval = 1 };
	struct report_result res;
	struct sigaction sa;
	struct timespec due, last, now;
	struct watch w;
	struct symsrc m;
	struct counters c;
	const char *mapname;
	uint32_t step;
	char when[64], line[256];
	struct tm tm;
	time_t t;
	int n;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	watch_start(&w, o->profile, o->noauto);
	vi.byte_order = byte_order_name(w.swap);
	mapname = o->mapfile ? o->mapfile : kernel_default_map(o->profile);
	step = w.step;
	if (step == 0) {	/* 64-bit big-endian: the map tells the step */
		open_map(&m, mapname);
		step = step_from_map(&m, w.nwords - 1, &res, 0);
		symsrc_close(&m);
	}
	clock_gettime(CLOCK_MONOTONIC, &last);
	due = last;
	for (vi.number = 1; !o->count || vi.number <= o->count; vi.number++) {
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
			n = snprintf(line, sizeof line, "--- %s interval %llu: "
			    "%.3f s%s\n", when, (unsigned long long)vi.number,
			    vi.seconds, vi.reset ? " (counters were reset: "
			    "ticks since the reset)" : "");
			out_str(&out, line, (size_t)n);
		}
		c = watch_counters(&w);
		open_map(&m, mapname);
		report(o, &m, &c, step, &vi, &res, NULL);
		symsrc_close(&m);
		finish_output();
		if (vi.number == 1)
			fit_warn(mapname, o->profile, res.origin, res.etext,
			    res.have_etext, step, w.nwords - 1);
		if (stop)
			break;
	}
	watch_free(&w);
	return 0;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct profile prof, base;
	struct symsrc m;
	struct view_inputs vi;
	struct report_result res;
	struct counters c;
	const char *mapname;
	static const char version[] = PROGNAME " from readprofile " RP_VERSION
	    "\n";
	int swapped;

	sanitize_stdio();
	kernel_drop_privileges();
	signal(SIGPIPE, SIG_IGN);
	out_init(&out, STDOUT_FILENO);
	fatal_hook = drop_output;

	switch (options_parse(&o, argc, argv)) {
	case OPT_RUN:
		break;
	case OPT_HELP:
		usage();
	case OPT_VERSION:
		out_str(&out, version, sizeof version - 1);
		finish_output();
		return 0;
	case OPT_BAD_VALUE:
		return 1;
	case OPT_USAGE_ERROR:
		fprintf(stderr, "Try '%s --help' for more information.\n",
		    PROGNAME);
		return 1;
	default:
		return 1;
	}
	if (o.reset || o.multiplier_set)
		kernel_write_profile(o.multiplier_set ? &o.multiplier : NULL);
	kernel_drop_privileges_for_good();
	o.profile = kernel_profile(o.profile);
	if (o.interval > 0 && !o.info)
		return run_interval(&o);
	profile_load(&prof, o.profile);
	if (gmonrun_detect(&prof)) {	/* a process's gmon.out */
		gmonrun_run(&o, &prof, &out);
		finish_output();
		profile_close(&prof);
		return 0;
	}
	profile_check(&prof);
	if (prof.bytes >= PROFILE_TWO_THREADS)
		worker_start();	/* awake by the time the pass needs it */
	if (o.baseline)
		profile_open(&base, o.baseline);
	if (o.info)
		prof.nz_budget = 0;	/* -i sums no counter: no index */
	swapped = profile_setup(&prof, o.baseline ? &base : NULL, o.noauto);
	if (swapped)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	sniff_profile_step(&prof);
	profile_warn_trailing(&prof);
	if (o.baseline)
		profile_warn_trailing(&base);
	if (o.info) {
		print_info(&o, &prof, swapped);
		finish_output();
		profile_close(&prof);
		if (o.baseline)
			profile_close(&base);
		return 0;
	}

	mapname = o.mapfile ? o.mapfile : kernel_default_map(o.profile);
	if (symsrc_open(&m, mapname) < 0)
		fatal("%s", mapname);
	if (prof.step == 0) {	/* read the map once: held for the report */
		symsrc_hold(&m);
		prof.step = step_from_map(&m, prof.nwords - 1, &res, 0);
		symsrc_rewind(&m);
	}
	memset(&vi, 0, sizeof vi);
	vi.profile = o.profile;
	vi.baseline = o.baseline;
	vi.byte_order = byte_order_name(swapped);
	c = profile_counters(&prof);
	report(&o, &m, &c, prof.step, &vi, &res, &prof);
	symsrc_close(&m);
	finish_output();
	fit_warn(mapname, o.profile, res.origin, res.etext, res.have_etext,
	    prof.step, prof.nwords - 1);
	profile_close(&prof);
	if (o.baseline)
		profile_close(&base);
	return 0;
}

static _Noreturn void
usage(void)
{
	static const char text[] =
	    "\nUsage:\n"
	    " readprofile [options]\n"
	    "\n"
	    "Read the kernel's tick profile and attribute it to symbols.\n"
	    "\n"
	    "Options:\n"
	    " -m, --mapfile <mapfile>   symbol map (default: the first System.map found,\n"
	    "                           then /proc/kallsyms; see readprofile(8))\n"
	    " -p, --profile <pro-file>  profile (default: /proc/profile; - reads stdin)\n"
	    "                           or a program's gmon.out (cc -pg)\n"
	    " -M, --multiplier <mult>   set the profiling multiplier to <mult>\n"
	    " -i, --info                print only info about the sampling step\n"
	    "                           (with -v: counters, text size, byte order, map fit)\n"
	    " -v, --verbose             print verbose data\n"
	    " -a, --all                 print all symbols, even if count is 0\n"
	    " -b, --histbin             print individual histogram-bin counts\n"
	    " -s, --counters            print individual counters within functions\n"
	    " -r, --reset               reset all the counters (root, or any user\n"
	    "                           of a set-user-ID install)\n"
	    " -n, --no-auto             disable byte order auto-detection\n"
	    "     --exact               credit each counter to the function holding its\n"
	    "                           first byte (classic: each function's last\n"
	    "                           counter goes to the next one)\n"
	    "     --baseline <file>     subtract an earlier snapshot of the same boot\n"
	    "     --top <n>             the n functions with most ticks, with percentages\n"
	    " -J, --json                the report as one JSON document\n"
	    "     --interval <seconds>  report the ticks of each interval, until stopped\n"
	    "     --count <n>           stop --interval after n reports\n"
	    "\n"
	    " -h, --help                display this help\n"
	    " -V, --version             display version\n"
	    "\n"
	    "Inputs ending in .gz, .xz, .zst or .bz2 are decompressed.\n"
	    "For more details see readprofile(8).\n";

	out_str(&out, text, sizeof text - 1);
	finish_output();
	exit(0);
}
