/*
 * view.h - the collected reports: --top as text, and --json.
 *
 * Both print what report_run() collected (collect.h), once the total is
 * known, reading the buckets of -b and -s again from the counters.
 */
#ifndef RP_VIEW_H
#define RP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/attrib.h"
#include "core/collect.h"
#include "base/output.h"
#include "core/report.h"

/* What --json says of its inputs, and of the interval with --interval. */
struct view_inputs {
	const char *profile, *map, *baseline;	/* baseline may be NULL */
	uint32_t step;
	uint64_t counters;
	const char *byte_order;
	const char *gmon_format;	/* a gmon.out's: "GNU", "BSD"; else NULL */
	uint32_t gmon_version;
	int pointer_size;	/* a gmon.out's: 4 or 8 */
	size_t top;		/* 0: no --top */
	int interval;		/* the fields below are set */
	uint64_t number;	/* 1, 2, ... */
	const char *time;	/* when it was read */
	double seconds;		/* since the previous read */
	int reset;		/* a counter went down */
	const char *counting;	/* what the counters count; NULL: unknown */
};

/* The --top report: the kept functions, best first, then the total;
 * first a "Counting: COUNTING" line when that is known (not NULL). */
void view_top(struct out *o, const struct collect *k,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt, const char *counting);

/* The --json document, on one line. */
void view_json(struct out *o, const struct collect *k,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt, const struct view_inputs *in);

/* The length of the valid UTF-8 sequence at S (N >= 1 bytes left), or 0
 * (for pprof's strings too). */
size_t utf8_len(const unsigned char *s, size_t n);

/*
 * A JSON string, quoted, for any bytes: '"' and control characters are
 * escaped, valid UTF-8 is copied, a backslash is written as two (the JSON
 * text "\\\\"), and each byte that is not part of valid UTF-8 as the four
 * characters \xNN (the JSON text "\\xNN", NN lower-case hex).  The decoded
 * string is thus the name with C-like escapes: "\\" a backslash, "\xNN"
 * a raw byte; anything else stands for itself.
 */
void json_str(struct out *o, const char *s, size_t n);

/*
 * --folded: one line per function with ticks, "NAME TICKS", in address
 * order, NAME through RENAME when not NULL.  In NAME every byte that is
 * '\\', ';', a control character or not part of valid UTF-8 is written as
 * the four characters \xNN (NN lower-case hex): every line is one frame
 * and a count, whatever the name.
 */
void view_folded(struct out *o, const struct collect *k,
    const char *(*rename)(const char *, size_t, size_t *));

#endif
