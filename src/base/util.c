/* util.c - err(3)-style diagnostics and checked allocation. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void (*hook)(void *);
static void *hook_ctx;
/* The name every message starts with: the one the program runs by. */
static char progname[65] = PROGNAME;

char *
prog_name_set(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n >= sizeof progname)
		name = PROGNAME, n = strlen(PROGNAME);
	memcpy(progname, name, n + 1);
	return progname;
}

const char *
prog_name(void)
{
	return progname;
}

void
fatal_hook_set(void (*fn)(void *), void *ctx)
{
	hook = fn;
	hook_ctx = ctx;
}

/* "NAME: MSG" below what the report has written so far, so that the two
 * keep their order in one file (>log 2>&1). */
static void
vmsg(const char *fmt, va_list ap, int errnum)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

/* The report so far out, "NAME: MSG" (with ERRNUM's text, when not 0)
 * below it, the hook, exit. */
static _Noreturn void
vfatal(const char *fmt, va_list ap, int errnum)
{
	vmsg(fmt, ap, errnum);
	if (hook)
		hook(hook_ctx);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfatal(fmt, ap, 0);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vfatal(fmt, ap, e);
}

void
warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

#define WRAP_COLUMNS 80
void
say_wrapped(const char *head, const char *indent, const char *text,
    int fatal_)
{
	const char *lead = head;

	fflush(stdout);	/* below the report so far, as vmsg */
	while (*text == ' ')
		text++;
	while (*text != '\0') {
		size_t width = WRAP_COLUMNS - strlen(progname) - 2 -
		    strlen(lead), n = strlen(text);

		if (n > width) {
			n = width;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = strcspn(text, " ");
		}
		fprintf(stderr, "%s: %s%.*s\n", progname, lead, (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		lead = indent;
	}
	if (fatal_ && hook)
		hook(hook_ctx);
	if (fatal_)
		exit(1);
}

static char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		fatalx("out of memory");
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void
fatalx_hint(const char *fmt, ...)
{
	char text[8192];	/* on the stack: nothing to free at exit */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	say_wrapped("hint: ", "      ", text, 1);
	exit(1);	/* say_wrapped has exited */
}

void *
xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		fatalx("out of memory");
	return p;
}

void
swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	while (size-- > 0) {
		unsigned char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

void
heap_sift_down(const struct heap *h, size_t i, size_t n)
{
	unsigned char *v = h->base;
	size_t size = h->size;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n &&
		    h->cmp(v + c * size, v + (c + 1) * size, h->ctx) < 0)
			c++;
		if (h->cmp(v + i * size, v + c * size, h->ctx) >= 0)
			return;
		swap_bytes(v + i * size, v + c * size, size);
		i = c;
	}
}

void
heap_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx)
{
	struct heap h = { base, size, cmp, ctx };

	for (size_t i = n / 2; i-- > 0;)
		heap_sift_down(&h, i, n);
	while (n > 1) {
		n--;
		swap_bytes(base, (unsigned char *)base + n * size, size);
		heap_sift_down(&h, 0, n);
	}
}
