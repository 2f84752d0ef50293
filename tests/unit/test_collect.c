/*
 * test_collect.c - the --top heap against a full sort: random ticks with
 * many ties, every limit from 1 past the count, keep-all in map order.
 */
#include "unit.h"
#include "core/collect.h"

struct ref {
	uint64_t addr, ticks, seq;
};

/* The order --top promises: ticks down, then address, then map order. */
static int
ref_cmp(const void *pa, const void *pb)
{
	const struct ref *a = pa, *b = pb;

	if (a->ticks != b->ticks)
		return a->ticks > b->ticks ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* N functions in map order (addresses going up, aliases included). */
static struct ref *
make(size_t n, uint64_t maxticks)
{
	struct ref *r = calloc(n ? n : 1, sizeof *r);
	uint64_t addr = 0x1000;

	for (size_t i = 0; i < n; i++) {
		addr += next() % 3 == 0 ? 0 : 1 + next() % 64;
		r[i].addr = addr;
		r[i].ticks = next() % (maxticks + 1);
		r[i].seq = i;
	}
	return r;
}

static void
check_top(const struct ref *r, size_t n, size_t limit)
{
	struct ref *want = malloc((n ? n : 1) * sizeof *want);
	struct attrib_span sp = { 0, 0, 0, 0 };
	struct collect k;
	char name[32];
	size_t keep = limit < n ? limit : n;

	memcpy(want, r, n * sizeof *r);
	qsort(want, n, sizeof *want, ref_cmp);
	collect_init(&k, limit);
	for (size_t i = 0; i < n; i++) {
		int len = snprintf(name, sizeof name, "f%zu", i);
		struct func_rec f = { .addr = r[i].addr, .len = 4,
		    .ticks = r[i].ticks, .seq = i, .sp = sp, .name = name,
		    .namelen = (size_t)len };

		collect_add(&k, &f);
	}
	collect_sort(&k);
	assert_int_equal(k.n, keep);
	for (size_t i = 0; i < keep; i++) {
		snprintf(name, sizeof name, "f%llu",
		    (unsigned long long)want[i].seq);
		assert_int_equal(k.v[i].ticks, want[i].ticks);
		assert_int_equal(k.v[i].addr, want[i].addr);
		assert_string_equal(k.v[i].name, name);
		assert_int_equal(k.v[i].namelen, strlen(name));
	}
	collect_free(&k);
	free(want);
}

static void
top_matches_sort(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		size_t n = next() % 200;
		struct ref *r = make(n, round % 3 == 0 ? 3 : 1000000);

		check_top(r, n, 1 + next() % (n + 5));
		check_top(r, n, 1);
		check_top(r, n, n + 1);
		free(r);
	}
}

static void
ties_by_address_then_map_order(void **state)
{
	struct ref r[] = {
		{ 0x30, 5, 0 }, { 0x10, 5, 1 }, { 0x20, 9, 2 },
		{ 0x10, 5, 3 }, { 0x40, 0, 4 },
	};

	(void)state;
	/* r is not in map order here: the sort must not rely on that */
	check_top(r, 5, 3);
	check_top(r, 5, 5);
}

static void
keep_all_in_map_order(void **state)
{
	struct attrib_span sp = { 1, 2, 1, 1 };
	struct collect k;

	(void)state;
	collect_init(&k, SIZE_MAX);
	for (uint64_t i = 0; i < 1000; i++) {
		struct func_rec f = { .addr = 0x1000 + i, .len = 1,
		    .ticks = i % 7, .seq = i, .sp = sp, .name = "n",
		    .namelen = 1 };

		collect_add(&k, &f);
	}
	collect_sort(&k);
	assert_int_equal(k.n, 1000);
	for (uint64_t i = 0; i < 1000; i++) {
		assert_int_equal(k.v[i].addr, 0x1000 + i);
		assert_int_equal(k.v[i].sp.end, 2);
	}
	collect_free(&k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(top_matches_sort),
		cmocka_unit_test(ties_by_address_then_map_order),
		cmocka_unit_test(keep_all_in_map_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
