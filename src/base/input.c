/* input.c - files, standard input and decompressors. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/input.h"
#include "base/sniff.h"
#include "base/util.h"

const char *
input_tool(const char *name)
{
	const struct sniff *k = sniff_suffix(name);

	return k != NULL ? k->tool : NULL;
}

/* Run TOOL -dc -- NAME, FD (NAME) its stdin too, its stdout in->fd.  The
 * child first moves each descriptor above 2: the caller may have closed
 * some of 0, 1, 2, which the pipes could then be. */
static void
spawn(struct input *in, int fd)
{
	int out[2], err[2], st[2];
	int e;
	ssize_t r;

	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    pipe2(st, O_CLOEXEC) < 0)
		fatal("pipe");
	in->child = fork();
	if (in->child < 0)
		fatal("fork");
	if (in->child == 0) {
		char *argv[] = { (char *)in->tool, "-dc", "--", (char *)in->name,
		    NULL };
		int i0 = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		int o1 = fcntl(out[1], F_DUPFD_CLOEXEC, 3);
		int e2 = fcntl(err[1], F_DUPFD_CLOEXEC, 3);

		signal(SIGPIPE, SIG_DFL);
		if (i0 < 0 || o1 < 0 || e2 < 0 || dup2(i0, 0) < 0 ||
		    dup2(o1, 1) < 0 || dup2(e2, 2) < 0)
			_exit(127);
		execvp(in->tool, argv);
		e = errno;
		r = write(st[1], &e, sizeof e);
		(void)r;
		_exit(127);
	}
	close(fd);
	close(out[1]);
	close(err[1]);
	close(st[1]);
	r = read_full(st[0], &e, sizeof e, -1);
	close(st[0]);
	if (r == (ssize_t)sizeof e) {
		waitpid(in->child, NULL, 0);
		in->child = -1;
		errno = e;
		fatal("%s: cannot run %s to decompress it", in->name, in->tool);
	}
	in->fd = out[0];
	in->errfd = err[0];
}

int
input_open(struct input *in, const char *name)
{
	int std = strcmp(name, "-") == 0;
	int fd = std ? dup(0) : open(name, O_RDONLY | O_CLOEXEC), e;
	struct stat sb;

	*in = (struct input){ .name = name, .child = -1, .errfd = -1 };
	if (fd < 0)
		return -1;
	if ((e = fstat(fd, &sb) < 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR :
	    0) != 0) {
		close(fd);
		errno = e;
		return -1;
	}
	in->tool = std ? NULL : input_tool(name);
	if (in->tool) {
		spawn(in, fd);
		return 0;
	}
	in->fd = fd;
	if (S_ISREG(sb.st_mode) && sb.st_size > 0 && !std) {
		in->seekable = 1;
		in->size = (uint64_t)sb.st_size;
	}
	return 0;
}

/* Read the decompressor's stderr, which is closed at its end: the start
 * kept for a message, the rest dropped, so that it never blocks. */
static void
drain_err(struct input *in)
{
	char scratch[4096];
	size_t room = sizeof in->errmsg - 1 - in->errlen;
	ssize_t r;

	r = room > 0 ? read(in->errfd, in->errmsg + in->errlen, room) :
	    read(in->errfd, scratch, sizeof scratch);
	if (r < 0 && errno == EINTR)
		return;
	if (r <= 0) {
		close(in->errfd);
		in->errfd = -1;
	} else if (room > 0) {
		in->errlen += (size_t)r;
	}
}

/* A decompressor that failed is fatal, with the first non-empty line it
 * wrote on stderr. */
static void
reap(struct input *in)
{
	char *msg;
	int status;

	if (in->child < 0)
		return;
	while (waitpid(in->child, &status, 0) < 0)
		if (errno != EINTR)
			fatal("waitpid");
	in->child = -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	if (WIFSIGNALED(status))
		fatalx("%s: %s killed by signal %d", in->name, in->tool,
		    WTERMSIG(status));
	while (in->errfd >= 0)	/* it has exited: the rest is there */
		drain_err(in);
	in->errmsg[in->errlen] = '\0';
	msg = in->errmsg + strspn(in->errmsg, "\n\r ");
	msg[strcspn(msg, "\n")] = '\0';
	fatalx("%s: %s failed (exit status %d)%s%s", in->name, in->tool,
	    WEXITSTATUS(status), msg[0] ? ": " : "", msg);
}

ssize_t
read_full(int fd, void *buf, size_t n, int64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = off < 0 ? read(fd, (char *)buf + done, n - done) :
		    pread(fd, (char *)buf + done, n - done,
		    (off_t)(off + (int64_t)done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

static _Noreturn void
changed(const struct input *in, uint64_t now)
{
	fatalx("%s: the file %s while being read (%llu bytes, then %llu)",
	    in->name, now < in->size ? "shrank" : "grew",
	    (unsigned long long)in->size, (unsigned long long)now);
}

void
input_check_size(const struct input *in)
{
	struct stat sb;

	if (!in->seekable || in->fd < 0)
		return;
	if (fstat(in->fd, &sb) < 0)
		fatal("%s", in->name);
	if ((uint64_t)sb.st_size != in->size)
		changed(in, (uint64_t)sb.st_size);
}

size_t
input_read(struct input *in, void *buf, size_t n)
{
	ssize_t r;

	for (;;) {
		if (in->errfd >= 0) {	/* its stderr too, as it comes */
			struct pollfd p[2] = { { in->fd, POLLIN, 0 },
			    { in->errfd, POLLIN, 0 } };

			if (poll(p, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				fatal("%s: poll", in->name);
			}
			if (p[1].revents != 0)
				drain_err(in);
			if (p[0].revents == 0)
				continue;
		}
		r = read(in->fd, buf, n);
		if (r >= 0)
			break;
		if (errno != EINTR)
			fatal("%s", in->name);
	}
	in->off += (uint64_t)r;
	if (in->seekable && (in->off > in->size || (r == 0 &&
	    in->off < in->size)))
		changed(in, in->off);
	if (r == 0) {
		input_check_size(in);
		reap(in);
	}
	return (size_t)r;
}

size_t
input_fill(struct input *in, void *buf, size_t n)
{
	size_t len = 0, got;

	while (len < n && (got = input_read(in, (char *)buf + len, n - len)) > 0)
		len += got;
	return len;
}

unsigned char *
input_slurp(struct input *in, const void *head, size_t n, uint64_t max,
    size_t *len)
{
	size_t cap = n > 1 << 16 ? n : 1 << 16;
	unsigned char *b = xmalloc(cap);

	if (n)
		memcpy(b, head, n);
	while ((n += input_fill(in, b + n, cap - n)) == cap && cap <= max) {
		cap = cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
		b = xrealloc(b, cap);
	}
	*len = n;
	return b;
}

void
input_pread(struct input *in, void *buf, size_t n, uint64_t off)
{
	ssize_t r = read_full(in->fd, buf, n, (int64_t)off);

	if (r < 0)
		fatal("%s", in->name);
	if ((size_t)r < n)
		changed(in, off + (uint64_t)r);
}

void
input_close(struct input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	if (in->child > 0) {
		kill(in->child, SIGTERM);
		waitpid(in->child, NULL, 0);
		in->child = -1;
	}
	if (in->errfd >= 0)
		close(in->errfd);
	in->errfd = -1;
}
