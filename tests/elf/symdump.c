/*
 * symdump.c - print a symbol source as `nm -n` lines, addresses in 16
 * digits: "ADDRESS TYPE NAME".  Test helper for tests/elf/.
 *
 *   symdump FILE
 */
#include <stdio.h>

#include "sym/symsrc.h"
#include "base/util.h"

int
main(int argc, char **argv)
{
	struct symsrc s;
	struct sym y;

	if (argc != 2) {
		fputs("usage: symdump FILE\n", stderr);
		return 2;
	}
	if (symsrc_open(&s, argv[1]) < 0)
		fatal("%s", argv[1]);
	while (symsrc_next(&s, &y))
		printf("%016llx %c %.*s\n", (unsigned long long)y.addr, y.type,
		    (int)y.namelen, y.name);
	symsrc_close(&s);
	return fflush(stdout) == 0 ? 0 : 1;
}
