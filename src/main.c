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
#include <sys/utsname.h>
#include <unistd.h>

#include "mapfile.h"
#include "options.h"
#include "output.h"
#include "profile.h"
#include "report.h"
#include "util.h"

#ifndef PROC_PROFILE
#define PROC_PROFILE "/proc/profile"
#endif
#define PROC_KALLSYMS "/proc/kallsyms"
#define BOOT_MAP "/boot/System.map"

static struct out out;
static uid_t saved_euid;
static int setuid_install;

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

/* Set-user-ID: run as the caller; keep the right to come back once. */
static void
drop_privileges(void)
{
	saved_euid = geteuid();
	setuid_install = saved_euid != getuid();
	if (setegid(getgid()) < 0 || seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
}

/* Nothing left that needs the installed rights: give them up for good. */
static void
drop_privileges_for_good(void)
{
	gid_t g = getgid();
	uid_t u = getuid();

	if (setuid_install &&
	    (setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0))
		fatal("cannot drop privileges");
}

/* -r / -M: write to /proc/profile, with the installed rights for open only. */
static _Noreturn void
write_proc_profile(const struct options *o)
{
	int fd, e;
	ssize_t r;
	char byte = 0;

	if (setuid_install && seteuid(saved_euid) < 0)
		fatal("cannot regain privileges");
	fd = open(PROC_PROFILE, O_WRONLY | O_CLOEXEC);
	e = errno;
	if (setuid_install && seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
	drop_privileges_for_good();
	errno = e;
	if (fd < 0)
		fatal("%s", PROC_PROFILE);
	if (o->multiplier_set)
		r = write(fd, &o->multiplier, sizeof o->multiplier);
	else
		r = write(fd, &byte, 1);
	if (r < 0)
		fatal("error writing %s", PROC_PROFILE);
	if (close(fd) < 0)
		fatal("error writing %s", PROC_PROFILE);
	exit(0);
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
	struct map m;
	struct report_result res;
	int n;

	n = snprintf(line, sizeof line, "Counters: %llu\nText_bytes: %llu\n"
	    "Byte_order: %s (%s)\n", (unsigned long long)counters,
	    (unsigned long long)(counters * p->step), byte_order_name(swapped),
	    o->noauto ? "native, -n" : swapped ? "reversed" : "native");
	out_str(&out, line, (size_t)n);
	if (o->mapfile == NULL)
		return;
	if (map_open(&m, o->mapfile) < 0)
		fatal("%s", o->mapfile);
	report_text_bounds(&m, &res);
	map_close(&m);
	if (!res.have_etext)
		n = snprintf(line, sizeof line, "Map: %s has no _etext\n",
		    o->mapfile);
	else if (p->step && (res.etext - res.origin) / p->step == counters)
		n = snprintf(line, sizeof line, "Map: %s matches\n", o->mapfile);
	else
		n = snprintf(line, sizeof line, "Map: %s does not match "
		    "(_etext - _stext is %llu bytes, %llu counters; profile has "
		    "%llu)\n", o->mapfile,
		    (unsigned long long)(res.etext - res.origin),
		    (unsigned long long)(p->step ?
		    (res.etext - res.origin) / p->step : 0),
		    (unsigned long long)counters);
	out_str(&out, line, (size_t)n);
}

/*
 * Whether NAME can be used as the map: 1 when it holds a non-zero _stext,
 * 0 when it opens but does not (*hidden: its _stext reads as 0, as
 * /proc/kallsyms does when addresses are hidden), -1 with errno set when
 * it cannot be opened.
 */
static int
probe_map(const char *name, int *hidden)
{
	struct map m;
	struct sym s;
	int found;

	if (map_open(&m, name) < 0)
		return -1;
	found = report_find_stext(&m, &s);
	map_close(&m);
	*hidden = found && s.addr == 0;
	return found && s.addr != 0;
}

/*
 * No -m: /boot/System.map, /boot/System.map-$(uname -r), then
 * /proc/kallsyms.  Errors name the last System.map tried.
 */
static const char *
default_map(void)
{
	static char versioned[sizeof BOOT_MAP + sizeof(((struct utsname *)0)->release) + 1];
	const char *cand[2] = { BOOT_MAP, NULL }, *last = BOOT_MAP;
	struct utsname u;
	int r = -1, e = ENOENT, hidden;

	if (uname(&u) == 0) {
		snprintf(versioned, sizeof versioned, "%s-%s", BOOT_MAP,
		    u.release);
		cand[1] = versioned;
	}
	for (int i = 0; i < 2 && cand[i] != NULL; i++) {
		last = cand[i];
		r = probe_map(last, &hidden);
		if (r > 0)
			return last;
		e = errno;
	}
	if (probe_map(PROC_KALLSYMS, &hidden) > 0) {
		warnx_("using %s: no _stext in %s or %s", PROC_KALLSYMS,
		    BOOT_MAP, last);
		return PROC_KALLSYMS;
	}
	if (hidden)
		fatalx("%s: symbol addresses are hidden (all zero, "
		    "kernel.kptr_restrict); run as root, or allow them with: "
		    "sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1",
		    PROC_KALLSYMS);
	if (r == 0)
		fatalx("can't find \"_stext\" in %s", last);
	errno = e;
	fatal("%s", last);
}

static void
warn_mismatch(const struct options *o, const char *map,
    const struct profile *p, const struct report_result *res)
{
	uint64_t bytes = res->etext - res->origin, counters;

	if (!res->have_etext || p->step == 0 || res->etext < res->origin)
		return;
	counters = bytes / p->step;
	if (counters == p->nwords - 1)
		return;
	warnx_("warning: %s does not match %s: _etext - _stext is %llu bytes, "
	    "%llu counters at step %u, but the profile has %llu counters",
	    map, o->profile, (unsigned long long)bytes,
	    (unsigned long long)counters, p->step,
	    (unsigned long long)(p->nwords - 1));
}

int
main(int argc, char **argv)
{
	struct options o;
	struct profile prof, base;
	struct map m;
	struct report_opts ro;
	struct report_result res;
	struct counters c;
	const char *mapname;
	char line[64];
	int swapped, n;

	sanitize_stdio();
	drop_privileges();
	signal(SIGPIPE, SIG_IGN);
	out_init(&out, STDOUT_FILENO);
	fatal_hook = drop_output;

	switch (options_parse(&o, argc, argv)) {
	case OPT_RUN:
		break;
	case OPT_HELP:
		usage();
	case OPT_VERSION:
		out_str(&out, PROGNAME " from readprofile " RP_VERSION "\n",
		    strlen(PROGNAME " from readprofile " RP_VERSION "\n"));
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
		write_proc_profile(&o);
	drop_privileges_for_good();

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

	mapname = o.mapfile ? o.mapfile : default_map();
	if (map_open(&m, mapname) < 0)
		fatal("%s", mapname);
	ro.verbose = o.verbose;
	ro.all = o.all;
	ro.bins = o.bins;
	ro.counters = o.counters;
	ro.mode = o.exact ? ATTRIB_EXACT : ATTRIB_CLASSIC;
	c = profile_counters(&prof);
	report_run(&m, &c, prof.step, &ro, &out, &res);
	map_close(&m);
	finish_output();
	warn_mismatch(&o, mapname, &prof, &res);
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
