/*
 * outfile.h - a file replaced whole or not at all.  outfile_open comes
 * before any work, so that an unwritable place is an error at once; the
 * caller writes through the stream and calls outfile_commit last, after
 * every check of its inputs: only then is the file put in place, the old
 * one, if any, as it was until then.
 *   - NAME's symlinks are followed (at most 40) to the file replaced,
 *     which may be new.
 *   - A NAME that is not a regular file (/dev/null, a FIFO, a terminal,
 *     /dev/stdout on a pipe) is written directly, as the bytes come.
 *   - A regular file is written unnamed (O_TMPFILE) in its directory and
 *     linked in at commit: nothing can be left behind, whatever ends the
 *     run.  Without that, a temporary ".NAMEXXXXXX" beside it (no longer
 *     than NAME, so NAME's own length limit holds) is renamed at commit
 *     and removed on a fatal error; a signal that kills the run leaves it.
 *   - An existing file is replaced by a new inode with its mode, owner and
 *     group; when the group (or owner) cannot be kept, the group's bits,
 *     set-user-ID and set-group-ID are dropped, so that no one gains
 *     access.  Other hard links keep the old contents.  A new file gets
 *     0666 & ~umask.
 */
#ifndef RP_OUTFILE_H
#define RP_OUTFILE_H

#include <stdio.h>
#include <sys/stat.h>

struct outfile {
	char *name;		/* as given, for messages */
	char *path;		/* the file replaced: NAME's links followed */
	char *tmp;		/* the named temporary, or NULL */
	FILE *f;		/* where the caller writes */
	int direct;		/* not a regular file: written as it comes */
	int exists;		/* PATH was a regular file: OLD is its status */
	struct stat old;
};

/* Create OF's file for NAME (the name itself is not touched); fatal,
 * naming NAME, when it cannot be. */
void outfile_open(struct outfile *of, const char *name);

/* Put the complete file in place; fatal, naming NAME, on any error. */
void outfile_commit(struct outfile *of);

/* Leave the old file as it was and nothing else (a fatal error's hook):
 * the named temporary is removed.  OF may be unopened (all zero). */
void outfile_abort(struct outfile *of);

#endif
