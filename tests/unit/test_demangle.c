/*
 * test_demangle.c - C++ names demangled in a child that the system bounds:
 * real names as c++filt prints them, crafted ones left mangled and
 * counted, and the parent unharmed by a child killed, stopped, slow to
 * answer, or answering while signals interrupt it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "unit.h"
#include "sym/demangle.h"

/* The tests' demangler, as a report holds one. */
static struct demangler dm;

/*
 * A mangled name whose substitutions double at each of LEVELS levels:
 * f(A, B<A, A>, B<B<A, A>, B<A, A> >, ...).  A is S_, B is S0_ and level
 * K (from 1) is S<K>_.  In BUF (CAP bytes).
 */
static const char *
doubling(char *buf, size_t cap, int levels)
{
	static const char b36[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n;

	n = (size_t)snprintf(buf, cap, "_Z1f10AAAAAAAAAA1BIS_S_E");
	for (int k = 2; k <= levels && n + 16 < cap; k++)
		n += (size_t)snprintf(buf + n, cap - n, "S0_IS%c_S%c_E",
		    b36[k - 1], b36[k - 1]);
	return buf;
}

/* The review's name: an expression pack expansion over 16 ints, 7 deep;
 * each level multiplies the demangled form by 16. */
static const char review[] = "_Z1fIJiiiiiiiiiiiiiiiiEEDT"
    "spplT_spplT_spplT_spplT_spplT_spplT_spplT_spT_Ev";

/* 40 nested a++ under a pack expansion: little memory, much CPU time:
 * the child ends on it (SIGPROF). */
static const char busy[] = "_Z1fIJiEEDTsp"
    "pppppppppppppppppppppppppppppppppppppppp"
    "pppppppppppppppppppppppppppppppppppppppp"
    "fp_EDpT_";

/* Whether this system has the demangler the program loads. */
static int
have_demangler(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return 0;
	dlclose(h);
	return 1;
}

/* NAME demangled here, by the library itself (malloc'd). */
static char *
direct(const char *name)
{
	char *(*fn)(const char *, char *, size_t *, int *);
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	int status;
	char *r;

	*(void **)&fn = dlsym(h, "__cxa_demangle");
	r = fn(name, NULL, NULL, &status);
	dlclose(h);
	return r;
}

static void
demangled_is(const char *mangled, const char *want)
{
	size_t len;
	const char *got = demangle_or_same(&dm, mangled, strlen(mangled), &len);

	if (!have_demangler()) {
		assert_ptr_equal(got, mangled);
		return;
	}
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
}

static void
stays(const char *name)
{
	size_t len;

	assert_ptr_equal(demangle_or_same(&dm, name, strlen(name), &len), name);
	assert_int_equal(len, strlen(name));
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
names_demangle_as_cxxfilt_prints_them(void **state)
{
	(void)state;
	demangled_is("_ZN2ns6Widget4spinEl", "ns::Widget::spin(long)");
	demangled_is("_ZNSt6vectorIiSaIiEE9push_backERKi",
	    "std::vector<int, std::allocator<int> >::push_back(int const&)");
	demangled_is("_ZN2ns4turnImEET_S1_",
	    "unsigned long ns::turn<unsigned long>(unsigned long)");
	demangled_is("_Z3fooPFviE", "foo(void (*)(int))");
	demangled_is("_ZN1AC2ERKS_", "A::A(A const&)");
	demangled_is("_ZZ4mainENKUlvE_clEv.constprop.0",
	    "main::{lambda()#1}::operator()() const [clone .constprop.0]");
	demangled_is("_ZCI5Si", "basic_istream");
	demangled_is("_Z1fIiEDTppfp_ET_", "decltype ({parm#1}++) f<int>(int)");
	assert_int_equal(dm.left, 0);
	demangler_free(&dm);
	if (!have_demangler())
		skip();
}

/*
 * Names that would take gigabytes (the review's; the doubling one, 2^24
 * leaves), or that keep the demangler busy with little memory (40 nested
 * a++ under a pack expansion), each stay mangled and are counted; the
 * names after them are still demangled, each within the limits.
 */
static void
crafted_names_stay_mangled_and_counted(void **state)
{
	char buf[512];
	double t0 = now();

	(void)state;
	stays(review);
	demangled_is("_ZN2ns6Widget4spinEl", "ns::Widget::spin(long)");
	stays(doubling(buf, sizeof buf, 24));
	stays(busy);
	demangled_is("_ZN1AC2ERKS_", "A::A(A const&)");
	/* past 64 KiB demangled (2^13 leaves) */
	stays(doubling(buf, sizeof buf, 13));
	if (have_demangler()) {
		assert_int_equal(dm.left, 4);
		assert_true(now() - t0 < 4 * 2.0 + 2);
	}
	demangler_free(&dm);
	assert_int_equal(dm.left, 0);
	if (!have_demangler())
		skip();
}

/* A few levels: short enough to show. */
static void
short_doubling_name_is_demangled(void **state)
{
	char buf[512];
	const char *name = doubling(buf, sizeof buf, 4), *got;
	size_t len;

	(void)state;
	got = demangle_or_same(&dm, name, strlen(name), &len);
	if (!have_demangler())
		skip();
	assert_ptr_not_equal(got, name);
	assert_true(len > 100 && len <= 4096);
	assert_int_equal(dm.left, 0);
	demangler_free(&dm);
}

/* Not "_Z...": never sent, no child started.  Names the demangler
 * refuses stay as they are and are not counted. */
static void
what_is_not_a_mangled_name_stays(void **state)
{
	static const char *const plain[] = { "main", "_Z", "Z1fv", "i" };
	static const char *const refused[] = {
		"_Zx", "_Z1fv@GLIBCXX_3.4", "_ZN3fooE1", "_Z1fS_", "_Z1fT_",
		"_Z99999999999999999999a", "_Z1fIiEvTA_",
	};

	(void)state;
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		stays(plain[i]);
	assert_int_equal(dm.pid, 0);
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		stays(refused[i]);
	assert_int_equal(dm.left, 0);
	demangler_free(&dm);
}

/* Names A and B asked ahead, their child replaced by a stand-in forked
 * here that runs HOW: its socket's wait bounded as the demangler's own
 * (5 s), the test's end closed in the stand-in. */
static void
stand_in(const char *a, const char *b, void (*how)(int fd))
{
	struct timeval w = { 5, 0 };
	int sv[2];
	pid_t pid;

	demangle_ahead(&dm, NULL, 0);
	demangle_ahead(&dm, a, strlen(a));
	demangle_ahead(&dm, b, strlen(b));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &w,
	    sizeof w), 0);
	if ((pid = fork()) == 0) {
		close(sv[0]);	/* so that the end is seen, should the test die */
		how(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	dm.pid = pid;
	dm.fd = sv[0];
	dm.at = dm.end = 0;
}

static void
dies(int fd)
{
	(void)fd;
}

static void
stops(int fd)
{
	(void)fd;
	raise(SIGSTOP);
}

/* Two names of a batch demangled, though their child is a stand-in that
 * runs HOW. */
static void
demangled_despite(void (*how)(int fd))
{
	stand_in("_ZN1AC2ERKS_", "_Z3fooPFviE", how);
	demangled_is("_ZN1AC2ERKS_", "A::A(A const&)");
	demangled_is("_Z3fooPFviE", "foo(void (*)(int))");
}

/* A batch's child ends (killed, stopped) with no answer sent: a careful
 * child answers its names, each demangled.  A careful child that ends on
 * a name (CPU_MS spent): that name stays mangled (counted); the next is
 * demangled by another. */
static void
child_killed_or_stopped(void **state)
{
	double t0;

	(void)state;
	if (!have_demangler())
		skip();
	demangled_is("_ZN2ns6Widget4spinEl", "ns::Widget::spin(long)");
	demangled_despite(dies);
	t0 = now();
	demangled_despite(stops);
	assert_true(now() - t0 < 12);	/* 5 s, and a little */
	assert_int_equal(dm.left, 0);
	stand_in(busy, "_Z3fooPFviE", dies);
	stays(busy);
	demangled_is("_Z3fooPFviE", "foo(void (*)(int))");
	assert_int_equal(dm.left, 1);
	demangler_free(&dm);
}

static void
on_alarm(int sig)
{
	(void)sig;
}

/* SIGALRM every 100 us, its handler without SA_RESTART: every read and
 * send of the parent may be interrupted; each name is still demangled. */
static void
interrupted_reads_and_sends(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval t = { { 0, 100 }, { 0, 100 } }, off = { 0 };
	char buf[512];

	(void)state;
	if (!have_demangler())
		skip();
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
	for (int i = 0; i < 2000; i++) {
		char *want = direct(doubling(buf, sizeof buf, 1 + i % 9));

		demangled_is("_ZN2ns6Widget4spinEl", "ns::Widget::spin(long)");
		demangled_is(buf, want);
		free(want);
	}
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
	assert_int_equal(dm.left, 0);
	demangler_free(&dm);
}

static void
in_pieces(int fd)
{
	static const char *const piece[] = { "=", "A::A(", "A const&)",
	    "=foo(void (*)(int))" };

	for (size_t i = 0; i < 4; i++) {
		usleep(20000);
		if (write(fd, piece[i], strlen(piece[i]) + (i >= 2)) < 0)
			_exit(1);
	}
	pause();	/* until killed */
}

/* Answers in pieces, a while apart: each put together whole. */
static void
answer_in_pieces(void **state)
{
	(void)state;
	if (!have_demangler())
		skip();
	demangled_is("_ZN2ns6Widget4spinEl", "ns::Widget::spin(long)");
	demangled_despite(in_pieces);
	assert_int_equal(dm.left, 0);
	demangler_free(&dm);
}

/*
 * Names asked ahead, a batch in one exchange: a crafted name among them
 * ends the child with answers to the names before it not yet sent; each
 * stays right: the crafted ones mangled and counted, the rest demangled,
 * a name not asked ahead too; those asked ahead and not asked for are
 * not counted.  Then a batch whose answers (some 4 MB)
 * are far past what the socket holds: each demangled, none lost.
 */
static void
batch_with_crafted_names(void **state)
{
	const char *names[] = { "_ZN2ns6Widget4spinEl", "_ZN1AC2ERKS_",
	    review, "main", "_Z3fooPFviE", busy, "_ZN1AC2ERKS_" };
	const size_t n = sizeof names / sizeof names[0];
	static char big[1000][160];
	char *want = NULL;

	(void)state;
	if (!have_demangler())
		skip();
	demangle_ahead(&dm, NULL, 0);
	for (size_t i = 0; i < n; i++)
		demangle_ahead(&dm, names[i], strlen(names[i]));
	demangled_is(names[0], "ns::Widget::spin(long)");
	demangled_is(names[1], "A::A(A const&)");
	stays(names[2]);
	stays(names[3]);
	demangled_is("_Z1fIiEDTppfp_ET_", "decltype ({parm#1}++) f<int>(int)");
	demangled_is(names[4], "foo(void (*)(int))");
	stays(names[5]);
	demangled_is(names[6], "A::A(A const&)");
	assert_int_equal(dm.left, 2);
	demangle_ahead(&dm, NULL, 0);
	for (size_t i = 0; i < 1000; i++) {
		doubling(big[i], sizeof big[i], 8);
		demangle_ahead(&dm, big[i], strlen(big[i]));
	}
	want = direct(big[0]);
	for (size_t i = 0; i < 1000; i++)
		demangled_is(big[i], want);
	free(want);
	assert_int_equal(dm.left, 2);
	/* asked ahead, not asked for (--pprof asks ahead more than it
	 * shows): dropped, a crafted one not counted */
	demangle_ahead(&dm, NULL, 0);
	demangle_ahead(&dm, review, strlen(review));
	demangle_ahead(&dm, names[0], strlen(names[0]));
	demangle_ahead(&dm, names[4], strlen(names[4]));
	demangled_is(names[4], "foo(void (*)(int))");
	assert_int_equal(dm.left, 2);
	demangler_free(&dm);
}

/* Under an address-space limit nearer than the child's own (this
 * process's size and 32 MiB): the child keeps to the hard limit it has,
 * and names are still demangled.  In a fork: a hard limit stays. */
static void
hard_limit_nearer_than_the_childs(void **state)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	struct rlimit l;
	const char *got;
	size_t len;
	pid_t pid;
	int st = 0;

	(void)state;
	if (!have_demangler())
		skip();
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu", &pages), 1);
	fclose(f);
	l.rlim_cur = l.rlim_max = (rlim_t)(pages *
	    (unsigned long long)sysconf(_SC_PAGESIZE)) + (16 << 20);
	if ((pid = fork()) == 0) {
		if (setrlimit(RLIMIT_AS, &l) < 0)
			_exit(2);
		got = demangle_or_same(&dm, "_ZN1AC2ERKS_", 12, &len);
		_exit(len == 14 && memcmp(got, "A::A(A const&)", 14) == 0 &&
		    dm.left == 0 && !dm.broken ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_demangle_as_cxxfilt_prints_them),
		cmocka_unit_test(crafted_names_stay_mangled_and_counted),
		cmocka_unit_test(short_doubling_name_is_demangled),
		cmocka_unit_test(what_is_not_a_mangled_name_stays),
		cmocka_unit_test(child_killed_or_stopped),
		cmocka_unit_test(interrupted_reads_and_sends),
		cmocka_unit_test(answer_in_pieces),
		cmocka_unit_test(batch_with_crafted_names),
		cmocka_unit_test(hard_limit_nearer_than_the_childs),
	};

	return cmocka_run_group_tests_name("demangle", tests, NULL, NULL);
}
