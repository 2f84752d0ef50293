/*
 * pprof.h - the report as a pprof profile (profile.proto), streamed in one
 * gzip member of stored blocks (no zlib), in memory that does not grow with
 * the functions: protobuf lets repeated fields interleave, so each Function
 * comes with its Location(s), Sample(s) and strings (repeated each time
 * used; entry 0 is "").  Sample types samples/count (or what the counters
 * count: schedule/calls...), then cpu/nanoseconds when the rate is known
 * (pprof shows the last by default); a Function per
 * function with ticks (name renamed, system_name as the map spells it), its
 * Location at its address, or one per non-zero bucket, each with a Sample;
 * one Mapping.  Every string is valid UTF-8, as --json's decoded strings.
 * A value past int64 (2^63 - 1 ns, 292 years) is written as 2^63 - 1, with
 * a warning and a comment in the profile saying how many.
 *
 * With call arcs (a gmon.out's), a last sample type calls/count, the time
 * still the default (default_sample_type): each arc a Sample of two
 * Locations, leaf first: the callee's Function at its address, then the
 * caller's at the call site (from_pc); its calls the arc's count, its
 * time values 0 (the time samples' calls 0).  An end in no function is
 * the Function *unknown* (the one of the ticks of no function), at the
 * arc's address.  The arcs are resolved as the functions close, in
 * address order (pprof_calls), their samples written at the end.
 */
#ifndef RP_PPROF_H
#define RP_PPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/collect.h"
#include "core/run.h"
#include "hist/gmon.h"
#include "sym/notes.h"

/* What the caller alone knows of the profile: its rate and time, read at
 * pprof_begin; the Mapping's bounds, build-id and comments, read from
 * pprof_unplaced on.  The rest is the run's: the Mapping's file (R->map),
 * the names (R->rename), a Location per bucket (-s, -b). */
struct pprof_meta {
	uint64_t start, limit, file_offset;
	struct build_id build_id;	/* written as hex; n 0: none */
	uint32_t rate;			/* ticks per second; 0: unknown */
	const char *type, *unit;	/* the count's sample type; NULL:
					 * samples/count */
	int64_t time_nanos;		/* when the profile was taken */
	const char *const *comments;	/* written at pprof_end */
	size_t ncomments;
};

/* A gzip member of stored blocks, one (64 KiB) per fwrite to F, unbuffered. */
struct gz {
	FILE *f;
	unsigned char *blk;	/* the block being filled, behind 5 bytes */
	size_t n;
	uint32_t crc, isize;
};

void gz_begin(struct gz *g, FILE *f);
void gz_write(struct gz *g, const void *p, size_t n);
/* The last block and the trailer; 0, or -1 on a write error. */
int gz_end(struct gz *g);

/* A scratch buffer for one small message. */
struct pb {
	unsigned char *b;
	size_t len, cap;
};

/* The encoder's state: sizes that do not grow with the profile. */
struct pprof_enc {
	struct gz gz;
	const struct run *r;
	const struct pprof_meta *in;
	struct pb m, sub;	/* a message; what is made meanwhile */
	uint64_t nstr, fid, loc;
	uint64_t clamped;	/* cpu values past int64 */
	/* the call arcs: a walk in each order, the last Location made for
	 * an address of each, the Function *unknown* (0: none yet), and the
	 * last function pprof_func wrote (its id and Location at its
	 * address, 0: none) */
	struct pprof_walk {
		size_t at;
		uint64_t pc, loc;
	} callers, callees;
	uint64_t unknown_fid;
	struct pprof_placed {
		uint64_t addr, fid, loc;
	} placed;
};

/* Start the profile of R on F: its header, sample types and period. */
void pprof_begin(struct pprof_enc *e, FILE *f, const struct run *r,
    const struct pprof_meta *in);

/* Function F, if it has ticks; with buckets and C, a Location per
 * non-zero bucket of C, placed by A. */
void pprof_func(struct pprof_enc *e, const struct func_rec *f,
    const struct counters *c, const struct attrib *a);

/* The call arcs into and out of F, one of every function the report
 * closes (after pprof_func when it is listed), in address order. */
void pprof_calls(struct pprof_enc *e, const struct func_rec *f);

/* The arcs' ends in no function, then the arcs' samples: before
 * pprof_unplaced, whose *unknown* is the same Function. */
void pprof_calls_end(struct pprof_enc *e);

/* TICKS of no function (if any) as a Function NAME at the text's end. */
void pprof_unplaced(struct pprof_enc *e, const char *name, uint64_t ticks);

/* The Mapping (IN's bounds are read now), the comments, the end of the
 * gzip member; frees E's buffers.  0, or -1 on a write error (errno set). */
int pprof_end(struct pprof_enc *e);

/* TICKS / RATE seconds in nanoseconds, rounded, exact in integers; past
 * INT64_MAX: that, with *CLAMPED incremented. */
int64_t pprof_nanos(uint64_t ticks, uint32_t rate, uint64_t *clamped);

#endif
