/*
 * test_output.c - each report line format against printf, and the
 * output: written as it is made, large parts in order, never cutting a
 * file back.
 */
#include "unit.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "base/output.h"
#include "views/classic.h"

/* The classic line of a function, plain or -v (with seconds when RATE is
 * not 0), as out_line writes it. */
static void
out_sym(struct out *o, uint64_t ticks, const char *name, size_t nlen,
    double load)
{
	struct line l = { .ticks = ticks, .name = name, .nlen = nlen,
	    .load = load };

	out_line(o, &l);
}

/* Never called: out_line only asks whether there are calls. */
static uint64_t
fake_calls(void *ctx, uint64_t start, uint64_t next)
{
	(void)ctx;
	(void)start;
	(void)next;
	return 0;
}

static void
out_sym_seconds(struct out *o, uint64_t addr, const char *name, size_t nlen,
    uint64_t ticks, double load, uint32_t rate, const uint64_t *calls)
{
	/* a histogram of RATE, with calls when CALLS is given */
	struct report_hist h = { .rate = rate, .calls = calls ? fake_calls :
	    NULL };
	struct line l = { .addr = addr, .ticks = ticks, .name = name,
	    .nlen = nlen, .load = load, .verbose = 1, .h = &h,
	    .calls = calls ? *calls : 0 };

	out_line(o, &l);
}

static char *
finish(struct out *o, FILE *f)
{
	char *s;

	assert_int_equal(out_finish(o), 0);
	s = slurp_fd(fileno(f));
	out_discard(o);
	return s;
}

/* Plain lines as printf's "%6llu %-40.*s %8.4f\n", around every width. */
static void
plain_lines_as_printf(void **state)
{
	static const uint64_t ticks[] = { 0, 1, 99999, 999999, 1000000,
	    18446744073709551615ull };
	static const double loads[] = { 0.0, 0.00004, 0.00005, 1e-9, 0.5,
	    123.45678, 1e12 };
	static const size_t lens[] = { 0, 1, 39, 40, 41, 300 };
	char name[301], *want = NULL, *got;
	size_t wlen = 0;
	FILE *f = tmpfile(), *w = open_memstream(&want, &wlen);
	struct out o;

	(void)state;
	memset(name, 'n', sizeof name);
	out_init(&o, fileno(f));
	for (size_t t = 0; t < sizeof ticks / sizeof ticks[0]; t++)
		for (size_t l = 0; l < sizeof loads / sizeof loads[0]; l++)
			for (size_t n = 0; n < sizeof lens / sizeof lens[0]; n++) {
				out_sym(&o, ticks[t], name, lens[n], loads[l]);
				fprintf(w, "%6llu %-40.*s %8.4f\n",
				    (unsigned long long)ticks[t], (int)lens[n],
				    name, loads[l]);
			}
	fclose(w);
	got = finish(&o, f);
	assert_string_equal(got, want);
	free(got);
	free(want);
	fclose(f);
}

static void
line_formats(void **state)
{
	FILE *f = tmpfile();
	struct out o;
	char want[4096], *got;
	int n = 0;
	const char *longname = "a_name_longer_than_the_forty_columns_of_the_report";
	struct report_result res = { 0 };
	/* a -b block of no bins: its total line alone */
	struct options bins = { .bins = 1 };
	struct run r = { .o = &bins, .out = &o };
	struct func_rec block = { .ticks = 12 };
	struct classic k = { &r, NULL, &res };

	(void)state;
	out_init(&o, fileno(f));
	out_sym(&o, 3, "a", 1, 0.375);
	n += sprintf(want + n, "%6u %-40s %8.4f\n", 3u, "a", 0.375);
	out_sym(&o, 1234567, longname, strlen(longname), 12345.67891);
	n += sprintf(want + n, "%6u %-40s %8.4f\n", 1234567u, longname,
	    12345.67891);
	out_sym_seconds(&o, 0xffffffff81000000ull, "f", 1, 42, 0.5, 0, NULL);
	n += sprintf(want + n, "%016llx %-40s %6u %8.4f\n",
	    0xffffffff81000000ull, "f", 42u, 0.5);
	classic_out(&k, &block, NULL);
	n += sprintf(want + n, "  total\t\t\t\t%u\n", 12u);
	res.load = 0.875;
	out_total(&o, &res, 28, 0);
	n += sprintf(want + n, "%6u %-40s %8.4f\n", 28u, "total", 0.875);
	out_total(&o, &res, 28, 1);
	n += sprintf(want + n, "%016x %-40s %6u %8.4f\n", 0u, "total", 28u,
	    0.875);
	(void)n;
	got = finish(&o, f);
	assert_string_equal(got, want);
	free(got);
	fclose(f);
}

/* Seconds: exact decimals for the rate, rounded at 6 otherwise. */
static void
seconds_formats(void **state)
{
	static const struct {
		uint64_t ticks;
		uint32_t rate;
		const char *secs;
	} c[] = {
		{ 32, 100, "      0.32" }, { 0, 100, "      0.00" },
		{ 123456, 100, "   1234.56" }, { 7, 1000, "     0.007" },
		{ 3, 4, "      0.75" }, { 1, 8, "     0.125" },
		{ 1, 60, "  0.016667" }, { 119, 60, "  1.983333" },
		{ 59999999, 60000000, "  1.000000" },	/* rounds up to 1 */
		{ 1, 1, "      1.00" },
		{ UINT64_MAX, 1, "18446744073709551615.00" },
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		FILE *f = tmpfile();
		struct out o;
		uint64_t calls = 12345;
		char *got;

		out_init(&o, fileno(f));
		out_sym_seconds(&o, 0x1234, "f", 1, c[i].ticks, 0.5, c[i].rate,
		    NULL);
		out_sym_seconds(&o, 0x1234, "f", 1, c[i].ticks, 0.5, c[i].rate,
		    &calls);
		snprintf(want, sizeof want,
		    "%016llx %-40s %6llu %8.4f %s\n"
		    "%016llx %-40s %6llu %8.4f %s %8llu\n", 0x1234ull, "f",
		    (unsigned long long)c[i].ticks, 0.5, c[i].secs, 0x1234ull,
		    "f", (unsigned long long)c[i].ticks, 0.5, c[i].secs, 12345ull);
		got = finish(&o, f);
		assert_string_equal(got, want);
		free(got);
		fclose(f);
	}
}

/* The double next to V (> 0) upwards (DIR 1) or downwards (-1). */
static double
step(double v, int dir)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	b += (uint64_t)(int64_t)dir;
	memcpy(&v, &b, sizeof v);
	return v;
}

/*
 * The load of a plain line, written by hand, against printf's " %8.4f":
 * quotients of random ticks and lengths of every size (as the report
 * makes them), exact ties of four decimals (k / 20000 with 625 | k, and
 * halves of 2^-n), values a step either side of each, and loads around
 * 2^20, where printf takes over.
 */
static void
loads_as_printf(void **state)
{
	enum { ROUNDS = 100, PER = 2000, EACH = 8 };
	static double v[PER * EACH];
	uint64_t x = 88172645463325252ull;
	char want[128], *got;

	(void)state;
	for (int r = 0; r < ROUNDS; r++) {
		FILE *f = tmpfile();
		struct out o;
		size_t n = 0, at = 0;

		for (int i = 0; i < PER; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[n++] = (double)(x >> (x % 60)) /
			    (double)((x >> 40) % 4096 + 1);
			v[n] = (double)((x % 4096) * 625) / 20000.0;
			v[n + 1] = ((double)(x % 1024) + 0.5) / (double)(1u << x % 14);
			v[n + 2] = 1048576.0 - (double)(x % 3) * 0.00005;
			v[n + 3] = step(v[n], -1);
			v[n + 4] = step(v[n], 1);
			v[n + 5] = step(v[n + 1], 1);
			n += 6;
			v[n++] = (double)(x % 100000) / 10000.0 + 0.00005;
		}
		out_init(&o, fileno(f));
		for (size_t k = 0; k < n; k++)
			out_sym(&o, 1, "f", 1, v[k]);
		got = finish(&o, f);
		for (size_t k = 0; k < n; k++) {
			snprintf(want, sizeof want, "%6u %-40s %8.4f\n", 1u, "f",
			    v[k]);
			assert_memory_equal(got + at, want, strlen(want));
			at += strlen(want);
		}
		assert_int_equal(strlen(got), at);
		free(got);
		fclose(f);
	}
}

/* Into a pipe the report goes as it is made, before out_finish; then
 * all of it, in order. */
static void
written_as_made(void **state)
{
	struct out o;
	char line[64], *got;
	size_t len = 0, have = 0;
	int fds[2];
	ssize_t r;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	out_init(&o, fds[1]);
	for (int i = 0; i < 1000; i++) {	/* ~57 KB: less than a pipe holds */
		out_sym(&o, (uint64_t)i, "sym", 3, 1.0);
		len += (size_t)sprintf(line, "%6u %-40s %8.4f\n", (unsigned)i,
		    "sym", 1.0);
	}
	got = malloc(len + 1);
	r = read(fds[0], got, len);
	assert_true(r > 0);	/* some of it out already */
	have = (size_t)r;
	assert_int_equal(out_finish(&o), 0);
	out_discard(&o);
	close(fds[1]);
	fcntl(fds[0], F_SETFL, 0);
	while ((r = read(fds[0], got + have, len + 1 - have)) > 0)
		have += (size_t)r;
	got[have] = '\0';
	assert_int_equal(have, len);
	sprintf(line, "%6u %-40s %8.4f\n", 999u, "sym", 1.0);
	assert_string_equal(got + len - strlen(line), line);
	sprintf(line, "%6u %-40s %8.4f\n", 0u, "sym", 1.0);
	assert_memory_equal(got, line, strlen(line));
	close(fds[0]);
	free(got);
}

/*
 * A file opened for appending (>> log), another writer appending between
 * our lines: all of its bytes and all of ours are there; nothing is cut.
 */
static void
file_never_cut_back(void **state)
{
	char path[] = "/tmp/test_output.XXXXXX", *got;
	int fd = mkstemp(path), ap, other, n = 0;
	struct out o;

	(void)state;
	assert_true(fd >= 0);
	ap = open(path, O_WRONLY | O_APPEND);
	other = open(path, O_WRONLY | O_APPEND);
	unlink(path);
	assert_true(ap >= 0 && other >= 0);
	assert_int_equal(write(other, "earlier\n", 8), 8);
	out_init(&o, ap);
	for (int i = 0; i < 100000; i++) {
		out_sym(&o, 1, "sym", 3, 1.0);
		if (i == 50000)
			assert_int_equal(write(other, "OTHER\n", 6), 6);
	}
	assert_int_equal(out_finish(&o), 0);
	out_discard(&o);
	got = slurp_fd(fd);
	assert_memory_equal(got, "earlier\n", 8);
	for (char *p = got; (p = strstr(p, "OTHER\n")) != NULL; p++)
		n++;
	assert_int_equal(n, 1);
	assert_int_equal(strlen(got), 14 + 100000 * 57);
	free(got);
	close(other);
	close(ap);
	close(fd);
}

static void
write_errors_are_returned(void **state)
{
	struct out o;
	int fd = open("/dev/full", O_WRONLY);

	(void)state;
	if (fd < 0)
		skip();
	out_init(&o, fd);
	out_sym(&o, 1, "x", 1, 1.0);
	errno = 0;
	assert_int_equal(out_finish(&o), -1);
	assert_int_equal(errno, ENOSPC);
	out_discard(&o);
	close(fd);
}

/*
 * Large texts added with out_str between lines come out in order, twice
 * (twelve of them, 1 KiB to 2 MiB, each after a line).
 */
static void
parts_in_order(void **state)
{
	char *part = malloc((size_t)3 << 20), *want = malloc((size_t)32 << 20);
	size_t wlen = 0;

	(void)state;
	for (int round = 0; round < 2; round++) {
		FILE *f = tmpfile();
		struct out o;
		char *got;

		wlen = 0;
		out_init(&o, fileno(f));
		for (int i = 0; i < 12; i++) {
			size_t n = (size_t)1 << (10 + i);	/* 1 KiB to 2 MiB */

			memset(part, 'a' + i, n);
			out_sym(&o, (uint64_t)i, "line", 4, 0.5);
			wlen += (size_t)sprintf(want + wlen, "%6u %-40s %8.4f\n",
			    (unsigned)i, "line", 0.5);
			out_str(&o, part, n);
			memcpy(want + wlen, part, n);
			wlen += n;
		}
		want[wlen] = '\0';
		got = finish(&o, f);
		assert_int_equal(strlen(got), wlen);
		assert_true(memcmp(got, want, wlen) == 0);
		free(got);
		fclose(f);
	}
	free(part);
	free(want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(line_formats),
		cmocka_unit_test(plain_lines_as_printf),
		cmocka_unit_test(seconds_formats),
		cmocka_unit_test(loads_as_printf),
		cmocka_unit_test(written_as_made),
		cmocka_unit_test(file_never_cut_back),
		cmocka_unit_test(write_errors_are_returned),
		cmocka_unit_test(parts_in_order),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
