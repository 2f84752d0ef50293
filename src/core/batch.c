/* batch.c - the report's functions held a batch at a time. */
#include <stdlib.h>
#include <string.h>

#include "core/batch.h"
#include "base/util.h"

struct batch {
	const struct report_sink *to;
	const struct run *r;
	struct func_rec *f;	/* N held, of BATCH_FUNCS */
	size_t *off;		/* where each one's name is in NAMES */
	size_t n;
	char *names;		/* theirs, each with a NUL: USED of CAP */
	size_t used, cap;
};

void
batch_ahead(const struct run *r, const struct func_rec *f, size_t n,
    const struct report_sink *to)
{
	if (r->ahead == NULL)
		return;
	r->ahead(r->rename_ctx, NULL, 0);
	for (size_t i = 0; i < n; i++)
		if (to == NULL || to->named(to->ctx, &f[i]))
			r->ahead(r->rename_ctx, f[i].name, f[i].namelen);
}

/* The names the sink will rename asked ahead, then each function handed
 * on, its name where the batch holds it. */
static void
flush(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		b->f[i].name = b->names + b->off[i];
	batch_ahead(b->r, b->f, b->n, b->to);
	for (size_t i = 0; i < b->n; i++)
		b->to->func(b->to->ctx, &b->f[i]);
	b->n = b->used = 0;
}

static void
batch_begin(void *ctx, const struct report_result *res)
{
	struct batch *b = ctx;

	if (b->to->begin != NULL)
		b->to->begin(b->to->ctx, res);
}

/* F held, its name copied. */
static void
batch_func(void *ctx, const struct func_rec *f)
{
	struct batch *b = ctx;

	if (b->n == BATCH_FUNCS || (b->n > 0 &&
	    b->used + f->namelen > BATCH_BYTES))
		flush(b);
	if (b->used + f->namelen + 1 > b->cap) {
		b->cap = b->used + f->namelen + 1 + BATCH_BYTES;
		b->names = xrealloc(b->names, b->cap);
	}
	memcpy(b->names + b->used, f->name, f->namelen);
	b->names[b->used + f->namelen] = '\0';
	b->off[b->n] = b->used;	/* NAMES may move: its place found later */
	b->f[b->n++] = *f;
	b->used += f->namelen + 1;
}

static void
batch_end(void *ctx, const struct report_result *res)
{
	struct batch *b = ctx;

	flush(b);
	b->to->end(b->to->ctx, res);
}

void
batch_report(struct symsrc *m, const struct counters *c,
    const struct run *r, const struct report_sink *sink,
    struct report_result *res)
{
	struct batch b = { .to = sink, .r = r };
	struct report_sink s = { batch_begin, batch_func, batch_end, &b,
	    NULL };

	if (r->ahead == NULL || sink->named == NULL) {
		report_run(m, c, r, sink, res);
		return;
	}
	b.f = xmalloc(BATCH_FUNCS * sizeof *b.f);
	b.off = xmalloc(BATCH_FUNCS * sizeof *b.off);
	report_run(m, c, r, &s, res);
	free(b.f);
	free(b.off);
	free(b.names);
}
