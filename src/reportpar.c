/*
 * reportpar.c - the rest of a large map's report, on two threads.
 *
 * Once ticks are seen, what the report does with a line depends on
 * nothing before it but the pending symbol, the last text line (see
 * take_line; the classic attribution's cursor follows from its address).
 * So the rest of the map file is cut into parts of PART bytes, a part
 * holding the lines that start in it.  Whichever thread is free reads a
 * part (pread: parts are read at once, from their own offsets), parses it
 * and writes its report lines into the part's own buffer, taking the line
 * before the part for the pending symbol.  The main thread takes the
 * parts in order, checks that guess against the real pending symbol and
 * appends the text.  At most NSLOT parts are in hand at a time, so memory
 * does not grow with the map.
 *
 * A part's messages are held (util.h, msg_hold), never printed.  Anything
 * out of the ordinary in a part (an error, a line before it that is not a
 * text symbol, a line longer than the part can hold) hands the rest of
 * the map back to the one-thread loop at the start of that part, which
 * then does exactly what it always did, error messages included.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_int.h"
#include "util.h"

#define PART ((uint64_t)256 << 10)
#define NSLOT 4
#define BACK ((size_t)4096)	/* looked at before a part for its pending line */
#define MORE ((size_t)64 << 10)	/* read on past its end for its last line */

enum { SLOT_FREE, SLOT_BUSY, SLOT_DONE };
enum { PART_OK, PART_END, PART_FAIL };

struct part {
	int state;		/* SLOT_*, under the mutex */
	int status;		/* PART_* */
	int empty;		/* no line starts in it */
	uint64_t next;		/* the offset of the first line after it */
	uint64_t lines;
	uint64_t total;
	struct out o;
	struct pending before;	/* the pending symbol it took */
	struct pending after;	/* the pending symbol at its end */
	struct report_result res;	/* _etext, when it ends the report */
};

/* What a thread needs to report parts. */
struct hand {
	char *buf;
	size_t cap;
	const struct counters *c;
	struct run run;		/* not automatic: kept across longjmp */
	struct msghold held;
};

struct par {
	struct run *r;		/* the main loop's */
	int fd;
	uint64_t from, size, nparts;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t next;		/* the next part to report */
	uint64_t merged;	/* parts taken in order by the main thread */
	int stop;
	struct part slot[NSLOT];
};

static void
free_pending(struct pending *p)
{
	free(p->name);
	p->name = NULL;
	p->cap = 0;
}

/* Bytes [from, to) of the map into H's buffer; 0, or -1 on a short read. */
static int
read_range(struct par *P, struct hand *h, uint64_t from, uint64_t to)
{
	size_t n = (size_t)(to - from), done = 0;

	if (n + 1 > h->cap) {
		h->cap = n + 1 + MORE;
		h->buf = xrealloc(h->buf, h->cap);
	}
	while (done < n) {
		ssize_t got = pread(P->fd, h->buf + done, n - done,
		    (off_t)(from + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		done += (size_t)got;
	}
	return 0;
}

/* Offset of the first newline at or after AT in [base, base + n), or n. */
static uint64_t
newline_from(const char *buf, uint64_t base, uint64_t n, uint64_t at)
{
	const char *p = memchr(buf + (at - base), '\n', (size_t)(n - (at - base)));

	return p ? base + (uint64_t)(p - buf) : base + n;
}

/*
 * The pending symbol before the line at START (BUF holds the map from
 * offset BASE on): the text line before it, passing over __init_end as
 * the loop does.  Returns 0, or -1 when no guess can be made (the part
 * fails): another line, or one that may start before BUF.
 */
static int
pending_before(const char *buf, uint64_t base, uint64_t start,
    struct sym *s)
{
	const char *e;

	if (start <= base)
		return -1;
	e = buf + (start - base) - 1;	/* the newline ending that line */
	for (;;) {
		const char *p = e;

		while (p > buf && p[-1] != '\n')
			p--;
		if (p == buf && base > 0)
			return -1;
		if (map_parse_line(p, e, s) < 0)
			return -1;
		if (s->kind == SYM_TEXT)
			return 0;
		if (s->kind != SYM_ABS || !sym_is(s, "__init_end") || p == buf)
			return -1;
		e = p - 1;
	}
}

/* Read part K and report it into PT, on the thread of H. */
static void
report_part(struct par *P, struct hand *h, uint64_t k, struct part *pt)
{
	uint64_t lo = P->from + k * PART;
	uint64_t hi = lo + PART < P->size ? lo + PART : P->size;
	uint64_t base = lo > BACK ? lo - BACK : 0;
	uint64_t to = hi, start, end;
	struct run *cr = &h->run;
	struct symsrc cs;
	struct sym s;

	pt->status = PART_FAIL;
	pt->empty = 0;
	pt->lines = pt->total = 0;
	pt->o.len = 0;
	memset(&pt->res, 0, sizeof pt->res);
	/* up to the newline ending the last line that starts before HI */
	for (;;) {
		if (read_range(P, h, base, to) < 0)
			return;
		end = newline_from(h->buf, base, to - base, hi - 1);
		if (end < to || to == P->size)
			break;
		if (to - hi > MAP_MAX_LINE)
			return;
		to = to + MORE < P->size ? to + MORE : P->size;
	}
	if (end == to)			/* the last line has no newline */
		h->buf[end++ - base] = '\n';
	else
		end++;
	start = k == 0 ? lo : newline_from(h->buf, base, to - base, lo - 1) + 1;
	pt->next = end;
	if (start >= hi) {		/* a line longer than the part */
		pt->empty = 1;
		pt->status = PART_OK;
		return;
	}
	if (pending_before(h->buf, base, start, &s) < 0)
		return;
	pending_set(&pt->before, &s);

	memset(&cs, 0, sizeof cs);
	cs.name = P->r->m->name;
	map_view(&cs.map, cs.name, h->buf + (start - base), (size_t)(end - start));
	cs.map.skip_undefined = P->r->m->map.skip_undefined;
	cr->m = &cs;
	cr->c = h->c;
	cr->opt = P->r->opt;
	cr->o = &pt->o;
	cr->a = P->r->a;
	attrib_resume(&cr->a, s.addr);
	cr->total = 0;
	cr->ticks_before = 1;
	pending_set(&cr->p, &s);
	h->held.len = 0;
	msg_hold(&h->held);
	if (setjmp(h->held.jb) == 0) {
		pt->status = PART_OK;
		while (map_next(&cs.map, &s))
			if (take_line(cr, &s, &pt->res) == LINE_END) {
				pt->status = PART_END;
				break;
			}
	} else
		pt->status = PART_FAIL;
	msg_hold(NULL);
	pt->lines = cs.map.lineno;
	pt->total = cr->total;
	/* the part's pending symbol is its result: swap the buffers */
	{
		struct pending t = pt->after;

		pt->after = cr->p;
		cr->p = t;
	}
}

/* The next part this thread may report, or UINT64_MAX; under the mutex. */
static uint64_t
take(struct par *P)
{
	if (P->stop || P->next >= P->nparts || P->next >= P->merged + NSLOT)
		return UINT64_MAX;
	P->slot[P->next % NSLOT].state = SLOT_BUSY;
	return P->next++;
}

static void
done(struct par *P, uint64_t k)
{
	pthread_mutex_lock(&P->mu);
	P->slot[k % NSLOT].state = SLOT_DONE;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
}

struct helper {
	struct par *P;
	struct hand h;
};

static void *
helper_main(void *arg)
{
	struct helper *x = arg;
	struct par *P = x->P;

	for (;;) {
		uint64_t k;

		pthread_mutex_lock(&P->mu);
		while ((k = take(P)) == UINT64_MAX && !P->stop &&
		    P->next < P->nparts)
			pthread_cond_wait(&P->cv, &P->mu);
		pthread_mutex_unlock(&P->mu);
		if (k == UINT64_MAX)
			return NULL;
		report_part(P, &x->h, k, &P->slot[k % NSLOT]);
		done(P, k);
	}
}

static int
same_pending(const struct pending *a, const struct pending *b)
{
	return a->addr == b->addr && a->len == b->len &&
	    memcmp(a->name, b->name, a->len) == 0;
}

/*
 * Take in part PT, the next in order: its text, total and pending symbol.
 * Returns PART_OK or PART_END, or PART_FAIL when the loop must take over.
 */
static int
merge(struct par *P, struct part *pt, uint64_t *resume, uint64_t *lineno,
    struct report_result *res)
{
	struct run *r = P->r;
	struct pending t;

	if (pt->status == PART_FAIL)
		return PART_FAIL;
	if (pt->empty)
		return PART_OK;
	if (!same_pending(&pt->before, &r->p))
		return PART_FAIL;
	out_str(r->o, pt->o.buf, pt->o.len);
	r->total += pt->total;
	t = r->p;
	r->p = pt->after;
	pt->after = t;
	*resume = pt->next;
	*lineno += pt->lines;
	if (pt->status == PART_END) {
		res->etext = pt->res.etext;
		res->have_etext = pt->res.have_etext;
	}
	return pt->status;
}

static void
hand_free(struct hand *h)
{
	free(h->buf);
	free(h->held.text);
	free_pending(&h->run.p);
}

/* Report parts in order until the end or a part the loop must redo. */
static int
run_parts(struct par *P, struct hand *h, uint64_t *resume, uint64_t *lineno,
    struct report_result *res)
{
	while (P->merged < P->nparts) {
		struct part *pt = &P->slot[P->merged % NSLOT];
		uint64_t k = UINT64_MAX;
		int ready, st;

		pthread_mutex_lock(&P->mu);
		while (!(ready = pt->state == SLOT_DONE) &&
		    (k = take(P)) == UINT64_MAX)
			pthread_cond_wait(&P->cv, &P->mu);
		pthread_mutex_unlock(&P->mu);
		if (!ready) {	/* part K is this thread's to report */
			report_part(P, h, k, &P->slot[k % NSLOT]);
			done(P, k);
			continue;
		}
		st = merge(P, pt, resume, lineno, res);
		if (st != PART_OK)
			return st;
		pthread_mutex_lock(&P->mu);
		pt->state = SLOT_FREE;
		P->merged++;
		pthread_cond_broadcast(&P->cv);
		pthread_mutex_unlock(&P->mu);
	}
	return PART_END;	/* the end of the map */
}

static int
suits(const struct run *r)
{
	const struct symsrc *m = r->m;

	return r->opt->par != NULL && r->opt->collect == NULL &&
	    m->elf == NULL && m->map.in.seekable && m->map.in.child <= 0 &&
	    m->map.in.fd >= 0 && !m->map.hold && r->a.mode != ATTRIB_HIST &&
	    r->a.step != 0;
}

int
report_par(struct run *r, struct report_result *res)
{
	struct par *P;
	struct helper x;
	struct hand h;
	struct counters hc;
	void *hstate = NULL;
	pthread_t t;
	uint64_t resume, lineno;
	int st = PART_FAIL;

	if (!suits(r))
		return LINE_NEXT;
	resume = map_tell(&r->m->map);
	lineno = r->m->map.lineno;
	if (resume >= r->m->map.in.size ||
	    r->m->map.in.size - resume < 2 * PART)
		return LINE_NEXT;
	P = xmalloc(sizeof *P);
	memset(P, 0, sizeof *P);
	P->r = r;
	P->fd = r->m->map.in.fd;
	P->from = resume;
	P->size = r->m->map.in.size;
	P->nparts = (P->size - P->from + PART - 1) / PART;
	for (int i = 0; i < NSLOT; i++)
		out_init_mem(&P->slot[i].o);
	memset(&x, 0, sizeof x);
	memset(&h, 0, sizeof h);
	hc = r->opt->par->reader(r->opt->par->ctx, &hstate);
	x.P = P;
	x.h.c = &hc;
	h.c = r->c;
	if (pthread_mutex_init(&P->mu, NULL) == 0) {
		if (pthread_cond_init(&P->cv, NULL) == 0) {
			if (pthread_create(&t, NULL, helper_main, &x) == 0) {
				st = run_parts(P, &h, &resume, &lineno, res);
				pthread_mutex_lock(&P->mu);
				P->stop = 1;
				pthread_cond_broadcast(&P->cv);
				pthread_mutex_unlock(&P->mu);
				pthread_join(t, NULL);
			}
			pthread_cond_destroy(&P->cv);
		}
		pthread_mutex_destroy(&P->mu);
	}
	for (int i = 0; i < NSLOT; i++) {
		out_free_mem(&P->slot[i].o);
		free_pending(&P->slot[i].before);
		free_pending(&P->slot[i].after);
	}
	free(P);
	hand_free(&h);
	hand_free(&x.h);
	r->opt->par->reader_done(hstate);
	if (st == PART_END)
		return LINE_END;
	/* the loop goes on at the first part not taken in */
	map_seek(&r->m->map, resume, lineno);
	attrib_resume(&r->a, r->p.addr);
	return LINE_NEXT;
}
