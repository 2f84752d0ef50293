/*
 * run.h - one run of the program, described once at start and passed
 * down to run_report(): by main.c, interval.c and gmonrun.c.
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
#include "sym/symsrc.h"
#include "views/view.h"

struct run {
	const struct options *o;
	struct out *out;	/* standard output; dropped on a fatal error */
	struct outfile *pprof;	/* --pprof's file; dropped on a fatal error */
	struct kfiles k;	/* the running kernel's files */
	int live;		/* the profile is the running kernel's own */
	const char *profile;	/* the file read: K's when the live one */
	const char *map;	/* the map, once chosen */
	uint32_t step;		/* once read (or inferred from the map) */
	int swapped;		/* the byte order was found reversed */
	const char *counting;	/* what the live counters count; else NULL */
	const struct view_read *read;	/* --interval's; else NULL */
	const struct gmon *gmon;	/* a gmon.out read, else NULL */
	const struct report_hist *hist;	/* its histogram, else NULL */
	struct gmon_graph *arcs;	/* its call arcs for --pprof, or NULL */
	/* a gmon.out's: told once the report is walked, before a collected
	 * view is printed; else NULL */
	void (*walked)(const struct run *r, const struct report_result *res);
	const void *walked_ctx;
};

/* R for the options O, with the rights RT, written into OUT and PPROF. */
void run_init(struct run *r, const struct options *o, struct out *out,
    struct outfile *pprof, const struct rights *rt);

/* Open the map NAME into M, or exit saying why. */
void run_open_map(struct symsrc *m, const char *name);

/* R's map: -m's, or the default chain's (which may say why). */
const char *run_map(const struct run *r);

/* One report of C against the open map M, in the form the options ask
 * for; the text's bounds go to RES. */
void run_report(const struct run *r, struct symsrc *m,
    const struct counters *c, struct report_result *res);

/* For a zero step word (64-bit big-endian kernels): the step from the text
 * of map M, its bounds into RES, M held and rewound; unknown: fatal, or 0
 * with QUIET. */
uint32_t run_step_from_map(struct symsrc *m, uint64_t counters,
    struct report_result *res, int quiet);

/* "little-endian" or "big-endian": this host's order, or SWAPPED the other. */
const char *run_byte_order(int swapped);

/* Write what OUT holds, then put --pprof's file PPROF (if any, else NULL)
 * in place, last: every input checked; a reader gone away ends the run
 * quietly, any other write error is fatal. */
void run_finish(struct out *out, struct outfile *pprof);

#endif
