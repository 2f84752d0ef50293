/*
 * test_elfsym.c - nm's type letters for ELF symbols, and a small ELF
 * built in memory, read in both classes and both byte orders.
 *
 * The letters are those GNU nm 2.40 prints for the same symbols (see
 * tests/elf/text.s and tests/elf/run.sh for the test against nm itself).
 */
#include <elf.h>

#include "unit.h"
#include "sym/elfsym.h"
#include "sym/symsrc.h"

#define AW (SHF_ALLOC | SHF_WRITE)
#define AX (SHF_ALLOC | SHF_EXECINSTR)

static void
section_letters(void **state)
{
	(void)state;
	assert_int_equal(elf_section_letter(".text", SHT_PROGBITS, AX), 't');
	assert_int_equal(elf_section_letter(".x", SHT_PROGBITS, SHF_EXECINSTR), 't');
	assert_int_equal(elf_section_letter(".x", SHT_NOBITS, AX), 't');
	assert_int_equal(elf_section_letter(".data", SHT_PROGBITS, AW), 'd');
	assert_int_equal(elf_section_letter(".tdata", SHT_PROGBITS, AW | SHF_TLS), 'd');
	assert_int_equal(elf_section_letter(".rodata", SHT_PROGBITS, SHF_ALLOC), 'r');
	assert_int_equal(elf_section_letter(".note.x", SHT_NOTE, SHF_ALLOC), 'r');
	assert_int_equal(elf_section_letter(".debug_alloc", SHT_PROGBITS, SHF_ALLOC), 'r');
	assert_int_equal(elf_section_letter(".bss", SHT_NOBITS, AW), 'b');
	assert_int_equal(elf_section_letter(".anb", SHT_NOBITS, SHF_ALLOC), 'b');
	assert_int_equal(elf_section_letter(".nb", SHT_NOBITS, 0), 'b');
	/* non-allocated: debugging by name, else read-only or unknown */
	assert_int_equal(elf_section_letter(".debug_info", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".debugx", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".debug_w", SHT_PROGBITS, SHF_WRITE), 'N');
	assert_int_equal(elf_section_letter(".zdebug", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".lineno", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".gnu.linkonce.wi.x", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".gnu.debuglto_.debug_info", SHT_PROGBITS, 0), 'N');
	assert_int_equal(elf_section_letter(".gnu.debuglto_.foo", SHT_PROGBITS, 0), 'n');
	assert_int_equal(elf_section_letter(".comment", SHT_PROGBITS, 0), 'n');
	assert_int_equal(elf_section_letter(".nnote", SHT_NOTE, 0), 'n');
	assert_int_equal(elf_section_letter(".gnu_debuglink", SHT_PROGBITS, 0), 'n');
	assert_int_equal(elf_section_letter(".wnonalloc", SHT_PROGBITS, SHF_WRITE), '?');
	/* PE names, alone or followed by '.', '$' or a digit */
	assert_int_equal(elf_section_letter(".pdata", SHT_PROGBITS, SHF_ALLOC), 'p');
	assert_int_equal(elf_section_letter(".pdata_w", SHT_NOBITS, AW), 'b');
	assert_int_equal(elf_section_letter(".edata", SHT_PROGBITS, SHF_ALLOC), 'e');
	assert_int_equal(elf_section_letter(".idata2", SHT_PROGBITS, AW), 'i');
	assert_int_equal(elf_section_letter(".idata$x", SHT_PROGBITS, AW), 'i');
	assert_int_equal(elf_section_letter(".drectve", SHT_PROGBITS, 0), 'i');
	assert_int_equal(elf_section_letter("", SHT_PROGBITS, AX), 't');
}

static void
symbol_letters(void **state)
{
	(void)state;
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_FUNC, 1, 't'), 'T');
	assert_int_equal(elf_symbol_letter(STB_LOCAL, STT_FUNC, 1, 't'), 't');
	assert_int_equal(elf_symbol_letter(STB_LOCAL, STT_OBJECT, 1, 't'), 't');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_OBJECT, 2, 'd'), 'D');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_TLS, 2, 'b'), 'B');
	/* weak: V for objects, W for the rest, TLS included */
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_FUNC, 1, 't'), 'W');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_NOTYPE, 1, 't'), 'W');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_OBJECT, 1, 't'), 'V');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_TLS, 2, 'd'), 'W');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_OBJECT, SHN_UNDEF, 0), 'v');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_NOTYPE, SHN_UNDEF, 0), 'w');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_NOTYPE, SHN_UNDEF, 0), 'U');
	/* indirect functions, whatever the binding */
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_GNU_IFUNC, 1, 't'), 'i');
	assert_int_equal(elf_symbol_letter(STB_LOCAL, STT_GNU_IFUNC, 1, 't'), 'i');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_GNU_IFUNC, 1, 't'), 'i');
	assert_int_equal(elf_symbol_letter(STB_GNU_UNIQUE, STT_OBJECT, 2, 'r'), 'u');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_OBJECT, SHN_COMMON, 0), 'C');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_NOTYPE, SHN_ABS, 0), 'A');
	assert_int_equal(elf_symbol_letter(STB_LOCAL, STT_NOTYPE, SHN_ABS, 0), 'a');
	assert_int_equal(elf_symbol_letter(STB_WEAK, STT_NOTYPE, SHN_ABS, 0), 'W');
	/* section letters: N stays, others go upper case for globals */
	assert_int_equal(elf_symbol_letter(STB_LOCAL, STT_NOTYPE, 3, 'N'), 'N');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_NOTYPE, 3, 'n'), 'N');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_NOTYPE, 3, 'p'), 'P');
	assert_int_equal(elf_symbol_letter(STB_GLOBAL, STT_NOTYPE, 3, '?'), '?');
	/* an unknown binding */
	assert_int_equal(elf_symbol_letter(5, STT_FUNC, 1, 't'), '?');
}

/*
 * A minimal ELF: sections null, .text, .strtab, .symtab; symbols given as
 * (name, value, info, shndx).  CLASS64 and BIG pick the layout.
 */
struct tsym {
	const char *name;
	uint64_t value;
	unsigned char info;
	uint16_t shndx;
};

static unsigned char img[4096];

static void
put(size_t off, uint64_t v, int n, int big)
{
	for (int i = 0; i < n; i++)
		img[off + (size_t)(big ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static size_t
build(int is64, int big, const struct tsym *s, size_t ns)
{
	size_t eh = is64 ? 64 : 52, shs = is64 ? 64 : 40, ss = is64 ? 24 : 16;
	size_t str = eh, strsz = 1, sym, shoff;
	uint32_t noff[16];

	memset(img, 0, sizeof img);
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	img[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;
	put(16, ET_EXEC, 2, big);
	for (size_t i = 0; i < ns; i++) {
		noff[i] = (uint32_t)strsz;
		strcpy((char *)img + str + strsz, s[i].name);
		strsz += strlen(s[i].name) + 1;
	}
	sym = (str + strsz + 7) & ~(size_t)7;
	for (size_t i = 0; i < ns; i++) {
		size_t p = sym + (i + 1) * ss;
		put(p, noff[i], 4, big);
		if (is64) {
			img[p + 4] = s[i].info;
			put(p + 6, s[i].shndx, 2, big);
			put(p + 8, s[i].value, 8, big);
		} else {
			put(p + 4, s[i].value, 4, big);
			img[p + 12] = s[i].info;
			put(p + 14, s[i].shndx, 2, big);
		}
	}
	shoff = (sym + (ns + 1) * ss + 7) & ~(size_t)7;
	put(is64 ? 40 : 32, shoff, is64 ? 8 : 4, big);
	put(is64 ? 58 : 46, shs, 2, big);
	put(is64 ? 60 : 48, 4, 2, big);
	/* section 1: .text, 2: .strtab, 3: .symtab (no name table) */
	put(shoff + shs + 4, SHT_PROGBITS, 4, big);
	put(shoff + shs + 8, AX, is64 ? 8 : 4, big);
	put(shoff + 2 * shs + 4, SHT_STRTAB, 4, big);
	put(shoff + 2 * shs + (is64 ? 24 : 16), str, is64 ? 8 : 4, big);
	put(shoff + 2 * shs + (is64 ? 32 : 20), strsz, is64 ? 8 : 4, big);
	put(shoff + 3 * shs + 4, SHT_SYMTAB, 4, big);
	put(shoff + 3 * shs + (is64 ? 24 : 16), sym, is64 ? 8 : 4, big);
	put(shoff + 3 * shs + (is64 ? 32 : 20), (ns + 1) * ss, is64 ? 8 : 4, big);
	put(shoff + 3 * shs + (is64 ? 40 : 24), 2, 4, big);
	put(shoff + 3 * shs + (is64 ? 56 : 36), ss, is64 ? 8 : 4, big);
	return shoff + 4 * shs;
}

#define G(t) ELF32_ST_INFO(STB_GLOBAL, t)
#define L(t) ELF32_ST_INFO(STB_LOCAL, t)

static const struct tsym kernelish[] = {
	{ "zeta", 0x1010, G(STT_FUNC), 1 },
	{ "_stext", 0x1000, G(STT_NOTYPE), 1 },
	{ "alpha", 0x1010, L(STT_FUNC), 1 },
	{ "beta", 0x1008, ELF32_ST_INFO(STB_WEAK, STT_FUNC), 1 },
	{ "$x", 0x1004, L(STT_NOTYPE), 1 },
	{ "abs", 0x20, L(STT_NOTYPE), SHN_ABS },
	{ "sect", 0x1000, L(STT_SECTION), 1 },
	{ "undef", 0, G(STT_FUNC), SHN_UNDEF },
	{ "", 0x1000, L(STT_FUNC), 1 },
	{ "linux_banner", 0x1020, G(STT_OBJECT), 1 },
};

/* Read the image through a symbol source, as "addr type name\n" lines. */
static char *
dump(size_t n)
{
	struct symsrc s;
	struct sym y;
	char *out = malloc(4096);
	size_t len = 0;

	symsrc_open_mem(&s, "img", img, n);
	while (symsrc_next(&s, &y))
		len += (size_t)snprintf(out + len, 4096 - len, "%llx %c %.*s\n",
		    (unsigned long long)y.addr, y.type, (int)y.namelen, y.name);
	symsrc_close(&s);
	return out;
}

static void
classes_and_orders(void **state)
{
	(void)state;
	for (int is64 = 0; is64 < 2; is64++)
		for (int big = 0; big < 2; big++) {
			size_t n = build(is64, big, kernelish, 9);
			char *got = dump(n);

			/* no linux_banner: no filter; ties by name */
			assert_string_equal(got, "20 a abs\n1000 T _stext\n"
			    "1004 t $x\n1008 W beta\n1010 t alpha\n"
			    "1010 T zeta\n");
			free(got);
			n = build(is64, big, kernelish, 10);
			got = dump(n);
			/* a kernel: a and $ dropped */
			assert_string_equal(got, "1000 T _stext\n1008 W beta\n"
			    "1010 t alpha\n1010 T zeta\n1020 T linux_banner\n");
			free(got);
		}
}

static void
open_bad(void *arg)
{
	struct symsrc s;

	symsrc_open_mem(&s, "img", img, *(size_t *)arg);
}

static void
bad_files(void **state)
{
	size_t n;

	(void)state;
	n = build(1, 0, kernelish, 10);
	img[64 + 1 + 4] = 0;		/* a string table without its NUL */
	for (size_t i = 64; i < 64 + 60; i++)
		if (img[i] == 0)
			img[i] = 'x';
	expect_fatal(open_bad, &n, "img: a string table does not end in a NUL");
	n = 40;
	expect_fatal(open_bad, &n, "img: truncated ELF header");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(section_letters),
		cmocka_unit_test(symbol_letters),
		cmocka_unit_test(classes_and_orders),
		cmocka_unit_test(bad_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
