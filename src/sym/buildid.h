/*
 * buildid.h - what pprof needs of an ELF map: its GNU build-id (from its
 * notes) and where its executable segment lies in the file.
 *
 * The notes parser reads any sequence of ELF notes, as PT_NOTE segments
 * and the running kernel's /sys/kernel/notes hold them.
 */
#ifndef RP_BUILDID_H
#define RP_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_MAX 64		/* bytes; GNU ld writes 20 (sha1) */

struct elf_image {
	int type;		/* e_type: ET_EXEC, ET_DYN, ... */
	unsigned char id[BUILD_ID_MAX];
	size_t idlen;		/* 0: no build-id note */
	struct { uint64_t vaddr, memsz, offset; } text[8];	/* PT_LOAD, PF_X */
	size_t ntext;
};

/*
 * The NT_GNU_BUILD_ID note (name "GNU", type 3) among the N bytes of notes
 * at B, each entry aligned to ALIGN (4 or 8) bytes, words big-endian when
 * BIG.  Returns the length copied into ID (at most BUILD_ID_MAX), or 0 when
 * there is none or the notes are malformed (never read past B + N).
 */
size_t elf_notes_build_id(const unsigned char *b, size_t n, size_t align,
    int big, unsigned char *id);

/*
 * Read the ELF headers and notes of the file PATH.  Returns 0, or -1 when
 * it is not an ELF file that can be read (a text map, a compressed file).
 */
int elf_image_read(const char *path, struct elf_image *im);

/*
 * The file offset of the address ADDR as the executable segment holding
 * it (else the first executable segment) places it, in *OFF: what a
 * process's memory map would show as the offset of a mapping starting at
 * ADDR.  Returns 0, or -1 when there is no such segment or ADDR lies
 * before the file's start.
 */
int elf_image_offset(const struct elf_image *im, uint64_t addr,
    uint64_t *off);

#endif
