/* profile.c - reading a profile: size, byte order, step, counters. */
#include <stdlib.h>
#include <string.h>

#include "hist/profile.h"
#include "base/sniff.h"
#include "base/util.h"

static void
check_bounds(const struct profile *p)
{
	if (p->bytes == 0)
		fatalx("%s: input file is empty", p->name);
	if (p->bytes > INPUT_MAX_BYTES)
		fatalx("%s: too large for a profile (more than %llu bytes)",
		    p->name, (unsigned long long)INPUT_MAX_BYTES);
}

#define CHUNK ((size_t)1 << 18)	/* a profile, a baseline read at a time */

static uint32_t *
words(const struct profile *p)
{
	return (uint32_t *)(void *)p->data;
}

static size_t
head_len(const struct profile *p)
{
	return p->bytes < PROFILE_HEAD ? (size_t)p->bytes : PROFILE_HEAD;
}

static uint64_t
tally(struct profile *p, uint64_t k, size_t n)
{
	const uint32_t *w = words(p) + k;
	uint64_t sum = 0;
	uint32_t tb = 0, ts = 0;

	for (size_t i = 0; i < n; i++) {
		tb += w[i] > 0xffffu;
		ts += (w[i] & 0xffffu) != 0;
		sum += w[i];
	}
	p->big += tb;
	p->small += ts;
	return sum;
}

/* Words [from, to) of P, FROM at a block's start, while in the cache: the
 * block sums, and how many use their upper and their lower 16 bits (the
 * byte-order heuristic).  A whole block is a loop of constant length that
 * -O2 vectorises (bench/README.md, "Code kept for speed"). */
static void
scan(struct profile *p, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k < to; k += COUNTERS_BLOCK)
		p->blk[k / COUNTERS_BLOCK] = to - k < COUNTERS_BLOCK ?
		    tally(p, k, (size_t)(to - k)) : tally(p, k, COUNTERS_BLOCK);
}

/*
 * A regular file (or /proc/profile) is read at its size when opened, a
 * piece at a time, a non-seekable input to its end, bounded by
 * INPUT_MAX_BYTES; each piece is scanned as it comes.
 */
void
profile_load(struct profile *p, const char *name)
{
	size_t len = 0, got = 0;

	*p = (struct profile){ .name = name };
	if (input_open(&p->in, name) < 0)
		fatal("%s", name);
	if (p->in.seekable) {
		p->bytes = p->in.size;
		check_bounds(p);
		p->data = xmalloc((size_t)p->bytes);
		p->blk = xmalloc(((size_t)p->bytes / 4 / COUNTERS_BLOCK + 1) * 8);
		for (; len < p->bytes && (got = input_fill(&p->in, p->data + len,
		    p->bytes - len < CHUNK ? p->bytes - len : CHUNK)) > 0;
		    len += got)
			scan(p, len / 4, (len + got) / 4);
	} else {	/* one byte past the limit is enough */
		p->data = input_slurp(&p->in, NULL, 0, INPUT_MAX_BYTES, &len);
		p->blk = xmalloc((len / 4 / COUNTERS_BLOCK + 1) * 8);
		scan(p, 0, len / 4);
	}
	p->bytes = len;
	input_check_size(&p->in);
	check_bounds(p);
	memcpy(p->head, p->data, head_len(p));
}

void
profile_check(struct profile *p)
{
	check_bounds(p);
	if (p->bytes % 4)
		sniff_profile_size(p->name, p->bytes, p->head, head_len(p));
	if (p->bytes < 4)
		fatalx("%s: truncated profile: %llu bytes is not a whole number "
		    "of 32-bit words", p->name, (unsigned long long)p->bytes);
	p->trailing = (unsigned)(p->bytes % 4);
	p->bytes -= p->trailing;
	p->nwords = p->bytes / 4;
}

void
profile_open(struct profile *p, const char *name)
{
	profile_load(p, name);
	profile_check(p);
}

void
profile_warn_trailing(const struct profile *p)
{
	if (p->trailing)
		warnx_("%s: ignoring %u trailing byte%s (not a whole 32-bit word)",
		    p->name, p->trailing, p->trailing == 1 ? "" : "s");
}

void
profile_warn_step(struct profile *p)
{
	if (p->step != 0 && (p->step & (p->step - 1)) != 0)
		sniff_profile_step(p->name, p->step, p->head, head_len(p));
}

/*
 * The byte-order heuristic, on the counters only (not the step word):
 * reversed when more of them use their upper 16 bits than their lower.
 */
int
profile_setup(struct profile *p, int noauto)
{
	uint32_t *w = words(p);

	if (!noauto)	/* the step word left out of the scan's count */
		p->swap = p->big - (w[0] > 0xffffu) >
		    p->small - ((w[0] & 0xffffu) != 0);
	if (p->swap) {
		for (uint64_t k = 0; k < p->nwords; k++)
			w[k] = __builtin_bswap32(w[k]);
		scan(p, 0, p->nwords);
	}
	p->step = w[0];
	return p->swap;
}

/* Subtract the N words in BASE's buffer, the baseline's [k, k + n) as
 * read, from P's; those past P's last are left for the size check.
 * Returns 0, or the word (from 1) of the first counter above P's, where
 * it stops. */
static uint64_t
subtract_words(struct profile *p, const struct profile *base, uint64_t k,
    size_t n)
{
	uint32_t *a = words(p), *w = words(base);

	for (size_t i = 0; i < n && k < p->nwords; i++, k++) {
		uint32_t b = p->swap ? __builtin_bswap32(w[i]) : w[i];

		if (k == 0)	/* the step: checked with the size */
			continue;
		if (a[k] < b)
			return k;
		a[k] -= b;
		p->blk[k / COUNTERS_BLOCK] -= b;
	}
	return 0;
}

/* BYTES long: checked as profile_open checks, then against P. */
static void
size_base(const struct profile *p, struct profile *base, uint64_t bytes)
{
	uint32_t step;

	base->bytes = bytes;
	profile_check(base);
	memcpy(&step, base->head, sizeof step);	/* profile_check: 4 bytes at least */
	if (p->swap)
		step = __builtin_bswap32(step);
	if (step != p->step)
		fatalx("%s: sampling step %u differs from %s's %u", base->name,
		    step, p->name, p->step);
	if (base->nwords != p->nwords)
		fatalx("%s: %llu counters, but %s has %llu", base->name,
		    (unsigned long long)(base->nwords - 1), p->name,
		    (unsigned long long)(p->nwords - 1));
}

/* A regular file, or a pipe that ends in the first piece, is sized and its
 * step checked before any counter is compared; a longer pipe at its end,
 * before a counter above P's is reported (another kernel's snapshot is
 * one of another size, not one whose counters were reset). */
void
profile_subtract(struct profile *p, struct profile *base, const char *name)
{
	uint64_t k = 0, above = 0;
	size_t have = 0, got, n;

	*base = (struct profile){ .name = name };
	if (input_open(&base->in, name) < 0)
		fatal("%s", name);
	base->data = xmalloc(CHUNK);
	do {
		got = have + input_fill(&base->in, base->data + have,
		    CHUNK - have);
		if (k == 0) {
			memcpy(base->head, base->data, got < PROFILE_HEAD ? got :
			    PROFILE_HEAD);
			if (base->in.seekable || got < CHUNK)
				size_base(p, base, base->in.seekable ?
				    base->in.size : got);
		}
		if (base->in.off > INPUT_MAX_BYTES) {
			base->bytes = base->in.off;
			check_bounds(base);
		}
		n = got / 4;
		if (above == 0)
			above = subtract_words(p, base, k, n);
		k += n;
		have = got - n * 4;
		memmove(base->data, base->data + n * 4, have);
	} while (got == CHUNK);
	if (!base->in.seekable && base->in.off >= CHUNK)	/* a longer pipe */
		size_base(p, base, base->in.off);
	if (above != 0)
		fatalx("%s: counter %llu is lower than in %s (were the counters "
		    "reset?)", p->name, (unsigned long long)(above - 1),
		    base->name);
}

struct counters
profile_counters(const struct profile *p)
{
	return counters_array(words(p), p->nwords, p->blk);
}

uint32_t *
profile_take(struct profile *p)
{
	uint32_t *w = words(p);

	p->data = NULL;
	return w;
}

void
profile_close(struct profile *p)
{
	input_close(&p->in);
	free(p->data);
	free(p->blk);
	p->data = NULL;
	p->blk = NULL;
}

const struct counted *
profile_counted(int mode)
{
	static const struct counted what[] = {
		{ "CPU ticks", "ticks", "samples", "count", 1 },
		{ "schedule() calls", "calls", "schedule", "calls", 0 },
		{ "milliseconds of uninterruptible sleep", "ms", "sleep",
		    "milliseconds", 0 },
		{ "KVM exits", "exits", "kvm", "exits", 0 } };

	return mode > 0 && mode <= 4 ? &what[mode - 1] : NULL;
}
