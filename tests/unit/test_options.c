/*
 * test_options.c - the command line, short and long, as util-linux spells it.
 */
#include "unit.h"
#include "cli/options.h"


static enum opt_result
parse(struct options *o, int argc, char **argv)
{
	return options_parse(o, argc, argv);
}

static void
defaults(void **state)
{
	struct options o;
	char *argv[] = { "x", NULL };

	(void)state;
	assert_int_equal(parse(&o, 1, argv), OPT_RUN);
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
	assert_int_equal(parse(&o, 6, argv), OPT_RUN);
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

	(void)state;
	assert_int_equal(parse(&o, 16, argv), OPT_RUN);
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
	char *bad[] = { "x", "-x", NULL }, *miss[] = { "x", "-m", NULL };
	char *longbad[] = { "x", "--bogus", NULL };
	char *amb[] = { "x", "--m", "y", NULL };
	char *arg[] = { "x", "--all=3", NULL };

	(void)state;
	assert_int_equal(parse(&o, 2, h), OPT_HELP);
	assert_int_equal(parse(&o, 2, v), OPT_VERSION);
	fprintf(stderr, "(getopt messages expected below)\n");
	assert_int_equal(parse(&o, 2, bad), OPT_USAGE_ERROR);
	assert_int_equal(parse(&o, 2, miss), OPT_USAGE_ERROR);
	assert_int_equal(parse(&o, 2, longbad), OPT_USAGE_ERROR);
	assert_int_equal(parse(&o, 3, amb), OPT_USAGE_ERROR);
	assert_int_equal(parse(&o, 2, arg), OPT_USAGE_ERROR);
	/* getopt names the program whatever argv[0] was */
	assert_string_equal(bad[0], "readprofile");
}

/* Run options_check with stderr caught; returns its result, *MSG the text. */
static enum opt_result
check_msg(struct options *o, char *msg, size_t n)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	enum opt_result r;
	size_t got;

	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	r = options_check(o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	got = fread(msg, 1, n - 1, f);
	msg[got] = '\0';
	fclose(f);
	return r;
}

static void
conflicts(void **state)
{
	struct options o;
	char msg[256];

	(void)state;
	memset(&o, 0, sizeof o);
	o.profile = "-";
	o.baseline = "-";
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_CONFLICT);
	assert_string_equal(msg, "readprofile: standard input used twice "
	    "(-p - and --baseline -)\n");
	o.baseline = "base";
	o.mapfile = "-";
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_CONFLICT);
	assert_string_equal(msg, "readprofile: standard input used twice "
	    "(-p - and -m -)\n");
	o.profile = "p";
	o.baseline = "-";
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_CONFLICT);
	assert_string_equal(msg, "readprofile: standard input used twice "
	    "(-m - and --baseline -)\n");
	o.mapfile = "m";
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_RUN);
	assert_string_equal(msg, "");
	o.info = 1;
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_RUN);
	assert_string_equal(msg, "readprofile: warning: -i prints the "
	    "profile's step only: --baseline is not used\n");
	o.baseline = NULL;
	assert_int_equal(check_msg(&o, msg, sizeof msg), OPT_RUN);
	assert_string_equal(msg, "");
}

static void
multipliers(void **state)
{
	int m = 0;

	(void)state;
	assert_int_equal(options_multiplier("2", &m), 0);
	assert_int_equal(m, 2);
	assert_int_equal(options_multiplier(" 5", &m), 0);
	assert_int_equal(m, 5);
	assert_int_equal(options_multiplier("2147483647", &m), 0);
	assert_int_equal(m, 2147483647);
	assert_int_equal(options_multiplier("-2147483648", &m), 0);
	fprintf(stderr, "(multiplier messages expected below)\n");
	assert_int_equal(options_multiplier("2147483648", &m), -1);
	assert_int_equal(options_multiplier("99999999999999999999999", &m), -1);
	assert_int_equal(options_multiplier("abc", &m), -1);
	assert_int_equal(options_multiplier("5x", &m), -1);
	assert_int_equal(options_multiplier("0x10", &m), -1);
	assert_int_equal(options_multiplier("", &m), -1);
}

/* util-linux 2.38's long options, and whether each takes a value. */
static const struct { const char *name; int arg; } ul[] = {
	{ "mapfile", 1 }, { "profile", 1 }, { "multiplier", 1 }, { "info", 0 },
	{ "verbose", 0 }, { "all", 0 }, { "histbin", 0 }, { "counters", 0 },
	{ "reset", 0 }, { "no-auto", 0 }, { "version", 0 }, { "help", 0 },
};
#define NUL (sizeof ul / sizeof ul[0])

/* Whether util-linux's getopt reads --P (N bytes) as ul[i] alone. */
static int
ul_unique(const char *p, size_t n, size_t i)
{
	for (size_t j = 0; j < NUL; j++)
		if (j != i && strncmp(ul[j].name, p, n) == 0)
			return 0;
	return strncmp(ul[i].name, p, n) == 0;
}

/*
 * Every prefix util-linux resolves to one of its options means that
 * option here too, though --pprof, --hz, --no-demangle (and --interval,
 * --count) share their first letters; --count itself is ours.
 */
static void
util_linux_prefixes(void **state)
{
	char *value = "2";
	char buf[32];

	(void)state;
	for (size_t i = 0; i < NUL; i++)
		for (size_t n = 1; n <= strlen(ul[i].name); n++) {
			struct options a, b;
			char full[32];
			char *av[] = { "x", buf, value, NULL };
			char *bv[] = { "x", full, value, NULL };
			int argc = ul[i].arg ? 3 : 2;

			if (!ul_unique(ul[i].name, n, i) ||
			    (n == 5 && strncmp(ul[i].name, "count", 5) == 0))
				continue;
			snprintf(buf, sizeof buf, "--%.*s", (int)n, ul[i].name);
			snprintf(full, sizeof full, "--%s", ul[i].name);
			assert_int_equal(parse(&a, argc, av),
			    parse(&b, argc, bv));
			if (memcmp(&a, &b, sizeof a) != 0)
				fail_msg("%s is not %s", buf, full);
		}
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

	(void)state;
	assert_int_equal(parse(&o, 6, a1), OPT_RUN);
	assert_string_equal(o.pprof, "out.pb.gz");
	assert_int_equal(o.hz, 250);
	assert_true(o.no_demangle && !o.folded);
	fprintf(stderr, "(messages expected below)\n");
	assert_int_equal(parse(&o, 4, a2), OPT_BAD_VALUE);	/* both */
	assert_int_equal(parse(&o, 4, a3), OPT_BAD_VALUE);
	assert_int_equal(parse(&o, 3, a4), OPT_BAD_VALUE);
	/* an option's value is never respelled */
	assert_int_equal(parse(&o, 5, a5), OPT_RUN);
	assert_string_equal(o.profile, "--p");
	assert_string_equal(o.pprof, "--p");
	assert_int_equal(parse(&o, 3, a6), OPT_RUN);
	assert_true(o.no_demangle && o.noauto);
	assert_null(options_util_linux("--pprof"));
	assert_null(options_util_linux("--m"));	/* ambiguous there too */
	assert_string_equal(options_util_linux("--p=x"), "profile");
	assert_string_equal(options_util_linux("--co"), "counters");
	assert_null(options_util_linux("--count"));
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
		cmocka_unit_test(util_linux_prefixes),
		cmocka_unit_test(export_options),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
