/*
 * test_profiling.c - --enable's argument, as the kernel's profile= reads it.
 */
#include "unit.h"
#include "cli/profiling.h"

/* ARG gives MODE and SHIFT, written as WANT. */
static void
takes(const char *arg, int mode, unsigned shift, const char *want)
{
	char canon[32];
	unsigned got = 99;

	assert_int_equal(profiling_parse(arg, &got, canon, sizeof canon), mode);
	assert_int_equal(got, shift);
	assert_string_equal(canon, want);
}

static void
accepted(void **state)
{
	(void)state;
	takes("2", PROF_CPU, 2, "2");
	takes("0", PROF_CPU, 0, "0");
	takes("30", PROF_CPU, 30, "30");
	/* decimal, as every number: the kernel would read 08 as 0, 030 as 24 */
	takes("08", PROF_CPU, 8, "8");
	takes("030", PROF_CPU, 30, "30");
	takes("00", PROF_CPU, 0, "0");
	takes(" +4", PROF_CPU, 4, "4");
	takes("schedule", PROF_SCHED, 0, "schedule");
	takes("schedule,08", PROF_SCHED, 8, "schedule,8");
	takes("sleep,012", PROF_SLEEP, 12, "sleep,12");
	takes("kvm,2", PROF_KVM, 2, "kvm,2");
	takes("kvm", PROF_KVM, 0, "kvm");
}

static void
refused(void **state)
{
	static const char *const bad[] = { "", "31", "031", "-1", " -1", "0x4",
	    "0X4", "4.0", "1e1", "4 ", "4x", "fast", "schedule,", "schedule2",
	    ",2", "kvm,31", "sleep,-1", "schedule,0x2", "schedule, ",
	    "99999999999999999999999", "Schedule", "kvm,2,3" };
	char canon[32];
	unsigned shift;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(profiling_parse(bad[i], &shift, canon,
		    sizeof canon), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepted),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests_name("profiling", tests, NULL, NULL);
}
