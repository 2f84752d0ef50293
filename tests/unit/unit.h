/*
 * unit.h - shared helpers for the cmocka unit tests.
 */
#ifndef RP_UNIT_H
#define RP_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/* Read all of FD from the start into a NUL-terminated string. */
static inline char *
slurp_fd(int fd)
{
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while ((r = read(fd, s + len, cap - len - 1)) > 0) {
		len += (size_t)r;
		if (cap - len < 2)
			s = realloc(s, cap *= 2);
	}
	s[len] = '\0';
	return s;
}

/*
 * A temporary file holding N bytes of DATA, in $TMPDIR (tests/unit/run.sh
 * gives each run a directory of its own) or /tmp; returns its malloc'd path.
 */
static inline char *
temp_file(const void *data, size_t n)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = malloc(strlen(dir) + sizeof "/rp-unit-XXXXXX");
	assert_non_null(path);
	strcpy(path, dir);
	strcat(path, "/rp-unit-XXXXXX");
	fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

/*
 * Run FN(ARG) in a child that must exit with status 1 and a message on
 * stderr containing WANT (fatal errors exit; they cannot be caught here).
 */
static inline void
expect_fatal(void (*fn)(void *), void *arg, const char *want)
{
	FILE *err = tmpfile();
	pid_t pid;
	int status;
	char *msg;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(err), 2);
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	msg = slurp_fd(fileno(err));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 ||
	    strstr(msg, want) == NULL || strncmp(msg, "readprofile: ", 13))
		fail_msg("wanted exit 1 and \"%s\", got status %d and \"%s\"",
		    want, status, msg);
	free(msg);
	fclose(err);
}

#endif
