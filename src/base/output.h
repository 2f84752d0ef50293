/*
 * output.h - the report formats, written through a buffer.
 *
 * Every line is formatted by hand, byte for byte as the printf formats of
 * the classic tool would write it (fmt.h holds the number formatting).
 * The report is held back until it is complete, so that an error found
 * late leaves none of its bytes on standard output: a small one in
 * memory, a large one in an unlinked temporary file ($TMPDIR or /tmp).
 * Nothing is ever cut back, as bytes after ours may be another writer's.
 * Only /dev/null gets it as it comes, and, when no temporary file can be
 * made, anything else: an error then leaves what was written, and
 * out_discard says on standard error that it is incomplete.
 */
#ifndef RP_OUTPUT_H
#define RP_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct out {
	int fd;
	char *buf;
	size_t len, cap;
	int spill;		/* temporary file, or -1 */
	int direct;		/* written as it comes (/dev/null, no temp file) */
	int partial;		/* part of an unfinished report is out */
};

void out_init(struct out *o, int fd);

/* "%6u %-40s %8.4f\n" */
void out_sym(struct out *o, uint64_t ticks, const char *name, size_t nlen,
    double load);
/* "%016llx %-40s %6u %8.4f\n" */
void out_sym_verbose(struct out *o, uint64_t addr, const char *name,
    size_t nlen, uint64_t ticks, double load);
/* "\t%#llx\t%s+%#llx\t%u\n" */
void out_counter(struct out *o, uint64_t addr, const char *name, size_t nlen,
    uint64_t off, uint32_t count);
/* "%s:\n" */
void out_bin_header(struct out *o, const char *name, size_t nlen);
/* "\t%llx\t%u\n" */
void out_bin(struct out *o, uint64_t addr, uint32_t count);
/* "  total\t\t\t\t%u\n" */
void out_bin_total(struct out *o, uint64_t ticks);
/*
 * The -v line of a process profile: "%016llx %-40s %6u %8.4f %10.Nf",
 * the seconds TICKS / RATE with N the decimals that show them exactly (2
 * at 100 Hz, 3 at 1000 Hz; 6, rounded, if none do); then, with CALLS,
 * " %8llu" the calls; then a newline.
 */
void out_sym_seconds(struct out *o, uint64_t addr, const char *name,
    size_t nlen, uint64_t ticks, double load, uint32_t rate,
    const uint64_t *calls);
/* Those seconds, unpadded, into DST (FMT_MAX bytes); returns the length. */
size_t fmt_seconds(char *dst, uint64_t ticks, uint32_t rate);
/* "%6u *unknown*\n" */
void out_unknown(struct out *o, uint64_t count);
/* the total line, plain or verbose (address 0) */
void out_total(struct out *o, uint64_t total, double load, int verbose);
/* raw text */
void out_str(struct out *o, const char *s, size_t n);

/*
 * Write everything held to the descriptor.  Returns 0, or -1 with errno
 * set; EPIPE is the reader's choice and is not reported by callers.
 */
int out_finish(struct out *o);

/*
 * Drop what is held (on a fatal error); when part of the report was
 * written already, say so on standard error.
 */
void out_discard(struct out *o);

#endif
