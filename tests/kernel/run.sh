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
. "$TOP/tests/libc.sh"
libc_setup
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
readprofile: /boot/System.map-$REL: $(strerror ENOENT)
EOF

# --- no notice lost, whatever stdout and stderr are ------------------------
# The default map is the real capture's kallsyms with an address going
# down just before _etext: a notice (the /proc/kallsyms fallback) comes
# first, the error after 2 MB of -a report.  Every way of sending stdout
# and stderr must keep both lines and none of the report.
root lost
gzip -dc "$TOP/fixtures/real/profile.gz" > "$TMP/profile" &&
    gzip -dc "$TOP/fixtures/real/kallsyms.gz" |
    awk '$3 == "_etext" { print "ffffffffb4000010 T back" } { print }' \
    > "$ROOT/proc/kallsyms" || { echo "cannot decompress fixtures/real"; exit 1; }
BACKLINE=$(grep -n ' back$' "$ROOT/proc/kallsyms" | cut -d: -f1)
RUN="READPROFILE_TEST_ROOT=$ROOT $RP_WRAP $RP -a -p $TMP/profile"
# lost NAME REDIRECTIONS [BEFORE AFTER]: run $RUN with them (eval'd, in a
# { echo BEFORE; ...; echo AFTER; } group when given); $TMP/f must hold
# BEFORE, the notice, the error, AFTER, and nothing else.
lost() {
	{
		[ $# -lt 3 ] || echo "$3"
		sed "s|@ROOT@|$ROOT|g" <<EOF
readprofile: using @ROOT@/proc/kallsyms: no _stext in @ROOT@/boot/System.map or @ROOT@/boot/System.map-$REL
readprofile: @ROOT@/proc/kallsyms($BACKLINE): address goes backwards (0xffffffffb4000010 after 0xffffffffb4e01d30)
EOF
		[ $# -lt 4 ] || echo "$4"
	} > "$TMP/lost.exp"
	rm -f "$TMP/f"
	if [ $# -ge 3 ]; then
		eval "{ echo $3; $RUN; echo $4; } $2"
	else
		eval "$RUN $2"
	fi
	tr -d '\r' < "$TMP/f" > "$TMP/f.lf"
	if cmp -s "$TMP/lost.exp" "$TMP/f.lf"; then
		pass=$((pass + 1))
		return
	fi
	fail=$((fail + 1))
	echo "FAIL no notice lost, $1: readprofile -a -p PROFILE $2 ($(wc -c < "$TMP/f") bytes)"
	diff -u "$TMP/lost.exp" "$TMP/f.lf" | cut -c1-200 | sed -n '3,12p'
}
lost "same file, shared offset" '>"$TMP/f" 2>&1'
lost "same file, appending" '>>"$TMP/f" 2>&1'
lost "same file opened twice, appending" '>>"$TMP/f" 2>>"$TMP/f"'
lost "same file opened twice, stderr appending" '>"$TMP/f" 2>>"$TMP/f"'
lost "same file, in a group" '>"$TMP/f" 2>&1' before after
lost "same pipe" '2>&1 </dev/null | cat >"$TMP/f"'
lost "stdout /dev/null" '>/dev/null 2>"$TMP/f"'
if command -v script >/dev/null 2>&1; then
	lost "a terminal" '>/dev/null 2>&1; script -qec "$RUN" /dev/null </dev/null >"$TMP/f"'
else
	echo "SKIP no notice lost, a terminal: no script(1)"
fi

echo "kernel: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
