/*
 * profile.c - reading a profile: size, byte order, step, counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "util.h"

#define WIN_WORDS ((size_t)1 << 16)

static void
check_size(const struct profile *p)
{
	if (p->bytes == 0)
		fatalx("%s: input file is empty", p->name);
	if (p->bytes > PROFILE_MAX_BYTES)
		fatalx("%s: too large for a profile (more than %llu bytes)",
		    p->name, (unsigned long long)PROFILE_MAX_BYTES);
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
		if (len == cap) {
			cap *= 2;
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

/* Raw words [from, from + n) of a seekable profile into BUF. */
static void
read_raw(struct profile *p, uint64_t from, size_t n, uint32_t *buf)
{
	size_t want = n * 4, done = 0;

	if (p->data) {
		memcpy(buf, p->data + from * 4, want);
		return;
	}
	while (done < want) {
		ssize_t r = pread(p->in.fd, (char *)buf + done, want - done,
		    (off_t)(from * 4 + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("%s", p->name);
		if (r == 0)
			fatalx("%s: file shrank while being read", p->name);
		done += (size_t)r;
	}
}

void
profile_count_halves(const uint32_t *w, size_t n, uint64_t *big,
    uint64_t *small)
{
	uint64_t b = 0, s = 0;

	for (size_t i = 0; i < n; i++) {
		b += (w[i] & 0xffff0000u) != 0;
		s += (w[i] & 0x0000ffffu) != 0;
	}
	*big += b;
	*small += s;
}

int
profile_guess_swapped(uint64_t big, uint64_t small)
{
	return big > small;
}

/* One pass over words 1..n-1 of P in raw order, CHUNK words at a time. */
static void
pass(struct profile *p, struct profile *base, uint64_t *big, uint64_t *small)
{
	uint32_t *w = xmalloc(WIN_WORDS * 4), *b = NULL;

	if (base)
		b = xmalloc(WIN_WORDS * 4);
	for (uint64_t k = 1; k < p->nwords;) {
		size_t n = p->nwords - k < WIN_WORDS ? p->nwords - k : WIN_WORDS;

		read_raw(p, k, n, w);
		if (big)
			profile_count_halves(w, n, big, small);
		if (base) {
			read_raw(base, k, n, b);
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
	free(w);
	free(b);
}

static uint32_t
raw_word0(struct profile *p)
{
	uint32_t w;

	read_raw(p, 0, 1, &w);
	return w;
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
	size_t n;

	if (p->data && !p->base) {
		*got = (size_t)(to - from);
		return (const uint32_t *)(void *)p->data + from;
	}
	if (from < p->win_first || from >= p->win_first + p->win_n) {
		if (p->win == NULL)
			p->win = xmalloc(WIN_WORDS * 4);
		n = p->nwords - from < WIN_WORDS ? p->nwords - from : WIN_WORDS;
		if (p->data)
			memcpy(p->win, p->data + from * 4, n * 4);
		else
			read_raw(p, from, n, p->win);
		if (p->swap && !p->data)
			for (size_t i = 0; i < n; i++)
				p->win[i] = bswap32(p->win[i]);
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

struct counters
profile_counters(struct profile *p)
{
	struct counters c = { p->nwords, span, p };

	return c;
}

void
profile_close(struct profile *p)
{
	input_close(&p->in);
	free(p->data);
	free(p->win);
	p->data = NULL;
	p->win = NULL;
}
