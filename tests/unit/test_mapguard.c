/*
 * test_mapguard.c - a mapped file that shrinks: a message and exit 1.
 */
#include <fcntl.h>
#include <sys/mman.h>

#include "unit.h"
#include "base/mapguard.h"

enum how { WATCHED, REMOVED };

/*
 * In a child: map two pages of a file, watch them (and, REMOVED, stop
 * watching them again), cut the file to nothing and touch the second
 * page.  Returns the child's stderr; its exit status goes to *STATUS.
 */
static char *
shrink_in_child(enum how how, int *status)
{
	int err[2];
	pid_t pid;
	char *out;
	long pg = sysconf(_SC_PAGESIZE);

	assert_int_equal(pipe(err), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char path[] = "/tmp/rp-mapguard-XXXXXX";
		int fd = mkstemp(path);
		char *m;

		dup2(err[1], 2);
		if (fd < 0 || ftruncate(fd, 2 * pg) < 0)
			_exit(3);
		unlink(path);
		m = mmap(NULL, (size_t)(2 * pg), PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			_exit(3);
		mapguard_add(m, (size_t)(2 * pg), "F: the file shrank "
			    "while being read");
		if (how == REMOVED)
			mapguard_remove(m);
		if (ftruncate(fd, 0) < 0)
			_exit(3);
		_exit(*(volatile char *)(m + pg) == 0 ? 4 : 5);
	}
	close(err[1]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	out = slurp_fd(err[0]);
	close(err[0]);
	return out;
}

static void
watched(void **state)
{
	int st;
	char *e = shrink_in_child(WATCHED, &st);

	(void)state;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_string_equal(e, "readprofile: F: the file shrank while being "
	    "read\n");
	free(e);
}

/* A fault outside every watched mapping still ends in a message. */
static void
unwatched(void **state)
{
	static const char other[] = "readprofile: an input file shrank "
	    "while being read\n";
	int st;
	char *e;

	(void)state;
	e = shrink_in_child(REMOVED, &st);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_string_equal(e, other);
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(watched),
		cmocka_unit_test(unwatched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
