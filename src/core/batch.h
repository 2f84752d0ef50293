/*
 * batch.h - the report's functions handed to its sink a batch at a time,
 * so that the names the sink shows are demangled by one child of the
 * demangler, not one exchange each (bench/cxx.sh: -a of a C++ program).
 * The functions are held, names copied, up to BATCH_FUNCS of them or
 * BATCH_BYTES of names; then R's ahead hook is told, in order, each name
 * the sink says it will rename (its NAMED), and the functions go to the
 * sink in the order they came.  Memory: the batch's, whatever the map's
 * size; the report's lines come at most a batch late.
 */
#ifndef RP_BATCH_H
#define RP_BATCH_H

#include "core/report.h"

#define BATCH_FUNCS 4096
#define BATCH_BYTES (1 << 20)

/* report_run of C against M into SINK, batched when R has an ahead hook
 * and SINK a NAMED; else as it is. */
void batch_report(struct symsrc *m, const struct counters *c,
    const struct run *r, const struct report_sink *sink,
    struct report_result *res);

/* R's ahead hook (if any) told of a new batch, then of the names of
 * F[0..N) that TO will rename (its NAMED), or of all with TO NULL. */
void batch_ahead(const struct run *r, const struct func_rec *f, size_t n,
    const struct report_sink *to);

#endif
