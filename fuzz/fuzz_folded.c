/*
 * fuzz_folded.c - --folded's frames for any bytes: the line written for a
 * function named by the input, "NAME 4", read by flamegraph.pl's rule
 * (the count is the number after the line's last blank, a second count
 * before it makes a differential line), is one frame and the one count
 * 4: no ';', no newline but the last, no count in the frame; and the
 * frame, its \xNN escapes decoded, is the name again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/output.h"
#include "views/view.h"
#include "check.h"

/* Perl's \s on bytes. */
static int
blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Whether S[0..N) matches \d+(?:\.\d*)? whole. */
static int
number(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 0)
		return 0;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	return i == n;
}

/* flamegraph.pl's split of S[0..N): the length of the frame part (before
 * the last blank) when a count follows it, else -1. */
static long
split_count(const unsigned char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && !blank(s[i - 1]))
		i--;
	if (i == 0 || !number(s + i, n - i))
		return -1;
	return (long)i - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = NULL;
	size_t blen = 0, m = 0;
	struct out o = { .f = open_memstream(&buf, &blen) };
	const unsigned char *q;
	unsigned char *back;
	long frame;

	CHECK(o.f != NULL);
	folded_name(&o, (const char *)data, size);
	out_str(&o, " 4\n", 3);
	CHECK(fclose(o.f) == 0);
	q = (const unsigned char *)buf;
	CHECK(blen >= 3 && q[blen - 1] == '\n');
	CHECK(memchr(q, '\n', blen - 1) == NULL);
	CHECK(memchr(q, ';', blen) == NULL);
	frame = split_count(q, blen - 1);
	CHECK(frame >= 0 && (size_t)frame == blen - 3);	/* the count is 4 */
	CHECK(split_count(q, (size_t)frame) < 0);	/* and the only one */
	CHECK(size == 0 || q[0] != '[');	/* never a frame of no function */
	back = malloc((size_t)frame + 1);
	for (size_t i = 0; i < (size_t)frame;) {
		if (q[i] == '\\') {
			CHECK(i + 3 < (size_t)frame && q[i + 1] == 'x');
			back[m++] = (unsigned char)(hexval(q[i + 2]) << 4 |
			    hexval(q[i + 3]));
			i += 4;
		} else
			back[m++] = q[i++];
	}
	CHECK(m == size && memcmp(back, data, size) == 0);
	free(back);
	free(buf);
	return 0;
}
