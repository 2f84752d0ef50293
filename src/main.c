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

#include "collect.h"
#include "fit.h"
#include "kernel.h"
#include "options.h"
#include "output.h"
#include "profile.h"
#include "report.h"
#include "symsrc.h"
#include "util.h"
#include "view.h"
#include "watch.h"

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

/* -i -v: what the profile holds, and whether the map fits it. */
static void
print_info_verbose(const struct options *o, const struct profile *p,
    int swapped)
{
	char line[512];
	uint64_t counters = p->nwords - 1;
	struct symsrc m;
	struct report_result res;
	int n;

	n = snprintf(line, sizeof line, "Counters: %llu\nText_bytes: %llu\n"
	    "Byte_order: %s (%s)\n", (unsigned long long)counters,
	    (unsigned long long)(counters * p->step), byte_order_name(swapped),
	    o->noauto ? "native, -n" : swapped ? "reversed" : "native");
	out_str(&out, line, (size_t)n);
	if (o->mapfile == NULL)
		return;
	if (symsrc_open(&m, o->mapfile) < 0)
		fatal("%s", o->mapfile);
	report_text_bounds(&m, &res);
	symsrc_close(&m);
	out_str(&out, line, fit_describe(line, sizeof line, o->mapfile,
	    res.origin, res.etext, res.have_etext, p->step, counters));
}

/* One report of C: the classic text, --top or --json. */
static void
report(const struct options *o, const char *mapname,
    const struct counters *c, uint32_t step, struct view_inputs *vi,
    struct report_result *res)
{
	struct report_opts ro = { o->verbose, o->all, o->bins, o->counters,
	    o->exact ? ATTRIB_EXACT : ATTRIB_CLASSIC, NULL };
	struct collect k;
	struct symsrc m;

	if (symsrc_open(&m, mapname) < 0)
		fatal("%s", mapname);
	if (o->top || o->json) {
		collect_init(&k, o->top ? o->top : SIZE_MAX);
		ro.collect = &k;
	}
	report_run(&m, c, step, &ro, &out, res);
	symsrc_close(&m);
	if (ro.collect == NULL)
		return;
	collect_sort(&k);
	vi->map = mapname;
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
	struct counters c;
	const char *mapname;
	char when[64], line[256];
	time_t t;
	int n;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (watch_start(&w, o->profile, o->noauto))
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	vi.byte_order = byte_order_name(w.swap);
	mapname = o->mapfile ? o->mapfile : kernel_default_map();
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
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z",
		    localtime(&t));
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
		report(o, mapname, &c, w.step, &vi, &res);
		finish_output();
		if (vi.number == 1)
			fit_warn(mapname, o->profile, res.origin, res.etext,
			    res.have_etext, w.step, w.nwords - 1);
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
	struct view_inputs vi;
	struct report_result res;
	struct counters c;
	const char *mapname;
	static const char version[] = PROGNAME " from readprofile " RP_VERSION
	    "\n";
	char line[64];
	int swapped, n;

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
	if (o.interval > 0)
		return run_interval(&o);

	profile_open(&prof, o.profile);
	if (o.baseline)
		profile_open(&base, o.baseline);
	swapped = profile_setup(&prof, o.baseline ? &base : NULL, o.noauto);
	if (swapped)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	if (o.info) {
		n = snprintf(line, sizeof line, "Sampling_step: %u\n", prof.step);
		out_str(&out, line, (size_t)n);
		if (o.verbose)
			print_info_verbose(&o, &prof, swapped);
		finish_output();
		profile_close(&prof);
		if (o.baseline)
			profile_close(&base);
		return 0;
	}

	mapname = o.mapfile ? o.mapfile : kernel_default_map();
	memset(&vi, 0, sizeof vi);
	vi.profile = o.profile;
	vi.baseline = o.baseline;
	vi.byte_order = byte_order_name(swapped);
	c = profile_counters(&prof);
	report(&o, mapname, &c, prof.step, &vi, &res);
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
	    " -m, --mapfile <mapfile>   symbol map (default: /boot/System.map,\n"
	    "                           /boot/System.map-$(uname -r), then /proc/kallsyms)\n"
	    " -p, --profile <pro-file>  profile (default: /proc/profile; - reads stdin)\n"
	    " -M, --multiplier <mult>   set the profiling multiplier to <mult>\n"
	    " -i, --info                print only info about the sampling step\n"
	    " -v, --verbose             print verbose data\n"
	    " -a, --all                 print all symbols, even if count is 0\n"
	    " -b, --histbin             print individual histogram-bin counts\n"
	    " -s, --counters            print individual counters within functions\n"
	    " -r, --reset               reset all the counters (root only)\n"
	    " -n, --no-auto             disable byte order auto-detection\n"
	    "     --exact               credit each counter to the symbol it covers\n"
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
