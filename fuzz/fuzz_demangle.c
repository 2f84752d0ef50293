/*
 * fuzz_demangle.c - libFuzzer harness for the bound on demangled names.
 *
 * The input is a name (a leading "_Z" is added when it has none, so that
 * most inputs reach the reader).  Its bound must never be below the
 * length of what the system's own __cxa_demangle (libstdc++.so.6, looked
 * up as the program does) makes of it; the demangler is called only when
 * the bound is small, so a bound that lies shows as a wrong length or as
 * a slow input.  demangle_or_same must give back the name itself or a
 * demangled form of at most 4 KiB.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/demangle.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn
demangler(void)
{
	static cxa_demangle_fn f;
	static int tried;
	void *h;

	if (!tried) {
		tried = 1;
		h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
		if (h != NULL)
			*(void **)&f = dlsym(h, "__cxa_demangle");
	}
	return f;
}

/* The run's demangler, as a report holds one. */
static struct demangler dm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cxa_demangle_fn f = demangler();
	char *name = malloc(size + 3), *r;
	size_t len = 0, outlen;
	const char *got;
	uint64_t b;
	int status = -1;

	if (size < 2 || data[0] != '_' || data[1] != 'Z') {
		memcpy(name, "_Z", 2);
		len = 2;
	}
	memcpy(name + len, data, size);
	len += size;
	name[len] = '\0';
	b = demangle_bound(name, len);
	if (f != NULL && b <= 1 << 20 && strlen(name) == len) {
		r = f(name, NULL, NULL, &status);
		if (r != NULL && status == 0)
			CHECK(strlen(r) <= b);
		free(r);
	}
	got = demangle_or_same(&dm, name, len, &outlen);
	CHECK(got == name ? outlen == len : outlen <= 4096);
	free(name);
	return 0;
}
