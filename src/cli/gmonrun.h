/* gmonrun.h - a process profile (gmon.out): parsed, a baseline
 * subtracted, reported or described (-i). */
#ifndef RP_GMONRUN_H
#define RP_GMONRUN_H

#include "hist/profile.h"

/* Whether the loaded input P is a gmon.out (by its content). */
int gmonrun_detect(struct profile *p);

struct run;

/* The gmon.out P of R: its shape (-i), or its report against -m, then
 * what is told of its ticks; fatal on any error. */
void gmonrun_run(struct run *r, struct profile *p);

#endif
