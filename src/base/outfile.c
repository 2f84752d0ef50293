/* outfile.c - --pprof's file (outfile.h).  The unnamed file is linked at
 * commit as a free temporary name beside the target, renamed over it, all
 * signals blocked between the two calls, so that no name but the
 * target's outlives the run. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/util.h"

#define LINKS_MAX 40	/* symlinks followed, as the kernel's limit */

/* The descriptor NAME stands for ("-", /dev/stdout, /dev/fd/N...), or -1. */
static int
fd_named(const char *name)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (strcmp(name, "-") == 0 || strcmp(name, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(name, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (int i = 0; i < 2; i++) {
		const char *n = name + strlen(dirs[i]);
		size_t digits = strspn(n, "0123456789");

		if (strncmp(name, dirs[i], strlen(dirs[i])) == 0 &&
		    digits > 0 && digits < 10 && n[digits] == '\0')
			return atoi(n);
	}
	return -1;
}

/* The length of PATH's directory part, with its slash ("a/b": 2). */
static size_t
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* NAME with its symlinks followed (malloc'd), or NULL with errno set; a
 * link to what is not a regular file is kept, to be opened by its name.
 * The kernel keeps no link text of PATH_MAX bytes or more. */
static char *
resolve(const char *name)
{
	char *p = xasprintf("%s", name), *q, t[PATH_MAX + 1];
	struct stat sb;
	ssize_t n;

	for (int i = 0; i < LINKS_MAX; i++) {
		if (lstat(p, &sb) < 0 || !S_ISLNK(sb.st_mode) ||
		    (stat(p, &sb) == 0 && !S_ISREG(sb.st_mode)))
			return p;
		if ((n = readlink(p, t, PATH_MAX)) < 0 || n == PATH_MAX) {
			errno = n < 0 ? errno : ENAMETOOLONG;
			break;
		}
		t[n] = '\0';
		q = xasprintf("%.*s%s", t[0] == '/' ? 0 : (int)dir_len(p), p, t);
		free(p);
		p = q;
		errno = ELOOP;
	}
	free(p);
	return NULL;
}

/* The directory of PATH, to open (malloc'd): "." for a bare name. */
static char *
dir_of(const char *path)
{
	size_t d = dir_len(path);

	return d ? xasprintf("%.*s", (int)d, path) : xasprintf(".");
}

/* A mkostemp template beside PATH (malloc'd): ".", as much of PATH's last
 * part as keeps it no longer than that part (7 bytes at least), XXXXXX. */
static char *
tmp_name(const char *path)
{
	size_t d = dir_len(path), base = strlen(path + d);

	return xasprintf("%.*s.%.*sXXXXXX", (int)d, path,
	    base > 7 ? (int)(base - 7) : 0, path + d);
}

/* An unnamed file in PATH's directory that /proc can link later, else a
 * named temporary beside PATH (OF->tmp); -1 on failure. */
static int
open_temp(struct outfile *of)
{
	char *dir = dir_of(of->path), proc[64];
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

	free(dir);
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (fd >= 0 && access(proc, F_OK) == 0)
		return fd;
	if (fd >= 0)
		close(fd);
	of->tmp = tmp_name(of->path);
	if ((fd = mkostemp(of->tmp, O_CLOEXEC)) < 0) {
		free(of->tmp);
		of->tmp = NULL;
	}
	return fd;
}

/* Whether PATH (status SB) may be replaced by us: writable, and in a
 * sticky directory ours or the directory's (else errno EPERM). */
static int
replaceable(const char *path, const struct stat *sb)
{
	char *dir = dir_of(path);
	struct stat ds;
	uid_t me = geteuid();
	int no = stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && me != 0 &&
	    sb->st_uid != me && ds.st_uid != me;

	free(dir);
	if (no)
		errno = EPERM;
	return !no && access(path, W_OK) == 0;
}

/* The file of OF->name, not a descriptor's name: a FIFO or a device
 * opened to write as it is; else a temporary beside the regular file
 * (which may be new) to replace it at commit.  -1 with errno on failure. */
static int
open_path(struct outfile *of)
{
	struct stat sb;
	int st, fd;

	if ((of->path = resolve(of->name)) == NULL)
		return -1;
	st = stat(of->path, &sb);
	if (st < 0 && errno != ENOENT)	/* too long a name, a path via a file */
		return -1;
	if ((st == 0 && S_ISDIR(sb.st_mode)) ||
	    of->path[dir_len(of->path)] == '\0') {
		errno = EISDIR;
		return -1;
	}
	if (st == 0 && !S_ISREG(sb.st_mode)) {
		fd = open(of->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		free(of->path);
		of->path = NULL;	/* written directly */
		return fd;
	}
	of->exists = st == 0;
	if (of->exists && !replaceable(of->path, &sb))
		return -1;	/* not ours to replace */
	of->old = sb;
	return open_temp(of);
}

void
outfile_open(struct outfile *of, const char *name)
{
	int fd = fd_named(name);

	*of = (struct outfile){ .name = xasprintf("%s", name) };
	if (fd == STDOUT_FILENO)
		return;		/* the report's own stream */
	fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : open_path(of);
	if (fd < 0 || (of->f = fdopen(fd, "w")) == NULL)
		fatal("%s", name);
}

/* The new file's mode and owner, from the old file's or the umask. */
static void
set_owner(const struct outfile *of, int fd)
{
	const struct stat *o = &of->old;
	mode_t mode = umask(0);

	umask(mode);
	mode = 0666 & ~mode;
	if (of->exists) {
		mode = o->st_mode & 07777;
		if (fchown(fd, o->st_uid, o->st_gid) < 0) {
			mode &= ~(mode_t)(S_ISUID | S_ISGID);
			if (fchown(fd, (uid_t)-1, o->st_gid) < 0)
				mode &= ~(mode_t)S_IRWXG;
		}
	}
	if (fchmod(fd, mode) < 0)
		fatal("%s", of->name);
}

/* Link the unnamed file FD beside OF->path as a name that was free (made
 * by mkostemp, then removed), and rename it over OF->path. */
static void
link_over(struct outfile *of, int fd)
{
	char proc[64];
	sigset_t all, old;
	int rc = -1;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; tries < 100 && rc < 0; tries++) {
		char *t = tmp_name(of->path);
		int free_fd = mkostemp(t, O_CLOEXEC);

		if (free_fd >= 0) {
			close(free_fd);
			unlink(t);
			if ((rc = linkat(AT_FDCWD, proc, AT_FDCWD, t,
			    AT_SYMLINK_FOLLOW)) == 0 && (rc = rename(t, of->path)) < 0)
				unlink(t);
		}
		free(t);
		if (rc < 0 && errno != EEXIST)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc < 0)
		fatal("%s", of->name);
}

void
outfile_commit(struct outfile *of)
{
	int rc = 0;

	if (of->f != NULL && (fflush(of->f) != 0 || ferror(of->f)))
		fatal("%s: write error", of->name);
	if (of->f != NULL && of->path != NULL) {
		set_owner(of, fileno(of->f));
		if (of->tmp == NULL)
			link_over(of, fileno(of->f));
		else if (rename(of->tmp, of->path) < 0)
			fatal("%s", of->name);
		free(of->tmp);
		of->tmp = NULL;
	}
	if (of->f != NULL)	/* NULL: standard output, the report's stream */
		rc = fclose(of->f);
	of->f = NULL;
	if (rc != 0)
		fatal("%s: write error", of->name);
	free(of->name);
	free(of->path);
	of->name = of->path = NULL;
}

void
outfile_abort(struct outfile *of)
{
	if (of->tmp) {
		unlink(of->tmp);
		free(of->tmp);
		of->tmp = NULL;
	}
}
