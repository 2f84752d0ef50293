/*
 * elfsym.c - an ELF file: its headers, what they say and its symbols.
 * Every offset, size and index read from it is checked before use, and a
 * name is read only through an offset checked against a NUL-ended table.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sym/elfsym.h"
#include "base/crc32.h"
#include "base/input.h"
#include "base/util.h"

/* One symbol: 16 bytes, names stay in the string table. */
struct ent {
	uint64_t addr;
	uint32_t name;		/* offset in the string table */
	uint32_t idx_type;	/* table index << 8 | DROP | nm's letter */
};

#define ENT_IDX(t) ((t)->idx_type >> 8)
#define ENT_TYPE(t) ((char)((t)->idx_type & 0x7f))
#define ENT_DROP 0x80		/* the kernel filter drops it */
#define MAX_SYMS ((uint32_t)1 << 24)
#define NVER 0x8000		/* version indexes: 15 bits */

_Static_assert(sizeof(struct ent) == 16, "an entry is 16 bytes");

#define SYM_CHUNK 2048		/* symbols read from the file at a time */

#define NOTES_MAX ((uint64_t)1 << 20)	/* note sections or segments */
#define TABLE_MAX ((uint64_t)16 << 20)	/* the program header table */
#define LINK_MAX (sizeof ((struct elf_peek *)0)->link + 8)

/* A section header's fields, of either class, in the host's byte order. */
struct elf_shdr {
	uint64_t name, type, flags, addr, offset, size, link, info, align;
	uint64_t entsize;
};

struct elf {
	const char *name;
	struct input in;	/* a regular file, read with pread */
	unsigned char *held;	/* else the file held in memory */
	uint64_t size;
	int peek;		/* elf_peek: a defect is "not known" */
	int is64, big;		/* ELFCLASS64, ELFDATA2MSB */
	uint64_t phoff, phentsize, phnum;	/* the program headers */
	void **owned;		/* buffers read from the file */
	size_t nowned;

	const unsigned char *sh;	/* section headers */
	uint64_t shentsize;
	uint32_t shnum;			/* peeked at and unknown: 0 */
	const char *names;		/* their names (NUL-ended), or NULL */
	uint64_t namesize;
	char *secletter;		/* per section */

	uint32_t nsym;			/* the symbol table's */
	const char *str;		/* its string table */
	uint64_t strsize;
	uint32_t strndx;		/* its section */

	uint16_t *versym;		/* .dynsym only: versions, or NULL */
	uint64_t *dynsize;		/* .dynsym only: sizes by index, or NULL */
	struct {
		const char *name;
		int needed;		/* from another file */
	} *ver;				/* by version index, NVER of them */

	struct build_id bid;		/* NT_GNU_BUILD_ID; n 0: none */

	struct ent *ent;
	size_t nent, pos;
	int kernel;
	char *namebuf;
	uint64_t last, lastnul;	/* the last name's offset and its NUL's */
	size_t namecap;
};

int
elf_magic(const void *head, size_t n)
{
	return n >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0;
}

/* ---- reading fields --------------------------------------------------- */

static uint64_t
rd(const struct elf *e, const unsigned char *p, size_t len)
{
	return word_at(p, len, e->big);
}

/* An address-sized word: at OFF32 in an ELF32 structure, OFF64 in ELF64. */
static uint64_t
rda(const struct elf *e, const unsigned char *p, size_t off32, size_t off64)
{
	return e->is64 ? rd(e, p + off64, 8) : rd(e, p + off32, 4);
}

static void
section(const struct elf *e, uint32_t i, struct elf_shdr *s)
{
	const unsigned char *p = e->sh + (size_t)i * e->shentsize;

	s->name = rd(e, p, 4);
	s->type = rd(e, p + 4, 4);
	s->flags = rda(e, p, 8, 8);
	s->addr = rda(e, p, 12, 16);
	s->offset = rda(e, p, 16, 24);
	s->size = rda(e, p, 20, 32);
	s->link = rd(e, p + (e->is64 ? 40 : 24), 4);
	s->info = rd(e, p + (e->is64 ? 44 : 28), 4);
	s->align = rda(e, p, 32, 48);
	s->entsize = rda(e, p, 36, 56);
}

/* A defect of the file: fatal, naming it; -1 when it is peeked at. */
static int __attribute__((format(printf, 2, 3)))
defect(const struct elf *e, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (e->peek)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fatalx("%s: %s", e->name, msg);
}

static int
inside(const struct elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* [off, off + len) must lie inside the file, else it is a defect. */
static int
check_span(const struct elf *e, uint64_t off, uint64_t len, const char *what)
{
	if (inside(e, off, len))
		return 0;
	return defect(e, "%s lies outside the file (offset %llu, %llu bytes, "
	    "file size %llu)", what, (unsigned long long)off,
	    (unsigned long long)len, (unsigned long long)e->size);
}

/* [off, off + len) (checked): in place when held, else read into BUF. */
static const unsigned char *
read_span(struct elf *e, void *buf, uint64_t off, uint64_t len)
{
	if (e->held != NULL)
		return e->held + off;
	input_pread(&e->in, buf, (size_t)len, off);
	return buf;
}

/* The same, checked here (NULL on a defect), and kept until elf_close. */
static const unsigned char *
span(struct elf *e, uint64_t off, uint64_t len, const char *what)
{
	void *buf;

	if (check_span(e, off, len, what) < 0)
		return NULL;
	if (e->held != NULL)
		return e->held + off;
	if (len > SIZE_MAX - 1)
		return defect(e, "%s is too large", what), NULL;
	buf = xmalloc((size_t)len);
	e->owned = xrealloc(e->owned, (e->nowned + 1) * sizeof *e->owned);
	e->owned[e->nowned++] = buf;
	return read_span(e, buf, off, len);
}

/* Section S (not empty) read whole: strings that must end in a NUL byte. */
static const char *
nul_table(struct elf *e, const struct elf_shdr *s, const char *what)
{
	const char *tab = (const char *)span(e, s->offset, s->size, what);

	if (tab != NULL && tab[s->size - 1] != '\0')
		return defect(e, "%s does not end in a NUL byte", what), NULL;
	return tab;
}

/* A string of TAB (SIZE bytes, NUL-ended; NULL: none) at OFF, or NULL. */
static const char *
string_at(const char *tab, uint64_t size, uint64_t off)
{
	return tab != NULL && off < size ? tab + off : NULL;
}

/* ---- the headers ------------------------------------------------------ */

/* The section headers and their names, as the ELF header H says: 0, or
 * -1.  A file peeked at whose sections are not known has none. */
static int
read_sections(struct elf *e, const unsigned char *h)
{
	int x = e->is64 ? 12 : 0;
	uint64_t shoff = rda(e, h, 32, 40), shnum = rd(e, h + 48 + x, 2);
	uint64_t ent = e->shentsize = rd(e, h + 46 + x, 2);
	uint64_t strndx = rd(e, h + 50 + x, 2);
	struct elf_shdr s;

	if (shoff == 0)
		return defect(e, "no section headers, so no symbol table "
		    "(stripped); use the unstripped file");
	if (ent < (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return defect(e, "section header size %llu is too small",
		    (unsigned long long)ent);
	if ((e->sh = span(e, shoff, ent, "the section header table")) == NULL)
		return -1;
	if (shnum == 0 || strndx == SHN_XINDEX) {
		/* extended numbering: the counts are in section 0 */
		section(e, 0, &s);
		if (shnum == 0)
			shnum = s.size;
		if (strndx == SHN_XINDEX)
			strndx = s.link;
	}
	if (shnum > UINT32_MAX || shnum > (e->size - shoff) / ent)
		return defect(e, "the section header table lies outside the "
		    "file (%llu sections at offset %llu)",
		    (unsigned long long)shnum, (unsigned long long)shoff);
	e->shnum = (uint32_t)shnum;
	e->sh = span(e, shoff, shnum * ent, "the section header table");
	if (strndx == SHN_UNDEF || strndx >= e->shnum)
		return 0;
	section(e, (uint32_t)strndx, &s);
	if (s.type != SHT_NOBITS && s.size != 0) {
		e->names = nul_table(e, &s, "the section name table");
		e->namesize = s.size;
	}
	return 0;
}

/* The ELF header and section headers: 0, or -1 if peeked at and not ELF. */
static int
read_headers(struct elf *e)
{
	unsigned char hb[sizeof(Elf64_Ehdr)];
	const unsigned char *h;
	int x;

	if (e->size < EI_NIDENT)
		return defect(e, "truncated ELF header");
	h = read_span(e, hb, 0, e->size < sizeof hb ? e->size : sizeof hb);
	if (!elf_magic(h, SELFMAG))
		return -1;
	if (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64)
		return defect(e, "unknown ELF class %u", h[EI_CLASS]);
	if (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB)
		return defect(e, "unknown ELF byte order %u", h[EI_DATA]);
	if (e->size < (h[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) :
	    sizeof(Elf32_Ehdr)))
		return defect(e, "truncated ELF header");
	x = (e->is64 = h[EI_CLASS] == ELFCLASS64) ? 12 : 0;
	e->big = h[EI_DATA] == ELFDATA2MSB;
	e->phoff = rda(e, h, 28, 32);
	e->phentsize = rd(e, h + 42 + x, 2);
	e->phnum = rd(e, h + 44 + x, 2);
	read_sections(e, h);
	return 0;
}

/* The build-id among the notes of SIZE bytes at OFF, unless one is known.
 * Notes that do not parse are no build-id, not a defect: a build-id note
 * is a few dozen bytes, and notes over 1 MiB are not read. */
static void
notes_at(struct elf *e, uint64_t off, uint64_t size, uint64_t align)
{
	unsigned char *buf;

	if (e->bid.n > 0 || size == 0 || size > NOTES_MAX ||
	    !inside(e, off, size))
		return;
	buf = xmalloc((size_t)size);
	notes_build_id(read_span(e, buf, off, size), (size_t)size, e->big,
	    align == 8 ? 8 : 4, &e->bid);
	free(buf);
}

/* ---- type letters ----------------------------------------------------- */

#define NPREFIX(p) (sizeof (p) / sizeof (p)[0])

/* The first of the N prefixes P that S begins with, or -1. */
static int
prefix_of(const char *s, const char *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)	/* the first byte first: cheap */
		if (s[0] == p[i][0] && strncmp(s, p[i], strlen(p[i])) == 0)
			return (int)i;
	return -1;
}

char
elf_section_letter(const char *name, uint32_t sh_type, uint64_t sh_flags)
{
	/* named for their role in PE files, whatever the format: the name,
	 * or the name followed by '.', '$' or a digit */
	static const char *const pe[] = {
		".drectve", ".edata", ".idata", ".pdata",
	};
	/* non-allocated sections nm calls debugging ones ('N') */
	static const char *const debug[] = {
		".debug", ".zdebug", ".line", ".stab", ".gnu.linkonce.wi.",
		".gnu.debuglto_.debug_",
	};
	int i = prefix_of(name, pe, NPREFIX(pe));
	char c = i < 0 ? 0 : name[strlen(pe[i])];

	if (i >= 0 && (c == '\0' || c == '.' || c == '$' ||
	    (c >= '0' && c <= '9')))
		return "ieip"[i];
	if (sh_flags & SHF_EXECINSTR)
		return 't';
	if ((sh_flags & SHF_ALLOC) && sh_type != SHT_NOBITS)
		return sh_flags & SHF_WRITE ? 'd' : 'r';
	if (sh_type == SHT_NOBITS)
		return 'b';
	if (!(sh_flags & SHF_ALLOC) &&
	    prefix_of(name, debug, NPREFIX(debug)) >= 0)
		return 'N';
	if (!(sh_flags & SHF_WRITE))
		return 'n';
	return '?';
}

char
elf_symbol_letter(unsigned bind, unsigned type, uint32_t shndx,
    char section_letter)
{
	char c;

	if (shndx == SHN_COMMON)
		return 'C';
	if (shndx == SHN_UNDEF)
		return bind != STB_WEAK ? 'U' : type == STT_OBJECT ? 'v' : 'w';
	if (type == STT_GNU_IFUNC)
		return 'i';
	if (bind == STB_WEAK)
		return type == STT_OBJECT ? 'V' : 'W';
	if (bind == STB_GNU_UNIQUE)
		return 'u';
	if (bind != STB_LOCAL && bind != STB_GLOBAL)
		return '?';
	c = shndx == SHN_ABS ? 'a' : section_letter;
	if (bind == STB_GLOBAL && c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	return c;
}

/* ---- the file --------------------------------------------------------- */

/* .gnu_debuglink: a file name without '/', its NUL padded to 4, a CRC. */
static void
debuglink(struct elf *e, const struct elf_shdr *s, struct elf_peek *pk)
{
	uint64_t n = s->size < LINK_MAX ? s->size : LINK_MAX;
	const unsigned char *b = span(e, s->offset, n, "the debug link");
	size_t len, at;

	if (b == NULL)
		return;
	len = strnlen((const char *)b, (size_t)n);
	at = (len + 4) & ~(size_t)3;
	if (len > 0 && len < sizeof pk->link && at + 4 <= n &&
	    memchr(b, '/', len) == NULL) {
		memcpy(pk->link, b, len + 1);
		pk->link_crc = (uint32_t)rd(e, b + at, 4);
	}
}

/* The sections' letters and the first build-id note; peeked at (PK), if
 * there is a .symtab, the .gnu_debuglink, where the executable ones lie. */
static void
scan_sections(struct elf *e, struct elf_peek *pk)
{
	struct elf_shdr s;
	const char *n;

	e->secletter = xmalloc(e->shnum);
	for (uint32_t i = 0; i < e->shnum; i++) {
		section(e, i, &s);
		n = string_at(e->names, e->namesize, s.name);
		e->secletter[i] = elf_section_letter(n ? n : "",
		    (uint32_t)s.type, s.flags);
		if (i == 0)
			continue;
		if (s.type == SHT_NOTE)
			notes_at(e, s.offset, s.size, s.align);
		if (pk == NULL)
			continue;
		if ((s.flags & (SHF_ALLOC | SHF_EXECINSTR)) ==
		    (SHF_ALLOC | SHF_EXECINSTR) && s.size != 0 &&
		    s.addr <= UINT64_MAX - s.size) {
			if (!pk->have_exec || s.addr < pk->exec_lo)
				pk->exec_lo = s.addr;
			if (!pk->have_exec || s.addr + s.size > pk->exec_hi)
				pk->exec_hi = s.addr + s.size;
			pk->have_exec = 1;
		}
		if (s.type == SHT_SYMTAB && s.size > 0)
			pk->symtab = 1;
		else if (s.type != SHT_NOTE && s.type != SHT_NOBITS &&
		    n != NULL && strcmp(n, ".gnu_debuglink") == 0)
			debuglink(e, &s, pk);
	}
}

/* The first section of TYPE (linked to LINK, unless LINK is 0), or 0. */
static uint32_t
find_section(const struct elf *e, uint32_t type, uint32_t link,
    struct elf_shdr *s)
{
	for (uint32_t i = 1; i < e->shnum; i++) {
		section(e, i, s);
		if (s->type == type && (link == 0 || s->link == link))
			return i;
	}
	return 0;
}

/* LINK's string table (WHAT's), checked; the symbol table's is read once. */
static const char *
string_table(struct elf *e, uint64_t link, uint64_t *size, const char *what)
{
	struct elf_shdr s = { 0 };

	if (e->str != NULL && link == e->strndx) {
		*size = e->strsize;
		return e->str;
	}
	if (link != 0 && link < e->shnum)
		section(e, (uint32_t)link, &s);
	if (s.type != SHT_STRTAB || s.size == 0)
		fatalx("%s: %s links to section %llu, not a string table",
		    e->name, what, (unsigned long long)link);
	*size = s.size;
	return nul_table(e, &s, "a string table");
}

/* The LEN bytes at OFF, checked, of a version section or its string table
 * (a name: 1 byte, up to the table's final NUL), SIZE bytes read at P. */
static const void *
ver_at(const struct elf *e, uint64_t size, const void *p, uint64_t off,
    uint64_t len)
{
	if (off > size || size - off < len)
		fatalx("%s: bad symbol version sections", e->name);
	return (const unsigned char *)p + off;
}

/* Index -> name, from the version definitions (NEED 0: each Elf_Verdef
 * names its own index in its first Elf_Verdaux) or the versions needed
 * (NEED 1: each Elf_Verneed has a list of Elf_Vernaux, each an index). */
static void
read_verlist(struct elf *e, const struct elf_shdr *v, int need)
{
	const char *what = need ? "the version requirements" :
	    "the version definitions";
	const unsigned char *p = span(e, v->offset, v->size, what), *d, *x;
	uint64_t strsize, off = 0, a, next, ndx;
	const char *str = string_table(e, v->link, &strsize, what);

	for (uint64_t i = 0; i < v->info; i++) {
		d = ver_at(e, v->size, p, off, need ? 16 : 20);
		a = off + rd(e, d + (need ? 8 : 12), 4);
		for (uint64_t k = need ? rd(e, d + 2, 2) : 1; k > 0; k--) {
			x = ver_at(e, v->size, p, a, need ? 16 : 8);
			ndx = rd(e, need ? x + 6 : d + 4, 2) & 0x7fff;
			e->ver[ndx].name = ver_at(e, strsize, str,
			    rd(e, x + (need ? 8 : 0), 4), 1);
			e->ver[ndx].needed = need;
			if ((next = rd(e, x + (need ? 12 : 4), 4)) == 0)
				break;
			a += next;
		}
		if ((next = rd(e, d + (need ? 12 : 16), 4)) == 0)
			break;
		off += next;
	}
}

/* Version names of .dynsym (nm -D prints them after the name). */
static void
read_versions(struct elf *e, uint32_t dynsym)
{
	struct elf_shdr vs, vd, vn;
	const unsigned char *p;

	if (find_section(e, SHT_GNU_versym, dynsym, &vs) == 0)
		return;
	if (vs.size / 2 < e->nsym)
		fatalx("%s: the symbol version table is too short", e->name);
	p = span(e, vs.offset, (uint64_t)e->nsym * 2,
	    "the symbol version table");
	e->versym = xmalloc((size_t)e->nsym * 2 + 1);
	for (uint32_t i = 0; i < e->nsym; i++)
		e->versym[i] = (uint16_t)rd(e, p + (size_t)i * 2, 2);
	e->ver = xmalloc(NVER * sizeof *e->ver);
	memset(e->ver, 0, NVER * sizeof *e->ver);
	if (find_section(e, SHT_GNU_verdef, 0, &vd) != 0)
		read_verlist(e, &vd, 0);
	if (find_section(e, SHT_GNU_verneed, 0, &vn) != 0)
		read_verlist(e, &vn, 1);
}

/* The kernel's mksysmap filter: by type, then by name. */
static int
kernel_drops(char type, const char *n)
{
	static const char *const prefix[] = {
		"$", ".L", "__crc_", "__kstrtab_", "__kstrtabns_",
	};

	return type == 'a' || type == 'N' || type == 'U' || type == 'w' ||
	    strcmp(n, "L0") == 0 || prefix_of(n, prefix, NPREFIX(prefix)) >= 0;
}

/* Symbol I, at P (X: its extended section index, or NULL), if nm lists it:
 * 1 if it is _stext, 2 if linux_banner (both: a kernel), else 0. */
static int
collect_one(struct elf *e, uint32_t i, const unsigned char *p,
    const unsigned char *x)
{
	int is64 = e->is64;
	unsigned info = p[is64 ? 4 : 12], bind = info >> 4, stype = info & 0xf;
	uint32_t name = (uint32_t)rd(e, p, 4);
	uint32_t shndx = (uint32_t)rd(e, p + (is64 ? 6 : 14), 2);
	/* not rda: this runs for every symbol */
	uint64_t value = rd(e, p + (is64 ? 8 : 4), is64 ? 8 : 4);
	uint64_t size = rd(e, p + (is64 ? 16 : 8), is64 ? 8 : 4);
	struct ent *t;
	const char *n;
	char sec = '?', type;
	unsigned v;

	if (shndx == SHN_XINDEX && x != NULL)
		shndx = (uint32_t)rd(e, x, 4);
	if (shndx == SHN_UNDEF || stype == STT_SECTION || stype == STT_FILE)
		return 0;
	n = string_at(e->str, e->strsize, name);
	if (n == NULL)
		fatalx("%s: symbol %u: name offset %u lies outside the string "
		    "table", e->name, i, name);
	if (*n == '\0')
		return 0;
	if (shndx < e->shnum)
		sec = e->secletter[shndx];
	else if (shndx < SHN_LORESERVE || shndx > SHN_HIRESERVE)
		fatalx("%s: symbol %u: section index %u out of range", e->name,
		    i, shndx);
	/* a version nm -D does not print: that of an absolute symbol named
	 * as its version (the version's own symbol) */
	v = e->versym != NULL && shndx == SHN_ABS ? e->versym[i] & 0x7fff : 0;
	if (v >= 2 && e->ver[v].name != NULL &&
	    strcmp(e->ver[v].name, n) == 0)
		e->versym[i] = 0;
	if (e->dynsize != NULL)
		e->dynsize[i] = size;
	t = &e->ent[e->nent++];
	type = elf_symbol_letter(bind, stype, shndx, sec);
	t->addr = shndx == SHN_COMMON ? size : value;
	t->name = name;
	t->idx_type = i << 8 | (unsigned char)type |
	    (kernel_drops(type, n) ? ENT_DROP : 0);
	if (strcmp(n, "_stext") == 0)
		return 1;
	return strcmp(n, "linux_banner") == 0 ? 2 : 0;
}

/* One pass over the symbol table S (X: its SHT_SYMTAB_SHNDX, or NULL): the
 * symbols nm --defined-only prints; of a kernel, those its filter keeps. */
static void
collect(struct elf *e, const struct elf_shdr *s, const struct elf_shdr *x)
{
	int seen = 0;		/* _stext 1, linux_banner 2 */
	unsigned char *sb = NULL, *xb = NULL;
	size_t es = (size_t)s->entsize;

	e->ent = xmalloc((size_t)e->nsym * sizeof *e->ent);
	if (e->held == NULL) {
		sb = xmalloc(SYM_CHUNK * es);
		xb = x != NULL ? xmalloc(SYM_CHUNK * 4) : NULL;
	}
	/* both tables were checked against the file in read_symtab() */
	for (uint32_t i0 = 0; i0 < e->nsym; i0 += SYM_CHUNK) {
		uint32_t n = e->nsym - i0 < SYM_CHUNK ? e->nsym - i0 : SYM_CHUNK;
		const unsigned char *p = read_span(e, sb, s->offset +
		    (uint64_t)i0 * es, (uint64_t)n * es);
		const unsigned char *xp = x != NULL ? read_span(e, xb,
		    x->offset + (uint64_t)i0 * 4, (uint64_t)n * 4) : NULL;

		for (uint32_t k = i0 == 0; k < n; k++)
			seen |= collect_one(e, i0 + k, p + (size_t)k * es,
			    xp ? xp + (size_t)k * 4 : NULL);
	}
	free(sb);
	free(xb);
	if ((e->kernel = seen == 3)) {
		size_t k = 0;

		for (size_t i = 0; i < e->nent; i++)
			if (!(e->ent[i].idx_type & ENT_DROP))
				e->ent[k++] = e->ent[i];
		e->nent = k;
	}
}

/* The symbol table, .symtab, else .dynsym, and its symbols. */
static void
read_symtab(struct elf *e)
{
	struct elf_shdr s, x, *xs = NULL;
	uint32_t i;
	size_t entsize = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);

	if ((i = find_section(e, SHT_SYMTAB, 0, &s)) == 0)
		i = find_section(e, SHT_DYNSYM, 0, &s);
	if (i == 0)
		fatalx("%s: no symbol table (stripped); use the unstripped file "
		    "from the debug package (vmlinux from linux-image-*-dbg or "
		    "kernel-debuginfo, or the program's debug file)", e->name);
	if (s.entsize != entsize)
		fatalx("%s: symbol table entry size %llu, not %zu", e->name,
		    (unsigned long long)s.entsize, entsize);
	if (s.size % entsize)
		fatalx("%s: symbol table size %llu is not a whole number of "
		    "entries", e->name, (unsigned long long)s.size);
	if (s.size / entsize > MAX_SYMS)
		fatalx("%s: symbol count %llu does not fit (at most %lu)",
		    e->name, (unsigned long long)(s.size / entsize),
		    (unsigned long)MAX_SYMS);
	check_span(e, s.offset, s.size, "the symbol table");
	e->nsym = (uint32_t)(s.size / entsize);
	e->str = string_table(e, s.link, &e->strsize, "the symbol table");
	e->strndx = (uint32_t)s.link;
	if (find_section(e, SHT_SYMTAB_SHNDX, i, &x) != 0) {
		if (x.size / 4 < e->nsym)
			fatalx("%s: the extended section index table is too "
			    "short", e->name);
		check_span(e, x.offset, (uint64_t)e->nsym * 4,
		    "the extended section index table");
		xs = &x;
	}
	if (s.type == SHT_DYNSYM) {
		read_versions(e, i);
		e->dynsize = xmalloc(((size_t)e->nsym + 1) * sizeof *e->dynsize);
	}
	collect(e, &s, xs);
}

/* ---- names and nm's order -------------------------------------------- */

/* Entry T's name with its version, "@VER" or "@@VER" (hidden or from
 * another file: one '@'), composed in e->namebuf. */
static const char *
full_name(struct elf *e, const struct ent *t, size_t *len)
{
	const char *n = e->str + t->name, *v;	/* checked in collect() */
	uint64_t o = t->name;
	size_t nl, vl;
	unsigned ver = e->versym != NULL ? e->versym[ENT_IDX(t)] : 0, at;

	/* suffixes of one string (side by side in nm's order, the shortest
	 * first) end at its NUL: its bytes are read once for all */
	if (o < e->last && e->last != UINT64_MAX &&
	    memchr(n, '\0', e->last - o) == NULL)
		e->last = o;	/* the same string, from further back */
	else if (o < e->last || o > e->lastnul) {
		e->last = o;
		e->lastnul = o + strlen(n);
	}
	nl = (size_t)(e->lastnul - o);
	/* indexes 0 and 1: local and global, no version printed */
	v = (ver & 0x7fff) >= 2 ? e->ver[ver & 0x7fff].name : NULL;
	if (v == NULL) {
		*len = nl;
		return n;
	}
	at = (ver & 0x8000) || e->ver[ver & 0x7fff].needed ? 1 : 2;
	vl = strlen(v);
	*len = nl + at + vl;
	if (*len + 1 > e->namecap) {
		e->namecap = *len + 1 + 64;
		e->namebuf = xrealloc(e->namebuf, e->namecap);
	}
	memcpy(e->namebuf, n, nl);
	memcpy(e->namebuf + nl, "@@", at);
	memcpy(e->namebuf + nl + at, v, vl + 1);
	return e->namebuf;
}

/* The sort's key: by address, then table order (sort_ents and rank_names
 * put a name's rank or offset in the address for a second sort). */
static int
cmp_ent(const void *pa, const void *pb, void *ctx)
{
	const struct ent *a = pa, *b = pb;

	(void)ctx;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->idx_type < b->idx_type ? -1 : a->idx_type > b->idx_type;
}

static void
swap_ent(struct ent *a, struct ent *b)
{
	struct ent t = *a;

	*a = *b;
	*b = t;
}

/* In place (qsort may copy the array, doubling the memory): quicksort on
 * the median of three, smaller side first, insertion sort for short runs;
 * past DEPTH (2 log2 n) partitions, a table ordered against the pivot
 * choice, heapsort finishes the part: any order takes O(n log n). */
static void
sort_part(struct ent *v, size_t n, unsigned depth)
{
	while (n > 16) {
		size_t m = n / 2, i = 0, j = n - 1;
		struct ent pivot;

		if (cmp_ent(&v[m], &v[0], NULL) < 0)
			swap_ent(&v[m], &v[0]);
		if (cmp_ent(&v[n - 1], &v[m], NULL) < 0) {
			swap_ent(&v[n - 1], &v[m]);
			if (cmp_ent(&v[m], &v[0], NULL) < 0)
				swap_ent(&v[m], &v[0]);
		}
		if (depth-- == 0) {
			heap_sort(v, n, sizeof *v, cmp_ent, NULL);
			return;
		}
		pivot = v[m];
		for (;;) {	/* Hoare partition: v[0..j] <= pivot <= v[j+1..] */
			while (cmp_ent(&v[i], &pivot, NULL) < 0)
				i++;
			while (cmp_ent(&pivot, &v[j], NULL) < 0)
				j--;
			if (i >= j)
				break;
			swap_ent(&v[i++], &v[j--]);
		}
		if (j + 1 < n - j - 1) {
			sort_part(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_part(v + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 &&
		    cmp_ent(&v[k], &v[k - 1], NULL) < 0; k--)
			swap_ent(&v[k], &v[k - 1]);
}

static void
sort_by_key(struct ent *v, size_t n)
{
	unsigned depth = 0;

	for (size_t k = n; k > 1; k /= 2)
		depth += 2;
	sort_part(v, n, depth);
}

/* Names are sorted by rank, never compared byte by byte: names that are
 * suffixes of one string (a linker merges a name into the tail of a longer
 * one) share bytes, and a crafted table of N suffixes of one long string
 * would cost O(N log N x length).  Prefix doubling (Manber and Myers) over
 * the strings, each read once, ranks them in O(T log T) for T bytes. */
struct doubling {
	size_t t;		/* bytes, each string ending in its NUL */
	uint32_t *d;		/* bytes from each position to its NUL */
	uint32_t *r, *nr;	/* class of each position's window */
	uint32_t *sa, *tmp;	/* positions in the order of their windows */
	uint32_t *cnt;
};

/* The second half of position I's window of 2H bytes: 0 past the NUL. */
static uint32_t
key2(const struct doubling *s, uint32_t i, size_t h)
{
	return s->d[i] < h ? 0 : s->r[i + h] + 1;
}

/* Windows of 2H bytes from those of H; the number of classes. */
static uint32_t
double_once(struct doubling *s, size_t h, uint32_t ncl)
{
	size_t m = 0, t = s->t;
	uint32_t *x;

	/* by the second half: ended ones first, then in the order of I + H */
	for (size_t i = 0; i < t; i++)
		if (s->d[i] < h)
			s->tmp[m++] = (uint32_t)i;
	for (size_t k = 0; k < t; k++)
		if (s->sa[k] >= h && s->d[s->sa[k] - h] >= h)
			s->tmp[m++] = (uint32_t)(s->sa[k] - h);
	/* then, stably, by the first half */
	memset(s->cnt, 0, ((size_t)ncl + 1) * sizeof *s->cnt);
	for (size_t i = 0; i < t; i++)
		s->cnt[s->r[i] + 1]++;
	for (uint32_t c = 1; c <= ncl; c++)
		s->cnt[c] += s->cnt[c - 1];
	for (size_t k = 0; k < t; k++)
		s->sa[s->cnt[s->r[s->tmp[k]]]++] = s->tmp[k];
	s->nr[s->sa[0]] = 0;
	for (size_t k = 1; k < t; k++) {
		uint32_t a = s->sa[k - 1], b = s->sa[k];

		s->nr[b] = s->nr[a] + (s->r[a] != s->r[b] ||
		    key2(s, a, h) != key2(s, b, h));
	}
	x = s->r, s->r = s->nr, s->nr = x;
	return s->r[s->sa[t - 1]] + 1;
}

/* The strcmp rank of the string at each position of C (T bytes, NUL-ended). */
static uint32_t *
rank_strings(const unsigned char *c, size_t t)
{
	struct doubling s = { .t = t };
	uint32_t ncl, n;

	s.d = xmalloc(t * sizeof *s.d);
	s.r = xmalloc(t * sizeof *s.r);
	s.nr = xmalloc(t * sizeof *s.nr);
	s.sa = xmalloc(t * sizeof *s.sa);
	s.tmp = xmalloc(t * sizeof *s.tmp);
	s.cnt = xmalloc((t > 256 ? t + 1 : 257) * sizeof *s.cnt);
	/* windows of one byte, the byte as the class, numbered by a pass
	 * with H 0 (each window its own second half) */
	for (size_t i = t; i-- > 0;) {
		s.d[i] = c[i] == 0 ? 0 : s.d[i + 1] + 1;
		s.r[i] = c[i];
		s.sa[i] = (uint32_t)i;
	}
	ncl = double_once(&s, 0, 256);
	/* final once no class splits (at the latest, each window whole) */
	for (size_t h = 1; (n = double_once(&s, h, ncl)) != ncl; h *= 2)
		ncl = n;
	free(s.d);
	free(s.nr);
	free(s.sa);
	free(s.tmp);
	free(s.cnt);
	return s.r;
}

/* The ranks of the M names at the offsets of KEY (the offset in addr, j in
 * idx_type), by j: sorted by offset, each string is copied once, whole. */
static uint32_t *
rank_names(const struct elf *e, struct ent *key, size_t m)
{
	uint32_t *pos = xmalloc(m * sizeof *pos), *rank;
	unsigned char *c = NULL;
	uint64_t start = 0, end = 0, base = 0, t = 0, cap = 0, k;

	sort_by_key(key, m);
	for (size_t j = 0; j < m; j++) {
		uint64_t off = key[j].addr;

		if (j == 0 || off > end) {
			start = off;
			end = off + strlen(e->str + off);
			base = t;
			if ((t += end - off + 1) > cap)
				c = xrealloc(c, (size_t)(cap = 2 * t));
			memcpy(c + base, e->str + off, end - off + 1);
		}
		k = base + (off - start);
		if (k > UINT32_MAX - 2)
			fatalx("%s: too many names at shared addresses to "
			    "sort", e->name);
		pos[key[j].idx_type] = (uint32_t)k;
	}
	rank = rank_strings(c, (size_t)t);
	for (size_t j = 0; j < m; j++)
		pos[j] = rank[pos[j]];
	free(rank);
	free(c);
	return pos;
}

/* The length of the run of one address at V[I] (N entries). */
static size_t
run_at(const struct ent *v, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && v[k].addr == v[i].addr)
		k++;
	return k - i;
}

/* nm -n: by address, then by name in the C locale (without the version
 * nm -D adds), then table order: a total order, no need to be stable. */
static void
sort_ents(const struct elf *e, struct ent *v, size_t n)
{
	struct ent *key;
	uint32_t *rank;
	size_t m = 0, j = 0, r;

	sort_by_key(v, n);
	for (size_t i = 0; i < n; i += r)
		if ((r = run_at(v, n, i)) > 1)
			m += r;
	if (m == 0)
		return;
	key = xmalloc(m * sizeof *key);
	for (size_t i = 0; i < n; i += r)
		if ((r = run_at(v, n, i)) > 1)
			for (size_t k = i; k < i + r; k++, j++)
				key[j] = (struct ent){ .addr = v[k].name,
				    .idx_type = (uint32_t)j };
	rank = rank_names(e, key, m);
	free(key);
	j = 0;
	for (size_t i = 0; i < n; i += r) {
		uint64_t addr = v[i].addr;

		if ((r = run_at(v, n, i)) == 1)
			continue;
		for (size_t k = i; k < i + r; k++)
			v[k].addr = rank[j++];
		sort_by_key(v + i, r);
		for (size_t k = i; k < i + r; k++)
			v[k].addr = addr;
	}
	free(rank);
}

/* ---- opening ---------------------------------------------------------- */

/* A reader of NAME, read with pread when IN (or NULL) is seekable. */
static struct elf *
elf_new(const char *name, const struct input *in)
{
	struct elf *e = xmalloc(sizeof *e);

	/* last: no last name yet */
	*e = (struct elf){ .name = name, .last = UINT64_MAX };
	if (in != NULL && in->seekable) {
		e->in = *in;
		e->size = in->size;
	}
	return e;
}

static void
load(struct elf *e)
{
	read_headers(e);
	scan_sections(e, NULL);
	read_symtab(e);
	sort_ents(e, e->ent, e->nent);
}

/* A regular file is read with pread, and must keep its size until loaded;
 * any other input is held whole, input_cap bytes at most (as a profile). */
struct elf *
elf_open(const char *name, struct input *in, const void *head, size_t n)
{
	struct elf *e = elf_new(name, in);
	size_t len;

	if (!in->seekable) {
		e->held = input_slurp(in, head, n, input_cap, &len);
		if (len > input_cap)
			fatalx("%s: too large for a symbol file read from a "
			    "pipe or a decompressor (more than %llu bytes)",
			    e->name, (unsigned long long)input_cap);
		e->size = len;
	}
	load(e);
	input_check_size(in);	/* held: nothing to check */
	input_close(in);
	return e;
}

struct elf *
elf_open_mem(const char *name, const void *data, size_t n)
{
	struct elf *e = elf_new(name, NULL);

	e->held = xmalloc(n);
	memcpy(e->held, data, n);
	e->size = n;
	load(e);
	return e;
}

int
elf_next(struct elf *e, struct sym *s)
{
	const struct ent *t;

	if (e->pos >= e->nent)
		return 0;
	t = &e->ent[e->pos++];
	s->addr = t->addr;
	s->type = ENT_TYPE(t);
	s->kind = map_kind(s->type);
	s->name = full_name(e, t, &s->namelen);
	s->stable = s->name != e->namebuf;
	s->lineno = e->pos;
	s->dynamic = e->dynsize != NULL;
	s->size = e->dynsize != NULL ? e->dynsize[ENT_IDX(t)] : 0;
	return 1;
}

const struct build_id *
elf_build_id(const struct elf *e)
{
	return &e->bid;
}

void
elf_rewind(struct elf *e)
{
	e->pos = 0;
}

size_t
elf_count(const struct elf *e)
{
	return e->nent;
}

int
elf_is_kernel(const struct elf *e)
{
	return e->kernel;
}

void
elf_close(struct elf *e)
{
	if (e == NULL)
		return;
	for (size_t i = 0; i < e->nowned; i++)
		free(e->owned[i]);
	free(e->owned);
	free(e->held);
	free(e->versym);
	free(e->dynsize);
	free(e->secletter);
	free(e->ent);
	free(e->ver);
	free(e->namebuf);
	free(e);
}

/* ---- what the headers say -------------------------------------------- */

/* The program headers: executable PT_LOAD segments, PT_NOTE segments. */
static void
programs(struct elf *e, struct elf_peek *pk)
{
	uint64_t ent = e->phentsize, num = e->phnum;
	const unsigned char *t;

	if (e->phoff == 0 || num == 0 || ent < (e->is64 ? 56u : 32u) ||
	    num * ent > TABLE_MAX || (t = span(e, e->phoff, num * ent,
	    "the program header table")) == NULL)
		return;
	for (uint64_t i = 0; i < num; i++) {
		const unsigned char *h = t + i * ent;
		uint64_t type = rd(e, h, 4);
		uint64_t flags = rd(e, h + (e->is64 ? 4 : 24), 4);
		uint64_t offset = rda(e, h, 4, 8), vaddr = rda(e, h, 8, 16);
		uint64_t filesz = rda(e, h, 16, 32), memsz = rda(e, h, 20, 40);

		if (type == PT_LOAD && (!pk->have_load || vaddr < pk->load_lo)) {
			pk->load_lo = vaddr;
			pk->have_load = 1;
		}
		if (type == PT_NOTE)
			notes_at(e, offset, filesz, rda(e, h, 28, 48));
		else if (type == PT_LOAD && (flags & PF_X) &&
		    pk->ntext < ELF_PEEK_TEXT)
			pk->text[pk->ntext++] = (struct elf_text){ vaddr, memsz,
			    offset };
	}
}

/* Open PATH, a non-empty regular file read as is (no decompressor): 0, -1. */
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
	struct input in;
	struct elf *e;
	int rc;

	memset(pk, 0, sizeof *pk);
	if (open_plain(path, &in) < 0)
		return -1;
	e = elf_new(path, &in);
	e->peek = 1;
	if ((rc = read_headers(e)) == 0) {
		scan_sections(e, pk);
		programs(e, pk);
		pk->bid = e->bid;
	}
	input_check_size(&in);
	input_close(&in);
	elf_close(e);
	return rc;
}

int
elf_peek_offset(const struct elf_peek *pk, uint64_t addr, uint64_t *off)
{
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
