/*
 * elfpeek.c - the headers of an ELF program, for its debug file.
 */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/crc32.h"
#include "sym/elfpeek.h"

struct peek {
	const unsigned char *d;
	size_t size;
	int is64, big;
};

static uint64_t
rd(const struct peek *p, size_t off, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len; i++)
		v |= (uint64_t)p->d[off + (p->big ? len - 1 - i : i)] << (8 * i);
	return v;
}

/* Section I's header fields (at offsets for ELF32 / ELF64). */
struct sec {
	uint64_t name, type, offset, size, align;
};

static int
sec(const struct peek *p, uint64_t shoff, uint64_t shentsize, uint64_t i,
    struct sec *s)
{
	size_t h, a = p->is64 ? 8 : 4;

	if (i * shentsize > p->size - shoff || shentsize > p->size - shoff -
	    i * shentsize)
		return -1;
	h = (size_t)(shoff + i * shentsize);
	s->name = rd(p, h, 4);
	s->type = rd(p, h + 4, 4);
	s->offset = rd(p, h + (p->is64 ? 24 : 16), a);
	s->size = rd(p, h + (p->is64 ? 32 : 20), a);
	s->align = rd(p, h + (p->is64 ? 48 : 32), a);
	if (s->type != SHT_NOBITS &&
	    (s->offset > p->size || s->size > p->size - s->offset))
		return -1;
	return 0;
}

static void
look(const struct peek *p, struct elf_peek *pk)
{
	uint64_t shoff, shentsize, shnum, shstrndx;
	struct sec names, s;

	if (p->size < (p->is64 ? 64u : 52u))
		return;
	shoff = rd(p, p->is64 ? 40 : 32, p->is64 ? 8 : 4);
	shentsize = rd(p, p->is64 ? 58 : 46, 2);
	shnum = rd(p, p->is64 ? 60 : 48, 2);
	shstrndx = rd(p, p->is64 ? 62 : 50, 2);
	if (shoff == 0 || shoff > p->size || shentsize < (p->is64 ? 64u : 40u))
		return;
	if (shnum == 0 && sec(p, shoff, shentsize, 0, &s) == 0)
		shnum = s.size;		/* extended numbering */
	if (shnum > (p->size - shoff) / shentsize)
		return;
	if (sec(p, shoff, shentsize, shstrndx, &names) < 0 ||
	    names.type != SHT_STRTAB)
		names.size = 0;
	for (uint64_t i = 1; i < shnum; i++) {
		const char *n = "";

		if (sec(p, shoff, shentsize, i, &s) < 0)
			continue;
		if (names.size > 0 && s.name < names.size &&
		    memchr(p->d + names.offset + s.name, '\0',
		    (size_t)(names.size - s.name)) != NULL)
			n = (const char *)p->d + names.offset + s.name;
		if (s.type == SHT_SYMTAB && s.size > 0)
			pk->symtab = 1;
		else if (s.type == SHT_NOTE && pk->bid.n == 0)
			notes_build_id(p->d + s.offset, (size_t)s.size, p->big,
			    s.align == 8 ? 8 : 4, &pk->bid);
		else if (strcmp(n, ".gnu_debuglink") == 0 &&
		    s.type != SHT_NOBITS) {
			const char *l = (const char *)p->d + s.offset;
			size_t len = strnlen(l, (size_t)s.size), at;

			at = (len + 4) & ~(size_t)3;	/* NUL, padded to 4 */
			if (len == 0 || len >= sizeof pk->link ||
			    at + 4 > s.size || strchr(l, '/') != NULL)
				continue;
			memcpy(pk->link, l, len + 1);
			pk->link_crc = (uint32_t)rd(p, (size_t)s.offset + at, 4);
		}
	}
}

int
elf_peek(const char *path, struct elf_peek *pk)
{
	struct peek p;
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(pk, 0, sizeof *pk);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 16 ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	p.d = m;
	p.size = (size_t)st.st_size;
	if (memcmp(p.d, ELFMAG, SELFMAG) != 0 ||
	    (p.d[EI_CLASS] != ELFCLASS32 && p.d[EI_CLASS] != ELFCLASS64) ||
	    (p.d[EI_DATA] != ELFDATA2LSB && p.d[EI_DATA] != ELFDATA2MSB)) {
		munmap(m, p.size);
		return -1;
	}
	p.is64 = p.d[EI_CLASS] == ELFCLASS64;
	p.big = p.d[EI_DATA] == ELFDATA2MSB;
	look(&p, pk);
	munmap(m, p.size);
	return 0;
}

int
elf_file_crc32(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*crc = 0;
	if (fd < 0)
		return -1;
	while ((r = read(fd, buf, sizeof buf)) > 0)
		*crc = crc32_update(*crc, buf, (size_t)r);
	close(fd);
	return r < 0 ? -1 : 0;
}
