/*
 * elfpeek.c - the headers of an ELF file: its symbol table's presence,
 * build-id, debug link and executable segments.
 *
 * Read with pread (base/input): the ELF header, the section and program
 * header tables, the section names, note sections or segments and the
 * debug link, each only when it lies inside the file and is not larger
 * than its bound.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/crc32.h"
#include "base/input.h"
#include "base/util.h"
#include "sym/elfpeek.h"

#define PART_MAX ((uint64_t)1 << 20)	/* a note, the section names */
#define TABLE_MAX ((uint64_t)16 << 20)	/* a header table */
#define LINK_MAX (sizeof ((struct elf_peek *)0)->link + 8)

struct peek {
	struct input in;
	struct elf_ehdr eh;
};

/* An address-sized word: at OFF32 in an ELF32 structure, OFF64 in ELF64. */
static uint64_t
rda(const struct elf_ehdr *eh, const unsigned char *b, size_t off32,
    size_t off64)
{
	return eh->is64 ? elf_word(b + off64, 8, eh->big) :
	    elf_word(b + off32, 4, eh->big);
}

void
elf_ehdr(const unsigned char *h, struct elf_ehdr *eh)
{
	int x = (eh->is64 = h[EI_CLASS] == ELFCLASS64) ? 12 : 0;

	eh->big = h[EI_DATA] == ELFDATA2MSB;
	eh->phoff = rda(eh, h, 28, 32);
	eh->shoff = rda(eh, h, 32, 40);
	eh->phentsize = elf_word(h + 42 + x, 2, eh->big);
	eh->phnum = elf_word(h + 44 + x, 2, eh->big);
	eh->shentsize = elf_word(h + 46 + x, 2, eh->big);
	eh->shnum = elf_word(h + 48 + x, 2, eh->big);
	eh->shstrndx = elf_word(h + 50 + x, 2, eh->big);
}

void
elf_shdr(const struct elf_ehdr *eh, const unsigned char *p,
    struct elf_shdr *s)
{
	s->name = elf_word(p, 4, eh->big);
	s->type = elf_word(p + 4, 4, eh->big);
	s->flags = rda(eh, p, 8, 8);
	s->addr = rda(eh, p, 12, 16);
	s->offset = rda(eh, p, 16, 24);
	s->size = rda(eh, p, 20, 32);
	s->link = elf_word(p + (eh->is64 ? 40 : 24), 4, eh->big);
	s->info = elf_word(p + (eh->is64 ? 44 : 28), 4, eh->big);
	s->align = rda(eh, p, 32, 48);
	s->entsize = rda(eh, p, 36, 56);
}

/* The N bytes at OFF, malloc'd; NULL when N is 0 or over MAX, or they lie
 * outside the file. */
static unsigned char *
part(struct peek *p, uint64_t off, uint64_t n, uint64_t max)
{
	unsigned char *b;

	if (n == 0 || n > max || off > p->in.size || n > p->in.size - off)
		return NULL;
	b = xmalloc((size_t)n);
	input_pread(&p->in, b, (size_t)n, off);
	return b;
}

/* The build-id among the notes of SIZE bytes at OFF, unless one is known. */
static void
notes_at(struct peek *p, uint64_t off, uint64_t size, uint64_t align,
    struct elf_peek *pk)
{
	unsigned char *b;

	if (pk->bid.n > 0 || (b = part(p, off, size, PART_MAX)) == NULL)
		return;
	notes_build_id(b, (size_t)size, p->eh.big, align == 8 ? 8 : 4,
	    &pk->bid);
	free(b);
}

/* .gnu_debuglink: a file name without '/', its NUL padded to 4, a CRC. */
static void
debuglink(struct peek *p, const struct elf_shdr *s, struct elf_peek *pk)
{
	uint64_t n = s->size < LINK_MAX ? s->size : LINK_MAX;
	unsigned char *b = part(p, s->offset, n, LINK_MAX);
	size_t len, at;

	if (b == NULL)
		return;
	len = strnlen((const char *)b, (size_t)n);
	at = (len + 4) & ~(size_t)3;
	if (len > 0 && len < sizeof pk->link && at + 4 <= n &&
	    memchr(b, '/', len) == NULL) {
		memcpy(pk->link, b, len + 1);
		pk->link_crc = (uint32_t)elf_word(b + at, 4, p->eh.big);
	}
	free(b);
}

/* Whether the name at OFF of the SIZE bytes of NAMES (NULL: none) is WANT. */
static int
is_named(const unsigned char *names, uint64_t size, uint64_t off,
    const char *want)
{
	return names != NULL && off < size &&
	    memchr(names + off, '\0', (size_t)(size - off)) != NULL &&
	    strcmp((const char *)names + off, want) == 0;
}

/* Where the executable sections lie, S one of them. */
static void
exec_span(const struct elf_shdr *s, struct elf_peek *pk)
{
	if ((s->flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
	    (SHF_ALLOC | SHF_EXECINSTR) || s->size == 0 ||
	    s->addr > UINT64_MAX - s->size)
		return;
	if (!pk->have_exec || s->addr < pk->exec_lo)
		pk->exec_lo = s->addr;
	if (!pk->have_exec || s->addr + s->size > pk->exec_hi)
		pk->exec_hi = s->addr + s->size;
	pk->have_exec = 1;
}

/* The section headers: .symtab, note sections, .gnu_debuglink. */
static void
sections(struct peek *p, struct elf_peek *pk)
{
	uint64_t ent = p->eh.shentsize, num = p->eh.shnum;
	unsigned char *t, *names = NULL;
	struct elf_shdr s, ns = { 0 };

	if (p->eh.shoff == 0 || ent < (p->eh.is64 ? 64u : 40u))
		return;
	if (num == 0) {		/* extended numbering: section 0's size */
		if ((t = part(p, p->eh.shoff, ent, ent)) == NULL)
			return;
		elf_shdr(&p->eh, t, &s);
		num = s.size;
		free(t);
	}
	if (num > TABLE_MAX / ent || (t = part(p, p->eh.shoff, num * ent,
	    TABLE_MAX)) == NULL)
		return;
	if (p->eh.shstrndx < num) {
		elf_shdr(&p->eh, t + p->eh.shstrndx * ent, &ns);
		if (ns.type == SHT_STRTAB)
			names = part(p, ns.offset, ns.size, PART_MAX);
	}
	for (uint64_t i = 1; i < num; i++) {
		elf_shdr(&p->eh, t + i * ent, &s);
		exec_span(&s, pk);
		if (s.type == SHT_SYMTAB && s.size > 0)
			pk->symtab = 1;
		else if (s.type == SHT_NOTE)
			notes_at(p, s.offset, s.size, s.align, pk);
		else if (s.type != SHT_NOBITS &&
		    is_named(names, ns.size, s.name, ".gnu_debuglink"))
			debuglink(p, &s, pk);
	}
	free(names);
	free(t);
}

/* The program headers: executable PT_LOAD segments, PT_NOTE segments. */
static void
programs(struct peek *p, struct elf_peek *pk)
{
	const struct elf_ehdr *eh = &p->eh;
	uint64_t ent = eh->phentsize, num = eh->phnum;
	unsigned char *t;

	if (eh->phoff == 0 || num == 0 || ent < (eh->is64 ? 56u : 32u) ||
	    (t = part(p, eh->phoff, num * ent, TABLE_MAX)) == NULL)
		return;
	for (uint64_t i = 0; i < num; i++) {
		const unsigned char *h = t + i * ent;
		uint64_t type = elf_word(h, 4, eh->big);
		uint64_t flags = elf_word(h + (eh->is64 ? 4 : 24), 4, eh->big);
		uint64_t offset = rda(eh, h, 4, 8), vaddr = rda(eh, h, 8, 16);
		uint64_t filesz = rda(eh, h, 16, 32), memsz = rda(eh, h, 20, 40);

		if (type == PT_LOAD && (!pk->have_load || vaddr < pk->load_lo)) {
			pk->load_lo = vaddr;
			pk->have_load = 1;
		}
		if (type == PT_NOTE)
			notes_at(p, offset, filesz, rda(eh, h, 28, 48), pk);
		else if (type == PT_LOAD && (flags & PF_X) &&
		    pk->ntext < ELF_PEEK_TEXT) {
			pk->text[pk->ntext].vaddr = vaddr;
			pk->text[pk->ntext].memsz = memsz;
			pk->text[pk->ntext].offset = offset;
			pk->ntext++;
		}
	}
	free(t);
}

/* Open PATH when it is a non-empty regular file read as it is (no
 * decompressor); 0, or -1. */
static int
open_plain(const char *path, struct input *in)
{
	struct stat sb;

	if (strcmp(path, "-") == 0 || input_tool(path) != NULL ||
	    stat(path, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    input_open(in, path) < 0)
		return -1;
	if (!in->seekable) {
		input_close(in);
		return -1;
	}
	return 0;
}

int
elf_peek(const char *path, struct elf_peek *pk)
{
	struct peek p;
	unsigned char h[64];
	int rc = -1;

	memset(pk, 0, sizeof *pk);
	if (open_plain(path, &p.in) < 0)
		return -1;
	if (p.in.size >= 52)
		input_pread(&p.in, h, p.in.size < 64 ? 52 : 64, 0);
	if (p.in.size >= 52 && memcmp(h, ELFMAG, SELFMAG) == 0 &&
	    (h[EI_CLASS] == ELFCLASS64 ? p.in.size >= 64 :
	    h[EI_CLASS] == ELFCLASS32) &&
	    (h[EI_DATA] == ELFDATA2LSB || h[EI_DATA] == ELFDATA2MSB)) {
		elf_ehdr(h, &p.eh);
		sections(&p, pk);
		programs(&p, pk);
		rc = 0;
	}
	input_check_size(&p.in);
	input_close(&p.in);
	return rc;
}

int
elf_peek_offset(const struct elf_peek *pk, uint64_t addr, uint64_t *off)
{
	/* the executable segment holding ADDR, else the first one */
	size_t i = 0;

	for (size_t j = 0; j < pk->ntext; j++)
		if (addr >= pk->text[j].vaddr &&
		    addr - pk->text[j].vaddr < pk->text[j].memsz)
			i = j;
	if (pk->ntext == 0 || addr + pk->text[i].offset < pk->text[i].vaddr)
		return -1;
	*off = addr + pk->text[i].offset - pk->text[i].vaddr;
	return 0;
}

int
elf_file_crc32(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	struct input in;
	size_t r;

	*crc = 0;
	if (open_plain(path, &in) < 0)
		return -1;
	while ((r = input_read(&in, buf, sizeof buf)) > 0)
		*crc = crc32_update(*crc, buf, r);
	input_close(&in);
	return 0;
}
