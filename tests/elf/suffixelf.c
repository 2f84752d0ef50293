/*
 * suffixelf.c - an ELF file whose symbols share an address and whose
 * names are suffixes of a few long strings of the string table, as a
 * linker leaves names that it merged into the tail of longer ones.
 *
 *   suffixelf N LEN OUT [mixed]
 *
 * Plain: one string of LEN bytes 'a', and N symbols at one address, the
 * names suffixes of it of lengths LEN/N, 2 LEN/N, ... LEN in a scrambled
 * table order: comparing two names byte by byte reads the shorter whole.
 * Mixed (a small case for the order itself): a Fibonacci word of LEN
 * bytes over "ab" and a run of LEN/2 bytes 'a' then "ba", the names
 * pseudo-random suffixes of either, some of them the same name (one
 * offset or two), over four addresses.  Also _stext and _etext: the
 * file reads as a kernel image.  OUT.profile is a kernel-style profile of
 * step 4 of its 16 words of text.
 *
 * The file: ELF64, little-endian, ET_EXEC, sections .text, .symtab (all
 * FUNC GLOBAL in .text), .strtab, .shstrtab.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT 0x400000u

static uint64_t rng = 88172645463325252ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
put(FILE *f, uint64_t v, int len)
{
	for (int i = 0; i < len; i++)
		putc((int)(v >> 8 * i & 0xff), f);
}

static void
shdr(FILE *f, const uint64_t w[10])
{
	static const int len[10] = { 4, 4, 8, 8, 8, 8, 4, 4, 8, 8 };

	for (int i = 0; i < 10; i++)
		put(f, w[i], len[i]);
}

static void
sym(FILE *f, uint64_t name, uint64_t addr)
{
	put(f, name, 4);
	putc(0x12, f);		/* STB_GLOBAL, STT_FUNC */
	putc(0, f);
	put(f, 1, 2);		/* .text */
	put(f, addr, 8);
	put(f, 4, 8);
}

/* The string table: "\0_stext\0_etext\0", then the strings; *S1, *S2. */
static char *
strings(uint32_t len, int mixed, uint64_t *size, uint64_t *s1, uint64_t *s2)
{
	uint64_t n = 15 + (uint64_t)len + 1 + (mixed ? len / 2 + 3 : 0);
	char *t = calloc(n, 1), *p;

	if (t == NULL)
		return NULL;
	memcpy(t, "\0_stext\0_etext\0", 15);
	*s1 = 15;
	p = t + 15;
	memset(p, 'a', len);
	if (mixed) {	/* the Fibonacci word: a, ab, aba, abaab, ... */
		uint64_t a = 1, b = 2;

		p[1] = 'b';
		while (b < len) {
			uint64_t k = a + b <= len ? a : len - b;

			memcpy(p + b, p, k);
			a = b;
			b += k;
		}
		*s2 = *s1 + len + 1;
		memset(t + *s2, 'a', len / 2);
		memcpy(t + *s2 + len / 2, "ba", 2);
	}
	*size = n;
	return t;
}

/* The offset of name I of N. */
static uint64_t
name_of(uint32_t i, uint32_t n, uint32_t len, int mixed, const uint64_t s[2])
{
	static uint64_t last;
	uint64_t r = next();

	if (!mixed)	/* lengths (k + 1) LEN / N, k = i scrambled */
		return s[0] + len - ((uint64_t)i * 7919 % n + 1) * len / n;
	if (i > 0 && r % 8 == 0)
		return last;	/* the same name at the same offset */
	if (r % 8 == 1)
		return last = s[1] + (r >> 8) % (len / 2 + 2);
	return last = s[0] + (r >> 8) % len;
}

static int
write_elf(FILE *f, uint32_t n, uint32_t len, int mixed)
{
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	uint64_t off_sym = 64 + 64, off_str = off_sym + 24 * ((uint64_t)n + 3);
	uint64_t strsize, s[2] = { 0, 0 }, off_shstr, off_sh;
	char *t = strings(len, mixed, &strsize, &s[0], &s[1]);

	if (t == NULL)
		return -1;
	off_shstr = off_str + strsize;
	off_sh = (off_shstr + sizeof shstr + 7) & ~(uint64_t)7;
	fwrite("\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 1, 16, f);
	put(f, 2, 2);			/* ET_EXEC */
	put(f, 62, 2);			/* EM_X86_64 */
	put(f, 1, 4);
	put(f, TEXT, 8);		/* entry */
	put(f, 0, 8);			/* no program headers */
	put(f, off_sh, 8);
	put(f, 0, 4);
	put(f, 64 | 56 << 16 | (uint64_t)64 << 48, 8);
	put(f, 5 | 4 << 16, 4);		/* 5 sections, .shstrtab the 4th */
	for (int i = 0; i < 16; i++)	/* the text: ret */
		put(f, 0xc3c3c3c3, 4);
	put(f, 0, 24);
	sym(f, 1, TEXT);
	for (uint32_t i = 0; i < n; i++)
		sym(f, name_of(i, n, len, mixed, s),
		    TEXT + 4 + (mixed ? 4 * (next() % 4) : 0));
	sym(f, 8, TEXT + 60);
	fwrite(t, 1, strsize, f);
	free(t);
	fwrite(shstr, 1, sizeof shstr, f);
	for (uint64_t p = off_shstr + sizeof shstr; p < off_sh; p++)
		putc(0, f);
	shdr(f, (const uint64_t[10]){ 0 });
	shdr(f, (const uint64_t[10]){ 1, 1, 6, TEXT, 64, 64, 0, 0, 16, 0 });
	shdr(f, (const uint64_t[10]){ 7, 2, 0, 0, off_sym,
	    24 * ((uint64_t)n + 3), 3, 1, 8, 24 });
	shdr(f, (const uint64_t[10]){ 15, 3, 0, 0, off_str, strsize, 0, 0,
	    1, 0 });
	shdr(f, (const uint64_t[10]){ 23, 3, 0, 0, off_shstr, sizeof shstr,
	    0, 0, 1, 0 });
	return 0;
}

int
main(int argc, char **argv)
{
	uint32_t n, len;
	char path[4096];
	FILE *f;

	if (argc < 4 || (n = (uint32_t)strtoul(argv[1], NULL, 10)) == 0 ||
	    n > 10000000 || (len = (uint32_t)strtoul(argv[2], NULL, 10)) < n ||
	    len > 100000000) {
		fputs("usage: suffixelf N LEN OUT [mixed] (N <= LEN)\n", stderr);
		return 2;
	}
	if ((f = fopen(argv[3], "wb")) == NULL ||
	    write_elf(f, n, len, argc > 4 && strcmp(argv[4], "mixed") == 0) ||
	    fclose(f) != 0) {
		perror(argv[3]);
		return 1;
	}
	snprintf(path, sizeof path, "%s.profile", argv[3]);
	if ((f = fopen(path, "wb")) == NULL) {
		perror(path);
		return 1;
	}
	put(f, 4, 4);
	for (uint32_t r = 0; r < 15; r++)
		put(f, r % 7 + 1, 4);
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}
