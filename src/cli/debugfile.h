/*
 * debugfile.h - a stripped program's separate debug file, as gdb finds it.
 *
 * Distributions ship programs without .symtab and put the symbols in a
 * debug file: /usr/lib/debug/.build-id/xx/rest.debug (xx/rest: the hex
 * of the program's GNU build-id), or the file named by its
 * .gnu_debuglink (its CRC-32 checked) beside the program, in .debug/
 * there, or under /usr/lib/debug/ followed by the program's directory.
 * /usr/lib/debug is looked for under the test root (kroot.h).
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

/*
 * The symbol source to read for PROG (-m of a gmon.out report), in
 * D->use: PROG itself when it has a .symtab, is no ELF file or is
 * standard input; else its debug file, said on stderr; else PROG (its
 * .dynsym), D->stripped set; debug files are looked for under DEBUG
 * (/usr/lib/debug, under the test root).  D is freed with debugfile_free.
 */
void debugfile_resolve(struct debugfile *d, const char *prog,
    const char *debug);

/*
 * Why a stripped program's symbols are only its dynamic ones (D from
 * debugfile_resolve, stripped): one sentence naming the places looked at,
 * malloc'd.
 */
char *debugfile_cause(const struct debugfile *d, const char *prog);

void debugfile_free(struct debugfile *d);

#endif
