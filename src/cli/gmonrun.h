/*
 * gmonrun.h - wiring for a process profile (gmon.out): parse it, subtract
 * a baseline, and report it or describe it (-i).
 */
#ifndef RP_GMONRUN_H
#define RP_GMONRUN_H

#include "hist/profile.h"

/* Whether the loaded input P is a gmon.out (by its content). */
int gmonrun_detect(struct profile *p);

struct run;

/* The gmon.out P of the run R: its shape (-i), or its report against the
 * symbols of -m (run_report), then what is told of its ticks; fatal on any
 * error. */
void gmonrun_run(struct run *r, struct profile *p);

#endif
