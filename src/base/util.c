/*
 * util.c - err(3)-style diagnostics and checked allocation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void (*fatal_hook)(void);

static void
vmsg(const char *fmt, va_list ap, int errnum)
{
	fputs(PROGNAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook)
		fatal_hook();
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	exit(1);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	if (fatal_hook)
		fatal_hook();
	va_start(ap, fmt);
	vmsg(fmt, ap, e);
	va_end(ap);
	exit(1);
}

void
warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		fatalx("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		fatalx("out of memory");
	return p;
}
