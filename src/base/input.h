/*
 * input.h - open an input for reading.
 *
 * An input is a path, "-" for standard input, or a compressed file
 * (.gz, .xz, .zst, .bz2) that is decompressed by exec'ing the standard tool
 * as TOOL -dc -- FILE: no shell.  The file is opened here first, so that
 * its errors are reported as for any file; the tool runs with the
 * caller's rights.
 *
 * A regular file is sized when opened: one found shorter or longer than
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

/*
 * The most bytes a profile (larger than any a kernel writes: 2^28
 * counters and a step word) or an input read whole into memory from a
 * pipe or a decompressor may have; the program's cap on the latter is
 * input_cap (base/cap.c), which tests may lower.
 */
#define INPUT_MAX_BYTES ((uint64_t)1 << 30 | 4)
extern const uint64_t input_cap;

/*
 * Read N bytes into BUF at offset OFF (pread), or with OFF < 0 from the
 * current position (read), going on after short reads and interrupts.
 * Returns the count, less than N only at the end of the file, or -1 with
 * errno set.
 */
ssize_t read_full(int fd, void *buf, size_t n, int64_t off);

/*
 * Open NAME.  Returns 0, or -1 with errno set when the file itself cannot
 * be opened (missing, a directory, ...).  A decompressor that cannot be
 * started is fatal.
 */
int input_open(struct input *in, const char *name);

/*
 * Read up to N bytes; returns the count, 0 at end of input.  At end of
 * input the decompressor, if any, is waited for and its failure is fatal,
 * and so is a regular file that ended short of its size, or went past it.
 */
size_t input_read(struct input *in, void *buf, size_t n);

/* input_read until N bytes are read: fewer only at the end of input. */
size_t input_fill(struct input *in, void *buf, size_t n);

/*
 * Read N bytes at OFF of a seekable input into BUF; fatal when they are
 * not all there (the file shrank).
 */
void input_pread(struct input *in, void *buf, size_t n, uint64_t off);

/*
 * A seekable input whose size is no longer the size it had when opened:
 * fatal, naming it.
 */
void input_check_size(const struct input *in);

/* Close, stopping a decompressor whose output was not read to the end. */
void input_close(struct input *in);

/* The decompressor for NAME's suffix, or NULL. */
const char *input_tool(const char *name);

#endif
