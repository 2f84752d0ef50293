#!/bin/sh
# run.sh - the running kernel's side, on a machine without a profiling
# kernel: the default map chain and its notices, the hints after a missing
# /proc/profile.  Each case runs readprofile with READPROFILE_TEST_ROOT set
# to a made-up root directory (its /boot, /proc, /lib/modules, ...), and
# compares stdout, stderr (the root's path taken out) and the exit status
# word for word.
#
#   RP=/abs/readprofile [RP_WRAP='valgrind -q --error-exitcode=99'] \
#       sh tests/kernel/run.sh
#
# Prints one FAIL line (and a diff) per failing case, and last
# `kernel: N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
: "${RP:?set RP to the readprofile binary to test}"
RP_WRAP=${RP_WRAP:-}
LC_ALL=C
export LC_ALL

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
REL=$(uname -r)
IN=$TOP/fixtures/inputs
pass=0
fail=0

# root NAME: a fresh, empty made-up root in $ROOT
root() {
	ROOT=$TMP/root-$1
	rm -rf "$ROOT"
	mkdir -p "$ROOT/boot" "$ROOT/proc"
}

# expect NAME RC OUT ARGS...: run readprofile ARGS under $ROOT; exit
# status RC, stdout equal to file OUT (or empty for -), stderr equal to
# this function's standard input, with the root's path removed.
expect() {
	_n=$1 _rc=$2 _out=$3
	shift 3
	cat > "$TMP/exp.err"
	(cd "$TMP" && READPROFILE_TEST_ROOT=$ROOT exec $RP_WRAP "$RP" "$@" \
	    </dev/null >"$TMP/out" 2>"$TMP/err.raw")
	rc=$?
	sed "s|$ROOT||g" "$TMP/err.raw" > "$TMP/err"
	bad=
	[ "$rc" = "$_rc" ] || bad="$bad exit $rc, expected $_rc;"
	if [ "$_out" = - ]; then
		[ -s "$TMP/out" ] && bad="$bad stdout not empty;"
	else
		cmp -s "$_out" "$TMP/out" || bad="$bad stdout differs;"
	fi
	cmp -s "$TMP/exp.err" "$TMP/err" || bad="$bad stderr differs;"
	if [ -z "$bad" ]; then
		pass=$((pass + 1))
		return
	fi
	fail=$((fail + 1))
	echo "FAIL $_n:$bad"
	diff -u "$TMP/exp.err" "$TMP/err" | sed -n '3,20p'
}

# --- no default map anywhere (valgrind: nothing read uninitialised) -------
root empty
rm -r "$ROOT/boot"
expect "no map at all" 1 - -p "$IN/rich.profile" <<EOF
readprofile: /boot/System.map-$REL: No such file or directory
EOF

echo "kernel: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
