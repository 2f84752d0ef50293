/*
 * run.h - one run of the program, described once: the options as parsed
 * (cli/options.c fills them), and what main, interval.c and gmonrun.c learn
 * of the inputs.  The report (core/report.c) and every view read it; only
 * cli writes it.
 */
#ifndef RP_CORE_RUN_H
#define RP_CORE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "base/outfile.h"
#include "base/output.h"
#include "core/attrib.h"
#include "core/collect.h"
#include "hist/gmon.h"

/* The command line, parsed. */
struct options {
	const char *mapfile;	/* NULL: the default search */
	const char *profile;
	const char *baseline;	/* NULL: none */
	int info, verbose, all, bins, counters, reset, noauto, exact, json;
	int folded, no_demangle, multiplier_set, multiplier;
	size_t top;		/* --top N; 0: none */
	const char *enable;	/* --enable[=ARG]; NULL: none */
	double interval;	/* --interval SECONDS; 0: none */
	unsigned long iterations; /* --iterations N; 0: until stopped */
	const char *name;	/* the name it was run by: messages, usage */
	const char *pprof;	/* --pprof FILE ("-": stdout); NULL: none */
	unsigned long hz;	/* --hz N: ticks per second; 0: unknown */
	int argc;		/* the command line, for --pprof's comment */
	char *const *argv;
};

/* --interval: the read a report is of. */
struct run_read {
	uint64_t number;	/* 1, 2, ... */
	const char *time;	/* when it was read */
	double seconds;		/* since the previous read */
	int reset;		/* a counter went down */
};

struct kfiles;			/* cli/kroot.h: read by cli alone */
struct counted;			/* hist/profile.h */
struct report_hist;		/* core/report.h */
struct report_result;

struct run {
	const struct options *o;
	struct out *out;	/* standard output; dropped on a fatal error */
	struct outfile *pprof;	/* --pprof's file; dropped on a fatal error */
	const struct kfiles *k;	/* the running kernel's files */
	int live;		/* the profile is the running kernel's own */
	const char *profile;	/* the file read: K's when the live one */
	const char *map;	/* the map, once chosen */
	uint32_t step;		/* once read (or inferred from the map) */
	int swapped;		/* the byte order was found reversed */
	const struct counted *counting;	/* what the live counters count
					 * (hist/profile.h); else NULL */
	const struct run_read *read;	/* --interval's; else NULL */
	const struct gmon *gmon;	/* a gmon.out read, else NULL */
	const struct report_hist *hist;	/* its histogram, else NULL */
	struct gmon_graph *arcs;	/* its call arcs for --pprof, or NULL */
	/* a gmon.out's: told once the report is walked, before a collected
	 * view is printed; else NULL */
	void (*walked)(const struct run *r, const struct report_result *res);
	const void *walked_ctx;
	/* the report being made, set by cli's run_report for it: */
	struct collect *collect;	/* --top, --json collect here; or NULL */
	/* NULL, or the name to print (demangled), valid to the next call */
	const char *(*rename)(void *ctx, const char *name, size_t len,
	    size_t *outlen);
	void *rename_ctx;
	/* NULL, or told the names the rename hook will be asked next, in
	 * order (NULL: a new batch), to make them at once (core/batch.h) */
	void (*ahead)(void *ctx, const char *name, size_t len);
	int last_is_text;	/* exact: the last counter is a text bucket */
};

/* How R's counters are credited: a histogram's, --exact, or classic. */
enum attrib_mode run_mode(const struct run *r);

/* "little-endian" or "big-endian": R's profile's byte order. */
const char *run_byte_order(const struct run *r);

#endif
