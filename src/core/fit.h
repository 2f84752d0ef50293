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

enum fit { FIT_UNKNOWN, FIT_MATCH, FIT_MISMATCH };

/* Compare the text [stext, etext) (HAVE_ETEXT: etext found) at STEP with
 * the profile's COUNTERS; *MAP_COUNTERS gets the map's count. */
enum fit fit_check(uint64_t stext, uint64_t etext, int have_etext,
    uint32_t step, uint64_t counters, uint64_t *map_counters);

/* The -i -v "Map: ..." line, newline included, into OUT. */
void fit_describe(struct out *out, const char *map, uint64_t stext,
    uint64_t etext, int have_etext, uint32_t step, uint64_t counters);

/* The profile's COUNTERS at STEP cover fewer bytes than MAP's TEXT bytes
 * (_etext - _stext): the line that says so, no newline, into BUF (N). */
void fit_short(char *buf, size_t n, const char *map, uint64_t text,
    uint32_t step, uint64_t counters);

/* Warn on stderr when MAP does not fit PROFILE, naming PROFILE first when
 * it has fewer counters than MAP's text; nothing otherwise. */
void fit_warn(const char *map, const char *profile, uint64_t stext,
    uint64_t etext, int have_etext, uint32_t step, uint64_t counters);

#endif
