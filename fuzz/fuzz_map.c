/*
 * fuzz_map.c - libFuzzer harness for the map reader.
 *
 * Every input is read twice:
 *   - line by line through map_parse_line(), compared with a reference
 *     parser built on strtoull(3) (the classic tool's "ADDRESS TYPE NAME"
 *     rule: fields end at a space, a NUL byte ends the line's text);
 *   - as a whole map through map_open_mem() and map_next(), checking that
 *     every symbol handed out lies inside the line it came from, that line
 *     numbers count every line, and that a wrong line is fatal exactly
 *     when the reference parser refuses it.
 * Fatal errors come back here through the fatal hook and longjmp.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/mapfile.h"
#include "base/util.h"

static jmp_buf fatal_env;

static void
on_fatal(void *ctx)
{
	(void)ctx;
	longjmp(fatal_env, 1);
}

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

/* Blanks (isspace but the newline) are skipped before each field... */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* ...but a field ends only at a space (or the end of the text). */
static int
ends_field(char c)
{
	return c == ' ' || c == '\n' || c == '\0';
}

#define TYPE_MAX 7	/* the type field is cut after 7 bytes */

struct ref {
	uint64_t addr;
	char type;
	const char *name;
	size_t namelen;
};

/*
 * Reference, written from the classic tool's observed rules: LINE is
 * NUL-terminated (a NUL ends the text, '\n' excluded).  Blanks before the
 * address, the type and the name are skipped; the address is read as by
 * strtoull(3) in base 16; the type is at most 7 bytes up to a space; the
 * name runs to a space, so a tab or a CR belongs to it.
 */
static int
ref_parse(const char *line, struct ref *r)
{
	const char *p = line, *q;
	char *end;

	while (is_blank(*p))
		p++;
	/* strtoull would skip more blanks; there are none left here. */
	if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
	    (*p >= 'A' && *p <= 'F') || *p == '+' || *p == '-'))
		return -1;
	errno = 0;
	r->addr = strtoull(p, &end, 16);
	if (end == p)
		return -1;
	p = end;
	while (is_blank(*p))
		p++;
	for (q = p; !ends_field(*q) && q - p < TYPE_MAX; q++)
		;
	if (q == p)
		return -1;
	r->type = *p;
	p = q;
	while (is_blank(*p))
		p++;
	for (q = p; !ends_field(*q); q++)
		;
	if (q == p)
		return -1;
	r->name = p;
	r->namelen = (size_t)(q - p);
	return 0;
}

/* Compare map_parse_line on [p, p+n) with the reference. */
static void
check_line(const char *p, size_t n)
{
	char *buf = malloc(n + 1);
	struct sym s;
	struct ref r;
	int got, want;

	memcpy(buf, p, n);
	buf[n] = '\n';
	got = map_parse_line(buf, buf + n, &s);
	/* The reference sees the text up to the first NUL. */
	buf[n] = '\0';
	want = ref_parse(buf, &r);
	CHECK(got == want);
	if (got == 0) {
		CHECK(s.addr == r.addr);
		CHECK(s.kind == map_kind(r.type));
		CHECK(s.name == r.name);
		CHECK(s.namelen == r.namelen);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct map m;
	static uint64_t lines, bad_line;
	static const char *text;
	static size_t tsize;
	struct sym s;
	uint64_t prev = 0;

	fatal_hook_set(on_fatal, NULL);
	text = (const char *)data;
	tsize = size;

	/* 1. Line by line against the reference parser. */
	lines = 0;
	bad_line = 0;
	for (size_t i = 0; i < size;) {
		const char *nl = memchr(text + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : size - i;
		struct ref r;
		char *copy = malloc(n + 1);

		memcpy(copy, text + i, n);
		copy[n] = '\0';
		lines++;
		if (bad_line == 0 && ref_parse(copy, &r) < 0)
			bad_line = lines;
		free(copy);
		check_line(text + i, n);
		i += n + (nl != NULL);
	}

	/* 2. The streaming reader over the same text. */
	memset(&m, 0, sizeof m);
	if (setjmp(fatal_env) == 0) {
		map_open_mem(&m, "fuzz.map", text, tsize);
		while (map_next(&m, &s)) {
			CHECK(s.lineno == prev + 1);
			prev = s.lineno;
			CHECK(s.namelen > 0);
			CHECK(s.name >= m.buf && s.name + s.namelen <= m.buf + m.len);
			for (size_t k = 0; k < s.namelen; k++)
				CHECK(!ends_field(s.name[k]));
			CHECK(!is_blank(s.name[0]));
			CHECK(bad_line == 0 || s.lineno < bad_line);
		}
		/* Read to the end: every line was good. */
		CHECK(bad_line == 0);
		CHECK(m.lineno == lines);
	} else {
		/* Fatal: only for the first wrong line (lines are short here). */
		CHECK(bad_line != 0);
		CHECK(m.lineno == bad_line);
	}
	map_close(&m);
	return 0;
}
