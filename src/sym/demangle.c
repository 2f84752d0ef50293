/* demangle.c - __cxa_demangle of libstdc++, in a child the system bounds. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
#define BUFSZ (2 * MAXLEN + 4)	/* a string whole, and room to read on */
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
	dm->buf = xmalloc(BUFSZ);
}

/* N bytes at P to the other end, which has read the last; no SIGPIPE. */
static int
put(int fd, const char *p, size_t n)
{
	ssize_t r;

	for (size_t done = 0; done < n; done += r > 0 ? (size_t)r : 0)
		if ((r = send(fd, p + done, n - done, MSG_NOSIGNAL)) < 0 &&
		    errno != EINTR)
			return -1;
	return 0;
}

/* The next string whole in DM's buffer, read on (recv FLAGS) as need be;
 * else NULL: 1 in *GONE when the other end has gone, or sends a string
 * longer than MAXLEN + 1. */
static char *
take(struct demangler *dm, int flags, int *gone)
{
	char *s = dm->buf + dm->at, *z = memchr(s, '\0', dm->end - dm->at);
	ssize_t r;

	if (z != NULL) {
		dm->at = (size_t)(z + 1 - dm->buf);
		return s;
	}
	memmove(dm->buf, s, dm->end -= dm->at);
	dm->at = 0;
	r = dm->end > MAXLEN + 1 ? 0 : recv(dm->fd, dm->buf + dm->end,
	    BUFSZ - dm->end, flags);
	dm->end += r > 0 ? (size_t)r : 0;
	*gone = r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN);
	return r > 0 ? take(dm, flags, gone) : NULL;
}

/* The child: names in; for each "=" and its demangled form, "+" past a
 * limit or "-" for no name out, sent once no more names are in.  Its
 * limits: no core file; MEM_MIB more address space than it has (a fork of
 * the report, which may hold much); for each name CPU_MS of CPU time
 * (SIGPROF), or else 1-2 s more than it has used (RLIMIT_CPU counts a
 * life).  It ends in _exit: nothing of the report's is done twice. */
static _Noreturn void
serve(struct demangler *dm)
{
	struct itimerval t = { { 0, 0 }, { 0, CPU_MS * 1000 } }, off = { 0 };
	char statm[32] = "", *o = malloc(BUFSZ), *name, *r;
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC), st, gone = 0;
	ssize_t n = fd < 0 ? -1 : read_full(fd, statm, sizeof statm - 1, -1);
	rlim_t cpu, set = 0, s = (rlim_t)strtoull(statm, NULL, 10) *
	    (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)MEM_MIB << 20);
	struct rusage u;
	sigset_t none;
	size_t on = 0, len;

	sigemptyset(&none);
	signal(SIGPROF, SIG_DFL);
	if (o == NULL || n <= 0 || close(fd) < 0 ||
	    setrlimit(RLIMIT_AS, &(struct rlimit){ s, s }) < 0 ||
	    setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 }) < 0 ||
	    sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		_exit(UNBOUND);
	for (;;) {
		/* the answers sent before it waits, or when they fill O */
		name = on > BUFSZ - MAXLEN - 2 ? NULL :
		    take(dm, on ? MSG_DONTWAIT : 0, &gone);
		if (name == NULL) {
			if ((on > 0 && put(dm->fd, o, on) < 0) ||
			    (on == 0 && gone))
				break;
			on = 0;
			continue;
		}
		if (getrusage(RUSAGE_SELF, &u) < 0)
			_exit(UNBOUND);
		cpu = (rlim_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 2;
		if ((cpu != set && setrlimit(RLIMIT_CPU,
		    &(struct rlimit){ cpu, cpu + 1 }) < 0) ||
		    setitimer(ITIMER_PROF, &t, NULL) < 0)
			_exit(UNBOUND);
		set = cpu;
		r = dm->fn(name, NULL, NULL, &st);
		setitimer(ITIMER_PROF, &off, NULL);	/* idle: not its time */
		len = r != NULL && strlen(r) <= MAXLEN ? strlen(r) : 0;
		o[on++] = len ? '=' : st == -2 ? '-' : '+';
		memcpy(o + on, len ? r : "", len + 1);
		on += len + 1;
		free(r);
	}
	_exit(0);
}

static int
start(struct demangler *dm)
{
	int sv[2];

	dm->at = dm->end = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	dm->pid = fork();
	dm->fd = sv[dm->pid == 0];
	close(sv[dm->pid != 0]);
	if (dm->pid == 0)
		serve(dm);
	if (dm->pid < 0)
		close(dm->fd);
	return dm->pid < 0 ? -1 : 0;
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

/* Whether a child runs (started if need be), or none can be had. */
static int
ready(struct demangler *dm)
{
	if (!dm->loaded)
		load(dm);
	if (dm->fn != NULL && !dm->broken && dm->pid == 0 &&
	    (dm->broken = start(dm) < 0))
		warnx_("notice: C++ names are shown mangled: the demangler "
		    "could not be started: %s", strerror(errno));
	return dm->fn != NULL && !dm->broken;
}

/* The next answer, the names sent as the socket takes them up to byte
 * LIMIT; NULL when the child has gone, or not answered within WALL_S. */
static char *
await(struct demangler *dm, size_t limit)
{
	struct timespec t0, t;
	struct pollfd p;
	char *s = NULL;
	int gone = 0;
	ssize_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (t = t0; t.tv_sec - t0.tv_sec < WALL_S && (s = take(dm,
	    MSG_DONTWAIT, &gone)) == NULL && !gone;
	    clock_gettime(CLOCK_MONOTONIC, &t)) {
		p = (struct pollfd){ dm->fd, POLLIN, 0 };
		p.events |= dm->sent < limit ? POLLOUT : 0;
		if (poll(&p, 1, 1000) > 0 && (p.revents & POLLOUT) &&
		    (r = send(dm->fd, dm->out + dm->sent, limit - dm->sent,
		    MSG_NOSIGNAL | MSG_DONTWAIT)) > 0)
			dm->sent += (size_t)r;
	}
	return s;
}

/* The answer to the next name queued, NULL when there is no demangler.
 * The child answers a batch at a time: when it ends (a name past a limit,
 * or WALL_S with no answer) with names after this one sent, any of them
 * may have ended it, and each is sent again alone to a new child, up to
 * the one that ends it alone: that one is past a limit ("+"). */
static const char *
answer(struct demangler *dm)
{
	size_t at = dm->next, end = at + strlen(dm->out + at) + 1;
	const char *s;

	dm->next = end;
	while (ready(dm) && (s = await(dm, at < dm->solo ? end :
	    dm->used)) == NULL) {
		if ((dm->broken = stop(dm)))
			warnx_("notice: C++ names are shown mangled: the "
			    "demangler could not be held to its limits");
		if (dm->sent <= end) {
			dm->sent = end;
			return dm->broken ? NULL : "+";
		}
		dm->solo = dm->sent;	/* those sent: each alone */
		dm->sent = at;
	}
	return dm->broken || dm->fn == NULL ? NULL : s;
}

void
demangle_ahead(void *ctx, const char *name, size_t len)
{
	struct demangler *dm = ctx;

	if (name == NULL) {	/* those asked before and not taken: gone */
		while (dm->next < dm->used)
			answer(dm);
		dm->next = dm->used = dm->sent = dm->solo = 0;
		return;
	}
	if (len < 3 || memcmp(name, "_Z", 2) != 0 || len > MAXLEN ||
	    memchr(name, '\0', len) != NULL || !ready(dm))
		return;	/* not a name to send */
	if (dm->used + len + 1 > dm->cap) {
		dm->cap = (dm->used + len + 1) * 2;
		dm->out = xrealloc(dm->out, dm->cap);
	}
	memcpy(dm->out + dm->used, name, len);
	dm->out[dm->used + len] = '\0';
	dm->used += len + 1;
}

const char *
demangle_or_same(void *ctx, const char *name, size_t len, size_t *outlen)
{
	struct demangler *dm = ctx;
	const char *a;
	size_t at;

	*outlen = len;
	if (len < 3 || memcmp(name, "_Z", 2) != 0 ||
	    memchr(name, '\0', len) != NULL || !ready(dm))
		return name;	/* not a mangled name: never sent */
	if (len > MAXLEN) {
		dm->left++;	/* too long to be sent */
		return name;
	}
	for (at = dm->next; at < dm->used && (strlen(dm->out + at) != len ||
	    memcmp(dm->out + at, name, len) != 0); at += strlen(dm->out + at) + 1)
		;
	if (at == dm->used) {	/* not asked ahead: on its own */
		demangle_ahead(dm, NULL, 0);
		demangle_ahead(dm, name, len);
		at = 0;
	}
	while (dm->next < at)	/* asked ahead, not for: dropped */
		answer(dm);
	a = answer(dm);
	dm->left += a != NULL && a[0] == '+';
	if (a == NULL || a[0] != '=')
		return name;
	*outlen = strlen(a + 1);
	return a + 1;
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
	free(dm->out);
	*dm = (struct demangler){ 0 };
}
