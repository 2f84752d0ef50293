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

#define CHUNK ((size_t)1 << 20)	/* the baseline read at a time */

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

/*
 * A regular file (or /proc/profile) is read at its size when opened, a
 * non-seekable input to its end, bounded by INPUT_MAX_BYTES.
 */
void
profile_load(struct profile *p, const char *name)
{
	size_t len;

	*p = (struct profile){ .name = name };
	if (input_open(&p->in, name) < 0)
		fatal("%s", name);
	if (p->in.seekable) {
		p->bytes = p->in.size;
		check_bounds(p);
		p->data = xmalloc((size_t)p->bytes);
		len = input_fill(&p->in, p->data, (size_t)p->bytes);
	} else {	/* one byte past the limit is enough */
		p->data = input_slurp(&p->in, NULL, 0, INPUT_MAX_BYTES, &len);
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

size_t
profile_peek(struct profile *p, unsigned char *buf, size_t n)
{
	if (n > head_len(p))
		n = head_len(p);
	memcpy(buf, p->head, n);
	return n;
}

const unsigned char *
profile_bytes(struct profile *p)
{
	return p->data;
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
 * Counted 64 words at a time, a loop of constant length that -O2
 * vectorises (bench/README.md, "Code kept for speed").
 */
int
profile_setup(struct profile *p, int noauto)
{
	uint32_t *w = words(p);
	uint64_t big = 0, small = 0;

	if (!noauto) {
		uint64_t k = 1;

		for (; k + 64 <= p->nwords; k += 64) {
			uint32_t tb = 0, ts = 0;

			for (int j = 0; j < 64; j++) {
				tb += w[k + j] > 0xffffu;
				ts += (w[k + j] & 0xffffu) != 0;
			}
			big += tb;
			small += ts;
		}
		for (; k < p->nwords; k++) {
			big += w[k] > 0xffffu;
			small += (w[k] & 0xffffu) != 0;
		}
		p->swap = big > small;
	}
	if (p->swap)
		for (uint64_t k = 0; k < p->nwords; k++)
			w[k] = __builtin_bswap32(w[k]);
	p->step = w[0];
	return p->swap;
}

/* Subtract the N words in BASE's buffer, the baseline's [k, k + n) as
 * read, from P's; those past P's last are left for the size check. */
static void
subtract_words(struct profile *p, const struct profile *base, uint64_t k,
    size_t n)
{
	uint32_t *a = words(p), *w = words(base);

	for (size_t i = 0; i < n && k < p->nwords; i++, k++) {
		uint32_t b = p->swap ? __builtin_bswap32(w[i]) : w[i];

		if (k == 0)	/* the step: checked with the size */
			continue;
		if (a[k] < b)
			fatalx("%s: counter %llu is lower than in %s "
			    "(were the counters reset?)", p->name,
			    (unsigned long long)(k - 1), base->name);
		a[k] -= b;
	}
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
 * step checked before any counter is compared; a longer pipe at its end. */
void
profile_subtract(struct profile *p, struct profile *base, const char *name)
{
	uint64_t k = 0;
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
		subtract_words(p, base, k, n);
		k += n;
		have = got - n * 4;
		memmove(base->data, base->data + n * 4, have);
	} while (got == CHUNK);
	if (!base->in.seekable && base->in.off >= CHUNK)	/* a longer pipe */
		size_base(p, base, base->in.off);
}

struct counters
profile_counters(const struct profile *p)
{
	return counters_array(words(p), p->nwords);
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
	input_check_size(&p->in);
	input_close(&p->in);
	free(p->data);
	p->data = NULL;
}
