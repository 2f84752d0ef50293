/*
 * options.c - parsing the command line, util-linux's spelling.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "base/util.h"

enum { OPT_EXACT = 256, OPT_BASELINE, OPT_TOP, OPT_INTERVAL, OPT_ITERATIONS,
    OPT_PPROF, OPT_FOLDED, OPT_NO_DEMANGLE, OPT_HZ, OPT_ENABLE };

static char progname[] = PROGNAME;

/* The short options; a letter followed by ':' takes an argument. */
static const char shortopts[] = "m:p:M:ivabsrnJVh";

/*
 * util-linux 2.38's long options first, then ours.  getopt_long takes any
 * unique prefix, so an option of ours could make one of util-linux's
 * abbreviations ambiguous (--co: --counters or --count?) or take it.  So
 * before getopt_long sees the command line, every --word that begins one
 * of util-linux's names is resolved among util-linux's names only, as
 * util-linux resolves it, and written out in full; ours are reached by
 * their own name or a prefix that begins no util-linux name (man page,
 * ABBREVIATIONS).
 */
#define N_UTIL_LINUX 12	/* the first 12; a new option goes after them */
static const struct option longopts[] = {
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
	/* ours */
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
	{ NULL, 0, NULL, 0 }
};

/*
 * The one rule is util-linux's for -M (strtol, base 10), stated in
 * options.h; checked before strtoull and strtod, which take more (a minus
 * sign, hexadecimal, exponents, inf).
 */
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

/* util-linux's options alone: its messages about them (ambiguity). */
static struct option util_linux_opts[N_UTIL_LINUX + 1];

/* The option of FROM..TO that NAME (LEN bytes) names: its index, -1 for
 * none, -2 when it begins several and names none whole. */
static int
match(const char *name, size_t len, int from, int to)
{
	int found = -1;

	for (int i = from; i < to; i++) {
		if (strncmp(longopts[i].name, name, len) != 0)
			continue;
		if (longopts[i].name[len] == '\0')
			return i;
		found = found == -1 ? i : -2;
	}
	return found;
}

/* The rewritten arguments of the last parse (freed by the next one). */
static char *spelled[64];
static size_t nspelled;

/* "--" NAME, then the rest of ARG from its '=' (if any). */
static char *
spell_out(const char *name, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = strlen(name), m = eq ? strlen(eq) : 0;
	char *s;

	if (nspelled == sizeof spelled / sizeof spelled[0] ||
	    (s = malloc(n + m + 3)) == NULL)
		return NULL;
	memcpy(s, "--", 2);
	memcpy(s + 2, name, n);
	memcpy(s + 2 + n, eq ? eq : "", m + 1);
	spelled[nspelled++] = s;
	return s;
}

/*
 * Write out in full each long option of ARGV that begins a util-linux
 * name, walking it as getopt_long will (option arguments are skipped).
 * Returns the index of the first one that is ambiguous among util-linux's
 * names (ARGC when none); the walk stops there, or where getopt_long will
 * stop with an error of its own.
 */
static int
resolve(int argc, char **argv)
{
	int posix = getenv("POSIXLY_CORRECT") != NULL;

	while (nspelled)
		free(spelled[--nspelled]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *p, *name;
		size_t len;
		int k;
		char *s;

		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0') {	/* an operand */
			if (posix)
				break;
			continue;
		}
		if (a[1] != '-') {	/* short options; the last may take one */
			for (p = a + 1; *p; p++)
				if ((name = strchr(shortopts, *p)) != NULL &&
				    name[1] == ':') {
					i += p[1] == '\0';
					break;
				}
			continue;
		}
		name = a + 2;
		len = strcspn(name, "=");
		k = match(name, len, 0, N_UTIL_LINUX);
		if (k == -2)
			return i;
		if (k >= 0 && longopts[k].name[len] != '\0') {
			if ((s = spell_out(longopts[k].name, a)) == NULL)
				return argc;	/* getopt_long decides */
			argv[i] = s;
		}
		if (k == -1)
			k = match(name, len, N_UTIL_LINUX,
			    (int)(sizeof longopts / sizeof longopts[0]) - 1);
		if (k < 0)
			break;		/* getopt_long's error */
		if (longopts[k].has_arg == required_argument &&
		    name[len] != '=')
			i++;
	}
	return argc;
}

/* getopt_long's message for the ambiguous ARG, util-linux's names only. */
static void
ambiguous(char *name, char *arg)
{
	char *argv[] = { name, arg, NULL };

	memcpy(util_linux_opts, longopts, N_UTIL_LINUX * sizeof longopts[0]);
	optind = 0;		/* glibc: start afresh */
	opterr = 1;
	getopt_long(2, argv, shortopts, util_linux_opts, NULL);
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
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!options_number(s, 1, 0) || *end != '\0') {
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
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	if (!options_number(s, 0, 0) || *end != '\0' || errno == ERANGE ||
	    *out == 0 || *out > max) {
		warnx_("%s: not a whole number from 1 to %llu: '%s'", opt, max,
		    s);
		return -1;
	}
	return 0;
}

/*
 * Seconds: a decimal number from 0.001 to a day, a fraction allowed.  The
 * rule is checked first: strtod alone takes hexadecimal and exponents.
 */
static int
seconds(const char *s, double *out)
{
	char *end = NULL;

	errno = 0;
	*out = options_number(s, 0, 1) ? strtod(s, &end) : 0;
	if (end == NULL || *end != '\0' || errno == ERANGE ||
	    !(*out >= 0.001 && *out <= 86400)) {
		warnx_("--interval: not a number of seconds from 0.001 to "
		    "86400: '%s'", s);
		return -1;
	}
	return 0;
}

/* Combinations that make no sense; returns 0, or -1 with a message. */
static int
check(const struct options *o)
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
	else
		return 0;
	return -1;
}

enum opt_result
options_parse(struct options *o, int argc, char **argv)
{
	unsigned long long v;
	int c, end;

	memset(o, 0, sizeof *o);
	o->profile = "/proc/profile";
	o->name = options_name(argc > 0 ? argv[0] : NULL);
	if (argc > 0)
		argv[0] = progname;	/* getopt's messages name the program */
	end = resolve(argc, argv);
	optind = 0;		/* glibc and musl: start afresh (no old cluster) */
	opterr = 1;
	/* up to an ambiguous one: what comes first is reported first */
	while ((c = getopt_long(end, argv, shortopts, longopts, NULL)) != -1) {
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
	if (end < argc) {
		ambiguous(progname, argv[end]);
		return OPT_USAGE_ERROR;
	}
	if (check(o) < 0)
		return OPT_BAD_VALUE;
	return options_check(o);
}

/* Whether two inputs are standard input; -1 with the message printed. */
static int
stdin_twice(const char *a, const char *an, const char *b, const char *bn)
{
	if (a == NULL || b == NULL || strcmp(a, "-") || strcmp(b, "-"))
		return 0;
	warnx_("standard input used twice (%s - and %s -)", an, bn);
	return -1;
}

enum opt_result
options_check(const struct options *o)
{
	if (stdin_twice(o->profile, "-p", o->baseline, "--baseline") < 0 ||
	    stdin_twice(o->profile, "-p", o->mapfile, "-m") < 0 ||
	    stdin_twice(o->mapfile, "-m", o->baseline, "--baseline") < 0)
		return OPT_CONFLICT;
	if (o->info && o->baseline)
		warnx_("warning: -i prints the profile's step only: --baseline "
		    "is not used");
	return OPT_RUN;
}
