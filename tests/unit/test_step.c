/*
 * test_step.c - the step of a zero step word, inferred from the map.
 */
#include "unit.h"
#include "hist/step.h"

static struct step_text
text(uint64_t stext, uint64_t etext, int have_etext, uint64_t counters)
{
	struct step_text t = { "map", stext, etext, have_etext, counters };

	return t;
}

static enum step_found
infer(uint64_t stext, uint64_t etext, uint64_t counters, uint32_t *step)
{
	struct step_text t = text(stext, etext, 1, counters);

	return step_infer(&t, step);
}

/* step_why of R for the text T. */
static void
why_of(char *buf, size_t n, enum step_found r, struct step_text t)
{
	step_why(buf, n, r, &t);
}

static void
found(void **state)
{
	uint32_t s;

	(void)state;
	/* the x86-64 capture: 0xe01d32 bytes, 3671884 counters: step 4 */
	assert_int_equal(infer(0xffffffffb4000000ull, 0xffffffffb4e01d32ull,
	    3671884, &s), STEP_FOUND);
	assert_int_equal(s, 4);
	/* step 1 (k = 0) and step 2^31, the largest a step word holds */
	assert_int_equal(infer(0x1000, 0x100a, 10, &s), STEP_FOUND);
	assert_int_equal(s, 1);
	assert_int_equal(infer(0, (uint64_t)3 << 31, 3, &s), STEP_FOUND);
	assert_int_equal(s, 0x80000000u);
	/* the remainder below one step is dropped, as the kernel drops it */
	assert_int_equal(infer(0x1000, 0x1000 + 16 * 8 + 7, 16, &s),
	    STEP_FOUND);
	assert_int_equal(s, 8);
}

static void
not_found(void **state)
{
	uint32_t s = 99;
	struct step_text t;

	(void)state;
	t = text(0x1000, 0x2000, 0, 1024);
	assert_int_equal(step_infer(&t, &s), STEP_NO_ETEXT);
	assert_int_equal(s, 0);
	/* 100 bytes: 100, 50, 25, 12, ... counters; never 30 */
	assert_int_equal(infer(0x1000, 0x1064, 30, &s), STEP_NO_FIT);
	assert_int_equal(s, 0);
	/* more counters than bytes */
	assert_int_equal(infer(0x1000, 0x1010, 17, &s), STEP_NO_FIT);
	/* a step of 2^32 does not fit in the step word */
	assert_int_equal(infer(0, (uint64_t)3 << 32, 3, &s), STEP_NO_FIT);
	/* no counters: every large k would fit, so none is chosen */
	assert_int_equal(infer(0x1000, 0x2000, 0, &s), STEP_NO_FIT);
	assert_int_equal(infer(0x1000, 0x1000, 0, &s), STEP_NO_FIT);
	/* _etext below _stext */
	assert_int_equal(infer(0x2000, 0x1000, 1024, &s), STEP_NO_FIT);
}

/* Any text size and any step: the counters the kernel keeps give it back. */
static void
round_trip(void **state)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t size, stext, counters;
		uint32_t s;
		int k;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		k = (int)(rng % 32);
		size = (rng >> 5) >> (rng >> 58);
		stext = 0xffffffff80000000ull - (rng & 0xfffff000);
		counters = size >> k;
		if (counters == 0 || stext + size < stext)
			continue;
		assert_int_equal(infer(stext, stext + size, counters, &s),
		    STEP_FOUND);
		assert_int_equal(s, (uint32_t)1 << k);
	}
}

static void
why(void **state)
{
	char buf[512];

	(void)state;
	why_of(buf, sizeof buf, STEP_NO_ETEXT, text(0x1000, 0, 0, 8));
	assert_string_equal(buf, "the profile's step word is 0 and map has no "
	    "_etext: the sampling step is unknown (give the map of the "
	    "profiled kernel with -m)");
	why_of(buf, sizeof buf, STEP_NO_FIT, text(0x1000, 0x1064, 1, 30));
	assert_string_equal(buf, "the profile's step word is 0 and no power "
	    "of two fits map: _etext - _stext is 100 bytes, but the profile "
	    "has 30 counters; the sampling step is unknown (wrong map file?)");
	why_of(buf, sizeof buf, STEP_NO_FIT, text(0x2000, 0x1000, 1, 30));
	assert_string_equal(buf, "the profile's step word is 0 and map has "
	    "_etext below _stext: the sampling step is unknown");
	/* cut to the buffer, never past it */
	why_of(buf, 8, STEP_NO_ETEXT, text(0x1000, 0, 0, 8));
	assert_int_equal(strlen(buf), 7);
	assert_string_equal(buf, "the pro");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(found),
		cmocka_unit_test(not_found),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(why),
	};

	return cmocka_run_group_tests_name("step", tests, NULL, NULL);
}
