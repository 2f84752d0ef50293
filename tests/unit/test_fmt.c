/*
 * test_fmt.c - the hand-written number formatting against printf itself,
 * over many millions of values drawn across the range the reports print
 * (FMT_ITERATIONS, default 4,000,000 per format), plus the edge cases.
 */
#include "unit.h"
#include "base/fmt.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static long
iterations(void)
{
	const char *s = getenv("FMT_ITERATIONS");

	return s ? atol(s) : 4000000;
}

/* A value of a random magnitude: small numbers matter most. */
static uint64_t
any_u64(void)
{
	return next() >> (next() % 64);
}

static void
same(const char *want, const char *got, size_t n)
{
	if (strlen(want) != n || memcmp(want, got, n) != 0)
		fail_msg("printf \"%s\", ours \"%.*s\"", want, (int)n, got);
}

static void
check_fix84(double v)
{
	char want[128], got[FMT_MAX];
	size_t n;

	snprintf(want, sizeof want, "%8.4f", v);
	n = fmt_fix84(got, v);
	same(want, got, n);
}

static void
integers(void **state)
{
	char want[64], got[FMT_MAX];
	long n = iterations();

	(void)state;
	for (long i = 0; i < n; i++) {
		uint64_t v = any_u64();
		unsigned long long u = v;

		snprintf(want, sizeof want, "%6llu", u);
		same(want, got, fmt_u64w(got, v, 6));
		snprintf(want, sizeof want, "%llu", u);
		same(want, got, fmt_u64(got, v));
		snprintf(want, sizeof want, "%016llx", u);
		same(want, got, fmt_hex16(got, v));
		snprintf(want, sizeof want, "%#llx", u);
		same(want, got, fmt_althex(got, v));
		snprintf(want, sizeof want, "%llx", u);
		same(want, got, fmt_hex(got, v));
	}
	for (uint64_t v = 0; v < 100000; v++) {
		snprintf(want, sizeof want, "%6llu", (unsigned long long)v);
		same(want, got, fmt_u64w(got, v, 6));
		snprintf(want, sizeof want, "%#llx", (unsigned long long)v);
		same(want, got, fmt_althex(got, v));
	}
}

/* Loads as the report computes them: ticks / length. */
static void
loads(void **state)
{
	long n = iterations();

	(void)state;
	for (long i = 0; i < n; i++) {
		uint64_t ticks = any_u64() >> (next() % 2 ? 32 : 0);
		uint64_t len = any_u64() >> (next() % 3 ? 40 : 0);

		if (len == 0)
			len = 1;
		check_fix84((double)ticks / (double)len);
	}
	/* every small quotient, where exact ties live (x/2^k) */
	for (uint64_t t = 0; t < 600; t++)
		for (uint64_t len = 1; len < 600; len++)
			check_fix84((double)t / (double)len);
}

/*
 * A tick count as a profile holds it: a counter, 0 to 2^32-1, of a
 * magnitude drawn evenly from 0 to 32 bits; a quarter of them are sums of
 * up to 2^20 counters (a function's total, the report's).
 */
static uint64_t
ticks_of(void)
{
	uint64_t t = (next() & 0xffffffffull) >> (next() % 33);

	if (next() % 4 == 0)
		t *= 1 + next() % (1u << 20);
	return t;
}

/*
 * A length in bytes: of a function, a bucket or a kernel's text, 1 byte
 * to 256 MiB, of a magnitude drawn evenly; half of them a multiple of a
 * step from 4 to 64.
 */
static uint64_t
length_of(void)
{
	uint64_t len = 1 + (next() & ((1ull << (1 + next() % 28)) - 1));

	if (next() % 2) {
		uint64_t step = 4ull << (next() % 5);

		len = (len + step - 1) / step * step;
	}
	return len;
}

/* fix84 of V, counted in *NONZERO when it does not print as 0.0000 */
static void
check_figure(double v, long *nonzero)
{
	char got[FMT_MAX];
	size_t n;

	check_fix84(v);
	n = fmt_fix84(got, v);
	if (n != 8 || memcmp(got, "  0.0000", 8) != 0)
		++*nonzero;
}

/*
 * The figures reports print with four decimals: loads (ticks / length),
 * percentages (ticks * 100 / a total at least as large) and tick counts
 * themselves; most of them must print as more than 0.0000, or the test
 * would prove little.
 */
static void
figures(void **state)
{
	long n = iterations(), nonzero = 0;

	(void)state;
	for (long i = 0; i < n; i++) {
		uint64_t t = ticks_of(), total = t + ticks_of();

		check_figure((double)t / (double)length_of(), &nonzero);
		if (total > 0)
			check_figure((double)t * 100.0 / (double)total, &nonzero);
		check_figure((double)t, &nonzero);
	}
	if (nonzero < n * 3 / 2)
		fail_msg("only %ld of %ld figures print as more than 0.0000",
		    nonzero, 3 * n);
	check_fix84(0.0);
	check_fix84(0.00005);		/* tie below the last digit */
	check_fix84(0.00015);
	check_fix84(0.03125);		/* exact tie: half to even */
	check_fix84(0.09375);
	check_fix84(9999.99995);
	check_fix84(99999.99995);
	check_fix84(4294967295.0);
	check_fix84(18446744073709551615.0);
	check_fix84(1e30);
	check_fix84(5e-324);		/* smallest subnormal */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(loads),
		cmocka_unit_test(figures),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
