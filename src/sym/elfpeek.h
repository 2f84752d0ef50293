/*
 * elfpeek.h - what an ELF file's headers say, without its symbols.
 *
 * Whether it has a .symtab, its GNU build-id (from its note sections,
 * else its PT_NOTE segments), its .gnu_debuglink (a file name, then the
 * CRC-32 of that file), where its executable segments and sections lie
 * and its lowest loaded address: what the debug-file search, the pprof
 * Mapping and the check of a gmon.out against its program need.  Everything is read with
 * pread, each part bounded; a file that is not a well-formed ELF file is
 * just "nothing known" (the symbol reader says what is wrong with it),
 * but one that changes size while it is read is a fatal error naming it,
 * as for every input.
 */
#ifndef RP_ELFPEEK_H
#define RP_ELFPEEK_H

#include <stddef.h>
#include <stdint.h>

#include "sym/notes.h"

#define ELF_PEEK_TEXT 8		/* executable segments kept */

struct elf_peek {
	int symtab;			/* has a non-empty SHT_SYMTAB section */
	struct build_id bid;		/* n 0: none */
	char link[256];			/* .gnu_debuglink's file name; "" */
	uint32_t link_crc;
	struct { uint64_t vaddr, memsz, offset; } text[ELF_PEEK_TEXT];
	size_t ntext;			/* PT_LOAD segments with PF_X */
	uint64_t load_lo;		/* the lowest PT_LOAD address */
	int have_load;
	uint64_t exec_lo, exec_hi;	/* the SHF_EXECINSTR sections' span */
	int have_exec;
};

/*
 * The fields of an ELF header and of a section header that the readers
 * use, of either class (ELF32's widened), in the host's byte order.
 */
struct elf_ehdr {
	int is64, big;
	uint64_t phoff, shoff;
	uint64_t phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf_shdr {
	uint64_t name, type, flags, addr, offset, size, link, info, align;
	uint64_t entsize;
};

/*
 * Decode the ELF header H, whose class and byte order are known ones, of
 * 64 bytes (52 for ELF32).
 */
void elf_ehdr(const unsigned char *h, struct elf_ehdr *eh);

/* The section header at P of a file whose ELF header is EH. */
void elf_shdr(const struct elf_ehdr *eh, const unsigned char *p,
    struct elf_shdr *s);

/*
 * Peek at the ELF file PATH; 0, or -1 when it is not one (missing, not a
 * regular file, compressed, not ELF).
 */
int elf_peek(const char *path, struct elf_peek *pk);

/*
 * The file offset of the address ADDR as the executable segment holding
 * it (else the first executable segment) places it, in *OFF: what a
 * process's memory map would show as the offset of a mapping starting at
 * ADDR.  Returns 0, or -1 when there is no such segment or ADDR lies
 * before the file's start.
 */
int elf_peek_offset(const struct elf_peek *pk, uint64_t addr, uint64_t *off);

/* The CRC-32 of .gnu_debuglink (IEEE 802.3, as zlib's crc32()) of PATH's
 * contents into *CRC; 0, or -1 when it cannot be read. */
int elf_file_crc32(const char *path, uint32_t *crc);

#endif
