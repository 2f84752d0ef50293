/*
 * test_report.c - the text rules and every report format, from a map in
 * memory and counters in an array (expected texts are util-linux's).
 */
#include "unit.h"
#include "core/report.h"
#include "views/classic.h"

static const uint32_t W[] = { 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

static const char MAP1[] =
    "0000000000001000 T _stext\n"
    "0000000000001004 T a\n"
    "000000000000100c t b\n"
    "0000000000001010 T c\n"
    "0000000000001020 T _etext\n";

struct tcase {
	const char *map;
	const uint32_t *w;
	size_t n;
	struct options opt;
	struct report_result res;
};

/* The report's text. */
static char *
report(struct tcase *r)
{
	FILE *f = tmpfile();
	struct out o;
	struct options opt = r->opt;
	/* the map as given with -m */
	struct run rn = { .o = &opt, .out = &o, .step = r->w[0] };
	struct symsrc m;
	struct counters c = counters_array(r->w, r->n, NULL);
	char *s;

	out_init(&o, fileno(f));
	symsrc_open_mem(&m, "map", r->map, strlen(r->map));
	opt.mapfile = "map";
	classic_run(&m, &c, &rn, &r->res);
	symsrc_close(&m);
	assert_int_equal(out_finish(&o), 0);
	s = slurp_fd(fileno(f));
	fclose(f);
	out_discard(&o);
	return s;
}

static void
expect(const char *map, struct options opt, const char *want)
{
	struct tcase r = { map, W, sizeof W / 4, opt, { 0 } };
	struct caught c = stderr_catch();
	char *got = report(&r), *err = stderr_caught(c);

	assert_string_equal(got, want);
	/* the one message these maps draw: the ticks past the last symbol
	 * of a map without _etext */
	if (*err != '\0') {
		assert_int_equal(lines_begin(err, "readprofile: "), 1);
		assert_non_null(strstr(err, " ticks lie past the last symbol "
		    "of map ("));
	}
	free(err);
	free(got);
}

static const struct options PLAIN = { 0 };

static void
default_format(void **state)
{
	(void)state;
	expect(MAP1, PLAIN,
	    "     3 a                                          0.3750\n"
	    "     3 b                                          0.7500\n"
	    "    22 c                                          1.3750\n"
	    "    10 *unknown*\n"
	    "    28 total                                      0.8750\n");
}

static void
all_and_verbose(void **state)
{
	struct options o = { .all = 1, .verbose = 1 };

	(void)state;
	expect(MAP1, o,
	    "0000000000001000 _stext                                        0   0.0000\n"
	    "0000000000001004 a                                             3   0.3750\n"
	    "000000000000100c b                                             3   0.7500\n"
	    "0000000000001010 c                                            22   1.3750\n"
	    "    10 *unknown*\n"
	    "0000000000000000 total                                        28   0.8750\n");
}

static void
histbin(void **state)
{
	struct options o = { .bins = 1, .verbose = 1 };

	(void)state;
	expect(MAP1, o,
	    "  total\t\t\t\t0\n"
	    "a:\n\t1000\t1\n\t1004\t2\n  total\t\t\t\t3\n"
	    "b:\n\t1008\t3\n  total\t\t\t\t3\n"
	    "c:\n\t100c\t4\n\t1010\t5\n\t1014\t6\n\t1018\t7\n  total\t\t\t\t22\n"
	    "    10 *unknown*\n"
	    "0000000000000000 total                                        28   0.8750\n");
}

static void
counters_format(void **state)
{
	struct options o = { .counters = 1 };

	(void)state;
	expect(MAP1, o,
	    "     3 a                                          0.3750\n"
	    "\t0x1004\ta+0\t2\n"
	    "     3 b                                          0.7500\n"
	    "    22 c                                          1.3750\n"
	    "\t0x1010\tc+0\t5\n\t0x1014\tc+0x4\t6\n\t0x1018\tc+0x8\t7\n"
	    "    10 *unknown*\n"
	    "    28 total                                      0.8750\n");
}

static void
absolute_symbols_and_data_end(void **state)
{
	(void)state;
	/* leading A/? skipped while nothing is counted; __init_end always */
	expect("0000000000000100 A abs0\n"
	    "0000000000001000 T __stext\n"
	    "0000000000000004 ? absX\n"
	    "0000000000001004 W a\n"
	    "000000000000100c w b\n"
	    "0000000000000008 A __init_end\n"
	    "0000000000001010 T c\n"
	    "0000000000001020 T __etext\n"
	    "not read at all\n", PLAIN,
	    "     3 a                                          0.3750\n"
	    "     3 b                                          0.7500\n"
	    "    22 c                                          1.3750\n"
	    "    10 *unknown*\n"
	    "    28 total                                      0.8750\n");
	/* a data symbol ends the report: the pending symbol is not printed,
	 * and the load is taken up to the last symbol read */
	expect("0000000000001000 T _stext\n"
	    "0000000000001004 T a\n"
	    "000000000000100c t b\n"
	    "0000000000001010 D data\n"
	    "0000000000001020 T c\n", PLAIN,
	    "     3 a                                          0.3750\n"
	    "    10 *unknown*\n"
	    "     3 total                                      0.2500\n");
	/* an absolute symbol once ticks were counted ends it too */
	expect("0000000000001000 T _stext\n"
	    "0000000000001008 T a\n"
	    "0000000000001010 A abs\n"
	    "0000000000001014 T b\n", PLAIN,
	    "     1 _stext                                     0.1250\n"
	    "    10 *unknown*\n"
	    "     1 total                                      0.1250\n");
}

static void
zero_length_and_no_etext(void **state)
{
	struct options o = { .all = 1 };

	(void)state;
	/* never printed at length 0, even with -a */
	expect("0000000000001000 T _stext\n"
	    "0000000000001004 T a\n"
	    "0000000000001004 T alias\n"
	    "0000000000001008 T b\n", o,
	    "     0 _stext                                     0.0000\n"
	    "     1 alias                                      0.2500\n"
	    "    10 *unknown*\n"
	    "     1 total                                      0.1250\n");
}

static void
step_zero(void **state)
{
	static const uint32_t w0[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct tcase r = { MAP1, w0, 11, { .counters = 1, .all = 1 }, { 0 } };
	char *got = report(&r);

	(void)state;
	assert_string_equal(got,
	    "     0 _stext                                     0.0000\n"
	    "     0 a                                          0.0000\n"
	    "     0 b                                          0.0000\n"
	    "     0 c                                          0.0000\n"
	    "    10 *unknown*\n"
	    "     0 total                                      0.0000\n");
	free(got);
}

static void
exact_mode(void **state)
{
	struct options o = { .exact = 1, .all = 1 };

	(void)state;
	/* _stext 0x1000 owns the bucket at 0x1000: word 1 */
	expect(MAP1, o,
	    "     1 _stext                                     0.2500\n"
	    "     5 a                                          0.6250\n"
	    "     4 b                                          1.0000\n"
	    "    26 c                                          1.6250\n"
	    "    10 *unknown*\n"
	    "    36 total                                      1.1250\n");
}

static void
total_is_64_bit(void **state)
{
	static const uint32_t w[] = { 4, 0xffffffffu, 0xffffffffu, 0xffffffffu,
	    0, 0 };
	struct tcase r = { "1000 T _stext\n1010 T _etext\n", w, 6, { 0 }, { 0 } };
	char *got = report(&r);

	(void)state;
	assert_string_equal(got,
	    "12884901885 _stext                                   805306367.8125\n"
	    "     0 *unknown*\n"
	    "12884901885 total                                    805306367.8125\n");
	assert_true(r.res.total == 3 * (uint64_t)0xffffffffu);
	free(got);
}

static void
run_no_stext(void *arg)
{
	struct tcase r = { arg, W, 11, { 0 }, { 0 } };

	report(&r);
}

static void
run_beyond(void *arg)
{
	struct tcase r = { arg, W, 11, { 0 }, { 0 } };

	report(&r);
}

static void
errors(void **state)
{
	(void)state;
	expect_fatal(run_no_stext, "1000 T start\n", "can't find \"_stext\" in map");
	expect_fatal(run_no_stext, "0 T _stext\n1000 T __stext\n",
	    "can't find \"_stext\" in map");
	expect_fatal(run_beyond, "1000 T _stext\n1030 T a\n1034 T b\n",
	    "readprofile: profile address out of range. Wrong map file?\n"
	    "readprofile: map: no _etext, but the profile's 10 counters at "
	    "step 4 cover 40 bytes\n");
	expect_fatal(run_beyond, "1000 T _stext\n1030 T a\n1034 T b\n"
	    "1038 T _etext\n",
	    "readprofile: the profile is shorter than the map's text: its 10 "
	    "counters at step 4 cover 40 bytes, but _etext - _stext in map is "
	    "56 bytes (a cut copy of the profile, or the map of another "
	    "kernel)\n"
	    "readprofile: profile address out of range. Wrong map file?\n");
	expect_fatal(run_beyond, "1000 T _stext\n1010 T a\n1008 T b\n",
	    "map(3): address goes backwards (0x1008 after 0x1010)");
	expect_fatal(run_beyond, "1000 T _stext\n0ff0 T below\n",
	    "map(2): address goes backwards");
}

static void
bounds(void **state)
{
	struct symsrc m;
	struct report_result res;

	(void)state;
	symsrc_open_mem(&m, "map", MAP1, strlen(MAP1));
	report_text_bounds(&m, &res);
	symsrc_close(&m);
	assert_true(res.origin == 0x1000);
	assert_true(res.have_etext);
	assert_true(res.etext == 0x1020);
}

/* Calls into [start, next) from arcs at 0x1004 (10), 0x1010 (7), 0x1018
 * (1); the order asked is recorded. */
static uint64_t
fake_calls(void *ctx, uint64_t start, uint64_t next)
{
	static const uint64_t at[] = { 0x1004, 0x1010, 0x1018 }, n[] = { 10, 7, 1 };
	uint64_t *last = ctx, sum = 0;

	assert_true(start >= *last);	/* ascending, as gmon_calls needs */
	*last = start;
	for (size_t i = 0; i < 3; i++)
		if (at[i] >= start && at[i] < next)
			sum += n[i];
	return sum;
}

/* A histogram of 8 bins of 4 bytes over [0x1000, 0x1020), bin j holding
 * j + 1, against a, b, c: run with OPT, the text into *TEXT. */
static void
hist(struct run *rn, struct report_result *res, char **text)
{
	static const char map[] =
	    "0000000000001004 T a\n"
	    "000000000000100c t b\n"
	    "0000000000001010 T c\n";
	/* static: RES keeps a pointer to H after the call */
	static struct hist_range r = { 0x1000, 0x1020, 8, 1 };
	static uint64_t last;
	static struct report_hist h = { 0x1000, 0x1020, 8, &r, 1, 100,
	    fake_calls, &last };
	struct counters c = counters_array(W, 9, NULL);
	FILE *f = tmpfile();
	struct out o;
	struct symsrc m;

	last = 0;
	out_init(&o, fileno(f));
	symsrc_open_mem(&m, "map", map, strlen(map));
	rn->hist = &h;
	rn->out = &o;
	classic_run(&m, &c, rn, res);
	symsrc_close(&m);
	assert_int_equal(out_finish(&o), 0);
	*text = slurp_fd(fileno(f));
	fclose(f);
	out_discard(&o);
}

/* --top/--json on a histogram: each function with its calls, nothing
 * printed; *unknown* the bins before a, the calls' total -v's. */
static void
hist_collect(void **state)
{
	struct collect k;
	struct options opt = { .mapfile = "map" };
	struct run rn = { .o = &opt, .collect = &k };
	struct report_result res;
	char *text;

	(void)state;
	collect_init(&k, SIZE_MAX);
	hist(&rn, &res, &text);
	assert_string_equal(text, "");
	free(text);
	assert_int_equal(k.n, 3);
	assert_int_equal(k.v[0].ticks, 2 + 3);
	assert_int_equal(k.v[0].calls, 10);
	assert_int_equal(k.v[1].ticks, 4);
	assert_int_equal(k.v[1].calls, 0);
	assert_int_equal(k.v[2].ticks, 5 + 6 + 7 + 8);
	assert_int_equal(k.v[2].calls, 8);
	assert_int_equal(res.total, 35);
	assert_int_equal(res.unknown, 1);
	assert_int_equal(res.calls, 18);
	assert_true(res.h != NULL && res.h->rate == 100);
	collect_free(&k);
}

/* -b -v: every symbol's total line is printed, and their calls count. */
static void
hist_bins_verbose_calls(void **state)
{
	struct options opt = { .mapfile = "map", .bins = 1, .verbose = 1 };
	struct run rn = { .o = &opt };
	struct report_result res;
	char *text;
	const char *tail;

	(void)state;
	hist(&rn, &res, &text);
	tail = strrchr(text, '\n');
	while (tail > text && tail[-1] != '\n')
		tail--;
	assert_string_equal(tail, "0000000000000000 total"
	    "                                        35   1.0938       0.35"
	    "       18\n");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_format),
		cmocka_unit_test(all_and_verbose),
		cmocka_unit_test(histbin),
		cmocka_unit_test(counters_format),
		cmocka_unit_test(absolute_symbols_and_data_end),
		cmocka_unit_test(zero_length_and_no_etext),
		cmocka_unit_test(step_zero),
		cmocka_unit_test(exact_mode),
		cmocka_unit_test(total_is_64_bit),
		cmocka_unit_test(errors),
		cmocka_unit_test(bounds),
		cmocka_unit_test(hist_collect),
		cmocka_unit_test(hist_bins_verbose_calls),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
