/*
 * floor.c - the least a reader that holds the profile must do: read
 * PROFILE whole into fresh memory, as readprofile reads it once, then MAP
 * through one small buffer, as cat reads it; nothing is parsed.
 *
 *   bench-floor PROFILE MAP
 *
 * The bench times it beside cat of the same two files: what is left of a
 * goal "at most N times cat" once the profile is in memory.  Exits 0, or 1
 * with a message when a file cannot be read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int
fail(const char *name)
{
	perror(name);
	return 1;
}

int
main(int argc, char **argv)
{
	static char buf[128 << 10];
	struct stat st;
	unsigned char *p;
	size_t len = 0;
	ssize_t r;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: bench-floor PROFILE MAP\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0)
		return fail(argv[1]);
	if ((p = malloc((size_t)st.st_size + 1)) == NULL)
		return fail("malloc");
	while ((r = read(fd, p + len, (size_t)st.st_size + 1 - len)) > 0)
		len += (size_t)r;
	if (r < 0)
		return fail(argv[1]);
	close(fd);
	if ((fd = open(argv[2], O_RDONLY)) < 0)
		return fail(argv[2]);
	while ((r = read(fd, buf, sizeof buf)) > 0)
		continue;
	if (r < 0)
		return fail(argv[2]);
	close(fd);
	free(p);
	return 0;
}
