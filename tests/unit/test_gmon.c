/*
 * test_gmon.c - reading gmon.out from memory: both formats, byte orders
 * and address sizes, merged records, and every malformed case.
 */
#include "unit.h"
#include "hist/gmon.h"

struct buf {
	unsigned char b[4096];
	size_t n;
	int big;
};

/* V in LEN bytes at B + *N, in the byte order BIG; *N after them. */
static void
put_at(unsigned char *b, size_t *n, int big, uint64_t v, int len)
{
	for (int i = 0; i < len; i++)
		b[*n + (size_t)(big ? len - 1 - i : i)] =
		    (unsigned char)(v >> (8 * i));
	*n += (size_t)len;
}

static void
put(struct buf *f, uint64_t v, int len)
{
	put_at(f->b, &f->n, f->big, v, len);
}

static void
gnu_header(struct buf *f, int big)
{
	memset(f, 0, sizeof *f);
	f->big = big;
	memcpy(f->b, "gmon", 4);
	f->n = 4;
	put(f, 1, 4);
	f->n += 12;
}

/* A histogram record; bins k get K + 1 + ADD. */
static void
gnu_hist(struct buf *f, int ptr, uint64_t low, uint64_t high, uint32_t nbins,
    uint32_t rate, uint32_t add)
{
	put(f, 0, 1);
	put(f, low, ptr);
	put(f, high, ptr);
	put(f, nbins, 4);
	put(f, rate, 4);
	memcpy(f->b + f->n, "seconds", 7);
	f->b[f->n + 15] = 's';
	f->n += 16;
	for (uint32_t k = 0; k < nbins; k++)
		put(f, k + 1 + add, 2);
}

static void
bsd_file(struct buf *f, int big, int ptr, uint64_t low, uint64_t high,
    uint32_t nbins, int narcs)
{
	memset(f, 0, sizeof *f);
	f->big = big;
	put(f, low, ptr);
	put(f, high, ptr);
	put(f, 2 * (uint64_t)ptr + 24 + 2 * (uint64_t)nbins, 4);
	put(f, GMON_BSD_VERSION, 4);
	put(f, 100, 4);
	f->n += 12;
	for (uint32_t k = 0; k < nbins; k++)
		put(f, k + 1, 2);
	for (int i = 0; i < narcs; i++) {
		put(f, low, ptr);
		put(f, low + 4, ptr);
		put(f, 9, ptr);
	}
}

static char err[256];

/* Word K of G's counters. */
static uint32_t
word(const struct gmon *g, uint64_t k)
{
	struct counters c = gmon_counters(g);

	return counters_get(&c, k);
}

/* The sum of G's bins. */
static uint64_t
total(const struct gmon *g)
{
	struct counters c = gmon_counters(g);

	return counters_sum(&c, 1, c.n);
}

static void
parse_ok(struct gmon *g, const struct buf *f)
{
	int rc = gmon_parse(g, f->b, f->n, err, sizeof err);

	if (rc != 0)
		fail_msg("%s", err);
	assert_true(gmon_sniff(f->b, f->n));
}

static void
parse_fails(const struct buf *f, const char *want)
{
	struct gmon g;

	assert_int_equal(gmon_parse(&g, f->b, f->n, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", err, want);
	assert_null(g.bins);
}

static void
gnu_each_order_and_size(void **state)
{
	(void)state;
	for (int big = 0; big <= 1; big++)
		for (int ptr = 4; ptr <= 8; ptr += 4) {
			struct buf f;
			struct gmon g;
			struct counters c;

			gnu_header(&f, big);
			gnu_hist(&f, ptr, 0x1000, 0x100a, 3, 100, 0);
			put(&f, 1, 1);		/* an arc */
			f.n += 2 * (size_t)ptr + 4;
			put(&f, 2, 1);		/* basic blocks: 1 */
			put(&f, 1, 4);
			f.n += 2 * (size_t)ptr;
			parse_ok(&g, &f);
			assert_int_equal(g.format, GMON_GNU);
			assert_int_equal(g.ptrsize, ptr);
			assert_int_equal(g.big_endian, big);
			assert_int_equal(g.low, 0x1000);
			assert_int_equal(g.high, 0x100a);
			assert_int_equal(g.nbins, 3);
			assert_int_equal(g.rate, 100);
			assert_int_equal(g.narcs, 1);
			assert_int_equal(g.nblocks, 1);
			c = gmon_counters(&g);
			assert_int_equal(c.n, 4);
			assert_int_equal(counters_get(&c, 1), 1);
			assert_int_equal(counters_get(&c, 3), 3);
			assert_int_equal(counters_sum(&c, 1, 4), 6);
			gmon_free(&g);
		}
}

/* Records over one range are added up, 16-bit bins widened. */
static void
gnu_records_merge(void **state)
{
	struct buf f;
	struct gmon g;

	(void)state;
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0xfff0);	/* 0xfff1, 0xfff2 */
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0xfff0);
	parse_ok(&g, &f);
	assert_int_equal(g.nhist, 2);
	assert_int_equal(word(&g, 1), 2 * 0xfff1);
	assert_int_equal(word(&g, 2), 2 * 0xfff2);
	gmon_free(&g);
}

static void
bsd_each_order_and_size(void **state)
{
	(void)state;
	for (int big = 0; big <= 1; big++)
		for (int ptr = 4; ptr <= 8; ptr += 4) {
			struct buf f;
			struct gmon g;

			bsd_file(&f, big, ptr, 0x400000, 0x400100, 64, 2);
			parse_ok(&g, &f);
			assert_int_equal(g.format, GMON_BSD);
			assert_int_equal(g.ptrsize, ptr);
			assert_int_equal(g.big_endian, big);
			assert_int_equal(g.low, 0x400000);
			assert_int_equal(g.high, 0x400100);
			assert_int_equal(g.nbins, 64);
			assert_int_equal(g.rate, 100);
			assert_int_equal(g.narcs, 2);
			assert_int_equal(word(&g, 64), 64);
			gmon_free(&g);
		}
}

static void
malformed(void **state)
{
	struct buf f;

	(void)state;
	gnu_header(&f, 0);
	f.n = 10;
	parse_fails(&f, "short gmon.out header");
	gnu_header(&f, 0);
	parse_fails(&f, "no histogram record");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x100, 16, 100, 0);
	f.n -= 3;
	parse_fails(&f, "short histogram: 16 bins need 32 bytes");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 17, 100, 0);	/* more bins than bytes */
	parse_fails(&f, "impossible bin count 17 for a range of 16 bytes");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0x10, 0x10, 1, 100, 0);
	parse_fails(&f, "histogram range 0x10-0x10 is empty");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 0, 0);
	parse_fails(&f, "profiling rate is 0");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0);
	put(&f, 9, 1);
	parse_fails(&f, "unknown record tag 9 at offset 65");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0);
	gnu_hist(&f, 8, 0, 0x20, 2, 100, 0);
	parse_fails(&f, "histogram records overlap (0x0-0x10 in 2 bins, "
	    "0x0-0x20 in 2)");
	/* the first overlap in file order, with the first range it meets */
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0x100, 0x200, 2, 100, 0);
	gnu_hist(&f, 8, 0x0, 0x10, 2, 100, 0);
	gnu_hist(&f, 8, 0x100, 0x200, 2, 100, 0);	/* the same: added */
	gnu_hist(&f, 8, 0x400, 0x500, 2, 100, 0);
	gnu_hist(&f, 8, 0x0, 0x1000, 2, 100, 0);	/* overlaps all */
	gnu_hist(&f, 8, 0x180, 0x300, 2, 100, 0);
	parse_fails(&f, "histogram records overlap (0x100-0x200 in 2 bins, "
	    "0x0-0x1000 in 2)");
	/* ... and before an error further on */
	put(&f, 9, 1);
	parse_fails(&f, "histogram records overlap (0x100-0x200 in 2 bins, "
	    "0x0-0x1000 in 2)");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0);
	gnu_hist(&f, 8, 0, 0x10, 4, 100, 0);	/* same range, other bins */
	parse_fails(&f, "histogram records overlap");
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 1000, 0);
	parse_fails(&f, "disagree on the profiling rate (100 and 1000)");
	bsd_file(&f, 0, 8, 0, 0x100, 8, 0);
	f.n += 5;
	parse_fails(&f, "short call arc record");
	bsd_file(&f, 0, 8, 0, 0x100, 8, 0);
	f.b[16] = 0xff;			/* byte count beyond the file */
	parse_fails(&f, "impossible byte count");
	memset(&f, 0, sizeof f);
	memcpy(f.b, "not a profile at all", 20);
	f.n = 20;
	assert_false(gmon_sniff(f.b, f.n));
}

/* A kernel profile's counter may read as the BSD version word. */
static void
kernel_or_bsd(void **state)
{
	struct buf f;

	(void)state;
	memset(&f, 0, sizeof f);
	put(&f, 4, 4), put(&f, 1, 4), put(&f, 2, 4);	/* step 4, counters */
	put(&f, GMON_BSD_VERSION, 4), put(&f, 3, 4);
	assert_int_equal(gmon_sniff(f.b, f.n), GMON_SNIFF_BSD);
	assert_true(gmon_maybe_kernel(f.b, f.n, f.n));
	assert_false(gmon_maybe_kernel(f.b, f.n, f.n + 2));	/* not words */
	f.b[0] = 0;
	f.b[3] = 4;			/* 4, big-endian */
	assert_true(gmon_maybe_kernel(f.b, f.n, f.n));
	f.b[3] = 0;
	assert_false(gmon_maybe_kernel(f.b, f.n, f.n));	/* step 0 */
	bsd_file(&f, 0, 4, 0x400000, 0x400100, 64, 0);
	assert_int_equal(gmon_sniff(f.b, f.n), GMON_SNIFF_BSD);
	assert_false(gmon_maybe_kernel(f.b, f.n, f.n));	/* low_pc 0x400000 */
	gnu_header(&f, 0);
	assert_int_equal(gmon_sniff(f.b, f.n), GMON_SNIFF_GNU);
}

/* 65538 records of one bin of 0xffff: more than 32 bits. */
static void
merge_overflow(void **state)
{
	struct buf f;
	struct gmon g;
	size_t rec, n = 65538;
	unsigned char *b;

	(void)state;
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 1, 100, 0xfffe);
	rec = f.n - 20;
	b = malloc(20 + n * rec);
	memcpy(b, f.b, 20);
	for (size_t i = 0; i < n; i++)
		memcpy(b + 20 + i * rec, f.b + 20, rec);
	assert_int_equal(gmon_parse(&g, b, 20 + n * rec, err, sizeof err), -1);
	assert_non_null(strstr(err, "bin 0 overflows"));
	assert_int_equal(gmon_parse(&g, b, 20 + (n - 1) * rec, err,
	    sizeof err), 0);
	assert_int_equal(word(&g, 1), 65537u * 0xffff);
	gmon_free(&g);
	free(b);
}

/* Arcs are kept by callee, in either format, for the calls column. */
static void
calls(void **state)
{
	struct buf f;
	struct gmon g;
	struct gmon_walk cur = { &g, 0 };

	(void)state;
	gnu_header(&f, 1);
	gnu_hist(&f, 4, 0x1000, 0x1100, 16, 100, 0);
	put(&f, 1, 1), put(&f, 0x1050, 4), put(&f, 0x1008, 4), put(&f, 4, 4);
	put(&f, 1, 1), put(&f, 0x1050, 4), put(&f, 0x1004, 4), put(&f, 3, 4);
	put(&f, 1, 1), put(&f, 0x1000, 4), put(&f, 0x1040, 4), put(&f, 5, 4);
	parse_ok(&g, &f);
	assert_int_equal(g.narcs, 3);
	assert_int_equal(gmon_calls(&cur, 0x1000, 0x1100), 0); /* not kept */
	cur.at = 0;
	gmon_index_arcs(&g, f.b);
	assert_int_equal(g.ncallees, 3);
	assert_int_equal(gmon_calls(&cur, 0x1000, 0x1004), 0);
	assert_int_equal(gmon_calls(&cur, 0x1004, 0x1040), 7);
	assert_int_equal(gmon_calls(&cur, 0x1040, 0x1100), 5);
	/* out of order: starts over */
	assert_int_equal(gmon_calls(&cur, 0x1000, 0x1005), 3);
	gmon_free(&g);
	bsd_file(&f, 0, 8, 0x400000, 0x400100, 64, 3);	/* callee low + 4 */
	parse_ok(&g, &f);
	gmon_index_arcs(&g, f.b);
	assert_int_equal(g.ncallees, 1);	/* three arcs, one callee */
	cur.at = 0;
	assert_int_equal(gmon_calls(&cur, 0x400000, 0x400004), 0);
	assert_int_equal(gmon_calls(&cur, 0x400004, 0x400005), 27);
	gmon_free(&g);
}

/*
 * Call counts never wrap: a BSD 64-bit file of two arcs of 2^63 calls
 * adds up past 2^64 - 1 and is refused, as a bin that overflows is; one
 * call less is read, its sum exact.
 */
static void
calls_overflow(void **state)
{
	struct buf f;
	struct gmon g;
	struct gmon_walk cur = { &g, 0 };

	(void)state;
	for (int big = 0; big <= 1; big++) {
		bsd_file(&f, big, 8, 0x400000, 0x400100, 64, 0);
		put(&f, 0x400010, 8), put(&f, 0x400040, 8);
		put(&f, (uint64_t)1 << 63, 8);
		put(&f, 0x400020, 8), put(&f, 0x400040, 8);
		put(&f, (uint64_t)1 << 63, 8);
		parse_fails(&f, "call counts add up past 2^64 - 1");
		f.n -= 8;
		put(&f, ((uint64_t)1 << 63) - 1, 8);
		parse_ok(&g, &f);
		assert_int_equal(g.narcs, 2);
		gmon_index_arcs(&g, f.b);
		cur.at = 0;
		assert_true(gmon_calls(&cur, 0x400040, 0x400050) == UINT64_MAX);
		gmon_free(&g);
	}
}

/* A GNU arc record: from_pc, self_pc, count. */
static void
gnu_arc(struct buf *f, int ptr, uint64_t from, uint64_t self, uint32_t count)
{
	put(f, 1, 1);
	put(f, from, ptr);
	put(f, self, ptr);
	put(f, count, 4);
}

/* The calls into each of 16-byte functions [0x1000, 0x1100), in order. */
static void
calls_by_function(const struct gmon *g, uint64_t *got)
{
	struct gmon_walk cur = { g, 0 };

	for (int i = 0; i < 16; i++)
		got[i] = gmon_calls(&cur, 0x1000 + 16 * (uint64_t)i,
		    0x1010 + 16 * (uint64_t)i);
}

/* A GNU file of the N arcs ARC (from, self, count) with histogram
 * records between them (after the first more bins than arcs before it,
 * then fewer) and after, and basic blocks: 210 bins in all. */
static void
interleaved(struct buf *f, int big, int ptr, const uint64_t (*arc)[3],
    int n)
{
	gnu_header(f, big);
	for (int i = 0; i < n; i++) {
		gnu_arc(f, ptr, arc[i][0], arc[i][1], (uint32_t)arc[i][2]);
		if (i == 0)
			gnu_hist(f, ptr, 0x3000, 0x3400, 200, 100, 7);
		if (i % 9 == 4)
			gnu_hist(f, ptr, 0x1000, 0x1100, 7, 100, (uint32_t)i);
		if (i % 11 == 5) {
			put(f, 2, 1);	/* one basic block */
			put(f, 1, 4);
			f->n += 2 * (size_t)ptr;
		}
	}
	gnu_hist(f, ptr, 0x2000, 0x2020, 3, 100, 50);
}

/*
 * Arcs out of order with repeated callees, histogram records between
 * them (their bins are moved before the arcs) and after, basic blocks:
 * in both byte orders and address sizes, the same calls and bins.
 */
static void
calls_interleaved(void **state)
{
	(void)state;
	for (int big = 0; big <= 1; big++)
		for (int ptr = 4; ptr <= 8; ptr += 4) {
			struct buf f;
			struct gmon g;
			uint64_t got[16], want[16] = { 0 }, sum = 0, arc[40][3];
			uint32_t w[210];

			for (int i = 0; i < 40; i++) {
				uint64_t self = 0x10f0 - 16 * (uint64_t)(i * 7 % 15);

				arc[i][0] = 0x1000;
				arc[i][1] = self + (uint64_t)(i % 2);
				arc[i][2] = (uint32_t)i * 1000003u + 1;
				want[(self - 0x1000) / 16] += arc[i][2];
			}
			interleaved(&f, big, ptr, arc, 40);
			parse_ok(&g, &f);
			assert_int_equal(g.nbins, 210);
			for (uint64_t k = 0; k < 210; k++)
				w[k] = word(&g, k + 1);
			gmon_index_arcs(&g, f.b);
			assert_int_equal(g.narcs, 40);
			assert_int_equal(g.ncallees, 30);	/* i mod 30 */
			calls_by_function(&g, got);
			for (int i = 0; i < 16; i++) {
				assert_int_equal(got[i], want[i]);
				sum += got[i];
			}
			for (uint64_t k = 0; k < 210; k++)
				assert_int_equal(word(&g, k + 1), w[k]);
			assert_int_equal(gmon_calls(&(struct gmon_walk){ &g, 0 },
			    0, UINT64_MAX), sum);
			gmon_free(&g);
		}
}

/*
 * The call graph's arcs (gmon_graph_arcs), each as it is in the file:
 * histogram records and basic blocks between them (the bins moved before
 * them read the same), in both formats, byte orders and address sizes;
 * sorted by caller, the index by callee, the counts the file's.
 */
static void
graph_check(const struct gmon_graph *x, const uint64_t (*arc)[3], size_t n)
{
	size_t seen = 0;

	assert_int_equal(x->n, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t from = gmon_graph_pc(x, i, 0);
		uint64_t self = gmon_graph_pc(x, x->by_self[i], 1);

		if (i > 0) {
			assert_true(gmon_graph_pc(x, i - 1, 0) <= from);
			assert_true(gmon_graph_pc(x, x->by_self[i - 1], 1) <=
			    self);
		}
		for (size_t j = 0; j < n; j++)	/* each arc of the file once */
			if (arc[j][0] == from && arc[j][1] ==
			    gmon_graph_pc(x, i, 1) && arc[j][2] ==
			    gmon_graph_count(x, i))
				seen |= (size_t)1 << j;
	}
	assert_int_equal(seen, ((size_t)1 << n) - 1);
}

static void
graph_arcs(void **state)
{
	enum { N = 40 };
	uint64_t arc[N][3];

	(void)state;
	for (int big = 0; big <= 1; big++)
		for (int ptr = 4; ptr <= 8; ptr += 4) {
			struct buf f;
			struct gmon g;
			struct gmon_graph x;
			uint32_t w[210];

			for (int i = 0; i < N; i++) {
				arc[i][0] = 0x10f0 - 16 * (uint64_t)(i * 7 % 15);
				arc[i][1] = 0x1000 + (uint64_t)(i * 11 % 17) * 4;
				arc[i][2] = (uint32_t)i * 1000003u + 1;
			}
			interleaved(&f, big, ptr, arc, N);
			parse_ok(&g, &f);
			for (uint64_t k = 0; k < 210; k++)
				w[k] = word(&g, k + 1);
			gmon_graph_arcs(&g, f.b, &x);
			assert_int_equal(x.w, 2 * (size_t)ptr + 4);
			graph_check(&x, arc, N);
			for (uint64_t k = 0; k < 210; k++)
				assert_int_equal(word(&g, k + 1), w[k]);
			gmon_graph_free(&x);
			gmon_free(&g);
			/* BSD: counts as wide as a pointer */
			bsd_file(&f, big, ptr, 0x1000, 0x1100, 16, 0);
			for (int i = 0; i < N; i++) {
				arc[i][2] = ((uint64_t)i << (ptr * 8 - 12)) + 1;
				put(&f, arc[i][0], ptr);
				put(&f, arc[i][1], ptr);
				put(&f, arc[i][2], ptr);
			}
			parse_ok(&g, &f);
			gmon_graph_arcs(&g, f.b, &x);
			assert_int_equal(x.w, 3 * (size_t)ptr);
			graph_check(&x, arc, N);
			gmon_graph_free(&x);
			gmon_free(&g);
		}
}

/*
 * Many BSD arcs, callees spread over every address byte and repeated:
 * the calls into ascending ranges are the sums a scan of the arcs finds,
 * in both byte orders and address sizes.
 */
static void
calls_many(void **state)
{
	enum { N = 30000, Q = 97 };
	uint64_t *pc = malloc(N * sizeof *pc), *cnt = malloc(N * sizeof *cnt);
	unsigned char *b = malloc(64 + N * 24);

	(void)state;
	for (int big = 0; big <= 1; big++)
		for (int ptr = 4; ptr <= 8; ptr += 4) {
			uint64_t x = 88172645463325252ull, mask = ptr == 4 ?
			    UINT32_MAX : UINT64_MAX, bound[Q + 1];
			size_t n = 0;
			struct gmon g;
			struct gmon_walk cur = { &g, 0 };

			put_at(b, &n, big, 0x1000, ptr);
			put_at(b, &n, big, 0x1100, ptr);
			put_at(b, &n, big, 2 * (uint64_t)ptr + 24 + 2, 4);
			put_at(b, &n, big, GMON_BSD_VERSION, 4);
			put_at(b, &n, big, 100, 4);
			memset(b + n, 0, 14);
			n += 14;	/* spare words and one bin */
			for (int i = 0; i < N; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				/* a third repeat an earlier callee */
				pc[i] = i % 3 == 2 ? pc[x % (uint64_t)i] :
				    (x >> (x % 60)) & mask;
				/* wide counts, their sum within 64 bits */
				cnt[i] = ptr == 8 && i % 5 == 0 ? x >> 16 :
				    x % 1000;
				put_at(b, &n, big, 0x1000, ptr);
				put_at(b, &n, big, pc[i], ptr);
				put_at(b, &n, big, cnt[i], ptr);
			}
			assert_int_equal(gmon_parse(&g, b, n, err, sizeof err), 0);
			gmon_index_arcs(&g, b);
			assert_int_equal(g.narcs, N);
			assert_true(g.ncallees < N - N / 3 + 1);
			for (int q = 0; q <= Q; q++)	/* ascending bounds */
				bound[q] = q == Q ? mask : mask / Q * (uint64_t)q;
			for (int q = 0; q < Q; q++) {
				uint64_t want = 0;

				for (int i = 0; i < N; i++)
					if (pc[i] >= bound[q] && pc[i] < bound[q + 1])
						want += cnt[i];
				assert_int_equal(gmon_calls(&cur, bound[q],
				    bound[q + 1]), want);
			}
			gmon_free(&g);
		}
	free(b);
	free(cnt);
	free(pc);
}

/* Records over disjoint ranges are kept apart, in address order. */
static void
disjoint_ranges(void **state)
{
	struct buf f;
	struct gmon g;

	(void)state;
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0x2000, 0x2006, 2, 100, 10);	/* 11, 12 */
	gnu_hist(&f, 8, 0x1000, 0x1010, 4, 100, 0);	/* 1..4 */
	gnu_hist(&f, 8, 0x2000, 0x2006, 2, 100, 0);	/* + 1, 2 */
	parse_ok(&g, &f);
	assert_int_equal(g.nranges, 2);
	assert_int_equal(g.nhist, 3);
	assert_int_equal(g.low, 0x1000);
	assert_int_equal(g.high, 0x2006);
	assert_int_equal(g.nbins, 6);
	assert_int_equal(g.ranges[0].low, 0x1000);
	assert_int_equal(g.ranges[0].first, 1);
	assert_int_equal(g.ranges[1].low, 0x2000);
	assert_int_equal(g.ranges[1].first, 5);
	assert_int_equal(word(&g, 1), 1);
	assert_int_equal(word(&g, 4), 4);
	assert_int_equal(word(&g, 5), 12);
	assert_int_equal(word(&g, 6), 14);
	assert_int_equal(total(&g), 36);
	gmon_free(&g);
}

/* The bytes parsed are read where they are: each file has its own. */
static void
subtract(void **state)
{
	struct buf f, fb, fw;
	struct gmon g, base;

	(void)state;
	gnu_header(&f, 0);
	gnu_hist(&f, 8, 0, 0x10, 2, 100, 5);
	parse_ok(&g, &f);
	gnu_header(&fb, 0);
	gnu_hist(&fb, 8, 0, 0x10, 2, 100, 0);
	parse_ok(&base, &fb);
	assert_int_equal(gmon_subtract(&g, &base, err, sizeof err), 0);
	assert_int_equal(word(&g, 1), 5);
	assert_int_equal(word(&g, 2), 5);
	assert_int_equal(total(&g), 10);
	assert_int_equal(word(&base, 1), 1);	/* the baseline unchanged */
	assert_int_equal(gmon_subtract(&base, &g, err, sizeof err), -1);
	assert_non_null(strstr(err, "bin 0 is lower than in the baseline"));
	gnu_header(&fw, 0);
	gnu_hist(&fw, 8, 0, 0x20, 2, 100, 0);
	gmon_free(&g);
	gmon_free(&base);
	parse_ok(&g, &f);
	parse_ok(&base, &fw);
	assert_int_equal(gmon_subtract(&g, &base, err, sizeof err), -1);
	assert_non_null(strstr(err, "differs"));
	gmon_free(&base);
	gmon_free(&g);
}

/* Windows of counters: across ranges and past 4096 words, the sums. */
static void
windows(void **state)
{
	enum { N = 5000 };
	struct buf *f = malloc(sizeof *f + 4 * N);
	unsigned char *b = malloc(20 + 2 * (41 + 2 * N) + 64);
	struct gmon g;
	struct counters c;
	size_t n = 0, got;
	uint64_t sum = 0;

	(void)state;
	gnu_header(f, 1);
	memcpy(b, f->b, 20);
	n = 20;
	for (int r = 0; r < 2; r++) {	/* range r: bins k hold k % 251 + r */
		f->n = 0;
		put(f, 0, 1), put(f, r ? 0x100000 : 0x1000, 8);
		put(f, (r ? 0x100000 : 0x1000) + 2 * N, 8);
		put(f, N, 4), put(f, 100, 4);
		f->n += 16;
		memcpy(b + n, f->b, f->n);
		n += f->n;
		for (uint32_t k = 0; k < N; k++, n += 2) {
			b[n] = 0;
			b[n + 1] = (unsigned char)(k % 251 + (uint32_t)r);
		}
	}
	assert_int_equal(gmon_parse(&g, b, n, err, sizeof err), 0);
	c = gmon_counters(&g);
	assert_int_equal(c.n, 2 * N + 1);
	for (uint64_t k = 1; k < c.n; k += got) {
		const uint32_t *w = c.span(c.ctx, k, c.n, &got);

		assert_true(got >= 1 && got <= 4096);
		for (size_t i = 0; i < got; i++) {
			uint64_t j = k + i - 1;

			assert_int_equal(w[i], j % N % 251 + (j >= N));
			sum += w[i];
		}
	}
	assert_int_equal(total(&g), sum);
	assert_int_equal(counters_sum(&c, N - 3, N + 3),
	    (N - 4) % 251 + (N - 3) % 251 + (N - 2) % 251 + (N - 1) % 251 +
	    (0 + 1) + (1 + 1));
	gmon_free(&g);
	free(b);
	free(f);
}

/* N one-bin records of one range after a GNU header, in a buffer of its
 * own (malloc'd), its length in *LEN. */
static unsigned char *
many_records(uint64_t n, size_t *len)
{
	size_t at = 20, size = 20 + (size_t)n * 43;
	unsigned char *b = calloc(1, size);

	assert_non_null(b);
	memcpy(b, "gmon", 4);
	b[4] = 1;
	for (uint64_t i = 0; i < n; i++) {
		put_at(b, &at, 0, 0, 1);
		put_at(b, &at, 0, 0x1000, 8);
		put_at(b, &at, 0, 0x1010, 8);
		put_at(b, &at, 0, 1, 4);
		put_at(b, &at, 0, 100, 4);
		memcpy(b + at, "seconds", 7);
		at += 16;
		put_at(b, &at, 0, 1, 2);
	}
	*len = at;
	return b;
}

/* More records than a writer makes are refused: their memory is bounded. */
static void
records_bounded(void **state)
{
	struct gmon g;
	size_t n;
	unsigned char *b = many_records(GMON_MAX_HIST, &n);

	(void)state;
	assert_int_equal(gmon_parse(&g, b, n, err, sizeof err), 0);
	assert_int_equal(g.nhist, GMON_MAX_HIST);
	assert_int_equal(word(&g, 1), GMON_MAX_HIST);
	gmon_free(&g);
	free(b);
	b = many_records(GMON_MAX_HIST + 1, &n);
	assert_int_equal(gmon_parse(&g, b, n, err, sizeof err), -1);
	assert_non_null(strstr(err, "histogram records"));
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gnu_each_order_and_size),
		cmocka_unit_test(gnu_records_merge),
		cmocka_unit_test(bsd_each_order_and_size),
		cmocka_unit_test(malformed),
		cmocka_unit_test(merge_overflow),
		cmocka_unit_test(kernel_or_bsd),
		cmocka_unit_test(calls),
		cmocka_unit_test(calls_overflow),
		cmocka_unit_test(calls_interleaved),
		cmocka_unit_test(calls_many),
		cmocka_unit_test(graph_arcs),
		cmocka_unit_test(records_bounded),
		cmocka_unit_test(disjoint_ranges),
		cmocka_unit_test(subtract),
		cmocka_unit_test(windows),
	};

	return cmocka_run_group_tests_name("gmon", tests, NULL, NULL);
}
