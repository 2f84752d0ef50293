/*
 * test_interval.c - the --interval difference (hist/watch.c) against
 * plain subtraction: random reads (mostly zero, some counters growing,
 * some reads reset), read back through span() and sums.
 */
#include "unit.h"
#include "hist/watch.h"

static uint64_t x = 0x2545f4914f6cdd1dull;

static uint64_t
rnd(void)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static void
check_diff(const struct watch *w, const uint32_t *want, size_t n)
{
	struct counters c = watch_counters(w);

	assert_int_equal(c.n, n);
	assert_int_equal(counters_get(&c, 0), want[0]);	/* the step */
	for (size_t k = 1; k < n;) {
		size_t got;
		const uint32_t *d = c.span(c.ctx, k, n, &got);
		assert_true(got >= 1 && got <= n - k);
		for (size_t i = 0; i < got; i++)
			assert_int_equal(d[i], want[k + i]);
		k += got;
	}
	for (int t = 0; t < 50; t++) {
		uint64_t a = 1 + rnd() % (n - 1), b = a + rnd() % (n - a + 1);
		uint64_t s = 0;
		for (uint64_t k = a; k < b; k++)
			s += want[k];
		assert_int_equal(counters_sum(&c, a, b), s);
	}
}

static uint32_t *
copy(const uint32_t *w, size_t n)
{
	uint32_t *c = malloc(n * 4);

	memcpy(c, w, n * 4);
	return c;
}

static void
random_reads(void **state)
{
	(void)state;
	for (int round = 0; round < 200; round++) {
		size_t n = 2 + (size_t)(rnd() % 300);
		uint32_t *prev = calloc(n, 4), *cur = calloc(n, 4);
		uint32_t *want = calloc(n, 4);
		struct watch w;

		prev[0] = cur[0] = want[0] = 4;
		for (size_t k = 1; k < n; k++)
			prev[k] = rnd() % 4 == 0 ? (uint32_t)(rnd() % 1000) : 0;
		watch_start(&w, copy(prev, n), n);
		for (int read = 0; read < 12; read++) {
			int reset = rnd() % 5 == 0, got;
			for (size_t k = 1; k < n; k++) {
				uint32_t add = rnd() % 3 == 0 ?
				    (uint32_t)(rnd() % 50) : 0;
				cur[k] = reset ? add : prev[k] + add;
			}
			if (reset) {	/* a reset shows only if one went down */
				reset = 0;
				for (size_t k = 1; k < n; k++)
					reset |= cur[k] < prev[k];
			}
			for (size_t k = 1; k < n; k++)
				want[k] = reset ? cur[k] : cur[k] - prev[k];
			got = watch_update(&w, copy(cur, n));
			assert_int_equal(got, reset);
			check_diff(&w, want, n);
			if (read % 2)
				watch_forget(&w);
			memcpy(prev, cur, n * 4);
		}
		watch_free(&w);
		free(prev);
		free(cur);
		free(want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
