/*
 * fuzz_pprof.c - libFuzzer harness for --pprof's encoder and its strings.
 *
 * The input is: a flag byte (bit 0: a tick rate, its value from the next
 * byte; bit 1: comments; bit 2: call arcs), then names separated by NUL
 * bytes, the first of them the map's file name.  Each name becomes a
 * function with ticks, of one byte at 0x1000 + its place; with bit 2, up
 * to 48 call arcs between addresses made from the input's bytes, some of
 * them in no function (0x1000 and past the last), in the calls samples.
 * What the encoder writes must be a well-formed gzip member whose Profile
 * parses, whose strings are all valid UTF-8 and whose string indexes all
 * name a string (pprof_check.h, a reader of its own), and each function's
 * string must decode (the documented "\\" and "\xNN") back to its bytes.
 * The calls samples must decode: one of two Locations per arc, callee
 * first, their calls the arcs' counts, the time samples' calls 0, one
 * Function *unknown* for the ticks and the arcs of no function.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/pprof.h"
#include "check.h"
#include "pprof_check.h"

#define NAMES_MAX 64
#define ARCS_MAX 48

/* Units of the call graph (hist/gmon.h): from, self, count, big-endian. */
static void
be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static int
by_from(const void *x, const void *y)
{
	return memcmp(x, y, 8);
}

static int
by_self(const void *x, const void *y, void *units)
{
	const unsigned char *u = units;

	return memcmp(u + *(const uint32_t *)x * 24 + 8,
	    u + *(const uint32_t *)y * 24 + 8, 8);
}

/* Call arcs from the SIZE bytes at DATA between the N - 1 functions at
 * 0x1001...: into X (its units in V), their calls added up in *SUM. */
static void
make_arcs(const uint8_t *data, size_t size, size_t n, struct gmon_graph *x,
    int64_t *sum)
{
	static uint32_t idx[ARCS_MAX];
	size_t k;

	x->n = size < ARCS_MAX ? size : ARCS_MAX;
	x->w = 24;
	x->ptr = x->cw = 8;
	*sum = 0;
	for (k = 0; k < x->n; k++) {
		uint64_t count = (k + 1) * 1000003u + data[k];

		be64(x->v + k * 24, 0x1000 + data[k] % (n + 1));
		be64(x->v + k * 24 + 8, 0x1000 + data[(k * 7 + 1) % size] %
		    (n + 1));
		be64(x->v + k * 24 + 16, count);
		*sum += (int64_t)count;
	}
	qsort(x->v, x->n, 24, by_from);
	for (k = 0; k < x->n; k++)
		idx[k] = (uint32_t)k;
	qsort_r(idx, x->n, sizeof *idx, by_self, x->v);
	x->by_self = idx;
}

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
	static unsigned char units[ARCS_MAX * 24];
	struct gmon_graph arcs = { .v = units };
	int64_t calls = 0;
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
	if (data[0] & 4) {
		make_arcs(data, size, n, &arcs, &calls);
		rn.arcs = &arcs;
	}
	f = open_memstream(&g, &len);
	CHECK(f != NULL);
	pprof_begin(&e, f, &rn, &in);
	for (size_t i = 1; i < n; i++) {
		struct func_rec r = { .addr = 0x1000 + i, .len = 1,
		    .ticks = i * 1000003u, .name = (char *)name[i],
		    .namelen = nlen[i] };

		first[i] = e.nstr;
		pprof_func(&e, &r, NULL, NULL);
		pprof_calls(&e, &r);
	}
	pprof_calls_end(&e);
	pprof_unplaced(&e, "*unknown*", 7);
	CHECK(pprof_end(&e) == 0);
	CHECK(fclose(f) == 0);
	if (pprof_check((unsigned char *)g, len, &st) != NULL) {
		fprintf(stderr, "%s\n", pprof_check((unsigned char *)g, len, &st));
		abort();
	}
	/* n - 1 names and one *unknown*, which the arcs share */
	CHECK(st.functions == n && st.samples == n + arcs.n);
	CHECK(st.arcs == arcs.n && st.arc_calls == calls);
	CHECK(st.types == 1 + (in.rate != 0) + (rn.arcs != NULL));
	CHECK(st.value_sum[0] == (int64_t)(1000003u * (n - 1) * n / 2 + 7));
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
