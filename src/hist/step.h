/*
 * step.h - the sampling step of a profile whose step word is 0: a 64-bit
 * big-endian kernel (s390x, ppc64, sparc64) writes it from the first four
 * bytes of an unsigned long, the high-order zeros.  Its counters are
 * right, (_etext - _stext) >> k of them for the true step 2^k: a map of
 * the same kernel gives the step back.  Pure: no I/O.
 */
#ifndef RP_STEP_H
#define RP_STEP_H

#include <stddef.h>
#include <stdint.h>

enum step_found {
	STEP_FOUND,		/* *step is the one power of two that fits */
	STEP_NO_ETEXT,		/* the map has no _etext */
	STEP_NO_FIT,		/* no power of two up to 2^31 fits */
};

/* A map's text and the profile it is to fit. */
struct step_text {
	const char *map;	/* its name, for messages */
	uint64_t stext, etext;
	int have_etext;		/* _etext was found */
	uint64_t counters;	/* the profile's */
};

/* Into *STEP the step 2^k (k <= 31) with (etext - stext) >> k ==
 * counters: at most one k fits a non-zero count, none fits 0. */
enum step_found step_infer(const struct step_text *t, uint32_t *step);

/* Why the step of a zero step word is unknown (R is not STEP_FOUND): a
 * message without prefix or newline into BUF, cut to N bytes. */
void step_why(char *buf, size_t n, enum step_found r,
    const struct step_text *t);

#endif
