// names.cc - C++ functions whose names gprof prints demangled.
#include <cstdlib>

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

int
main(int argc, char **argv)
{
	long n = argc > 1 ? std::strtol(argv[1], 0, 0) : 20000000L;
	ns::Widget w;

	ns::Widget::spin(n);
	w.twist(2 * (unsigned long)n, "x");
	ns::turn<int>((int)(n / 2));
	plain_c((unsigned long)n / 2);
	return 0;
}
