/*
 * gmon.h - the process profile source: profil(2) histograms in gmon.out.
 *
 * Two formats, each in either byte order and with 4- or 8-byte
 * addresses (the writer's, which the file does not state: the one under
 * which the whole file reads consistently):
 *   GNU:  "gmon", version, 12 spare bytes, then tagged records:
 *         0 histogram (low_pc, high_pc, number of bins, profiling rate,
 *           15-byte dimension, 1-byte abbreviation, 16-bit bins),
 *         1 call arc (from_pc, self_pc, 32-bit count),
 *         2 basic-block counts (32-bit count, then that many
 *           address/count pairs);
 *   BSD:  low_pc, high_pc, byte count of header and bins, version
 *         0x00051879, profiling rate, 3 spare words; the 16-bit bins;
 *         then call arcs (from_pc, self_pc, count) to the end.
 * Histogram records over the same range are added up, records over other
 * ranges kept beside it (they must not overlap); call arcs are counted,
 * and kept, for call counts, only by gmon_index_arcs; basic-block records
 * are checked for size and counted, not kept.
 *
 * Pure: parses bytes in memory, knows nothing of symbols.  The bins are
 * served behind struct counters as words 1..nbins (word 0 unused, 0),
 * read from the parsed bytes, which must outlive G: they are not copied,
 * but converted a window of 4096 words at a time.  Memory beyond the
 * bytes: at most some 100 bytes per histogram record (its range and
 * where its bins are); the call arcs are indexed in the bytes themselves.
 */
#ifndef RP_GMON_H
#define RP_GMON_H

#include <stddef.h>
#include <stdint.h>

#include "hist/counters.h"

#define GMON_BSD_VERSION 0x00051879u
/* More bins than any text segment could need (2 bytes of file each). */
#define GMON_MAX_BINS ((uint64_t)1 << 29)
/*
 * More histogram records than a writer makes (glibc writes one per
 * profiled range): each costs some 100 bytes of memory beside the file,
 * which this many keeps within 16 MiB however small the records.
 */
#define GMON_MAX_HIST ((uint64_t)1 << 17)

enum gmon_format { GMON_GNU, GMON_BSD };

struct gmon_bins;

struct gmon {
	enum gmon_format format;
	uint32_t version;	/* GNU: the header's version; BSD: 0x51879 */
	int ptrsize;		/* 4 or 8 */
	int big_endian;
	uint64_t low, high;	/* from the first range's low to the last's high */
	uint64_t nbins;		/* of all ranges */
	struct hist_range *ranges;	/* ascending; their bins in words */
	size_t nranges;
	uint32_t rate;		/* profiling ticks per second */
	uint64_t nhist, narcs, nblocks;	/* records seen */
	struct gmon_bins *bins;	/* the bins, from the bytes parsed */
	/* after gmon_index_arcs: ncallees records of (callee, count), by
	 * callee, each callee once, in the bytes parsed */
	const unsigned char *arcs;
	size_t ncallees;
};

enum { GMON_SNIFF_NO, GMON_SNIFF_GNU, GMON_SNIFF_BSD };

/*
 * What the first N bytes of a file look like: GNU (the "gmon" magic), BSD
 * (the version word where a 4- or 8-byte header has it), or neither.
 */
int gmon_sniff(const unsigned char *b, size_t n);

/*
 * Whether a file sniffed as BSD could be a kernel profile after all: a
 * whole number of 32-bit words whose first (the step) is a power of two
 * from 1 to 1024 (profile=0 to 10) in either byte order; a BSD file's
 * first word is its low_pc, rarely that small.  The version word is then
 * taken for a counter's value, unless the whole file reads as a gmon.out.
 */
int gmon_maybe_kernel(const unsigned char *b, size_t n, uint64_t total);

/*
 * Parse the N bytes at B into G.  Returns 0, or -1 with a message of at
 * most ERRLEN bytes in ERR (without the file name).
 */
int gmon_parse(struct gmon *g, const unsigned char *b, size_t n, char *err,
    size_t errlen);

/*
 * Subtract BASE (an earlier gmon.out of the same run's program) from G:
 * from now on G's counters are the difference, and BASE (and its bytes)
 * must outlive G.  Returns 0, or -1 with a message in ERR.
 */
int gmon_subtract(struct gmon *g, const struct gmon *base, char *err,
    size_t errlen);

/*
 * The bins, for attribution (valid until gmon_free).  A span is valid
 * until the next span of G's counters.
 */
struct counters gmon_counters(const struct gmon *g);

/*
 * Keep G's call arcs for gmon_calls, in B, the bytes G was parsed from
 * (and reads its bins from): B is rearranged in place, no longer a
 * gmon.out, while G serves the same bins.  Each callee's counts are added
 * up (in 64 bits, modulo 2^64).  Takes no memory; time O(n log n) in
 * the arcs (a radix sort: linear in them and the address bytes).
 */
void gmon_index_arcs(struct gmon *g, unsigned char *b);

/* A walk over G's call arcs: at 0 at first. */
struct gmon_walk {
	const struct gmon *g;
	size_t at;
};

/*
 * The calls into [start, next) on WALK (a struct gmon_walk, as a
 * report's calls column takes it): the counts of the arcs whose callee
 * lies there.  For ascending, non-overlapping ranges, a whole report is
 * one pass over the arcs.  0 before gmon_index_arcs.
 */
uint64_t gmon_calls(void *walk, uint64_t start, uint64_t next);

void gmon_free(struct gmon *g);

#endif
