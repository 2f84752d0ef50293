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
#include <unistd.h>

#include "base/output.h"
#include "base/util.h"
#include "cli/buildid.h"
#include "cli/export.h"
#include "cli/gmonrun.h"
#include "cli/info.h"
#include "cli/interval.h"
#include "cli/kernel.h"
#include "cli/options.h"
#include "cli/profiling.h"
#include "cli/run.h"
#include "core/fit.h"
#include "hist/profile.h"

static struct out out;

static _Noreturn void usage(const char *name);
static int report_profile(const struct options *o);

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
	export_abort();
}

int
main(int argc, char **argv)
{
	struct options o;
	static const char version[] = PROGNAME " from readprofile " RP_VERSION
	    "\n";

	sanitize_stdio();
	kroot_drop_privileges();
	signal(SIGPIPE, SIG_IGN);
	out_init(&out, STDOUT_FILENO);
	fatal_hook = drop_output;

	switch (options_parse(&o, argc, argv)) {
	case OPT_RUN:
		break;
	case OPT_HELP:
		usage(o.name);
	case OPT_VERSION:
		out_str(&out, version, sizeof version - 1);
		run_finish(&out);
		return 0;
	case OPT_BAD_VALUE:
		return 1;
	case OPT_USAGE_ERROR:
		fprintf(stderr, "Try '%s --help' for more information.\n",
		    o.name);
		return 1;
	default:
		return 1;
	}
	if (o.reset || o.multiplier_set)
		kernel_write_profile(o.multiplier_set ? &o.multiplier : NULL);
	kroot_drop_privileges_for_good();
	if (o.enable) {		/* start the kernel's profiling, and say how */
		profiling_enable(o.enable, kroot_setuid_install(), &out);
		run_finish(&out);
		return 0;
	}
	export_command(argc, argv);
	export_prepare(&o);
	o.profile = kernel_profile(o.profile);
	if (o.interval > 0 && !o.info)
		return interval_run(&o, &out);
	return report_profile(&o);
}

/* The profile O names, as a gmon.out or a kernel profile: -i or a report. */
static int
report_profile(const struct options *o)
{
	struct profile prof, base;
	struct symsrc m;
	struct view_inputs vi;
	struct report_result res;
	struct counters c;
	struct build_id bid;
	const char *mapname;
	int swapped;

	profile_load(&prof, o->profile);
	if (gmonrun_detect(&prof)) {	/* a process's gmon.out */
		gmonrun_run(o, &prof, &out);
		run_finish(&out);
		profile_close(&prof);
		export_commit();	/* last: every input checked */
		return 0;
	}
	profile_check(&prof);
	if (o->baseline)
		profile_open(&base, o->baseline);
	if (o->info)
		prof.index_budget = 0;	/* -i sums no counter: no index */
	/*
	 * --top and --json with -s or -b read the buckets of their functions
	 * after the pass: from one copy held in memory, not from the file
	 * again, so that a profile changing meanwhile cannot give buckets
	 * that do not add up.
	 */
	if ((o->top || o->json) && (o->counters || o->bins)) {
		profile_bytes(&prof);
		if (o->baseline)
			profile_bytes(&base);
	}
	swapped = profile_setup(&prof, o->baseline ? &base : NULL, o->noauto);
	if (swapped)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	profile_warn_step(&prof);
	profile_warn_trailing(&prof);
	if (o->baseline)
		profile_warn_trailing(&base);
	if (o->info) {
		info_print(o, &prof, swapped, &out);
		run_finish(&out);
		profile_close(&prof);
		if (o->baseline)
			profile_close(&base);
		return 0;
	}

	mapname = o->mapfile ? o->mapfile : kernel_default_map(o->profile);
	if (symsrc_open(&m, mapname) < 0)
		fatal("%s", mapname);
	if (prof.step == 0) {	/* read the map once: held for the report */
		symsrc_hold(&m);
		prof.step = run_step_from_map(&m, prof.nwords - 1, &res, 0);
		symsrc_rewind(&m);
	}
	memset(&vi, 0, sizeof vi);
	vi.profile = o->profile;
	vi.baseline = o->baseline;
	vi.byte_order = run_byte_order(swapped);
	vi.counting = profiling_counting(o->profile);
	c = profile_counters(&prof);
	run_report(o, &m, &c, prof.step, &vi, &res, &out);
	bid = *symsrc_build_id(&m);
	symsrc_close(&m);
	profile_close(&prof);	/* a file that changed size is an error */
	if (o->baseline)
		profile_close(&base);
	run_finish(&out);
	export_commit();	/* last: every input checked */
	fit_warn(mapname, o->profile, res.origin, res.etext, res.have_etext,
	    prof.step, prof.nwords - 1);
	if (o->mapfile)	/* the default map's notice said it already */
		buildid_warn(&bid, mapname, o->profile);
	return 0;
}

static _Noreturn void
usage(const char *name)
{
	/* the name it runs by, where the text says @ */
	static const char text[] =
	    "\nUsage:\n"
	    " @ [options]\n"
	    "\n"
	    "Read the kernel's tick profile and attribute it to symbols.\n"
	    "\n"
	    "Options:\n"
	    " -m, --mapfile <mapfile>   symbol map (default: the first System.map found,\n"
	    "                           then /proc/kallsyms; see @(8))\n"
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
	    "     --iterations <n>      stop --interval after n reports\n"
	    "     --pprof <file>        the report as a pprof profile (- for stdout)\n"
	    "     --folded              the report as folded stacks (flame graphs)\n"
	    "     --hz <n>              ticks per second of a kernel profile (for --pprof)\n"
	    "     --no-demangle         print a program's C++ names as the map has them\n"
	    "     --enable[=<arg>]      start the kernel's profiling now, as profile=<arg>\n"
	    "                           would (default 2; root only, once per boot)\n"
	    "\n"
	    " -h, --help                display this help\n"
	    " -V, --version             display version\n"
	    "\n"
	    "Inputs ending in .gz, .xz, .zst or .bz2 are decompressed.\n"
	    "For more details see @(8).\n";

	for (const char *s = text, *at; *s; s = at + 1) {
		at = strchr(s, '@');
		if (at == NULL) {
			out_str(&out, s, strlen(s));
			break;
		}
		out_str(&out, s, (size_t)(at - s));
		out_str(&out, name, strlen(name));
	}
	run_finish(&out);
	exit(0);
}
