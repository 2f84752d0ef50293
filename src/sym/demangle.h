/*
 * demangle.h - C++ symbol names as gprof and c++filt print them, by the
 * C++ runtime's own __cxa_demangle, looked up in libstdc++.so.6 at run
 * time (dlopen).  Where it cannot be had (no libstdc++, a static or musl
 * build) names stay mangled and one notice says so.
 */
#ifndef RP_DEMANGLE_H
#define RP_DEMANGLE_H

#include <stddef.h>
#include <stdint.h>

/* A report's demangler, zeroed at first: the library is loaded at its
 * first use, and the name it made last is held until the next call. */
struct demangler {
	char *(*fn)(const char *mangled, char *buf, size_t *len, int *status);
	int loaded;
	char *last;
};

/* For struct run's rename hook, CTX a struct demangler: NAME (LEN
 * bytes) demangled, or NAME itself when not a mangled C++ name the
 * demangler takes, when demangled it would be over 4 KiB, or when no
 * demangler can be loaded; its length in *OUTLEN.  Valid until the next
 * call.  It may load a library: call only once installed rights are given
 * up for good. */
const char *demangle_or_same(void *ctx, const char *name, size_t len,
    size_t *outlen);

/* Free what DM holds (the library stays loaded). */
void demangler_free(struct demangler *dm);

/* An upper bound on the length of NAME's (LEN bytes) demangled form, in
 * time linear in LEN; 1 << 40 or more when NAME is not a mangled name this
 * reader knows (it is then shown as it is). */
uint64_t demangle_bound(const char *name, size_t len);

#endif
