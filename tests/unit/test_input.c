/*
 * test_input.c - read_full, and a regular file that changes size while it
 * is read: one message naming it, exit 1.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "unit.h"
#include "base/input.h"

/* Whole reads, at an offset or from the position; short only at the end. */
static void
read_full_reads_all_or_to_the_end(void **state)
{
	char data[10000], buf[sizeof data];
	char *path;
	int fd;

	(void)state;
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (char)(i * 7);
	path = temp_file(data, sizeof data);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read_full(fd, buf, 4000, 3000), 4000);
	assert_memory_equal(buf, data + 3000, 4000);
	assert_int_equal(read_full(fd, buf, 4000, 8000), 2000);
	assert_int_equal(read_full(fd, buf, 100, -1), 100);	/* position 0 */
	assert_memory_equal(buf, data, 100);
	assert_int_equal(read_full(fd, buf, sizeof buf, -1), 9900);
	assert_int_equal(read_full(fd, buf, 10, -1), 0);
	assert_int_equal(read_full(-1, buf, 10, 0), -1);
	close(fd);
	unlink(path);
	free(path);
}

/* A pipe fed in small pieces by another process: read to N bytes. */
static void
read_full_goes_on_after_short_reads(void **state)
{
	int p[2];
	char buf[3000];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		for (int i = 0; i < 30; i++)
			if (write(p[1], "0123456789", 10) != 10)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read_full(p[0], buf, 250, -1), 250);
	assert_int_equal(read_full(p[0], buf, sizeof buf, -1), 50);
	assert_memory_equal(buf, "0123456789", 10);
	close(p[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/* A pipe of BYTES bytes, i * 13 each, written by a child; its pid in *PID. */
static int
pipe_of(size_t bytes, pid_t *pid)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		close(p[0]);
		for (size_t i = 0; i < bytes; i++) {
			char c = (char)(i * 13);

			if (write(p[1], &c, 1) != 1)
				_exit(0);	/* the reader stopped */
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* The whole of a pipe after the bytes already read, the buffer doubled
 * past its first 64 KiB; past MAX, one byte more and no further. */
static void
slurp_reads_to_the_end_or_one_past_max(void **state)
{
	const size_t bytes = 200000;
	struct input in = { .name = "P", .errfd = -1, .child = -1 };
	unsigned char *b;
	size_t len;
	pid_t pid;

	(void)state;
	in.fd = pipe_of(bytes, &pid);
	b = input_slurp(&in, "abc", 3, 1 << 20, &len);
	assert_int_equal(len, bytes + 3);
	assert_memory_equal(b, "abc", 3);
	for (size_t i = 0; i < bytes; i++)
		assert_int_equal(b[3 + i], (unsigned char)(i * 13));
	free(b);
	close(in.fd);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	for (uint64_t max = 65535; max <= 140000; max += 74465) {
		in.fd = pipe_of(bytes, &pid);
		b = input_slurp(&in, NULL, 0, max, &len);
		assert_int_equal(len, max + 1);
		free(b);
		close(in.fd);
		assert_int_equal(waitpid(pid, NULL, 0), pid);
	}
}

enum how { CUT_THEN_READ, CUT_THEN_CHECK, GROW_THEN_READ, PREAD_PAST };

/*
 * In a child: open a 4096-byte file as an input, read 1000 bytes, change
 * its size as HOW says, read or check; its stderr is returned, its status
 * in *STATUS.
 */
static char *
change_in_child(enum how how, int *status)
{
	int err[2];
	pid_t pid;
	char *out;

	assert_int_equal(pipe(err), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char data[4096], buf[8192];
		char *path = temp_file(data, sizeof data);
		struct input in;
		int wfd = open(path, O_WRONLY);

		dup2(err[1], 2);
		if (wfd < 0 || input_open(&in, path) < 0 || !in.seekable ||
		    input_read(&in, buf, 1000) != 1000)
			_exit(3);
		unlink(path);
		free(path);	/* nothing left to leak at the fatal exit */
		in.name = "F";
		if (ftruncate(wfd, how == GROW_THEN_READ ? 5000 : 2000) < 0)
			_exit(3);
		if (how == CUT_THEN_CHECK)
			input_check_size(&in);
		else if (how == PREAD_PAST)
			input_pread(&in, buf, 1000, 1500);
		else
			while (input_read(&in, buf, sizeof buf) > 0)
				;
		_exit(4);
	}
	close(err[1]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	out = slurp_fd(err[0]);
	close(err[0]);
	return out;
}

static void
expect(enum how how, const char *msg)
{
	int st;
	char *e = change_in_child(how, &st);

	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_string_equal(e, msg);
	free(e);
}

static void
a_file_that_changes_size_is_an_error(void **state)
{
	(void)state;
	expect(CUT_THEN_READ, "readprofile: F: the file shrank while being "
	    "read (4096 bytes, then 2000)\n");
	expect(CUT_THEN_CHECK, "readprofile: F: the file shrank while being "
	    "read (4096 bytes, then 2000)\n");
	expect(GROW_THEN_READ, "readprofile: F: the file grew while being "
	    "read (4096 bytes, then 5000)\n");
	expect(PREAD_PAST, "readprofile: F: the file shrank while being "
	    "read (4096 bytes, then 2000)\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_full_reads_all_or_to_the_end),
		cmocka_unit_test(read_full_goes_on_after_short_reads),
		cmocka_unit_test(a_file_that_changes_size_is_an_error),
		cmocka_unit_test(slurp_reads_to_the_end_or_one_past_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
