/* demangle.c - __cxa_demangle of libstdc++, in a child the system bounds. */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "sym/demangle.h"
#include "base/util.h"

#define MEM_MIB 32	/* address space one name may add to the child's */
#define CPU_MS 100	/* CPU time of one name */
#define WALL_S 5	/* time of one answer, the child stopped or not */
#define UNBOUND 125	/* the child's exit status: no limits could be set */

/* The child, forked with the names: for each from AT on, "=" and its form
 * demangled, "+" past a limit or "-" for none; each sent if DM careful. */
static _Noreturn void
serve(struct demangler *dm, size_t at)
{
	struct itimerval t = { { 0, 0 }, { 0, CPU_MS * 1000 } };
	FILE *f = fopen("/proc/self/statm", "re"), *o = fdopen(dm->fd, "w");
	unsigned long long pages;
	struct rlimit as;
	sigset_t none;
	char *r;
	int st;

	sigemptyset(&none);	/* SIGPROF, at CPU_MS, ends it */
	signal(SIGPROF, SIG_DFL);
	if (f == NULL || o == NULL || fscanf(f, "%llu", &pages) != 1 ||
	    getrlimit(RLIMIT_AS, &as) < 0)
		_exit(UNBOUND);
	pages = pages * (unsigned long long)sysconf(_SC_PAGESIZE) +
	    (MEM_MIB << 20);	/* bytes, within the hard limit: */
	as.rlim_cur = pages < as.rlim_max ? (rlim_t)pages : as.rlim_max;
	if (setrlimit(RLIMIT_AS, &as) < 0 || sigprocmask(SIG_SETMASK, &none,
	    NULL) < 0 || setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 }) < 0)
		_exit(UNBOUND);
	for (char *p = dm->out + at; p < dm->out + dm->used;
	    p += strlen(p) + 1) {
		if (setitimer(ITIMER_PROF, &t, NULL) < 0)
			_exit(UNBOUND);
		r = dm->fn(p, NULL, NULL, &st);
		fprintf(o, "%c%s%c", st == 0 ? '=' : st == -2 ? '-' : '+',
		    st == 0 ? r : "", '\0');	/* too long: never taken */
		if ((dm->careful && fflush(o) == EOF) || ferror(o))
			_exit(0);
		free(r);
	}
	_exit(fflush(o) == EOF);	/* nothing of the report's done twice */
}

/* Whether a child answers from NEXT on; the library by soname, not path. */
static int
ready(struct demangler *dm)
{
	struct timeval w = { WALL_S, 0 };
	void *h;
	int sv[2];

	if (dm->fn == NULL && !dm->broken) {
		if ((h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL)))
			*(void **)&dm->fn = dlsym(h, "__cxa_demangle");
		if ((dm->broken = dm->fn == NULL))
			warnx_("notice: C++ names are shown mangled: no "
			    "demangler (__cxa_demangle of libstdc++.so.6) "
			    "could be loaded");
	}
	if (dm->broken || dm->pid > 0)
		return !dm->broken;
	if ((dm->broken = socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sv) < 0 || setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &w,
	    sizeof w) < 0 || (dm->pid = fork()) < 0)) {
		warnx_("notice: C++ names are shown mangled: the demangler "
		    "could not be started: %s", strerror(errno));
		return 0;	/* its sockets, if any, kept: broken for good */
	}
	dm->fd = sv[dm->pid == 0];
	close(sv[dm->pid != 0]);
	if (dm->pid == 0)
		serve(dm, dm->next);
	dm->at = dm->end = 0;
	return 1;
}

/* The next answer whole, read on as need be; NULL when the child has
 * gone, sent nothing for WALL_S, or an answer longer than the buffer. */
static char *
take(struct demangler *dm)
{
	char *s, *z;
	ssize_t r;

	while ((z = memchr(s = dm->buf + dm->at, '\0', dm->end - dm->at)) ==
	    NULL) {
		memmove(dm->buf, s, dm->end -= dm->at);
		dm->at = 0;
		r = dm->end == sizeof dm->buf ? 0 : recv(dm->fd, dm->buf +
		    dm->end, sizeof dm->buf - dm->end, 0);
		if (r == 0 || (r < 0 && errno != EINTR))
			return NULL;
		dm->end += r > 0 ? (size_t)r : 0;
	}
	dm->at = (size_t)(z + 1 - dm->buf);
	return s;
}

/* The child, if any, killed and reaped: 1 when it set no limits. */
static int
stop(struct demangler *dm)
{
	int st = 0;

	if (dm->pid > 0) {
		close(dm->fd);
		kill(dm->pid, SIGKILL);
		while (waitpid(dm->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	dm->pid = 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == UNBOUND;
}

void
demangle_ahead(void *ctx, const char *name, size_t len)
{
	struct demangler *dm = ctx;

	stop(dm);	/* a child knows the names it was forked with */
	if (name == NULL)	/* a new batch: names not asked for dropped */
		dm->next = dm->used = dm->careful = 0;
	else if (len > 2 && memcmp(name, "_Z", 2) == 0 &&
	    memchr(name, '\0', len) == NULL) {
		if (dm->used + len + 1 > dm->cap)
			dm->out = xrealloc(dm->out, dm->cap = 2 * (dm->used +
			    len + 1));
		memcpy(dm->out + dm->used, name, len);
		dm->out[dm->used + len] = '\0';
		dm->used += len + 1;
	}
}

/* The answers come in order, the child's for those asked ahead and not
 * for dropped.  When one does not come, the child has ended: on that name,
 * which stays mangled (counted), if it was careful; else a careful one is
 * started for the names from it on. */
const char *
demangle_or_same(void *ctx, const char *name, size_t len, size_t *outlen)
{
	struct demangler *dm = ctx;
	const char *a = NULL;
	size_t at = dm->next;

	*outlen = len;
	if (len < 3 || memcmp(name, "_Z", 2) != 0 ||
	    memchr(name, '\0', len) != NULL)
		return name;	/* not a mangled name: never sent */
	while (at < dm->used && (strncmp(dm->out + at, name, len) != 0 ||
	    dm->out[at + len] != '\0'))
		at += strlen(dm->out + at) + 1;
	if (at == dm->used) {	/* not asked ahead: those left dropped */
		dm->next = at;
		demangle_ahead(dm, name, len);
	}
	for (; dm->next <= at; dm->next += strlen(dm->out + dm->next) + 1)
		while (ready(dm) && (a = take(dm)) == NULL) {
			if ((dm->broken = stop(dm)))
				warnx_("notice: C++ names are shown mangled: "
				    "the demangler could not be held to its "
				    "limits");
			else if (dm->careful)
				break;
			dm->careful = 1;
		}
	dm->left += !dm->broken && (a == NULL || a[0] == '+');
	if (!dm->broken && a != NULL && a[0] == '=')
		*outlen = strlen(name = a + 1);
	return name;
}

void
demangler_free(struct demangler *dm)
{
	stop(dm);
	if (dm->left > 0)
		warnx_("warning: %llu C++ name%s shown mangled: demangling %s "
		    "went past a limit (%d MiB of memory, %d ms of CPU time, "
		    "%d s in all, %d KiB of text)", dm->left, dm->left == 1 ?
		    " is" : "s are", dm->left == 1 ? "it" : "each", MEM_MIB,
		    CPU_MS, WALL_S, DEMANGLE_MAXLEN / 1024);
	free(dm->out);
	*dm = (struct demangler){ 0 };
}
