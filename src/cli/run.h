/*
 * run.h - one run of the program (struct run, core/run.h), described by
 * main.c, interval.c and gmonrun.c, and its one report dispatch.
 */
#ifndef RP_RUN_H
#define RP_RUN_H

#include <stdint.h>

#include "base/outfile.h"
#include "base/output.h"
#include "cli/kroot.h"
#include "cli/options.h"
#include "hist/gmon.h"
#include "hist/profile.h"
#include "core/report.h"
#include "core/run.h"
#include "sym/symsrc.h"
#include "views/view.h"

/* R for the options O and the running kernel's files K, written into OUT
 * and PPROF. */
void run_init(struct run *r, const struct options *o, const struct kfiles *k,
    struct out *out, struct outfile *pprof);

/* Open the map NAME into M, or exit saying why. */
void run_open_map(struct symsrc *m, const char *name);

/* R's map: -m's, or the default chain's (which may say why). */
const char *run_map(const struct run *r);

/* One report of C against the open map M, in the form the options ask
 * for; the text's bounds go to RES. */
void run_report(struct run *r, struct symsrc *m,
    const struct counters *c, struct report_result *res);

/* For a zero step word (64-bit big-endian kernels): the step from the text
 * of map M, its bounds into RES, M held and rewound; unknown: fatal, or 0
 * with QUIET. */
uint32_t run_step_from_map(struct symsrc *m, uint64_t counters,
    struct report_result *res, int quiet);

/* Flush OUT, then put --pprof's file PPROF (if any, else NULL)
 * in place, last: every input checked; a reader gone away ends the run
 * quietly, any other write error is fatal. */
void run_finish(struct out *out, struct outfile *pprof);

#endif
