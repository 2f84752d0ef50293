/*
 * fuzz_json.c - libFuzzer harness for JSON strings (--json names).
 *
 * Any bytes given to json_str() must come out as one JSON string in valid
 * UTF-8, with no raw control character, that decodes (JSON escapes, then
 * the documented "\\" and "\xNN" layer) back to exactly those bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/output.h"
#include "views/view.h"
#include "check.h"

/* The length of the UTF-8 sequence at S (N left), checked strictly. */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f;
	else {
		CHECK((s[0] & 0xf8) == 0xf0);
		len = 4, cp = s[0] & 0x07;
	}
	CHECK(n >= len);
	for (size_t i = 1; i < len; i++) {
		CHECK((s[i] & 0xc0) == 0x80);
		cp = cp << 6 | (s[i] & 0x3f);
	}
	CHECK(len != 2 || cp >= 0x80);
	CHECK(len != 3 || cp >= 0x800);
	CHECK(len != 4 || cp >= 0x10000);
	CHECK(cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff));
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = NULL;
	size_t blen = 0;
	struct out o = { .f = open_memstream(&buf, &blen) };
	const unsigned char *q;
	unsigned char *mid, *back;
	size_t n, m = 0, b;

	CHECK(o.f != NULL);
	json_str(&o, (const char *)data, size);
	CHECK(fclose(o.f) == 0);
	q = (const unsigned char *)buf;
	n = blen;
	CHECK(n >= 2 && q[0] == '"' && q[n - 1] == '"');
	mid = malloc(n);
	back = malloc(n + 1);
	/* first layer: JSON */
	for (size_t i = 1; i < n - 1;) {
		CHECK(q[i] >= 0x20 && q[i] != 0x7f && q[i] != '"');
		if (q[i] != '\\') {
			size_t len = utf8_seq(q + i, n - 1 - i);
			memcpy(mid + m, q + i, len);
			m += len;
			i += len;
			continue;
		}
		CHECK(i + 1 < n - 1);
		switch (q[i + 1]) {
		case '\\': mid[m++] = '\\'; i += 2; break;
		case '"': mid[m++] = '"'; i += 2; break;
		case 'n': mid[m++] = '\n'; i += 2; break;
		case 't': mid[m++] = '\t'; i += 2; break;
		case 'u':
			CHECK(i + 5 < n - 1 && q[i + 2] == '0' && q[i + 3] == '0');
			mid[m++] = (unsigned char)(hexval(q[i + 4]) * 16 +
			    hexval(q[i + 5]));
			CHECK(mid[m - 1] < 0x20 || mid[m - 1] == 0x7f);
			i += 6;
			break;
		default:
			CHECK(0);
		}
	}
	/* second layer: "\\" a backslash, "\xNN" a byte */
	b = unescape(mid, m, back);
	CHECK(b == size && memcmp(back, data, size) == 0);
	free(mid);
	free(back);
	free(buf);
	return 0;
}
