/*
 * buildid.c - an ELF file's build-id and executable segments.
 *
 * Everything is read with pread at offsets checked against the file's
 * size; a malformed file just has no build-id.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/buildid.h"

#define NOTES_MAX ((size_t)1 << 20)	/* bytes of notes read per segment */

static uint32_t
get32(const unsigned char *p, int big)
{
	return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t
get64(const unsigned char *p, int big)
{
	uint64_t hi = get32(p + (big ? 0 : 4), big);
	uint64_t lo = get32(p + (big ? 4 : 0), big);

	return hi << 32 | lo;
}

/* X rounded up to ALIGN (a power of two); SIZE_MAX when it overflows. */
static size_t
up(size_t x, size_t align)
{
	return x > SIZE_MAX - (align - 1) ? SIZE_MAX :
	    (x + align - 1) & ~(align - 1);
}

size_t
elf_notes_build_id(const unsigned char *b, size_t n, size_t align,
    int big, unsigned char *id)
{
	size_t pos = 0;

	if (align != 8)
		align = 4;
	while (n - pos >= 12) {
		uint32_t namesz = get32(b + pos, big);
		uint32_t descsz = get32(b + pos + 4, big);
		uint32_t type = get32(b + pos + 8, big);
		size_t name = pos + 12, desc, next;

		desc = up(name + namesz, align);
		if (namesz > n || desc > n || descsz > n - desc)
			return 0;
		next = up(desc + descsz, align);
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(b + name, "GNU", 4) == 0 && descsz > 0) {
			if (descsz > BUILD_ID_MAX)
				return 0;
			memcpy(id, b + desc, descsz);
			return descsz;
		}
		if (next >= n)
			break;
		pos = next;
	}
	return 0;
}

static int
read_at(int fd, uint64_t size, uint64_t off, void *buf, size_t n)
{
	if (off > size || n > size - off)
		return -1;
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* Program header I: type, flags, offset, vaddr, filesz, memsz, align. */
struct phdr {
	uint32_t type;
	uint64_t flags, offset, vaddr, filesz, memsz, align;
};

static int
read_phdr(int fd, uint64_t size, const unsigned char *eh, int is64, int big,
    unsigned i, struct phdr *ph)
{
	unsigned char b[56];
	uint64_t phoff = is64 ? get64(eh + 32, big) : get32(eh + 28, big);
	unsigned entsize = (unsigned)(eh[is64 ? 54 : 42] << (big ? 8 : 0) |
	    eh[is64 ? 55 : 43] << (big ? 0 : 8));
	size_t need = is64 ? 56 : 32;

	if (entsize < need || phoff > UINT64_MAX - (uint64_t)i * entsize ||
	    read_at(fd, size, phoff + (uint64_t)i * entsize, b, need) < 0)
		return -1;
	/* where Elf64_Phdr and Elf32_Phdr keep each field; p_flags is a
	 * 32-bit word in both */
	static const unsigned char at64[6] = { 4, 8, 16, 32, 40, 48 };
	static const unsigned char at32[6] = { 24, 4, 8, 16, 20, 28 };
	uint64_t *field[6] = { &ph->flags, &ph->offset, &ph->vaddr,
	    &ph->filesz, &ph->memsz, &ph->align };

	ph->type = get32(b, big);
	for (size_t f = 0; f < 6; f++)
		*field[f] = !is64 ? get32(b + at32[f], big) : f == 0 ?
		    get32(b + at64[f], big) : get64(b + at64[f], big);
	return 0;
}

static void
take_notes(int fd, uint64_t size, const struct phdr *ph, int big,
    struct elf_image *im)
{
	size_t n = ph->filesz < NOTES_MAX ? (size_t)ph->filesz : NOTES_MAX;
	unsigned char *b;

	if (im->idlen || n == 0 || (b = malloc(n)) == NULL)
		return;
	if (read_at(fd, size, ph->offset, b, n) == 0)
		im->idlen = elf_notes_build_id(b, n, ph->align == 8 ? 8 : 4,
		    big, im->id);
	free(b);
}

int
elf_image_read(const char *path, struct elf_image *im)
{
	unsigned char eh[64];
	struct stat sb;
	struct phdr ph;
	int fd, is64, big, rc = -1;
	unsigned phnum;

	memset(im, 0, sizeof *im);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    read_at(fd, (uint64_t)sb.st_size, 0, eh, 52) < 0 ||
	    memcmp(eh, ELFMAG, SELFMAG) != 0 ||
	    (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64) ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		goto out;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	big = eh[EI_DATA] == ELFDATA2MSB;
	if (is64 && read_at(fd, (uint64_t)sb.st_size, 0, eh, 64) < 0)
		goto out;
	im->type = big ? eh[16] << 8 | eh[17] : eh[17] << 8 | eh[16];
	phnum = (unsigned)(eh[is64 ? 56 : 44] << (big ? 8 : 0) |
	    eh[is64 ? 57 : 45] << (big ? 0 : 8));
	for (unsigned i = 0; i < phnum; i++) {
		if (read_phdr(fd, (uint64_t)sb.st_size, eh, is64, big, i,
		    &ph) < 0)
			break;
		if (ph.type == PT_NOTE)
			take_notes(fd, (uint64_t)sb.st_size, &ph, big, im);
		else if (ph.type == PT_LOAD && (ph.flags & PF_X) &&
		    im->ntext < sizeof im->text / sizeof im->text[0]) {
			im->text[im->ntext].vaddr = ph.vaddr;
			im->text[im->ntext].memsz = ph.memsz;
			im->text[im->ntext].offset = ph.offset;
			im->ntext++;
		}
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

int
elf_image_offset(const struct elf_image *im, uint64_t addr, uint64_t *off)
{
	/* the executable segment holding ADDR, else the first one */
	size_t i = 0;

	for (size_t j = 0; j < im->ntext; j++)
		if (addr >= im->text[j].vaddr &&
		    addr - im->text[j].vaddr < im->text[j].memsz)
			i = j;
	if (im->ntext == 0 ||
	    addr + im->text[i].offset < im->text[i].vaddr)
		return -1;
	*off = addr + im->text[i].offset - im->text[i].vaddr;
	return 0;
}
