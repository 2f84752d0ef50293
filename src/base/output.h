/*
 * output.h - the report, held back until it is complete: printed with
 * stdio into an unlinked temporary file ($TMPDIR or /tmp), copied to the
 * descriptor by out_finish, so that an error found late leaves none of
 * its bytes on standard output (nothing is cut back: bytes after ours may
 * be another writer's).  Only /dev/null gets it as it comes, and anything
 * when no temporary file can be made: an error then leaves what was
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

/* A warning for out_finish to write on standard error ("readprofile: "
 * first) once the report is out; "" is none; the last one set counts. */
void out_note(struct out *o, const char *msg);

/* Write everything held to the descriptor: 0, or -1 with errno set
 * (EPIPE, the reader's choice, is not reported by callers). */
int out_finish(struct out *o);

/* Drop what is held (on a fatal error); when part of the report was
 * written already, say so on standard error. */
void out_discard(struct out *o);

#endif
