#!/bin/sh
# sweep.sh - every ELF file of the system against nm: the symbol stream
# of readprofile's ELF reader (symdump) must equal `nm -n --defined-only`
# (`nm -D` when the file has no .symtab), unnamed symbols aside.
#
#   SYMDUMP=/abs/symdump sh tests/elf/sweep.sh [FILE...]
#
# Without arguments: /usr/bin, /usr/sbin, the x86-64 and i386 libraries
# and objects, and the s390x ones with s390x-linux-gnu-nm when installed.
# Prints one FAIL line per file that differs, then a summary.
set -u
: "${SYMDUMP:?set SYMDUMP to the symdump helper}"
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
export LC_ALL=C
pass=0 fail=0 skip=0

# one NM FILE
one() {
	[ -f "$2" ] && [ ! -L "$2" ] || return 0
	[ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '177ELF' ] ||
		{ skip=$((skip + 1)); return 0; }
	d=
	readelf -S -W "$2" 2>/dev/null | grep -q ' \.symtab ' || d=-D
	if ! "$1" $d -n --defined-only "$2" 2>/dev/null | grep -v '^ ' |
	    grep -v '^[0-9a-f]* . *$' |
	    sed -E 's/^([0-9a-f]{8}) /00000000\1 /' > "$TMP/want" ||
	    [ ! -s "$TMP/want" ]; then
		skip=$((skip + 1))	# nm has no symbols to list
		return 0
	fi
	if "$SYMDUMP" "$2" > "$TMP/got" 2> "$TMP/err" &&
	    cmp -s "$TMP/want" "$TMP/got"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $2 ($1 $d):"
		diff "$TMP/want" "$TMP/got" | head -n 6
		head -n 2 "$TMP/err"
	fi
}

if [ $# -gt 0 ]; then
	for f in "$@"; do one nm "$f"; done
else
	for f in /usr/bin/* /usr/sbin/* /usr/lib/x86_64-linux-gnu/*.so* \
	    /usr/lib/x86_64-linux-gnu/*/*.so* /usr/lib/x86_64-linux-gnu/*.o \
	    /usr/lib/gcc/x86_64-linux-gnu/*/*.o /usr/lib32/*.so* /usr/lib32/*.o \
	    /usr/lib/debug/.build-id/*/*.debug; do
		one nm "$f"
	done
	if command -v s390x-linux-gnu-nm >/dev/null 2>&1; then
		for f in /usr/s390x-linux-gnu/lib/*.so* /usr/s390x-linux-gnu/lib/*.o \
		    /usr/lib/gcc-cross/s390x-linux-gnu/*/*.o; do
			one s390x-linux-gnu-nm "$f"
		done
	fi
fi
echo "elf-sweep: $pass passed, $fail failed, $skip skipped (not ELF, or no symbols)"
[ "$fail" -eq 0 ]
