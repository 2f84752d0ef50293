/*
 * check.h - what the fuzz harnesses of the views share: CHECK, which
 * aborts naming the condition that failed, a lower-case hex digit's
 * value, and the undoing of the names' own escapes.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

/* The value of the lower-case hex digit C; anything else fails. */
static inline int
hexval(unsigned char c)
{
	CHECK((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/*
 * S (N bytes) with the escapes of --json's and --pprof's names undone
 * into OUT (N bytes room): "\\" a backslash, "\xNN" the byte NN, which
 * must be one that is not part of valid UTF-8 (0x80 or more); any other
 * backslash fails.  Returns the length of OUT.
 */
static inline size_t
unescape(const unsigned char *s, size_t n, unsigned char *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; m++) {
		if (s[i] != '\\') {
			out[m] = s[i++];
			continue;
		}
		CHECK(i + 1 < n);
		if (s[i + 1] == '\\') {
			out[m] = '\\';
			i += 2;
			continue;
		}
		CHECK(s[i + 1] == 'x' && i + 3 < n);
		out[m] = (unsigned char)(hexval(s[i + 2]) << 4 |
		    hexval(s[i + 3]));
		CHECK(out[m] >= 0x80);
		i += 4;
	}
	return m;
}

#endif
