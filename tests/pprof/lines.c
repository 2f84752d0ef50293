/* lines.c - two hot functions whose loops span several source lines, for
 * pprof -list and -disasm. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void
hot_one(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		sink += i * 3;
		sink ^= i >> 2;
	}
}

__attribute__((noinline)) void
hot_two(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		sink += i * 7;
		sink -= i >> 3;
		sink ^= i + 11;
		sink += sink >> 5;
	}
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 20000000UL;

	hot_one(n);
	hot_two(n);
	return 0;
}
