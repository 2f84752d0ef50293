/*
 * fuzz_profile.c - libFuzzer harness for profile loading.
 *
 * Input: one flag byte, then (with a baseline) two bytes giving the
 * baseline's length, then the profile bytes and the baseline bytes.
 *   bit 0  the profile comes through a pipe, else a memfd (a regular
 *          file); either is read whole
 *   bit 1  the same for the baseline
 *   bit 2  -n (no byte-order guess)
 *   bit 3  a baseline is given
 *   bit 4  stretch: the bytes are repeated up to a few hundred KiB
 *   bit 6  the baseline is the profile itself
 *   bits 5 and 7 are unused
 * Bytes that look like a gmon.out (the "gmon" magic, or the BSD version
 * word at byte 12 or 20: gmon_sniff) take the process-profile path, as in
 * the program: parsed from memory and through a pipe or memfd (bit 0); a
 * parse that succeeds must give a sane histogram (ranges, bin counts,
 * sums) whose attribution to symbols drawn from the bytes covers every
 * bin once, then a report over those symbols runs with the options of
 * bits 1-4; a failed parse must leave a message and nothing allocated.
 * The loaded counters are compared with a reference computed here from
 * the bytes: the byte-order guess, the step, every counter (baseline
 * subtracted), sums over random ranges; and an error is fatal exactly
 * when the reference says so.  Fatal errors come back through the fatal hook.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/attrib.h"
#include "hist/gmon.h"
#include "base/output.h"
#include "cli/gmonrun.h"
#include "hist/profile.h"
#include "core/report.h"
#include "views/classic.h"
#include "base/sniff.h"
#include "sym/symsrc.h"
#include "base/util.h"

/* Every tick of G's bins. */
static uint64_t
total_of(const struct gmon *g)
{
	struct counters c = gmon_counters(g);

	return counters_sum(&c, 1, c.n);
}

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

static jmp_buf fatal_env;

static void
on_fatal(void *ctx)
{
	(void)ctx;
	longjmp(fatal_env, 1);
}

/* A readable path holding BYTES: "/dev/fd/N" of a pipe or a memfd. */
static int
make_source(const unsigned char *bytes, size_t n, int pipe_it, char *path,
    size_t pathlen)
{
	int fd;

	if (pipe_it) {
		int pfd[2];

		if (pipe(pfd) < 0)
			abort();
		if (n > 65536 && fcntl(pfd[1], F_SETPIPE_SZ, (int)n) < 0) {
			close(pfd[0]);
			close(pfd[1]);
			pipe_it = 0;
		} else {
			for (size_t off = 0; off < n;) {
				ssize_t r = write(pfd[1], bytes + off, n - off);
				if (r <= 0)
					abort();
				off += (size_t)r;
			}
			close(pfd[1]);
			fd = pfd[0];
		}
	}
	if (!pipe_it) {
		fd = memfd_create("fuzz-profile", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		for (size_t off = 0; off < n;) {
			ssize_t r = write(fd, bytes + off, n - off);
			if (r <= 0)
				abort();
			off += (size_t)r;
		}
	}
	snprintf(path, pathlen, "/dev/fd/%d", fd);
	return fd;
}

static uint32_t
ref_word(const unsigned char *b, uint64_t k, int swap)
{
	uint32_t w;

	memcpy(&w, b + 4 * k, 4);
	return swap ? __builtin_bswap32(w) : w;
}

/* Reference: the byte order guess over words 1..n-1. */
static int
ref_swapped(const unsigned char *b, uint64_t n)
{
	uint64_t big = 0, small = 0;

	for (uint64_t k = 1; k < n; k++) {
		uint32_t w = ref_word(b, k, 0);
		big += w > 0xffff;
		small += (w & 0xffff) != 0;
	}
	return big > small;
}

static void
release(struct profile *p, int opened)
{
	if (!opened)
		return;
	if (p->in.fd <= 2)
		p->in.fd = -1;	/* never opened: do not close stdin */
	profile_close(p);
}

static void
stretch(unsigned char **buf, size_t *n, size_t target)
{
	unsigned char *b;
	size_t len = *n;

	if (len == 0)
		return;
	b = malloc(target);
	memcpy(b, *buf, len < target ? len : target);
	for (size_t have = len; have < target; have *= 2)
		memcpy(b + have, b, have < target - have ? have : target - have);
	free(*buf);
	*buf = b;
	*n = target;
}

/* Symbols drawn from the bytes, ascending inside [low, high). */
static size_t
draw_symbols(const struct gmon *g, const unsigned char *b, size_t n,
    uint64_t *sym, size_t max)
{
	uint64_t span = g->high - g->low, at = g->low;
	size_t ns = 0;

	for (size_t i = 0; i + 1 < n && ns < max; i += 2) {
		uint64_t step = (uint64_t)(b[i] | b[i + 1] << 8) % (span / 8 + 2);
		if (span - (at - g->low) <= step)
			break;
		at += step;
		sym[ns++] = at;
	}
	return ns;
}

/* Attribution of G to NS symbols: every bin once, in order, where it lies. */
static void
check_attribution(const struct gmon *g, const uint64_t *sym, size_t ns)
{
	struct attrib a;
	struct attrib_span sp;
	struct counters c = gmon_counters(g);
	uint64_t covered = 0, prev_end = 0;

	attrib_init_hist(&a, g->ranges, g->nranges);
	for (uint64_t k = 1; k <= g->nbins + 1; k++) {
		uint64_t addr = attrib_word_addr(&a, k);
		CHECK(addr >= g->low && addr <= g->high);
		CHECK(k == 1 || addr >= attrib_word_addr(&a, k - 1));
		CHECK(k <= g->nbins || addr == g->high);
	}
	for (size_t i = 0; i < ns; i++) {
		uint64_t next = i + 1 < ns ? sym[i + 1] : g->high;

		CHECK(attrib_close(&a, sym[i], next, &sp) == 0);
		CHECK(sp.first <= sp.end && sp.end <= g->nbins + 1);
		CHECK(i == 0 || sp.first == prev_end);
		for (uint64_t k = sp.first; k < sp.end; k++) {
			uint64_t addr = attrib_word_addr(&a, k);
			CHECK(addr >= sym[i] && addr < next);
		}
		if (sp.first > 1)
			CHECK(attrib_word_addr(&a, sp.first - 1) < sym[i]);
		covered += counters_sum(&c, sp.first, sp.end);
		prev_end = sp.end;
	}
	if (ns)
		CHECK(prev_end == g->nbins + 1);
	CHECK(covered <= total_of(g));
}

/* A report of G against the symbols, into /dev/null. */
static void
run_report(const struct gmon *g, const uint64_t *sym, size_t ns,
    unsigned flags)
{
	static char text[64 * 40];
	struct options ro = { .mapfile = "map", .verbose = (flags & 2) != 0,
	    .all = (flags & 4) != 0, .bins = (flags & 8) != 0,
	    .counters = (flags & 16) != 0 };
	struct gmon_walk k = { g, 0 };
	struct report_hist h = { g->low, g->high, g->nbins, g->ranges,
	    g->nranges, g->rate, gmon_calls, &k };
	struct report_result res;
	struct counters c = gmon_counters(g);
	struct symsrc m;
	struct out o;
	size_t len = 0;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	for (size_t i = 0; i < ns && len + 40 < sizeof text; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
		    "%llx %c f%zu\n", (unsigned long long)sym[i],
		    "TtWwDA"[i % 6], i);
	symsrc_open_mem(&m, "map", text, len);
	out_init(&o, null);
	classic_run(&m, &c, &(struct run){ .o = &ro, .out = &o, .hist = &h },
	    &res);
	CHECK(res.total <= total_of(g));
	out_discard(&o);
	close(null);
	symsrc_close(&m);
}

/*
 * The arcs of G indexed in a copy of its bytes: the copy's bins read as
 * G's, and the calls into ascending ranges add up to all calls.
 */
static void
index_case(const struct gmon *g, const unsigned char *b, size_t n,
    const uint64_t *sym, size_t ns, unsigned flags)
{
	unsigned char *copy = malloc(n);
	struct gmon h;
	struct counters c, d;
	char err[256];
	uint64_t sum = 0, start = 0;
	struct gmon_walk cur = { &h, 0 };

	CHECK(copy != NULL);
	memcpy(copy, b, n);
	CHECK(gmon_parse(&h, copy, n, err, sizeof err) == 0);
	gmon_index_arcs(&h, copy);
	CHECK(h.ncallees <= h.narcs && (h.narcs == 0) == (h.ncallees == 0));
	c = gmon_counters(g);
	d = gmon_counters(&h);
	for (uint64_t k = 1; k <= g->nbins; k++)
		CHECK(counters_get(&c, k) == counters_get(&d, k));
	for (size_t i = 0; i < ns; start = sym[i++])
		sum += gmon_calls(&cur, start, sym[i]);
	sum += gmon_calls(&cur, start, UINT64_MAX);
	cur.at = 0;
	CHECK(sum == gmon_calls(&cur, 0, UINT64_MAX));
	run_report(&h, sym, ns, flags);
	gmon_free(&h);
	free(copy);
}

static void
gmon_case(const uint8_t *data, size_t size, unsigned flags)
{
	static struct profile p;
	static int fd;
	static char path[32];
	const unsigned char *b = data;
	struct gmon g;
	char err[256];
	uint64_t sym[64], sum = 0;
	size_t n = size, ns;
	int rc;

	err[0] = '\0';
	rc = gmon_parse(&g, b, n, err, sizeof err);
	if (rc != 0) {
		CHECK(err[0] != '\0');
		CHECK(g.bins == NULL);
	} else {
		CHECK(gmon_sniff(b, n));
		CHECK(g.low < g.high && g.nbins >= 1 &&
		    g.nbins <= g.high - g.low && g.rate > 0);
		CHECK(g.nranges >= 1 && g.ranges[0].first == 1);
		for (size_t i = 0; i < g.nranges; i++) {
			const struct hist_range *x = &g.ranges[i];
			CHECK(x->low < x->high && x->nbins >= 1 &&
			    x->nbins <= x->high - x->low);
			CHECK(i == 0 || (x->low >= x[-1].high &&
			    x->first == x[-1].first + x[-1].nbins));
		}
		CHECK(g.ptrsize == 4 || g.ptrsize == 8);
		{
			struct counters c = gmon_counters(&g);

			CHECK(g.bins != NULL && counters_get(&c, 0) == 0);
			for (uint64_t k = 1; k <= g.nbins; k++)
				sum += counters_get(&c, k);
		}
		CHECK(sum == total_of(&g));
		ns = draw_symbols(&g, b, n, sym, 64);
		check_attribution(&g, sym, ns);
		run_report(&g, sym, ns, flags);
		index_case(&g, b, n, sym, ns, flags);
		gmon_free(&g);
	}
	/* the same bytes through the input path */
	if (n == 0)
		return;
	fd = make_source(b, n, flags & 1, path, sizeof path);
	if (setjmp(fatal_env) == 0) {
		profile_load(&p, path);
		int kind = gmon_sniff(b, n), want = kind != GMON_SNIFF_NO;

		if (kind == GMON_SNIFF_BSD && gmon_maybe_kernel(b, n, n))
			want = rc == 0;
		CHECK(gmonrun_detect(&p) == want);
		CHECK(memcmp(p.data, b, n) == 0);
	}
	release(&p, 1);
	memset(&p, 0, sizeof p);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile prof, base;
	static int prof_opened, base_opened;
	static unsigned char *pb, *bb;
	static size_t pn, bn;
	static int srcfd[2];
	static char ppath[32], bpath[32];
	static uint64_t seed;
	unsigned flags;
	int want_fatal = 0, swap = 0, withbase;
	uint64_t pw = 0, bw = 0;

	if (size < 1)
		return 0;
	fatal_hook_set(on_fatal, NULL);
	flags = data[0];
	data++;
	size--;
	if (gmon_sniff(data, size) != GMON_SNIFF_NO) {
		gmon_case(data, size, flags);
		return 0;
	}
	withbase = (flags & 8) != 0;
	pn = size;
	bn = 0;
	if (withbase && !(flags & 64)) {
		size_t blen;

		if (size < 2)
			return 0;
		blen = (size_t)(data[0] | data[1] << 8);
		data += 2;
		size -= 2;
		if (blen > size)
			blen = size;
		pn = size - blen;
		bn = blen;
	}
	pb = malloc(pn + 1);
	memcpy(pb, data, pn);
	if (withbase) {
		if (flags & 64) {
			bn = pn;
			bb = malloc(bn + 1);
			memcpy(bb, pb, bn);
		} else {
			bb = malloc(bn + 1);
			memcpy(bb, data + pn, bn);
		}
	}
	if (flags & 16) {
		/*
		 * Whole words past the first 64 Ki-word window, or past the
		 * first 1 MiB; a trailing partial word stays.
		 */
		size_t tw = pn % 2 ? 0x100100 : 0x40010;
		size_t bt = tw + (bn & 3);

		stretch(&pb, &pn, tw + (pn & 3));
		if (withbase)
			stretch(&bb, &bn, (flags & 64) ? pn : bt);
	}

	/* The reference outcome. */
	/* 1 to 3 bytes are fatal; a longer trailing partial word is left out */
	if (pn < 4)
		want_fatal = 1;
	else
		pw = pn / 4;
	/*
	 * A partial word in bytes that are recognisably something else
	 * (compressed data, an ELF file, text: sniff.h) is fatal too.
	 */
	if (!want_fatal && pn % 4 && sniff(pb, pn < 256 ? pn : 256) != NULL)
		want_fatal = 1;
	/* the profile is set up before the baseline is read */
	if (!want_fatal)
		swap = (flags & 4) ? 0 : ref_swapped(pb, pw);
	if (!want_fatal && withbase) {
		if (bn < 4)
			want_fatal = 1;
		else
			bw = bn / 4;
	}
	if (!want_fatal && withbase && bn % 4 &&
	    sniff(bb, bn < 256 ? bn : 256) != NULL)
		want_fatal = 1;
	if (!want_fatal && withbase) {
		if (ref_word(pb, 0, swap) != ref_word(bb, 0, swap) || pw != bw)
			want_fatal = 1;
		for (uint64_t k = 1; !want_fatal && k < pw; k++)
			if (ref_word(pb, k, swap) < ref_word(bb, k, swap))
				want_fatal = 1;
	}

	srcfd[0] = make_source(pb, pn, flags & 1, ppath, sizeof ppath);
	srcfd[1] = withbase ? make_source(bb, bn, flags & 2, bpath,
	    sizeof bpath) : -1;
	prof_opened = base_opened = 0;
	if (setjmp(fatal_env) == 0) {
		struct counters c;
		uint64_t sum = 0, rsum = 0;

		prof_opened = 1;
		profile_open(&prof, ppath);
		CHECK(profile_setup(&prof, (flags & 4) != 0) == swap);
		if (withbase) {
			base_opened = 1;
			profile_subtract(&prof, &base, bpath);
		}
		CHECK(!want_fatal);
		CHECK(prof.nwords == pw);
		CHECK(prof.trailing == pn % 4);
		CHECK(prof.step == ref_word(pb, 0, swap));

		c = profile_counters(&prof);
		CHECK(c.n == pw);
		/* Every word, one at a time, in order. */
		for (uint64_t k = 0; k < pw; k++) {
			uint32_t want = ref_word(pb, k, swap);
			if (withbase && k > 0)
				want -= ref_word(bb, k, swap);
			CHECK(counters_get(&c, k) == want);
			if (k > 0)
				rsum += want;
		}
		if (pw > 1)
			sum = counters_sum(&c, 1, pw);
		CHECK(sum == rsum);
		/*
		 * Random ranges of counters [a, b), 1 <= a < b <= n, in random
		 * order (a report only ever sums counters, never the step word).
		 */
		seed = pn * 2654435761u + flags;
		for (int i = 0; i < 16 && pw > 1; i++) {
			uint64_t a, b, s2 = 0;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			a = 1 + (seed >> 33) % (pw - 1);
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			b = a + 1 + (seed >> 33) % (pw - a);
			for (uint64_t k = a; k < b; k++) {
				uint32_t w = ref_word(pb, k, swap);
				if (withbase && k > 0)
					w -= ref_word(bb, k, swap);
				s2 += w;
			}
			CHECK(counters_sum(&c, a, b) == s2);
			for (uint64_t k = a; k < b;) {
				size_t got;
				const uint32_t *w = c.span(c.ctx, k, b, &got);
				CHECK(got >= 1 && got <= b - k);
				CHECK(w != NULL);
				k += got;
			}
		}
	} else {
		CHECK(want_fatal);
	}
	release(&prof, prof_opened);
	release(&base, base_opened);
	memset(&prof, 0, sizeof prof);
	memset(&base, 0, sizeof base);
	close(srcfd[0]);
	if (srcfd[1] >= 0)
		close(srcfd[1]);
	free(pb);
	free(bb);
	pb = bb = NULL;
	return 0;
}
