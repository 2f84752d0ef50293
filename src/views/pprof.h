/*
 * pprof.h - the report as a pprof profile (profile.proto).
 *
 * The profile is encoded here (a small protobuf writer) and wrapped in
 * gzip as pprof writes its files: one gzip member of stored deflate
 * blocks (no compression: no zlib), with its CRC-32.  A flat histogram
 * fits the format as one-frame samples:
 *   - sample types samples/count, then cpu/nanoseconds when the tick
 *     rate is known (pprof shows the last one by default);
 *   - one Function per reported function with ticks (name demangled by
 *     the rename hook, system_name as the map spells it);
 *   - one Location per function, at its start address, or with buckets
 *     one per non-zero bucket credited to it, at the bucket's address;
 *   - one Sample per Location; one Mapping for the text.
 */
#ifndef RP_PPROF_H
#define RP_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "core/collect.h"
#include "core/report.h"
#include "base/output.h"
#include "sym/notes.h"

struct pprof_info {
	const char *map;		/* the Mapping's file name */
	uint64_t start, limit, file_offset;
	struct build_id build_id;	/* written as hex; n 0: none */
	uint32_t rate;			/* ticks per second; 0: unknown */
	int64_t time_nanos;		/* when the profile was taken */
	const char *const *comments;
	size_t ncomments;
	int buckets;			/* -s, -b: a Location per bucket */
	const char *(*rename)(const char *name, size_t len, size_t *outlen);
};

/*
 * The profile of the collected functions K (address order) over counters
 * C as RES places them: gzip bytes, malloc'd, their length in *LEN.
 */
unsigned char *pprof_encode(const struct collect *k,
    const struct report_result *res, const struct counters *c,
    const struct pprof_info *in, size_t *len);

/* The N bytes at P as one gzip member of stored blocks (malloc'd). */
unsigned char *gzip_stored(const unsigned char *p, size_t n, size_t *len);


/*
 * A file written whole or not at all: created at once under a temporary
 * name beside NAME (so that an unwritable place is an error before any
 * work), renamed to NAME when complete, removed on any error or exit
 * before that.  Fatal, naming NAME, when it cannot be created.
 */
void outfile_open(const char *name);
/* Write the N bytes at P, then rename; fatal on error. */
void outfile_commit(const unsigned char *p, size_t n);
/* Remove the temporary file if there is one (from a fatal error's hook). */
void outfile_abort(void);

#endif
