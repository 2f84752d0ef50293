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

enum { OPT_EXACT = 256, OPT_BASELINE, OPT_TOP, OPT_INTERVAL, OPT_COUNT };

static char progname[] = PROGNAME;

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
	{ "exact",      no_argument,       NULL, OPT_EXACT },
	{ "baseline",   required_argument, NULL, OPT_BASELINE },
	{ "top",        required_argument, NULL, OPT_TOP },
	{ "json",       no_argument,       NULL, 'J' },
	{ "interval",   required_argument, NULL, OPT_INTERVAL },
	{ "count",      required_argument, NULL, OPT_COUNT },
	{ "version",    no_argument,       NULL, 'V' },
	{ "help",       no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Whether S is a number by the one rule of every option, util-linux's for
 * -M (strtol): blanks, at most one sign, then a digit; a minus sign is
 * a number only where NEG allows it.
 */
static int
number_starts(const char *s, int neg)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || (neg && *s == '-'))
		s++;
	return *s >= '0' && *s <= '9';
}

int
options_multiplier(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!number_starts(s, 1) || *end != '\0') {
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
	if (!number_starts(s, 0) || *end != '\0' || errno == ERANGE ||
	    *out == 0 || *out > max) {
		warnx_("%s: not a whole number from 1 to %llu: '%s'", opt, max,
		    s);
		return -1;
	}
	return 0;
}

/* Seconds: a decimal number from 0.001 to a day. */
static int
seconds(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (!number_starts(s, 0) || *end != '\0' || errno == ERANGE ||
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
	if (o->count && !o->interval)
		warnx_("--count needs --interval");
	else if (o->interval && o->baseline)
		warnx_("--interval and --baseline cannot be used together: "
		    "each interval is the baseline of the next");
	else if (o->interval && strcmp(o->profile, "-") == 0)
		warnx_("--interval reads the profile again: it cannot be "
		    "standard input");
	else if (o->interval && o->mapfile && strcmp(o->mapfile, "-") == 0)
		warnx_("--interval reads the map again: it cannot be "
		    "standard input");
	else
		return 0;
	return -1;
}

enum opt_result
options_parse(struct options *o, int argc, char **argv)
{
	unsigned long long v;
	int c;

	memset(o, 0, sizeof *o);
	o->profile = "/proc/profile";
	if (argc > 0)
		argv[0] = progname;	/* getopt's messages name the program */
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "m:p:M:ivabsrnJVh", longopts,
	    NULL)) != -1) {
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
		case OPT_TOP:
			if (positive("--top", optarg, SIZE_MAX / 2, &v) < 0)
				return OPT_BAD_VALUE;
			o->top = (size_t)v;
			break;
		case OPT_INTERVAL:
			if (seconds(optarg, &o->interval) < 0)
				return OPT_BAD_VALUE;
			break;
		case OPT_COUNT:
			if (positive("--count", optarg, ULONG_MAX, &v) < 0)
				return OPT_BAD_VALUE;
			o->count = (unsigned long)v;
			break;
		case 'V': return OPT_VERSION;
		case 'h': return OPT_HELP;
		default: return OPT_USAGE_ERROR;
		}
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
