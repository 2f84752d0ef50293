/*
 * interval.h - --interval: the ticks gained between two reads of the same
 * profile, reported every interval.
 *
 * The histogram source, struct watch, keeps the previous read as the list of its non-zero counters (8 bytes
 * each: on a real capture a fraction of a percent of them; a dense copy
 * would take 4 bytes for every counter), and the difference as the list
 * of the counters that changed (8 bytes each).  A counter that went down
 * means the counters were reset: the difference is then the new values,
 * the ticks since the reset.  It knows nothing of symbols: interval_run()
 * reports it against the map.
 */
#ifndef RP_INTERVAL_H
#define RP_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/output.h"
#include "cli/options.h"
#include "hist/counters.h"

struct watch {
	const char *name;
	int swap;		/* the byte order found at the first read */
	uint32_t step;
	uint64_t nwords;	/* step word included */
	uint64_t size;		/* bytes of the first read, as the file said */
	struct watch_list {
		uint32_t *idx, *val;	/* word index, value; idx going up */
		size_t n, cap;
	} prev, diff, added;	/* non-zero words; changes; new non-zero */
	size_t pcur, dcur;	/* fold and sum() positions */
	int down;		/* a counter went down in this fold */
	uint32_t *win;		/* span(): the difference, dense */
	uint64_t win_first;
	size_t win_n;
};

/*
 * One read, in three steps (the unit tests feed them arrays): begin,
 * fold the words CUR[0..n) (words FIRST.. of the read, in order, all of
 * words 1.. once), end.  watch_fold_end() returns 1 when a counter went
 * down: the difference is then the new values.
 */
void watch_fold_begin(struct watch *w);
void watch_fold(struct watch *w, const uint32_t *cur, uint64_t first,
    size_t n);
int watch_fold_end(struct watch *w);

/* The difference, for attribution (valid until the next read). */
struct counters watch_counters(struct watch *w);

void watch_free(struct watch *w);

/*
 * --interval: every O->interval seconds (O->iterations times, or until SIGINT
 * or SIGTERM), the ticks gained since the last read, reported into OUT.
 */
int interval_run(const struct options *o, struct out *out);

#endif
