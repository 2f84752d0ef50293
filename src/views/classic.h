/*
 * classic.h - the classic report, byte for byte util-linux's lines.
 */
#ifndef RP_CLASSIC_H
#define RP_CLASSIC_H

#include <stddef.h>
#include <stdint.h>

#include "base/output.h"
#include "core/report.h"

/* The report of C against M: the classic text on R->out, or, when R
 * carries a collection (--top, --json), into it. */
void classic_run(struct symsrc *m, const struct counters *c,
    const struct run *r, struct report_result *res);

/*
 * One function's line (or the total's, at address 0), then END:
 *   plain:        "%6u %-40s %8.4f"
 *   -v:           "%016llx %-40s %6u %8.4f", and with H's RATE " %10.Nf"
 *                 the seconds TICKS / RATE, N the decimals that show them
 *                 exactly (2 at 100 Hz, 3 at 1000 Hz; else 6, rounded),
 *                 then with H's calls " %8llu" CALLS.
 */
struct line {
	uint64_t addr, ticks;
	const char *name;
	size_t nlen;
	double load;
	int verbose;
	const struct report_hist *h;	/* a histogram's, or NULL */
	uint64_t calls;		/* with H's calls: the calls */
	/* --top's row instead: ticks, load, (seconds, calls), this share
	 * column ("%6.2f%%"), then the name, last; "": a blank share */
	const char *share;
};
void out_line(struct out *o, const struct line *l);
/* Those seconds, unpadded, into DST of SIZE bytes (32 are enough). */
void fmt_seconds(char *dst, size_t size, uint64_t ticks, uint32_t rate);
/* The total line of TOTAL ticks, plain or -v. */
void out_total(struct out *o, const struct report_result *res,
    uint64_t total, int verbose);
/* --top's total row: every tick of RES, and their load over the text. */
void out_top_total(struct out *o, const struct report_result *res,
    int verbose);

/* The classic text's writer, --top's too. */
struct classic {
	const struct run *r;	/* its options, its output */
	const struct counters *c;
	const struct report_result *res;
};

/* Function F as a -b block (its bins, then its total), or as its line and,
 * with -s, its counters.  SHARE NULL: the classic line (a block's total
 * only with ticks or -v); else --top's: the row with that share column,
 * the name last, and every block's total, the share after it. */
void classic_out(const struct classic *k, const struct func_rec *f,
    const char *share);

#endif
