/*
 * output.h - the report, written with stdio as it is made, as util-linux
 * writes it: no file holds it.  What can be checked before the first line
 * is checked then; an error found later leaves the report so far where
 * it went, and out_discard (a fatal error's hook) says on standard error
 * that the report above is incomplete.  A reader that stops reading
 * (EPIPE) ends the run quietly, with status 0.
 */
#ifndef RP_OUTPUT_H
#define RP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct out {
	FILE *f;		/* stdout for descriptor 1, else a stream of a dup */
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

/* Flush the report: 0, or -1 with errno set (EPIPE, the reader's
 * choice, is not reported by callers). */
int out_finish(struct out *o);

/* On a fatal error, after its message: when part of the report is out,
 * say on standard error that the report above is incomplete. */
void out_discard(struct out *o);

#endif
