/*
 * demangle.c - __cxa_demangle from libstdc++, loaded when first needed.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "sym/demangle.h"
#include "base/util.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf,
    size_t *len, int *status);

static cxa_demangle_fn cxa_demangle;
static int loaded, told;
static char *in, *last;
static size_t incap;

/*
 * The library is named by its soname, never by a path: the dynamic
 * loader's own search.  A set-user-ID install reaches this only after
 * giving its rights up for good (kroot_drop_privileges_for_good), and
 * the process stays AT_SECURE for its life, so glibc's and musl's loaders
 * still ignore LD_LIBRARY_PATH and LD_PRELOAD from the caller's
 * environment: only the system's libstdc++ can be loaded.
 */
static void
load(void)
{
	void *h;

	loaded = 1;
	h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
		return;
	/* a function pointer from dlsym's object pointer, as POSIX allows */
	*(void **)&cxa_demangle = dlsym(h, "__cxa_demangle");
}

/*
 * The demangled form of NAME (LEN bytes), its length in *OUTLEN; NULL when
 * NAME is not a mangled C++ name (it does not begin with "_Z", or the
 * demangler refuses it) or no demangler can be loaded.  Valid until the
 * next call.
 */
static const char *
demangle(const char *name, size_t len, size_t *outlen)
{
	int status = -1;
	char *r;

	if (len < 3 || name[0] != '_' || name[1] != 'Z' ||
	    memchr(name, '\0', len) != NULL)
		return NULL;
	if (!loaded)
		load();
	if (cxa_demangle == NULL) {
		if (!told)
			warnx_("notice: C++ names are shown mangled: no "
			    "demangler (__cxa_demangle of libstdc++.so.6) "
			    "could be loaded");
		told = 1;
		return NULL;
	}
	if (len + 1 > incap) {
		incap = len + 64;
		in = xrealloc(in, incap);
	}
	memcpy(in, name, len);
	in[len] = '\0';
	r = cxa_demangle(in, NULL, NULL, &status);
	if (r == NULL || status != 0) {
		free(r);
		return NULL;
	}
	free(last);
	last = r;
	*outlen = strlen(r);
	return r;
}

const char *
demangle_or_same(const char *name, size_t len, size_t *outlen)
{
	const char *d = demangle(name, len, outlen);

	if (d != NULL)
		return d;
	*outlen = len;
	return name;
}
