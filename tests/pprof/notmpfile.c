/*
 * notmpfile.c - an LD_PRELOAD library for outfile.sh: open() with
 * O_TMPFILE fails with EOPNOTSUPP, as on a file system without it, and
 * says so by creating the file $NOTMPFILE_SEEN.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);

int
open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	if (real == NULL)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		const char *seen = getenv("NOTMPFILE_SEEN");

		if (seen != NULL)
			close(real(seen, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
		errno = EOPNOTSUPP;
		return -1;
	}
	return real(path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return open(path, flags, mode);
}
