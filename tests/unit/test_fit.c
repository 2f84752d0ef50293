/*
 * test_fit.c - whether a map's text fits a profile's counters.
 */
#include "unit.h"
#include "core/fit.h"

/* The text [STEXT, ETEXT) of "map" (HAVE_ETEXT), COUNTERS in the profile. */
static struct step_text
text(uint64_t stext, uint64_t etext, int have_etext, uint64_t counters)
{
	struct step_text t = { "map", stext, etext, have_etext, counters };

	return t;
}

/* fit_check of [0x1000, ETEXT) against COUNTERS at STEP. */
static enum fit
check_of(uint64_t etext, int have_etext, uint32_t step, uint64_t counters,
    uint64_t *mc)
{
	struct step_text t = text(0x1000, etext, have_etext, counters);

	return fit_check(&t, step, mc);
}

static void
check(void **state)
{
	struct step_text t = text(0xffffffffb4000000ull, 0xffffffffb4e01d32ull,
	    1, 3671884);
	uint64_t mc;

	(void)state;
	/* the real capture: 0xe01d32 bytes at step 4 is 3671884 counters */
	assert_int_equal(fit_check(&t, 4, &mc), FIT_MATCH);
	assert_int_equal(mc, 3671884);
	assert_int_equal(check_of(0x1020, 1, 4, 9, &mc), FIT_MISMATCH);
	assert_int_equal(mc, 8);
	assert_int_equal(check_of(0x1020, 0, 4, 8, &mc), FIT_UNKNOWN);
	assert_int_equal(check_of(0x1020, 1, 0, 8, &mc), FIT_UNKNOWN);
	assert_int_equal(check_of(0x0fff, 1, 4, 8, &mc), FIT_UNKNOWN);
}

/* The "Map: ..." line of fit_describe for the text [0x1000, ETEXT). */
static char *
describe_text(uint64_t etext, int have_etext)
{
	FILE *f = tmpfile();
	struct step_text t = text(0x1000, etext, have_etext, 8);
	struct out o;
	char *s;

	assert_non_null(f);
	out_init(&o, fileno(f));
	fit_describe(&o, &t, 4);
	assert_int_equal(out_finish(&o), 0);
	s = slurp_fd(fileno(f));
	out_discard(&o);
	fclose(f);
	return s;
}

static void
describe(void **state)
{
	char *s;

	(void)state;
	s = describe_text(0x1020, 1);
	assert_string_equal(s, "Map: map matches\n");
	free(s);
	s = describe_text(0x1024, 1);
	assert_string_equal(s, "Map: map does not match (_etext - _stext is "
	    "36 bytes, 9 counters; profile has 8)\n");
	free(s);
	s = describe_text(0, 0);
	assert_string_equal(s, "Map: map has no _etext\n");
	free(s);
}

/* A profile that covers less than the map's text: said as such. */
static void
short_profile(void **state)
{
	struct step_text t = text(0x1000, 0x1000 + 56, 1, 10);
	char buf[512];

	(void)state;
	fit_short(buf, sizeof buf, &t, 4);
	assert_string_equal(buf, "the profile is shorter than the map's text: "
	    "its 10 counters at step 4 cover 40 bytes, but _etext - _stext "
	    "in map is 56 bytes (a cut copy of the profile, or the map of "
	    "another kernel)");
	fit_short(buf, 9, &t, 4);
	assert_int_equal(strlen(buf), 8);
	assert_string_equal(buf, "the prof");
}

/* FN's stderr, run in a child that must exit 0, is exactly WANT. */
static void
expect_stderr(void (*fn)(void), const char *want)
{
	FILE *err = tmpfile();
	pid_t pid;
	int status;
	char *msg;

	assert_non_null(err);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(err), 2);
		fn();
		fflush(NULL);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	msg = slurp_fd(fileno(err));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    strcmp(msg, want) != 0)
		fail_msg("wanted exit 0 and \"%s\", got status %d and \"%s\"",
		    want, status, msg);
	free(msg);
	fclose(err);
}

/* Step 4, 8 counters (32 bytes) against text of 48, 24 and 32 bytes. */
static void
fit_warn_run_short(void)
{
	struct step_text t = text(0x1000, 0x1030, 1, 8);

	fit_warn(&t, "prof", 4);
}

static void
fit_warn_run_long(void)
{
	struct step_text t = text(0x1000, 0x1018, 1, 8);

	fit_warn(&t, "prof", 4);
}

static void
fit_warn_run_fits(void)
{
	struct step_text t = text(0x1000, 0x1020, 1, 8);

	fit_warn(&t, "prof", 4);
}

/* The warning of a map that does not fit: a short profile named first. */
static void
warnings(void **state)
{
	(void)state;
	expect_stderr(fit_warn_run_short, "readprofile: warning: prof is "
	    "shorter than the text of map, which it does not match: its 8 "
	    "counters at step 4 cover 32 bytes, but _etext - _stext is 48 "
	    "bytes (12 counters): a cut copy of the profile, or else pass the "
	    "map of the kernel that wrote the profile with -m\n");
	expect_stderr(fit_warn_run_long, "readprofile: warning: map does not "
	    "match prof: _etext - _stext is 24 bytes, 6 counters at step 4, "
	    "but the profile has 8 counters; pass the map of the kernel that "
	    "wrote the profile with -m\n");
	expect_stderr(fit_warn_run_fits, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check),
		cmocka_unit_test(describe),
		cmocka_unit_test(short_profile),
		cmocka_unit_test(warnings),
	};

	return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
