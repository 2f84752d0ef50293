/*
 * elfsym.h - an ELF file's symbol table as a symbol source, and what its
 * headers say (elf_peek).  ELF32 and ELF64, either byte order, any type;
 * .symtab, else .dynsym.  One pass builds an array of 16-byte entries (at
 * most 2^24 symbols), sorted in place as `nm -n` sorts; names stay in the
 * string table (read whole, or held with the rest of a file from a pipe
 * or a decompressor).  Symbols `nm --defined-only` would not print, and
 * those without a name, are left out.  A Linux kernel image (defining
 * _stext and linux_banner) gets scripts/mksysmap's filter: types a, N, U
 * and w, and names beginning with "$", ".L", "__crc_", "__kstrtab_" or
 * "__kstrtabns_", or "L0", are dropped.
 *
 * A defect of the file is fatal ("readprofile: FILE: what"), but to
 * elf_peek (the debug-file search, the pprof Mapping, the gmon.out check)
 * a file that is not well-formed ELF is "nothing known"; one that changes
 * size while read is fatal to both.
 */
#ifndef RP_ELFSYM_H
#define RP_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#include "base/input.h"
#include "sym/mapfile.h"
#include "sym/notes.h"

struct elf;

/* Does the data start with the ELF magic?  N may be short. */
int elf_magic(const void *head, size_t n);

/* Read the ELF file open as IN (taken over), HEAD its first N bytes. */
struct elf *elf_open(const char *name, struct input *in, const void *head,
    size_t n);

/* The same over a copy of N bytes in memory. */
struct elf *elf_open_mem(const char *name, const void *data, size_t n);

/* The next symbol in address order: 1, or 0 at the end. */
int elf_next(struct elf *e, struct sym *s);

/* Its GNU build-id (n 0: none). */
const struct build_id *elf_build_id(const struct elf *e);

/* Back to the first symbol (the table is held whole: always possible). */
void elf_rewind(struct elf *e);

/* Symbols left after filtering; whether the kernel filter was applied. */
size_t elf_count(const struct elf *e);
int elf_is_kernel(const struct elf *e);

void elf_close(struct elf *e);

/* nm's type letter (for the unit tests): the section's (lowercase, or
 * 'N'), then the symbol's from its binding, type, index and that letter. */
char elf_section_letter(const char *name, uint32_t sh_type, uint64_t sh_flags);
char elf_symbol_letter(unsigned bind, unsigned type, uint32_t shndx,
    char section_letter);

#define ELF_PEEK_TEXT 8		/* executable segments kept */

struct elf_peek {
	int symtab;			/* has a non-empty SHT_SYMTAB section */
	struct build_id bid;		/* from the notes; n 0: none */
	char link[256];			/* .gnu_debuglink's file name; "" */
	uint32_t link_crc;		/* the CRC-32 of that file */
	struct elf_text { uint64_t vaddr, memsz, offset; } text[ELF_PEEK_TEXT];
	size_t ntext;			/* PT_LOAD segments with PF_X */
	uint64_t load_lo;		/* the lowest PT_LOAD address */
	int have_load;
	uint64_t exec_lo, exec_hi;	/* the SHF_EXECINSTR sections' span */
	int have_exec;
};

/* Peek at the ELF file PATH; 0, or -1 when it is not one (missing, not a
 * regular file, compressed, not ELF). */
int elf_peek(const char *path, struct elf_peek *pk);

/* In *OFF, the file offset of ADDR by the executable segment holding it
 * (else the first), as a memory map shows a mapping starting at ADDR: 0,
 * or -1 when there is no such segment or ADDR lies before the file. */
int elf_peek_offset(const struct elf_peek *pk, uint64_t addr, uint64_t *off);

/* The CRC-32 of .gnu_debuglink (IEEE 802.3, as zlib's crc32()) of PATH's
 * contents into *CRC; 0, or -1 when it cannot be read. */
int elf_file_crc32(const char *path, uint32_t *crc);

#endif
