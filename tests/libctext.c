/*
 * libctext.c - print what this C library says, for tests that compare
 * messages which come from libc rather than from readprofile.
 *
 *   libctext strerror NAME        the text of errno NAME (ENOENT, ...)
 *   libctext getopt ARG...        what getopt_long writes to stderr for
 *                                 "readprofile ARG...", with readprofile's
 *                                 options (written to stdout here)
 *
 * Built with the compiler under test, so glibc and musl each give their
 * own texts.  Exit status 2 on a name it does not know.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	int num;
} errnos[] = {
	{ "EACCES", EACCES }, { "EISDIR", EISDIR }, { "ELOOP", ELOOP },
	{ "ENOENT", ENOENT }, { "ENOSPC", ENOSPC }, { "ERANGE", ERANGE },
	{ "ENOTDIR", ENOTDIR }, { "EINVAL", EINVAL }, { "EIO", EIO },
	{ "ENAMETOOLONG", ENAMETOOLONG },
};

/* readprofile's command line, restated: the interface, not its code. */
static const struct option longopts[] = {
	{ "mapfile", required_argument, NULL, 'm' },
	{ "profile", required_argument, NULL, 'p' },
	{ "multiplier", required_argument, NULL, 'M' },
	{ "info", no_argument, NULL, 'i' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "all", no_argument, NULL, 'a' },
	{ "histbin", no_argument, NULL, 'b' },
	{ "counters", no_argument, NULL, 's' },
	{ "reset", no_argument, NULL, 'r' },
	{ "no-auto", no_argument, NULL, 'n' },
	{ "exact", no_argument, NULL, 256 },
	{ "baseline", required_argument, NULL, 257 },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
print_strerror(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof errnos / sizeof errnos[0]; i++) {
		if (strcmp(errnos[i].name, name) == 0) {
			printf("%s\n", strerror(errnos[i].num));
			return 0;
		}
	}
	fprintf(stderr, "libctext: unknown errno name %s\n", name);
	return 2;
}

static int
print_getopt(int argc, char **argv)
{
	static char prog[] = "readprofile";

	argv[0] = prog;
	if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
		return 2;
	opterr = 1;
	while (getopt_long(argc, argv, "m:p:M:ivabsrnVh", longopts,
	    NULL) != -1)
		;
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "strerror") == 0)
		return print_strerror(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "getopt") == 0)
		return print_getopt(argc - 1, argv + 1);
	fprintf(stderr, "usage: libctext strerror NAME | getopt ARG...\n");
	return 2;
}
