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

/* Swap the SIZE bytes at A and B. */
static void
swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	while (size-- > 0) {
		unsigned char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Move element I of the heap V[0..n) down to its place. */
static void
sift_down(unsigned char *v, size_t i, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && cmp(v + c * size, v + (c + 1) * size, ctx) < 0)
			c++;
		if (cmp(v + i * size, v + c * size, ctx) >= 0)
			return;
		swap_bytes(v + i * size, v + c * size, size);
		i = c;
	}
}

void
heap_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx)
{
	unsigned char *v = base;

	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n, size, cmp, ctx);
	while (n > 1) {
		n--;
		swap_bytes(v, v + n * size, size);
		sift_down(v, 0, n, size, cmp, ctx);
	}
}
