// names.cc - C++ functions whose names gprof prints demangled.  Each runs
// for a share of CPU time, not a count of turns, so that profil's 100 Hz
// sampling sees it however fast the machine is: `./names [SECONDS]`
// (default 0.2 for spin, a quarter of it for each of the others).
#include <cstdlib>
#include <ctime>

volatile unsigned long sink;

namespace ns {
struct Widget {
	__attribute__((noinline)) static void spin(long n)
	{
		for (long i = 0; i < n; i++)
			sink += (unsigned long)i * 3;
	}
	__attribute__((noinline)) void twist(unsigned long n, const char *)
	{
		for (unsigned long i = 0; i < n; i++)
			sink ^= i * 7 + 1;
	}
};

template <typename T> __attribute__((noinline)) T
turn(T n)
{
	for (T i = 0; i < n; i++)
		sink += (unsigned long)i >> 1;
	return n;
}
}

extern "C" __attribute__((noinline)) void
plain_c(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

// Has SECONDS of the process's CPU time gone by since START?
static bool
spent(std::clock_t start, double seconds)
{
	return std::clock() - start >= (std::clock_t)(seconds * CLOCKS_PER_SEC);
}

int
main(int argc, char **argv)
{
	double s = argc > 1 ? std::strtod(argv[1], 0) : 0.2;
	const long n = 1000000;
	ns::Widget w;
	std::clock_t t;

	for (t = std::clock(); !spent(t, s);)
		ns::Widget::spin(n);
	for (t = std::clock(); !spent(t, s / 4);)
		w.twist(n, "x");
	for (t = std::clock(); !spent(t, s / 4);)
		ns::turn<int>((int)n);
	for (t = std::clock(); !spent(t, s / 4);)
		plain_c((unsigned long)n);
	return 0;
}
