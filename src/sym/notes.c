/* notes.c - the GNU build-id in a sequence of ELF notes. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "sym/notes.h"
#include "base/input.h"
#include "base/util.h"

#define NT_GNU_BUILD_ID_TYPE 3

/* X rounded up to ALIGN, or SIZE_MAX when that overflows. */
static size_t
up(size_t x, size_t align)
{
	if (x > SIZE_MAX - (align - 1))
		return SIZE_MAX;
	return (x + align - 1) & ~(align - 1);
}

enum notes_result
notes_build_id(const void *data, size_t n, int big, size_t align,
    struct build_id *id)
{
	const unsigned char *p = data;
	size_t off = 0;

	id->n = 0;
	if (align != 8)
		align = 4;
	while (n - off >= 12) {
		uint32_t namesz = (uint32_t)word_at(p + off, 4, big);
		uint32_t descsz = (uint32_t)word_at(p + off + 4, 4, big);
		uint32_t type = (uint32_t)word_at(p + off + 8, 4, big);
		size_t name = off + 12, desc, next;

		/* checked before adding: where size_t is 32 bits wide the
		 * sum could wrap back to this note, for ever */
		if ((size_t)namesz > n - name)
			return NOTES_BAD;
		desc = up(name + namesz, align);
		if (desc > n || (size_t)descsz > n - desc)
			return NOTES_BAD;
		next = up(desc + descsz, align);
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 &&
		    memcmp(p + name, "GNU", 4) == 0 && descsz > 0 &&
		    descsz <= BUILD_ID_MAX) {
			memcpy(id->b, p + desc, descsz);
			id->n = descsz;
			return NOTES_FOUND;
		}
		if (next >= n)
			return NOTES_NONE;
		off = next;
	}
	return n - off == 0 ? NOTES_NONE : NOTES_BAD;
}

char *
build_id_hex(const struct build_id *id, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < id->n && i < BUILD_ID_MAX; i++) {
		buf[2 * i] = hex[id->b[i] >> 4];
		buf[2 * i + 1] = hex[id->b[i] & 15];
	}
	buf[2 * i] = '\0';
	return buf;
}

int
build_id_equal(const struct build_id *a, const struct build_id *b)
{
	return a->n > 0 && a->n == b->n && memcmp(a->b, b->b, a->n) == 0;
}

enum notes_result
notes_file_build_id(const char *file, struct build_id *id)
{
	static const uint32_t one = 1;
	unsigned char buf[16384];
	ssize_t len;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	id->n = 0;
	if (fd < 0)
		return NOTES_NONE;
	len = read_full(fd, buf, sizeof buf, -1);
	close(fd);
	return notes_build_id(buf, len > 0 ? (size_t)len : 0,
	    *(const unsigned char *)&one == 0, 4, id);
}
