/*
 * test_options.c - the command line, short and long, as util-linux spells it.
 */
#include "unit.h"
#include "base/util.h"
#include "cli/options.h"

/* "NAME: REST": a message as the program, named as it runs, writes it. */
static const char *
msg_of(const char *rest)
{
	static char buf[256];

	snprintf(buf, sizeof buf, "%s: %s", prog_name(), rest);
	return buf;
}

static void
defaults(void **state)
{
	struct options o;
	char *argv[] = { "x", NULL };

	(void)state;
	assert_int_equal(options_parse(&o, 1, argv), OPT_RUN);
	assert_string_equal(o.profile, "/proc/profile");
	assert_null(o.mapfile);
	assert_null(o.baseline);
	assert_false(o.info || o.verbose || o.all || o.bins || o.counters ||
	    o.reset || o.noauto || o.exact || o.multiplier_set);
}

static void
short_options(void **state)
{
	struct options o;
	char *argv[] = { "x", "-m", "map", "-p", "prof", "-ivabsn", NULL };

	(void)state;
	assert_int_equal(options_parse(&o, 6, argv), OPT_RUN);
	assert_string_equal(o.mapfile, "map");
	assert_string_equal(o.profile, "prof");
	assert_true(o.info && o.verbose && o.all && o.bins && o.counters &&
	    o.noauto);
	assert_false(o.reset);
}

static void
long_options(void **state)
{
	struct options o;
	char *argv[] = { "x", "--mapfile=map", "--profile", "prof", "--info",
	    "--verbose", "--all", "--histbin", "--counters", "--reset",
	    "--no-auto", "--exact", "--baseline", "before", "--multiplier",
	    "-7", NULL };

	struct caught c;
	char *err;

	(void)state;
	c = stderr_catch();
	assert_int_equal(options_parse(&o, 16, argv), OPT_RUN);
	err = stderr_caught(c);
	assert_string_equal(err, msg_of("warning: -i prints the "
	    "profile's step only: --baseline is not used\n"));
	free(err);
	assert_string_equal(o.mapfile, "map");
	assert_string_equal(o.profile, "prof");
	assert_string_equal(o.baseline, "before");
	assert_true(o.info && o.verbose && o.all && o.bins && o.counters &&
	    o.reset && o.noauto && o.exact);
	assert_true(o.multiplier_set);
	assert_int_equal(o.multiplier, -7);
}

static void
help_version_and_errors(void **state)
{
	struct options o;
	char *h[] = { "x", "-h", NULL }, *v[] = { "x", "--version", NULL };
	char *bad[] = { "/usr/sbin/rp-x", "-x", NULL };
	char *miss[] = { "x", "-m", NULL };
	char *longbad[] = { "x", "--bogus", NULL };
	char *amb[] = { "x", "--m", "y", NULL };
	char *arg[] = { "x", "--all=3", NULL };
	struct caught c;
	char *err;

	(void)state;
	assert_int_equal(options_parse(&o, 2, h), OPT_HELP);
	assert_int_equal(options_parse(&o, 2, v), OPT_VERSION);
	/* getopt's messages, in the C library's words: one line each, the
	 * first naming rp-x */
	c = stderr_catch();
	assert_int_equal(options_parse(&o, 2, bad), OPT_USAGE_ERROR);
	/* getopt names the program by argv[0]'s last part, as every message */
	assert_string_equal(bad[0], "rp-x");
	assert_int_equal(options_parse(&o, 2, miss), OPT_USAGE_ERROR);
	assert_int_equal(options_parse(&o, 2, longbad), OPT_USAGE_ERROR);
	assert_int_equal(options_parse(&o, 3, amb), OPT_USAGE_ERROR);
	assert_int_equal(options_parse(&o, 2, arg), OPT_USAGE_ERROR);
	err = stderr_caught(c);
	assert_int_equal(lines_begin(err, ""), 5);
	assert_int_equal(strncmp(err, "rp-x: ", 6), 0);
	free(err);
}

/* Parse ARGV (NULL-terminated) with stderr caught in MSG; with ARGV NULL,
 * run options_check on O instead. */
static enum opt_result
parse_msg(struct options *o, char **argv, char *msg, size_t n)
{
	FILE *f = tmpfile();
	int saved = dup(2), argc = 0;
	enum opt_result r;
	size_t got;

	while (argv && argv[argc])
		argc++;
	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	r = argv ? options_parse(o, argc, argv) : options_check(o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	got = fread(msg, 1, n - 1, f);
	msg[got] = '\0';
	fclose(f);
	return r;
}

/* Inputs given twice as standard input, and -i with --baseline. */
static void
conflicts(void **state)
{
	static const struct {
		const char *profile, *baseline, *mapfile;
		int info;
		enum opt_result r;
		const char *msg;	/* after "rp: " */
	} cases[] = {
		{ "-", "-", NULL, 0, OPT_CONFLICT,
		    "standard input used twice (-p - and --baseline -)\n" },
		{ "-", "base", "-", 0, OPT_CONFLICT,
		    "standard input used twice (-p - and -m -)\n" },
		{ "p", "-", "-", 0, OPT_CONFLICT,
		    "standard input used twice (-m - and --baseline -)\n" },
		{ "p", "-", "m", 0, OPT_RUN, NULL },
		{ "p", "-", "m", 1, OPT_RUN, "warning: -i prints the profile's "
		    "step only: --baseline is not used\n" },
		{ "p", NULL, "m", 1, OPT_RUN, NULL },
	};
	struct options o;
	char msg[256], want[256];

	(void)state;
	prog_name_set("rp");	/* every message starts with the name */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&o, 0, sizeof o);
		o.profile = cases[i].profile;
		o.baseline = cases[i].baseline;
		o.mapfile = cases[i].mapfile;
		o.info = cases[i].info;
		assert_int_equal(parse_msg(&o, NULL, msg, sizeof msg),
		    cases[i].r);
		snprintf(want, sizeof want, "%s%s", cases[i].msg ?
		    "rp: " : "", cases[i].msg ? cases[i].msg : "");
		assert_string_equal(msg, want);
	}
}

static void
multipliers(void **state)
{
	static const struct {
		const char *s;
		int r, m;
	} cases[] = { { "2", 0, 2 }, { " 5", 0, 5 },
	    { "2147483647", 0, 2147483647 }, { "-2147483648", 0, -2147483647 - 1 },
	    { "2147483648", -1, 0 },
	    { "99999999999999999999999", -1, 0 }, { "abc", -1, 0 },
	    { "5x", -1, 0 }, { "0x10", -1, 0 }, { "", -1, 0 } };
	int m;
	char want[128], *err;
	struct caught c;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		m = 0;
		c = stderr_catch();
		assert_int_equal(options_multiplier(cases[i].s, &m),
		    cases[i].r);
		err = stderr_caught(c);
		assert_int_equal(m, cases[i].m);
		/* a refused one named, and why when strtol says (ERANGE) */
		snprintf(want, sizeof want, "%s: failed to parse "
		    "multiplier: '%s'", prog_name(), cases[i].s);
		if (cases[i].r == 0)
			assert_string_equal(err, "");
		else
			assert_int_equal(strncmp(err, want, strlen(want)), 0);
		free(err);
	}
}

/*
 * util-linux 2.38's long options, as its readprofile.c declares them:
 * name, short option, whether it takes an argument.  Every prefix
 * getopt_long resolves among these (the whole name, or a prefix no other
 * of them begins) must parse here as the short option does; a prefix that
 * begins several must fail as there, naming only these.
 */
static const struct { const char *name; char c; int arg; } util_linux[] = {
	{ "mapfile", 'm', 1 }, { "profile", 'p', 1 }, { "multiplier", 'M', 1 },
	{ "info", 'i', 0 }, { "verbose", 'v', 0 }, { "all", 'a', 0 },
	{ "histbin", 'b', 0 }, { "counters", 's', 0 }, { "reset", 'r', 0 },
	{ "no-auto", 'n', 0 }, { "version", 'V', 0 }, { "help", 'h', 0 },
};
#define N_UL (sizeof util_linux / sizeof util_linux[0])

/* How many of util-linux's names begin with P (LEN bytes); *EXACT: one is P. */
static size_t
ul_begin(const char *p, size_t len, int *exact)
{
	size_t n = 0;

	*exact = 0;
	for (size_t i = 0; i < N_UL; i++)
		if (strncmp(util_linux[i].name, p, len) == 0) {
			n++;
			*exact |= util_linux[i].name[len] == '\0';
		}
	return n;
}

static void
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void
same_options(const struct options *a, const struct options *b)
{
	same_str(a->mapfile, b->mapfile);
	same_str(a->profile, b->profile);
	same_str(a->baseline, b->baseline);
	assert_int_equal(a->info, b->info);
	assert_int_equal(a->verbose, b->verbose);
	assert_int_equal(a->all, b->all);
	assert_int_equal(a->bins, b->bins);
	assert_int_equal(a->counters, b->counters);
	assert_int_equal(a->reset, b->reset);
	assert_int_equal(a->noauto, b->noauto);
	assert_int_equal(a->exact, b->exact);
	assert_int_equal(a->multiplier_set, b->multiplier_set);
	assert_int_equal(a->multiplier, b->multiplier);
	assert_int_equal(a->top, b->top);
	assert_int_equal(a->json, b->json);
	assert_true(a->interval == b->interval);
	assert_int_equal(a->iterations, b->iterations);
}

static void
util_linux_abbreviations(void **state)
{
	char arg[] = "7", lng[64], eq[64], shrt[3] = "-?", msg[512];
	struct options a, b;
	size_t resolved = 0, ambiguous = 0;

	(void)state;
	for (size_t i = 0; i < N_UL; i++) {
		const char *name = util_linux[i].name;

		for (size_t len = 1; name[len - 1]; len++) {
			int exact;
			size_t n = ul_begin(name, len, &exact);
			char *l[] = { "x", lng, util_linux[i].arg ? arg : NULL,
			    NULL };
			char *e[] = { "x", eq, NULL };
			char *s[] = { "x", shrt, util_linux[i].arg ? arg : NULL,
			    NULL };
			enum opt_result rl, rs;
			const char *q;

			snprintf(lng, sizeof lng, "--%.*s", (int)len, name);
			shrt[1] = util_linux[i].c;
			rs = parse_msg(&b, s, msg, sizeof msg);
			rl = parse_msg(&a, l, msg, sizeof msg);
			if (n > 1 && !exact) {	/* util-linux: ambiguous */
				ambiguous++;
				assert_int_equal(rl, OPT_USAGE_ERROR);
				assert_non_null(strstr(msg, "ambiguous"));
				/* the candidates (glibc lists them) are
				 * util-linux's alone */
				q = strstr(msg, "possibilities:");
				for (; q && (q = strstr(q, "'--")) != NULL;
				    q += 3) {
					size_t k = strcspn(q + 3, "'");
					int ex;

					assert_int_equal(ul_begin(q + 3, k, &ex), 1);
					assert_true(ex);
				}
				continue;
			}
			resolved++;
			if (rl != rs)
				fail_msg("%s: %d, %s: %d", lng, rl, shrt, rs);
			if (rs == OPT_RUN)
				same_options(&a, &b);
			if (!util_linux[i].arg)
				continue;
			snprintf(eq, sizeof eq, "--%.*s=7", (int)len, name);
			assert_int_equal(parse_msg(&a, e, msg, sizeof msg), rs);
			if (rs == OPT_RUN)
				same_options(&a, &b);
		}
	}
	/* 66 prefixes resolve; m, h, v, ve, ver begin two names each */
	assert_int_equal(resolved, 66);
	assert_int_equal(ambiguous, 10);
}

/* Ours: by name, or by a prefix that begins none of util-linux's names. */
static void
our_abbreviations(void **state)
{
	struct options o;
	char msg[512];
	char *iv[] = { "x", "--int", "2", "--it=3", "--to", "4", "--j", "--ex",
	    NULL };
	char *base[] = { "x", "--ba", "b", NULL };
	char *count[] = { "x", "--count", "5", NULL };
	char *amb[] = { "x", "-x", "--h", NULL };

	(void)state;
	assert_int_equal(parse_msg(&o, iv, msg, sizeof msg), OPT_RUN);
	assert_true(o.interval == 2.0);
	assert_int_equal(o.iterations, 3);
	assert_int_equal(o.top, 4);
	assert_true(o.json && o.exact);
	assert_int_equal(parse_msg(&o, base, msg, sizeof msg), OPT_RUN);
	assert_string_equal(o.baseline, "b");
	/* util-linux's --counters, then an operand (ignored) */
	assert_int_equal(parse_msg(&o, count, msg, sizeof msg), OPT_RUN);
	assert_true(o.counters);
	assert_int_equal(o.iterations, 0);
	/* errors in command-line order: -x before the ambiguous --h */
	assert_int_equal(parse_msg(&o, amb, msg, sizeof msg), OPT_USAGE_ERROR);
	assert_non_null(strstr(msg, "-- 'x'"));
	assert_null(strstr(msg, "ambiguous"));
}

/* The name in usage lines: argv[0]'s last part, if make install could
 * have given it. */
static void
names(void **state)
{
	char name[66] = "";

	(void)state;
	assert_string_equal(options_name("/usr/sbin/readprofile-ng"),
	    "readprofile-ng");
	assert_string_equal(options_name("rp"), "rp");
	assert_string_equal(options_name(NULL), "readprofile");
	assert_string_equal(options_name("/bin/"), "readprofile");
	assert_string_equal(options_name("a\033[2Jb"), "readprofile");
	assert_string_equal(options_name("x y"), "readprofile");
	/* the name messages start with: 64 bytes at most, else ours */
	assert_string_equal(prog_name_set("rp-ng"), "rp-ng");
	assert_string_equal(prog_name(), "rp-ng");
	assert_string_equal(prog_name_set(NULL), "readprofile");
	assert_string_equal(prog_name_set(""), "readprofile");
	/* no argv[0] (argc 0): ours, and the list's end left alone */
	{
		struct options o;
		char *none[] = { NULL };

		assert_int_equal(options_parse(&o, 0, none), OPT_RUN);
		assert_null(none[0]);
		assert_string_equal(prog_name(), "readprofile");
	}
	memset(name, 'n', 64);
	name[64] = '\0';
	assert_string_equal(prog_name_set(name), name);
	name[64] = 'n';
	assert_string_equal(prog_name_set(name), "readprofile");
}

static void
export_options(void **state)
{
	struct options o;
	char *a1[] = { "x", "--pprof", "out.pb.gz", "--hz", "250",
	    "--no-demangle", NULL };
	char *a2[] = { "x", "--pp", "-", "--fo", NULL };
	char *a3[] = { "x", "--folded", "--top", "5", NULL };
	char *a4[] = { "x", "--hz", "0", NULL };
	char *a5[] = { "x", "-p", "--p", "--pprof", "--p", NULL };
	char *a6[] = { "x", "--no-d", "--no", NULL };
	struct caught c;
	char *err;

	(void)state;
	assert_int_equal(options_parse(&o, 6, a1), OPT_RUN);
	assert_string_equal(o.pprof, "out.pb.gz");
	assert_int_equal(o.hz, 250);
	assert_true(o.no_demangle && !o.folded);
	/* both */
	c = stderr_catch();
	assert_int_equal(options_parse(&o, 4, a2), OPT_BAD_VALUE);
	assert_int_equal(options_parse(&o, 4, a3), OPT_BAD_VALUE);
	assert_int_equal(options_parse(&o, 3, a4), OPT_BAD_VALUE);
	err = stderr_caught(c);
	assert_int_equal(lines_begin(err, msg_of("")), 3);
	assert_non_null(strstr(err, ": --pprof replaces the report: it "
	    "cannot be used with --folded\n"));
	assert_non_null(strstr(err, ": --folded replaces the report: it "
	    "cannot be used with --top\n"));
	assert_non_null(strstr(err, ": --hz: not a whole number from 1 to "
	    "1000000000: '0'\n"));
	free(err);
	/* an option's value is never respelled */
	assert_int_equal(options_parse(&o, 5, a5), OPT_RUN);
	assert_string_equal(o.profile, "--p");
	assert_string_equal(o.pprof, "--p");
	assert_int_equal(options_parse(&o, 3, a6), OPT_RUN);
	assert_true(o.no_demangle && o.noauto);
}

/* The command line "x OPT VAL" parsed into O. */
static enum opt_result
parse_args(struct options *o, const char *opt, const char *val)
{
	char *argv[] = { "x", (char *)opt, (char *)val, NULL };

	return options_parse(o, 3, argv);
}

/*
 * The one rule of every number (man page, NUMBERS): blanks, a plus sign
 * (a minus for -M), decimal digits; --interval also a point and digits.
 * No hexadecimal, octal, exponent, inf or nan, for any of them.
 */
static void
numbers(void **state)
{
	static const char *const whole[] = { "--top", "--iterations", "--hz" };
	static const char *const bad[] = { "0x10", "0X10", "1e3", "1.5", "5 ",
	    "", " ", "+", "-5", "++5", "+ 5", "5x", "inf", "nan", "0x1p-3",
	    "\xef\xbc\x95" };
	struct options o;
	int m = 0;
	struct caught c;
	char *err;

	(void)state;
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		const char *opt = whole[i];
		char *iv[] = { "x", (char *)opt, "010", "--interval", "1",
		    NULL };

		assert_int_equal(options_parse(&o, strcmp(opt, "--iterations") ?
		    3 : 5, iv), OPT_RUN);
		if (strcmp(opt, "--top") == 0)
			assert_int_equal(o.top, 10);	/* decimal: 010 is ten */
		else if (strcmp(opt, "--hz") == 0)
			assert_int_equal(o.hz, 10);
		else
			assert_int_equal(o.iterations, 10);
		c = stderr_catch();
		for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++)
			assert_int_equal(parse_args(&o, opt, bad[j]),
			    OPT_BAD_VALUE);
		err = stderr_caught(c);
		assert_int_equal(lines_begin(err, msg_of("")),
		    (int)(sizeof bad / sizeof bad[0]));
		assert_non_null(strstr(err, ": not a whole number from 1 to "));
		free(err);
	}
	assert_int_equal(parse_args(&o, "--top", " +7"), OPT_RUN);
	assert_int_equal(o.top, 7);
	assert_int_equal(parse_args(&o, "--hz", "1000000000"), OPT_RUN);
	c = stderr_catch();
	assert_int_equal(parse_args(&o, "--hz", "1000000001"), OPT_BAD_VALUE);
	err = stderr_caught(c);
	assert_string_equal(err, msg_of("--hz: not a whole number from "
	    "1 to 1000000000: '1000000001'\n"));
	free(err);
	/* -M: the same rule, with a minus sign */
	assert_int_equal(options_multiplier("010", &m), 0);
	assert_int_equal(m, 10);
	assert_int_equal(options_multiplier(" +3", &m), 0);
	assert_int_equal(m, 3);
	c = stderr_catch();
	for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++)
		if (strcmp(bad[j], "-5") != 0)
			assert_int_equal(options_multiplier(bad[j], &m), -1);
	assert_int_equal(parse_args(&o, "-M", "0x10"), OPT_BAD_MULTIPLIER);
	err = stderr_caught(c);
	assert_int_equal(lines_begin(err, msg_of("failed to parse "
	    "multiplier: '")), (int)(sizeof bad / sizeof bad[0]));
	free(err);
}

/* --interval: decimal seconds, a fraction allowed, 0.001 to 86400. */
static void
intervals(void **state)
{
	static const struct {
		const char *s;
		double v;
	} good[] = { { "2", 2.0 }, { "0.5", 0.5 }, { "0.001", 0.001 },
	    { "86400", 86400.0 }, { "86400.000", 86400.0 }, { " +0.25", 0.25 },
	    { "010", 10.0 }, { "1.000000000000000000001", 1.0 } };
	static const char *const bad[] = { "0x10", "0x0.2", "0x1p-3", "1e1",
	    "1E1", ".5", "5.", "1..2", "1.2.3", "inf", "nan", " nan", "-1",
	    "0", "0.0009", "86400.001", "", "2 ", "2s", "1,5" };
	struct options o;
	struct caught c;
	char *err;

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(parse_args(&o, "--interval", good[i].s),
		    OPT_RUN);
		assert_true(o.interval == good[i].v);
	}
	c = stderr_catch();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse_args(&o, "--interval", bad[i]),
		    OPT_BAD_VALUE);
	err = stderr_caught(c);
	assert_int_equal(lines_begin(err, msg_of("--interval: ")),
	    (int)(sizeof bad / sizeof bad[0]));
	free(err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(short_options),
		cmocka_unit_test(long_options),
		cmocka_unit_test(help_version_and_errors),
		cmocka_unit_test(multipliers),
		cmocka_unit_test(conflicts),
		cmocka_unit_test(util_linux_abbreviations),
		cmocka_unit_test(our_abbreviations),
		cmocka_unit_test(names),
		cmocka_unit_test(export_options),
		cmocka_unit_test(numbers),
		cmocka_unit_test(intervals),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
