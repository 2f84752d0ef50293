/*
 * profile.c - reading a profile: size, byte order, step, counters.
 */
#include <errno.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mapguard.h"
#include "hist/profile.h"
#include "base/sniff.h"
#include "base/util.h"
#include "base/worker.h"

#define WIN_WORDS ((size_t)1 << 16)
#define MAP_CHUNK (WIN_WORDS * 4)	/* 256 KiB mapped at a time */

static void
check_bounds(const struct profile *p)
{
	if (p->bytes == 0)
		fatalx("%s: input file is empty", p->name);
	if (p->bytes > PROFILE_MAX_BYTES)
		fatalx("%s: too large for a profile (more than %llu bytes)",
		    p->name, (unsigned long long)PROFILE_MAX_BYTES);
}

static void
check_size(const struct profile *p)
{
	check_bounds(p);
	if (p->bytes % 4)
		sniff_profile_size(p);
	if (p->bytes < 4)
		fatalx("%s: truncated profile: %llu bytes is not a whole number "
		    "of 32-bit words", p->name, (unsigned long long)p->bytes);
}

/*
 * Whole words only: like util-linux, a trailing partial word (a snapshot
 * cut short) is left out; profile_warn_trailing says so.
 */
static void
drop_partial_word(struct profile *p)
{
	p->trailing = (unsigned)(p->bytes % 4);
	p->bytes -= p->trailing;
}

/* A non-seekable input is read whole, bounded by PROFILE_MAX_BYTES. */
static void
slurp(struct profile *p)
{
	size_t cap = 1 << 16, len = 0, got;

	p->data = xmalloc(cap);
	while ((got = input_read(&p->in, p->data + len, cap - len)) > 0) {
		len += got;
		if (len > PROFILE_MAX_BYTES) {
			p->bytes = len;
			check_bounds(p);
		}
		if (len == cap) {	/* one byte past the limit is enough */
			cap = cap * 2 > PROFILE_MAX_BYTES + 1 ?
			    (size_t)PROFILE_MAX_BYTES + 1 : cap * 2;
			p->data = xrealloc(p->data, cap);
		}
	}
	p->bytes = len;
}

void
profile_load(struct profile *p, const char *name)
{
	memset(p, 0, sizeof *p);
	p->name = name;
	p->nz_budget = PROFILE_INDEX_MAX;
	if (input_open(&p->in, name) < 0)
		fatal("%s", name);
	if (p->in.seekable)
		p->bytes = p->in.size;
	else
		slurp(p);
	check_bounds(p);
}

void
profile_check(struct profile *p)
{
	check_size(p);
	drop_partial_word(p);
	p->nwords = p->bytes / 4;
}

void
profile_open(struct profile *p, const char *name)
{
	profile_load(p, name);
	profile_check(p);
}

/* Read [off, off + n) of a seekable input. */
static void
read_at(struct profile *p, unsigned char *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(p->in.fd, buf + done, n - done,
		    (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("%s", p->name);
		if (r == 0)
			fatalx("%s: file shrank while being read", p->name);
		done += (size_t)r;
	}
}

size_t
profile_peek(struct profile *p, unsigned char *buf, size_t n)
{
	if (n > p->bytes)
		n = (size_t)p->bytes;
	if (p->data)
		memcpy(buf, p->data, n);
	else
		read_at(p, buf, n, 0);
	return n;
}

const unsigned char *
profile_bytes(struct profile *p)
{
	if (p->data == NULL) {
		p->data = xmalloc(p->bytes ? (size_t)p->bytes : 1);
		read_at(p, p->data, (size_t)p->bytes, 0);
	}
	return p->data;
}

void
profile_warn_trailing(const struct profile *p)
{
	if (p->trailing)
		warnx_("%s: ignoring %u trailing byte%s (not a whole 32-bit word)",
		    p->name, p->trailing, p->trailing == 1 ? "" : "s");
}

static uint32_t
bswap32(uint32_t x)
{
	return __builtin_bswap32(x);
}

/* Map the chunk of the file holding byte OFF into RD; 0 on success. */
static int
map_chunk(struct profile *p, struct preader *rd, uint64_t off)
{
	uint64_t start = off & ~(uint64_t)(MAP_CHUNK - 1);
	size_t len = p->bytes - start < MAP_CHUNK ? (size_t)(p->bytes - start)
	    : MAP_CHUNK;
	void *m;

	if (rd->map_base != NULL) {
		mapguard_remove(rd->map_base);
		munmap(rd->map_base, rd->map_len);
	}
	rd->map_base = NULL;
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, p->in.fd,
	    (off_t)start);
	if (m == MAP_FAILED)
		return -1;
	/* the file shrank under the mapping: say so rather than crash */
	mapguard_add(m, len, "profile file shrank while being read");
	rd->map_base = m;
	rd->map_len = len;
	rd->map_off = start;
	return 0;
}

static void
preader_free(struct preader *rd)
{
	if (rd->map_base != NULL) {
		mapguard_remove(rd->map_base);
		munmap(rd->map_base, rd->map_len);
	}
	rd->map_base = NULL;
	free(rd->rawbuf);
	rd->rawbuf = NULL;
}

/*
 * Raw words from FROM on, as stored, *N of them at most (cut to what is
 * there), read through RD.  Each kind of input is read the cheapest way
 * it allows:
 *   - memory-held data (a pipe, stdin, a decompressor, read whole by
 *     slurp, as such an input can be read only once) is served in place;
 *   - a regular file is mapped 256 KiB at a time and served in place: on
 *     a 73 MB profile that costs 15 to 20% less than copying it out of
 *     the page cache with pread (measured), and as only one chunk is
 *     mapped at a time the resident set stays small;
 *   - where mapping fails, as on /proc/profile, pread into a 256 KiB
 *     buffer.
 * Reads start at offsets aligned on WIN_WORDS words (see pass).
 */
static const uint32_t *
raw_span(struct profile *p, struct preader *rd, uint64_t from, size_t *n)
{
	uint64_t off = from * 4;
	size_t done = 0, want;

	if (p->data)
		return (const uint32_t *)(void *)(p->data + off);
	if (!rd->no_mmap) {
		if ((rd->map_base == NULL || off < rd->map_off ||
		    off >= rd->map_off + rd->map_len) &&
		    map_chunk(p, rd, off) < 0)
			rd->no_mmap = 1;
		if (!rd->no_mmap) {
			size_t avail = (size_t)(rd->map_off + rd->map_len - off) / 4;

			if (*n > avail)
				*n = avail;
			return (const uint32_t *)(void *)
			    ((char *)rd->map_base + (off - rd->map_off));
		}
	}
	if (rd->rawbuf == NULL)
		rd->rawbuf = xmalloc(WIN_WORDS * 4);
	if (*n > WIN_WORDS)
		*n = WIN_WORDS;
	want = *n * 4;
	while (done < want) {
		ssize_t r = pread(p->in.fd, (char *)rd->rawbuf + done,
		    want - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("%s", p->name);
		if (r == 0)
			fatalx("%s: file shrank while being read", p->name);
		done += (size_t)r;
	}
	return rd->rawbuf;
}

/*
 * The non-zero index: the non-zero counters, kept from the byte-order pass
 * so that the report needs no second pass over the file.  A byte stream,
 * per counter: its distance D from the word after the previous one, and
 * its raw value V coded as C = V << 1, or bswap(V) << 1 | 1 when that is
 * smaller, so that small counts are small in either byte order before the
 * order is known.  The usual entry of a dense profile (D < 32, C < 1024)
 * takes two bytes: 1, D in 5 bits, C in 10.  Any other takes D in a byte
 * below 127 (127 and two bytes when D >= 127), then C in two bytes
 * little-endian when C < 2^15, else two with the top bit set and three
 * more.  The two usual forms are decoded without a branch (they mix in a
 * dense profile), the escapes are rare.  Each window of WIN_WORDS words
 * starts afresh (distances from the window's first word, so D < 2^16) at
 * stream offset nz_ck[window]: any window can be decoded on its own.
 * Past nz_budget
 * bytes the index is dropped, and the report reads the file.
 */
static void
nz_drop(struct profile *p)
{
	p->nz_ok = 0;
	if (p->nz_buf != NULL)
		munmap(p->nz_buf, p->nz_region);
	free(p->nz_ck);
	p->nz_buf = NULL;
	p->nz_ck = NULL;
	p->nz_len = p->nz_region = 0;
}

/*
 * A builder of the index over a run of windows, for one thread: its part
 * of the mapping (budget bytes from OFF), of which CAP are reserved from
 * the budget (p->nz_used, shared by the passes), LEN used.
 */
struct nzb {
	unsigned char *buf;
	size_t off, len, cap;
	uint64_t nck;		/* the next window to start */
	uint64_t base;		/* the word after the last entry */
	int ok;
};

#define NZ_STEP ((size_t)1 << 16)	/* reserved at a time, at most */

/* Room for two numbers, or the index is dropped; 0 when it was. */
static int
nz_room(struct profile *p, struct nzb *b)
{
	size_t step = p->nz_budget / 16 < NZ_STEP ? p->nz_budget / 16 + 32 :
	    NZ_STEP;

	if (b->len + 20 <= b->cap)
		return 1;
	if (b->cap + step > p->nz_budget ||
	    __atomic_add_fetch(&p->nz_used, step, __ATOMIC_RELAXED) >
	    p->nz_budget || __atomic_load_n(&p->nz_full, __ATOMIC_RELAXED)) {
		__atomic_store_n(&p->nz_full, 1, __ATOMIC_RELAXED);
		b->ok = 0;
		return 0;
	}
	b->cap += step;
	return 1;
}

/* Append the entry D, C (see above) at B; returns the end. */
static unsigned char *
nz_put(unsigned char *b, uint64_t d, uint64_t c)
{
	if (d < 32 && c < 1024) {
		b[0] = (unsigned char)(0x80 | d << 2 | c >> 8);
		b[1] = (unsigned char)c;
		return b + 2;
	}
	if (d < 127)
		*b++ = (unsigned char)d;
	else {
		b[0] = 127;
		b[1] = (unsigned char)d;
		b[2] = (unsigned char)(d >> 8);
		b += 3;
	}
	b[0] = (unsigned char)c;
	b[1] = (unsigned char)(c >> 8);
	if (c < 0x8000)
		return b + 2;
	b[1] = (unsigned char)((c >> 8 & 0x7f) | 0x80);
	b[2] = (unsigned char)(c >> 15);
	b[3] = (unsigned char)(c >> 23);
	b[4] = (unsigned char)(c >> 31);
	return b + 5;
}

/*
 * Decode the entry at *PP: its distance; *C its value's code.  It may
 * read a byte past the entry (the index has room after its end).
 */
static inline __attribute__((always_inline)) uint64_t
nz_get(const unsigned char **pp, uint64_t *c)
{
	const unsigned char *b = *pp;
	uint64_t b0 = b[0], b1 = b[1], b2 = b[2];
	uint64_t two = b0 >> 7, d, x;

	if (b0 == 127) {		/* D >= 127 */
		d = b1 | b2 << 8;
		b += 2;
		b2 = b[2];
		b1 = b[1];
		two = 0;
	} else
		d = two ? (b0 >> 2) & 31 : b0;
	x = two ? (b0 & 3) << 8 | b1 : b1 | b2 << 8;
	b += 3 - two;
	if (x & ~two << 15 & 0x8000) {	/* C >= 2^15 */
		x = (x & 0x7fff) | ((uint64_t)b[0] | (uint64_t)b[1] << 8 |
		    (uint64_t)b[2] << 16) << 15;
		b += 3;
	}
	*c = x;
	*pp = b;
	return d;
}

/* Record word K, raw value V != 0; K above every word recorded before. */
static void
nz_note(struct profile *p, struct nzb *nb, uint64_t k, uint32_t v)
{
	uint64_t w = k / WIN_WORDS;
	uint32_t sv = bswap32(v);
	unsigned char *b;

	while (nb->nck <= w) {	/* the windows up to K's start here */
		p->nz_ck[nb->nck] = nb->off + nb->len;
		nb->base = nb->nck++ * (uint64_t)WIN_WORDS;
	}
	if (!nz_room(p, nb))
		return;
	b = nz_put(nb->buf + nb->len, k - nb->base,
	    sv < v ? (uint64_t)sv << 1 | 1 : (uint64_t)v << 1);
	nb->len = (size_t)(b - nb->buf);
	nb->base = k + 1;
}

static uint64_t
nz_windows(const struct profile *p)
{
	return (p->nwords + WIN_WORDS - 1) / WIN_WORDS;
}

/*
 * Room for N builders, each with the whole budget of address space (only
 * what is written becomes memory); 0 when there is no index.
 */
static int
nz_start(struct profile *p, int n)
{
	void *m;

	p->nz_region = (size_t)n * p->nz_budget;
	m = mmap(NULL, p->nz_region, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		p->nz_region = 0;
		return 0;
	}
	p->nz_buf = m;
	p->nz_ok = 1;
	p->nz_len = p->nz_used = 0;
	p->nz_full = 0;
	p->nz_ck = xmalloc((nz_windows(p) + 1) * sizeof *p->nz_ck);
	return 1;
}

/* Builder I of the index, from window W on. */
static void
nzb_init(struct profile *p, struct nzb *b, int i, uint64_t w)
{
	memset(b, 0, sizeof *b);
	b->off = (size_t)i * p->nz_budget;
	b->buf = p->nz_buf + b->off;
	b->nck = w;
	b->ok = 1;
}

/* Give back the pages of the index in [from, to) (page-aligned inside). */
static void
nz_release(struct profile *p, size_t from, size_t to)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (from < to)
		madvise(p->nz_buf + from, to - from, MADV_DONTNEED);
}

/*
 * The windows from M on, written by the second thread from the last one
 * down (window w's entries at nz_ck[w] up to END[w], in its part of the
 * mapping, the last window first), copied in order after the first
 * thread's (windows 0 to M-1, in order, LEN bytes).  The second part's
 * pages are given back as they are copied, so that the index never takes
 * much more than its own size.
 */
static void
nz_gather(struct profile *p, size_t len, uint64_t m, const size_t *end)
{
	uint64_t nw = nz_windows(p);
	size_t top = p->nz_region;	/* given back from here up */

	for (uint64_t w = m; w < nw; w++) {
		size_t n = end[w] - p->nz_ck[w];

		memcpy(p->nz_buf + len, p->nz_buf + p->nz_ck[w], n);
		if (top - p->nz_ck[w] >= ((size_t)1 << 18)) {
			nz_release(p, p->nz_ck[w], top);
			top = p->nz_ck[w];
		}
		p->nz_ck[w] = len;
		len += n;
	}
	p->nz_ck[nw] = len;
	p->nz_len = len;
	nz_release(p, len, top);
}

/* Count the halves in use among 16 words, branch-free (vectorised). */
static void
halves16(const uint32_t *w, uint64_t *big, uint64_t *small)
{
	uint32_t b = 0, s = 0;

	for (int j = 0; j < 16; j++) {
		b += w[j] > 0xffffu;
		s += (w[j] & 0xffffu) != 0;
	}
	*big += b;
	*small += s;
}

/*
 * The non-zero words among 16, as a bit mask, with no branch: a vector of
 * 0/1 bytes, then eight bytes at a time gathered by one multiplication
 * (byte i of X lands in bit 56 + i of X * 0x0102040810204080, X holding
 * byte i in its bits 8i..8i+7: loaded as is on a little-endian host,
 * byte-swapped on a big-endian one).
 */
static unsigned
mask16(const uint32_t *w)
{
	unsigned char nz[16];
	uint64_t lo, hi;
	const uint64_t gather = UINT64_C(0x0102040810204080);

	for (int j = 0; j < 16; j++)
		nz[j] = w[j] != 0;
	memcpy(&lo, nz, 8);
	memcpy(&hi, nz + 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	lo = __builtin_bswap64(lo);	/* byte i to bits 8i..8i+7, as above */
	hi = __builtin_bswap64(hi);
#endif
	return (unsigned)((lo * gather) >> 56) |
	    (unsigned)((hi * gather) >> 56) << 8;
}

/*
 * Count the halves in use in W[0..n), words FIRST.. of the profile, and
 * with P keeping an index, note the non-zero words.  Sixty-four words at a
 * time, with no branch but one loop over the non-zero words, found
 * through a bit mask: the count and the mask are vector code at -O2, and
 * a dense profile (one counter in 50 non-zero, say) costs one
 * mispredicted branch per 64 words rather than one per non-zero word.
 */
static void
scan_words(struct profile *p, struct nzb *nb, const uint32_t *w, size_t n,
    uint64_t first, uint64_t *big, uint64_t *small)
{
	size_t i = 0;
	uint64_t b = 0, s = 0;

	if (nb != NULL && nb->ok) {
		for (; i + 64 <= n && nb->ok; i += 64) {
			uint64_t m = 0;

			for (int g = 0; g < 4; g++)
				m |= (uint64_t)mask16(w + i + 16 * g) << 16 * g;
			for (; m; m &= m - 1) {	/* the block is counted whole */
				size_t j = i + (size_t)__builtin_ctzll(m);
				b += w[j] > 0xffffu;
				s += (w[j] & 0xffffu) != 0;
				if (nb->ok)
					nz_note(p, nb, first + j, w[j]);
			}
		}
	}
	*big += b;
	*small += s;
	for (; i + 16 <= n; i += 16) {
		unsigned m = nb != NULL && nb->ok ? mask16(w + i) : 0;

		halves16(w + i, big, small);
		for (; m && nb->ok; m &= m - 1) {
			size_t j = i + (size_t)__builtin_ctz(m);
			nz_note(p, nb, first + j, w[j]);
		}
	}
	for (; i < n; i++) {
		*big += w[i] > 0xffffu;
		*small += (w[i] & 0xffffu) != 0;
		if (nb != NULL && nb->ok && w[i])
			nz_note(p, nb, first + i, w[i]);
	}
}

void
profile_count_halves(const uint32_t *w, size_t n, uint64_t *big,
    uint64_t *small)
{
	scan_words(NULL, NULL, w, n, 0, big, small);
}

int
profile_guess_swapped(uint64_t big, uint64_t small)
{
	return big > small;
}

/*
 * Words [from, to) of P (from a multiple of WIN_WORDS), through RD:
 * count the halves in use (BIG, SMALL) and, with NB, note the non-zero
 * words.  The file is read in windows aligned on their size: a read at
 * an offset that is not a multiple of the page size costs the kernel's
 * copy about three times as much (measured).
 */
static void
scan_range(struct profile *p, struct preader *rd, struct nzb *nb,
    uint64_t from, uint64_t to, uint64_t *big, uint64_t *small)
{
	for (uint64_t k = from; k < to;) {
		size_t n = to - k < WIN_WORDS ? (size_t)(to - k) : WIN_WORDS;
		const uint32_t *w = raw_span(p, rd, k, &n);

		if (k == 0) {	/* the step word */
			w++;
			n--;
			k++;
		}
		scan_words(p, nb, w, n, k, big, small);
		k += n;
	}
}

/* With BASE: check that no counter of P went down (words 1..n-1). */
static void
check_base(struct profile *p, struct profile *base)
{
	for (uint64_t k = 0; k < p->nwords;) {
		size_t n = p->nwords - k < WIN_WORDS ? p->nwords - k : WIN_WORDS;
		const uint32_t *w = raw_span(p, &p->rd, k, &n), *b;

		if (k == 0) {	/* the step word */
			w++;
			n--;
			k++;
		}
		b = raw_span(base, &base->rd, k, &n);	/* may cut N: W stays valid */
		for (size_t i = 0; i < n; i++) {
			uint32_t x = p->swap ? bswap32(w[i]) : w[i];
			uint32_t y = p->swap ? bswap32(b[i]) : b[i];
			if (x < y)
				fatalx("%s: counter %llu is lower than in %s "
				    "(were the counters reset?)", p->name,
				    (unsigned long long)(k + i - 1),
				    base->name);
		}
		k += n;
	}
}

/*
 * The byte-order pass on two threads: each takes windows of the file
 * from its end of the range left (RANGE: windows [lo, hi) as lo << 32 |
 * hi), the first thread upwards, the second downwards, until they meet;
 * so that neither waits for the other when one starts late or runs slow.
 */
struct pass {
	struct profile *p;
	uint64_t range;		/* atomic */
	size_t *end;		/* the end of each window's entries */
};

/* A window from the low end (LOW) or the high end; UINT64_MAX: none. */
static uint64_t
take_window(struct pass *ps, int low)
{
	uint64_t r = __atomic_load_n(&ps->range, __ATOMIC_RELAXED), n, w;

	do {
		uint64_t lo = r >> 32, hi = r & 0xffffffffu;

		if (lo >= hi)
			return UINT64_MAX;
		w = low ? lo : hi - 1;
		n = low ? (lo + 1) << 32 | hi : lo << 32 | (hi - 1);
	} while (!__atomic_compare_exchange_n(&ps->range, &r, n, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return w;
}

/*
 * Scan the windows this thread takes; with NB, each window's entries go
 * to NB from nz_ck[w] to end[w] (each window's entries stand alone).
 */
static void
scan_windows(struct pass *ps, struct preader *rd, struct nzb *nb, int low,
    uint64_t *big, uint64_t *small)
{
	struct profile *p = ps->p;
	uint64_t w;

	while ((w = take_window(ps, low)) != UINT64_MAX) {
		uint64_t from = w * WIN_WORDS;
		uint64_t to = p->nwords - from < WIN_WORDS ? p->nwords :
		    from + WIN_WORDS;

		if (nb != NULL && nb->ok) {
			p->nz_ck[w] = nb->off + nb->len;
			nb->base = from;
			nb->nck = w + 1;	/* nz_note starts no window */
		}
		scan_range(p, rd, nb, from, to, big, small);
		if (nb != NULL && nb->ok)
			ps->end[w] = nb->off + nb->len;
	}
}

/* The second thread of a pass. */
struct half {
	struct pass *ps;
	struct preader rd;
	struct nzb nb, *nbp;
	uint64_t big, small;
	struct msghold held;
	int failed;
};

static void
half_job(void *arg)
{
	struct half *h = arg;

	msg_hold(&h->held);
	if (setjmp(h->held.jb) == 0)
		scan_windows(h->ps, &h->rd, h->nbp, 0, &h->big, &h->small);
	else
		h->failed = 1;
	msg_hold(NULL);
	preader_free(&h->rd);
}

#define PAR_MIN_WINDOWS (PROFILE_TWO_THREADS / 4 / WIN_WORDS)

/*
 * The byte-order pass, with INDEX also keeping the non-zero counters (the
 * only pass then).  A file of PAR_MIN_WINDOWS windows or more is read by
 * two threads at once, each with its own part of the index, gathered
 * after; the second thread's errors are reported by this one.
 */
static void
first_pass(struct profile *p, int index, uint64_t *big, uint64_t *small)
{
	uint64_t nw = nz_windows(p);
	struct pass ps = { p, nw, NULL };
	struct nzb nb1, *nbp1 = NULL;
	struct half h;
	int two = nw >= PAR_MIN_WINDOWS;

	if (index && nz_start(p, two ? 2 : 1)) {
		nzb_init(p, &nb1, 0, 0);
		nbp1 = &nb1;
		ps.end = xmalloc((nw + 1) * sizeof *ps.end);
	}
	memset(&h, 0, sizeof h);
	if (two) {
		/*
		 * Two threads mapping and unmapping at once wait for each
		 * other on the process's memory map lock: both read with
		 * pread instead, which runs side by side (a 73 MB profile:
		 * 1.4 times faster than mapping on one thread).
		 */
		h.rd.no_mmap = 1;
		h.ps = &ps;
		if (nbp1 != NULL) {
			nzb_init(p, &h.nb, 1, 0);
			h.nbp = &h.nb;
		}
		/* the report follows: the thread waits awake after */
		if (worker_post(half_job, &h, 1) != 0)
			two = 0;
		else
			p->rd.no_mmap = 1;
	}
	scan_windows(&ps, &p->rd, nbp1, 1, big, small);
	if (two) {
		worker_wait();
		if (h.failed)
			msg_replay_fatal(h.held.text ? h.held.text : "",
			    h.held.len);
		free(h.held.text);
		*big += h.big;
		*small += h.small;
	}
	if (nbp1 != NULL) {
		if (!nb1.ok || (two && !h.nb.ok))
			nz_drop(p);
		else	/* the first thread's windows: 0 up to where they met */
			nz_gather(p, nb1.len, ps.range >> 32, ps.end);
		p->c0.nz_win = UINT64_MAX;
	}
	free(ps.end);
	if (p->nz_ok)	/* the report reads the index, never the file */
		preader_free(&p->rd);
}

static uint32_t
raw_word0(struct profile *p)
{
	size_t n = 1;

	return *raw_span(p, &p->rd, 0, &n);
}

/* Memory-held data is swapped in place once, then served directly. */
static void
swap_data(struct profile *p)
{
	uint32_t *w = (uint32_t *)(void *)p->data;

	if (!p->swap || !p->data)
		return;
	for (uint64_t k = 0; k < p->nwords; k++)
		w[k] = bswap32(w[k]);
}

int
profile_setup(struct profile *p, struct profile *base, int noauto)
{
	uint64_t big = 0, small = 0;

	if (!noauto) {
		/*
		 * The byte-order pass over a file also keeps the non-zero
		 * counters, so that it is the only pass.  (Memory-held data
		 * is read where it lies; with a baseline the words are the
		 * differences, known only after this pass.)
		 */
		first_pass(p, p->data == NULL && base == NULL &&
		    p->nz_budget > 0, &big, &small);
		p->swap = profile_guess_swapped(big, small);
	}
	p->step = raw_word0(p);
	if (p->swap)
		p->step = bswap32(p->step);
	if (base) {
		base->swap = p->swap;
		base->step = raw_word0(base);
		if (base->swap)
			base->step = bswap32(base->step);
		if (base->step != p->step)
			fatalx("%s: sampling step %u differs from %s's %u",
			    base->name, base->step, p->name, p->step);
		if (base->nwords != p->nwords)
			fatalx("%s: %llu counters, but %s has %llu", base->name,
			    (unsigned long long)(base->nwords - 1), p->name,
			    (unsigned long long)(p->nwords - 1));
		check_base(p, base);
		swap_data(base);
		p->base = base;
	}
	swap_data(p);
	p->c0.win_n = 0;	/* the pass used the buffer: no window yet */
	return p->swap;
}

/* The host-order value of a coded counter. */
static uint32_t
nz_value(const struct profile *p, uint64_t code)
{
	uint32_t v = (uint32_t)(code >> 1);

	return ((unsigned)code & 1) ^ (unsigned)p->swap ? bswap32(v) : v;
}

/* Window W of the profile, host order, decoded from the index. */
static void
nz_window(struct pcursor *pc, uint64_t w, size_t n)
{
	const struct profile *p = pc->p;
	const unsigned char *b = p->nz_buf + p->nz_ck[w];
	const unsigned char *e = p->nz_buf + p->nz_ck[w + 1];
	uint64_t k = w * (uint64_t)WIN_WORDS;

	memset(pc->win, 0, n * 4);
	while (b < e) {
		uint64_t c;

		k += nz_get(&b, &c);
		pc->win[k - w * (uint64_t)WIN_WORDS] = nz_value(p, c);
		k++;
	}
	if (w == 0)
		pc->win[0] = p->step;
	pc->win_first = w * (uint64_t)WIN_WORDS;
	pc->win_n = n;
	pc->cur = pc->win;
}

/*
 * Window W of the profile, N words, read from the file (or memory-held
 * data with a baseline): served in place when it needs no change, else
 * byte-swapped and with the baseline subtracted into the cursor's window.
 */
static void
file_window(struct pcursor *pc, uint64_t w, size_t n)
{
	struct profile *p = pc->p;
	uint64_t from = w * (uint64_t)WIN_WORDS;
	const uint32_t *raw = raw_span(p, &p->rd, from, &n);

	pc->win_first = from;
	pc->win_n = n;
	if (!p->swap && !p->base) {
		pc->cur = raw;
		return;
	}
	if (p->swap && !p->data)
		for (size_t i = 0; i < n; i++)
			pc->win[i] = bswap32(raw[i]);
	else
		memcpy(pc->win, raw, n * 4);
	if (p->base) {
		struct counters bc = profile_counters(p->base);
		for (size_t i = 0; i < n;) {
			size_t bn;
			const uint32_t *b = bc.span(bc.ctx, from + i,
			    from + n, &bn);
			for (size_t j = 0; j < bn; j++)
				if (from + i + j > 0)
					pc->win[i + j] -= b[j];
			i += bn;
		}
	}
	pc->cur = pc->win;
}

/*
 * Words [from, to): *got of them from FROM on, in host order, from the
 * window holding FROM (windows are aligned on their size, see pass).
 */
static const uint32_t *
span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct pcursor *pc = ctx;
	struct profile *p = pc->p;
	size_t n;

	if (p->data && !p->base) {
		*got = (size_t)(to - from);
		return (const uint32_t *)(void *)p->data + from;
	}
	if (from < pc->win_first || from >= pc->win_first + pc->win_n) {
		uint64_t w = from / WIN_WORDS;

		n = p->nwords - w * WIN_WORDS < WIN_WORDS ?
		    (size_t)(p->nwords - w * WIN_WORDS) : WIN_WORDS;
		if (pc->win == NULL)
			pc->win = xmalloc(WIN_WORDS * 4);
		if (p->nz_ok)
			nz_window(pc, w, n);
		else
			file_window(pc, w, n);
	}
	n = (size_t)(pc->win_first + pc->win_n - from);
	*got = to - from < n ? (size_t)(to - from) : n;
	return pc->cur + (from - pc->win_first);
}

/*
 * Sum of [from, to) from the index.  Reports move forward: the decoder
 * resumes where the last sum stopped, and jumps to the window of FROM when
 * that is further on, or behind.  nz_win is the window being decoded
 * (UINT64_MAX: none), nz_pos the offset of the entry after the pending
 * one, nz_next the pending entry's word (UINT64_MAX: none left in the
 * window), nz_code its value; every entry below nz_from was consumed.
 */
static void
nz_seek(struct pcursor *pc, uint64_t w)
{
	const struct profile *p = pc->p;
	const unsigned char *b = p->nz_buf + p->nz_ck[w];

	pc->nz_win = w;
	pc->nz_from = w * (uint64_t)WIN_WORDS;
	pc->nz_next = UINT64_MAX;
	if (b < p->nz_buf + p->nz_ck[w + 1]) {
		pc->nz_next = pc->nz_from + nz_get(&b, &pc->nz_code);
	}
	pc->nz_pos = (size_t)(b - p->nz_buf);
}

static uint64_t
nz_sum(void *ctx, uint64_t from, uint64_t to)
{
	struct pcursor *pc = ctx;
	const struct profile *p = pc->p;
	uint64_t sum = 0;

	if (from >= to)
		return 0;
	if (from / WIN_WORDS != pc->nz_win || from < pc->nz_from)
		nz_seek(pc, from / WIN_WORDS);
	for (;;) {
		const unsigned char *b = p->nz_buf + pc->nz_pos;
		const unsigned char *e = p->nz_buf + p->nz_ck[pc->nz_win + 1];
		uint64_t next = pc->nz_next, code = pc->nz_code;
		uint64_t wend = (pc->nz_win + 1) * (uint64_t)WIN_WORDS;
		uint64_t end = to < wend ? to : wend;

		while (next < end) {
			if (next >= from)
				sum += nz_value(p, code);
			if (b < e) {
				next += 1 + nz_get(&b, &code);
			} else
				next = UINT64_MAX;
		}
		pc->nz_pos = (size_t)(b - p->nz_buf);
		pc->nz_next = next;
		pc->nz_code = code;
		if (to <= wend)
			break;
		nz_seek(pc, pc->nz_win + 1);
	}
	pc->nz_from = to;
	return sum;
}

struct counters
profile_counters_cursor(struct profile *p, struct pcursor *pc)
{
	struct counters c = { p->nwords, span, p->nz_ok ? nz_sum : NULL, pc };

	if (pc->p != p) {	/* a new cursor: no window, nothing decoded */
		pc->p = p;
		pc->win_n = 0;
		pc->nz_win = UINT64_MAX;
	}
	return c;
}

struct counters
profile_counters(struct profile *p)
{
	return profile_counters_cursor(p, &p->c0);
}

int
profile_shareable(const struct profile *p)
{
	return p->nz_ok || (p->data != NULL && p->base == NULL);
}

void
pcursor_free(struct pcursor *pc)
{
	free(pc->win);
	pc->win = NULL;
}

void
profile_close(struct profile *p)
{
	input_close(&p->in);
	preader_free(&p->rd);
	free(p->data);
	pcursor_free(&p->c0);
	nz_drop(p);
	p->data = NULL;
}
