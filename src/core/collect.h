/*
 * collect.h - the reported functions kept for --top and --pprof (the other
 * views write each as it closes).  Pure.  --top N keeps the N with most
 * ticks in a bounded heap, --pprof every one; a record holds the ranges of
 * words, the buckets are read again from the counters when printed.
 */
#ifndef RP_COLLECT_H
#define RP_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/attrib.h"

struct func_rec {
	uint64_t addr, len, ticks;
	uint64_t calls;		/* gmon.out: the calls into it, else 0 */
	uint64_t seq;		/* map order: the last tie-break (aliases) */
	struct attrib_span sp;
	char *name;		/* owned once kept */
	size_t namelen;
};

struct collect {
	size_t limit;		/* --top N; SIZE_MAX: keep all */
	struct func_rec *v;	/* a min-heap (worst first) when limited */
	size_t n, cap;
};

void collect_init(struct collect *k, size_t limit);

/* Offer F, its SEQ above every earlier one's; its name is copied only
 * when it is kept. */
void collect_add(struct collect *k, const struct func_rec *f);

/* Put the kept functions in report order: by rank with a limit, else by
 * address (the order they came in). */
void collect_sort(struct collect *k);

void collect_free(struct collect *k);

#endif
