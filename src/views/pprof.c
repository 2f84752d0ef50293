/*
 * pprof.c - profile.proto, encoded by hand, in a gzip member.
 *
 * The protobuf wire format needs only two kinds of field here: varints
 * (wire type 0: integers, zigzag never, negative int64 as ten bytes) and
 * length-delimited ones (wire type 2: strings, nested messages and packed
 * repeated integers).  A nested message is built in a scratch buffer and
 * then copied in behind its length.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/crc32.h"
#include "views/pprof.h"
#include "base/util.h"


struct pb {
	unsigned char *b;
	size_t len, cap;
};

static void
pb_grow(struct pb *p, size_t n)
{
	if (n <= p->cap - p->len)
		return;
	while (n > p->cap - p->len)
		p->cap = p->cap ? p->cap * 2 : 4096;
	p->b = xrealloc(p->b, p->cap);
}

static void
pb_raw(struct pb *p, const void *s, size_t n)
{
	pb_grow(p, n);
	if (n)
		memcpy(p->b + p->len, s, n);
	p->len += n;
}

static void
pb_varint(struct pb *p, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_raw(p, b, n);
}

enum { WT_VARINT = 0, WT_LEN = 2 };

static void
pb_key(struct pb *p, unsigned field, unsigned wt)
{
	pb_varint(p, (uint64_t)field << 3 | wt);
}

/* A varint field; proto3 leaves zeros out. */
static void
pb_int(struct pb *p, unsigned field, uint64_t v)
{
	if (v == 0)
		return;
	pb_key(p, field, WT_VARINT);
	pb_varint(p, v);
}

static void
pb_bytes(struct pb *p, unsigned field, const void *s, size_t n)
{
	pb_key(p, field, WT_LEN);
	pb_varint(p, n);
	pb_raw(p, s, n);
}

/* Message M as field FIELD of P; M is emptied for reuse. */
static void
pb_msg(struct pb *p, unsigned field, struct pb *m)
{
	pb_bytes(p, field, m->b, m->len);
	m->len = 0;
}

/* A packed repeated field of N integers. */
static void
pb_packed(struct pb *p, unsigned field, const uint64_t *v, size_t n,
    struct pb *scratch)
{
	for (size_t i = 0; i < n; i++)
		pb_varint(scratch, v[i]);
	pb_msg(p, field, scratch);
}

/* ---- profile.proto's field numbers ------------------------------------ */

enum {	/* Profile */
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4,
	P_FUNCTION = 5, P_STRING_TABLE = 6, P_TIME_NANOS = 9,
	P_PERIOD_TYPE = 11, P_PERIOD = 12, P_COMMENT = 13,
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

/* The string table: strings are appended as they are first used. */
struct strtab {
	struct pb out;		/* the encoded string_table fields */
	uint64_t n;
};

static uint64_t
str_add(struct strtab *t, const char *s, size_t n)
{
	pb_bytes(&t->out, P_STRING_TABLE, s, n);
	return t->n++;
}

static uint64_t
str_c(struct strtab *t, const char *s)
{
	return str_add(t, s, strlen(s));
}

static void
value_type(struct pb *p, unsigned field, struct strtab *t, const char *type,
    const char *unit, struct pb *m)
{
	pb_int(m, VT_TYPE, str_c(t, type));
	pb_int(m, VT_UNIT, str_c(t, unit));
	pb_msg(p, field, m);
}

/* TICKS / RATE seconds in nanoseconds, rounded. */
static uint64_t
nanos(uint64_t ticks, uint32_t rate)
{
	return (uint64_t)((long double)ticks * 1e9L / (long double)rate +
	    0.5L);
}

struct enc {
	struct pb out, m, line, scratch;
	struct strtab t;
	const struct pprof_info *in;
	uint64_t next_loc;
};

/* A Location at ADDR naming function FID, and its Sample of TICKS. */
static void
sample(struct enc *e, uint64_t fid, uint64_t addr, uint64_t ticks)
{
	uint64_t id = e->next_loc++, v[2] = { ticks, 0 };

	pb_int(&e->line, LN_FUNCTION_ID, fid);
	pb_int(&e->m, L_ID, id);
	pb_int(&e->m, L_MAPPING_ID, 1);
	pb_int(&e->m, L_ADDRESS, addr);
	pb_msg(&e->m, L_LINE, &e->line);
	pb_msg(&e->out, P_LOCATION, &e->m);

	pb_packed(&e->m, S_LOCATION_ID, &id, 1, &e->scratch);
	if (e->in->rate)
		v[1] = nanos(ticks, e->in->rate);
	pb_packed(&e->m, S_VALUE, v, e->in->rate ? 2 : 1, &e->scratch);
	pb_msg(&e->out, P_SAMPLE, &e->m);
}

/* Function FID for F, with its Location(s) and Sample(s). */
static void
function(struct enc *e, uint64_t fid, const struct func_rec *f,
    const struct report_result *res, const struct counters *c)
{
	const char *name = f->name;
	size_t nlen = f->namelen;
	uint64_t sys;

	sys = str_add(&e->t, f->name, f->namelen);
	if (e->in->rename)
		name = e->in->rename(f->name, f->namelen, &nlen);
	pb_int(&e->m, F_ID, fid);
	pb_int(&e->m, F_NAME, name == f->name ? sys :
	    str_add(&e->t, name, nlen));
	pb_int(&e->m, F_SYSTEM_NAME, sys);
	pb_msg(&e->out, P_FUNCTION, &e->m);
	if (!e->in->buckets) {
		sample(e, fid, f->addr, f->ticks);
		return;
	}
	for (uint64_t k = f->sp.first; k < f->sp.end;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, f->sp.end, &got);

		for (size_t i = 0; i < got; i++)
			if (w[i])
				sample(e, fid, attrib_word_addr(&res->a, k + i),
				    w[i]);
		k += got;
	}
}

/* The ticks of no function, as a Function "*unknown*" of its own at the
 * end of the mapped text, so that pprof's total is --top's. */
static void
unknown(struct enc *e, uint64_t fid, uint64_t ticks)
{
	uint64_t name = str_c(&e->t, "*unknown*");

	pb_int(&e->m, F_ID, fid);
	pb_int(&e->m, F_NAME, name);
	pb_int(&e->m, F_SYSTEM_NAME, name);
	pb_msg(&e->out, P_FUNCTION, &e->m);
	sample(e, fid, e->in->limit, ticks);
}

static void
mapping(struct enc *e)
{
	const struct pprof_info *in = e->in;
	char id[BUILD_ID_HEX];

	build_id_hex(&in->build_id, id);
	pb_int(&e->m, M_ID, 1);
	pb_int(&e->m, M_MEMORY_START, in->start);
	pb_int(&e->m, M_MEMORY_LIMIT, in->limit);
	pb_int(&e->m, M_FILE_OFFSET, in->file_offset);
	pb_int(&e->m, M_FILENAME, str_c(&e->t, in->map));
	if (in->build_id.n > 0)
		pb_int(&e->m, M_BUILD_ID, str_c(&e->t, id));
	pb_int(&e->m, M_HAS_FUNCTIONS, 1);
	pb_msg(&e->out, P_MAPPING, &e->m);
}

unsigned char *
pprof_encode(const struct collect *k, const struct report_result *res,
    const struct counters *c, const struct pprof_info *in, size_t *len)
{
	struct enc e;
	uint64_t fid = 0;
	unsigned char *gz;

	memset(&e, 0, sizeof e);
	e.in = in;
	e.next_loc = 1;
	str_c(&e.t, "");	/* string 0 is always "" */
	value_type(&e.out, P_SAMPLE_TYPE, &e.t, "samples", "count", &e.m);
	if (in->rate)
		value_type(&e.out, P_SAMPLE_TYPE, &e.t, "cpu", "nanoseconds",
		    &e.m);
	mapping(&e);
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].ticks)
			function(&e, ++fid, &k->v[i], res, c);
	if (res->unknown)	/* as in --top: a share of all ticks counted */
		unknown(&e, ++fid, res->unknown);
	if (in->rate) {
		value_type(&e.out, P_PERIOD_TYPE, &e.t, "cpu", "nanoseconds",
		    &e.m);
		pb_int(&e.out, P_PERIOD, nanos(1, in->rate));
	} else {
		value_type(&e.out, P_PERIOD_TYPE, &e.t, "samples", "count",
		    &e.m);
		pb_int(&e.out, P_PERIOD, 1);
	}
	pb_int(&e.out, P_TIME_NANOS, (uint64_t)in->time_nanos);
	for (size_t i = 0; i < in->ncomments; i++)
		pb_int(&e.out, P_COMMENT, str_c(&e.t, in->comments[i]));
	pb_raw(&e.out, e.t.out.b, e.t.out.len);
	gz = gzip_stored(e.out.b, e.out.len, len);
	free(e.out.b);
	free(e.m.b);
	free(e.line.b);
	free(e.scratch.b);
	free(e.t.out.b);
	return gz;
}

/* ---- gzip without compression ------------------------------------------ */

static void
le32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

#define STORED_MAX 65535u	/* bytes in one stored deflate block */

unsigned char *
gzip_stored(const unsigned char *p, size_t n, size_t *len)
{
	/* header: magic, deflate, no flags, no time, no extra flags, Unix */
	static const unsigned char head[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	size_t blocks = n / STORED_MAX + 1, at = sizeof head;
	unsigned char *b;

	if (blocks > (SIZE_MAX - 18 - n) / 5)
		fatalx("profile too large");
	b = xmalloc(sizeof head + blocks * 5 + n + 8);
	memcpy(b, head, sizeof head);
	for (size_t done = 0, i = 0; i < blocks; i++) {
		size_t m = n - done < STORED_MAX ? n - done : STORED_MAX;

		b[at] = i + 1 == blocks;	/* BFINAL, BTYPE 00: stored */
		b[at + 1] = (unsigned char)m;
		b[at + 2] = (unsigned char)(m >> 8);
		b[at + 3] = (unsigned char)~m;
		b[at + 4] = (unsigned char)(~m >> 8);
		memcpy(b + at + 5, p + done, m);
		at += 5 + m;
		done += m;
	}
	le32(b + at, crc32_update(0, p, n));
	le32(b + at + 4, (uint32_t)n);
	*len = at + 8;
	return b;
}

/* ---- the output file ----------------------------------------------------- */

static char *final_name, *tmp_name;
static int tmp_fd = -1;
static volatile sig_atomic_t tmp_live;	/* tmp_name is there to remove */

/* Killed while the file is written: remove it, then die of the signal. */
static void
on_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_name);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Catch the signals that end a run from the terminal, unless ignored. */
static void
catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

void
outfile_open(const char *name)
{
	struct stat sb;
	size_t n = strlen(name) + 16;
	mode_t mask;

	if (stat(name, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		errno = S_ISDIR(sb.st_mode) ? EISDIR : EEXIST;
		fatal("%s", name);
	}
	if (access(name, F_OK) == 0 && access(name, W_OK) < 0)
		fatal("%s", name);
	final_name = xmalloc(n);
	snprintf(final_name, n, "%s", name);
	tmp_name = xmalloc(n);
	snprintf(tmp_name, n, "%s.tmpXXXXXX", name);
	if ((tmp_fd = mkostemp(tmp_name, O_CLOEXEC)) < 0) {
		free(tmp_name);
		tmp_name = NULL;
		fatal("%s", name);
	}
	tmp_live = 1;
	catch_signals();
	mask = umask(0);
	umask(mask);
	if (fchmod(tmp_fd, 0666 & ~mask) < 0)
		fatal("%s", name);
}

void
outfile_abort(void)
{
	if (tmp_name == NULL)
		return;
	tmp_live = 0;
	unlink(tmp_name);
	free(tmp_name);
	tmp_name = NULL;
	if (tmp_fd >= 0)
		close(tmp_fd);
	tmp_fd = -1;
}

void
outfile_commit(const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(tmp_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fatal("%s: write error", final_name);
		p += w;
		n -= (size_t)w;
	}
	if (close(tmp_fd) < 0) {
		tmp_fd = -1;
		fatal("%s: write error", final_name);
	}
	tmp_fd = -1;
	if (rename(tmp_name, final_name) < 0)
		fatal("%s", final_name);
	tmp_live = 0;
	free(tmp_name);
	tmp_name = NULL;
}
