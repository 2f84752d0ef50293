/*
 * info.h - -i: the profile's sampling step; with -v its counters, text
 * size, byte order and whether the map fits it.
 */
#ifndef RP_INFO_H
#define RP_INFO_H

#include "base/output.h"
#include "cli/options.h"
#include "hist/profile.h"

/*
 * -i for the kernel profile P, set up (SWAPPED: its byte order was found
 * reversed), written into OUT.
 */
void info_print(const struct options *o, const struct profile *p,
    int swapped, struct out *out);

#endif
