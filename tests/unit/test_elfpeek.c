/*
 * test_elfpeek.c - an ELF file's headers (elf_peek, sym/elfsym.c): .symtab, the
 * build-id from a note section or a PT_NOTE segment, .gnu_debuglink,
 * the executable segments; files that are not ELF; the debug link CRC.
 */
#include "unit.h"

#include <sys/stat.h>

#include "sym/elfsym.h"

static const unsigned char ID[20] = {
	0x6a, 0x2b, 0x4a, 0xc7, 0x75, 0x85, 0xb8, 0xcf, 0x10, 0x2c,
	0xba, 0x77, 0x13, 0x00, 0xe5, 0x73, 0xc8, 0x48, 0x9b, 0x69,
};

struct img {
	unsigned char b[0x400];
	int is64, big;
};

static void
put(struct img *m, size_t off, uint64_t v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		m->b[off + (m->big ? len - 1 - i : i)] =
		    (unsigned char)(v >> (8 * i));
}

/* An address-sized field at OFF32 (ELF32) or OFF64 (ELF64) of BASE. */
static void
puta(struct img *m, size_t base, size_t off32, size_t off64, uint64_t v)
{
	put(m, base + (m->is64 ? off64 : off32), v, m->is64 ? 8 : 4);
}

enum { PH = 0x40, NOTE = 0x100, LINK = 0x140, STR = 0x160, SYM = 0x1c0,
	SH = 0x200 };
static const char names[] = "\0.symtab\0.note.gnu.build-id\0.gnu_debuglink"
    "\0.shstrtab";

static void
shdr(struct img *m, unsigned i, uint32_t name, uint32_t type, uint64_t off,
    uint64_t size, uint64_t align)
{
	size_t h = SH + i * (m->is64 ? 64 : 40);

	put(m, h, name, 4);
	put(m, h + 4, type, 4);
	puta(m, h, 16, 24, off);
	puta(m, h, 20, 32, size);
	puta(m, h, 32, 48, align);
}

static void
phdr(struct img *m, unsigned i, uint32_t type, uint32_t flags, uint64_t off,
    uint64_t vaddr, uint64_t size)
{
	size_t h = PH + i * (m->is64 ? 56 : 32);

	put(m, h, type, 4);
	put(m, h + (m->is64 ? 4 : 24), flags, 4);
	puta(m, h, 4, 8, off);
	puta(m, h, 8, 16, vaddr);
	puta(m, h, 16, 32, size);
	puta(m, h, 20, 40, size);
	puta(m, h, 28, 48, 4);
}

/*
 * An ELF file: program headers (an executable PT_LOAD at 0x401000 from
 * offset 0x1000, a data one, a PT_NOTE) and, with SECTIONS, .symtab (with
 * SYMTAB), the build-id note, .gnu_debuglink "prog.debug" CRC 0x12345678
 * and .shstrtab.
 */
static void
image(struct img *m, int is64, int big, int sections, int symtab)
{
	memset(m, 0, sizeof *m);
	m->is64 = is64;
	m->big = big;
	memcpy(m->b, "\177ELF", 4);
	m->b[4] = is64 ? 2 : 1;
	m->b[5] = big ? 2 : 1;
	m->b[6] = 1;
	put(m, 16, 2, 2);				/* ET_EXEC */
	puta(m, 0, 28, 32, PH);				/* e_phoff */
	put(m, is64 ? 54 : 42, is64 ? 56 : 32, 2);
	put(m, is64 ? 56 : 44, 3, 2);
	phdr(m, 0, 1, 5, 0x1000, 0x401000, 0x2000);	/* PT_LOAD, R+X */
	phdr(m, 1, 1, 6, 0x3000, 0x403000, 0x100);	/* PT_LOAD, R+W */
	phdr(m, 2, 4, 4, NOTE, 0x400100, 36);		/* PT_NOTE */
	put(m, NOTE, 4, 4);
	put(m, NOTE + 4, 20, 4);
	put(m, NOTE + 8, 3, 4);
	memcpy(m->b + NOTE + 12, "GNU", 4);
	memcpy(m->b + NOTE + 16, ID, 20);
	if (!sections)
		return;
	memcpy(m->b + LINK, "prog.debug", 11);
	put(m, LINK + 12, 0x12345678, 4);
	memcpy(m->b + STR, names, sizeof names);
	puta(m, 0, 32, 40, SH);				/* e_shoff */
	put(m, is64 ? 58 : 46, is64 ? 64 : 40, 2);
	put(m, is64 ? 60 : 48, 5, 2);
	put(m, is64 ? 62 : 50, 4, 2);
	shdr(m, 1, 1, symtab ? 2 : 1, SYM, 24, 8);	/* SHT_SYMTAB */
	shdr(m, 2, 9, 7, NOTE, 36, 4);			/* SHT_NOTE */
	shdr(m, 3, 28, 1, LINK, 16, 4);
	shdr(m, 4, 43, 3, STR, sizeof names, 1);	/* SHT_STRTAB */
}

static char *
written(const struct img *m, size_t n)
{
	return temp_file(m->b, n);
}

static void
expect_id(const struct elf_peek *pk)
{
	char hex[BUILD_ID_HEX];

	assert_string_equal(build_id_hex(&pk->bid, hex),
	    "6a2b4ac77585b8cf102cba771300e573c8489b69");
}

static void
test_whole(void **state)
{
	struct img m;
	struct elf_peek pk;
	uint64_t off;

	(void)state;
	for (int v = 0; v < 4; v++) {
		char *path;

		image(&m, v & 1, v >> 1, 1, 1);
		path = written(&m, sizeof m.b);
		assert_int_equal(elf_peek(path, &pk), 0);
		assert_true(pk.symtab);
		expect_id(&pk);
		assert_string_equal(pk.link, "prog.debug");
		assert_int_equal(pk.link_crc, 0x12345678);
		assert_int_equal(pk.ntext, 1);
		assert_int_equal(pk.text[0].vaddr, 0x401000);
		assert_int_equal(pk.text[0].offset, 0x1000);
		assert_int_equal(elf_peek_offset(&pk, 0x401234, &off), 0);
		assert_int_equal(off, 0x1234);
		/* outside every executable segment: the first places it */
		assert_int_equal(elf_peek_offset(&pk, 0x500000, &off), 0);
		assert_int_equal(off, 0x500000 - 0x400000);
		assert_int_equal(elf_peek_offset(&pk, 0x1000, &off), -1);
		unlink(path);
		free(path);
	}
}

static void
test_parts(void **state)
{
	struct img m;
	struct elf_peek pk;
	char *path;

	(void)state;
	/* stripped: no .symtab, still its build-id and link */
	image(&m, 1, 0, 1, 0);
	path = written(&m, sizeof m.b);
	assert_int_equal(elf_peek(path, &pk), 0);
	assert_false(pk.symtab);
	expect_id(&pk);
	unlink(path);
	free(path);
	/* no section headers: the build-id of the PT_NOTE segment */
	image(&m, 0, 1, 0, 0);
	path = written(&m, sizeof m.b);
	assert_int_equal(elf_peek(path, &pk), 0);
	expect_id(&pk);
	assert_string_equal(pk.link, "");
	unlink(path);
	free(path);
	/* the file ends before the section headers and the note: their
	 * parts are unknown, never read past the end */
	image(&m, 1, 0, 1, 1);
	path = written(&m, NOTE + 20);
	assert_int_equal(elf_peek(path, &pk), 0);
	assert_false(pk.symtab);
	assert_int_equal(pk.bid.n, 0);
	assert_int_equal(pk.ntext, 1);
	unlink(path);
	free(path);
	/* a section count past the end of the file */
	image(&m, 1, 0, 1, 1);
	put(&m, 60, 0xffff, 2);
	path = written(&m, sizeof m.b);
	assert_int_equal(elf_peek(path, &pk), 0);
	assert_false(pk.symtab);
	unlink(path);
	free(path);
}

static void
test_not_elf(void **state)
{
	struct img m;
	struct elf_peek pk;
	char *path, *gz;

	(void)state;
	image(&m, 1, 0, 1, 1);
	m.b[0] = 0;
	path = written(&m, sizeof m.b);
	assert_int_equal(elf_peek(path, &pk), -1);
	unlink(path);
	free(path);
	image(&m, 1, 0, 1, 1);
	path = written(&m, 40);			/* shorter than its header */
	assert_int_equal(elf_peek(path, &pk), -1);
	/* a compressed file's name: not read as it is */
	image(&m, 1, 0, 1, 1);
	gz = malloc(strlen(path) + 4);
	sprintf(gz, "%s.gz", path);
	unlink(path);
	free(path);
	path = written(&m, sizeof m.b);
	assert_int_equal(rename(path, gz), 0);
	assert_int_equal(elf_peek(gz, &pk), -1);
	unlink(gz);
	free(gz);
	free(path);
	assert_int_equal(elf_peek("/", &pk), -1);
	assert_int_equal(elf_peek("-", &pk), -1);
	assert_int_equal(elf_peek("/nonexistent/x", &pk), -1);
}

static void
test_crc32(void **state)
{
	char *path = temp_file("123456789", 9);
	uint32_t crc;

	(void)state;
	assert_int_equal(elf_file_crc32(path, &crc), 0);
	assert_int_equal(crc, 0xcbf43926);	/* the check value of CRC-32 */
	unlink(path);
	assert_int_equal(elf_file_crc32(path, &crc), -1);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_crc32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
