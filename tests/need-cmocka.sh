#!/bin/sh
# need-cmocka.sh - make check needs cmocka for the unit tests.
#
# Exit 0: cmocka works with $CC.  Exit 3: cmocka is installed but cannot
# be used with $CC (e.g. musl-gcc, whose headers and libc are not the
# system's): make check skips the unit suite and says so.  Exit 1: missing.
# On Debian, as root, it is installed with apt-get, after one line that
# says so, except inside a package build (fakeroot, dpkg-buildpackage/
# sbuild, rpmbuild), which must change nothing on the machine.  Elsewhere
# it stops with the one command to run as root (never sudo: a fresh
# Debian has none).
CC=${CC:-cc}
have_cmocka() {
	_t=$(mktemp -d) || return 1
	printf '%s\n' '#include <stdarg.h>' '#include <stddef.h>' \
	    '#include <setjmp.h>' '#include <stdint.h>' '#include <cmocka.h>' \
	    'int main(void) { return _cmocka_run_group_tests == NULL; }' \
	    > "$_t/t.c"
	# shellcheck disable=SC2086
	$1 -o "$_t/t" "$_t/t.c" -lcmocka >/dev/null 2>&1 && "$_t/t" >/dev/null 2>&1
	_rc=$?
	rm -rf "$_t"
	return $_rc
}
usable() {
	have_cmocka "$CC" && exit 0
	if have_cmocka cc; then
		echo "unit: cmocka cannot be used with $CC; the unit suite is skipped"
		exit 3
	fi
}
# how to install cmocka here, as root
how() {
	if command -v apt-get >/dev/null 2>&1; then
		echo "as root, run: apt-get install libcmocka-dev"
	elif command -v dnf >/dev/null 2>&1; then
		echo "as root, run: dnf install libcmocka-devel"
	else
		echo "install it as root (Debian: libcmocka-dev, Fedora: libcmocka-devel)"
	fi
}
package_build() {
	[ -n "${FAKEROOTKEY:-}" ] || [ -n "${RPM_BUILD_ROOT:-}" ] ||
	    env | grep -q '^DEB_BUILD_'
}

usable
if package_build; then
	echo "make check needs cmocka, which a package build must not install: add it to the build dependencies (Debian: libcmocka-dev, RPM: libcmocka-devel)" >&2
	exit 1
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "make check: installing cmocka for the unit tests: apt-get install libcmocka-dev"
	{ apt-get install -y libcmocka-dev ||
	    { apt-get update && apt-get install -y libcmocka-dev; }; } >/dev/null 2>&1
	usable
	echo "make check: 'apt-get install -y libcmocka-dev' failed" >&2
	exit 1
fi
echo "make check needs cmocka for the unit tests; $(how)" >&2
exit 1
