/*
 * output.h - the report, held back until it is complete.
 *
 * Reports are printed with stdio into an unlinked temporary file
 * ($TMPDIR or /tmp) and copied to the descriptor by out_finish, so that an
 * error found late leaves none of their bytes on standard output.
 * Nothing is ever cut back, as bytes after ours may be another writer's.
 * Only /dev/null gets the report as it comes, and, when no temporary
 * file can be made, anything else: an error then leaves what was
 * written, and out_discard says on standard error that it is incomplete.
 */
#ifndef RP_OUTPUT_H
#define RP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct out {
	int fd;
	FILE *f;		/* the temporary file, or the descriptor's stream */
	int held;		/* F is the temporary file */
	int unheld;		/* no temporary file could be made */
	int partial;		/* part of an unfinished report is out */
	char *note;		/* for standard error after the report, or NULL */
};

void out_init(struct out *o, int fd);

/* N raw bytes at S. */
void out_str(struct out *o, const char *s, size_t n);

/* printf(3) into the report. */
void out_printf(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * A warning about the report, written on standard error (prefixed
 * "readprofile: ") by out_finish once the report is out; an empty one
 * is none.  A later note replaces an earlier one.
 */
void out_note(struct out *o, const char *msg);

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
