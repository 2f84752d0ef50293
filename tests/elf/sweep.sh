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
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=elf-sweep
. "$TOP/tests/lib.sh"
: "${SYMDUMP:?set SYMDUMP to the symdump helper}"
none=0	# files that are not ELF, or that nm lists no symbol of

# one NM FILE
one() {
	[ -f "$2" ] && [ ! -L "$2" ] || return 0
	[ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '177ELF' ] ||
		{ none=$((none + 1)); return 0; }
	d=
	readelf -S -W "$2" 2>/dev/null | grep -q ' \.symtab ' || d=-D
	if ! "$1" $d -n --defined-only "$2" 2>/dev/null | grep -v '^ ' |
	    grep -v '^[0-9a-f]* . *$' |
	    sed -E 's/^([0-9a-f]{8}) /00000000\1 /' > "$TMP/want" ||
	    [ ! -s "$TMP/want" ]; then
		none=$((none + 1))	# nm has no symbols to list
		return 0
	fi
	if "$SYMDUMP" "$2" > "$TMP/got" 2> "$TMP/err" &&
	    cmp -s "$TMP/want" "$TMP/got"; then
		ok
	else
		bad "$2 ($1 $d):"
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
echo "elf-sweep: $none files not ELF, or without symbols"
summary
