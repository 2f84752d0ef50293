/*
 * pprof_check.h - an independent reader of what --pprof writes, for the
 * unit test and the fuzz harness: the gzip member of stored blocks (its
 * CRC-32 and size), the Profile message's fields, and its strings.
 *
 * pprof_check(G, LEN, &STATS) returns NULL when the member is well formed,
 * every field of the Profile and of its messages parses, string 0 is "",
 * every string is valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF) and every string index in a
 * Function, ValueType, Mapping or comment names a string, the Functions
 * and Locations are numbered 1, 2, ... in the order written, every
 * Location names a Function and every Sample one or two (callee, caller)
 * Locations, and has as many values as there are sample types; else what
 * is wrong.  STATS counts what was read, and adds up the values by type
 * (the first three), and the calls (the last value) of the samples of
 * two Locations apart.
 */
#ifndef PPROF_CHECK_H
#define PPROF_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pprof_stats {
	uint64_t strings, functions, locations, samples, comments;
	uint64_t max_index;	/* the largest string index used */
	int64_t value_sum[3];	/* the samples' values, by type */
	uint64_t types;		/* sample types */
	uint64_t arcs;		/* samples of two Locations */
	int64_t arc_calls;	/* their last values */
	uint64_t max_loc, max_fid;	/* the largest ids named */
	const char *why;	/* a message's own fault, or NULL */
};

/* CRC-32 of gzip, bit by bit: slow and obviously right. */
static uint32_t
pc_crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static int
pc_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t len;

		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xe0) == 0xc0)
			len = 2, cp = s[i] & 0x1f;
		else if ((s[i] & 0xf0) == 0xe0)
			len = 3, cp = s[i] & 0x0f;
		else if ((s[i] & 0xf8) == 0xf0)
			len = 4, cp = s[i] & 0x07;
		else
			return 0;
		if (n - i < len)
			return 0;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

/* The stored blocks of gzip member G: the data (malloc'd), or NULL. */
static unsigned char *
pc_inflate(const unsigned char *g, size_t len, size_t *n)
{
	unsigned char *out = malloc(len + 1);
	size_t at = 10;
	int last = 0;

	*n = 0;
	if (out == NULL || len < 18 || g[0] != 0x1f || g[1] != 0x8b ||
	    g[2] != 8 || g[3] != 0)
		goto bad;
	while (!last) {
		size_t m;

		if (len - at < 5 || (g[at] & ~1) != 0)
			goto bad;
		last = g[at] & 1;
		m = (size_t)g[at + 1] | (size_t)g[at + 2] << 8;
		if ((m ^ 0xffff) != ((size_t)g[at + 3] | (size_t)g[at + 4] << 8) ||
		    len - at - 5 < m)
			goto bad;
		memcpy(out + *n, g + at + 5, m);
		*n += m;
		at += 5 + m;
	}
	if (len - at != 8)
		goto bad;
	if (((uint32_t)g[at] | (uint32_t)g[at + 1] << 8 |
	    (uint32_t)g[at + 2] << 16 | (uint32_t)g[at + 3] << 24) !=
	    pc_crc32(out, *n) || ((uint32_t)g[at + 4] |
	    (uint32_t)g[at + 5] << 8 | (uint32_t)g[at + 6] << 16 |
	    (uint32_t)g[at + 7] << 24) != (uint32_t)*n)
		goto bad;
	return out;
bad:
	free(out);
	return NULL;
}

/* A protobuf field at *P (< END): its number, wire type, value or bytes. */
struct pc_field {
	uint32_t num, wt;
	uint64_t v;
	const unsigned char *b;
	size_t n;
};

static int
pc_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 70; s += 7) {
		if (*p >= end)
			return 0;
		*v |= (uint64_t)(**p & 0x7f) << s;
		if (!(*(*p)++ & 0x80))
			return 1;
	}
	return 0;
}

static int
pc_next(const unsigned char **p, const unsigned char *end, struct pc_field *f)
{
	uint64_t key;

	if (!pc_varint(p, end, &key) || key >> 3 == 0 || key >> 3 > 0xffffffffu)
		return 0;
	f->num = (uint32_t)(key >> 3);
	f->wt = key & 7;
	if (f->wt == 0)
		return pc_varint(p, end, &f->v);
	if (f->wt != 2 || !pc_varint(p, end, &f->v) ||
	    f->v > (uint64_t)(end - *p))
		return 0;
	f->b = *p;
	f->n = (size_t)f->v;
	*p += f->n;
	return 1;
}

/* The string indexes of message M (N bytes) of Profile field FIELD, into
 * *MAX; and the sample values.  Returns 0 when it does not parse. */
/* What a Sample's (FIELD 2) or Location's (4, its Line 0) field F says. */
static void
pc_ids(uint32_t field, const struct pc_field *f, struct pprof_stats *st,
    uint64_t *nloc, int64_t *v)
{
	uint64_t *max = NULL;

	if (field == 2 && f->num == 1 && f->wt == 0) {
		max = &st->max_loc;			/* location_id */
		++*nloc;
	} else if (field == 2 && f->num == 2 && f->wt == 0) {
		if (*nloc == 0)		/* ours: the locations first */
			st->why = "a sample's value before its locations";
		else if (v[1] < 3)
			st->value_sum[v[1]] += (int64_t)f->v;
		v[0] = (int64_t)f->v;
		v[1]++;
	} else if (field == 0 && f->num == 1 && f->wt == 0) {
		max = &st->max_fid;			/* Line's function_id */
		++*nloc;
	} else if (field == 4 && f->num == 1 && f->wt == 0 &&
	    f->v != st->locations) {
		st->why = "the Locations are not numbered in order";
	}
	if (max != NULL && (f->v == 0 || f->v > *max))
		*max = f->v ? f->v : UINT64_MAX;
}

static int
pc_message(uint32_t field, const unsigned char *m, size_t n,
    struct pprof_stats *st)
{
	const unsigned char *p = m, *end = m + n;
	struct pc_field f;
	uint64_t nloc = 0;
	int64_t v[2] = { 0 };	/* the last value, and how many */

	while (p < end) {
		if (!pc_next(&p, end, &f))
			return 0;
		if ((field == 1 || field == 11) && f.wt == 0 && f.v > st->max_index)
			st->max_index = f.v;		/* ValueType */
		if (field == 5 && (f.num == 2 || f.num == 3 || f.num == 4) &&
		    f.wt == 0 && f.v > st->max_index)
			st->max_index = f.v;		/* Function */
		if (field == 5 && f.num == 1 && f.wt == 0 &&
		    f.v != st->functions)
			st->why = "the Functions are not numbered in order";
		if (field == 3 && (f.num == 5 || f.num == 6) && f.wt == 0 &&
		    f.v > st->max_index)
			st->max_index = f.v;		/* Mapping */
		pc_ids(field, &f, st, &nloc, v);
		if (field == 4 && f.num == 4 && !(f.wt == 2 &&
		    pc_message(0, f.b, f.n, st)))
			return 0;		/* Location's Line */
	}
	if ((field == 2 && (nloc < 1 || nloc > 2 || (uint64_t)v[1] !=
	    st->types)) || (field == 0 && nloc != 1))
		st->why = field ? "a sample of other than one or two "
		    "locations, or values but for every type" :
		    "a line of other than one function";
	if (field == 2 && nloc == 2) {
		st->arcs++;
		st->arc_calls += v[0];
	}
	return 1;
}

static const char *
pprof_check(const unsigned char *g, size_t len, struct pprof_stats *st)
{
	size_t n;
	unsigned char *pb = pc_inflate(g, len, &n);
	const unsigned char *p = pb, *end = pb + n;
	const char *why = NULL;
	struct pc_field f;

	memset(st, 0, sizeof *st);
	if (pb == NULL)
		return "not a gzip member of stored blocks";
	while (p < end && why == NULL) {
		if (!pc_next(&p, end, &f))
			why = "a field of the Profile does not parse";
		else if (f.num == 6) {
			if (f.wt != 2 || !pc_utf8(f.b, f.n))
				why = "a string is not valid UTF-8";
			else if (st->strings++ == 0 && f.n != 0)
				why = "string 0 is not empty";
		} else if (f.num == 13) {
			st->comments++;
			if (f.wt != 0)
				why = "a comment is not a varint";
			else if (f.v > st->max_index)
				st->max_index = f.v;
		} else if (f.num >= 1 && f.num <= 5 && f.wt == 2) {
			st->functions += f.num == 5;
			st->locations += f.num == 4;
			st->samples += f.num == 2;
			st->types += f.num == 1;
			if (!pc_message(f.num, f.b, f.n, st))
				why = "a message of the Profile does not parse";
			else if (st->why != NULL)
				why = st->why;
		} else if (f.num == 11 && !(f.wt == 2 &&
		    pc_message(f.num, f.b, f.n, st)))
			why = "the period type does not parse";
	}
	if (why == NULL && st->strings == 0)
		why = "no string table";
	if (why == NULL && st->max_index >= st->strings)
		why = "a string index past the string table";
	if (why == NULL && st->max_loc > st->locations)
		why = "a sample names a Location that is not there";
	if (why == NULL && st->max_fid > st->functions)
		why = "a Location names a Function that is not there";
	free(pb);
	return why;
}

#endif
