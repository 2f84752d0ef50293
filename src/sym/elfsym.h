/*
 * elfsym.h - the symbol table of an ELF file as a symbol source.
 *
 * ELF32 and ELF64, either byte order, any file type; .symtab, or .dynsym
 * when there is none.  One pass over the table builds an array of 16-byte
 * entries (address, name offset, table index and type letter; so at most
 * 2^24 symbols), sorted in place as `nm -n` sorts;
 * names stay in the string table, read whole from a regular file (with
 * pread; the symbol table is read a chunk at a time) or held in memory
 * with the rest of the file (standard input, a decompressor's output),
 * never copied: the pass looks at their first bytes (for the kernel
 * filter), ties at one address compare them, and a symbol's name is found
 * only when it is asked for.  Memory: 16 bytes per symbol and the string
 * table.  Symbols `nm --defined-only` would not print are
 * left out, and so are those without a name (a text map cannot hold them).
 *
 * A Linux kernel image (one that defines both _stext and linux_banner)
 * gets the filter of the kernel's scripts/mksysmap, which makes System.map
 * from `nm -n vmlinux`: symbols of type a, N, U or w, and names beginning
 * with "$", ".L", "__crc_", "__kstrtab_" or "__kstrtabns_", or equal to
 * "L0", are dropped.
 *
 * Anything wrong with the file is fatal: "readprofile: FILE: what".
 */
#ifndef RP_ELFSYM_H
#define RP_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#include "base/input.h"
#include "sym/mapfile.h"

struct elf;
struct build_id;

/* Does the data start with the ELF magic?  N may be short. */
int elf_magic(const void *head, size_t n);

/*
 * Read the ELF file open as IN (taken over), whose first N bytes, HEAD,
 * were read from it already.
 */
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

/*
 * nm's type letter, in two steps (exposed for the unit tests):
 * the section's letter from its name, type and flags (lowercase, or 'N'),
 * then the symbol's from its binding, type, section index and that letter.
 */
char elf_section_letter(const char *name, uint32_t sh_type, uint64_t sh_flags);
char elf_symbol_letter(unsigned bind, unsigned type, uint32_t shndx,
    char section_letter);

#endif
