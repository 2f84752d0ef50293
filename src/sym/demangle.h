/*
 * demangle.h - C++ symbol names as gprof and c++filt print them, by the
 * C++ runtime's own __cxa_demangle, looked up in libstdc++.so.6 at run
 * time (dlopen) and run in a child process that the system holds to each
 * name's limits (address space, CPU time; the parent bounds its wall
 * time).  The child is forked with the names asked ahead in its memory
 * and answers them all, in order: one child a batch, not an exchange a
 * name.  Where it cannot be had (no libstdc++, a static or musl build)
 * names stay mangled and one notice says so.
 */
#ifndef RP_DEMANGLE_H
#define RP_DEMANGLE_H

#include <stddef.h>
#include <sys/types.h>

#define DEMANGLE_MAXLEN 65536	/* longer names demangled stay mangled */

/* A report's demangler, zeroed at first: the library is loaded, and a
 * child started, at the first answer asked; another is started for the
 * names after one whose limits ended it, and for each new batch. */
struct demangler {
	char *(*fn)(const char *mangled, char *buf, size_t *len, int *status);
	int broken;		/* no demangler can be had */
	int careful;		/* a child has ended: answers sent each as made */
	pid_t pid;		/* the child answering from NEXT on, or 0 */
	int fd;			/* its socket, when pid */
	unsigned long long left;	/* names left mangled by a limit */
	char buf[DEMANGLE_MAXLEN + 4];	/* answers read: [at, end) not */
	size_t at, end;			/* yet taken */
	char *out;		/* names asked, each with its NUL: USED of CAP */
	size_t used, cap, next;	/* bytes; the next to answer at NEXT */
};

/* For struct run's ahead hook: NAME (LEN bytes) will be asked next, after
 * those asked ahead before it: one child answers them all.  NAME NULL: a
 * new batch; names asked ahead and not asked for are dropped. */
void demangle_ahead(void *ctx, const char *name, size_t len);

/* For struct run's rename hook, CTX a struct demangler: NAME (LEN
 * bytes) demangled, or NAME itself when not a mangled C++ name ("_Z..."),
 * when the demangler refuses it, when demangling it went past a limit
 * (counted), or when no demangler can be had; its length in *OUTLEN.
 * Valid until the next call.  A name asked ahead is answered by its
 * batch's child; any other by a child of its own.  It may load a library: call only once
 * installed rights are given up for good. */
const char *demangle_or_same(void *ctx, const char *name, size_t len,
    size_t *outlen);

/* End DM's child, and say on stderr how many names went past a limit. */
void demangler_free(struct demangler *dm);

#endif
