/*
 * floor.c - the least a reader that holds the profile must do: read
 * PROFILE whole into fresh memory, as readprofile reads it once, then MAP
 * through one small buffer, as cat reads it; nothing is parsed.
 *
 *   bench-floor PROFILE MAP [fresh|populate|huge|mapped]
 *
 * The bench times it beside cat of the same two files: what is left of a
 * goal "at most N times cat" once the profile is in memory.  The memory
 * the profile is read into:
 *   fresh     malloc, as readprofile (the default): a fault and a zeroed
 *             page every 4 KiB as the read fills it;
 *   populate  mmap with MAP_POPULATE: the same pages, made before the
 *             read in one call instead of a fault each;
 *   huge      a 2 MiB-aligned block given madvise(MADV_HUGEPAGE): what
 *             it costs depends on the huge pages the kernel has free;
 *   mapped    not read: the file mapped with MAP_POPULATE, its pages the
 *             page cache's (no copy, no zeroing; not a copy of our own: a
 *             writer changes it, a truncation makes it fault, and
 *             /proc/profile cannot be mapped).
 * Exits 0, or 1 with a message when a file cannot be read.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)

static int
fail(const char *name)
{
	perror(name);
	return 1;
}

static const char *const modes[] = { "fresh", "populate", "huge", "mapped" };
enum { FRESH, POPULATE, HUGE, MAPPED, NMODES };

/* SIZE bytes of memory the way MODE (not MAPPED) says, or NULL. */
static unsigned char *
memory(int mode, size_t size)
{
	void *p;

	if (mode == FRESH)
		return malloc(size);
	if (mode == POPULATE) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	size = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	if ((p = aligned_alloc(HUGE_PAGE, size)) != NULL)
		madvise(p, size, MADV_HUGEPAGE);
	return p;
}

int
main(int argc, char **argv)
{
	static char buf[128 << 10];
	struct stat st;
	unsigned char *p;
	size_t len = 0;
	ssize_t r;
	int fd, mode = FRESH;

	while (argc == 4 && mode < NMODES && strcmp(argv[3], modes[mode]) != 0)
		mode++;
	if (argc < 3 || argc > 4 || mode == NMODES) {
		fprintf(stderr, "usage: bench-floor PROFILE MAP "
		    "[fresh|populate|huge|mapped]\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0)
		return fail(argv[1]);
	if (mode == MAPPED) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ,
		    MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED)
			return fail(argv[1]);
	} else {
		if ((p = memory(mode, (size_t)st.st_size + 1)) == NULL)
			return fail("memory");
		while ((r = read(fd, p + len, (size_t)st.st_size + 1 - len)) > 0)
			len += (size_t)r;
		if (r < 0)
			return fail(argv[1]);
	}
	close(fd);
	if ((fd = open(argv[2], O_RDONLY)) < 0)
		return fail(argv[2]);
	while ((r = read(fd, buf, sizeof buf)) > 0)
		continue;
	if (r < 0)
		return fail(argv[2]);
	close(fd);
	return 0;
}
