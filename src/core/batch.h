/*
 * batch.h - the report's functions handed to its sink a batch at a time,
 * so that the names the sink shows are demangled in one exchange with the
 * demangler's child, not one each (bench/cxx.sh: -a of a C++ program).
 * The functions are held, names copied, up to BATCH_FUNCS of them or
 * BATCH_BYTES of names; then R's ahead hook is told, in order, each name
 * the sink says it will rename (its NAMED), and the functions go to the
 * sink in the order they came.  Memory: the batch's, whatever the map's
 * size; the report's lines come at most a batch late.
 */
#ifndef RP_BATCH_H
#define RP_BATCH_H

#include "core/report.h"

#define BATCH_FUNCS 256
#define BATCH_BYTES 65536

/* report_run of C against M into SINK, batched when R has an ahead hook
 * and SINK a NAMED; else as it is. */
void batch_report(struct symsrc *m, const struct counters *c,
    const struct run *r, const struct report_sink *sink,
    struct report_result *res);

#endif
