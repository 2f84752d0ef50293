#!/bin/sh
# run.sh - a stripped program's separate debug file (gmon.out reports).
#
#   RP=/abs/readprofile [RP_WRAP=...] sh tests/debug/run.sh
#
# The recorded programs of fixtures/gmon (x86-64, i386 and big-endian
# s390x, each with its gmon.out), split as distributions ship them:
# `objcopy --only-keep-debug` makes the debug file, `objcopy --strip-all`
# (with `--add-gnu-debuglink`) the stripped program.  With the debug file
# where gdb looks for it, under a made-up root (READPROFILE_TEST_ROOT) for
# /usr/lib/debug:
#   - by build-id, /usr/lib/debug/.build-id/xx/rest.debug;
#   - by .gnu_debuglink, beside the program, in .debug/ there, and under
#     /usr/lib/debug/ + the program's directory;
# the report of the stripped program (every option) equals the unstripped
# program's, and one line on stderr names the debug file used.  A debug
# file of another build (another build-id, another CRC-32) is not used; a
# program with no debug file, whose .dynsym names no function, is an
# error (exit 1) naming the places looked at, wrapped at 80 columns; a program stripped of its debug sections only
# (--strip-debug) keeps its .symtab and needs none.
# Prints FAIL lines and "debug: N passed, N failed".
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=debug
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary}"
F=$TOP/fixtures/gmon
ROOT=$TMP/root

# rp OUT ARGS...: readprofile under the made-up root; stdout OUT, stderr
# OUT.err (the root's path taken out), status OUT.rc
rp() {
	_o=$1
	shift
	READPROFILE_TEST_ROOT=$ROOT $RP_WRAP "$RP" "$@" </dev/null >"$_o" 2>"$_o.raw"
	echo $? > "$_o.rc"
	sed "s|$ROOT||g" "$_o.raw" > "$_o.err"
}

# same NAME REF GOT WANT-ERR: GOT's report equals REF's, status 0, and
# its stderr is WANT-ERR
same() {
	if cmp -s "$2" "$3" && [ "$(cat "$3.rc")" = 0 ] &&
	    [ "$(cat "$3.err")" = "$4" ]; then
		ok
	else
		bad "$1"
		diff "$2" "$3" | head -n 5
		echo "  stderr: $(head -c 400 "$3.err")"
		echo "  wanted: $4"
	fi
}

# stripped NAME GOT PROGRAM LOOKED: a stripped program without its debug
# file holds none of the ticks (the .dynsym of these programs has no
# function): exit 1, and the cause, wrapped at 80 columns, with the places
# looked at; no report, or (it is found once the report is walked) the
# report made, said incomplete on the last line of stderr
stripped() {
	n=$(awk '$2 == "total" || $2 == "*unknown*" { s += $1 } END { print s }' "$D/ref")
	want="readprofile: none of the $n ticks in $gmon lies in a function of $3: $3 has no symbol table (stripped): only its dynamic symbols are known. Its debug file (from the distribution's -dbgsym, -dbg or -debuginfo package) was looked for as $4"
	[ -s "$2" ] && want="$want
readprofile: the report above is incomplete"
	got=$(awk 'NR > 1 && sub(/^readprofile:   /, "") { printf " %s", $0; next }
	    { printf "%s%s", (NR > 1 ? "\n" : ""), $0 }' "$2.err")
	if [ "$(cat "$2.rc")" = 1 ] && [ "$got" = "$want" ] &&
	    awk 'length($0) > 80 && $0 !~ /^readprofile:   [^ ]*$/ { e = 1 }
	    END { exit e }' "$2.raw"; then
		ok
	else
		bad "$a: $1: exit $(cat "$2.rc"), stderr: $(cat "$2.err")"
		echo "  wanted: $want"
	fi
}

OPTS='-v|-a|-s|-b|--exact|--top=3|--json'
# check ARCH PROG GMON OBJCOPY OTHER: OTHER, another program, of the same
# architecture but another build
check() {
	a=$1 prog=$2 gmon=$3 oc=$4 other=$5
	D=$TMP/$a
	mkdir -p "$D/bin"
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	cp "$prog" "$D/prog"
	bid=$(readelf -n "$prog" 2>/dev/null | sed -n 's/^ *Build ID: //p')
	[ -n "$bid" ] || { bad "$a: the fixture has no build-id"; return; }
	xx=$(echo "$bid" | cut -c1-2)
	rest=$(echo "$bid" | cut -c3-)
	"$oc" --only-keep-debug "$D/prog" "$D/prog.debug" &&
	"$oc" --strip-all "$D/prog" "$D/bin/plain" &&
	"$oc" --strip-all --add-gnu-debuglink="$D/prog.debug" "$D/prog" "$D/bin/linked" &&
	"$oc" --strip-debug "$D/prog" "$D/bin/nodebug" ||
		{ bad "$a: $oc cannot split the program"; return; }
	readelf -S -W "$D/bin/plain" 2>/dev/null | grep -q ' \.symtab ' &&
		{ bad "$a: --strip-all left a .symtab"; return; }
	readelf -S -W "$D/prog.debug" 2>/dev/null | grep -q ' \.symtab ' ||
		{ bad "$a: the debug file has no .symtab"; return; }

	# the references: the unstripped program, every option
	IFS='|'
	for o in '' $OPTS; do
		unset IFS
		# shellcheck disable=SC2086
		rp "$D/ref$o" -p "$gmon" -m "$D/prog" $o
		IFS='|'
	done
	unset IFS

	# run NAME PROGRAM WANT-ERR: every option's report equals the reference
	run() {
		IFS='|'
		for o in '' $OPTS; do
			unset IFS
			# shellcheck disable=SC2086
			rp "$D/got" -p "$gmon" -m "$2" $o
			# JSON names the map: the debug file read
			sed 's/"map":"[^"]*"/"map":"M"/' "$D/got" > "$D/got.m"
			sed 's/"map":"[^"]*"/"map":"M"/' "$D/ref$o" > "$D/ref.m"
			cp "$D/got.rc" "$D/got.m.rc"
			cp "$D/got.err" "$D/got.m.err"
			same "$a: $1, '$o'" "$D/ref.m" "$D/got.m" "$3"
			IFS='|'
		done
		unset IFS
	}

	BUILDID=/usr/lib/debug/.build-id/$xx/$rest.debug
	mkdir -p "$ROOT/usr/lib/debug/.build-id/$xx"
	cp "$D/prog.debug" "$ROOT$BUILDID"
	run "by build-id" "$D/bin/plain" \
	    "readprofile: $D/bin/plain has no symbol table: using its debug file $BUILDID (by its build-id)"
	# the build-id comes first, also with a debuglink
	run "by build-id, with a debuglink" "$D/bin/linked" \
	    "readprofile: $D/bin/linked has no symbol table: using its debug file $BUILDID (by its build-id)"
	# a debug file of another build (another program's) at the build-id's
	# place: not used
	"$oc" --only-keep-debug "$other" "$ROOT$BUILDID"
	rp "$D/got" -p "$gmon" -m "$D/bin/plain"
	stripped "a debug file of another build" "$D/got" "$D/bin/plain" "$BUILDID"
	rm -rf "$ROOT/usr/lib/debug/.build-id"

	# by .gnu_debuglink: beside, in .debug/, under /usr/lib/debug/DIR
	cp "$D/prog.debug" "$D/bin/prog.debug"
	run "by debuglink, beside it" "$D/bin/linked" \
	    "readprofile: $D/bin/linked has no symbol table: using its debug file $D/bin/prog.debug (by its .gnu_debuglink, CRC-32 matched)"
	mkdir -p "$D/bin/.debug"
	mv "$D/bin/prog.debug" "$D/bin/.debug/prog.debug"
	run "by debuglink, in .debug/" "$D/bin/linked" \
	    "readprofile: $D/bin/linked has no symbol table: using its debug file $D/bin/.debug/prog.debug (by its .gnu_debuglink, CRC-32 matched)"
	rm -r "$D/bin/.debug"
	mkdir -p "$ROOT/usr/lib/debug$D/bin"
	cp "$D/prog.debug" "$ROOT/usr/lib/debug$D/bin/prog.debug"
	run "by debuglink, under /usr/lib/debug" "$D/bin/linked" \
	    "readprofile: $D/bin/linked has no symbol table: using its debug file /usr/lib/debug$D/bin/prog.debug (by its .gnu_debuglink, CRC-32 matched)"
	# a symbolic link to the program, elsewhere: its real directory
	ln -s "$D/bin/linked" "$TMP/$a-link"
	run "by debuglink, through a symbolic link" "$TMP/$a-link" \
	    "readprofile: $TMP/$a-link has no symbol table: using its debug file /usr/lib/debug$D/bin/prog.debug (by its .gnu_debuglink, CRC-32 matched)"
	rm -r "$ROOT/usr/lib/debug$D"

	# another CRC-32 (the same name, another file): not used
	cp "$D/prog.debug" "$D/bin/prog.debug"
	printf 'x' >> "$D/bin/prog.debug"
	LOOKED="/usr/lib/debug/.build-id/$xx/$rest.debug, $D/bin/prog.debug, $D/bin/.debug/prog.debug, /usr/lib/debug$D/bin/prog.debug"
	rp "$D/got" -p "$gmon" -m "$D/bin/linked"
	stripped "a debug file with another CRC-32" "$D/got" "$D/bin/linked" \
	    "$LOOKED (one there has another CRC-32: not this build's)"
	rm "$D/bin/prog.debug"

	# none: no function holds a tick: an error naming the place looked at
	rp "$D/got" -p "$gmon" -m "$D/bin/plain"
	stripped "no debug file" "$D/got" "$D/bin/plain" \
	    "/usr/lib/debug/.build-id/$xx/$rest.debug"
	# --strip-debug keeps .symtab: no debug file needed, nothing said
	run "--strip-debug" "$D/bin/nodebug" ""
}

# another OBJCOPY PROG OUT: another build of PROG (one byte of its
# build-id changed)
another() {
	cp "$2" "$3" &&
	"$1" --dump-section .note.gnu.build-id="$TMP/note" "$2" &&
	printf '\377' | dd of="$TMP/note" bs=1 seek=16 conv=notrunc 2>/dev/null &&
	"$1" --update-section .note.gnu.build-id="$TMP/note" "$3" ||
		bad "cannot make another build of $2"
}
# shellcheck disable=SC2043
if have objcopy && have readelf; then
	another objcopy "$F/hot" "$TMP/hot-other"
	check x86-64 "$F/hot" "$F/hot.gmon" objcopy "$TMP/hot-other"
	another objcopy "$F/hot-m32" "$TMP/hot-m32-other"
	check i386 "$F/hot-m32" "$F/hot-m32.gmon" objcopy "$TMP/hot-m32-other"
else
	skipped "separate debug files: no objcopy/readelf"
fi
if have s390x-linux-gnu-objcopy; then
	another s390x-linux-gnu-objcopy "$F/hot-s390x" "$TMP/hot-s390x-other"
	check s390x "$F/hot-s390x" "$F/hot-s390x.gmon" s390x-linux-gnu-objcopy "$TMP/hot-s390x-other"
else
	echo "debug: note: no s390x-linux-gnu-objcopy: the big-endian program not tested"
fi

summary
