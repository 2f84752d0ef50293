/*
 * test_profile.c - the profile source: sizes, byte order, step, counters,
 * baselines; from files and from a pipe.
 */
#include <fcntl.h>

#include "unit.h"
#include "hist/profile.h"

static uint32_t
bswap(uint32_t x)
{
	return __builtin_bswap32(x);
}

static char *
words_file(const uint32_t *w, size_t n, int swapped)
{
	uint32_t *t = malloc(n * 4 + 1);
	char *path;

	for (size_t i = 0; i < n; i++)
		t[i] = swapped ? bswap(w[i]) : w[i];
	path = temp_file(t, n * 4);
	free(t);
	return path;
}

/* The byte order of counters W[1..n) as profile_setup finds it. */
static int
found_swapped(const uint32_t *w, size_t n)
{
	char *path = words_file(w, n, 0);
	struct profile p;
	int swapped;

	profile_open(&p, path);
	swapped = profile_setup(&p, 0);
	profile_close(&p);
	unlink(path);
	free(path);
	return swapped;
}

/* Reversed when more counters use their upper 16 bits than their lower;
 * the step word is not counted. */
static void
heuristic(void **state)
{
	static const uint32_t tie[] = { 0x10000, 0, 70000, 5, 0x10000 };
	static const uint32_t up[] = { 3, 0x20000, 70000, 5, 0x10000 };
	static const uint32_t none[] = { 0x10000, 0, 0 };

	(void)state;
	assert_false(found_swapped(tie, 5));	/* 2 upper, 2 lower */
	assert_true(found_swapped(up, 5));	/* 3 upper, 2 lower */
	assert_false(found_swapped(none, 3));
}

/*
 * The count, made a block at a time as each piece of the file is read,
 * misses and repeats no counter and leaves the step word out: at lengths
 * around the blocks and the pieces, the one counter that breaks a tie
 * decides, wherever it lies, and a step word on either side changes
 * nothing.
 */
static void
heuristic_at_every_length(void **state)
{
	static const size_t len[] = { 2, 3, 17, 1023, 1024, 1025, 1026, 2049,
	    65535, 65536, 65537, 66561 };
	size_t n, at[6];
	uint32_t *w = malloc(66561 * 4);

	(void)state;
	for (size_t i = 0; i < sizeof len / sizeof len[0]; i++) {
		n = len[i];
		at[0] = 1, at[1] = n / 2, at[2] = n - 1;
		at[3] = 1023 % n, at[4] = 1024 % n, at[5] = 65536 % n;
		for (size_t j = 0; j < 6; j++) {
			if (at[j] == 0)
				continue;
			w[0] = j % 2 ? 0x10000 : 1;	/* either half */
			for (size_t k = 1; k < n; k++)
				w[k] = 0x10001;	/* both halves: a tie */
			w[at[j]] = 0x10000;	/* its upper half only */
			assert_true(found_swapped(w, n));
			w[at[j]] = 0x1;		/* its lower half only */
			assert_false(found_swapped(w, n));
		}
	}
	free(w);
}

/* The sum of W[a, b). */
static uint64_t
sum_of(const uint32_t *w, size_t a, size_t b)
{
	uint64_t sum = 0;

	while (a < b)
		sum += w[a++];
	return sum;
}

/* P's counters are the N words W, and its sums theirs: over each block
 * whole and without its first and last words, and over all. */
static void
check_counters(struct profile *p, const uint32_t *w, size_t n)
{
	struct counters c = profile_counters(p);

	assert_int_equal(c.n, n);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(counters_get(&c, k), w[k]);
	assert_true(counters_sum(&c, 1, n) == sum_of(w, 1, n));
	for (size_t a = 1; a < n; a = (a / COUNTERS_BLOCK + 1) * COUNTERS_BLOCK) {
		size_t b = (a / COUNTERS_BLOCK + 1) * COUNTERS_BLOCK;

		b = b < n ? b : n;
		assert_true(counters_sum(&c, a, b) == sum_of(w, a, b));
		if (b - a > 2)
			assert_true(counters_sum(&c, a + 1, b - 1) ==
			    sum_of(w, a + 1, b - 1));
	}
}

/*
 * Whole blocks of zeros between counters at the blocks' edges: a sum
 * from and to any of those edges counts every counter once, in both
 * byte orders.
 */
static void
zero_blocks(void **state)
{
	enum { B = COUNTERS_BLOCK, N = 6 * B + 3 };
	static const size_t edge[] = { 1, 2, B - 1, B, B + 1, 2 * B - 1,
	    2 * B, 3 * B, 3 * B + 1, 4 * B - 1, 4 * B, 5 * B, 6 * B, N - 1, N };
	uint32_t *w = calloc(N, 4);
	char *path;
	struct profile p;
	struct counters c;

	(void)state;
	w[0] = 4;
	w[B - 1] = 1, w[B] = 20, w[2 * B - 1] = 300;	/* blocks 0 and 1 */
	w[3 * B] = 4000, w[4 * B - 1] = 50000;		/* block 3 */
	w[N - 1] = 7;					/* block 6 */
	for (int swapped = 0; swapped < 2; swapped++) {
		path = words_file(w, N, swapped);
		profile_open(&p, path);
		profile_setup(&p, 0);
		c = profile_counters(&p);
		for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
			for (size_t j = i; j < sizeof edge / sizeof edge[0]; j++)
				if (counters_sum(&c, edge[i], edge[j]) !=
				    sum_of(w, edge[i], edge[j]))
					fail_msg("sum [%zu, %zu)", edge[i], edge[j]);
		check_counters(&p, w, N);
		profile_close(&p);
		unlink(path);
		free(path);
	}
	free(w);
}

static void
native_and_reversed_files(void **state)
{
	static const uint32_t w[] = { 8, 1, 0, 2, 300, 0, 0, 9 };
	char *path;
	struct profile p;

	(void)state;
	for (int swapped = 0; swapped < 2; swapped++) {
		path = words_file(w, 8, swapped);
		profile_open(&p, path);
		assert_int_equal(p.nwords, 8);
		assert_int_equal(profile_setup(&p, 0), swapped);
		assert_int_equal(p.step, 8);
		check_counters(&p, w, 8);
		profile_close(&p);

		/* -n: taken as stored */
		profile_open(&p, path);
		assert_int_equal(profile_setup(&p, 1), 0);
		assert_int_equal(p.step, swapped ? bswap(8) : 8);
		profile_close(&p);
		unlink(path);
		free(path);
	}
}

static void
large_file_across_chunks(void **state)
{
	size_t n = (3 << 20) / 4 + 17;	/* several mapped chunks */
	uint32_t *w = malloc(n * 4);
	char *path;
	struct profile p;
	struct counters c;
	uint64_t want = 0;

	(void)state;
	w[0] = 4;
	for (size_t k = 1; k < n; k++) {
		w[k] = (uint32_t)(k * 2654435761u) % 7;
		want += w[k];
	}
	for (int swapped = 0; swapped < 2; swapped++) {
		path = words_file(w, n, swapped);
		profile_open(&p, path);
		assert_int_equal(profile_setup(&p, 0), swapped);
		c = profile_counters(&p);
		assert_true(counters_sum(&c, 1, n) == want);
		assert_int_equal(counters_get(&c, n - 1), w[n - 1]);
		assert_int_equal(counters_get(&c, 262144), w[262144]);
		profile_close(&p);
		unlink(path);
		free(path);
	}
	free(w);
}

/* Few non-zero counters: sums over random ranges agree with the words. */
static void
sparse_sums_match_the_words(void **state)
{
	size_t n = 1 << 20;
	uint32_t *w = calloc(n, 4);
	uint64_t r = 12345, *prefix = malloc((n + 1) * sizeof *prefix);
	char *path;
	struct profile p;
	struct counters c;

	(void)state;
	w[0] = 4;
	for (int i = 0; i < 5000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		w[1 + (r >> 33) % (n - 1)] = (uint32_t)(r >> 7) % 100000 + 1;
	}
	prefix[0] = 0;
	for (size_t k = 0; k < n; k++)
		prefix[k + 1] = prefix[k] + (k ? w[k] : 0);
	for (int swapped = 0; swapped < 2; swapped++) {
		path = words_file(w, n, swapped);
		profile_open(&p, path);
		profile_setup(&p, 0);
		c = profile_counters(&p);
		for (int i = 0; i < 20000; i++) {
			uint64_t a, b;
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			a = 1 + (r >> 20) % (n - 1);
			b = a + (r >> 3) % 5000;
			if (b > n)
				b = n;
			if (i % 3 == 0)	/* backwards too, not only forwards */
				a = 1 + (a * 7) % (n - 1), b = a + 10 > n ? n : a + 10;
			if (counters_sum(&c, a, b) != prefix[b] - prefix[a])
				fail_msg("sum [%llu, %llu)", (unsigned long long)a,
				    (unsigned long long)b);
		}
		profile_close(&p);
		unlink(path);
		free(path);
	}
	free(prefix);
	free(w);
}

static void
from_a_pipe(void **state)
{
	static const uint32_t w[] = { 4, 5, 6, 7 };
	int fds[2], saved = dup(0);
	struct profile p;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], w, sizeof w), (ssize_t)sizeof w);
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);
	profile_open(&p, "-");
	dup2(saved, 0);
	close(saved);
	assert_null(p.in.seekable ? "seekable" : NULL);
	profile_setup(&p, 0);
	check_counters(&p, w, 4);
	profile_close(&p);
}

/* 1 on a big-endian host: little-endian bytes then read reversed. */
static int
host_big_endian(void)
{
	static const uint32_t one = 1;

	return *(const unsigned char *)&one == 0;
}

/* 1 to 3 bytes after the last whole word are left out, file or pipe. */
static void
trailing_partial_word(void **state)
{
	static const unsigned char b[] = { 4, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
	    0xff, 0xfe, 0xfd };
	static const uint32_t w[] = { 4, 1, 2 };
	struct profile p;
	char *path;
	int fds[2], saved;

	(void)state;
	for (unsigned extra = 1; extra <= 3; extra++) {
		path = temp_file(b, 12 + extra);
		profile_open(&p, path);
		assert_int_equal(p.nwords, 3);
		assert_int_equal(p.trailing, extra);
		assert_int_equal(profile_setup(&p, 0), host_big_endian());
		check_counters(&p, w, 3);
		profile_close(&p);
		unlink(path);
		free(path);

		saved = dup(0);
		assert_int_equal(pipe(fds), 0);
		assert_int_equal(write(fds[1], b, 12 + extra), (ssize_t)(12 + extra));
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		profile_open(&p, "-");
		dup2(saved, 0);
		close(saved);
		assert_int_equal(p.nwords, 3);
		assert_int_equal(p.trailing, extra);
		profile_setup(&p, 0);
		check_counters(&p, w, 3);
		profile_close(&p);
	}
}

/*
 * A dense profile (one counter in 3 non-zero, values of every size): the
 * sums and the words are right in both byte orders.
 */
static void
dense_words_and_sums(void **state)
{
	size_t n = 5 * 65536 + 77;
	uint32_t *w = calloc(n, 4);
	uint64_t r = 99, *prefix = malloc((n + 1) * sizeof *prefix);
	char *path;
	struct profile p;
	struct counters c;

	(void)state;
	w[0] = 16;
	for (size_t k = 1; k < n; k++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		if ((r >> 40) % 3 == 0)
			w[k] = (uint32_t)(r >> 33) >> ((r >> 20) % 32);
		if (w[k] > 0xffff && (r >> 10) % 4)	/* keep native order */
			w[k] &= 0xffff;
	}
	prefix[0] = 0;
	for (size_t k = 0; k < n; k++)
		prefix[k + 1] = prefix[k] + (k ? w[k] : 0);
	for (int swapped = 0; swapped < 2; swapped++) {
		path = words_file(w, n, swapped);
		profile_open(&p, path);
		assert_int_equal(profile_setup(&p, 0), swapped);
		c = profile_counters(&p);
		check_counters(&p, w, n);
		for (int i = 0; i < 3000; i++) {
			uint64_t a, b;
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			a = 1 + (r >> 20) % (n - 1);
			b = a + (r >> 3) % (i % 10 ? 300 : 200000);
			if (b > n)
				b = n;
			if (counters_sum(&c, a, b) != prefix[b] - prefix[a])
				fail_msg("sum [%llu, %llu)",
				    (unsigned long long)a, (unsigned long long)b);
		}
		/* forward in small steps, as a report goes */
		for (uint64_t a = 1; a < n; a += 37) {
			uint64_t b = a + 37 > n ? n : a + 37;
			assert_true(counters_sum(&c, a, b) == prefix[b] - prefix[a]);
		}
		profile_close(&p);
		unlink(path);
		free(path);
	}
	free(prefix);
	free(w);
}

/*
 * Sums that jump ahead and back, and single words between them, agree
 * with the words.
 */
static void
sums_jump_ahead_and_back(void **state)
{
	size_t n = 6 * 65536 + 5;
	uint32_t *w = calloc(n, 4);
	uint64_t r = 7, *prefix = malloc((n + 1) * sizeof *prefix);
	char *path;
	struct profile p;

	(void)state;
	w[0] = 4;
	for (size_t k = 1; k < n; k++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		if ((r >> 40) % 5 == 0)
			w[k] = 1 + (uint32_t)(r >> 33) % 999;
	}
	prefix[0] = 0;
	for (size_t k = 0; k < n; k++)
		prefix[k + 1] = prefix[k] + (k ? w[k] : 0);
	path = words_file(w, n, 0);
	profile_open(&p, path);
	assert_int_equal(profile_setup(&p, 0), 0);
	for (int i = 0; i < 200; i++) {
		struct counters c = profile_counters(&p);
		uint64_t a, b;

		for (int j = 0; j < 5; j++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			a = 1 + (i < 50 ? (r >> 20) % 1000 : (r >> 20) % (n - 1));
			b = a + (r >> 3) % 5000;
			if (b > n)
				b = n;
			if (counters_sum(&c, a, b) != prefix[b] - prefix[a])
				fail_msg("round %d: sum [%llu, %llu)", i,
				    (unsigned long long)a, (unsigned long long)b);
			assert_int_equal(counters_get(&c, a), w[a]);
		}
	}
	profile_close(&p);
	unlink(path);
	free(path);
	free(prefix);
	free(w);
}

/*
 * The first bytes are kept as read, for what a profile looks like: the
 * same after the words were put in host order and a baseline subtracted.
 */
static void
head_as_read(void **state)
{
	static const uint32_t now[] = { 4, 10, 20, 30, 40 };
	static const uint32_t before[] = { 4, 1, 2, 3, 4 };
	unsigned char raw[20];
	struct profile p, b;

	(void)state;
	for (int swapped = 0; swapped < 2; swapped++) {
		char *pp = words_file(now, 5, swapped);
		char *bp = words_file(before, 5, swapped);
		FILE *f = fopen(pp, "rb");

		assert_int_equal(fread(raw, 1, 20, f), 20);
		fclose(f);
		profile_open(&p, pp);
		profile_setup(&p, 0);
		profile_subtract(&p, &b, bp);
		profile_close(&b);
		assert_memory_equal(p.head, raw, 20);
		profile_close(&p);
		unlink(pp);
		unlink(bp);
		free(pp);
		free(bp);
	}
}

/* A file that grew after it was read whole (and its size checked, before
 * any report) is no error when closed: the copy read is what is reported. */
static void
grown_after_read(void **state)
{
	static const uint32_t w[] = { 4, 1, 2, 3 };
	char *path = words_file(w, 4, 0);
	struct profile p;
	FILE *f;

	(void)state;
	profile_open(&p, path);
	f = fopen(path, "ab");
	assert_int_equal(fwrite(w, 4, 1, f), 1);
	fclose(f);
	assert_int_equal(p.bytes, sizeof w);
	assert_memory_equal(p.data, w, sizeof w);
	profile_close(&p);
	unlink(path);
	free(path);
}

static void
open_path(void *arg)
{
	struct profile p;

	profile_open(&p, arg);
}

static void
bad_sizes(void **state)
{
	char *path;

	(void)state;
	path = temp_file("", 0);
	expect_fatal(open_path, path, ": input file is empty");
	unlink(path);
	free(path);
	for (size_t n = 1; n <= 3; n++) {
		path = temp_file("\4\0\0", n);
		expect_fatal(open_path, path, "truncated profile");
		unlink(path);
		free(path);
	}
	expect_fatal(open_path, "/nonexistent/profile",
	    "/nonexistent/profile: No such file or directory");
	expect_fatal(open_path, "/", "/: Is a directory");
}

struct pair {
	char *prof, *base;
};

static void
setup_pair(void *arg)
{
	struct pair *pp = arg;
	struct profile p, b;

	profile_open(&p, pp->prof);
	profile_setup(&p, 0);
	profile_subtract(&p, &b, pp->base);
}

static void
baseline(void **state)
{
	static const uint32_t now[] = { 4, 10, 20, 30, 40 };
	static const uint32_t before[] = { 4, 1, 20, 3, 4 };
	static const uint32_t diff[] = { 4, 9, 0, 27, 36 };
	/* baselines that do not belong to NOW, and what is said of each */
	static const struct {
		uint32_t w[5];
		size_t n;
		const char *want;
	} bad[] = {
		{ { 8, 1, 2, 3, 4 }, 5, "sampling step 8 differs" },
		{ { 4, 1, 2, 3 }, 4, "3 counters, but" },
		{ { 4, 1, 21, 3, 4 }, 5, "counter 1 is lower than in" },
	};
	struct profile p, b;
	struct pair pp;

	(void)state;
	for (int swapped = 0; swapped < 2; swapped++) {
		pp.prof = words_file(now, 5, swapped);
		pp.base = words_file(before, 5, swapped);
		profile_open(&p, pp.prof);
		assert_int_equal(profile_setup(&p, 0), swapped);
		profile_subtract(&p, &b, pp.base);
		check_counters(&p, diff, 5);
		profile_close(&p);
		profile_close(&b);
		unlink(pp.base);
		free(pp.base);
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			pp.base = words_file(bad[i].w, bad[i].n, swapped);
			expect_fatal(setup_pair, &pp, bad[i].want);
			unlink(pp.base);
			free(pp.base);
		}
		unlink(pp.prof);
		free(pp.prof);
	}
}

/*
 * The file PATH through a pipe, written by a child: "/dev/fd/N" into
 * NAME, the reading end in *FD, the child in *PID.
 */
static void
feed(const char *path, char *name, size_t size, int *fd, pid_t *pid)
{
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		char buf[65536];
		int in = open(path, O_RDONLY);
		ssize_t n;

		close(fds[0]);
		while ((n = read(in, buf, sizeof buf)) > 0)
			if (write(fds[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	*fd = fds[0];
	snprintf(name, size, "/dev/fd/%d", fds[0]);
}

/*
 * A baseline of several pieces (it is read 256 KiB at a time), from a file
 * and from a pipe, in both byte orders: every counter is subtracted; a
 * counter higher than the profile's in its last piece, and a pipe one
 * word short, are refused.
 */
static void
baseline_in_pieces(void **state)
{
	size_t n = (3 << 20) / 4 + 17;
	uint32_t *now = malloc(n * 4), *before = malloc(n * 4);
	uint32_t *diff = malloc(n * 4);
	char name[32], want[64];
	struct profile p, b;
	struct pair pp;
	pid_t pid;
	int fd;

	(void)state;
	now[0] = before[0] = diff[0] = 4;
	for (size_t k = 1; k < n; k++) {
		before[k] = (uint32_t)(k * 2654435761u) % 1000;
		diff[k] = (uint32_t)(k % 7);
		now[k] = before[k] + diff[k];
	}
	for (int swapped = 0; swapped < 2; swapped++) {
		char *prof = words_file(now, n, swapped);
		char *base = words_file(before, n, swapped), *short_base;

		for (int piped = 0; piped < 2; piped++) {
			if (piped)
				feed(base, name, sizeof name, &fd, &pid);
			profile_open(&p, prof);
			assert_int_equal(profile_setup(&p, 0), swapped);
			profile_subtract(&p, &b, piped ? name : base);
			assert_int_equal(b.in.seekable, !piped);
			check_counters(&p, diff, n);
			profile_close(&b);
			profile_close(&p);
			if (piped) {
				close(fd);
				waitpid(pid, NULL, 0);
			}
		}
		pp.prof = prof;
		before[n - 2] = now[n - 2] + 1;
		pp.base = words_file(before, n, swapped);
		snprintf(want, sizeof want, "counter %zu is lower than in", n - 3);
		expect_fatal(setup_pair, &pp, want);
		unlink(pp.base);
		free(pp.base);
		before[n - 2] = now[n - 2] - diff[n - 2];
		short_base = words_file(before, n - 1, swapped);
		feed(short_base, name, sizeof name, &fd, &pid);
		pp.base = name;
		snprintf(want, sizeof want, "%zu counters, but", n - 2);
		expect_fatal(setup_pair, &pp, want);
		close(fd);
		waitpid(pid, NULL, 0);
		unlink(short_base);
		free(short_base);
		unlink(prof);
		unlink(base);
		free(prof);
		free(base);
	}
	free(now);
	free(before);
	free(diff);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heuristic),
		cmocka_unit_test(heuristic_at_every_length),
		cmocka_unit_test(native_and_reversed_files),
		cmocka_unit_test(zero_blocks),
		cmocka_unit_test(large_file_across_chunks),
		cmocka_unit_test(sparse_sums_match_the_words),
		cmocka_unit_test(from_a_pipe),
		cmocka_unit_test(bad_sizes),
		cmocka_unit_test(trailing_partial_word),
		cmocka_unit_test(dense_words_and_sums),
		cmocka_unit_test(sums_jump_ahead_and_back),
		cmocka_unit_test(head_as_read),
		cmocka_unit_test(grown_after_read),
		cmocka_unit_test(baseline),
		cmocka_unit_test(baseline_in_pieces),
	};

	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
