/* demangle.c - __cxa_demangle of libstdc++, in a child the system bounds. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "sym/demangle.h"
#include "base/input.h"
#include "base/util.h"

#define MEM_MIB 32	/* address space one name may add to the child's */
#define CPU_MS 100	/* CPU time of one name */
#define WALL_S 5	/* time of one name, the child stopped or not */
#define MAXLEN 65536	/* longer names, mangled or not, stay mangled */
#define UNBOUND 125	/* the child's exit status: no limits could be set */

/* By soname, never by path: a set-user-ID run gets here once its rights
 * are given up for good, AT_SECURE: LD_LIBRARY_PATH, LD_PRELOAD ignored. */
static void
load(struct demangler *dm)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);

	dm->loaded = 1;
	if (h != NULL)	/* a function pointer from an object's: as POSIX */
		*(void **)&dm->fn = dlsym(h, "__cxa_demangle");
	if (dm->fn == NULL)
		warnx_("notice: C++ names are shown mangled: no demangler "
		    "(__cxa_demangle of libstdc++.so.6) could be loaded");
	dm->buf = xmalloc(MAXLEN + 2);	/* a name, or "=" its form, and NUL */
}

/* S and its NUL to the other end, which has read the last; no SIGPIPE. */
static int
put(int fd, const char *s)
{
	size_t n = strlen(s) + 1;
	ssize_t r;

	for (size_t done = 0; done < n; done += r > 0 ? (size_t)r : 0)
		if ((r = send(fd, s + done, n - done, MSG_NOSIGNAL)) < 0 &&
		    errno != EINTR)
			return -1;
	return 0;
}

/* A string up to its NUL into dm->buf; -1: the other end gone, or WAIT s. */
static int
get(struct demangler *dm, time_t wait)
{
	struct timespec t0, t;
	size_t got = 0;
	ssize_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got == 0 || dm->buf[got - 1] != '\0') {
		r = got > MAXLEN + 1 ? 0 :
		    recv(dm->fd, dm->buf + got, MAXLEN + 2 - got, 0);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (r == 0 || (r < 0 && errno != EINTR) ||
		    (wait && t.tv_sec - t0.tv_sec > wait))
			return -1;
		got += r > 0 ? (size_t)r : 0;
	}
	return 0;
}

/* The child: a name in; out "=" and its demangled form, "+" past a limit,
 * "-" for no name.  Its limits: no core file; MEM_MIB more address space
 * than it has (a fork of the report, which may hold much); for a name
 * CPU_MS of CPU time (SIGPROF), or else 1-2 s more than it has used
 * (RLIMIT_CPU counts a life).  It ends in _exit: nothing of the report's
 * (stdio buffers, exit hooks) is done twice. */
static _Noreturn void
serve(struct demangler *dm)
{
	struct itimerval t = { { 0, 0 }, { 0, CPU_MS * 1000 } };
	char statm[32] = "";	/* its size in pages first */
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC), status;
	ssize_t n = fd < 0 ? -1 : read_full(fd, statm, sizeof statm - 1, -1);
	rlim_t s = (rlim_t)strtoull(statm, NULL, 10) *
	    (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)MEM_MIB << 20);
	struct rusage u;
	sigset_t none;
	char *r;

	sigemptyset(&none);
	signal(SIGPROF, SIG_DFL);
	if (n <= 0 || close(fd) < 0 ||
	    setrlimit(RLIMIT_AS, &(struct rlimit){ s, s }) < 0 ||
	    setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 }) < 0 ||
	    sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		_exit(UNBOUND);
	for (rlim_t cpu, set = 0; get(dm, 0) == 0 &&
	    getrusage(RUSAGE_SELF, &u) == 0; set = cpu) {
		cpu = (rlim_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 2;
		if ((cpu != set && setrlimit(RLIMIT_CPU,
		    &(struct rlimit){ cpu, cpu + 1 }) < 0) ||
		    setitimer(ITIMER_PROF, &t, NULL) < 0)
			_exit(UNBOUND);
		r = dm->fn(dm->buf, NULL, NULL, &status);
		dm->buf[1] = '\0';
		if (r != NULL && strlen(r) <= MAXLEN)
			memcpy(dm->buf + 1, r, strlen(r) + 1);
		dm->buf[0] = dm->buf[1] ? '=' : status == -2 ? '-' : '+';
		free(r);
		if (put(dm->fd, dm->buf) < 0)
			break;
	}
	_exit(0);
}

static int
start(struct demangler *dm)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	dm->pid = fork();
	dm->fd = sv[dm->pid == 0];
	close(sv[dm->pid != 0]);
	if (dm->pid == 0)
		serve(dm);
	if (dm->pid < 0)
		close(dm->fd);
	return dm->pid < 0 ? -1 : setsockopt(dm->fd, SOL_SOCKET, SO_RCVTIMEO,
	    &(struct timeval){ WALL_S, 0 }, sizeof(struct timeval));
}

/* The child killed and reaped: 1 when it could not set its limits. */
static int
stop(struct demangler *dm)
{
	int st = 0;

	close(dm->fd);
	kill(dm->pid, SIGKILL);
	while (waitpid(dm->pid, &st, 0) < 0 && errno == EINTR)
		;
	dm->pid = 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == UNBOUND;
}

const char *
demangle_or_same(void *ctx, const char *name, size_t len, size_t *outlen)
{
	struct demangler *dm = ctx;

	*outlen = len;
	if (len < 3 || memcmp(name, "_Z", 2) != 0 ||
	    memchr(name, '\0', len) != NULL)
		return name;	/* not a mangled name: never sent */
	if (!dm->loaded)
		load(dm);
	if (dm->fn == NULL || dm->broken)
		return name;
	if (dm->pid == 0 && start(dm) < 0)
		warnx_("notice: C++ names are shown mangled: the demangler "
		    "could not be started: %s", strerror(errno));
	if ((dm->broken = dm->pid <= 0) || len > MAXLEN) {
		dm->left += !dm->broken;	/* too long to be sent */
		return name;
	}
	memcpy(dm->buf, name, len);
	dm->buf[len] = '\0';
	if (put(dm->fd, dm->buf) < 0 || get(dm, WALL_S) < 0) {
		dm->buf[0] = '+';	/* the child killed, stopped, or gone */
		if ((dm->broken = stop(dm)))
			warnx_("notice: C++ names are shown mangled: the "
			    "demangler could not be held to its limits");
	}
	dm->left += dm->buf[0] == '+' && !dm->broken;
	*outlen = dm->buf[0] == '=' ? strlen(dm->buf + 1) : len;
	return dm->buf[0] == '=' ? dm->buf + 1 : name;
}

void
demangler_free(struct demangler *dm)
{
	if (dm->pid > 0)
		stop(dm);
	if (dm->left > 0)
		warnx_("warning: %llu C++ name%s shown mangled: demangling %s "
		    "went past a limit (%d MiB of memory, %d ms of CPU time, "
		    "%d s in all, %d KiB of text)", dm->left, dm->left == 1 ?
		    " is" : "s are", dm->left == 1 ? "it" : "each", MEM_MIB,
		    CPU_MS, WALL_S, MAXLEN / 1024);
	free(dm->buf);
	*dm = (struct demangler){ 0 };
}
