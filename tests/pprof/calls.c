/* calls.c - a program of a known call graph, for --pprof's calls: each
 * call is counted by the program itself, and at exit it prints the arcs
 * it made, "CALLER CALLEE COUNT" a line, for the test to hold against
 * pprof's calls samples and gprof -q.  `./calls [N [WORK]]` (default 3
 * and 1000): the numbers of calls grow with N, each call of leaf turns
 * WORK times (its ticks); a recursion (fib) and calls of one callee from
 * several callers and sites.  Build it with -fno-inline and
 * -fno-optimize-sibling-calls: each call a call instruction. */
#include <stdio.h>
#include <stdlib.h>

enum { LEAF, MID, FIB, TOP, MAIN, NFUNC };
static const char *const name[NFUNC] = { "leaf", "mid", "fib", "top",
    "main" };
static unsigned long arcs[NFUNC][NFUNC];	/* [caller][callee] */
static volatile unsigned long sink;
static unsigned long work = 1000;

#define CALL(from, to, call) (arcs[from][to]++, call)

__attribute__((noinline)) void
leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void
mid(unsigned long n)
{
	for (unsigned long i = 0; i < n % 5 + 2; i++)
		CALL(MID, LEAF, leaf(work));
	sink++;
}

__attribute__((noinline)) unsigned long
fib(unsigned long k)
{
	if (k < 2)
		return k;
	return CALL(FIB, FIB, fib(k - 1)) + CALL(FIB, FIB, fib(k - 2));
}

__attribute__((noinline)) void
top(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		CALL(TOP, MID, mid(i + 1000));
	CALL(TOP, LEAF, leaf(work + n));
	sink++;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 3;

	if (argc > 2)
		work = strtoul(argv[2], NULL, 10);

	for (unsigned long i = 0; i < 10 * work; i++)	/* main's own ticks */
		sink += i;
	for (unsigned long i = 0; i < n; i++)
		CALL(MAIN, TOP, top(n + i));
	CALL(MAIN, MID, mid(n));
	CALL(MAIN, FIB, fib(n + 5));
	for (int i = 0; i < NFUNC; i++)
		for (int j = 0; j < NFUNC; j++)
			if (arcs[i][j])
				printf("%s %s %lu\n", name[i], name[j],
				    arcs[i][j]);
	return 0;
}
