/*
 * report_int.h - the report loop's state, shared by report.c and
 * reportpar.c (the same loop over parts of the map at once).
 */
#ifndef RP_REPORT_INT_H
#define RP_REPORT_INT_H

#include "core/report.h"

/*
 * The symbol waiting for its successor's address.  Its name is a copy in
 * BUF, or, in a part of the map (reportpar.c), borrowed from the map
 * itself, which stays as it is for the whole part.
 */
struct pending {
	uint64_t addr;
	const char *name;
	size_t len;
	char *buf;
	size_t cap;
};

struct run {
	struct symsrc *m;
	const struct counters *c;
	const struct report_opts *opt;
	struct out *o;
	struct attrib a;
	struct pending p;
	uint64_t total;
	int ticks_before;	/* a part of the map: ticks were seen before it */
	int borrow;		/* a part of the map: names are borrowed */
	uint32_t rate;		/* histogram: ticks per second, else 0 */
	const struct report_hist *h;	/* histogram, else NULL */
	uint64_t calls;		/* histogram: total of the calls column */
};

/* S is the pending symbol: its name copied, or borrowed. */
void pending_set(struct pending *p, const struct sym *s);
void pending_borrow(struct pending *p, const struct sym *s);
/* The name copied, if borrowed. */
void pending_own(struct pending *p);
void pending_free(struct pending *p);

enum { LINE_NEXT, LINE_END };

/* The text rules for the line S: LINE_END when it ends the report. */
int take_line(struct run *r, const struct sym *s, struct report_result *res);

/*
 * The rest of the map from where R is, in parts on two threads when the
 * map is a large file: LINE_END when the report is done, else
 * LINE_NEXT with R's map moved to where the loop must go on (on anything
 * out of the ordinary, such as an error, the loop takes over again).
 */
int report_par(struct run *r, struct report_result *res);

#endif
