/*
 * debugfile.h - a stripped program's separate debug file, as gdb finds it:
 * /usr/lib/debug/.build-id/xx/rest.debug (the hex of its GNU build-id), or
 * the file its .gnu_debuglink names (its CRC-32 checked) beside it, in
 * .debug/ there, or under /usr/lib/debug/ and the program's directory.
 */
#ifndef RP_DEBUGFILE_H
#define RP_DEBUGFILE_H

#include <stddef.h>

#define DEBUGFILE_TRIED 4

struct debugfile {
	const char *use;	/* the symbol source to read: PROG or its debug file */
	int stripped;		/* PROG has no .symtab, and no debug file was found */
	char *tried[DEBUGFILE_TRIED];	/* the places looked at */
	size_t ntried;		/* 0: PROG has no build-id, no debuglink */
	int crc_bad;		/* a debuglink candidate had another CRC-32 */
};

/* The symbol source to read for PROG (-m of a gmon.out), in D->use: PROG
 * when it has a .symtab, is no ELF file or is stdin; else its debug file
 * under DEBUG, said on stderr; else PROG (its .dynsym), D->stripped set. */
void debugfile_resolve(struct debugfile *d, const char *prog,
    const char *debug);

/* Why stripped D's symbols are only its dynamic ones: one sentence naming
 * the places looked at, malloc'd. */
char *debugfile_cause(const struct debugfile *d, const char *prog);

void debugfile_free(struct debugfile *d);

#endif
