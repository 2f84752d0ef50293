/* outfile.c - a file replaced whole or not at all (outfile.h).  The
 * O_TMPFILE inode is linked by its descriptor (linkat AT_EMPTY_PATH, or
 * /proc/self/fd/N without the capability that needs); over an existing
 * target, as a temporary name renamed over it, all signals blocked between
 * the two calls, so that no name but the target's outlives the run. */
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

/* The length of PATH's directory part, with its slash ("a/b": 2). */
static size_t
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* NAME with its symlinks followed (malloc'd), or NULL with errno set; a
 * link to what is not a regular file (/dev/stdout) is kept, to be opened
 * by its name.  The kernel keeps no link text of PATH_MAX bytes or more. */
static char *
resolve(const char *name)
{
	char *p = xasprintf("%s", name), *q, t[PATH_MAX + 1];

	for (int i = 0; i < LINKS_MAX; i++) {
		struct stat sb;
		ssize_t n;

		if (lstat(p, &sb) < 0 || !S_ISLNK(sb.st_mode) ||
		    (stat(p, &sb) == 0 && !S_ISREG(sb.st_mode)))
			return p;
		if ((n = readlink(p, t, PATH_MAX)) < 0 || n == PATH_MAX) {
			if (n == PATH_MAX)
				errno = ENAMETOOLONG;
			free(p);
			return NULL;
		}
		t[n] = '\0';
		q = xasprintf("%.*s%s", t[0] == '/' ? 0 : (int)dir_len(p), p, t);
		free(p);
		p = q;
	}
	errno = ELOOP;
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

/* Link the unnamed file FD as PATH. */
static int
link_fd(int fd, const char *path)
{
	char proc[64];

	if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT && errno != EPERM)
		return -1;
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* The unnamed file in PATH's directory, or -1 when that cannot be made
 * or linked later (errno EOPNOTSUPP: try a named one). */
static int
open_unnamed(const char *path)
{
	char *dir = dir_of(path), proc[64];
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

	free(dir);
	if (fd < 0) {
		if (errno == EISDIR || errno == EINVAL)	/* an old kernel */
			errno = EOPNOTSUPP;
		return -1;
	}
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (access(proc, F_OK) == 0)
		return fd;
	close(fd);	/* no /proc: it could not be linked without privilege */
	errno = EOPNOTSUPP;
	return -1;
}

/* Whether PATH (status SB) is another's in a sticky directory that is
 * not ours either, where only its owner may replace it (errno EPERM). */
static int
sticky_other(const char *path, const struct stat *sb)
{
	char *dir = dir_of(path);
	struct stat d;
	uid_t me = geteuid();
	int no = stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) && me != 0 &&
	    sb->st_uid != me && d.st_uid != me;

	free(dir);
	if (no)
		errno = EPERM;
	return no;
}

void
outfile_open(struct outfile *of, const char *name)
{
	struct stat sb;
	int fd, st;

	*of = (struct outfile){ .name = xasprintf("%s", name) };
	if ((of->path = resolve(name)) == NULL)
		fatal("%s", of->name);
	st = stat(of->path, &sb);
	if (st < 0 && errno != ENOENT)	/* too long a name, a path via a file */
		fatal("%s", of->name);
	if ((st == 0 && S_ISDIR(sb.st_mode)) ||
	    of->path[dir_len(of->path)] == '\0') {
		errno = EISDIR;
		fatal("%s", of->name);
	}
	if (st == 0 && !S_ISREG(sb.st_mode)) {
		/* not a regular file: opened to write as it is */
		of->direct = 1;
		fd = open(of->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	} else {
		of->exists = st == 0;
		if (of->exists && (access(of->path, W_OK) < 0 ||
		    sticky_other(of->path, &sb)))
			fatal("%s", of->name);	/* not ours to replace */
		if (of->exists)
			of->old = sb;
		fd = open_unnamed(of->path);
		if (fd < 0 && errno == EOPNOTSUPP) {	/* a named temporary */
			of->tmp = tmp_name(of->path);
			if ((fd = mkostemp(of->tmp, O_CLOEXEC)) < 0) {
				free(of->tmp);
				of->tmp = NULL;
			}
		}
	}
	if (fd < 0 || (of->f = fdopen(fd, "w")) == NULL)
		fatal("%s", of->name);
}

/* The new file's mode and owner, from the old file's or the umask. */
static void
set_owner(const struct outfile *of, int fd)
{
	const struct stat *o = &of->old;
	mode_t mode;

	if (!of->exists) {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	} else {
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

/* Link the unnamed file FD over the existing OF->path: as a name that
 * was free (made by mkostemp, then removed), renamed over it. */
static void
replace_unnamed(struct outfile *of, int fd)
{
	sigset_t all, old;
	int rc = -1;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; tries < 100 && rc < 0; tries++) {
		char *t = tmp_name(of->path);
		int free_fd = mkostemp(t, O_CLOEXEC);

		if (free_fd >= 0) {
			close(free_fd);
			unlink(t);
			if ((rc = link_fd(fd, t)) == 0 &&
			    (rc = rename(t, of->path)) < 0)
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
	int fd = fileno(of->f), rc;

	if (fflush(of->f) != 0 || ferror(of->f))
		fatal("%s: write error", of->name);
	if (!of->direct) {
		set_owner(of, fd);
		if (of->tmp) {
			if (rename(of->tmp, of->path) < 0)
				fatal("%s", of->name);
			free(of->tmp);
			of->tmp = NULL;
		} else if (of->exists || link_fd(fd, of->path) < 0) {
			if (!of->exists && errno != EEXIST)
				fatal("%s", of->name);
			replace_unnamed(of, fd);
		}
	}
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
