/*
 * report.h - one report: symbols in, attribution, closed functions out.
 * Applies the text rules (the origin at _stext, skipped absolute symbols,
 * the end of the text), closes each symbol with the attribution and hands
 * it to a sink (views/: the classic text, --top, --json, --folded).  Pure.
 *
 * Every tick (less the baseline) is in exactly one place: a function,
 * *unknown* (a kernel profile's last counter; a histogram's bins before
 * its first symbol), or no symbol (past the map's last symbol, or in no
 * function's words): ALL = TOTAL + report_unknown() + NOSYM.
 */
#ifndef RP_REPORT_H
#define RP_REPORT_H

#include <stdint.h>

#include "core/attrib.h"
#include "core/collect.h"
#include "core/run.h"
#include "sym/symsrc.h"

/* A process histogram (gmon.out): its ranges, from low to high, bins in
 * all, ticks/s, and the calls into [start, next) (asked in order), or NULL. */
struct report_hist {
	uint64_t low, high, nbins;
	const struct hist_range *ranges;	/* ascending, disjoint */
	size_t nranges;
	uint32_t rate;
	uint64_t (*calls)(void *ctx, uint64_t start, uint64_t next);
	void *calls_ctx;
};

struct report_result {
	uint64_t origin;	/* _stext */
	uint64_t etext;		/* _etext, when found */
	int have_etext;
	uint64_t total;		/* the functions' ticks (the classic total) */
	uint64_t unknown;	/* the last word; histogram: the bins of no symbol */
	uint64_t nosym;		/* kernel: ticks in no symbol's words */
	uint64_t all;		/* every tick: total + unknown + nosym */
	char note[384];		/* a warning about ticks of no symbol, or "" */
	int last_in_func;	/* classic: a function reaches into the last
				 * word (*unknown*): counted once by views */
	double load;		/* of the total */
	uint64_t span;		/* the bytes the loads of totals are over:
				 * from the origin to the last symbol read */
	struct attrib a;	/* where the buckets are, for collected ones */
	uint64_t nsyms;		/* histogram: text symbols in its range */
	const struct report_hist *h;	/* histogram, else NULL */
	uint64_t calls;		/* histogram: the -v total line's calls */
	/* histogram, a text map: from __executable_start (or 0) to the
	 * first etext (or _etext, __etext), when it has one */
	uint64_t text_lo, text_hi;
	int have_text_hi;
};

/* Where closed functions go: BEGIN (or NULL) once the origin and ALL are
 * known, FUNC for each (its name valid during the call; report_shown says
 * if a view lists it), END with the totals.  NAMED (or NULL): whether FUNC
 * will ask the run's rename hook for F's name (core/batch.h). */
struct report_sink {
	void (*begin)(void *ctx, const struct report_result *res);
	void (*func)(void *ctx, const struct func_rec *f);
	void (*end)(void *ctx, const struct report_result *res);
	void *ctx;
	int (*named)(void *ctx, const struct func_rec *f);
};

/* The ticks of *unknown* no function holds: the views' *unknown*. */
uint64_t report_unknown(const struct report_result *res);

/* Whether a view lists F under the options O: as the classic text, one
 * with a length and ticks (any with -a); with -b, one that has a bin to
 * list. */
int report_shown(const struct options *o, const struct func_rec *f);

/* Find _stext and _etext without reporting (for -i -v). */
void report_text_bounds(struct symsrc *m, struct report_result *res);

/* The whole report of counters C against map M into SINK: a kernel
 * profile at R's step, its ticks in no symbol a warning in RES->note (a
 * wrong or truncated map; the views write it on stderr after the report),
 * or the histogram R->hist, over the text symbols (T, t, W, w) in
 * [low, high), each extending to the next or to high, and the last one
 * before low, which reaches in when no symbol starts at low.  A symbol of
 * a stripped program's .dynsym (struct sym's dynamic) gets only its own
 * bytes, its ELF size; bins no symbol gets are *unknown*.  -v adds each
 * symbol's seconds, and its calls when the histogram has them. */
void report_run(struct symsrc *m, const struct counters *c,
    const struct run *r, const struct report_sink *sink,
    struct report_result *res);

#endif
