/* info.h - -i: the profile's sampling step; with -v its counters, text
 * size, byte order and whether the map fits it. */
#ifndef RP_INFO_H
#define RP_INFO_H

#include "cli/run.h"
#include "hist/profile.h"

/* -i for the run R's kernel profile P, set up. */
void info_print(const struct run *r, const struct profile *p);

#endif
