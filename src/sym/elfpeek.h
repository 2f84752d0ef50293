/*
 * elfpeek.h - what an ELF program says of its separate debug file.
 *
 * Without reading its symbols: whether it has a .symtab, its GNU
 * build-id, and its .gnu_debuglink (a file name, then the CRC-32 of that
 * file).  Never fatal: a file that is not a well-formed ELF file is just
 * "nothing known" (the symbol reader says what is wrong with it).
 */
#ifndef RP_ELFPEEK_H
#define RP_ELFPEEK_H

#include <stddef.h>
#include <stdint.h>

#include "sym/notes.h"

struct elf_peek {
	int symtab;			/* has a SHT_SYMTAB section */
	struct build_id bid;		/* n 0: none */
	char link[256];			/* .gnu_debuglink's file name; "" */
	uint32_t link_crc;
};

/* Peek at the ELF file PATH; 0, or -1 when it is not one (or unreadable). */
int elf_peek(const char *path, struct elf_peek *pk);

/* The CRC-32 of .gnu_debuglink (IEEE 802.3, as zlib's crc32()) of PATH's
 * contents into *CRC; 0, or -1 when it cannot be read. */
int elf_file_crc32(const char *path, uint32_t *crc);


#endif
