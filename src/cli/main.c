/*
 * readprofile - read the kernel's tick profile and attribute it to symbols.
 * main.c: options and wiring only.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/output.h"
#include "base/util.h"
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
#include "sym/symsrc.h"

/* Where the run writes, for a fatal error's hook: the report on standard
 * output (said to be incomplete when cut short), and --pprof's file (no
 * partial file, an old one kept). */
struct dest {
	struct out out;
	struct outfile pprof;
};

static void
drop_output(void *ctx)
{
	struct dest *d = ctx;

	out_discard(&d->out);
	outfile_abort(&d->pprof);
}

/* The report of the kernel profile P, read and set up. */
static void
report_kernel(struct run *r, struct profile *p)
{
	struct symsrc m;
	struct report_result res;
	struct counters c = profile_counters(p);
	struct build_id bid;

	r->map = run_map(r);
	run_open_map(&m, r->map);
	r->step = p->step;
	if (r->step == 0)	/* the map read once, held for the report */
		r->step = run_step_from_map(&m, p->nwords - 1, &res, 0);
	run_report(r, &m, &c, &res);
	bid = *symsrc_build_id(&m);
	symsrc_close(&m);
	profile_close(p);
	run_finish(r->out, r->pprof);
	fit_warn(&(struct step_text){ r->map, res.origin, res.etext,
	    res.have_etext, p->nwords - 1 }, r->profile, r->step);
	if (r->o->mapfile)	/* the default map's notice said it already */
		kernel_build_id_warn(&bid, r->map, r->live ? &r->k->id : NULL);
}

/* R's profile, a gmon.out or a kernel profile, read once: -i, the report,
 * or the first read of --interval. */
static void
report_profile(struct run *r)
{
	const struct options *o = r->o;
	struct profile prof, base, *b = o->baseline ? &base : NULL;

	profile_load(&prof, r->profile);
	if (gmonrun_detect(&prof)) {	/* a process's gmon.out */
		if (o->interval > 0 && !o->info)	/* it will not change */
			fatalx("%s is a gmon.out: --interval watches a kernel "
			    "profile; a program writes its gmon.out once, when "
			    "it exits", prof.name);
		gmonrun_run(r, &prof);
		profile_close(&prof);
		run_finish(r->out, r->pprof);
		return;
	}
	profile_check(&prof);
	r->swapped = profile_setup(&prof, o->noauto);
	if (b)
		profile_subtract(&prof, b, o->baseline);
	if (r->swapped)
		warnx_("Assuming reversed byte order. Use -n to force native "
		    "byte order.");
	profile_warn_step(&prof);
	profile_warn_trailing(&prof);
	if (b) {
		profile_warn_trailing(b);
		profile_close(b);	/* subtracted: no longer needed */
	}
	if (o->info) {
		info_print(r, &prof);
		run_finish(r->out, r->pprof);
		profile_close(&prof);
	} else if (o->interval > 0)
		interval_run(r, &prof);
	else
		report_kernel(r, &prof);
}

static _Noreturn void
usage(struct out *out, const char *name)
{
	/* the name it runs by, at each %1$s */
	static const char text[] =
	    "\nUsage:\n"
	    " %1$s [options]\n"
	    "\n"
	    "Read the kernel's tick profile and attribute it to symbols.\n"
	    "\n"
	    "Options:\n"
	    " -m, --mapfile <mapfile>   symbol map (default: the first System.map found,\n"
	    "                           then /proc/kallsyms; see %1$s(8))\n"
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
	    "For more details see %1$s(8).\n";

	out_printf(out, text, name);
	run_finish(out, NULL);
	exit(0);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct run r;
	struct rights rt;
	struct kfiles k;
	struct dest d = { 0 };

	/* descriptors 0-2 closed by the caller would be taken by the next
	 * open: /dev/null, read-only, so that writes to them still fail */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) != fd)
			abort();
	kroot_drop_privileges(&rt);
	signal(SIGPIPE, SIG_IGN);
	out_init(&d.out, STDOUT_FILENO);
	fatal_hook_set(drop_output, &d);

	switch (options_parse(&o, argc, argv)) {
	case OPT_RUN:
		break;
	case OPT_HELP:
		usage(&d.out, o.name);
	case OPT_VERSION:
		/* "readprofile 1.0"; "NAME (readprofile) 1.0" run as NAME */
		out_printf(&d.out, strcmp(o.name, PROGNAME) ? "%s (" PROGNAME
		    ") %s\n" : "%s %s\n", o.name, RP_VERSION);
		run_finish(&d.out, NULL);
		return 0;
	case OPT_USAGE_ERROR:
		fprintf(stderr, "Try '%s --help' for more information.\n",
		    o.name);
		return 1;
	default:
		return 1;
	}
	kroot_files(&k, &rt);
	run_init(&r, &o, &k, &d.out, &d.pprof);
	if (o.reset || o.multiplier_set)
		kernel_write_profile(&k, o.multiplier_set ? &o.multiplier :
		    NULL);
	kroot_drop_privileges_for_good(&rt);
	if (o.enable) {		/* start the kernel's profiling, and say how */
		profiling_enable(&k, o.enable, &d.out);
		run_finish(&d.out, NULL);
		return 0;
	}
	export_prepare(&o, &d.pprof);
	if (r.live)
		kernel_profile_check(&k);
	report_profile(&r);
	return 0;
}
