/*
 * gmonrun.h - wiring for a process profile (gmon.out): parse it, subtract
 * a baseline, and report it or describe it (-i).
 */
#ifndef RP_GMONRUN_H
#define RP_GMONRUN_H

#include "cli/options.h"
#include "base/output.h"
#include "hist/profile.h"

/* Whether the loaded input P is a gmon.out (by its content). */
int gmonrun_detect(struct profile *p);

/* Everything for the gmon.out P, written into O; fatal on any error. */
void gmonrun_run(const struct options *opt, struct profile *p,
    struct out *o);

#endif
