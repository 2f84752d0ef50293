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
	if (symsrc_open(&m, mapname) < 0)
		fatal("%s", mapname);
	ro.verbose = o.verbose;
	ro.all = o.all;
	ro.bins = o.bins;
	ro.counters = o.counters;
	ro.mode = o.exact ? ATTRIB_EXACT : ATTRIB_CLASSIC;
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
