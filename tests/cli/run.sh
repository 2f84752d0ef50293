#!/bin/sh
# run.sh - golden command-line tests.
#
#   RP=/abs/path/readprofile [RP_WRAP='valgrind -q --error-exitcode=99'] \
#       sh tests/cli/run.sh
#
# Runs every case of fixtures/cases (recorded from util-linux readprofile),
# fixtures/cases-ours (written by hand for where this readprofile differs on
# purpose) and fixtures/real/golden (the real kernel capture, run on its
# decompressed files), and compares stdout, stderr and the exit status.
# A case with a file `stdout-nonempty` instead of expected.out only needs
# some output. Prints each failure with a diff, then `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RP_WRAP=${RP_WRAP:-}
: "${RP:?set RP to the readprofile binary to test}"
. "$TOP/tests/cli/common.sh"

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
setup_bindir "$RP"
pass=0
fail=0

# check CASEDIR WORKDIR LABEL
check() {
	[ $(((pass + fail + 1) % 25)) != 0 ] ||
		echo "... $((pass + fail + 1)) cases so far"
	rc=$(run_case "$1" "$2" "$TMP/out" "$TMP/err")
	bad=
	if [ -f "$1/stdout-nonempty" ]; then
		[ -s "$TMP/out" ] || bad="$bad stdout is empty;"
	else
		if [ -f "$1/expected.out.gz" ]; then
			gzip -dc "$1/expected.out.gz" > "$TMP/exp"
		else
			cp "$1/expected.out" "$TMP/exp"
		fi
		cmp -s "$TMP/exp" "$TMP/out" || bad="$bad stdout differs;"
	fi
	cmp -s "$1/expected.err" "$TMP/err" || bad="$bad stderr differs;"
	[ "$rc" = "$(cat "$1/expected.rc")" ] ||
		bad="$bad exit $rc, expected $(cat "$1/expected.rc");"
	if [ -z "$bad" ]; then
		pass=$((pass + 1))
		return
	fi
	fail=$((fail + 1))
	echo "FAIL $3:$bad  (readprofile $(cat "$1/args"))"
	case $bad in *stdout*)
		[ -f "$1/stdout-nonempty" ] ||
			diff -u "$TMP/exp" "$TMP/out" | sed -n '3,40p' ;;
	esac
	case $bad in *stderr*) diff -u "$1/expected.err" "$TMP/err" | sed -n '3,20p' ;; esac
}

for d in "$TOP"/fixtures/cases/*/ "$TOP"/fixtures/cases-ours/*/; do
	[ -f "$d/args" ] || continue
	d=${d%/}
	check "$d" "$d" "${d#"$TOP"/fixtures/}"
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
