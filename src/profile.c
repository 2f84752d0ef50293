/*
 * profile.c - reading a profile: size, byte order, step, counters.
 */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "sniff.h"
#include "util.h"

#define WIN_WORDS ((size_t)1 << 16)
#define MAP_CHUNK ((size_t)1 << 20)

static void
check_size(const struct profile *p)
{
	if (p->bytes == 0)
		fatalx("%s: input file is empty", p->name);
	if (p->bytes > PROFILE_MAX_BYTES)
		fatalx("%s: too large for a profile (more than %llu bytes)",
		    p->name, (unsigned long long)PROFILE_MAX_BYTES);
	if (p->bytes % 4)
		sniff_profile_size(p);
	if (p->bytes % 4)
		fatalx("%s: truncated profile: %llu bytes is not a whole number "
		    "of 32-bit words", p->name, (unsigned long long)p->bytes);
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
			check_size(p);
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
profile_open(struct profile *p, const char *name)
{
	memset(p, 0, sizeof *p);
	p->name = name;
	if (input_open(&p->in, name) < 0)
		fatal("%s", name);
	if (p->in.seekable)
		p->bytes = p->in.size;
	else
		slurp(p);
	check_size(p);
	p->nwords = p->bytes / 4;
}

static uint32_t
bswap32(uint32_t x)
{
	return __builtin_bswap32(x);
}

/* The file shrank under a mapping: report it rather than die of it. */
static void
on_sigbus(int sig)
{
	static const char msg[] = PROGNAME ": profile file shrank while "
	    "being read\n";
	ssize_t r = write(2, msg, sizeof msg - 1);

	(void)r;
	(void)sig;
	_exit(1);
}

/* Map the chunk of the file holding byte OFF; 0 on success. */
static int
map_chunk(struct profile *p, uint64_t off)
{
	uint64_t start = off & ~(uint64_t)(MAP_CHUNK - 1);
	size_t len = p->bytes - start < MAP_CHUNK ? (size_t)(p->bytes - start)
	    : MAP_CHUNK;
	void *m;

	if (p->map_base != NULL)
		munmap(p->map_base, p->map_len);
	p->map_base = NULL;
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, p->in.fd,
	    (off_t)start);
	if (m == MAP_FAILED)
		return -1;
	if (!p->sigbus_set) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_sigbus;
		sigaction(SIGBUS, &sa, NULL);
		p->sigbus_set = 1;
	}
	p->map_base = m;
	p->map_len = len;
	p->map_off = start;
	return 0;
}

/*
 * Raw words from FROM on, as stored: a pointer into memory-held data, into
 * a mapped chunk of the file, or (where mapping fails, as on /proc) into
 * a buffer read with pread.  *N is the count wanted, cut to what is there.
 */
static const uint32_t *
raw_span(struct profile *p, uint64_t from, size_t *n)
{
	uint64_t off = from * 4;
	size_t avail, done = 0, want;

	if (p->data)
		return (const uint32_t *)(void *)(p->data + off);
	if (!p->no_mmap) {
		if ((p->map_base == NULL || off < p->map_off ||
		    off >= p->map_off + p->map_len) && map_chunk(p, off) < 0)
			p->no_mmap = 1;
		if (!p->no_mmap) {
			avail = (size_t)(p->map_off + p->map_len - off) / 4;
			if (*n > avail)
				*n = avail;
			return (const uint32_t *)(void *)
			    ((char *)p->map_base + (off - p->map_off));
		}
	}
	if (p->rawbuf == NULL)
		p->rawbuf = xmalloc(WIN_WORDS * 4);
	if (*n > WIN_WORDS)
		*n = WIN_WORDS;
	want = *n * 4;
	while (done < want) {
		ssize_t r = pread(p->in.fd, (char *)p->rawbuf + done,
		    want - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("%s", p->name);
		if (r == 0)
			fatalx("%s: file shrank while being read", p->name);
		done += (size_t)r;
	}
	return p->rawbuf;
}

/* Keep word K (raw value V) in the list of non-zero counters. */
static void
note_nonzero(struct profile *p, uint64_t k, uint32_t v)
{
	if (p->nz_n == p->nz_cap) {
		if (p->nz_cap == PROFILE_SPARSE_MAX) {	/* too many: 2nd pass */
			p->nz_ok = 0;
			free(p->nz_idx);
			free(p->nz_val);
			p->nz_idx = p->nz_val = NULL;
			p->nz_n = p->nz_cap = 0;
			return;
		}
		p->nz_cap = p->nz_cap ? p->nz_cap * 2 : 1024;
		p->nz_idx = xrealloc(p->nz_idx, p->nz_cap * sizeof *p->nz_idx);
		p->nz_val = xrealloc(p->nz_val, p->nz_cap * sizeof *p->nz_val);
	}
	p->nz_idx[p->nz_n] = (uint32_t)k;
	p->nz_val[p->nz_n++] = v;
}

/* Whether the 16 words at W are all zero (one OR over 64-bit loads). */
static int
zero16(const uint32_t *w)
{
	uint64_t a, b, c, d, e, f, g, h;

	memcpy(&a, w, 8);
	memcpy(&b, w + 2, 8);
	memcpy(&c, w + 4, 8);
	memcpy(&d, w + 6, 8);
	memcpy(&e, w + 8, 8);
	memcpy(&f, w + 10, 8);
	memcpy(&g, w + 12, 8);
	memcpy(&h, w + 14, 8);
	return ((a | b) | (c | d) | (e | f) | (g | h)) == 0;
}

/*
 * Count the halves in use in W[0..n), words FIRST.. of the profile, and
 * with P note the non-zero ones.  Most counters are zero: they are
 * skipped sixteen at a time.
 */
static void
scan_words(struct profile *p, const uint32_t *w, size_t n, uint64_t first,
    uint64_t *big, uint64_t *small)
{
	uint64_t b = 0, s = 0;
	size_t i = 0, j, end;

	while (i < n) {
		end = n - i >= 16 ? i + 16 : n;
		if (end == i + 16 && zero16(w + i)) {
			i = end;
			continue;
		}
		for (j = i; j < end; j++) {
			if (w[j] == 0)
				continue;
			b += w[j] > 0xffffu;
			s += (w[j] & 0xffffu) != 0;
			if (p && p->nz_ok)
				note_nonzero(p, first + j, w[j]);
		}
		i = end;
	}
	*big += b;
	*small += s;
}

void
profile_count_halves(const uint32_t *w, size_t n, uint64_t *big,
    uint64_t *small)
{
	scan_words(NULL, w, n, 0, big, small);
}

int
profile_guess_swapped(uint64_t big, uint64_t small)
{
	return big > small;
}

/*
 * One pass over words 1..n-1 in stored order: count the halves in use
 * (BIG, SMALL), and with BASE check that no counter went down.
 */
static void
pass(struct profile *p, struct profile *base, uint64_t *big, uint64_t *small)
{
	for (uint64_t k = 1; k < p->nwords;) {
		size_t n = p->nwords - k < WIN_WORDS ? p->nwords - k : WIN_WORDS;
		const uint32_t *w = raw_span(p, k, &n), *b;

		if (big)
			scan_words(p, w, n, k, big, small);
		if (base) {
			b = raw_span(base, k, &n);	/* may cut N: W stays valid */
			for (size_t i = 0; i < n; i++) {
				uint32_t x = p->swap ? bswap32(w[i]) : w[i];
				uint32_t y = p->swap ? bswap32(b[i]) : b[i];
				if (x < y)
					fatalx("%s: counter %llu is lower than in %s "
					    "(were the counters reset?)", p->name,
					    (unsigned long long)(k + i - 1),
					    base->name);
			}
		}
		k += n;
	}
}

static uint32_t
raw_word0(struct profile *p)
{
	size_t n = 1;

	return *raw_span(p, 0, &n);
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
		/* a file read in chunks: keep its few non-zero counters */
		p->nz_ok = p->data == NULL && base == NULL &&
		    p->nwords <= UINT32_MAX;
		pass(p, NULL, &big, &small);
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
		pass(p, base, NULL, NULL);
		swap_data(base);
		p->base = base;
	}
	swap_data(p);
	return p->swap;
}

static const uint32_t *
span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct profile *p = ctx;
	size_t n = to - from < WIN_WORDS ? (size_t)(to - from) : WIN_WORDS;
	const uint32_t *w;

	if (p->data && !p->base) {
		*got = (size_t)(to - from);
		return (const uint32_t *)(void *)p->data + from;
	}
	if (!p->swap && !p->base) {
		w = raw_span(p, from, &n);
		*got = n;
		return w;
	}
	if (from < p->win_first || from >= p->win_first + p->win_n) {
		if (p->win == NULL)
			p->win = xmalloc(WIN_WORDS * 4);
		n = p->nwords - from < WIN_WORDS ? p->nwords - from : WIN_WORDS;
		w = raw_span(p, from, &n);
		if (p->swap && !p->data)
			for (size_t i = 0; i < n; i++)
				p->win[i] = bswap32(w[i]);
		else
			memcpy(p->win, w, n * 4);
		if (p->base) {
			struct counters bc = profile_counters(p->base);
			for (size_t i = 0; i < n;) {
				size_t bn;
				const uint32_t *b = bc.span(bc.ctx, from + i,
				    from + n, &bn);
				for (size_t j = 0; j < bn; j++)
					if (from + i + j > 0)
						p->win[i + j] -= b[j];
				i += bn;
			}
		}
		p->win_first = from;
		p->win_n = n;
	}
	n = (size_t)(p->win_first + p->win_n - from);
	*got = to - from < n ? (size_t)(to - from) : n;
	return p->win + (from - p->win_first);
}

/* Sum of [from, to) from the list of non-zero counters. */
static uint64_t
sparse_sum(void *ctx, uint64_t from, uint64_t to)
{
	struct profile *p = ctx;
	size_t i = p->nz_cur, lo = 0, hi = p->nz_n;
	uint64_t sum = 0;

	/* reports move forward: resume from the last position if we can */
	if (i > 0 && p->nz_idx[i - 1] >= from)
		i = 0;
	if (i == 0) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->nz_idx[mid] < from)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	while (i < p->nz_n && p->nz_idx[i] < from)
		i++;
	for (; i < p->nz_n && p->nz_idx[i] < to; i++)
		sum += p->swap ? bswap32(p->nz_val[i]) : p->nz_val[i];
	p->nz_cur = i;
	return sum;
}

struct counters
profile_counters(struct profile *p)
{
	struct counters c = { p->nwords, span, p->nz_ok ? sparse_sum : NULL,
	    p };

	return c;
}

void
profile_close(struct profile *p)
{
	input_close(&p->in);
	if (p->map_base != NULL)
		munmap(p->map_base, p->map_len);
	free(p->data);
	free(p->win);
	free(p->rawbuf);
	free(p->nz_idx);
	free(p->nz_val);
	p->nz_idx = p->nz_val = NULL;
	p->map_base = NULL;
	p->data = NULL;
	p->win = NULL;
	p->rawbuf = NULL;
}
