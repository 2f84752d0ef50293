/*
 * test_pprof.c - the pieces of --pprof: CRC-32 and gzip's stored blocks
 * (the build-id's notes parser is test_notes.c's).
 */
#include "unit.h"
#include "views/pprof.h"
#include "base/crc32.h"

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
}

static uint32_t
le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
}

/* Walk the stored blocks of the gzip member G (LEN bytes): the data. */
static unsigned char *
inflate_stored(const unsigned char *g, size_t len, size_t *n)
{
	unsigned char *out = malloc(len);
	size_t at = 10;
	int last = 0;

	assert_true(len >= 18 && g[0] == 0x1f && g[1] == 0x8b && g[2] == 8 &&
	    g[3] == 0);
	*n = 0;
	while (!last) {
		unsigned m = g[at + 1] | g[at + 2] << 8;

		assert_int_equal(g[at] & ~1, 0);	/* BTYPE 00 */
		last = g[at] & 1;
		assert_int_equal(m ^ 0xffff, g[at + 3] | g[at + 4] << 8);
		memcpy(out + *n, g + at + 5, m);
		*n += m;
		at += 5 + m;
	}
	assert_int_equal(at + 8, len);
	assert_int_equal(le32(g + at), crc32_update(0, out, *n));
	assert_int_equal(le32(g + at + 4), (uint32_t)*n);
	return out;
}

static void
gzip(void **state)
{
	size_t sizes[] = { 0, 1, 65535, 65536, 200000 };

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		unsigned char *p = malloc(sizes[i] + 1), *g, *back;
		size_t len, n;

		for (size_t j = 0; j < sizes[i]; j++)
			p[j] = (unsigned char)(j * 7 + j / 251);
		g = gzip_stored(p, sizes[i], &len);
		back = inflate_stored(g, len, &n);
		assert_int_equal(n, sizes[i]);
		if (n)
			assert_memory_equal(back, p, n);
		free(p);
		free(g);
		free(back);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc),
		cmocka_unit_test(gzip),
	};

	return cmocka_run_group_tests_name("pprof", tests, NULL, NULL);
}
