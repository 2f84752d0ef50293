/*
 * test_fit.c - whether a map's text fits a profile's counters.
 */
#include "unit.h"
#include "core/fit.h"

static void
check(void **state)
{
	uint64_t mc;

	(void)state;
	/* the real capture: 0xe01d32 bytes at step 4 is 3671884 counters */
	assert_int_equal(fit_check(0xffffffffb4000000ull, 0xffffffffb4e01d32ull,
	    1, 4, 3671884, &mc), FIT_MATCH);
	assert_int_equal(mc, 3671884);
	assert_int_equal(fit_check(0x1000, 0x1020, 1, 4, 9, &mc), FIT_MISMATCH);
	assert_int_equal(mc, 8);
	assert_int_equal(fit_check(0x1000, 0x1020, 0, 4, 8, &mc), FIT_UNKNOWN);
	assert_int_equal(fit_check(0x1000, 0x1020, 1, 0, 8, &mc), FIT_UNKNOWN);
	assert_int_equal(fit_check(0x1000, 0x0fff, 1, 4, 8, &mc), FIT_UNKNOWN);
}

static void
describe(void **state)
{
	char buf[256];
	size_t n;

	(void)state;
	n = fit_describe(buf, sizeof buf, "map", 0x1000, 0x1020, 1, 4, 8);
	assert_int_equal(n, strlen("Map: map matches\n"));
	assert_string_equal(buf, "Map: map matches\n");
	fit_describe(buf, sizeof buf, "map", 0x1000, 0x1024, 1, 4, 8);
	assert_string_equal(buf, "Map: map does not match (_etext - _stext is "
	    "36 bytes, 9 counters; profile has 8)\n");
	fit_describe(buf, sizeof buf, "map", 0x1000, 0, 0, 4, 8);
	assert_string_equal(buf, "Map: map has no _etext\n");
	/* cut to the buffer, never past it */
	n = fit_describe(buf, 8, "map", 0x1000, 0x1020, 1, 4, 8);
	assert_int_equal(n, 7);
	assert_string_equal(buf, "Map: ma");
}

/* A profile that covers less than the map's text: said as such. */
static void
short_profile(void **state)
{
	char buf[512];
	size_t n;

	(void)state;
	n = fit_short(buf, sizeof buf, "map", 56, 4, 10);
	assert_string_equal(buf, "the profile is shorter than the map's text: "
	    "its 10 counters at step 4 cover 40 bytes, but _etext - _stext "
	    "in map is 56 bytes (a cut copy of the profile, or the map of "
	    "another kernel)");
	assert_int_equal(n, strlen(buf));
	n = fit_short(buf, 9, "map", 56, 4, 10);
	assert_int_equal(n, 8);
	assert_string_equal(buf, "the prof");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check),
		cmocka_unit_test(describe),
		cmocka_unit_test(short_profile),
	};

	return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
