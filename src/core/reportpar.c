/*
 * reportpar.c - the rest of a large map's report, on two threads.
 *
 * Once ticks are seen, what the report does with a line depends on
 * nothing before it but the pending symbol, the last text line (see
 * take_line; the classic attribution's cursor follows from its address).
 * So the rest of the map file is cut into parts (of PART bytes; of
 * PART_LISTS with -s or -b, whose lines are some 30 times the map's: a
 * part's text stays well under a megabyte either way), a part
 * holding the lines that start in it.  The file is mapped once; whichever
 * thread is free takes a part, parses it where it lies (each thread
 * faults its own pages in, which unlike mapping needs no exclusive lock)
 * and writes its report lines into the part's own buffer, taking the line
 * before the part for the pending symbol; the part's pages are then let
 * go, so that the resident set stays a few parts.  The main thread takes the
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
#include <sys/mman.h>
#include <unistd.h>

#include "base/mapguard.h"
#include "core/report_int.h"
#include "base/util.h"
#include "base/worker.h"

#define PART ((uint64_t)256 << 10)
#define PART_LISTS ((uint64_t)8 << 10)
#define LET_GO ((uint64_t)512 << 10)	/* pages let go at a time */
#define BACK ((uint64_t)4096)	/* read before a part, for its pending line */
#define MORE ((uint64_t)64 << 10)	/* read on past its end for its last line */
/*
 * Larger maps are read, not mapped: the mapped pages of the parts in hand
 * (the page cache may map them in large folios) would add a few megabytes
 * to a report already holding a large index (the 4x dense bench input:
 * 9 MiB instead of 7).
 */
#define MAPPED_MAX ((uint64_t)64 << 20)
#define NSLOT 4

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
	char *buf;		/* the part, read */
	size_t cap;
	char *tail;		/* the last line of a mapped map, and a newline */
	size_t tcap;
	const struct counters *c;
	struct run run;		/* not automatic: kept across longjmp */
	struct msghold held;
};

struct par {
	struct run *r;		/* the main loop's */
	const char *map;	/* the map file, mapped whole, or NULL: read */
	int fd;
	uint64_t from, size, nparts, part;
	uint64_t dropped;	/* the pages before it were let go */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t next;		/* the next part to report */
	uint64_t merged;	/* parts taken in order by the main thread */
	int stop;
	struct part slot[NSLOT];
};

/*
 * The map's bytes around a part are BUF, holding the file from offset BASE
 * on: the whole mapped file (BASE 0), or what was read of it.
 */

/* Offset of the first newline in [at, end), or END. */
static uint64_t
newline_from(const char *buf, uint64_t base, uint64_t at, uint64_t end)
{
	const char *p = memchr(buf + (at - base), '\n', (size_t)(end - at));

	return p ? base + (uint64_t)(p - buf) : end;
}

/*
 * The pending symbol before the line at START: the text line before it,
 * passing over __init_end as the loop does.  Returns 0, or -1 when no
 * guess can be made (the part fails): another line, or one that may start
 * before BUF.
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
		const char *p = e > buf ? memrchr(buf, '\n', (size_t)(e - buf)) :
		    NULL;

		p = p ? p + 1 : buf;
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

/*
 * The bytes around part [lo, hi): the mapping, or, read into H's buffer,
 * from BACK before LO to the newline ending the last line that starts
 * before HI.  Sets *BASE and *END (the file offsets of the first byte and
 * one past the last); NULL on a failed read or a line too long.
 */
static char *
part_bytes(struct par *P, struct hand *h, uint64_t lo, uint64_t hi,
    uint64_t *base, uint64_t *end)
{
	uint64_t b = lo > BACK ? lo - BACK : 0, to = hi;

	if (P->map != NULL) {
		*base = 0;
		*end = P->size;
		return (char *)(uintptr_t)P->map;
	}
	for (;;) {
		if (read_range(P, h, b, to) < 0)
			return NULL;
		if (newline_from(h->buf, b, hi - 1, to) < to || to == P->size)
			break;
		if (to - hi > MAP_MAX_LINE)
			return NULL;
		to = to + MORE < P->size ? to + MORE : P->size;
	}
	*base = b;
	*end = to;
	return h->buf;
}

/* Let the pages of [from, to) go (read again from the file if touched). */
static void
let_go(const char *map, uint64_t from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t a = from / page * page;

	if (to > a)
		madvise((char *)(uintptr_t)map + a, (size_t)(to - a),
		    MADV_DONTNEED);
}

/* Report part K into PT, on the thread of H. */
static void
report_part(struct par *P, struct hand *h, uint64_t k, struct part *pt)
{
	uint64_t lo = P->from + k * P->part;
	uint64_t hi = lo + P->part < P->size ? lo + P->part : P->size;
	uint64_t start, end, base, bend;
	char *buf, *text;
	struct run *cr = &h->run;
	struct symsrc cs;
	struct sym s;

	pt->status = PART_FAIL;
	pt->empty = 0;
	pt->lines = pt->total = 0;
	pt->o.len = 0;
	memset(&pt->res, 0, sizeof pt->res);
	if ((buf = part_bytes(P, h, lo, hi, &base, &bend)) == NULL)
		return;
	/* up to the newline ending the last line that starts before HI */
	end = newline_from(buf, base, hi - 1, bend);
	start = k == 0 ? lo : newline_from(buf, base, lo - 1, bend) + 1;
	pt->next = end < P->size ? end + 1 : end;
	if (start >= hi) {		/* a line longer than the part */
		pt->empty = 1;
		pt->status = PART_OK;
		return;
	}
	if (pending_before(buf, base, start, &s) < 0)
		return;
	pending_set(&pt->before, &s);
	text = buf + (start - base);
	if (end == P->size) {	/* the last line has no newline: add one */
		if (P->map != NULL) {	/* (a read buffer has room for it) */
			if (h->tcap < end - start + 1) {
				h->tcap = (size_t)(end - start + 1);
				h->tail = xrealloc(h->tail, h->tcap);
			}
			memcpy(h->tail, text, (size_t)(end - start));
			text = h->tail;
		}
		text[end - start] = '\n';
	}
	end++;

	memset(&cs, 0, sizeof cs);
	cs.name = P->r->m->name;
	map_view(&cs.map, cs.name, text, (size_t)(end - start));
	cs.map.skip_undefined = P->r->m->map.skip_undefined;
	cr->m = &cs;
	cr->c = h->c;
	cr->opt = P->r->opt;
	cr->o = &pt->o;
	cr->a = P->r->a;
	attrib_resume(&cr->a, s.addr);
	cr->total = 0;
	cr->ticks_before = 1;
	cr->borrow = 1;
	pending_borrow(&cr->p, &s);
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
	pending_own(&cr->p);
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

static void
helper_job(void *arg)
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
			return;
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
	free(h->tail);
	free(h->held.text);
	pending_free(&h->run.p);
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
		/*
		 * The pages before this part go, LET_GO bytes at a time
		 * (letting pages go interrupts the other thread: its view of
		 * the mapping is flushed too).  Parts to come may still look
		 * back into this one for their pending line, not further.
		 */
		if (P->map != NULL &&
		    P->from + P->merged * P->part - P->dropped >= LET_GO) {
			uint64_t to = P->from + P->merged * P->part;

			let_go(P->map, P->dropped, to);
			P->dropped = to;
		}
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
	void *map;
	uint64_t resume, lineno, part;
	int st = PART_FAIL;

	if (!suits(r))
		return LINE_NEXT;
	resume = map_tell(&r->m->map);
	lineno = r->m->map.lineno;
	part = r->opt->counters || r->opt->bins ? PART_LISTS : PART;
	if (resume >= r->m->map.in.size ||
	    r->m->map.in.size - resume < 2 * part)
		return LINE_NEXT;
	map = NULL;
	if (r->m->map.in.size <= MAPPED_MAX &&
	    getenv("READPROFILE_TEST_READ_MAP") == NULL) {
		map = mmap(NULL, (size_t)r->m->map.in.size, PROT_READ,
		    MAP_PRIVATE, r->m->map.in.fd, 0);
		if (map == MAP_FAILED)
			map = NULL;
	}
	if (map != NULL) {
		/*
		 * No huge pages: the page cache may hold the map in large
		 * folios, mapped whole, and letting a part's pages go
		 * would then keep (or bring back) megabytes of them.
		 */
		madvise(map, (size_t)r->m->map.in.size, MADV_NOHUGEPAGE);
		/* a map file cut short while mapped: an error, not a crash */
		mapguard_add(map, (size_t)r->m->map.in.size,
		    "map file shrank while being read");
	}
	P = xmalloc(sizeof *P);
	memset(P, 0, sizeof *P);
	P->r = r;
	P->map = map;
	P->fd = r->m->map.in.fd;
	P->from = resume;
	P->dropped = resume;
	P->size = r->m->map.in.size;
	P->part = part;
	P->nparts = (P->size - P->from + P->part - 1) / P->part;
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
			if (worker_post(helper_job, &x, 0) == 0) {
				st = run_parts(P, &h, &resume, &lineno, res);
				pthread_mutex_lock(&P->mu);
				P->stop = 1;
				pthread_cond_broadcast(&P->cv);
				pthread_mutex_unlock(&P->mu);
				worker_wait();
			}
			pthread_cond_destroy(&P->cv);
		}
		pthread_mutex_destroy(&P->mu);
	}
	if (getenv("READPROFILE_TEST_PARTS") != NULL)
		warnx_("test: %llu of %llu parts taken in%s",
		    (unsigned long long)(P->merged + (st == PART_END &&
		    P->merged < P->nparts)), (unsigned long long)P->nparts,
		    st == PART_FAIL ? ", then one thread" : "");
	for (int i = 0; i < NSLOT; i++) {
		out_free_mem(&P->slot[i].o);
		pending_free(&P->slot[i].before);
		pending_free(&P->slot[i].after);
	}
	free(P);
	if (map != NULL) {
		mapguard_remove(map);
		munmap(map, (size_t)r->m->map.in.size);
	}
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
