/*
 * test_demangle.c - C++ names demangled, and the bound on their length
 * that keeps a crafted name from costing more than its own size.
 */
#include <dlfcn.h>

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

static void
demangled_is(const char *mangled, const char *want)
{
	size_t len;
	const char *got = demangle_or_same(&dm, mangled, strlen(mangled), &len);

	assert_true(demangle_bound(mangled, strlen(mangled)) >= strlen(want));
	if (!have_demangler())
		return;
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
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
	if (!have_demangler())
		skip();
}

/* The crafted name of 24 levels: 2^24 leaves, some 400 MB demangled. */
static void
doubling_name_stays_mangled_at_once(void **state)
{
	char buf[512];
	const char *name = doubling(buf, sizeof buf, 24), *got;
	size_t len;

	(void)state;
	assert_true(strlen(name) < 300);
	assert_true(demangle_bound(name, strlen(name)) > ((uint64_t)1 << 24));
	got = demangle_or_same(&dm, name, strlen(name), &len);
	assert_ptr_equal(got, name);
	assert_int_equal(len, strlen(name));
	/* each further level doubles it: the bound says so, never wraps */
	name = doubling(buf, sizeof buf, 35);
	assert_true(demangle_bound(name, strlen(name)) > ((uint64_t)1 << 34));
	assert_ptr_equal(demangle_or_same(&dm, name, strlen(name), &len), name);
}

/* A few levels: short enough to show, and the bound holds it. */
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
	assert_true(demangle_bound(name, strlen(name)) >= len);
}

/* Past 4 KiB demangled, the mangled name is shown. */
static void
name_longer_than_4k_demangled_stays_mangled(void **state)
{
	char buf[512];
	const char *name = doubling(buf, sizeof buf, 9);
	size_t len;

	(void)state;
	assert_ptr_equal(demangle_or_same(&dm, name, strlen(name), &len), name);
	assert_int_equal(len, strlen(name));
}

static void
what_is_not_a_mangled_name_stays(void **state)
{
	static const char *const names[] = {
		"main", "_Z", "_Zx", "_Z1fv@GLIBCXX_3.4", "_ZN3fooE1",
		"_Z1fS_", "_Z1fT_", "_Z99999999999999999999a",
	};
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_ptr_equal(demangle_or_same(&dm, names[i], strlen(names[i]),
		    &len), names[i]);
	assert_true(demangle_bound("main", 4) >= ((uint64_t)1 << 40));
}

/* The bound of an operator's name holds its longest, whatever the
 * demangler: "operator reinterpret_cast" is 25 characters. */
static void
operator_names_are_bounded(void **state)
{
	static const char *const names[] = { "_Zrc", "_Zdc", "_Zsc", "_Zcc",
	    "_Zda", "_Zdl", "_Zna", "_Zaw" };

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_true(demangle_bound(names[i], strlen(names[i])) >=
		    strlen("operator reinterpret_cast"));
}

/* Each qualifier of a nested name, or of a function type, is printed
 * (" const" 100 times): the bound holds every one. */
static void
repeated_qualifiers_are_bounded(void **state)
{
	static const char *const forms[] = { "_Z1fPN%s1A1fE", "_Z1fP%sFvvE" };
	char k[101], name[160];

	(void)state;
	memset(k, 'K', 100);
	k[100] = '\0';
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(name, sizeof name, forms[i], k);
		assert_true(demangle_bound(name, strlen(name)) >=
		    100 * strlen(" const"));
	}
}

/*
 * A template parameter's number is decimal (T_, T0_, T1_, ...), unlike a
 * substitution's base-36 seq-id: "TD_" is no name, and libstdc++'s
 * __cxa_demangle never returns on some names that hold it (c++filt
 * refuses them at once).  The bound refuses them, so the demangler is
 * never asked.
 */
static void
template_parameter_number_is_decimal(void **state)
{
	static const char *const names[] = {
		"_ZN1AIiE1fIXntsr3std7is_sameITD_S_EE5valueEvEEv",
		"_Z1fIiEvTA_", "_Z1fIiEvTZ_",
	};
	static const char *const ok[] = {
		"_Z1fIiEvT_", "_Z1fIicEvT0_", "_Z1fIiiiiiiiiiiiiEvT10_",
	};

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_true(demangle_bound(names[i], strlen(names[i])) >=
		    ((uint64_t)1 << 40));
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		assert_true(demangle_bound(ok[i], strlen(ok[i])) <
		    ((uint64_t)1 << 40));
}

/*
 * A constructor prints its class's last name; an abbreviation (Sa, Si,
 * ...) names one too: "allocator", "basic_istream", never a source name
 * the bound has read.
 */
static void
constructor_of_an_abbreviation_is_bounded(void **state)
{
	(void)state;
	demangled_is("_ZCI5Sa", "allocator");
	demangled_is("_ZCI5Si", "basic_istream");
	if (!have_demangler())
		skip();
}

/* A pack expansion of no pack prints its type as "(T)...", nested too. */
static void
expansion_of_no_pack_is_bounded(void **state)
{
	char name[100], want[300];
	int k = snprintf(name, sizeof name, "_Z1f"), w = 0;

	(void)state;
	w += snprintf(want, sizeof want, "f(");
	for (int i = 0; i < 40; i++) {
		k += snprintf(name + k, sizeof name - (size_t)k, "Dp");
		w += snprintf(want + w, sizeof want - (size_t)w, "(");
	}
	snprintf(name + k, sizeof name - (size_t)k, "i");
	w += snprintf(want + w, sizeof want - (size_t)w, "int");
	for (int i = 0; i < 40; i++)
		w += snprintf(want + w, sizeof want - (size_t)w, ")...");
	snprintf(want + w, sizeof want - (size_t)w, ")");
	demangled_is(name, want);
	if (!have_demangler())
		skip();
}

/*
 * libstdc++ holds the operand of a postfix ++ or -- twice, and its
 * search for a pack walks both: under a pack expansion (sp), 40 nested
 * a++ take 2^40 steps to print 200 bytes.  Each level doubles the bound,
 * so that such a name stays mangled, the demangler never asked.
 */
static void
postfix_operators_double_the_bound(void **state)
{
	char name[160];
	size_t len;

	(void)state;
	for (const char *op = "pm"; *op != '\0'; op++) {
		int k = snprintf(name, sizeof name, "_Z1fIiEDTsp");

		for (int i = 0; i < 40; i++)
			k += snprintf(name + k, sizeof name - (size_t)k, "%c%c",
			    *op, *op);
		snprintf(name + k, sizeof name - (size_t)k, "fp_ET_");
		assert_true(demangle_bound(name, strlen(name)) >=
		    ((uint64_t)1 << 40));
		assert_ptr_equal(demangle_or_same(&dm, name, strlen(name), &len),
		    name);
	}
	demangled_is("_Z1fIiEDTppfp_ET_", "decltype ({parm#1}++) f<int>(int)");
	demangled_is("_Z1fIiEDTpp_fp_ET_", "decltype (++{parm#1}) f<int>(int)");
	if (!have_demangler())
		skip();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_demangle_as_cxxfilt_prints_them),
		cmocka_unit_test(doubling_name_stays_mangled_at_once),
		cmocka_unit_test(short_doubling_name_is_demangled),
		cmocka_unit_test(name_longer_than_4k_demangled_stays_mangled),
		cmocka_unit_test(what_is_not_a_mangled_name_stays),
		cmocka_unit_test(operator_names_are_bounded),
		cmocka_unit_test(repeated_qualifiers_are_bounded),
		cmocka_unit_test(template_parameter_number_is_decimal),
		cmocka_unit_test(constructor_of_an_abbreviation_is_bounded),
		cmocka_unit_test(postfix_operators_double_the_bound),
		cmocka_unit_test(expansion_of_no_pack_is_bounded),
	};

	return cmocka_run_group_tests_name("demangle", tests, NULL, NULL);
}
