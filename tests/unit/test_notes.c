/*
 * test_notes.c - the GNU build-id among ELF notes (sym/notes.c), and the
 * word reader under them (word_at, base/util.h).
 */
#include "unit.h"

#include "sym/notes.h"
#include "base/util.h"

/* Append one note to BUF at *LEN: NAME (namesz = strlen + 1, or 0 for
 * NULL), TYPE, DESC of DN bytes, padded to ALIGN, in BIG order. */
static void
note(unsigned char *buf, size_t *len, int big, size_t align,
    const char *name, uint32_t type, const void *desc, uint32_t dn)
{
	uint32_t w[3] = { name ? (uint32_t)strlen(name) + 1 : 0, dn, type };

	for (int i = 0; i < 3; i++)
		for (int b = 0; b < 4; b++)
			buf[*len + (size_t)i * 4 + (size_t)b] = big ?
			    (unsigned char)(w[i] >> (24 - 8 * b)) :
			    (unsigned char)(w[i] >> (8 * b));
	*len += 12;
	if (name) {
		memcpy(buf + *len, name, w[0]);
		*len += w[0];
	}
	while (*len % align)
		buf[(*len)++] = 0xee;	/* padding: never read as data */
	memcpy(buf + *len, desc, dn);
	*len += dn;
	while (*len % align)
		buf[(*len)++] = 0xee;
}

static const unsigned char ID[20] = {
	0x6a, 0x2b, 0x4a, 0xc7, 0x75, 0x85, 0xb8, 0xcf, 0x10, 0x2c,
	0xba, 0x77, 0x13, 0x00, 0xe5, 0x73, 0xc8, 0x48, 0x9b, 0x69,
};

static void
expect_id(const unsigned char *buf, size_t len, int big, size_t align,
    const char *hex)
{
	struct build_id id;
	char h[BUILD_ID_HEX];

	assert_int_equal(notes_build_id(buf, len, big, align, &id),
	    NOTES_FOUND);
	assert_string_equal(build_id_hex(&id, h), hex);
}

static void
test_several_notes(void **state)
{
	unsigned char buf[512];
	size_t len = 0;
	int big;

	(void)state;
	for (big = 0; big <= 1; big++) {
		len = 0;
		/* Xen's type 3 is not a build-id; odd name lengths */
		note(buf, &len, big, 4, "Xen", 3, "\0\0\0\x80\xff\xff\xff\xff", 8);
		note(buf, &len, big, 4, "Linux", 0x100, "6.1.0-57-amd64", 15);
		note(buf, &len, big, 4, "GNUX", 3, "abcd", 4);
		note(buf, &len, big, 4, "GN", 3, "abcd", 4);
		note(buf, &len, big, 4, NULL, 3, "abcd", 4);
		note(buf, &len, big, 4, "GNU", 1, "\0\0\0\0", 4);
		note(buf, &len, big, 4, "GNU", 3, ID, 20);
		note(buf, &len, big, 4, "Linux", 0x101, "\0\0\0\0", 4);
		expect_id(buf, len, big, 4,
		    "6a2b4ac77585b8cf102cba771300e573c8489b69");
		/* cut anywhere: never a wrong id, found only when the cut
		 * leaves the whole id (the last note is 24 bytes) */
		for (size_t cut = 0; cut < len; cut++) {
			struct build_id id;

			if (notes_build_id(buf, cut, big, 4, &id) != NOTES_FOUND)
				continue;
			assert_true(cut >= len - 24);
			assert_int_equal(id.n, 20);
			assert_memory_equal(id.b, ID, 20);
		}
		/* the other byte order never finds it */
		{
			struct build_id id;

			assert_int_not_equal(notes_build_id(buf, len, !big, 4,
			    &id), NOTES_FOUND);
		}
	}
}

static void
test_align8_and_odd_sizes(void **state)
{
	unsigned char buf[256];
	size_t len = 0;

	(void)state;
	note(buf, &len, 0, 8, "ABCDEFG", 7, "x", 1);	/* namesz 8, descsz 1 */
	note(buf, &len, 0, 8, "GNU", 3, ID, 16);
	expect_id(buf, len, 0, 8, "6a2b4ac77585b8cf102cba771300e573");
	/* with 4-byte alignment the same bytes do not parse the same way */
	{
		struct build_id id;
		enum notes_result r = notes_build_id(buf, len, 0, 4, &id);

		assert_true(r != NOTES_FOUND || id.n != 16 ||
		    memcmp(id.b, ID, 16) != 0);
	}
	/* a GNU note of another type first: a property note, as x86-64
	 * programs' PT_NOTE segments (p_align 8) start with */
	len = 0;
	note(buf, &len, 0, 8, "GNU", 5, "\2\0\0\xc0\4\0\0\0\3\0\0\0\0\0\0\0",
	    16);
	note(buf, &len, 0, 8, "GNU", 3, ID, 20);
	expect_id(buf, len, 0, 8, "6a2b4ac77585b8cf102cba771300e573c8489b69");
	/* a 3-byte id, unpadded at the very end */
	len = 0;
	note(buf, &len, 1, 4, "GNU", 3, "\x01\x02\x03", 3);
	expect_id(buf, len - 1, 1, 4, "010203");
}

static void
test_none_and_truncated(void **state)
{
	unsigned char buf[256];
	struct build_id id;
	size_t len = 0, full;

	(void)state;
	memset(buf, 0, sizeof buf);
	assert_int_equal(notes_build_id(buf, 0, 0, 4, &id), NOTES_NONE);
	note(buf, &len, 0, 4, "Xen", 6, "linux", 6);
	assert_int_equal(notes_build_id(buf, len, 0, 4, &id), NOTES_NONE);
	assert_int_equal(id.n, 0);
	note(buf, &len, 0, 4, "GNU", 3, ID, 20);
	full = len;
	/* every cut inside the build-id note is truncated, never found */
	for (size_t n = 24; n < full; n++) {
		enum notes_result r = notes_build_id(buf, n, 0, 4, &id);

		assert_int_equal(r, n == 24 ? NOTES_NONE : NOTES_BAD);
		assert_int_equal(id.n, 0);
	}
	/* a size that wraps */
	len = 0;
	note(buf, &len, 0, 4, "GNU", 3, ID, 20);
	buf[4] = buf[5] = buf[6] = buf[7] = 0xff;
	assert_int_equal(notes_build_id(buf, len, 0, 4, &id), NOTES_BAD);
	buf[4] = 20;
	buf[5] = buf[6] = buf[7] = 0;
	buf[0] = buf[1] = buf[2] = buf[3] = 0xff;
	assert_int_equal(notes_build_id(buf, len, 0, 4, &id), NOTES_BAD);
	/* a name size that, added to the offset of the name where size_t
	 * is 32 bits wide, would wrap to 0: the next note at the same place
	 * again, for ever */
	buf[0] = 0xf4;
	buf[1] = buf[2] = buf[3] = 0xff;
	buf[4] = 0;
	assert_int_equal(notes_build_id(buf, len, 0, 4, &id), NOTES_BAD);
	buf[4] = 20;
	/* the wrong byte order does not find it */
	buf[0] = 4;
	buf[1] = buf[2] = buf[3] = 0;
	assert_int_not_equal(notes_build_id(buf, len, 1, 4, &id), NOTES_FOUND);
	/* too long an id counts as none */
	len = 0;
	{
		unsigned char big[BUILD_ID_MAX + 4];

		memset(big, 7, sizeof big);
		note(buf, &len, 0, 4, "GNU", 3, big, sizeof big);
	}
	assert_int_equal(notes_build_id(buf, len, 0, 4, &id), NOTES_NONE);
}

/* A fixture of fixtures/notes, read from the top of the source tree. */
static unsigned char *
fixture(const char *name, size_t *n)
{
	char path[256];
	static unsigned char buf[4096];
	FILE *f;

	snprintf(path, sizeof path, "fixtures/notes/%s", name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("%s: cannot open (run from the top of the tree)", path);
	*n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return buf;
}

static void
test_real_kernels(void **state)
{
	unsigned char *b;
	size_t n;

	(void)state;
	b = fixture("debian-6.1.0-57-amd64.notes", &n);
	assert_int_equal(n, 504);
	expect_id(b, n, 0, 4, "6a2b4ac77585b8cf102cba771300e573c8489b69");
	b = fixture("debian-6.1.0-50-s390x.notes", &n);
	assert_int_equal(n, 96);
	expect_id(b, n, 1, 4, "64191809e7272da77af306133aa6c566be0be242");
	/* cut before its end: truncated */
	assert_int_equal(notes_build_id(b, 30, 1, 4,
	    &(struct build_id){ 0 }), NOTES_BAD);
}

static void
test_file(void **state)
{
	unsigned char buf[64];
	size_t len = 0;
	struct build_id id, other;
	static const uint32_t one = 1;
	int big = *(const unsigned char *)&one == 0;
	char *path;

	(void)state;
	note(buf, &len, big, 4, "GNU", 3, ID, 20);
	path = temp_file(buf, len);
	assert_int_equal(notes_file_build_id(path, &id), NOTES_FOUND);
	assert_int_equal(id.n, 20);
	other = id;
	assert_true(build_id_equal(&id, &other));
	other.b[19] ^= 1;
	assert_false(build_id_equal(&id, &other));
	other.n = 0;
	id.n = 0;
	assert_false(build_id_equal(&id, &other));
	unlink(path);
	assert_int_equal(notes_file_build_id(path, &id), NOTES_NONE);
	free(path);
}

/* Every length and both orders, at every alignment, against the bytes
 * put together one at a time; the bytes around are never read into it. */
static void
test_word_at(void **state)
{
	unsigned char b[24];

	(void)state;
	for (size_t i = 0; i < sizeof b; i++)
		b[i] = (unsigned char)(0x81 + 0x11 * i);
	for (size_t at = 0; at < 8; at++)
		for (size_t len = 1; len <= 8; len++) {
			uint64_t be = 0, le = 0;

			for (size_t i = 0; i < len; i++) {
				be = be << 8 | b[at + i];
				le = le << 8 | b[at + len - 1 - i];
			}
			assert_true(word_at(b + at, len, 1) == be);
			assert_true(word_at(b + at, len, 0) == le);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_several_notes),
		cmocka_unit_test(test_align8_and_odd_sizes),
		cmocka_unit_test(test_none_and_truncated),
		cmocka_unit_test(test_real_kernels),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_word_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
