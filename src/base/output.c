/* output.c - the report to its descriptor, with stdio, as it is made. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/output.h"
#include "base/util.h"

void
out_init(struct out *o, int fd)
{
	*o = (struct out){ .f = fd == STDOUT_FILENO ? stdout :
	    fdopen(dup(fd), "w") };
	if (o->f == NULL)
		fatal("standard output");
}

/* A write error: the reader gone away ends the run quietly; else fatal,
 * and what was not written is not a report to call incomplete. */
static void
write_failed(struct out *o)
{
	if (!ferror(o->f))
		return;
	if (errno == EPIPE)
		exit(0);
	o->partial = 0;
	fatal("write error");
}

void
out_str(struct out *o, const char *s, size_t n)
{
	if (n && fwrite_unlocked(s, 1, n, o->f) != n)
		write_failed(o);
	o->partial = 1;
}

void
out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		write_failed(o);
	va_end(ap);
	o->partial = 1;
}

void
out_note(struct out *o, const char *msg)
{
	free(o->note);
	o->note = msg[0] ? xasprintf("%s", msg) : NULL;
}

int
out_finish(struct out *o)
{
	o->partial = 0;	/* out, or a write error: no report to call cut short */
	if (fflush(o->f) != 0)
		return -1;
	if (o->note != NULL)	/* once the report is out */
		warnx_("%s", o->note);
	out_note(o, "");
	return 0;
}

void
out_discard(struct out *o)
{
	if (o->f == NULL)
		return;
	out_note(o, "");
	if (o->f != stdout)
		fclose(o->f);
	else if (fflush(o->f) == 0 && o->partial)
		warnx_("the report above is incomplete");
	o->f = NULL;
	o->partial = 0;
}
