/*
 * test_pprof.c - the pieces of --pprof: CRC-32, gzip's stored blocks as
 * a stream, cpu time in exact integers, and strings that are valid UTF-8
 * (the build-id's notes parser is test_notes.c's).  What the encoder
 * writes is read back by fuzz/pprof_check.h, a reader of its own.
 */
#include "unit.h"
#include "views/pprof.h"
#include "base/crc32.h"
#include "../../fuzz/pprof_check.h"

static void
crc(void **state)
{
	(void)state;
	/* the check value of CRC-32/ISO-HDLC */
	assert_int_equal(crc32_update(0, (const unsigned char *)"123456789",
	    9), 0xcbf43926u);
	assert_int_equal(crc32_update(0, NULL, 0), 0);
	/* in two parts as in one */
	assert_int_equal(crc32_update(crc32_update(0,
	    (const unsigned char *)"1234", 4), (const unsigned char *)"56789",
	    5), 0xcbf43926u);
	assert_int_equal(pc_crc32((const unsigned char *)"123456789", 9),
	    0xcbf43926u);
}

/* N bytes written in pieces of PIECE: read back whole. */
static void
gzip_n(size_t n, size_t piece)
{
	unsigned char *p = malloc(n + 1), *back;
	char *g = NULL;
	size_t len = 0, got;
	FILE *f = open_memstream(&g, &len);
	struct gz z;

	for (size_t j = 0; j < n; j++)
		p[j] = (unsigned char)(j * 7 + j / 251);
	gz_begin(&z, f);
	for (size_t at = 0; at < n; at += piece)
		gz_write(&z, p + at, n - at < piece ? n - at : piece);
	assert_int_equal(gz_end(&z), 0);
	assert_int_equal(fclose(f), 0);
	back = pc_inflate((unsigned char *)g, len, &got);
	assert_non_null(back);
	assert_int_equal(got, n);
	if (n)
		assert_memory_equal(back, p, n);
	/* a block per 65535 bytes or part of them, one (empty) for none:
	 * no other bytes */
	assert_int_equal(len, 10 + 5 * (n ? (n + 65534) / 65535 : 1) + n + 8);
	free(p);
	free(g);
	free(back);
}

static void
gzip(void **state)
{
	size_t sizes[] = { 0, 1, 65534, 65535, 65536, 131070, 200000 };

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		gzip_n(sizes[i], 1 + sizes[i]);
		gzip_n(sizes[i], 1000);
		gzip_n(sizes[i], 1);
	}
}

/* ticks * 10^9 / rate, rounded: exact, clamped past int64, no UB */
static void
nanos(void **state)
{
	uint64_t c = 0;

	(void)state;
	assert_int_equal(pprof_nanos(1, 250, &c), 4000000);
	assert_int_equal(pprof_nanos(1, 3, &c), 333333333);
	assert_int_equal(pprof_nanos(2, 3, &c), 666666667);
	assert_int_equal(pprof_nanos(7, 300, &c), 23333333);
	/* 3 counters of 2^32 - 1, and 16: at 1000 Hz and 250 Hz exact */
	assert_int_equal(pprof_nanos(12884901885u, 1000, &c),
	    12884901885000000);
	assert_int_equal(pprof_nanos(68719476720u, 250, &c),
	    274877906880000000);
	/* the largest whole second that fits, and the rate's largest */
	assert_int_equal(pprof_nanos(9223372036u, 1, &c), 9223372036000000000);
	assert_int_equal(pprof_nanos(UINT64_MAX, UINT32_MAX, &c),
	    4294967297000000000);
	assert_int_equal(pprof_nanos(UINT64_MAX - 1, UINT32_MAX, &c),
	    4294967297000000000);
	assert_int_equal(c, 0);
	/* at 1 Hz these are past int64: clamped, and counted */
	assert_int_equal(pprof_nanos(9223372037u, 1, &c), INT64_MAX);
	assert_int_equal(pprof_nanos(12884901885u, 1, &c), INT64_MAX);
	assert_int_equal(pprof_nanos(68719476720u, 1, &c), INT64_MAX);
	assert_int_equal(pprof_nanos(UINT64_MAX, 1, &c), INT64_MAX);
	assert_int_equal(c, 4);
}

/* The whole profile of functions named NAMES, on a map named MAP. */
static char *
encode(const char *const *names, size_t n, const char *map, uint32_t rate,
    size_t *len)
{
	static const char *const com[] = { "command: x '\377'" };
	struct pprof_meta in = { .start = 0x1000, .limit = 0x2000,
	    .rate = rate, .comments = com, .ncomments = 1 };
	struct options o = { 0 };
	struct run rn = { .o = &o, .map = map };
	struct pprof_enc e;
	char *g = NULL;
	FILE *f = open_memstream(&g, len);

	pprof_begin(&e, f, &rn, &in);
	for (size_t i = 0; i < n; i++) {
		struct func_rec r = { .addr = 0x1000 + 16 * i, .len = 16,
		    .ticks = i + 1, .name = (char *)names[i],
		    .namelen = strlen(names[i]) };

		pprof_func(&e, &r, NULL, NULL);
	}
	pprof_unplaced(&e, "*unknown*", 5);
	assert_int_equal(pprof_end(&e), 0);
	assert_int_equal(fclose(f), 0);
	return g;
}

/* Whether the profile G holds the string S (its bytes, after a length). */
static int
has_string(const char *g, size_t len, const char *s)
{
	size_t n, sl = strlen(s);
	unsigned char *pb = pc_inflate((const unsigned char *)g, len, &n);
	int found = 0;

	assert_non_null(pb);
	for (size_t i = 0; i + 2 + sl <= n && !found; i++)
		found = pb[i] == (6 << 3 | 2) && pb[i + 1] == sl &&
		    memcmp(pb + i + 2, s, sl) == 0;
	free(pb);
	return found;
}

static void
strings(void **state)
{
	static const char *const names[] = {
		"caf\xe9", "caf\xc3\xa9", "back\\slash", "cut\xe2\x82",
		"surrogate\xed\xa0\x80", "overlong\xc0\xaf", "max\xf4\x8f\xbf\xbf",
		"past\xf4\x90\x80\x80", "", "\x80", "tab\tnl\n",
	};
	struct pprof_stats st;
	size_t len;
	char *g = encode(names, sizeof names / sizeof names[0],
	    "/boot/map\xff", 250, &len);
	const char *why = pprof_check((unsigned char *)g, len, &st);

	(void)state;
	assert_null(why);
	assert_int_equal(st.functions, 12);	/* and *unknown* */
	assert_int_equal(st.samples, 12);
	assert_int_equal(st.value_sum[0], 66 + 5);
	assert_int_equal(st.value_sum[1], (66 + 5) * 4000000);
	/* invalid bytes as \xNN, a backslash doubled, valid UTF-8 as is */
	assert_true(has_string(g, len, "caf\\xe9"));
	assert_true(has_string(g, len, "caf\xc3\xa9"));
	assert_true(has_string(g, len, "back\\\\slash"));
	assert_true(has_string(g, len, "cut\\xe2\\x82"));
	assert_true(has_string(g, len, "surrogate\\xed\\xa0\\x80"));
	assert_true(has_string(g, len, "overlong\\xc0\\xaf"));
	assert_true(has_string(g, len, "max\xf4\x8f\xbf\xbf"));
	assert_true(has_string(g, len, "past\\xf4\\x90\\x80\\x80"));
	assert_true(has_string(g, len, "\\x80"));
	assert_true(has_string(g, len, "tab\tnl\n"));
	assert_true(has_string(g, len, "/boot/map\\xff"));
	assert_true(has_string(g, len, "command: x '\\xff'"));
	free(g);
}

/* The checker itself rejects what it must. */
static void
checker(void **state)
{
	static const char *const names[] = { "alpha" };
	struct pprof_stats st;
	size_t len, n;
	char *g = encode(names, 1, "map", 0, &len);
	unsigned char *pb = pc_inflate((unsigned char *)g, len, &n);

	(void)state;
	assert_null(pprof_check((unsigned char *)g, len, &st));
	assert_int_equal(st.value_sum[1], 0);	/* no rate: one value */
	g[len - 5] ^= 1;			/* the size */
	assert_non_null(pprof_check((unsigned char *)g, len, &st));
	g[len - 5] ^= 1;
	for (size_t i = 0; i < n; i++)		/* a byte of "alpha" */
		if (memcmp(pb + i, "alpha", 5) == 0) {
			g[len - 8 - 5 - n + i] = (char)0xe9;
			break;
		}
	assert_string_equal(pprof_check((unsigned char *)g, len, &st),
	    "not a gzip member of stored blocks");	/* the CRC */
	assert_int_equal(pc_utf8((const unsigned char *)"\xe9", 1), 0);
	assert_int_equal(pc_utf8((const unsigned char *)"\xc3\xa9", 2), 1);
	free(pb);
	free(g);
}

/* A unit of the call graph (hist/gmon.h, 8-byte addresses and counts). */
static void
unit(unsigned char *u, uint64_t from, uint64_t self, uint64_t count)
{
	uint64_t v[3] = { from, self, count };

	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 8; i++)
			u[8 * k + i] = (unsigned char)(v[k] >> (56 - 8 * i));
}

/*
 * Call arcs: functions at 0x1000 (3 ticks), 0x1010 (none: not listed,
 * yet its Function made for its arcs) and 0x1030 (4 ticks), no function
 * in [0x1020, 0x1030) nor past 0x1040.  Each arc a sample of two
 * Locations with its count as calls; the time samples' calls 0; one
 * Function *unknown* for the arcs' ends and the ticks of no function.
 */
static void
calls(void **state)
{
	unsigned char u[6 * 24];
	uint32_t by_self[6] = { 1, 0, 3, 2, 4, 5 };	/* by self, below */
	struct gmon_graph x = { u, 6, 24, 8, 8, by_self };
	struct pprof_meta in = { .start = 0x1000, .limit = 0x1040,
	    .rate = 100 };
	struct options o = { 0 };
	struct run rn = { .o = &o, .map = "prog", .arcs = &x };
	struct func_rec f[3] = {
		{ .addr = 0x1000, .len = 16, .ticks = 3, .name = "a", .namelen = 1 },
		{ .addr = 0x1010, .len = 16, .name = "b", .namelen = 1 },
		{ .addr = 0x1030, .len = 16, .ticks = 4, .name = "c", .namelen = 1 },
	};
	struct pprof_enc e;
	struct pprof_stats st;
	char *g = NULL;
	size_t len;
	FILE *fp = open_memstream(&g, &len);

	(void)state;
	unit(u, 0x1004, 0x1010, 5);		/* a -> b */
	unit(u + 24, 0x1014, 0x1000, 7);	/* b -> a */
	unit(u + 48, 0x1024, 0x1030, 2);	/* *unknown* -> c */
	unit(u + 72, 0x1034, 0x1028, 3);	/* c -> *unknown* */
	unit(u + 96, 0x1036, 0x1030, 1);	/* c -> c */
	unit(u + 120, 0x1050, 0x1050, 6);	/* *unknown* -> *unknown* */
	pprof_begin(&e, fp, &rn, &in);
	for (int i = 0; i < 3; i++) {
		if (f[i].ticks)
			pprof_func(&e, &f[i], NULL, NULL);
		pprof_calls(&e, &f[i]);
	}
	pprof_calls_end(&e);
	pprof_unplaced(&e, "*unknown*", 9);
	assert_int_equal(pprof_end(&e), 0);
	assert_int_equal(fclose(fp), 0);
	if (pprof_check((unsigned char *)g, len, &st) != NULL)
		fail_msg("%s", pprof_check((unsigned char *)g, len, &st));
	assert_int_equal(st.types, 3);
	assert_int_equal(st.functions, 4);
	assert_int_equal(st.samples, 3 + 6);
	assert_int_equal(st.arcs, 6);
	assert_int_equal(st.arc_calls, 24);
	assert_int_equal(st.value_sum[0], 16);
	assert_int_equal(st.value_sum[1], 160000000);
	assert_int_equal(st.value_sum[2], 24);
	/* locations: a's address (its ticks', and its callees') and call
	 * site; b's call site and address; c's address and two call
	 * sites; *unknown*'s two call sites and two callee addresses, and
	 * its ticks' */
	assert_int_equal(st.locations, 2 + 2 + 3 + 4 + 1);
	assert_true(has_string(g, len, "calls"));
	free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc),
		cmocka_unit_test(gzip),
		cmocka_unit_test(nanos),
		cmocka_unit_test(strings),
		cmocka_unit_test(checker),
		cmocka_unit_test(calls),
	};

	return cmocka_run_group_tests_name("pprof", tests, NULL, NULL);
}
