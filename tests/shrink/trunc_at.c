/*
 * trunc_at.c - run a command and change a file's size at a chosen moment
 * of its run, decided by the command's own system calls, not by time.
 *
 *   trunc_at N SIZE FILE COMMAND [ARG...]
 *
 * Runs COMMAND under ptrace and counts its read, pread64, readv, write and
 * pwrite64 calls (on any descriptor); on entering the Nth, sets FILE's
 * size to SIZE bytes (truncate(2): shorter cuts it, longer adds zeros)
 * and lets the call go on.  Exits with the command's status (128 + the
 * signal when killed), and prints "events E first F last L" on its
 * standard error: E the count of those calls in the whole run, F and L
 * the numbers of the first and the last of them that read FILE (0:
 * none).  A first run with N = 0 (never) tells how many moments there
 * are to choose from.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int
counted(unsigned long long nr)
{
	switch (nr) {
	case SYS_read: case SYS_pread64: case SYS_readv:
	case SYS_write: case SYS_pwrite64:
		return 1;
	default:
		return 0;
	}
}

static int
reads(unsigned long long nr)
{
	return nr == SYS_read || nr == SYS_pread64 || nr == SYS_readv;
}

/*
 * The call the stopped child is entering, or -1 when it is leaving one;
 * *FD its first argument.
 */
static long long
entering(pid_t pid, unsigned long long *fd)
{
	struct __ptrace_syscall_info si;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof si, &si) < 0) {
		perror("trunc_at: PTRACE_GET_SYSCALL_INFO");
		exit(2);
	}
	*fd = si.entry.args[0];
	return si.op == PTRACE_SYSCALL_INFO_ENTRY ? (long long)si.entry.nr : -1;
}

/* Whether descriptor FD of PID is the file at PATH (a full path). */
static int
is_file(pid_t pid, unsigned long long fd, const char *path)
{
	char link[64], target[PATH_MAX];
	ssize_t r;

	snprintf(link, sizeof link, "/proc/%d/fd/%llu", (int)pid, fd);
	r = readlink(link, target, sizeof target - 1);
	if (r < 0)
		return 0;
	target[r] = '\0';
	return strcmp(target, path) == 0;
}

int
main(int argc, char **argv)
{
	unsigned long long n, events = 0, first = 0, last = 0, fd;
	long long size, nr;
	char path[PATH_MAX];
	pid_t pid;
	int status, sig = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: trunc_at N SIZE FILE COMMAND [ARG...]\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	size = strtoll(argv[2], NULL, 10);
	if (realpath(argv[3], path) == NULL) {
		perror(argv[3]);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("trunc_at: fork");
		return 2;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			perror("trunc_at: PTRACE_TRACEME");
			_exit(2);
		}
		raise(SIGSTOP);
		execvp(argv[4], argv + 4);
		perror(argv[4]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status))
		return 2;
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	    (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0) {
			perror("trunc_at: PTRACE_SYSCALL");
			return 2;
		}
		sig = 0;
		if (waitpid(pid, &status, 0) < 0) {
			if (errno == EINTR)
				continue;
			perror("trunc_at: waitpid");
			return 2;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);	/* a signal: pass it on */
			if (sig == SIGSTOP || sig == SIGTRAP)
				sig = 0;
			continue;
		}
		nr = entering(pid, &fd);
		if (nr < 0 || !counted((unsigned long long)nr))
			continue;
		events++;
		if (reads((unsigned long long)nr) && is_file(pid, fd, path)) {
			last = events;
			first = first ? first : events;
		}
		if (events == n && truncate(argv[3], (off_t)size) < 0) {
			perror(argv[3]);
			kill(pid, SIGKILL);
			return 2;
		}
	}
	fprintf(stderr, "events %llu first %llu last %llu\n", events, first,
	    last);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}
