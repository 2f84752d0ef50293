/*
 * antiqsort.c - an ELF file whose symbol table is ordered against a
 * quicksort (McIlroy, "A Killer Adversary for Quicksort", 1999), and its
 * shuffled twin.
 *
 *   antiqsort N OUT [shuffled [SEED]]
 *
 * The adversary runs the quicksort the ELF reader once used (median of
 * v[0], v[n/2], v[n-1], Hoare partition, the smaller side first,
 * insertion sort below 17 entries) on N symbols whose order is decided
 * lazily, each comparison fixing as little as it can: the ranks it ends
 * with make that sort take quadratic time (and so does this program: 20 s
 * for 160,000 symbols).  A symbol of rank R gets the address
 * 0x400000 + 4R and the name sR (_stext for rank 0): the twin holds the
 * same symbols, so both give the same report.  With
 * "shuffled", the ranks are a random permutation instead (the same
 * symbols, an ordinary order).  Also written: OUT.profile, a kernel-style
 * profile of step 4 covering the text (counter R + 1 holds R % 7), so
 * that readprofile -m OUT -p OUT.profile reports every symbol.
 *
 * The file: ELF64, little-endian, ET_EXEC, sections .text (4N bytes, no
 * file data needed but given), .symtab (all FUNC GLOBAL in .text),
 * .strtab, .shstrtab.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t *val;		/* rank of each symbol, or GAS */
static uint32_t gas, nsolid, candidate;

static int
cmp(uint32_t x, uint32_t y)
{
	if (val[x] == gas && val[y] == gas) {
		if (x == candidate)
			val[x] = nsolid++;
		else
			val[y] = nsolid++;
	}
	if (val[x] == gas)
		candidate = x;
	else if (val[y] == gas)
		candidate = y;
	return val[x] < val[y] ? -1 : val[x] > val[y];
}

static void
swap(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;

	*a = *b;
	*b = t;
}

/* The sort under attack, on symbol numbers. */
static void
victim(uint32_t *v, size_t n)
{
	while (n > 16) {
		size_t m = n / 2, i = 0, j = n - 1;
		uint32_t pivot;

		if (cmp(v[m], v[0]) < 0)
			swap(&v[m], &v[0]);
		if (cmp(v[n - 1], v[m]) < 0) {
			swap(&v[n - 1], &v[m]);
			if (cmp(v[m], v[0]) < 0)
				swap(&v[m], &v[0]);
		}
		pivot = v[m];
		for (;;) {
			while (cmp(v[i], pivot) < 0)
				i++;
			while (cmp(pivot, v[j]) < 0)
				j--;
			if (i >= j)
				break;
			swap(&v[i++], &v[j--]);
		}
		if (j + 1 < n - j - 1) {
			victim(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			victim(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && cmp(v[k], v[k - 1]) < 0; k--)
			swap(&v[k], &v[k - 1]);
}

/* Symbol I's name: sR for its rank R, but _stext for the lowest. */
static int
sym_name(char *buf, size_t n, uint32_t i)
{
	return val[i] == 0 ? snprintf(buf, n, "_stext") :
	    snprintf(buf, n, "s%u", val[i]);
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

static void
put(FILE *f, uint64_t v, int len)
{
	for (int i = 0; i < len; i++)
		putc((int)(v >> 8 * i & 0xff), f);
}

static void
shdr(FILE *f, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
    uint64_t off, uint64_t size, uint32_t link, uint32_t info,
    uint64_t align, uint64_t entsize)
{
	put(f, name, 4);
	put(f, type, 4);
	put(f, flags, 8);
	put(f, addr, 8);
	put(f, off, 8);
	put(f, size, 8);
	put(f, link, 4);
	put(f, info, 4);
	put(f, align, 8);
	put(f, entsize, 8);
}

int
main(int argc, char **argv)
{
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	uint32_t n, *v;
	uint64_t text = 0x400000, off_text, off_sym, off_str, off_shstr, off_sh;
	uint64_t strsize = 1;
	char name[32], path[4096];
	FILE *f;

	if (argc < 3 || (n = (uint32_t)strtoul(argv[1], NULL, 10)) == 0 ||
	    n > 10000000) {
		fputs("usage: antiqsort N OUT [shuffled [SEED]]\n", stderr);
		return 2;
	}
	val = malloc((size_t)n * sizeof *val);
	v = malloc((size_t)n * sizeof *v);
	if (val == NULL || v == NULL)
		return 1;
	if (argc > 3 && strcmp(argv[3], "shuffled") == 0) {
		if (argc > 4)
			rng ^= strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15ull;
		for (uint32_t i = 0; i < n; i++)
			val[i] = i;
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t k = (uint32_t)(next() % (i + 1)), t = val[i];

			val[i] = val[k];
			val[k] = t;
		}
	} else {
		gas = n;
		for (uint32_t i = 0; i < n; i++) {
			val[i] = gas;
			v[i] = i;
		}
		victim(v, n);
		for (uint32_t i = 0; i < n; i++)	/* never compared */
			if (val[i] == gas)
				val[i] = nsolid++;
	}
	for (uint32_t i = 0; i < n; i++)
		strsize += (uint64_t)sym_name(name, sizeof name, i) + 1;

	off_text = 64;
	off_sym = off_text + 4 * (uint64_t)n;
	off_str = off_sym + 24 * ((uint64_t)n + 1);
	off_shstr = off_str + strsize;
	off_sh = (off_shstr + sizeof shstr + 7) & ~(uint64_t)7;
	if ((f = fopen(argv[2], "wb")) == NULL) {
		perror(argv[2]);
		return 1;
	}
	/* ELF header */
	fwrite("\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 1, 16, f);
	put(f, 2, 2);			/* ET_EXEC */
	put(f, 62, 2);			/* EM_X86_64 */
	put(f, 1, 4);
	put(f, text, 8);		/* entry */
	put(f, 0, 8);			/* no program headers */
	put(f, off_sh, 8);
	put(f, 0, 4);
	put(f, 64, 2);
	put(f, 56, 2);
	put(f, 0, 2);
	put(f, 64, 2);
	put(f, 5, 2);			/* sections */
	put(f, 4, 2);			/* .shstrtab */
	for (uint32_t i = 0; i < n; i++)	/* the text: ret */
		put(f, 0xc3c3c3c3, 4);
	/* .symtab: the null symbol, then N FUNC GLOBAL in .text */
	put(f, 0, 8);
	put(f, 0, 8);
	put(f, 0, 8);
	strsize = 1;
	for (uint32_t i = 0; i < n; i++) {
		put(f, strsize, 4);
		putc(0x12, f);		/* STB_GLOBAL, STT_FUNC */
		putc(0, f);
		put(f, 1, 2);		/* .text */
		put(f, text + 4 * (uint64_t)val[i], 8);
		put(f, 4, 8);
		strsize += (uint64_t)sym_name(name, sizeof name, i) + 1;
	}
	putc(0, f);
	for (uint32_t i = 0; i < n; i++) {
		sym_name(name, sizeof name, i);
		fwrite(name, 1, strlen(name) + 1, f);
	}
	fwrite(shstr, 1, sizeof shstr, f);
	for (uint64_t p = off_shstr + sizeof shstr; p < off_sh; p++)
		putc(0, f);
	shdr(f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	shdr(f, 1, 1, 6, text, off_text, 4 * (uint64_t)n, 0, 0, 16, 0);
	shdr(f, 7, 2, 0, 0, off_sym, 24 * ((uint64_t)n + 1), 3, 1, 8, 24);
	shdr(f, 15, 3, 0, 0, off_str, strsize, 0, 0, 1, 0);
	shdr(f, 23, 3, 0, 0, off_shstr, sizeof shstr, 0, 0, 1, 0);
	if (fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}

	/* the profile: step 4, counter R + 1 for the symbol of rank R */
	snprintf(path, sizeof path, "%s.profile", argv[2]);
	if ((f = fopen(path, "wb")) == NULL) {
		perror(path);
		return 1;
	}
	put(f, 4, 4);
	for (uint32_t r = 0; r < n; r++)
		put(f, r % 7, 4);
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	free(val);
	free(v);
	return 0;
}
