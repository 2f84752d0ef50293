/*
 * export.h - --pprof and --folded: sinks of the report in place of the
 * text; --pprof's file is created before any work, put in place once the
 * run succeeded.
 */
#ifndef RP_EXPORT_H
#define RP_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "core/report.h"
#include "base/outfile.h"
#include "base/output.h"
#include "views/pprof.h"
#include "views/view.h"

/* What the profile was made from, for the pprof Mapping and comments. */
struct export_src {
	const char *profile, *map, *baseline;
	int kernel;		/* a kernel profile; else a gmon.out */
	const struct build_id *live;	/* /proc/profile's kernel's; or NULL */
	uint32_t step;		/* kernel: its step */
	uint32_t rate;		/* ticks per second; 0: unknown */
	const char *rate_from;	/* where the rate comes from */
	const char *format;	/* "kernel", "gmon.out (GNU)", ... */
	struct gmon_graph *arcs;	/* a gmon.out's call arcs, or NULL */
};

/* Before any work: create --pprof's file F (fatal if it can't), put in
 * place by run_finish, dropped by a fatal error (base/outfile.h). */
void export_prepare(const struct options *o, struct outfile *f);

/* --pprof or --folded as the report's sink; the caller sets X's first
 * six fields. */
struct export_stream {
	const struct options *o;
	struct out *out;	/* standard output */
	struct outfile *file;	/* --pprof's; its f NULL: standard output */
	const struct counters *c;
	const struct report_opts *ro;
	const struct export_src *s;
	const struct report_result *res;
	struct pprof_info in;
	struct pprof_enc e;
	struct folded_stream fs;
	FILE *f;
};

struct report_sink export_sink(struct export_stream *x);

#endif
