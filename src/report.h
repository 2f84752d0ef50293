/*
 * report.h - one report: symbols in, attribution, report lines out.
 *
 * Applies the text rules (the origin at _stext, skipped absolute symbols,
 * the end of the text) to the stream of symbols, closes each symbol with
 * the attribution and writes it in the chosen format.
 */
#ifndef RP_REPORT_H
#define RP_REPORT_H

#include <stdint.h>

#include "attrib.h"
#include "output.h"
#include "symsrc.h"

struct report_opts {
	int verbose, all, bins, counters;
	enum attrib_mode mode;
	int default_map;	/* the map was not given with -m */
};

struct report_result {
	uint64_t origin;	/* _stext */
	uint64_t etext;		/* _etext, when found */
	int have_etext;
	uint64_t total;
};

/* Find _stext and _etext without reporting (for -i -v). */
void report_text_bounds(struct symsrc *m, struct report_result *res);

/* The whole report of counters C against map M. */
void report_run(struct symsrc *m, const struct counters *c, uint32_t step,
    const struct report_opts *opt, struct out *o, struct report_result *res);

#endif
