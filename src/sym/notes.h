/*
 * notes.h - ELF notes: the GNU build-id among them.
 *
 * A note is three 32-bit words (name size, descriptor size, type) in its
 * file's byte order, the name (its size counts the NUL), the descriptor,
 * each padded to the notes' alignment (4, or 8 in some 64-bit sections).
 * The build-id is the descriptor of the note of type NT_GNU_BUILD_ID (3)
 * named "GNU", not always the first (/sys/kernel/notes may start with Xen's).
 */
#ifndef RP_NOTES_H
#define RP_NOTES_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_MAX 64		/* bytes; 20 (SHA-1) in practice */
#define BUILD_ID_HEX (2 * BUILD_ID_MAX + 1)

struct build_id {
	size_t n;		/* 0: none */
	unsigned char b[BUILD_ID_MAX];
};

enum notes_result {
	NOTES_FOUND = 1,
	NOTES_NONE = 0,		/* well-formed notes, no build-id */
	NOTES_BAD = -1,		/* a note runs past the end before one */
};

/* The build-id among the N bytes of notes at DATA, big-endian when BIG,
 * each part aligned to ALIGN (4 or 8; else 4).  One longer than
 * BUILD_ID_MAX, or empty, counts as none. */
enum notes_result notes_build_id(const void *data, size_t n, int big,
    size_t align, struct build_id *id);

/* ID as lower-case hex into BUF (BUILD_ID_HEX bytes); returns BUF. */
char *build_id_hex(const struct build_id *id, char *buf);

/* Whether A and B are the same build-id (both present). */
int build_id_equal(const struct build_id *a, const struct build_id *b);

/* The build-id of FILE, notes in this machine's byte order (the kernel's
 * /sys/kernel/notes): as notes_build_id(), or NOTES_NONE if unreadable. */
enum notes_result notes_file_build_id(const char *file, struct build_id *id);

#endif
