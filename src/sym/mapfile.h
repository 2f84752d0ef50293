/*
 * mapfile.h - System.map, /proc/kallsyms, `nm -n`: "ADDRESS TYPE NAME ..."
 * lines up to MAP_MAX_LINE bytes, read as a stream and classified.
 */
#ifndef RP_MAPFILE_H
#define RP_MAPFILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/input.h"
#include "base/sniff.h"

#define MAP_MAX_LINE ((size_t)1 << 20)

struct map {
	const char *name;
	struct input in;
	char *buf;		/* read buffer */
	size_t cap, len, pos;
	size_t lines;		/* one past the last newline read */
	int eof;
	uint64_t lineno;
	int crlf;		/* "_stext\r" seen: DOS line endings */
	const struct sniff *kind;	/* recognisably not a map, or NULL */
	size_t head;		/* bytes of the first SNIFF_TEXT looked at */
	int head_nul, head_nl;	/* a NUL byte, a line end among them */
	int hold;		/* keep every line read, for map_rewind() */
	int skip_undefined;	/* pass over nm's address-less U/w/v lines */
};

enum sym_kind {
	SYM_TEXT,		/* type T, t, W or w */
	SYM_ABS,		/* type A or ?: absolute */
	SYM_OTHER,		/* any other type: data */
};

struct sym {
	uint64_t addr;
	enum sym_kind kind;
	char type;		/* the type letter, as nm prints it */
	const char *name;	/* valid until the next map_next() */
	size_t namelen;
	int stable;		/* NAME, NUL-ended, valid until the source
				 * is closed (an ELF string table's) */
	uint64_t lineno;
	int dynamic;		/* from a .dynsym without .symtab (what a
				 * program exports), SIZE its st_size */
	uint64_t size;
};

/* A map over IN, open, whose first N bytes (SNIFF_MAX, unless the input
 * is shorter: they tell compressed data), HEAD, were read already. */
void map_open_input(struct map *m, const char *name, const struct input *in,
    const void *head, size_t n);

/* A map over a copy of the N bytes at TEXT (tests, symsrc_open_mem). */
void map_open_mem(struct map *m, const char *name, const char *text, size_t n);

/* Next line: 1, or 0 at end of file.  A malformed line is fatal. */
int map_next(struct map *m, struct sym *s);

/* Parse one line [p, e), *e '\n' or NUL, into S: 0, or -1 when it does not
 * hold an address, a type and a name.  As in the classic tool, a NUL byte
 * ends the line's text.  (For the tests and the fuzzer.) */
int map_parse_line(const char *p, const char *e, struct sym *s);

enum sym_kind map_kind(char type);

int sym_is(const struct sym *s, const char *name);
int sym_is_stext(const struct sym *s);
int sym_is_etext(const struct sym *s);

/* Back to the first line (after symsrc_hold), dropping lines as reread. */
void map_rewind(struct map *m);

void map_close(struct map *m);

#endif
