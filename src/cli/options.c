/*
 * options.c - parsing the command line, util-linux's spelling.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "base/util.h"

enum { OPT_EXACT = 256, OPT_BASELINE, OPT_TOP, OPT_INTERVAL, OPT_ITERATIONS,
    OPT_PPROF, OPT_FOLDED, OPT_NO_DEMANGLE, OPT_HZ, OPT_ENABLE };

static const char shortopts[] = "m:p:M:ivabsrnJVh";

/* Ours, then util-linux 2.38's.  One of ours could make an abbreviation of
 * util-linux's ambiguous (--co: --counters or --count?) or take it, so a
 * --word beginning a util-linux name is resolved among the table's last
 * N_UTIL_LINUX alone (man page, ABBREVIATIONS). */
#define N_UTIL_LINUX 12	/* a new option goes before them */
static const struct option longopts[] = {
	{ "exact",      no_argument,       NULL, OPT_EXACT },
	{ "baseline",   required_argument, NULL, OPT_BASELINE },
	{ "top",        required_argument, NULL, OPT_TOP },
	{ "json",       no_argument,       NULL, 'J' },
	{ "interval",   required_argument, NULL, OPT_INTERVAL },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "pprof",      required_argument, NULL, OPT_PPROF },
	{ "folded",     no_argument,       NULL, OPT_FOLDED },
	{ "no-demangle", no_argument,      NULL, OPT_NO_DEMANGLE },
	{ "hz",         required_argument, NULL, OPT_HZ },
	{ "enable",     optional_argument, NULL, OPT_ENABLE },
	/* util-linux's */
	{ "mapfile",    required_argument, NULL, 'm' },
	{ "profile",    required_argument, NULL, 'p' },
	{ "multiplier", required_argument, NULL, 'M' },
	{ "info",       no_argument,       NULL, 'i' },
	{ "verbose",    no_argument,       NULL, 'v' },
	{ "all",        no_argument,       NULL, 'a' },
	{ "histbin",    no_argument,       NULL, 'b' },
	{ "counters",   no_argument,       NULL, 's' },
	{ "reset",      no_argument,       NULL, 'r' },
	{ "no-auto",    no_argument,       NULL, 'n' },
	{ "version",    no_argument,       NULL, 'V' },
	{ "help",       no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const struct option *const util_linux = longopts +
    sizeof longopts / sizeof longopts[0] - 1 - N_UTIL_LINUX;

/* util-linux's rule for -M (strtol, base 10); checked before strtoull and
 * strtod, which take more (a minus sign, hexadecimal, exponents, inf). */
int
options_number(const char *s, int neg, int frac)
{
	const char *d;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || (neg && *s == '-'))
		s++;
	d = s;
	while (*s >= '0' && *s <= '9')
		s++;
	if (s == d)
		return 0;
	if (frac && *s == '.') {
		d = ++s;
		while (*s >= '0' && *s <= '9')
			s++;
		if (s == d)
			return 0;
	}
	return *s == '\0';
}

/* The long options for the next option getopt_long takes (past the
 * operands it skips): util-linux's alone for a --word beginning one. */
static const struct option *
table_for(int argc, char **argv)
{
	int i = optind > 0 ? optind : 1;
	const char *name;
	size_t len;

	while (i < argc && (argv[i][0] != '-' || argv[i][1] == '\0'))
		i++;
	if (i >= argc || strncmp(argv[i], "--", 2) != 0 || argv[i][2] == '\0')
		return longopts;
	name = argv[i] + 2;
	len = strcspn(name, "=");
	for (int k = 0; k < N_UTIL_LINUX; k++)
		if (strncmp(util_linux[k].name, name, len) == 0)
			return util_linux;
	return longopts;
}

const char *
options_name(const char *argv0)
{
	const char *s;

	if (argv0 == NULL)
		return PROGNAME;
	s = strrchr(argv0, '/');
	s = s ? s + 1 : argv0;
	/* a name make install could have given it, else ours */
	if (*s == '\0' || strlen(s) > 64 ||
	    s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._+-")] != '\0')
		return PROGNAME;
	return s;
}

int
options_multiplier(const char *s, int *out)
{
	long v;

	errno = 0;
	v = strtol(s, NULL, 10);	/* all of S, when it is a number */
	if (!options_number(s, 1, 0)) {
		warnx_("failed to parse multiplier: '%s'", s);
		return -1;
	}
	if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		warnx_("failed to parse multiplier: '%s': %s", s,
		    strerror(ERANGE));
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* A whole number in [1, MAX]; returns 0, or -1 with a message printed. */
static int
positive(const char *opt, const char *s, unsigned long long max,
    unsigned long long *out)
{
	errno = 0;
	*out = strtoull(s, NULL, 10);	/* all of S, when it is a number */
	if (!options_number(s, 0, 0) || errno == ERANGE || *out == 0 ||
	    *out > max) {
		warnx_("%s: not a whole number from 1 to %llu: '%s'", opt, max,
		    s);
		return -1;
	}
	return 0;
}

/* Seconds: a decimal number from 0.001 to a day, a fraction allowed; the
 * rule checked first: strtod alone takes hexadecimal and exponents. */
static int
seconds(const char *s, double *out)
{
	errno = 0;
	*out = options_number(s, 0, 1) ? strtod(s, NULL) : 0;
	if (errno == ERANGE || !(*out >= 0.001 && *out <= 86400)) {
		warnx_("--interval: not a number of seconds from 0.001 to "
		    "86400: '%s'", s);
		return -1;
	}
	return 0;
}

enum opt_result
options_parse(struct options *o, int argc, char **argv)
{
	unsigned long long v;
	char *name;
	int c;

	*o = (struct options){ .profile = "/proc/profile", .argc = argc,
	    .argv = argv, .name = options_name(argc > 0 ? argv[0] : NULL) };
	name = prog_name_set(o->name);	/* every message's, getopt's too */
	if (argc > 0)
		argv[0] = name;
	optind = 0;		/* glibc and musl: start afresh (no old cluster) */
	opterr = 1;
	while ((c = getopt_long(argc, argv, shortopts,
	    table_for(argc, argv), NULL)) != -1) {
		switch (c) {
		case 'm': o->mapfile = optarg; break;
		case 'p': o->profile = optarg; break;
		case 'M':
			if (options_multiplier(optarg, &o->multiplier) < 0)
				return OPT_BAD_MULTIPLIER;
			o->multiplier_set = 1;
			break;
		case 'i': o->info = 1; break;
		case 'v': o->verbose = 1; break;
		case 'a': o->all = 1; break;
		case 'b': o->bins = 1; break;
		case 's': o->counters = 1; break;
		case 'r': o->reset = 1; break;
		case 'n': o->noauto = 1; break;
		case OPT_EXACT: o->exact = 1; break;
		case OPT_BASELINE: o->baseline = optarg; break;
		case 'J': o->json = 1; break;
		case OPT_ENABLE: o->enable = optarg ? optarg : "2"; break;
		case OPT_TOP:
			if (positive("--top", optarg, SIZE_MAX / 2, &v) < 0)
				return OPT_BAD_VALUE;
			o->top = (size_t)v;
			break;
		case OPT_INTERVAL:
			if (seconds(optarg, &o->interval) < 0)
				return OPT_BAD_VALUE;
			break;
		case OPT_ITERATIONS:
			if (positive("--iterations", optarg, ULONG_MAX, &v) < 0)
				return OPT_BAD_VALUE;
			o->iterations = (unsigned long)v;
			break;
		case OPT_PPROF: o->pprof = optarg; break;
		case OPT_FOLDED: o->folded = 1; break;
		case OPT_NO_DEMANGLE: o->no_demangle = 1; break;
		case OPT_HZ:
			if (positive("--hz", optarg, 1000000000, &v) < 0)
				return OPT_BAD_VALUE;
			o->hz = (unsigned long)v;
			break;
		case 'V': return OPT_VERSION;
		case 'h': return OPT_HELP;
		default: return OPT_USAGE_ERROR;
		}
	}
	return options_check(o);
}

/* Whether two inputs are standard input: 1 with the message printed. */
static int
stdin_twice(const char *a, const char *an, const char *b, const char *bn)
{
	if (a == NULL || b == NULL || strcmp(a, "-") || strcmp(b, "-"))
		return 0;
	warnx_("standard input used twice (%s - and %s -)", an, bn);
	return 1;
}

enum opt_result
options_check(const struct options *o)
{
	if (o->iterations && !o->interval)
		warnx_("--iterations needs --interval");
	else if (o->interval && o->baseline)
		warnx_("--interval and --baseline cannot be used together: "
		    "each interval is the baseline of the next");
	else if (o->interval && strcmp(o->profile, "-") == 0)
		warnx_("--interval reads the profile again: it cannot be "
		    "standard input");
	else if (o->interval && o->mapfile && strcmp(o->mapfile, "-") == 0)
		warnx_("--interval reads the map again: it cannot be "
		    "standard input");
	else if ((o->pprof || o->folded) && (o->interval || o->info ||
	    o->json || o->top || (o->pprof && o->folded)))
		warnx_("%s replaces the report: it cannot be used with %s",
		    o->pprof ? "--pprof" : "--folded", o->interval ?
		    "--interval" : o->info ? "-i" : o->json ? "--json" :
		    o->top ? "--top" : "--folded");
	else if (stdin_twice(o->profile, "-p", o->baseline, "--baseline") ||
	    stdin_twice(o->profile, "-p", o->mapfile, "-m") ||
	    stdin_twice(o->mapfile, "-m", o->baseline, "--baseline"))
		return OPT_CONFLICT;
	else {
		if (o->info && o->baseline)
			warnx_("warning: -i prints the profile's step only: "
			    "--baseline is not used");
		return OPT_RUN;
	}
	return OPT_BAD_VALUE;
}
