/*
 * fuzz_pprof.c - libFuzzer harness for --pprof's encoder and its strings.
 *
 * The input is: a flag byte (bit 0: a tick rate, its value from the next
 * byte; bit 1: comments), then names separated by NUL bytes, the first
 * of them the map's file name.  Each name becomes a function with ticks.
 * What the encoder writes must be a well-formed gzip member whose Profile
 * parses, whose strings are all valid UTF-8 and whose string indexes all
 * name a string (pprof_check.h, a reader of its own), and each function's
 * string must decode (the documented "\\" and "\xNN") back to its bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/pprof.h"
#include "check.h"
#include "pprof_check.h"

#define NAMES_MAX 64

/* Whether string S (N bytes) decodes to the bytes NAME (LEN). */
static int
decodes_to(const unsigned char *s, size_t n, const char *name, size_t len)
{
	unsigned char *back = malloc(n + 1);
	size_t m = unescape(s, n, back);
	int same = m == len && memcmp(back, name, len) == 0;

	free(back);
	return same;
}

/* The string FIRST + K of the inflated profile PB (N bytes). */
static void
string_at(const unsigned char *pb, size_t n, uint64_t k,
    const unsigned char **s, size_t *len)
{
	const unsigned char *p = pb, *end = pb + n;
	struct pc_field f;

	while (p < end) {
		CHECK(pc_next(&p, end, &f));
		if (f.num == 6 && k-- == 0) {
			*s = f.b;
			*len = f.n;
			return;
		}
	}
	CHECK(!"no such string");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const com[] = { "a comment", "b\\\377" };
	const char *name[NAMES_MAX];
	size_t nlen[NAMES_MAX], n = 0, at = 2, len = 0, pblen;
	uint64_t first[NAMES_MAX];
	char *buf, *g = NULL;
	struct pprof_meta in = { .start = 0x1000, .limit = 0x9000 };
	struct options o = { 0 };
	struct run rn = { .o = &o };
	struct pprof_enc e;
	struct pprof_stats st;
	unsigned char *pb;
	FILE *f;

	if (size < 2)
		return 0;
	in.rate = data[0] & 1 ? data[1] + 1u : 0;
	if (data[0] & 2) {
		in.comments = com;
		in.ncomments = 2;
	}
	buf = malloc(size - 1);
	memcpy(buf, data + 2, size - 2);
	buf[size - 2] = '\0';
	while (n < NAMES_MAX && at <= size) {	/* NUL-separated */
		const char *s = buf + (at - 2);
		size_t l = strlen(s);

		name[n] = s;
		nlen[n++] = l;
		at += l + 1;
	}
	rn.map = name[0];
	f = open_memstream(&g, &len);
	CHECK(f != NULL);
	pprof_begin(&e, f, &rn, &in);
	for (size_t i = 1; i < n; i++) {
		struct func_rec r = { .addr = 0x1000 + i, .len = 1,
		    .ticks = i * 1000003u, .name = (char *)name[i],
		    .namelen = nlen[i] };

		first[i] = e.nstr;
		pprof_func(&e, &r, NULL, NULL);
	}
	pprof_unplaced(&e, "*unknown*", 7);
	CHECK(pprof_end(&e) == 0);
	CHECK(fclose(f) == 0);
	if (pprof_check((unsigned char *)g, len, &st) != NULL) {
		fprintf(stderr, "%s\n", pprof_check((unsigned char *)g, len, &st));
		abort();
	}
	CHECK(st.functions == n && st.samples == n);
	pb = pc_inflate((unsigned char *)g, len, &pblen);
	CHECK(pb != NULL);
	for (size_t i = 1; i < n; i++) {
		const unsigned char *s;
		size_t sl;

		string_at(pb, pblen, first[i], &s, &sl);
		CHECK(decodes_to(s, sl, name[i], nlen[i]));
	}
	free(pb);
	free(g);
	free(buf);
	return 0;
}
