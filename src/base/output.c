/* output.c - the held-back report: a temporary file copied out whole. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/output.h"
#include "base/util.h"

#define CHUNK ((size_t)1 << 17)

/* An unlinked temporary file in $TMPDIR (when absolute) or /tmp, or NULL. */
static FILE *
temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;
	FILE *f = NULL;

	if (dir == NULL || dir[0] != '/' || strlen(dir) > sizeof path - 32)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(path, sizeof path, "%s/readprofile.XXXXXX", dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd >= 0 && (f = fdopen(fd, "w+")) == NULL)
		close(fd);
	return f;
}

void
out_init(struct out *o, int fd)
{
	struct stat sb, nb;

	*o = (struct out){ .fd = fd };
	/* /dev/null, the one place a report goes as it comes, or not */
	if (!(fstat(fd, &sb) == 0 && S_ISCHR(sb.st_mode) &&
	    stat("/dev/null", &nb) == 0 && sb.st_rdev == nb.st_rdev)) {
		o->held = (o->f = temp_file()) != NULL;
		o->unheld = !o->held;
	}
	/* else FD as a stream: stdout for its own descriptor, or a new one */
	if (!o->held && (o->f = fd == STDOUT_FILENO ? stdout :
	    fdopen(dup(fd), "w")) == NULL)
		fatal("standard output");
}

static void
write_failed(struct out *o)
{
	if (ferror(o->f))
		fatal(o->held ? "writing the report to a temporary file" :
		    "write error");
}

void
out_str(struct out *o, const char *s, size_t n)
{
	if (n && fwrite_unlocked(s, 1, n, o->f) != n)
		write_failed(o);
	o->partial |= o->unheld;
}

void
out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		write_failed(o);
	va_end(ap);
	o->partial |= o->unheld;
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The temporary file to the descriptor, from its start. */
static int
copy_out(struct out *o)
{
	char *chunk;
	size_t r;
	int ret = 0;

	if (fflush(o->f) != 0 || fseek(o->f, 0, SEEK_SET) != 0)
		fatal("writing the report to a temporary file");
	chunk = xmalloc(CHUNK);
	while (ret == 0 && (r = fread(chunk, 1, CHUNK, o->f)) > 0)
		ret = write_all(o->fd, chunk, r);
	if (ret == 0 && ferror(o->f))
		fatal("reading the report from a temporary file");
	free(chunk);
	rewind(o->f);
	if (ret == 0 && ftruncate(fileno(o->f), 0) < 0)
		fatal("a temporary file");
	return ret;
}

void
out_note(struct out *o, const char *msg)
{
	free(o->note);
	o->note = msg[0] ? xasprintf("%s", msg) : NULL;
}

int
out_finish(struct out *o)
{
	if (o->held ? copy_out(o) < 0 : fflush(o->f) != 0)
		return -1;
	o->partial = 0;
	if (o->note != NULL)	/* once the report is out */
		warnx_("%s", o->note);
	out_note(o, "");
	return 0;
}

void
out_discard(struct out *o)
{
	if (o->held) {
		fclose(o->f);
		o->held = 0;
		o->f = NULL;
	} else if (o->f != NULL) {
		fflush(o->f);
	}
	out_note(o, "");
	if (o->partial)
		warnx_("standard output: the report written so far is "
		    "incomplete (no temporary file could hold it)");
	o->partial = 0;
}
