/*
 * pprof.c - profile.proto, encoded by hand, streamed in a gzip member.
 * Two wire types do: varints (0, never zigzag) and length-delimited (2:
 * strings, messages).  A nested message (a few dozen bytes) is built in a
 * scratch buffer, then written behind its length; the Profile itself is
 * never held: its fields go to the gzip stream as they are made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc32.h"
#include "base/util.h"
#include "views/pprof.h"
#include "views/view.h"

#define STORED_MAX 65535u	/* bytes in one stored deflate block */

static void
le32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

void
gz_begin(struct gz *g, FILE *f)
{
	/* header: magic, deflate, no flags, no time, no extra flags, Unix */
	static const unsigned char head[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

	memset(g, 0, sizeof *g);
	g->f = f;
	g->blk = xmalloc(5 + STORED_MAX);
	fwrite(head, 1, sizeof head, f);
}

/* The block held, behind its header (BFINAL when LAST). */
static void
gz_block(struct gz *g, int last)
{
	unsigned char *h = g->blk;

	h[0] = (unsigned char)last;	/* BTYPE 00: stored */
	le32(h + 1, (uint32_t)g->n | (uint32_t)~g->n << 16);	/* LEN, NLEN */
	fwrite(h, 1, 5 + g->n, g->f);
	g->crc = crc32_update(g->crc, h + 5, g->n);
	g->isize += (uint32_t)g->n;
	g->n = 0;
}

void
gz_write(struct gz *g, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n) {
		size_t m;

		if (g->n == STORED_MAX)	/* full, and more comes: not the last */
			gz_block(g, 0);
		m = STORED_MAX - g->n;
		if (m > n)
			m = n;
		memcpy(g->blk + 5 + g->n, s, m);
		g->n += m;
		s += m;
		n -= m;
	}
}

int
gz_end(struct gz *g)
{
	unsigned char t[8];

	gz_block(g, 1);
	le32(t, g->crc);
	le32(t + 4, g->isize);
	fwrite(t, 1, sizeof t, g->f);
	free(g->blk);
	g->blk = NULL;
	return ferror(g->f) ? -1 : 0;
}

static void
pb_raw(struct pb *p, const void *s, size_t n)
{
	while (n > p->cap - p->len) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->b = xrealloc(p->b, p->cap);
	}
	if (n)
		memcpy(p->b + p->len, s, n);
	p->len += n;
}

/* V as a varint at B (10 bytes room); returns its length. */
static size_t
varint(unsigned char *b, uint64_t v)
{
	size_t n = 0;

	do {
		b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static void
pb_varint(struct pb *p, uint64_t v)
{
	unsigned char b[10];

	pb_raw(p, b, varint(b, v));
}

enum { WT_VARINT = 0, WT_LEN = 2 };

/* A varint field; proto3 leaves zeros out. */
static void
pb_int(struct pb *p, unsigned field, uint64_t v)
{
	if (v == 0)
		return;
	pb_varint(p, (uint64_t)field << 3 | WT_VARINT);
	pb_varint(p, v);
}

/* Message M as field FIELD of P; M is emptied for reuse. */
static void
pb_msg(struct pb *p, unsigned field, struct pb *m)
{
	pb_varint(p, (uint64_t)field << 3 | WT_LEN);
	pb_varint(p, m->len);
	pb_raw(p, m->b, m->len);
	m->len = 0;
}

/* profile.proto's field numbers */

enum {	/* Profile */
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4,
	P_FUNCTION = 5, P_STRING_TABLE = 6, P_TIME_NANOS = 9,
	P_PERIOD_TYPE = 11, P_PERIOD = 12, P_COMMENT = 13,
	P_DEFAULT_SAMPLE_TYPE = 14,
};
enum { VT_TYPE = 1, VT_UNIT = 2 };			/* ValueType */
enum { S_LOCATION_ID = 1, S_VALUE = 2 };		/* Sample */
enum {	/* Mapping */
	M_ID = 1, M_MEMORY_START = 2, M_MEMORY_LIMIT = 3, M_FILE_OFFSET = 4,
	M_FILENAME = 5, M_BUILD_ID = 6, M_HAS_FUNCTIONS = 7,
};
enum { L_ID = 1, L_MAPPING_ID = 2, L_ADDRESS = 3, L_LINE = 4 }; /* Location */
enum { LN_FUNCTION_ID = 1 };				/* Line */
enum { F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3 };	/* Function */

/* Message (or string) M as a field of the Profile, then emptied. */
static void
top_msg(struct pprof_enc *e, unsigned field, struct pb *m)
{
	unsigned char b[20];
	size_t k = varint(b, (uint64_t)field << 3 | WT_LEN);

	k += varint(b + k, m->len);
	gz_write(&e->gz, b, k);
	gz_write(&e->gz, m->b, m->len);
	m->len = 0;
}

/* A varint field of the Profile (through the empty scratch message). */
static void
top_int(struct pprof_enc *e, unsigned field, uint64_t v)
{
	pb_int(&e->m, field, v);
	gz_write(&e->gz, e->m.b, e->m.len);
	e->m.len = 0;
}

/* The N bytes at S as a string_table entry (pprof.h): its index. */
static uint64_t
str_n(struct pprof_enc *e, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char b[5];

	for (size_t i = 0, len; i < n; i += len ? len : 1) {
		len = u[i] < 0x80 ? 1 : utf8_len(u + i, n - i);
		if (u[i] == '\\')
			pb_raw(&e->sub, "\\\\", 2);
		else if (len == 0)
			pb_raw(&e->sub, b, (size_t)snprintf(b, sizeof b,
			    "\\x%02x", u[i]));
		else
			pb_raw(&e->sub, u + i, len);
	}
	top_msg(e, P_STRING_TABLE, &e->sub);
	return e->nstr++;
}

static uint64_t
str_c(struct pprof_enc *e, const char *s)
{
	return str_n(e, s, strlen(s));
}

static void
value_type(struct pprof_enc *e, unsigned field, const char *type,
    const char *unit)
{
	uint64_t t = str_c(e, type), u = str_c(e, unit);

	pb_int(&e->m, VT_TYPE, t);
	pb_int(&e->m, VT_UNIT, u);
	top_msg(e, field, &e->m);
}

int64_t
pprof_nanos(uint64_t ticks, uint32_t rate, uint64_t *clamped)
{
	/* ticks = q * rate + r, r < rate < 2^32: r * 10^9 < 2^62 */
	uint64_t q = ticks / rate, r = ticks % rate;
	uint64_t frac = (r * 1000000000u + rate / 2) / rate;

	if (q > ((uint64_t)INT64_MAX - frac) / 1000000000u) {
		(*clamped)++;
		return INT64_MAX;
	}
	return (int64_t)(q * 1000000000u + frac);
}

/* The name of the ticks, and of the arc ends, of no function. */
static const char unknown[] = "*unknown*";

/* A Location at ADDR naming Function FID: its id. */
static uint64_t
location(struct pprof_enc *e, uint64_t addr, uint64_t fid)
{
	uint64_t id = ++e->loc;

	pb_int(&e->sub, LN_FUNCTION_ID, fid);
	pb_int(&e->m, L_ID, id);
	pb_int(&e->m, L_MAPPING_ID, 1);
	pb_int(&e->m, L_ADDRESS, addr);
	pb_msg(&e->m, L_LINE, &e->sub);
	top_msg(e, P_LOCATION, &e->m);
	return id;
}

/* V, or past int64 that, counted. */
static uint64_t
clamp(struct pprof_enc *e, uint64_t v)
{
	if (v <= INT64_MAX)
		return v;
	e->clamped++;
	return INT64_MAX;
}

/* One value of a Sample, 0 too: a value's place is its type.  Repeated
 * fields of one element, not packed: a byte less each. */
static void
value(struct pprof_enc *e, uint64_t v)
{
	pb_varint(&e->m, S_VALUE << 3 | WT_VARINT);
	pb_varint(&e->m, v);
}

/* A Sample of the Locations LOC (leaf first; the second 0: one), of
 * TICKS and their time, and of CALLS when the profile counts calls. */
static void
sample(struct pprof_enc *e, const uint64_t loc[2], uint64_t ticks,
    uint64_t calls)
{
	for (int i = 0; i < 2 && loc[i] != 0; i++)
		pb_int(&e->m, S_LOCATION_ID, loc[i]);
	ticks = clamp(e, ticks);
	value(e, ticks);
	if (e->in->rate)
		value(e, (uint64_t)pprof_nanos(ticks, e->in->rate,
		    &e->clamped));
	if (e->r->arcs != NULL)
		value(e, clamp(e, calls));
	top_msg(e, P_SAMPLE, &e->m);
}

/* TICKS at a Location at ADDR naming Function FID. */
static void
ticks_at(struct pprof_enc *e, uint64_t addr, uint64_t fid, uint64_t ticks)
{
	uint64_t loc[2] = { location(e, addr, fid), 0 };

	sample(e, loc, ticks, 0);
}

/* F's Function: its id. */
static uint64_t
function(struct pprof_enc *e, const struct func_rec *f)
{
	const char *name = f->name;
	size_t nlen = f->namelen;
	uint64_t sys;

	e->fid++;
	sys = str_n(e, f->name, f->namelen);
	if (e->r->rename)
		name = e->r->rename(e->r->rename_ctx, f->name, f->namelen,
		    &nlen);
	pb_int(&e->m, F_ID, e->fid);
	pb_int(&e->m, F_NAME, name == f->name ? sys : str_n(e, name, nlen));
	pb_int(&e->m, F_SYSTEM_NAME, sys);
	top_msg(e, P_FUNCTION, &e->m);
	return e->fid;
}

void
pprof_func(struct pprof_enc *e, const struct func_rec *f,
    const struct counters *c, const struct attrib *a)
{
	uint64_t fid;

	if (f->ticks == 0)
		return;
	/* its Function, then its Location(s) and Sample(s) */
	fid = function(e, f);
	e->placed = (struct pprof_placed){ f->addr, fid, 0 };
	if (!(e->r->o->counters || e->r->o->bins) || c == NULL) {
		e->placed.loc = location(e, f->addr, fid);
		sample(e, (uint64_t[2]){ e->placed.loc, 0 }, f->ticks, 0);
		return;
	}
	for (uint64_t k = f->sp.first; k < f->sp.end;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, f->sp.end, &got);

		for (size_t i = 0; i < got; i++)
			if (w[i])
				ticks_at(e, attrib_word_addr(a, k + i), fid,
				    w[i]);
		k += got;
	}
}

/* The Function *unknown*, made when first needed. */
static uint64_t
unknown_fid(struct pprof_enc *e)
{
	struct func_rec f = { .name = (char *)unknown,
	    .namelen = sizeof unknown - 1 };

	if (e->unknown_fid == 0)
		e->unknown_fid = function(e, &f);
	return e->unknown_fid;
}

void
pprof_unplaced(struct pprof_enc *e, const char *name, uint64_t ticks)
{
	/* not a C++ name: the rename hook leaves it as it is */
	struct func_rec f = { .addr = e->in->limit, .ticks = ticks,
	    .name = (char *)name, .namelen = strlen(name) };

	if (ticks != 0 && e->unknown_fid != 0 && strcmp(name, unknown) == 0)
		ticks_at(e, e->in->limit, e->unknown_fid, ticks);
	else
		pprof_func(e, &f, NULL, NULL);
}

/* The arc at place K of the order of the arcs' ends SELF (1: callees). */
static size_t
arc_at(const struct gmon_graph *x, int self, size_t k)
{
	return self ? x->by_self[k] : k;
}

/* Whether the next arc end of order SELF lies at LAST or below. */
static int
walk_below(const struct pprof_enc *e, int self, uint64_t last)
{
	const struct gmon_graph *x = e->r->arcs;
	const struct pprof_walk *w = self ? &e->callees : &e->callers;

	return w->at < x->n &&
	    gmon_graph_pc(x, arc_at(x, self, w->at), self) <= last;
}

/* The arc ends of order SELF up to LAST each take the Location LOC, or
 * (LOC 0) one at their address naming Function FID, one per address;
 * written over their addresses, which the walk has passed. */
static void
walk_to(struct pprof_enc *e, int self, uint64_t last, uint64_t fid,
    uint64_t loc)
{
	struct gmon_graph *x = e->r->arcs;
	struct pprof_walk *w = self ? &e->callees : &e->callers;

	while (walk_below(e, self, last)) {
		size_t i = arc_at(x, self, w->at++);
		uint64_t pc = gmon_graph_pc(x, i, self), l = loc;

		if (l == 0) {
			if (w->loc == 0 || w->pc != pc) {
				w->pc = pc;
				w->loc = location(e, pc, fid);
			}
			l = w->loc;
		}
		if (x->ptr < 8 && l > UINT32_MAX)
			fatalx("--pprof: more than 2^32 - 1 locations in the "
			    "profile of a 32-bit program");
		gmon_graph_set(x, i, self, l);
	}
}

/* The arc ends up to LAST that no function took: *unknown*'s. */
static void
unknown_to(struct pprof_enc *e, uint64_t last)
{
	for (int self = 0; self <= 1; self++)
		if (walk_below(e, self, last))
			walk_to(e, self, last, unknown_fid(e), 0);
}

void
pprof_calls(struct pprof_enc *e, const struct func_rec *f)
{
	struct pprof_placed p = e->placed;
	uint64_t last, fid;

	e->placed = (struct pprof_placed){ 0, 0, 0 };
	if (e->r->arcs == NULL || f->len == 0)
		return;
	if (f->addr > 0)
		unknown_to(e, f->addr - 1);
	last = f->addr + (f->len - 1);
	if (!walk_below(e, 0, last) && !walk_below(e, 1, last))
		return;
	/* its Function: pprof_func's, or one of its own */
	if (p.fid != 0 && p.addr == f->addr) {
		fid = p.fid;
	} else {
		fid = function(e, f);
		p.loc = 0;
	}
	walk_to(e, 0, last, fid, 0);	/* callers: at their call sites */
	if (!walk_below(e, 1, last))
		return;
	if (p.loc == 0)	/* callees: at the function's address */
		p.loc = location(e, f->addr, fid);
	walk_to(e, 1, last, fid, p.loc);
}

void
pprof_calls_end(struct pprof_enc *e)
{
	const struct gmon_graph *x = e->r->arcs;

	if (x == NULL)
		return;
	unknown_to(e, UINT64_MAX);
	for (size_t i = 0; i < x->n; i++) {
		/* leaf first: the callee, then the caller */
		uint64_t loc[2] = { gmon_graph_pc(x, i, 1),
		    gmon_graph_pc(x, i, 0) };

		sample(e, loc, 0, gmon_graph_count(x, i));
	}
}

void
pprof_begin(struct pprof_enc *e, FILE *f, const struct run *r,
    const struct pprof_meta *in)
{
	uint64_t none = 0;
	const char *type = in->type ? in->type : "samples";
	const char *unit = in->unit ? in->unit : "count";

	memset(e, 0, sizeof *e);
	e->r = r;
	e->in = in;
	gz_begin(&e->gz, f);
	str_c(e, "");	/* string 0 is always "" */
	value_type(e, P_SAMPLE_TYPE, type, unit);
	if (in->rate) {
		value_type(e, P_SAMPLE_TYPE, "cpu", "nanoseconds");
		value_type(e, P_PERIOD_TYPE, "cpu", "nanoseconds");
		top_int(e, P_PERIOD, (uint64_t)pprof_nanos(1, in->rate, &none));
	} else {
		value_type(e, P_PERIOD_TYPE, type, unit);
		top_int(e, P_PERIOD, 1);
	}
	top_int(e, P_TIME_NANOS, (uint64_t)in->time_nanos);
	if (r->arcs != NULL) {	/* calls last, the time still the default */
		value_type(e, P_SAMPLE_TYPE, "calls", "count");
		top_int(e, P_DEFAULT_SAMPLE_TYPE, str_c(e, in->rate ? "cpu" :
		    "samples"));
	}
}

int
pprof_end(struct pprof_enc *e)
{
	const struct pprof_meta *in = e->in;
	char b[160], id[BUILD_ID_HEX];
	int rc;
	/* the Mapping: the text's bounds are known at the end */
	uint64_t file = str_c(e, e->r->map), bid = 0;

	if (in->build_id.n > 0)
		bid = str_c(e, build_id_hex(&in->build_id, id));
	pb_int(&e->m, M_ID, 1);
	pb_int(&e->m, M_MEMORY_START, in->start);
	pb_int(&e->m, M_MEMORY_LIMIT, in->limit);
	pb_int(&e->m, M_FILE_OFFSET, in->file_offset);
	pb_int(&e->m, M_FILENAME, file);
	pb_int(&e->m, M_BUILD_ID, bid);
	pb_int(&e->m, M_HAS_FUNCTIONS, 1);
	top_msg(e, P_MAPPING, &e->m);
	for (size_t i = 0; i < in->ncomments; i++)
		top_int(e, P_COMMENT, str_c(e, in->comments[i]));
	if (e->clamped) {
		snprintf(b, sizeof b, "clamped: %llu sample value%s past int64, "
		    "written as 9223372036854775807",
		    (unsigned long long)e->clamped, e->clamped > 1 ? "s" : "");
		top_int(e, P_COMMENT, str_c(e, b));
		warnx_("warning: --pprof: %s", b);
	}
	rc = gz_end(&e->gz);
	free(e->m.b);
	free(e->sub.b);
	return rc;
}

