/* interval.h - --interval: the ticks gained between two reads of the
 * profile (hist/watch.h), reported every interval against the map. */
#ifndef RP_INTERVAL_H
#define RP_INTERVAL_H

#include "cli/run.h"

/* From the first read P, set up (closed here): every R->o->interval
 * seconds, R->o->iterations times or until SIGINT or SIGTERM. */
void interval_run(struct run *r, struct profile *p);

#endif
