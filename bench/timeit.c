/*
 * timeit.c - run a command once and report its wall time, CPU time and
 * peak memory.
 *
 *   bench-timeit [-c CPU] [-o OUTFILE] [-e ERRFILE] COMMAND [ARG...]
 *
 * Runs COMMAND (looked up in PATH) with standard input from /dev/null,
 * standard output to OUTFILE (default /dev/null) and standard error to
 * ERRFILE (default: inherited).  With -c, the command may run on processor
 * CPU only: the child sets its affinity to that one processor before exec,
 * as `taskset -c CPU COMMAND` does, but without a taskset process whose own
 * start would be counted in the figures.  When it has finished, prints one
 * line
 *
 *   SECONDS MAXRSS_KIB STATUS CPU_SECONDS USER_SECONDS SYSTEM_SECONDS
 *
 * SECONDS is the wall time from just before fork to just after wait4, on
 * the monotonic clock.  The rest comes from the rusage that wait4 returns,
 * which on Linux covers the command and every child it waited for:
 * MAXRSS_KIB is the peak resident set size (ru_maxrss), CPU_SECONDS the
 * user plus system time of all its threads, USER_SECONDS and
 * SYSTEM_SECONDS the two parts.  STATUS is the exit status, or 128 + the
 * number of the signal that killed it.  Exits 0 when the command could be
 * run, else 127.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: bench-timeit [-c CPU] [-o OUTFILE] [-e ERRFILE] COMMAND [ARG...]\n");
	exit(127);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags, 0644);
	if (fd < 0) {
		fprintf(stderr, "bench-timeit: %s: %s\n", path, strerror(errno));
		exit(127);
	}
	return fd;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null", *err = NULL;
	int i = 1, cpu_only = -1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "-e"))
			err = argv[i + 1];
		else if (!strcmp(argv[i], "-c")) {
			char *end;
			long c = strtol(argv[i + 1], &end, 10);
			if (*end || end == argv[i + 1] || c < 0 || c >= CPU_SETSIZE)
				usage();
			cpu_only = (int)c;
		}
		else
			usage();
		i += 2;
	}
	if (i >= argc)
		usage();

	int in_fd = open_or_die("/dev/null", O_RDONLY);
	int out_fd = open_or_die(out, O_WRONLY | O_CREAT | O_TRUNC);
	int err_fd = err ? open_or_die(err, O_WRONLY | O_CREAT | O_TRUNC) : -1;
	int pipefd[2];		/* reports a failed affinity or exec */
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		perror("bench-timeit: pipe");
		return 127;
	}

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench-timeit: fork");
		return 127;
	}
	if (pid == 0) {
		dup2(in_fd, 0);
		dup2(out_fd, 1);
		if (err_fd >= 0)
			dup2(err_fd, 2);
		int e = 0;
		if (cpu_only >= 0) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpu_only, &one);
			if (sched_setaffinity(0, sizeof one, &one) != 0)
				e = errno;
		}
		if (e == 0) {
			execvp(argv[i], argv + i);
			e = errno;
		}
		if (write(pipefd[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);

	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("bench-timeit: wait4");
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	int e;
	if (read(pipefd[0], &e, sizeof e) == (ssize_t)sizeof e) {
		fprintf(stderr, "bench-timeit: %s: %s\n", argv[i], strerror(e));
		return 127;
	}

	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	int code = WIFEXITED(status) ? WEXITSTATUS(status)
		 : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
	double user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	double sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	printf("%.6f %ld %d %.6f %.6f %.6f\n", secs, ru.ru_maxrss, code, user + sys, user, sys);
	return 0;
}
