#!/bin/sh
# run.sh TARGET - build readprofile for another target and run the test
# suites with it under qemu user-mode emulation on this host.
#
#   sh tests/cross/run.sh s390x   64-bit big-endian: s390x-linux-gnu-gcc,
#                                 static, run by qemu-s390x-static
#   sh tests/cross/run.sh m32     32-bit x86: gcc -m32 (libc6-dev-i386,
#                                 lib32gcc-12-dev), static, run by
#                                 qemu-i386-static
#
# The build goes to build-TARGET/.  Then, through tests/check.sh: the unit
# tests, when cmocka is installed for the target (libcmocka-dev:s390x,
# libcmocka-dev:i386; there is no static cmocka, so they are linked
# dynamically; skipped otherwise), the golden CLI tests and the
# hostile-input tests, with TIME_SCALE (default 6) on their limits.  tests/golden/run.sh and
# tests/hostile/run.sh know what differs on a big-endian host.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
MAKE=${MAKE:-make}

case ${1:-} in
s390x)
	B=build-s390x CC=s390x-linux-gnu-gcc CFLAGS='-O2 -g' LDFLAGS=-static
	CPPFLAGS= QEMU=qemu-s390x-static LIBDIR=/usr/lib/s390x-linux-gnu
	DEBARCH=s390x
	PKGS='gcc-s390x-linux-gnu qemu-user-static'
	;;
m32)
	# gcc-multilib conflicts with the cross compilers on Debian: what it
	# adds beyond libc6-dev-i386 is an asm/ include directory.
	B=build-m32 CC=${M32_CC:-gcc} CFLAGS='-m32 -O2 -g' LDFLAGS='-m32 -static'
	CPPFLAGS="-I$TOP/build-m32/include" QEMU=qemu-i386-static
	LIBDIR=/usr/lib/i386-linux-gnu DEBARCH=i386
	PKGS='libc6-dev-i386 lib32gcc-12-dev qemu-user-static'
	mkdir -p build-m32/include &&
	    ln -sfn /usr/include/x86_64-linux-gnu/asm build-m32/include/asm ||
	    exit 2
	;;
*)
	echo "usage: sh tests/cross/run.sh s390x|m32" >&2
	exit 2
	;;
esac
for t in "$CC" "$QEMU"; do
	command -v "$t" >/dev/null 2>&1 ||
		{ echo "$1: $t not found; install: apt-get install $PKGS" >&2; exit 1; }
done

BUILD="B=$B BIN=$B/readprofile CC=$CC WERROR=-Werror"
# shellcheck disable=SC2086
$MAKE -s --no-print-directory $BUILD CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
    CPPFLAGS="$CPPFLAGS" "$B/readprofile" || exit 1

# The binary, run as plain "readprofile" (getopt quotes argv[0]).
RP=$TOP/$B/readprofile-qemu
printf '#!/bin/sh\nexec %s -0 readprofile %s "$@"\n' "$QEMU" \
    "$TOP/$B/readprofile" > "$RP" && chmod +x "$RP" || exit 2
echo "$1: $("$RP" -V)"
# The C library's texts (tests/libc.sh), from the target's libc.
# shellcheck disable=SC2086
$MAKE -s --no-print-directory $BUILD CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
    CPPFLAGS="$CPPFLAGS" "$B/tests/libctext" || exit 1
LIBCTEXT=$TOP/$B/libctext-qemu
printf '#!/bin/sh\nexec %s %s "$@"\n' "$QEMU" "$TOP/$B/tests/libctext" \
    > "$LIBCTEXT" && chmod +x "$LIBCTEXT" || exit 2
export LIBCTEXT

# The suites, through tests/check.sh: unit (each cmocka test under qemu),
# cli and hostile.  The golden cases swap some inputs on a big-endian
# target: with a tool built for this machine.
UNIT="echo 'skipped: no cmocka for the target (apt-get install libcmocka-dev:$DEBARCH)'"
if [ -f "$LIBDIR/libcmocka.so" ]; then
	units=
	for t in tests/unit/test_*.c; do
		t=${t##*/}
		units="$units $B/tests/${t%.c}"
	done
	# shellcheck disable=SC2086
	$MAKE -s --no-print-directory $BUILD CFLAGS="$CFLAGS" \
	    LDFLAGS="$LDFLAGS" CPPFLAGS="$CPPFLAGS" \
	    UNIT_LDFLAGS="${LDFLAGS%-static} -L$LIBDIR" $units || exit 1
	UNIT="FMT_ITERATIONS=${FMT_ITERATIONS:-400000} UNIT_WRAP=$QEMU sh tests/unit/run.sh $units"
fi
$MAKE --no-print-directory build/tests/proftool >/dev/null || exit 1
# qemu runs several times slower: the limits of the suites scale
TIME_SCALE=${TIME_SCALE:-6}
export TIME_SCALE
exec sh tests/check.sh \
    "unit-$1" "$UNIT" \
    "golden-$1" "RP='$RP' PROFTOOL='$TOP/build/tests/proftool' sh tests/golden/run.sh" \
    "hostile-$1" "RP='$RP' sh tests/hostile/run.sh"
