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

#include "fit.h"
#include "kernel.h"
#include "options.h"
#include "output.h"
#include "profile.h"
#include "report.h"
#include "sniff.h"
#include "step.h"
#include "symsrc.h"
#include "util.h"

static struct out out;

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

int
main(int argc, char **argv)
{
	struct options o;
	struct profile prof, base;
	struct symsrc m;
	struct report_opts ro;
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
	profile_open(&prof, o.profile);
	if (o.baseline)
		profile_open(&base, o.baseline);
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
	ro.verbose = o.verbose;
	ro.all = o.all;
	ro.bins = o.bins;
	ro.counters = o.counters;
	ro.mode = o.exact ? ATTRIB_EXACT : ATTRIB_CLASSIC;
	ro.default_map = o.mapfile == NULL;
	c = profile_counters(&prof);
	report_run(&m, &c, prof.step, &ro, &out, &res);
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
