/*
 * test_attrib.c - the classic and exact attribution rules, without I/O.
 */
#include "unit.h"
#include "core/attrib.h"

/* step 4, origin 0x1000, 11 words: step word, 9 counters, last word. */
#define NW ((uint64_t)11)

static void
close_ok(struct attrib *a, uint64_t start, uint64_t next,
    uint64_t first, uint64_t end, uint64_t lf, uint64_t le)
{
	struct attrib_span sp;

	assert_int_equal(attrib_close(a, start, next, &sp), 0);
	assert_int_equal(sp.first, first);
	assert_int_equal(sp.end, end);
	assert_int_equal(sp.list_first, lf);
	assert_int_equal(sp.list_end, le);
}

static void
classic_last_bucket_goes_to_successor(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_CLASSIC);
	close_ok(&a, 0x1000, 0x1004, 1, 1, 1, 1);	/* _stext: nothing */
	close_ok(&a, 0x1004, 0x100c, 1, 3, 2, 3);	/* a: words 1, 2 */
	close_ok(&a, 0x100c, 0x1010, 3, 4, 4, 4);	/* b: word 3 */
	close_ok(&a, 0x1010, 0x1020, 4, 8, 5, 8);	/* c: words 4..7 */
}

static void
classic_unaligned_and_zero_length(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_CLASSIC);
	close_ok(&a, 0x1000, 0x1006, 1, 1, 1, 1);
	close_ok(&a, 0x1006, 0x1006, 1, 1, 2, 1);	/* zero length */
	close_ok(&a, 0x1006, 0x1011, 1, 4, 2, 4);
}

static void
classic_out_of_range(void **state)
{
	struct attrib a;
	struct attrib_span sp;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_CLASSIC);
	/* word (next - origin) / step may be the last word, not beyond */
	close_ok(&a, 0x1000, 0x1000 + 4 * NW, 1, NW, 1, NW);
	assert_int_equal(attrib_close(&a, 0x1000 + 4 * NW, 0x2000, &sp), -1);
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_CLASSIC);
	assert_int_equal(attrib_close(&a, 0x1000, 0x1000 + 4 * NW + 4, &sp),
	    -1);
	/* a profile of the step word alone has no counter to read */
	attrib_init(&a, 0x1000, 4, 1, ATTRIB_CLASSIC);
	assert_int_equal(attrib_close(&a, 0x1000, 0x1000, &sp), -1);
}

static void
classic_step_zero_reads_nothing(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0x1000, 0, NW, ATTRIB_CLASSIC);
	close_ok(&a, 0x1000, 0x1010, 1, 1, 0, 0);
	close_ok(&a, 0x1010, 0x9000, 1, 1, 0, 0);
}

static void
exact_buckets_by_start_address(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_EXACT);
	close_ok(&a, 0x1000, 0x1004, 1, 2, 1, 2);	/* bucket 0x1000 */
	close_ok(&a, 0x1004, 0x100c, 2, 4, 2, 4);	/* 0x1004, 0x1008 */
	close_ok(&a, 0x100c, 0x100e, 4, 5, 4, 5);	/* 0x100c */
	close_ok(&a, 0x100e, 0x1011, 5, 6, 5, 6);	/* 0x1010 only */
	close_ok(&a, 0x1011, 0x1011, 6, 6, 6, 6);	/* zero length */
	/* never the last word, which is *unknown* */
	close_ok(&a, 0x1011, 0x1000 + 4 * NW + 2, 6, NW - 1, 6, NW - 1);
}

/* Kernels from 6.11: the last word is a text bucket, credited like any. */
static void
exact_last_is_text(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_EXACT);
	a.last_is_text = 1;
	close_ok(&a, 0x1000, 0x1004, 1, 2, 1, 2);
	/* word NW - 1 covers [0x1000 + 4 * (NW - 2), 0x1000 + 4 * (NW - 1)):
	 * the symbol its first byte lies in gets it */
	close_ok(&a, 0x1004, 0x1000 + 4 * (NW - 2) + 1, 2, NW, 2, NW);
	close_ok(&a, 0x1000 + 4 * (NW - 2) + 1, 0x1000 + 4 * NW + 2, NW, NW,
	    NW, NW);
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_EXACT);
	a.last_is_text = 1;
	close_ok(&a, 0x1000, 0x1000 + 4 * (NW - 2), 1, NW - 1, 1, NW - 1);
	close_ok(&a, 0x1000 + 4 * (NW - 2), 0x1000 + 4 * NW, NW - 1, NW,
	    NW - 1, NW);
	/* a new attrib starts with the kernels before 6.11 */
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_EXACT);
	close_ok(&a, 0x1000 + 4 * (NW - 2), 0x1000 + 4 * NW, NW - 1, NW - 1,
	    NW - 1, NW - 1);
}

static void
exact_out_of_range(void **state)
{
	struct attrib a;
	struct attrib_span sp;

	(void)state;
	attrib_init(&a, 0x1000, 4, NW, ATTRIB_EXACT);
	assert_int_equal(attrib_close(&a, 0x1000 + 4 * NW, 0x1000 + 4 * NW, &sp),
	    -1);
	attrib_init(&a, 0x1000, 4, 1, ATTRIB_EXACT);
	assert_int_equal(attrib_close(&a, 0x1000, 0x1004, &sp), -1);
}

static void
loads(void **state)
{
	(void)state;
	assert_true(attrib_load(3, 8) == 0.375);
	assert_true(attrib_load(5, 0) == 0.0);
}

static void
word_addresses(void **state)
{
	struct attrib a;

	(void)state;
	attrib_init(&a, 0xffffffff81000000ull, 16, 100, ATTRIB_CLASSIC);
	assert_true(attrib_word_addr(&a, 1) == 0xffffffff81000000ull);
	assert_true(attrib_word_addr(&a, 3) == 0xffffffff81000020ull);
}

/* A histogram of 3 bins over [0x1000, 0x100a): width 10/3. */
static void
hist_fractional_width(void **state)
{
	struct attrib a;
	struct hist_range r = { 0x1000, 0x100a, 3, 1 };

	(void)state;
	attrib_init_hist(&a, &r, 1);
	/* bins start at 0x1000, 0x1003 (3.33), 0x1006 (6.67); end 0x100a */
	assert_int_equal(attrib_word_addr(&a, 1), 0x1000);
	assert_int_equal(attrib_word_addr(&a, 2), 0x1003);
	assert_int_equal(attrib_word_addr(&a, 3), 0x1006);
	assert_int_equal(attrib_word_addr(&a, 4), 0x100a);
	/* a bin belongs to the symbol holding its first address */
	close_ok(&a, 0x1000, 0x1003, 1, 2, 1, 2);
	close_ok(&a, 0x1003, 0x1004, 2, 3, 2, 3);
	close_ok(&a, 0x1004, 0x1006, 3, 3, 3, 3);	/* no bin starts here */
	close_ok(&a, 0x1006, 0x100a, 3, 4, 3, 4);
	/* beyond the end: no bins; from before the start: from bin 0 */
	close_ok(&a, 0x100a, 0x2000, 4, 4, 4, 4);
	close_ok(&a, 0x0fff, 0x1001, 1, 2, 1, 2);
}

/* An exact width keeps the plain arithmetic; 64-bit spans do not wrap. */
static void
hist_exact_and_wide(void **state)
{
	struct attrib a;
	struct hist_range r = { 0x400000, 0x400010, 4, 1 },
	    w = { 0, UINT64_MAX, 3, 1 };

	(void)state;
	attrib_init_hist(&a, &r, 1);
	close_ok(&a, 0x400004, 0x40000c, 2, 4, 2, 4);
	close_ok(&a, 0x400005, 0x40000c, 3, 4, 3, 4);
	attrib_init_hist(&a, &w, 1);
	assert_true(attrib_word_addr(&a, 2) == UINT64_MAX / 3);
	assert_true(attrib_word_addr(&a, 3) == UINT64_MAX / 3 * 2);
	close_ok(&a, UINT64_MAX / 3, UINT64_MAX / 3 + 1, 2, 3, 2, 3);
	close_ok(&a, UINT64_MAX / 3 + 1, UINT64_MAX - 1, 3, 4, 3, 4);
}

/* Two ranges with a gap: words run on across them; the gap has none. */
static void
hist_two_ranges(void **state)
{
	struct attrib a;
	static const struct hist_range r[] = {
		{ 0x1000, 0x1010, 4, 1 },	/* words 1..4, 4 bytes each */
		{ 0x2000, 0x2006, 2, 5 },	/* words 5..6, 3 bytes each */
	};

	(void)state;
	attrib_init_hist(&a, r, 2);
	assert_int_equal(a.nwords, 7);
	assert_int_equal(attrib_word_addr(&a, 4), 0x100c);
	assert_int_equal(attrib_word_addr(&a, 5), 0x2000);
	assert_int_equal(attrib_word_addr(&a, 6), 0x2003);
	assert_int_equal(attrib_word_addr(&a, 7), 0x2006);
	close_ok(&a, 0x1000, 0x1008, 1, 3, 1, 3);
	close_ok(&a, 0x1008, 0x1800, 3, 5, 3, 5);	/* to the gap */
	close_ok(&a, 0x1800, 0x1900, 5, 5, 5, 5);	/* in the gap */
	close_ok(&a, 0x1900, 0x2001, 5, 6, 5, 6);	/* over the gap */
	close_ok(&a, 0x2001, 0x3000, 6, 7, 6, 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classic_last_bucket_goes_to_successor),
		cmocka_unit_test(classic_unaligned_and_zero_length),
		cmocka_unit_test(classic_out_of_range),
		cmocka_unit_test(classic_step_zero_reads_nothing),
		cmocka_unit_test(exact_buckets_by_start_address),
		cmocka_unit_test(exact_last_is_text),
		cmocka_unit_test(exact_out_of_range),
		cmocka_unit_test(loads),
		cmocka_unit_test(word_addresses),
		cmocka_unit_test(hist_fractional_width),
		cmocka_unit_test(hist_exact_and_wide),
		cmocka_unit_test(hist_two_ranges),
	};

	return cmocka_run_group_tests_name("attrib", tests, NULL, NULL);
}
