/*
 * options.h - the command line, parsed into struct options (core/run.h).
 */
#ifndef RP_OPTIONS_H
#define RP_OPTIONS_H

#include <stddef.h>

#include "core/run.h"

enum opt_result {
	OPT_RUN,		/* go on */
	OPT_HELP,		/* -h seen */
	OPT_VERSION,		/* -V seen */
	OPT_USAGE_ERROR,	/* message printed; "Try ..." still to print */
	OPT_BAD_MULTIPLIER,	/* message printed */
	OPT_BAD_VALUE,		/* message printed (--top, --interval, ...) */
	OPT_CONFLICT,		/* message printed: stdin given twice */
};

/* Parse ARGV into O.  A prefix util-linux 2.38 takes for one of its long
 * options means it here too (--p is --profile, not ambiguous with --pprof). */
enum opt_result options_parse(struct options *o, int argc, char **argv);

/* Options that do not go together, said on stderr (-i with --baseline: a
 * warning): stdin twice, OPT_CONFLICT; any other, OPT_BAD_VALUE. */
enum opt_result options_check(const struct options *o);

/* The name ARGV0 runs the program by (its last part), for the usage
 * lines; "readprofile" when it is not one make install could give. */
const char *options_name(const char *argv0);

/* Whether S is a number by the rule of every option (man page, NUMBERS):
 * blanks, at most one sign (minus only with NEG, for -M), decimal digits, a
 * point and more only with FRAC (--interval), nothing else: no hexadecimal,
 * octal (010 is ten), exponent, inf or nan. */
int options_number(const char *s, int neg, int frac);

/* A multiplier that fits an int; returns 0, or -1 with a message printed. */
int options_multiplier(const char *s, int *out);

#endif
