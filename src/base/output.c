/*
 * output.c - report lines and the held-back output buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/output.h"
#include "base/util.h"

#define HOLD ((size_t)1 << 20)	/* held in memory before spilling */
#define DIRECT ((size_t)1 << 17)	/* a write at a time, written directly */
#define NAME_WIDTH 40

/*
 * Where the report can be written as it comes: /dev/null only.  Anything
 * else gets it whole or not at all: a file is never cut back, as bytes
 * written after ours (another writer of a log, a rotation) would go too.
 */
static int
can_write_directly(int fd)
{
	struct stat sb, nb;

	return fstat(fd, &sb) == 0 && S_ISCHR(sb.st_mode) &&
	    stat("/dev/null", &nb) == 0 && sb.st_rdev == nb.st_rdev;
}

void
out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->len = 0;
	o->spill = -1;
	o->partial = 0;
	o->direct = can_write_directly(fd);
	/* written as it comes: a buffer of a few pages is enough */
	o->cap = o->direct ? DIRECT : HOLD;
	o->buf = xmalloc(o->cap);
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

/*
 * An unlinked temporary file in $TMPDIR (when absolute) or /tmp, or -1.
 */
static int
temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (dir == NULL || dir[0] != '/' || strlen(dir) > sizeof path - 32)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof path, "%s/readprofile.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/*
 * N bytes at P out: written, or moved to the temporary file.  Without
 * one, the report is written as it comes from here on: an error then
 * leaves what was written (out_discard says so).
 */
static void
put_out(struct out *o, const char *p, size_t n)
{
	if (!o->direct && o->spill < 0 && (o->spill = temp_file()) < 0) {
		o->direct = 1;
		o->partial = 1;
	}
	if (o->direct) {
		if (write_all(o->fd, p, n) < 0)
			fatal("write error");
		return;
	}
	if (write_all(o->spill, p, n) < 0)
		fatal("writing the report to a temporary file");
}

/* The memory buffer is full: write it, or move it to the temporary file. */
static void
spill(struct out *o)
{
	put_out(o, o->buf, o->len);
	o->len = 0;
}

/*
 * Make room for N more bytes (the rare case: the buffer is full): what it
 * holds goes out first, and it grows only for a line longer than itself.
 */
static void
make_room(struct out *o, size_t n)
{
	if (o->len > 0)
		spill(o);
	if (n > o->cap) {
		o->cap = n;
		o->buf = xrealloc(o->buf, o->cap);
	}
}

/* Room for N more bytes; inline, as it is called for every line. */
static inline char *
room(struct out *o, size_t n)
{
	if (o->cap - o->len < n)
		make_room(o, n);
	return o->buf + o->len;
}

void
out_str(struct out *o, const char *s, size_t n)
{
	if (n > o->cap / 2) {	/* a large text: not copied */
		if (o->len > 0)
			spill(o);
		put_out(o, s, n);
		return;
	}
	memcpy(room(o, n), s, n);
	o->len += n;
}

/*
 * NAME, padded to NAME_WIDTH: the blanks are one fixed-size store (no
 * call) made first, the name then written over them.  P has room for
 * NAME_WIDTH bytes and for NLEN.
 */
static size_t
put_name(char *p, const char *name, size_t nlen)
{
	static const char blanks[NAME_WIDTH] =
	    "                                        ";

	memcpy(p, blanks, NAME_WIDTH);
	memcpy(p, name, nlen);
	return nlen < NAME_WIDTH ? NAME_WIDTH : nlen;
}

void
out_sym(struct out *o, uint64_t ticks, const char *name, size_t nlen,
    double load)
{
	char *p = room(o, nlen + NAME_WIDTH + 2 * FMT_MAX), *s = p;

	p += fmt_u64w(p, ticks, 6);
	*p++ = ' ';
	p += put_name(p, name, nlen);
	*p++ = ' ';
	p += fmt_fix84(p, load);
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

void
out_sym_verbose(struct out *o, uint64_t addr, const char *name, size_t nlen,
    uint64_t ticks, double load)
{
	char *p = room(o, nlen + NAME_WIDTH + 3 * FMT_MAX), *s = p;

	p += fmt_hex16(p, addr);
	*p++ = ' ';
	p += put_name(p, name, nlen);
	*p++ = ' ';
	p += fmt_u64w(p, ticks, 6);
	*p++ = ' ';
	p += fmt_fix84(p, load);
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

size_t
fmt_seconds(char *dst, uint64_t ticks, uint32_t rate)
{
	uint64_t pow = 1, whole = ticks / rate, rem = ticks % rate, frac;
	int d = 0;
	size_t n;

	while (d < 6 && (d < 2 || pow % rate != 0)) {
		pow *= 10;
		d++;
	}
	/* rem < rate < 2^32 and pow <= 10^6: no overflow */
	frac = (rem * pow * 2 + rate) / (2 * (uint64_t)rate);
	if (frac == pow) {
		whole++;
		frac = 0;
	}
	n = fmt_u64(dst, whole);
	dst[n++] = '.';
	for (int i = d - 1; i >= 0; i--) {
		dst[n + (size_t)i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	return n + (size_t)d;
}

/* TICKS / RATE as a decimal, right-aligned in 10; RATE > 0. */
static size_t
put_seconds(char *dst, uint64_t ticks, uint32_t rate)
{
	char tmp[FMT_MAX];
	size_t n = fmt_seconds(tmp, ticks, rate);

	if (n < 10) {
		memset(dst, ' ', 10 - n);
		memcpy(dst + 10 - n, tmp, n);
		return 10;
	}
	memcpy(dst, tmp, n);
	return n;
}

void
out_sym_seconds(struct out *o, uint64_t addr, const char *name, size_t nlen,
    uint64_t ticks, double load, uint32_t rate, const uint64_t *calls)
{
	char *p = room(o, nlen + NAME_WIDTH + 5 * FMT_MAX), *s = p;

	p += fmt_hex16(p, addr);
	*p++ = ' ';
	p += put_name(p, name, nlen);
	*p++ = ' ';
	p += fmt_u64w(p, ticks, 6);
	*p++ = ' ';
	p += fmt_fix84(p, load);
	*p++ = ' ';
	p += put_seconds(p, ticks, rate);
	if (calls) {
		*p++ = ' ';
		p += fmt_u64w(p, *calls, 8);
	}
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

void
out_counter(struct out *o, uint64_t addr, const char *name, size_t nlen,
    uint64_t off, uint32_t count)
{
	char *p = room(o, nlen + 3 * FMT_MAX), *s = p;

	*p++ = '\t';
	p += fmt_althex(p, addr);
	*p++ = '\t';
	memcpy(p, name, nlen);
	p += nlen;
	*p++ = '+';
	p += fmt_althex(p, off);
	*p++ = '\t';
	p += fmt_u64(p, count);
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

void
out_bin_header(struct out *o, const char *name, size_t nlen)
{
	char *p = room(o, nlen + 2);

	memcpy(p, name, nlen);
	p[nlen] = ':';
	p[nlen + 1] = '\n';
	o->len += nlen + 2;
}

void
out_bin(struct out *o, uint64_t addr, uint32_t count)
{
	char *p = room(o, 2 * FMT_MAX), *s = p;

	*p++ = '\t';
	p += fmt_hex(p, addr);
	*p++ = '\t';
	p += fmt_u64(p, count);
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

void
out_bin_total(struct out *o, uint64_t ticks)
{
	static const char head[] = "  total\t\t\t\t";
	char *p = room(o, sizeof head + FMT_MAX), *s = p;

	memcpy(p, head, sizeof head - 1);
	p += sizeof head - 1;
	p += fmt_u64(p, ticks);
	*p++ = '\n';
	o->len += (size_t)(p - s);
}

void
out_unknown(struct out *o, uint64_t count)
{
	static const char tail[] = " *unknown*\n";
	char *p = room(o, sizeof tail + FMT_MAX), *s = p;

	p += fmt_u64w(p, count, 6);
	memcpy(p, tail, sizeof tail - 1);
	p += sizeof tail - 1;
	o->len += (size_t)(p - s);
}

void
out_total(struct out *o, uint64_t total, double load, int verbose)
{
	if (verbose)
		out_sym_verbose(o, 0, "total", 5, total, load);
	else
		out_sym(o, total, "total", 5, load);
}

int
out_finish(struct out *o)
{
	char *chunk;
	ssize_t r;

	if (o->spill >= 0) {
		if (lseek(o->spill, 0, SEEK_SET) < 0)
			return -1;
		chunk = xmalloc(HOLD);
		while ((r = read(o->spill, chunk, HOLD)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 || write_all(o->fd, chunk, (size_t)r) < 0) {
				free(chunk);
				return -1;
			}
		}
		free(chunk);
		close(o->spill);
		o->spill = -1;
	}
	if (write_all(o->fd, o->buf, o->len) < 0)
		return -1;
	o->len = 0;
	o->partial = 0;
	return 0;
}

void
out_discard(struct out *o)
{
	if (o->spill >= 0)
		close(o->spill);
	o->spill = -1;
	o->len = 0;
	if (o->partial)
		warnx_("standard output: the report written so far is "
		    "incomplete (no temporary file could hold it)");
	o->partial = 0;
}
