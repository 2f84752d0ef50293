/*
 * test_pprof.c - the pieces of --pprof: CRC-32, gzip's stored blocks and
 * the ELF notes parser for the build-id.
 */
#include "unit.h"
#include "out/pprof.h"
#include "base/crc32.h"
#include "sym/buildid.h"

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

/* A note: NAME (with its NUL), TYPE, DESC; words in BIG-endian order. */
static size_t
note(unsigned char *b, const char *name, uint32_t type, const char *desc,
    size_t dlen, int big, size_t align)
{
	uint32_t w[3] = { (uint32_t)strlen(name) + 1, (uint32_t)dlen, type };
	size_t at = 12, nlen = strlen(name) + 1;

	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 4; k++)
			b[i * 4 + k] = (unsigned char)(w[i] >>
			    (big ? 24 - 8 * k : 8 * k));
	memcpy(b + at, name, nlen);
	at += nlen;
	while (at % align)
		b[at++] = 0;
	memcpy(b + at, desc, dlen);
	at += dlen;
	while (at % align)
		b[at++] = 0;
	return at;
}

static void
notes(void **state)
{
	unsigned char b[512], id[BUILD_ID_MAX];
	size_t n;

	(void)state;
	for (int big = 0; big <= 1; big++) {
		/* Xen notes first, as Debian's kernel has them */
		n = note(b, "Xen", 6, "linux", 5, big, 4);
		n += note(b + n, "Linux", 3, "abc", 3, big, 4);	/* not GNU */
		n += note(b + n, "GNU", 3, "\x12\x34\x56\x78\x9a", 5, big, 4);
		assert_int_equal(elf_notes_build_id(b, n, 4, big, id), 5);
		assert_memory_equal(id, "\x12\x34\x56\x78\x9a", 5);
		/* cut anywhere: never a wrong id, never past the end */
		for (size_t cut = 0; cut < n; cut++) {
			size_t r = elf_notes_build_id(b, cut, 4, big, id);
			assert_true(r == 0 || (r == 5 && cut >= n - 8));
		}
		/* the other byte order finds nothing */
		assert_int_equal(elf_notes_build_id(b, n, 4, !big, id), 0);
	}
	/* 8-byte alignment (PT_NOTE segments with p_align 8) */
	n = note(b, "GNU", 5, "pppp", 4, 0, 8);		/* a property note */
	n += note(b + n, "GNU", 3, "\x01\x02\x03\x04\x05\x06\x07\x08", 8, 0, 8);
	assert_int_equal(elf_notes_build_id(b, n, 8, 0, id), 8);
	assert_memory_equal(id, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	/* a size beyond the data */
	n = note(b, "GNU", 3, "\x01\x02", 2, 0, 4);
	b[4] = 200;
	assert_int_equal(elf_notes_build_id(b, n, 4, 0, id), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc),
		cmocka_unit_test(gzip),
		cmocka_unit_test(notes),
	};

	return cmocka_run_group_tests_name("pprof", tests, NULL, NULL);
}
