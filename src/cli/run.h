/*
 * run.h - what a single run (main.c) and --interval (interval.c) share
 * when they report a kernel profile: the options made into one report,
 * the step a zero step word stands for, the byte order as -i -v and
 * --json name it, and the end of the output.
 */
#ifndef RP_RUN_H
#define RP_RUN_H

#include <stdint.h>

#include "base/output.h"
#include "cli/options.h"
#include "core/report.h"
#include "views/view.h"
#include "sym/symsrc.h"

/*
 * One report of C against the open map M into OUT: the classic text,
 * --top, --json, --pprof or --folded.
 */
void run_report(const struct options *o, struct symsrc *m,
    const struct counters *c, uint32_t step, struct view_inputs *vi,
    struct report_result *res, struct out *out);

/*
 * A zero step word, as 64-bit big-endian kernels write it: the step from
 * the text of map M, whose bounds go to RES.  When it is unknown: fatal,
 * or with QUIET, 0.
 */
uint32_t run_step_from_map(struct symsrc *m, uint64_t counters,
    struct report_result *res, int quiet);

/* "little-endian" or "big-endian": this host's order, or, SWAPPED, the
 * other. */
const char *run_byte_order(int swapped);

/* Write what OUT holds; a reader gone away ends the run quietly, any other
 * write error is fatal. */
void run_finish(struct out *out);

#endif
