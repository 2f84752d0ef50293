/*
 * test_counters.c - the words of a histogram: read and summed.
 */
#include "unit.h"
#include "hist/counters.h"

/* step 4, 9 counters, last word. */
static const uint32_t W[] = { 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
#define NW (sizeof W / sizeof W[0])

static void
sums(void **state)
{
	struct counters c = counters_array(W, NW);
	static const uint32_t big[] = { 4, 0xffffffffu, 0xffffffffu, 7 };
	struct counters cb = counters_array(big, 4);

	(void)state;
	assert_int_equal(counters_sum(&c, 1, 3), 3);
	assert_int_equal(counters_sum(&c, 4, 8), 22);
	assert_int_equal(counters_sum(&c, 5, 5), 0);
	assert_int_equal(counters_get(&c, NW - 1), 10);
	/* 64-bit sums: no wrap */
	assert_true(counters_sum(&cb, 1, 3) == 2 * (uint64_t)0xffffffffu);
}

/* Sums over many words and every cut of them. */
static void
long_sums(void **state)
{
	uint32_t w[53];
	struct counters c;

	(void)state;
	for (size_t i = 0; i < 53; i++)
		w[i] = (uint32_t)(0xfffffff0u + i * 7919u);
	c = counters_array(w, 53);
	for (uint64_t from = 1; from <= 53; from++)
		for (uint64_t to = from; to <= 53; to++) {
			uint64_t want = 0;

			for (uint64_t k = from; k < to; k++)
				want += w[k];
			assert_true(counters_sum(&c, from, to) == want);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums),
		cmocka_unit_test(long_sums),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
