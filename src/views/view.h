/*
 * view.h - --top as text, --json and --folded.  --top prints what it
 * collected once the walk is over; --json (without --top) and --folded are
 * sinks of the walk, keeping nothing.  Each states every tick (RES->all).
 */
#ifndef RP_VIEW_H
#define RP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/collect.h"
#include "base/output.h"
#include "core/report.h"
#include "core/run.h"
#include "hist/gmon.h"

/* The --top report of R->collect on R->out, after "Counting: " what a
 * kernel profile's counters count, when known (its column named for them:
 * "calls" for schedule() calls), else ticks. */
void view_top(const struct run *r, const struct report_result *res,
    const struct counters *c);

/* The --json document, on one line, of the functions in R->collect. */
void view_json(const struct run *r, const struct report_result *res,
    const struct counters *c);

/* The width of R's bins: an integer, or rounded to six decimals. */
void view_width(struct out *o, const struct hist_range *r);

/* The length of the valid UTF-8 sequence at S (N >= 1 bytes), or 0. */
size_t utf8_len(const unsigned char *s, size_t n);

/* The --json document as a sink. */
struct json_stream {
	const struct run *r;	/* its inputs and options, its output */
	const struct counters *c;
	const struct report_result *res;
	uint64_t n;		/* functions printed */
};
struct report_sink view_json_sink(struct json_stream *j, const struct run *r,
    const struct counters *c);

/*
 * A JSON string, quoted, for any bytes: '"' and controls escaped, valid
 * UTF-8 copied, a backslash written as two (the JSON text "\\\\") and a
 * byte not of valid UTF-8 as \xNN (the JSON text "\\xNN", lower-case hex):
 * the decoded string has C-like escapes, "\\" and "\xNN", and no others.
 */
void json_str(struct out *o, const char *s, size_t n);

/*
 * --folded: "NAME TICKS" per function with ticks, in address order, NAME
 * through R's rename hook; then "[unknown] N" and "[no symbol] N" when
 * N > 0.  In NAME, '\\', ';', controls and bytes not of valid UTF-8 are
 * written \xNN (lower-case hex), and so are a leading '[' and a ' ' before
 * what reads as a count (digits and dots to the end): every line is one
 * frame and a count, and no name reads as a frame of no function.
 */
struct folded_stream {
	const struct run *r;
};
struct report_sink view_folded_sink(struct folded_stream *f,
    const struct run *r);

/* One folded frame: NAME escaped as above. */
void folded_name(struct out *o, const char *name, size_t n);

#endif
