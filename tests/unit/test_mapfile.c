/*
 * test_mapfile.c - map line parsing, the type classes, the line reader.
 */
#include <errno.h>

#include "unit.h"
#include "sym/mapfile.h"
#include "sym/symsrc.h"

static int
parse(const char *line, struct sym *s)
{
	return map_parse_line(line, line + strlen(line), s);
}

static void
name_is(const struct sym *s, const char *want)
{
	assert_int_equal(s->namelen, strlen(want));
	assert_memory_equal(s->name, want, s->namelen);
}

static void
parses_nm_and_kallsyms_lines(void **state)
{
	struct sym s;

	(void)state;
	assert_int_equal(parse("ffffffff81000000 T _stext", &s), 0);
	assert_true(s.addr == 0xffffffff81000000ull);
	assert_int_equal(s.kind, SYM_TEXT);
	name_is(&s, "_stext");
	assert_true(sym_is_stext(&s));

	/* kallsyms' module field follows a tab: like util-linux, a name ends
	 * only at a space, so the tab and the module are part of it */
	assert_int_equal(parse("ffffffffc0a01000 t init_module\t[ext4]", &s), 0);
	name_is(&s, "init_module\t[ext4]");
	assert_int_equal(s.kind, SYM_TEXT);
	assert_int_equal(parse("ffffffffc0a01000 t init_module [ext4]", &s), 0);
	name_is(&s, "init_module");

	/* leading blanks of any kind; upper-case hex; a CR stays in the name */
	assert_int_equal(parse("  \t00000000DEADBEEF W weak_fn\r", &s), 0);
	assert_true(s.addr == 0xdeadbeefull);
	name_is(&s, "weak_fn\r");
	/* blanks of any kind before a field */
	assert_int_equal(parse("1000\tT \t\vname", &s), 0);
	name_is(&s, "name");
}

static void
fields_split_like_util_linux(void **state)
{
	struct sym s;

	(void)state;
	/* the type ends at a space only, and after 7 bytes */
	assert_int_equal(parse("1000 T\tname", &s), -1);
	assert_int_equal(parse("1000 TT name", &s), 0);
	name_is(&s, "name");
	assert_int_equal(parse("1000 T\t_etext", &s), 0);	/* type "T\t_etex" */
	name_is(&s, "t");
	assert_int_equal(s.kind, SYM_TEXT);
	assert_int_equal(parse("1000 Dabcdefgh", &s), 0);	/* type "Dabcdef" */
	name_is(&s, "gh");
	assert_int_equal(s.kind, SYM_OTHER);
	/* a name ends at a space; the rest of the line is ignored */
	assert_int_equal(parse("1000 T a\tb c d", &s), 0);
	name_is(&s, "a\tb");
	/* the address ends at the first non-hex byte, the type follows */
	assert_int_equal(parse("1004g T a", &s), 0);
	assert_true(s.addr == 0x1004);
	name_is(&s, "T");
	assert_int_equal(s.kind, SYM_OTHER);
}

static void
address_like_strtoull(void **state)
{
	struct sym s;

	(void)state;
	assert_int_equal(parse("0x1000 T a", &s), 0);
	assert_true(s.addr == 0x1000);
	assert_int_equal(parse("+10 T a", &s), 0);
	assert_true(s.addr == 0x10);
	assert_int_equal(parse("-1 T a", &s), 0);
	assert_true(s.addr == UINT64_MAX);
	assert_int_equal(parse("123456789abcdef0123 T a", &s), 0);
	assert_true(s.addr == UINT64_MAX);	/* saturates */
	/* "0x" without a digit after it: the address is 0, "x" the type */
	assert_int_equal(parse("0xg T", &s), 0);
	assert_true(s.addr == 0);
	name_is(&s, "T");
	/* the address ends at the first non-hex character */
	assert_int_equal(parse("1000T name", &s), 0);
	assert_true(s.addr == 0x1000);
	name_is(&s, "name");
}

/* Addresses against strtoull, edge bytes (blanks, signs, 0x) in every place. */
static void
addresses_match_strtoull(void **state)
{
	static const char alphabet[] = "0123456789abcdefABCDEF/:@G`gxX \t-+\x80\xff";
	uint64_t r = 88172645463325252ull;
	char line[64];
	struct sym s;

	(void)state;
	for (int i = 0; i < 2000000; i++) {
		int len = 14 + (int)(r % 5), bad = (r >> 8) % 4 == 0;
		char *end;
		unsigned long long want;

		for (int k = 0; k < len; k++) {
			r ^= r << 13; r ^= r >> 7; r ^= r << 17;
			line[k] = bad ? alphabet[r % (sizeof alphabet - 1)]
			    : alphabet[r % 22];
		}
		strcpy(line + len, " T name");
		errno = 0;
		want = strtoull(line, &end, 16);
		if (end == line) {	/* no digit */
			if (map_parse_line(line, line + strlen(line), &s) == 0)
				fail_msg("\"%s\" accepted", line);
		} else if (map_parse_line(line, line + strlen(line), &s) == 0) {
			if (s.addr != want)
				fail_msg("\"%s\": %llx, strtoull %llx", line,
				    (unsigned long long)s.addr, want);
		} else {
			fail_msg("\"%s\" rejected", line);
		}
	}
}

static void
rejects_short_lines(void **state)
{
	struct sym s;

	(void)state;
	assert_int_equal(parse("", &s), -1);
	assert_int_equal(parse("   ", &s), -1);
	assert_int_equal(parse("zzzz T name", &s), -1);
	assert_int_equal(parse("1000", &s), -1);
	assert_int_equal(parse("1000 T", &s), -1);
	assert_int_equal(parse("1000 T   \r", &s), -1);
}

static void
nul_ends_the_text(void **state)
{
	static const char line[] = "1000 T name\0garbage";
	static const char early[] = "1000 T\0 name";
	struct sym s;

	(void)state;
	assert_int_equal(map_parse_line(line, line + sizeof line - 1, &s), 0);
	name_is(&s, "name");
	assert_int_equal(map_parse_line(early, early + sizeof early - 1, &s),
	    -1);
}

static void
type_classes(void **state)
{
	(void)state;
	assert_int_equal(map_kind('T'), SYM_TEXT);
	assert_int_equal(map_kind('t'), SYM_TEXT);
	assert_int_equal(map_kind('W'), SYM_TEXT);
	assert_int_equal(map_kind('w'), SYM_TEXT);
	assert_int_equal(map_kind('A'), SYM_ABS);
	assert_int_equal(map_kind('?'), SYM_ABS);
	assert_int_equal(map_kind('a'), SYM_OTHER);
	assert_int_equal(map_kind('D'), SYM_OTHER);
	assert_int_equal(map_kind('b'), SYM_OTHER);
	assert_int_equal(map_kind('r'), SYM_OTHER);
}

static void
stext_etext_names(void **state)
{
	struct sym s;

	(void)state;
	assert_int_equal(parse("1 T __stext", &s), 0);
	assert_true(sym_is_stext(&s));
	assert_int_equal(parse("1 T __etext", &s), 0);
	assert_true(sym_is_etext(&s));
	assert_int_equal(parse("1 T _etext_x", &s), 0);
	assert_false(sym_is_etext(&s));
	assert_int_equal(parse("1 T _stex", &s), 0);
	assert_false(sym_is_stext(&s));
}

static void
reader_counts_lines_and_takes_last_line_without_newline(void **state)
{
	static const char text[] = "1 A abs\n2 T _stext\n3 t b\n4 D d";
	struct map m;
	struct sym s;

	(void)state;
	map_open_mem(&m, "mem", text, sizeof text - 1);
	assert_int_equal(map_next(&m, &s), 1);
	assert_int_equal(s.kind, SYM_ABS);
	assert_int_equal(s.lineno, 1);
	assert_int_equal(map_next(&m, &s), 1);
	name_is(&s, "_stext");
	assert_int_equal(map_next(&m, &s), 1);
	assert_int_equal(map_next(&m, &s), 1);
	name_is(&s, "d");
	assert_int_equal(s.kind, SYM_OTHER);
	assert_int_equal(s.lineno, 4);
	assert_int_equal(map_next(&m, &s), 0);
	map_close(&m);
}

static void
long_names_are_kept_whole(void **state)
{
	size_t n = 10000;
	char *text = malloc(n + 32);
	struct map m;
	struct sym s;
	int k = sprintf(text, "ffffffff81000000 T ");

	(void)state;
	memset(text + k, 'x', n);
	strcpy(text + k + n, "\n");
	map_open_mem(&m, "mem", text, strlen(text));
	assert_int_equal(map_next(&m, &s), 1);
	assert_int_equal(s.namelen, n);
	map_close(&m);
	free(text);
}

/* What a map of N bytes, all 'a' but a NUL at NUL (when below N), is
 * taken for: not text, by a NUL byte or no line end in its first 64 KiB. */
static const struct sniff *
kind_of(size_t n, size_t nul)
{
	char *text = malloc(n);
	const struct sniff *k;
	struct map m;

	assert_non_null(text);
	memset(text, 'a', n);
	if (nul < n)
		text[nul] = '\0';
	map_open_mem(&m, "mem", text, n);
	k = m.kind;
	map_close(&m);
	free(text);
	return k;
}

static void
not_text_by_its_first_64_kib(void **state)
{
	(void)state;
	assert_null(kind_of(SNIFF_TEXT - 1, SIZE_MAX));
	assert_non_null(kind_of(SNIFF_TEXT, SIZE_MAX));
	assert_string_equal(kind_of(SNIFF_TEXT, SIZE_MAX)->what, "no line end");
	assert_string_equal(kind_of(10, 9)->what, "NUL bytes");
	assert_string_equal(kind_of(SNIFF_TEXT + 1, SNIFF_TEXT - 1)->what,
	    "NUL bytes");
	/* past the first 64 KiB a NUL is not looked for: text, for the
	 * line end at its start */
	assert_null(sniff_text(0, 1, SNIFF_TEXT));
	assert_int_equal(kind_of(SNIFF_TEXT + 1, SNIFF_TEXT)->not_text, 1);
	assert_string_equal(kind_of(SNIFF_TEXT + 1, SNIFF_TEXT)->what,
	    "no line end");
}

static void
read_blank_line(void *arg)
{
	static const char text[] = "1 T _stext\n\n";
	struct map m;
	struct sym s;

	(void)arg;
	map_open_mem(&m, "the.map", text, sizeof text - 1);
	while (map_next(&m, &s))
		;
}

static void
blank_line_is_a_wrong_map_line(void **state)
{
	(void)state;
	expect_fatal(read_blank_line, NULL, "the.map(2): wrong map line");
}

static void
read_file_lines(void *arg)
{
	struct symsrc m;
	struct sym s;

	if (symsrc_open(&m, arg) < 0)
		_exit(2);
	while (symsrc_next(&m, &s))
		;
}

static void
streams_files_across_buffer_edges(void **state)
{
	/* lines of growing length cross every read boundary */
	size_t cap = 1 << 22, len = 0, lines = 0;
	char *text = malloc(cap), *path;
	struct symsrc m;
	struct sym s;

	(void)state;
	while (len < (size_t)3 << 20) {
		size_t nl = lines % 700 + 1;
		len += (size_t)sprintf(text + len, "%zx T ", lines + 1);
		memset(text + len, 'n', nl);
		len += nl;
		text[len++] = '\n';
		lines++;
	}
	path = temp_file(text, len);
	assert_int_equal(symsrc_open(&m, path), 0);
	for (size_t i = 0; i < lines; i++) {
		assert_int_equal(symsrc_next(&m, &s), 1);
		assert_true(s.addr == i + 1);
		assert_int_equal(s.namelen, i % 700 + 1);
	}
	assert_int_equal(symsrc_next(&m, &s), 0);
	symsrc_close(&m);

	/* a line over the limit is refused, with its number */
	memset(text, 'y', MAP_MAX_LINE + 10);
	text[MAP_MAX_LINE + 10] = '\n';
	unlink(path);
	free(path);
	path = temp_file(text, MAP_MAX_LINE + 11);
	expect_fatal(read_file_lines, path, "(1): line longer than");
	unlink(path);
	free(path);
	free(text);
}

/* symsrc_hold and symsrc_rewind: a second pass over the same lines, from memory. */
static void
rewinds_to_the_first_line(void **state)
{
	size_t cap = 1 << 21, len = 0, lines = 0;
	char *text = malloc(cap), *path;
	struct symsrc m;
	struct sym s;

	(void)state;
	while (len < (size_t)1 << 20) {		/* several read chunks */
		len += (size_t)sprintf(text + len, "%zx T s%zu\n", lines + 1,
		    lines);
		lines++;
	}
	path = temp_file(text, len);
	assert_int_equal(symsrc_open(&m, path), 0);
	symsrc_hold(&m);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < lines; i++) {
			char want[32];

			assert_int_equal(symsrc_next(&m, &s), 1);
			assert_true(s.addr == i + 1);
			assert_true(s.lineno == i + 1);
			snprintf(want, sizeof want, "s%zu", i);
			assert_int_equal(s.namelen, strlen(want));
			assert_memory_equal(s.name, want, s.namelen);
			if (pass == 0 && i == lines / 2)
				break;		/* stop half way, as at _etext */
		}
		if (pass == 0)
			symsrc_rewind(&m);
	}
	assert_int_equal(symsrc_next(&m, &s), 0);
	symsrc_close(&m);
	unlink(path);
	free(path);
	free(text);
}

/*
 * The usual "ADDR T name" is read by a shortcut, and names sixteen bytes
 * at a time: each layout next to it takes the general path, to the same
 * fields.
 */
static void
usual_layout_and_its_neighbours(void **state)
{
	struct sym s;

	(void)state;
	assert_int_equal(parse("ffffffff81000000 T  name", &s), 0);
	assert_int_equal(s.type, 'T');
	name_is(&s, "name");
	assert_int_equal(parse("ffffffff81000000 T \tname", &s), 0);
	name_is(&s, "name");
	assert_int_equal(parse("ffffffff81000000 Tx name", &s), 0);
	assert_int_equal(s.type, 'T');
	name_is(&s, "name");
	assert_int_equal(parse("ffffffff81000000 \tT name", &s), 0);
	assert_int_equal(s.type, 'T');
	assert_int_equal(parse("ffffffff81000000 T ", &s), -1);
	assert_int_equal(parse("ffffffff81000000 T", &s), -1);
	/* a name ends at a space past 16 bytes, not at a tab before it */
	assert_int_equal(parse("ffffffff81000000 t a_rather_long_name\t"
	    "[module] rest", &s), 0);
	name_is(&s, "a_rather_long_name\t[module]");
	assert_int_equal(parse("ffffffff81000000 t sixteen_bytes_ab", &s), 0);
	name_is(&s, "sixteen_bytes_ab");
	assert_int_equal(parse("ffffffff81000000 t seventeen_bytes_a\n", &s),
	    0);
	name_is(&s, "seventeen_bytes_a");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_nm_and_kallsyms_lines),
		cmocka_unit_test(usual_layout_and_its_neighbours),
		cmocka_unit_test(address_like_strtoull),
		cmocka_unit_test(fields_split_like_util_linux),
		cmocka_unit_test(addresses_match_strtoull),
		cmocka_unit_test(rejects_short_lines),
		cmocka_unit_test(nul_ends_the_text),
		cmocka_unit_test(type_classes),
		cmocka_unit_test(stext_etext_names),
		cmocka_unit_test(reader_counts_lines_and_takes_last_line_without_newline),
		cmocka_unit_test(long_names_are_kept_whole),
		cmocka_unit_test(blank_line_is_a_wrong_map_line),
		cmocka_unit_test(not_text_by_its_first_64_kib),
		cmocka_unit_test(streams_files_across_buffer_edges),
		cmocka_unit_test(rewinds_to_the_first_line),
	};

	return cmocka_run_group_tests_name("mapfile", tests, NULL, NULL);
}
