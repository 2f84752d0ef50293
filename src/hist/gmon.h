/*
 * gmon.h - the process profile source: profil(2) histograms in gmon.out,
 * GNU (tagged histogram, call arc and basic-block records) or BSD (header
 * and histogram, then call arcs), in the byte order and address size (4
 * or 8) under which the whole file reads.  Records of one range are added
 * up, of other ranges (never overlapping) kept beside; arcs are counted
 * (kept by gmon_index_arcs), basic blocks checked for size and counted.
 * Pure: no I/O, no symbols.  The bins are served as words 1..nbins (word
 * 0 unused, 0) from the parsed bytes, not copied: they must outlive G.
 * Memory beside them: some 100 bytes per histogram record.
 */
#ifndef RP_GMON_H
#define RP_GMON_H

#include <stddef.h>
#include <stdint.h>

#include "hist/counters.h"

#define GMON_BSD_VERSION 0x00051879u
/* More bins than any text segment could need (2 bytes of file each). */
#define GMON_MAX_BINS ((uint64_t)1 << 29)
/* More histogram records than a writer makes (glibc: one per range),
 * within 16 MiB of memory however small the records. */
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
	uint64_t calls;		/* the arcs' counts added up: at most 2^64 - 1
				 * (a file whose sum passes it is refused) */
	struct gmon_bins *bins;	/* the bins, from the bytes parsed */
	/* after gmon_index_arcs: ncallees records of (callee, count), by
	 * callee, each callee once, in the bytes parsed */
	const unsigned char *arcs;
	size_t ncallees;
};

enum { GMON_SNIFF_NO, GMON_SNIFF_GNU, GMON_SNIFF_BSD };

/* What the first N bytes of a file look like: GNU, BSD, or neither. */
int gmon_sniff(const unsigned char *b, size_t n);

/* Whether a file of TOTAL bytes sniffed as BSD could be a kernel profile
 * (the version word a counter): 32-bit words, the first (the step) a
 * power of two from 1 to 1024 (profile=0 to 10). */
int gmon_maybe_kernel(const unsigned char *b, size_t n, uint64_t total);

/* Parse the N bytes at B into G: 0, or -1 with a message of at most
 * ERRLEN bytes in ERR (without the file name). */
int gmon_parse(struct gmon *g, const unsigned char *b, size_t n, char *err,
    size_t errlen);

/* Subtract BASE (an earlier gmon.out of the same program) from G's
 * counters; BASE and its bytes must outlive G.  0, or -1 with ERR. */
int gmon_subtract(struct gmon *g, const struct gmon *base, char *err,
    size_t errlen);

/* The bins, valid until gmon_free; a span until the next one. */
struct counters gmon_counters(const struct gmon *g);

/* Keep G's call arcs for gmon_calls in B, the bytes G was parsed from,
 * rearranged in place (no longer a gmon.out; G serves the same bins),
 * each callee's counts added up (G's calls bound every sum).  Takes no
 * memory. */
void gmon_index_arcs(struct gmon *g, unsigned char *b);

/* A walk over G's call arcs: at 0 at first. */
struct gmon_walk {
	const struct gmon *g;
	size_t at;
};

/* The calls into [start, next) on WALK (a struct gmon_walk): one pass
 * over the arcs for ascending ranges.  0 before gmon_index_arcs. */
uint64_t gmon_calls(void *walk, uint64_t start, uint64_t next);

/*
 * G's call arcs for a call graph, by gmon_graph_arcs: each arc as it is
 * in the file (arcs of one caller and callee are not merged), a unit of
 * W bytes in the bytes parsed: from_pc, self_pc (PTR bytes each) and the
 * count (CW: 4 in GNU, PTR in BSD), big-endian; the units sorted by
 * from_pc, BY_SELF their indexes sorted by self_pc (4 bytes an arc,
 * malloc'd: the only memory taken).
 */
struct gmon_graph {
	unsigned char *v;
	size_t n, w;
	int ptr, cw;
	uint32_t *by_self;
};

/* Rearrange B, the bytes G was parsed from, into G's call graph X, as
 * gmon_index_arcs does (one of the two, once: then B is no gmon.out, and
 * G serves the same bins). */
void gmon_graph_arcs(struct gmon *g, unsigned char *b, struct gmon_graph *x);

/* Arc I's from_pc, or its self_pc with SELF.  A walk in one order may
 * replace what it has passed by values of its own (gmon_graph_set, at
 * most PTR bytes wide): the other order never reads them. */
uint64_t gmon_graph_pc(const struct gmon_graph *x, size_t i, int self);
void gmon_graph_set(struct gmon_graph *x, size_t i, int self, uint64_t v);

uint64_t gmon_graph_count(const struct gmon_graph *x, size_t i);

void gmon_graph_free(struct gmon_graph *x);

void gmon_free(struct gmon *g);

#endif
