#!/bin/sh
# run.sh - golden command-line tests.
#
#   RP=/abs/path/readprofile [RP_WRAP='valgrind -q --error-exitcode=99'] \
#       sh tests/golden/run.sh
#
# Runs every case of fixtures/cases (recorded from util-linux readprofile),
# fixtures/cases-ours (written by hand for where this readprofile differs on
# purpose) and fixtures/real/golden (the real kernel capture, run on its
# decompressed files), and fixtures/arch/*/golden (the i386, arm64 and s390x
# captures, likewise), and compares stdout, stderr and the exit status.
# A case with a file `stdout-nonempty` instead of expected.out only needs
# some output; a case with a file `model-args` also has its expected.out
# compared with tests/differential/model.c's output on those arguments (MODEL, or
# built here with HOST_CC or cc).  Prints each failure with a diff, then
# `cli: N passed, N failed`.
#
# The cases were recorded on a little-endian host.  Run with a binary for
# a big-endian one (under qemu user-mode emulation: RP is then a script
# that runs it), every input's byte order is the other one for it:
# - the note "Assuming reversed byte order" is printed where it was not,
#   and not where it was: stderr is compared without that line, which must
#   appear in at most one of expected and actual stderr (the heuristic
#   sees the halves of each counter exchanged);
# - -i -v's "Byte_order: ORDER (native)" reads "(reversed)", and the
#   other way round;
# - -n reads in the host's order, and so does a tie of the heuristic (a
#   case holding a file `host-order`): those cases run on a copy of the
#   fixtures whose profiles are built from their *.words in the other
#   byte order, where stdout, stderr and status must be the same, but for
#   ORDER in -i -v's Byte_order line, which names the file's order; the
#   lines of `host-order` name inputs not built from words (a text or ELF
#   file read as a profile), whose words are swapped with $PROFTOOL (a
#   build of tests/extensions/proftool.c for the machine running this script);
#   the -n cases of the arch captures run on the capture's profile swapped
#   the same way;
# - a file read as a profile that is not one (an ELF file) has another
#   step on a big-endian host: `expected-big.err`, when present, is the
#   expected stderr there.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=golden
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
. "$TOP/tests/golden/common.sh"
. "$TOP/tests/libc.sh"

setup_bindir "$RP"
libc_setup

NOTE='readprofile: Assuming reversed byte order. Use -n to force native byte order.'

# The byte order of the binary under test, from -i -v on a profile with
# no counters (nothing to reverse): "little" or "big".
host_order() {
	printf '\001\000\000\000' > "$TMP/one"
	echo '-i -v -p one' > "$TMP/args-order"
	run_case "$TMP" "$TMP" "$TMP/order" /dev/null args-order >/dev/null
	sed -n 's/^Byte_order: \([a-z]*\)-endian (native)$/\1/p' "$TMP/order"
}

# Whether the case's arguments hold -n (alone or in a group) or --no-auto.
uses_n() {
	grep -Eq -e '(^| )(-[a-zA-Z]*n[a-zA-Z]*|--no-auto)( |$)' "$1/args"
}

# The fixtures, with each profile built from its *.words in the other
# byte order, into $TMP/flip (for -n on a big-endian host).
make_flipped() {
	mkdir -p "$TMP/flip" && cp -R "$TOP/fixtures" "$TMP/flip/" &&
	    rm -rf "$TMP/flip/fixtures/real" || exit 2
	find "$TMP/flip/fixtures" -name '*.words' | while read -r _w; do
		awk 'NR == 1 { printf "be " }
		    { for (i = 1; i <= NF; i++) {
			if ($i ~ /^#/) break
			printf "%s ", $i == "le" ? "be" : $i == "be" ? "le" : $i
		    } print "" }' "$_w" > "$TMP/flipped.words" &&
		    sh "$TOP/tests/golden/mkprof.sh" "$TMP/flipped.words" \
		    "${_w%.words}" || exit 2
	done
	# inputs that are not built from words (a text or ELF file read as a
	# profile) are named in the case's host-order file: swap their words
	find "$TMP/flip/fixtures" -name host-order | while read -r _h; do
		while read -r _f; do
			[ -n "$_f" ] || continue
			"$PROFTOOL" swap "${_h%/*}/$_f" "$TMP/swapped" &&
			    mv "$TMP/swapped" "${_h%/*}/$_f" || exit 2
		done < "$_h"
	done
}

# same_err EXPECTED ACTUAL: equal; on a big-endian host, equal without the
# byte-order note, which at most one of them holds.
same_err() {
	[ "$ORDER" = big ] || { cmp -s "$1" "$2"; return; }
	_ne=$(grep -cxF "$NOTE" "$1")
	_na=$(grep -cxF "$NOTE" "$2")
	grep -vxF "$NOTE" "$1" > "$TMP/err1"
	grep -vxF "$NOTE" "$2" > "$TMP/err2"
	[ $((_ne + _na)) -le 1 ] && cmp -s "$TMP/err1" "$TMP/err2"
}

# expected_out CASEDIR OUT: the expected stdout, on a big-endian host
# with the Byte_order line of -i -v as it reads there.
expected_out() {
	if [ -f "$1/expected.out.gz" ]; then
		gzip -dc "$1/expected.out.gz"
	else
		cat "$1/expected.out"
	fi > "$TMP/exp0"
	if [ "$ORDER" = little ]; then
		mv "$TMP/exp0" "$2"
	elif [ "$FLIPPED" = 1 ]; then
		sed -e '/^Byte_order: /{s/little-/LITTLE-/;s/big-/little-/;s/LITTLE-/big-/;}' \
		    "$TMP/exp0" > "$2"
	else
		sed -e '/^Byte_order: /{s/(native)/(NATIVE)/;s/(reversed)/(native)/;s/(NATIVE)/(reversed)/;}' \
		    "$TMP/exp0" > "$2"
	fi
}

# check CASEDIR WORKDIR LABEL
check() {
	if [ "$ORDER" = big ] && { uses_n "$1" || [ -f "$1/host-order" ]; }; then
		FLIPPED=1 check_in "$1" "$TMP/flip/fixtures/${1#"$TOP"/fixtures/}" \
		    "$3 (flipped inputs)"
		return
	fi
	FLIPPED=0 check_in "$@"
}

# check_in CASEDIR WORKDIR LABEL
check_in() {
	[ $(((pass + fail + 1) % 25)) != 0 ] ||
		echo "... $((pass + fail + 1)) cases so far"
	_ee=$1/expected.err
	[ "$ORDER" = big ] && [ -f "$1/expected-big.err" ] &&
		_ee=$1/expected-big.err
	rc=$(run_case "$1" "$2" "$TMP/out" "$TMP/err")
	ARGS=$(cat "$1/args")
	libc_expand "$_ee" > "$TMP/experr"
	bad=
	if [ -f "$1/stdout-nonempty" ]; then
		[ -s "$TMP/out" ] || bad="$bad stdout is empty;"
	else
		expected_out "$1" "$TMP/exp1"
		libc_expand "$TMP/exp1" > "$TMP/exp"
		cmp -s "$TMP/exp" "$TMP/out" || bad="$bad stdout differs;"
	fi
	# the count of the ticks past a map's last symbol (readprofile(8),
	# TOTALS), when it adds up with *unknown* and the total printed
	awk -v out="$TMP/out" 'BEGIN {
		while ((getline l < out) > 0) {
			n = split(l, f, " ")
			if (f[2] == "*unknown*") u = f[1]
			if (f[2] == "total") t = f[1]
			if (f[2] == "total" && n == 4) t = f[3]
		}
	}
	/^readprofile: [0-9]+ of [0-9]+ ticks lie past the last symbol of / {
		if ($2 + u + t == $4) next
	} { print }' "$TMP/err" > "$TMP/err2" && mv "$TMP/err2" "$TMP/err"
	if [ "$FLIPPED" = 1 ]; then
		cmp -s "$TMP/experr" "$TMP/err" || bad="$bad stderr differs;"
	else
		same_err "$TMP/experr" "$TMP/err" || bad="$bad stderr differs;"
	fi
	[ "$rc" = "$(cat "$1/expected.rc")" ] ||
		bad="$bad exit $rc, expected $(cat "$1/expected.rc");"
	if [ -z "$bad" ]; then
		ok
		return
	fi
	bad "$3:$bad  (readprofile $(cat "$1/args"))"
	case $bad in *stdout*)
		[ -f "$1/stdout-nonempty" ] ||
			diff -u "$TMP/exp" "$TMP/out" | sed -n '3,40p' ;;
	esac
	case $bad in *stderr*) diff -u "$TMP/experr" "$TMP/err" | sed -n '3,20p' ;; esac
}

ORDER=$(host_order)
case $ORDER in
little) ;;
big) echo "big-endian readprofile: byte-order note ignored, -n on flipped inputs"
	make_flipped ;;
*) echo "cannot tell the byte order of $RP" >&2; exit 1 ;;
esac

for d in "$TOP"/fixtures/cases/*/ "$TOP"/fixtures/cases-ours/*/; do
	[ -f "$d/args" ] || continue
	d=${d%/}
	check "$d" "$d" "${d#"$TOP"/fixtures/}"
done

# Expected reports not recorded from util-linux but from an independent
# model: a case with a file `model-args` has its expected.out equal to
# the output of tests/differential/model.c run on those arguments, in the case's
# directory (MODEL, or a build of it for this machine).
if [ -z "${MODEL:-}" ]; then
	MODEL=$TMP/model
	${HOST_CC:-cc} -std=c11 -O2 -o "$MODEL" "$TOP/tests/differential/model.c" ||
		{ echo "cannot build tests/differential/model.c" >&2; exit 1; }
fi
for m in "$TOP"/fixtures/cases-ours/*/model-args; do
	[ -f "$m" ] || continue
	d=${m%/model-args}
	# shellcheck disable=SC2046
	if (cd "$d" && exec "$MODEL" $(cat model-args)) > "$TMP/model.out" \
	    2>&1 && cmp -s "$d/expected.out" "$TMP/model.out"; then
		ok
	else
		bad "${d#"$TOP"/fixtures/}: expected.out is not the model's (model $(cat "$m"))"
		diff -u "$d/expected.out" "$TMP/model.out" | sed -n '3,20p'
	fi
done

mkdir "$TMP/real"
gzip -dc "$TOP/fixtures/real/profile.gz" > "$TMP/real/profile" &&
	gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$TMP/real/kallsyms" ||
	{ echo "cannot decompress fixtures/real" >&2; exit 1; }
for d in "$TOP"/fixtures/real/golden/*/; do
	[ -f "$d/args" ] || continue
	d=${d%/}
	check "$d" "$TMP/real" "${d#"$TOP"/fixtures/}"
done

for a in "$TOP"/fixtures/arch/*/; do
	a=${a%/}
	unpack_capture "$a" "$TMP/arch/${a##*/}" ||
		{ echo "cannot decompress ${a#"$TOP"/}" >&2; exit 1; }
	if [ "$ORDER" = big ]; then	# the capture in the other order, for -n
		mkdir -p "$TMP/archflip" &&
		    "$PROFTOOL" swap "$TMP/arch/${a##*/}/profile" "$TMP/archflip/profile" &&
		    cp "$TMP/arch/${a##*/}/kallsyms" "$TMP/archflip/kallsyms" ||
		    { echo "cannot flip ${a#"$TOP"/}" >&2; exit 1; }
	fi
	for d in "$a"/golden/*/; do
		[ -f "$d/args" ] || continue
		d=${d%/}
		if [ "$ORDER" = big ] && uses_n "$d"; then
			FLIPPED=1 check_in "$d" "$TMP/archflip" \
			    "${d#"$TOP"/fixtures/} (flipped inputs)"
		else
			FLIPPED=0 check_in "$d" "$TMP/arch/${a##*/}" \
			    "${d#"$TOP"/fixtures/}"
		fi
	done
	rm -rf "$TMP/arch/${a##*/}" "$TMP/archflip"
done

# The current kernel (fixtures/real-7.2, Linux 7.2 with Rust symbols of up
# to 199 bytes): util-linux's reports on its map with each line cut to
# util-linux's 126 bytes (golden/, recorded by regen.sh), and this
# program's on the whole map, read whole: no message, exit 0, every
# line's symbol reported as on the cut map (-a, its names cut the same),
# and a total that is the sum of the profile's counters (od, not this
# program).
K72=$TMP/real-7.2
unpack_capture "$TOP/fixtures/real-7.2" "$K72" &&
	cut_map "$K72/kallsyms" "$K72/kallsyms.cut" ||
	{ echo "cannot decompress fixtures/real-7.2" >&2; exit 1; }
for d in "$TOP"/fixtures/real-7.2/golden/*/; do
	[ -f "$d/args" ] || continue
	d=${d%/}
	FLIPPED=0 check_in "$d" "$K72" "${d#"$TOP"/fixtures/}"
done
# whole NAME CONDITION...: a check of the whole map's reports
whole() {
	_n=$1
	shift
	if "$@"; then
		ok
	else
		bad "real-7.2, the whole map: $_n"
		head -n 5 "$TMP/w.err"
	fi
}
(cd "$K72" && exec $RP_WRAP "$RP" -p profile -m kallsyms) >"$TMP/w.out" 2>"$TMP/w.err"
rc=$?
# a big-endian host reads this little-endian capture reversed, and says
# so as util-linux does: that line alone
if [ "$ORDER" = big ]; then
	grep -v '^readprofile: Assuming reversed byte order\. Use -n to force native byte order\.$' \
	    "$TMP/w.err" >"$TMP/w.err2"
	mv "$TMP/w.err2" "$TMP/w.err"
fi
whole "exit 0, no message (util-linux: kallsyms(64538): wrong map line)" \
	test $rc = 0 -a ! -s "$TMP/w.err"
SUM=$(od -An -tu4 -v "$K72/profile" |
	awk '{ for (i = 1; i <= NF; i++) if (n++) s += $i } END { printf "%.0f", s }')
T=$(awk '$2 == "total" { print $1 }' "$TMP/w.out")
U=$(awk '$2 == "*unknown*" { print $1 }' "$TMP/w.out")
whole "the total $T and *unknown* ${U:-?} add up to the counters' sum $SUM" \
	test "$((T + ${U:-0}))" = "$SUM" -a "$SUM" -gt 0
(cd "$K72" && exec $RP_WRAP "$RP" -p profile -m kallsyms -a) >"$TMP/wa.out" 2>"$TMP/w.err"
(cd "$K72" && exec $RP_WRAP "$RP" -p profile -m kallsyms.cut -a) >"$TMP/ca.out" 2>>"$TMP/w.err"
# a -a line's name cut as its map line is: 126 - 19 bytes
LC_ALL=C awk 'NF == 3 { n = $2; if (length(n) > 107) n = substr(n, 1, 107)
	printf "%6s %-40s %8s\n", $1, n, $3; next } { print }' "$TMP/wa.out" >"$TMP/wa.cut"
LONG=$(LC_ALL=C awk 'length($2) > 107' "$TMP/wa.out" | wc -l)
cmp -s "$TMP/wa.cut" "$TMP/ca.out"
whole "-a lists every symbol of the cut map, $LONG of them with names past util-linux's length" \
	test $? = 0 -a "$LONG" -gt 0
whole "-a: names of up to 199 bytes, as the map spells them" \
	test "$(LC_ALL=C awk '{ if (length($2) > n) n = length($2) } END { print n }' "$TMP/wa.out")" -ge 190

. "$TOP/tests/golden/abbrev.sh"

summary
