/* lines.c - two hot functions whose loops span several source lines, for
 * pprof -list and -disasm.  Each runs for a share of CPU time, not a count
 * of turns, so that profil's 100 Hz sampling sees it tens of times however
 * fast the machine is: `./lines [SECONDS]` (default 0.3 each). */
#include <stdlib.h>
#include <time.h>

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

/* Call F in slices until it has taken SECONDS of the process's CPU time. */
static void
run_for(void (*f)(unsigned long), double seconds)
{
	clock_t end = clock() + (clock_t)(seconds * CLOCKS_PER_SEC);

	do
		f(1000000);
	while (clock() < end);
}

int
main(int argc, char **argv)
{
	double s = argc > 1 ? strtod(argv[1], 0) : 0.3;

	run_for(hot_one, s);
	run_for(hot_two, s);
	return 0;
}
