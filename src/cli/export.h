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
#include "core/run.h"
#include "core/report.h"
#include "base/outfile.h"
#include "base/output.h"
#include "views/pprof.h"
#include "views/view.h"

/* Before any work: create --pprof's file F (fatal if it can't), put in
 * place by run_finish, dropped by a fatal error (base/outfile.h). */
void export_prepare(const struct options *o, struct outfile *f);

/* --pprof or --folded as the report's sink; the caller sets X's first
 * two fields. */
struct export_stream {
	const struct run *r;	/* R->pprof's f NULL: standard output */
	const struct counters *c;
	const char *rate_from;	/* where IN's rate comes from */
	const struct report_result *res;
	struct pprof_meta in;
	struct pprof_enc e;
	struct folded_stream fs;
	FILE *f;
};

struct report_sink export_sink(struct export_stream *x);

#endif
