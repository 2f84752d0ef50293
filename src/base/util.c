/*
 * util.c - err(3)-style diagnostics and checked allocation.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void (*fatal_hook)(void);

/* This thread's messages are held here, not printed (msg_hold). */
static _Thread_local struct msghold *held;

void
msg_hold(struct msghold *h)
{
	held = h;
}

/* Append to the held text; a failed allocation leaves it cut short. */
static void
hold_vadd(const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (held->len + (size_t)n + 1 > held->cap) {
		size_t cap = (held->len + (size_t)n + 1) * 2;
		char *t = realloc(held->text, cap);

		if (t == NULL)
			return;
		held->text = t;
		held->cap = cap;
	}
	vsnprintf(held->text + held->len, (size_t)n + 1, fmt, ap);
	held->len += (size_t)n;
}

static void
hold_add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hold_vadd(fmt, ap);
	va_end(ap);
}

static void
vmsg(const char *fmt, va_list ap, int errnum)
{
	if (held != NULL) {
		hold_add("%s", PROGNAME ": ");
		hold_vadd(fmt, ap);
		if (errnum)
			hold_add(": %s", strerror(errnum));
		hold_add("\n");
		return;
	}
	fputs(PROGNAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

/* A fatal error of a thread whose messages are held: back to its start. */
static void
held_fatal(void)
{
	if (held != NULL)
		longjmp(held->jb, 1);
}

void
msg_replay_fatal(const char *text, size_t n)
{
	if (fatal_hook)
		fatal_hook();
	fwrite(text, 1, n, stderr);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	if (held == NULL && fatal_hook)
		fatal_hook();
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	held_fatal();
	exit(1);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	if (held == NULL && fatal_hook)
		fatal_hook();
	va_start(ap, fmt);
	vmsg(fmt, ap, e);
	va_end(ap);
	held_fatal();
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
