/*
 * demangle.h - C++ symbol names as gprof and c++filt print them, by the
 * C++ runtime's own __cxa_demangle, looked up in libstdc++.so.6 at run
 * time (dlopen) and run in a child process that the system holds to each
 * name's limits (address space, CPU time; the parent bounds its wall
 * time).  Names asked ahead go to it, and come back, a batch at a time:
 * one exchange, not one per name.  Where it cannot be had (no libstdc++,
 * a static or musl build) names stay mangled and one notice says so.
 */
#ifndef RP_DEMANGLE_H
#define RP_DEMANGLE_H

#include <stddef.h>
#include <sys/types.h>

/* A report's demangler, zeroed at first: the library is loaded, and the
 * child started, at the first mangled name; it is started again for the
 * next name when a name's limits ended it. */
struct demangler {
	char *(*fn)(const char *mangled, char *buf, size_t *len, int *status);
	int loaded, broken;	/* looked for; no child can be had */
	pid_t pid;		/* the child, or 0 */
	int fd;			/* its socket, when pid */
	unsigned long long left;	/* names left mangled by a limit */
	char *buf;		/* answers read; [at, end) not yet taken */
	size_t at, end;
	char *out;		/* names asked, each with its NUL: USED of CAP */
	size_t used, cap;	/* bytes; the next to answer at NEXT, SENT of */
	size_t next, sent, solo;	/* them sent; those before SOLO alone */
};

/* For struct run's ahead hook: NAME (LEN bytes) will be asked next, after
 * those asked ahead before it: it is sent to the child with them, and
 * their answers come in one exchange.  NAME NULL: a new batch; names asked
 * ahead and not asked for are dropped. */
void demangle_ahead(void *ctx, const char *name, size_t len);

/* For struct run's rename hook, CTX a struct demangler: NAME (LEN
 * bytes) demangled, or NAME itself when not a mangled C++ name ("_Z..."),
 * when the demangler refuses it, when demangling it went past a limit
 * (counted), or when no demangler can be had; its length in *OUTLEN.
 * Valid until the next call.  A name asked ahead is taken from the
 * exchange; any other is sent on its own.  It may load a library: call only once
 * installed rights are given up for good. */
const char *demangle_or_same(void *ctx, const char *name, size_t len,
    size_t *outlen);

/* End DM's child, and say on stderr how many names went past a limit. */
void demangler_free(struct demangler *dm);

#endif
