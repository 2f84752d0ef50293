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
	struct counters c = counters_array(W, NW, NULL);
	static const uint32_t big[] = { 4, 0xffffffffu, 0xffffffffu, 7 };
	struct counters cb = counters_array(big, 4, NULL);

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
	c = counters_array(w, 53, NULL);
	for (uint64_t from = 1; from <= 53; from++)
		for (uint64_t to = from; to <= 53; to++) {
			uint64_t want = 0;

			for (uint64_t k = from; k < to; k++)
				want += w[k];
			assert_true(counters_sum(&c, from, to) == want);
		}
}

/* With block sums: a whole block is its sum, a block of zeros is not
 * read, the rest is read; every cut around the blocks' edges agrees
 * with the words. */
static void
block_sums(void **state)
{
	enum { B = COUNTERS_BLOCK, N = 4 * B + 5 };
	uint32_t *w = calloc(N, sizeof *w);
	uint64_t blk[5] = { 0 };
	struct counters c;

	(void)state;
	w[0] = 4;
	for (size_t k = 1; k < N; k++)
		if (k / B != 2)	/* block 2 all zeros */
			w[k] = (uint32_t)(k * 2654435761u) >> (k % 29);
	for (size_t k = 1; k < N; k++)
		blk[k / B] += w[k];
	c = counters_array(w, N, blk);
	for (uint64_t from = 1; from <= N; from += from % B < 3 ||
	    from % B > B - 4 ? 1 : 97)
		for (uint64_t to = from; to <= N; to += to % B < 3 ||
		    to % B > B - 4 ? 1 : 89) {
			uint64_t want = 0;

			for (uint64_t k = from; k < to; k++)
				want += w[k];
			if (counters_sum(&c, from, to) != want)
				fail_msg("sum [%llu, %llu)", (unsigned long long)from,
				    (unsigned long long)to);
		}
	/* the sums are what is read for whole blocks */
	blk[1] += 1;
	assert_true(counters_sum(&c, B, 2 * B) == blk[1]);
	free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums),
		cmocka_unit_test(long_sums),
		cmocka_unit_test(block_sums),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
