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
 * Standard error caught: between stderr_catch() and stderr_caught(), what
 * is written to fd 2 goes to a temporary file; stderr_caught() puts fd 2
 * back and returns the text (malloc'd).  The messages a test provokes are
 * checked there, never shown as if something had failed.
 */
struct caught {
	FILE *f;
	int saved;
};

static inline struct caught
stderr_catch(void)
{
	struct caught c;

	fflush(stderr);
	c.f = tmpfile();
	assert_non_null(c.f);
	c.saved = dup(2);
	assert_true(c.saved >= 0);
	assert_int_equal(dup2(fileno(c.f), 2), 2);
	return c;
}

static inline char *
stderr_caught(struct caught c)
{
	char *s;

	fflush(stderr);
	dup2(c.saved, 2);
	close(c.saved);
	s = slurp_fd(fileno(c.f));
	fclose(c.f);
	return s;
}

/* How many lines of S begin with PREFIX, and whether all of them do. */
static inline int
lines_begin(const char *s, const char *prefix)
{
	int n = 0;

	for (; *s != '\0'; n++) {
		const char *nl = strchr(s, '\n');

		if (strncmp(s, prefix, strlen(prefix)) != 0)
			return -1;
		s = nl ? nl + 1 : s + strlen(s);
	}
	return n;
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
