/*
 * fuzz_profile.c - libFuzzer harness for profile loading.
 *
 * Input: one flag byte, then (with a baseline) two bytes giving the
 * baseline's length, then the profile bytes and the baseline bytes.
 *   bit 0  the profile comes through a pipe (read whole), else a memfd
 *          (a regular file: read in mapped chunks)
 *   bit 1  the same for the baseline
 *   bit 2  -n (no byte-order guess)
 *   bit 3  a baseline is given
 *   bit 4  stretch: the bytes are repeated up to a few hundred KiB, so
 *          that the 64 Ki-word windows and 1 MiB mapped chunks are crossed
 *   bit 5  a tiny budget for the non-zero index: it is dropped on the way
 *          and the report reads the file again
 *   bit 6  the baseline is the profile itself
 * The loaded counters are compared with a reference computed here from
 * the bytes: the byte-order guess, the step, every counter (baseline
 * subtracted), sums over random ranges; and an error is fatal exactly
 * when the reference says so.  Fatal errors come back through fatal_hook.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "attrib.h"
#include "profile.h"
#include "util.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

static jmp_buf fatal_env;

static void
on_fatal(void)
{
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
	fatal_hook = on_fatal;
	flags = data[0];
	data++;
	size--;
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
		 * first 1 MiB mapped chunk; a trailing partial word stays.
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
	if (!want_fatal && withbase) {
		if (bn < 4)
			want_fatal = 1;
		else
			bw = bn / 4;
	}
	if (!want_fatal)
		swap = (flags & 4) ? 0 : ref_swapped(pb, pw);
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
		if (flags & 32)
			prof.nz_budget = 64;
		if (withbase) {
			base_opened = 1;
			profile_open(&base, bpath);
			if (flags & 32)
				base.nz_budget = 64;
		}
			CHECK(profile_setup(&prof, withbase ? &base : NULL,
		    (flags & 4) != 0) == swap);
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
