/*
 * report.h - one report: symbols in, attribution, report lines out.
 *
 * Applies the text rules (the origin at _stext, skipped absolute symbols,
 * the end of the text) to the stream of symbols, closes each symbol with
 * the attribution and writes it in the classic format as it goes, or
 * hands it to a collection (--top, --json) printed once the total is known.
 */
#ifndef RP_REPORT_H
#define RP_REPORT_H

#include <stdint.h>

#include "core/attrib.h"
#include "core/collect.h"
#include "base/output.h"
#include "sym/symsrc.h"

struct report_opts {
	int verbose, all, bins, counters;
	enum attrib_mode mode;
	struct collect *collect;	/* --top/--json; NULL: classic text */
	int default_map;	/* the map was not given with -m */
	/* The name to print for a symbol (C++ demangling), or NULL: as is.
	 * The result is valid until the next call. */
	const char *(*rename)(const char *name, size_t len, size_t *outlen);
	int last_is_text;	/* exact: the last counter is a text bucket */
};

struct report_hist;

struct report_result {
	uint64_t origin;	/* _stext */
	uint64_t etext;		/* _etext, when found */
	int have_etext;
	uint64_t total;
	uint64_t unknown;	/* the last word; histogram: the bins of no symbol */
	double load;		/* of the total */
	struct attrib a;	/* where the buckets are, for collected ones */
	uint64_t nsyms;		/* histogram: text symbols in its range */
	const struct report_hist *h;	/* histogram, else NULL */
	uint64_t calls;		/* histogram: the -v total line's calls */
};

/*
 * A process histogram (gmon.out): its ranges, from low to high, bins in
 * all, ticks/s, and optionally the calls into [start, next) (asked in
 * ascending order).
 */
struct report_hist {
	uint64_t low, high, nbins;
	const struct hist_range *ranges;	/* ascending, disjoint */
	size_t nranges;
	uint32_t rate;
	uint64_t (*calls)(void *ctx, uint64_t start, uint64_t next);
	void *calls_ctx;
};

/* Find _stext and _etext without reporting (for -i -v). */
void report_text_bounds(struct symsrc *m, struct report_result *res);

/* The whole report of counters C against map M. */
void report_run(struct symsrc *m, const struct counters *c, uint32_t step,
    const struct report_opts *opt, struct out *o, struct report_result *res);

/* The buckets of one symbol as -b and -s list them. */
void report_list_bins(struct out *o, const struct counters *c,
    const struct attrib *a, const struct attrib_span *sp, const char *name,
    size_t nlen, int all);
void report_list_counters(struct out *o, const struct counters *c,
    const struct attrib *a, const struct attrib_span *sp, const char *name,
    size_t nlen, uint64_t start);

/*
 * The report of a histogram's counters C against map M: the text symbols
 * (T, t, W, w) inside [low, high) in address order, each extending to the
 * next one or to high, and the last one before low, which reaches into
 * the range when no symbol starts at low; other lines are passed over.
 * A symbol of a stripped program's .dynsym (struct sym's dynamic) is only
 * credited with its own bytes, its ELF size.  Bins that no symbol is
 * credited with (before the first, or past such a symbol's end) are
 * *unknown*.  -v adds each symbol's seconds, and its calls when H has
 * them.
 */
void report_hist_run(struct symsrc *m, const struct counters *c,
    const struct report_hist *h, const struct report_opts *opt, struct out *o,
    struct report_result *res);

/* A histogram report's total line (RES of report_hist_run), plain or -v. */
void report_hist_total(struct out *o, const struct report_result *res,
    int verbose);

#endif
