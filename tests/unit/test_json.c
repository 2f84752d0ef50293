/*
 * test_json.c - JSON strings for any bytes: fixed cases, and random byte
 * strings decoded back by a separate decoder (JSON escapes, then the
 * documented "\\" and "\xNN" layer) to the bytes they came from.
 */
#include "unit.h"
#include <fcntl.h>

#include "views/view.h"

/* json_str() of S, as a C string. */
static char *
quoted(const char *s, size_t n)
{
	char *r = NULL;
	size_t len = 0;
	struct out o = { .f = open_memstream(&r, &len) };

	assert_non_null(o.f);
	json_str(&o, s, n);
	assert_int_equal(fclose(o.f), 0);
	return r;
}

static void
expect(const char *in, size_t n, const char *want)
{
	char *got = quoted(in, n);

	assert_string_equal(got, want);
	free(got);
}

static void
fixed_cases(void **state)
{
	(void)state;
	expect("vsnprintf", 9, "\"vsnprintf\"");
	expect("", 0, "\"\"");
	expect("a\"b", 3, "\"a\\\"b\"");
	expect("a\\b", 3, "\"a\\\\\\\\b\"");		/* decoded: a\\b */
	expect("\x01\x1f\x7f\n\t", 5, "\"\\u0001\\u001f\\u007f\\n\\t\"");
	expect("\0", 1, "\"\\u0000\"");
	expect("\xc3\xa9t\xc3\xa9", 5, "\"\xc3\xa9t\xc3\xa9\"");	/* été */
	expect("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");	/* U+1F600 */
	expect("\xff", 1, "\"\\\\xff\"");
	expect("\xc3", 1, "\"\\\\xc3\"");			/* cut short */
	expect("\xc0\xaf", 2, "\"\\\\xc0\\\\xaf\"");		/* overlong */
	expect("\xed\xa0\x80", 3, "\"\\\\xed\\\\xa0\\\\x80\"");	/* surrogate */
	expect("\xf4\x90\x80\x80", 4,
	    "\"\\\\xf4\\\\x90\\\\x80\\\\x80\"");		/* > U+10FFFF */
	expect("\xe2\x82", 2, "\"\\\\xe2\\\\x82\"");
	expect("a\xe2\x82\xac", 4, "\"a\xe2\x82\xac\"");	/* a€ */
}

static int
hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/* Decode the JSON string Q (quoted) into bytes; return the length. */
static size_t
json_decode(const char *q, unsigned char *out)
{
	size_t n = 0, len = strlen(q);
	unsigned char *tmp = malloc(len + 1);
	size_t t = 0;

	assert_true(len >= 2 && q[0] == '"' && q[len - 1] == '"');
	for (size_t i = 1; i < len - 1; i++) {
		unsigned char c = (unsigned char)q[i];

		assert_true(c >= 0x20 && c != 0x7f);	/* no raw controls */
		assert_true(c != '"');
		if (c != '\\') {
			tmp[t++] = c;
			continue;
		}
		c = (unsigned char)q[++i];
		switch (c) {
		case '"': case '\\': case '/': tmp[t++] = c; break;
		case 'n': tmp[t++] = '\n'; break;
		case 't': tmp[t++] = '\t'; break;
		case 'r': tmp[t++] = '\r'; break;
		case 'b': tmp[t++] = '\b'; break;
		case 'f': tmp[t++] = '\f'; break;
		case 'u': {
			int v = 0;
			for (int j = 0; j < 4; j++)
				v = v * 16 + hexval(q[++i]);
			assert_true(v < 0x80);	/* only controls are escaped */
			tmp[t++] = (unsigned char)v;
			break;
		}
		default:
			fail_msg("bad escape \\%c", c);
		}
	}
	/* the second layer: "\\" a backslash, "\xNN" a raw byte */
	for (size_t i = 0; i < t; i++) {
		if (tmp[i] != '\\') {
			out[n++] = tmp[i];
			continue;
		}
		assert_true(i + 1 < t);
		if (tmp[i + 1] == '\\') {
			out[n++] = '\\';
			i++;
		} else {
			assert_true(tmp[i + 1] == 'x' && i + 3 < t);
			out[n++] = (unsigned char)(hexval(tmp[i + 2]) * 16 +
			    hexval(tmp[i + 3]));
			i += 3;
		}
	}
	free(tmp);
	return n;
}

/* Whether S[0..n) is valid UTF-8 (a separate, table-free check). */
static int
valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned cp, need;
		if (s[i] < 0x80) { i++; continue; }
		if ((s[i] & 0xe0) == 0xc0) { cp = s[i] & 0x1f; need = 1; }
		else if ((s[i] & 0xf0) == 0xe0) { cp = s[i] & 0x0f; need = 2; }
		else if ((s[i] & 0xf8) == 0xf0) { cp = s[i] & 0x07; need = 3; }
		else return 0;
		for (unsigned j = 1; j <= need; j++) {
			if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
		    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

static void
random_bytes_round_trip(void **state)
{
	static const unsigned char pick[] = { 0x00, 0x01, 0x1f, 0x20, '"',
	    '\\', 'x', 'a', 0x7f, 0x80, 0xbf, 0xc2, 0xc3, 0xe0, 0xed, 0xef,
	    0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f, 0x90, 0x8f };
	unsigned char in[64], back[64 * 8];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int round = 0; round < 200000; round++) {
		size_t n = 0, len;
		char *q;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = (size_t)(x % 12);
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = x & 1 ? pick[(x >> 1) % sizeof pick] :
			    (unsigned char)(x >> 8);
		}
		q = quoted((const char *)in, len);
		assert_true(valid_utf8((const unsigned char *)q, strlen(q)));
		n = json_decode(q, back);
		assert_int_equal(n, len);
		assert_memory_equal(back, in, len);
		free(q);
	}
}

static void
long_name(void **state)
{
	size_t n = 10000;
	char *in = malloc(n), *q;
	unsigned char *back = malloc(n);

	(void)state;
	for (size_t i = 0; i < n; i++)
		in[i] = (char)(i % 7 == 0 ? 0xff : 'a' + i % 26);
	q = quoted(in, n);
	assert_int_equal(json_decode(q, back), n);
	assert_memory_equal(back, in, n);
	free(q);
	free(in);
	free(back);
}

/* folded_name() of S, as a C string. */
static char *
folded(const char *s)
{
	char *r = NULL;
	size_t len = 0;
	struct out o = { .f = open_memstream(&r, &len) };

	assert_non_null(o.f);
	folded_name(&o, s, strlen(s));
	assert_int_equal(fclose(o.f), 0);
	return r;
}

/* A name that ends in a blank and a number would give flamegraph.pl a
 * count of its own: that blank is \x20; other blanks stay. */
static void
folded_frames(void **state)
{
	static const char *c[][2] = {
		{ "x 12", "x\\x2012" }, { "x 1.5", "x\\x201.5" },
		{ "f 1.5 2", "f 1.5\\x202" }, { "x 12.", "x\\x2012." },
		{ "x  7", "x \\x207" }, { "operator new(unsigned long)",
		    "operator new(unsigned long)" }, { "a b", "a b" },
		{ "v 2a", "v 2a" }, { "x .", "x ." }, { "x ", "x " },
		{ "a;b\\c", "a\\x3bb\\x5cc" }, { "[unknown]", "\\x5bunknown]" },
		{ "a[1]", "a[1]" }, { "t\tab", "t\\x09ab" },
		{ "\xc3\xa9t\xc3\xa9 2", "\xc3\xa9t\xc3\xa9\\x202" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *got = folded(c[i][0]);

		assert_string_equal(got, c[i][1]);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_cases),
		cmocka_unit_test(random_bytes_round_trip),
		cmocka_unit_test(long_name),
		cmocka_unit_test(folded_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
