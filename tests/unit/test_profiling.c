/*
 * test_profiling.c - --enable's argument, as the kernel's profile= reads it.
 */
#include "unit.h"
#include "cli/profiling.h"

/* Each argument taken gives its mode and shift, written as the kernel is
 * to read it; each refused gives -1. */
static void
parse(void **state)
{
	static const struct {
		const char *arg, *canon;
		int mode;
		unsigned shift;
	} ok[] = {
		{ "2", "2", PROF_CPU, 2 }, { "0", "0", PROF_CPU, 0 },
		{ "30", "30", PROF_CPU, 30 },
		/* decimal, as every number: the kernel would read 08 as 0,
		 * 030 as 24 */
		{ "08", "8", PROF_CPU, 8 }, { "030", "30", PROF_CPU, 30 },
		{ "00", "0", PROF_CPU, 0 }, { " +4", "4", PROF_CPU, 4 },
		{ "schedule", "schedule", PROF_SCHED, 0 },
		{ "schedule,08", "schedule,8", PROF_SCHED, 8 },
		{ "sleep,012", "sleep,12", PROF_SLEEP, 12 },
		{ "kvm,2", "kvm,2", PROF_KVM, 2 }, { "kvm", "kvm", PROF_KVM, 0 },
	};
	static const char *const bad[] = { "", "31", "031", "-1", " -1", "0x4",
	    "0X4", "4.0", "1e1", "4 ", "4x", "fast", "schedule,", "schedule2",
	    ",2", "kvm,31", "sleep,-1", "schedule,0x2", "schedule, ",
	    "99999999999999999999999", "Schedule", "kvm,2,3" };
	char canon[32];
	unsigned shift;

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		shift = 99;
		assert_int_equal(profiling_parse(ok[i].arg, &shift, canon,
		    sizeof canon), ok[i].mode);
		assert_int_equal(shift, ok[i].shift);
		assert_string_equal(canon, ok[i].canon);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(profiling_parse(bad[i], &shift, canon,
		    sizeof canon), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
	};

	return cmocka_run_group_tests_name("profiling", tests, NULL, NULL);
}
