/*
 * outfile.h - --pprof's file.  outfile_open comes before any work, so
 * that an unwritable place is an error at once; the caller writes through
 * the stream and calls outfile_commit last, after every check of its
 * inputs.
 *   - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are
 *     the descriptor the shell opened, written through it (descriptor 1:
 *     F is NULL, the caller writes into the report's stream).
 *   - A regular file, or a new one (NAME's symlinks followed), is written
 *     beside it and renamed over it at commit, so that the old file stays
 *     as it was unless the run succeeds: written unnamed (O_TMPFILE), so
 *     that nothing is left whatever ends the run, or where the file system
 *     cannot, as a temporary ".NAMEXXXXXX" (no longer than NAME) removed
 *     on a fatal error.  It gets the old file's mode, owner and group; when
 *     the group (or owner) cannot be kept, the group's bits, set-user-ID
 *     and set-group-ID are dropped: never wider.  A new file gets 0666 &
 *     ~umask.
 *   - Anything else (a FIFO, a device, a terminal) is written directly.
 */
#ifndef RP_OUTFILE_H
#define RP_OUTFILE_H

#include <stdio.h>
#include <sys/stat.h>

struct outfile {
	char *name;		/* as given, for messages */
	char *path;		/* the file replaced, or NULL: written directly */
	char *tmp;		/* the named temporary, or NULL */
	FILE *f;		/* where the caller writes; NULL: standard output */
	int exists;		/* PATH was a regular file: OLD is its status */
	struct stat old;
};

/* Open OF's file for NAME (a regular file itself is not touched); fatal,
 * naming NAME, when it cannot be. */
void outfile_open(struct outfile *of, const char *name);

/* Put the complete file in place (flush a descriptor's) and free OF's
 * names; fatal, naming NAME, on any error. */
void outfile_commit(struct outfile *of);

/* Leave the old file as it was and nothing else (a fatal error's hook):
 * the named temporary is removed.  OF may be unopened (all zero). */
void outfile_abort(struct outfile *of);

#endif
