/*
 * input.h - open an input for reading: a path, "-" for standard input, or
 * a compressed file (.gz, .xz, .zst, .bz2), decompressed by exec'ing the
 * tool as TOOL -dc -- FILE (no shell; the caller's rights) once the file
 * is opened here, so that its errors are reported as for any file.  A
 * regular file is sized when opened: one found shorter or longer than
 * that while it is read, or when it is closed, is an error naming it.
 */
#ifndef RP_INPUT_H
#define RP_INPUT_H

#include <stdint.h>
#include <sys/types.h>

struct input {
	const char *name;	/* as given, for messages */
	int fd;
	pid_t child;		/* decompressor, or -1 */
	int errfd;		/* decompressor's stderr, or -1 */
	char errmsg[512];	/* the start of what it wrote there */
	size_t errlen;
	const char *tool;	/* decompressor's name, or NULL */
	int seekable;		/* a regular file of known size: pread works */
	uint64_t size;		/* when seekable: its size when opened */
	uint64_t off;		/* bytes read by input_read */
};

/* The most bytes of a profile (more than a kernel writes: 2^28 counters
 * and a step word) or of an input read whole from a pipe or decompressor,
 * whose cap in the program is input_cap (base/cap.c): tests lower it. */
#define INPUT_MAX_BYTES ((uint64_t)1 << 30 | 4)
extern const uint64_t input_cap;

/* Read N bytes into BUF at OFF (pread), or from the current position when
 * OFF < 0, through short reads and interrupts: the count, less than N
 * only at the end of the file, or -1 with errno set. */
ssize_t read_full(int fd, void *buf, size_t n, int64_t off);

/* Open NAME: 0, or -1 with errno set when the file itself cannot be
 * (missing, a directory...); a decompressor that cannot start is fatal. */
int input_open(struct input *in, const char *name);

/* Read up to N bytes: the count, 0 at the end, where a decompressor is
 * waited for and its failure fatal, as is a regular file's ending short
 * of its size or past it. */
size_t input_read(struct input *in, void *buf, size_t n);

/* input_read until N bytes are read: fewer only at the end of input. */
size_t input_fill(struct input *in, void *buf, size_t n);

/* The rest of IN, after the N bytes at HEAD, in one buffer (malloc'd)
 * doubled as it fills: its length in *LEN, at most MAX + 1, past which
 * nothing is read (the caller says what is too large). */
unsigned char *input_slurp(struct input *in, const void *head, size_t n,
    uint64_t max, size_t *len);

/* Read N bytes at OFF of a seekable input; fatal when short (it shrank). */
void input_pread(struct input *in, void *buf, size_t n, uint64_t off);

/* Fatal, naming it, when a seekable input's size is not as when opened. */
void input_check_size(const struct input *in);

/* Close, stopping a decompressor whose output was not read to the end. */
void input_close(struct input *in);

/* The decompressor for NAME's suffix, or NULL. */
const char *input_tool(const char *name);

#endif
