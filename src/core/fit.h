/*
 * fit.h - does a map fit a profile?  The kernel keeps (_etext - _stext) /
 * step counters: a map whose text gives another number is of another
 * kernel (the classic silent failure of a wrong System.map).
 */
#ifndef RP_FIT_H
#define RP_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "base/output.h"
#include "hist/step.h"

enum fit { FIT_UNKNOWN, FIT_MATCH, FIT_MISMATCH };

/* Compare T's text [stext, etext) (have_etext: etext found) at STEP with
 * T's counters; *MAP_COUNTERS gets the map's count. */
enum fit fit_check(const struct step_text *t, uint32_t step,
    uint64_t *map_counters);

/* The -i -v "Map: ..." line of T at STEP, newline included, into OUT. */
void fit_describe(struct out *out, const struct step_text *t, uint32_t step);

/* T's counters at STEP cover fewer bytes than its map's text (_etext -
 * _stext): the line that says so, no newline, into BUF (N). */
void fit_short(char *buf, size_t n, const struct step_text *t, uint32_t step);

/* Warn on stderr when T's map does not fit PROFILE at STEP, naming PROFILE
 * first when it has fewer counters than the map's text; nothing otherwise. */
void fit_warn(const struct step_text *t, const char *profile, uint32_t step);

#endif
