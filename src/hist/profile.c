/*
 * profile.c - reading a profile: size, byte order, step, counters.
 */
#include <stdlib.h>
#include <string.h>

#include "hist/profile.h"
#include "base/sniff.h"
#include "base/util.h"

#define WIN_WORDS NZ_WIN_WORDS	/* a window: 256 KiB read at a time */

static void
check_bounds(const struct profile *p)
{
	if (p->bytes == 0)
		fatalx("%s: input file is empty", p->name);
	if (p->bytes > PROFILE_MAX_BYTES)
		fatalx("%s: too large for a profile (more than %llu bytes)",
		    p->name, (unsigned long long)PROFILE_MAX_BYTES);
}

/* The first bytes of P, for sniff. */
#define HEAD 256

static void
check_size(struct profile *p)
{
	unsigned char head[HEAD];

	check_bounds(p);
	if (p->bytes % 4)
		sniff_profile_size(p->name, p->bytes, head,
		    profile_peek(p, head, sizeof head));
	if (p->bytes < 4)
		fatalx("%s: truncated profile: %llu bytes is not a whole number "
		    "of 32-bit words", p->name, (unsigned long long)p->bytes);
}

/* A non-seekable input is read whole, bounded by PROFILE_MAX_BYTES. */
static void
slurp(struct profile *p)
{
	struct preader *rd = &p->rd;
	size_t cap = 1 << 16, len = 0, got;

	rd->data = xmalloc(cap);
	while ((got = input_read(&rd->in, rd->data + len, cap - len)) > 0) {
		len += got;
		if (len > PROFILE_MAX_BYTES) {
			p->bytes = len;
			check_bounds(p);
		}
		if (len == cap) {	/* one byte past the limit is enough */
			cap = cap * 2 > PROFILE_MAX_BYTES + 1 ?
			    (size_t)PROFILE_MAX_BYTES + 1 : cap * 2;
			rd->data = xrealloc(rd->data, cap);
		}
	}
	p->bytes = len;
}

void
profile_load(struct profile *p, const char *name)
{
	memset(p, 0, sizeof *p);
	p->name = name;
	p->index_budget = NZ_MAX_BYTES;
	if (input_open(&p->rd.in, name) < 0)
		fatal("%s", name);
	if (p->rd.in.seekable)
		p->bytes = p->rd.in.size;
	else
		slurp(p);
	check_bounds(p);
}

/*
 * Whole words only: like util-linux, a trailing partial word (a snapshot
 * cut short) is left out; profile_warn_trailing says so.
 */
void
profile_check(struct profile *p)
{
	check_size(p);
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
	if (n > p->bytes)
		n = (size_t)p->bytes;
	if (p->rd.data)
		memcpy(buf, p->rd.data, n);
	else
		input_pread(&p->rd.in, buf, n, 0);
	return n;
}

const unsigned char *
profile_bytes(struct profile *p)
{
	if (p->rd.data == NULL) {
		p->rd.data = xmalloc(p->bytes ? (size_t)p->bytes : 1);
		input_pread(&p->rd.in, p->rd.data, (size_t)p->bytes, 0);
		input_check_size(&p->rd.in);
	}
	return p->rd.data;
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
	unsigned char head[HEAD];

	if (p->step == 0 || (p->step & (p->step - 1)) == 0)
		return;
	sniff_profile_step(p->name, p->step, head,
	    profile_peek(p, head, sizeof head));
}

/* The words in window W. */
static size_t
window_words(const struct profile *p, uint64_t w)
{
	uint64_t first = w * WIN_WORDS;

	return p->nwords - first < WIN_WORDS ? (size_t)(p->nwords - first) :
	    WIN_WORDS;
}

static uint64_t
windows(const struct profile *p)
{
	return (p->nwords + WIN_WORDS - 1) / WIN_WORDS;
}

/*
 * The raw words of window W, as stored, *N of them: memory-held data (a
 * pipe, stdin, a decompressor, read whole by slurp, as such an input can
 * be read only once) is served in place; a file is read with pread into
 * the reader's buffer, at offsets aligned on the window size (a read at
 * an offset that is not a multiple of the page size costs the kernel's
 * copy about three times as much, measured).
 */
static const uint32_t *
raw_window(struct profile *p, uint64_t w, size_t *n)
{
	struct preader *rd = &p->rd;
	uint64_t off = w * WIN_WORDS * 4;

	*n = window_words(p, w);
	if (rd->data)
		return (const uint32_t *)(void *)(rd->data + off);
	if (rd->buf == NULL)
		rd->buf = xmalloc(WIN_WORDS * 4);
	input_pread(&rd->in, rd->buf, *n * 4, off);
	return rd->buf;
}

/*
 * Window W of P's raw words without the step word: *FIRST the word the
 * returned span starts at, *N its length.
 */
static const uint32_t *
counter_window(struct profile *p, uint64_t w, uint64_t *first, size_t *n)
{
	const uint32_t *raw = raw_window(p, w, n);

	*first = w * WIN_WORDS;
	if (w == 0) {	/* the step word */
		raw++;
		--*n;
		++*first;
	}
	return raw;
}

void
profile_count_halves(const uint32_t *w, size_t n, uint64_t *big,
    uint64_t *small)
{
	nz_scan(NULL, w, n, 0, big, small);
}

int
profile_guess_swapped(uint64_t big, uint64_t small)
{
	return big > small;
}

/*
 * The byte-order pass: count the halves in use (BIG, SMALL) and, with
 * INDEX, keep the non-zero counters in P's index (the only pass then).
 */
static void
first_pass(struct profile *p, int index, uint64_t *big, uint64_t *small)
{
	uint64_t nw = windows(p);
	struct nzindex *x = index && nz_begin(&p->nz, nw, p->index_budget) ?
	    &p->nz : NULL;

	for (uint64_t w = 0; w < nw; w++) {
		uint64_t first;
		size_t n;
		const uint32_t *raw = counter_window(p, w, &first, &n);

		if (x != NULL)
			nz_window(x, w);
		nz_scan(x, raw, n, first, big, small);
	}
	if (x != NULL)
		nz_end(x, nw);
	input_check_size(&p->rd.in);
	if (p->nz.ok) {	/* the report reads the index, never the file */
		free(p->rd.buf);
		p->rd.buf = NULL;
	}
}

/* With BASE: check that no counter of P went down (words 1..n-1). */
static void
check_base(struct profile *p, struct profile *base)
{
	for (uint64_t w = 0; w < windows(p); w++) {
		uint64_t k;
		size_t n;
		const uint32_t *a = counter_window(p, w, &k, &n);
		const uint32_t *b = counter_window(base, w, &k, &n);

		for (size_t i = 0; i < n; i++) {
			uint32_t x = p->swap ? __builtin_bswap32(a[i]) : a[i];
			uint32_t y = p->swap ? __builtin_bswap32(b[i]) : b[i];

			if (x < y)
				fatalx("%s: counter %llu is lower than in %s "
				    "(were the counters reset?)", p->name,
				    (unsigned long long)(k + i - 1),
				    base->name);
		}
	}
}

static uint32_t
step_word(struct profile *p)
{
	uint32_t s;

	if (p->rd.data)
		memcpy(&s, p->rd.data, 4);
	else
		input_pread(&p->rd.in, &s, 4, 0);
	return p->swap ? __builtin_bswap32(s) : s;
}

/* Memory-held data is swapped in place once, then served directly. */
static void
swap_data(struct profile *p)
{
	uint32_t *w = (uint32_t *)(void *)p->rd.data;

	if (!p->swap || !w)
		return;
	for (uint64_t k = 0; k < p->nwords; k++)
		w[k] = __builtin_bswap32(w[k]);
}

/* Check BASE against P, same step and size, and no counter lower. */
static void
setup_base(struct profile *p, struct profile *base)
{
	base->swap = p->swap;
	base->step = step_word(base);
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
		first_pass(p, p->rd.data == NULL && base == NULL &&
		    p->index_budget > 0, &big, &small);
		p->swap = profile_guess_swapped(big, small);
	}
	p->step = step_word(p);
	if (base)
		setup_base(p, base);
	swap_data(p);
	return p->swap;
}

/* Subtract the baseline's words [from, from + n) from WIN. */
static void
subtract_base(struct profile *p, uint32_t *win, uint64_t from, size_t n)
{
	struct counters bc = profile_counters(p->base);

	for (size_t i = 0; i < n;) {
		size_t bn;
		const uint32_t *b = bc.span(bc.ctx, from + i, from + n, &bn);

		for (size_t j = 0; j < bn; j++)
			if (from + i + j > 0)
				win[i + j] -= b[j];
		i += bn;
	}
}

/*
 * Window W of the profile into P's window: decoded from the index, or
 * read from the file (or memory-held data with a baseline), served in
 * place when it needs no change, else byte-swapped and with the baseline
 * subtracted.
 */
static void
load_window(struct profile *p, uint64_t w)
{
	struct pwindow *pw = &p->win;
	size_t n;
	const uint32_t *raw;

	if (pw->buf == NULL)
		pw->buf = xmalloc(WIN_WORDS * 4);
	pw->first = w * WIN_WORDS;
	pw->cur = pw->buf;
	if (p->nz.ok) {
		pw->n = window_words(p, w);
		nz_decode(&p->nz, w, p->swap, pw->buf, pw->n);
		if (w == 0)
			pw->buf[0] = p->step;
		return;
	}
	raw = raw_window(p, w, &n);
	pw->n = n;
	if (!p->swap && !p->base) {
		pw->cur = raw;
		return;
	}
	if (p->swap && !p->rd.data)
		for (size_t i = 0; i < n; i++)
			pw->buf[i] = __builtin_bswap32(raw[i]);
	else
		memcpy(pw->buf, raw, n * 4);
	if (p->base)
		subtract_base(p, pw->buf, pw->first, n);
}

/*
 * Words [from, to): *got of them from FROM on, in host order, from the
 * window holding FROM.
 */
static const uint32_t *
span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	struct profile *p = ctx;
	struct pwindow *pw = &p->win;
	size_t n;

	if (p->rd.data && !p->base) {
		*got = (size_t)(to - from);
		return (const uint32_t *)(void *)p->rd.data + from;
	}
	if (pw->n == 0 || from < pw->first || from >= pw->first + pw->n)
		load_window(p, from / WIN_WORDS);
	n = (size_t)(pw->first + pw->n - from);
	*got = to - from < n ? (size_t)(to - from) : n;
	return pw->cur + (from - pw->first);
}

static uint64_t
index_sum(void *ctx, uint64_t from, uint64_t to)
{
	struct profile *p = ctx;

	return nz_sum(&p->nz, p->swap, from, to);
}

static uint64_t
index_next(void *ctx, uint64_t from)
{
	struct profile *p = ctx;

	return nz_next(&p->nz, from, p->nwords);
}

struct counters
profile_counters(struct profile *p)
{
	struct counters c = { p->nwords, span, p->nz.ok ? index_sum : NULL,
	    p, p->nz.ok ? index_next : NULL };

	return c;
}

void
profile_close(struct profile *p)
{
	input_check_size(&p->rd.in);
	input_close(&p->rd.in);
	free(p->rd.data);
	free(p->rd.buf);
	free(p->win.buf);
	nz_free(&p->nz);
	p->rd.data = NULL;
	p->rd.buf = NULL;
	p->win.buf = NULL;
	p->win.n = 0;
}
