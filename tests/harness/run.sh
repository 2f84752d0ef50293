#!/bin/sh
# run.sh - tests/check.sh itself, on fake suites: a skipped suite is not a
# pass, a suite's skip notes reach the output, and under
# READPROFILE_CHECK_NO_SKIP=1 any skip fails the run.
#
#   sh tests/harness/run.sh
#
# The experiment: four suites, one that passes 40 checks and three that
# skip (a whole suite with a label, one without, and one that skips two of
# its checks).  Without the variable: exit 0, the skips and their reasons
# listed, `check: 43 passed, 0 failed, 4 skipped`.  With it: the same
# list and exit 1.  Then suites that must fail: no summary line (exit 0),
# a summary that is not the last line, a non-zero exit status with no
# failure counted, no check run at all, each with CHECK_JOBS=1 and 2; two
# suites that pass only when run side by side (CHECK_JOBS=2), shown in
# order.  A suite that passes shows one line, one that fails its whole
# output.  And tests/unit/run.sh's counts, and tests/lib.sh: a check that
# fails makes its suite fail, a skip under READPROFILE_CHECK_NO_SKIP=1
# fails the run, the temporary directory is removed, the timed run is
# stopped, the caller's variables are not taken.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=harness
. "$TOP/tests/lib.sh"
# each experiment says how many suites run at once, and how much is shown
unset CHECK_JOBS CHECK_VERBOSE

# expect NAME STATUS: check.sh's last run exited STATUS and printed
# $TMP/want (lines that must appear, in order, but among others)
expect() {
	_why=
	[ "$rc" = "$2" ] || _why="$_why exit status $rc, want $2;"
	if ! awk 'NR == FNR { want[++n] = $0; next }
	    i < n && $0 == want[i + 1] { i++ }
	    END { if (i < n) { print "missing: " want[i + 1]; exit 1 } }' \
	    "$TMP/want" "$TMP/out" > "$TMP/why"; then
		_why="$_why $(cat "$TMP/why");"
	fi
	if [ -z "$_why" ]; then
		ok
	else
		bad "$1:$_why"
		sed 's/^/    | /' "$TMP/out"
	fi
}

# the four fake suites of the experiment
check() {
	sh "$TOP/tests/check.sh" \
	    real 'i=0; while [ $i -lt 40 ]; do echo ok; i=$((i + 1)); done; echo "real: 40 passed, 0 failed"' \
	    nooracle 'echo "diff: skipped: util-linux readprofile not found"' \
	    notroot 'echo "skipped: must run as root"' \
	    partial 'echo "gmon: 3 passed, 0 failed, 2 skipped; skipped: gprof(not installed); m32-O2(no gcc -m32)"' \
	    > "$TMP/out" 2>&1
	rc=$?
}

cat > "$TMP/want" <<'EOF'
real: 40 passed, 0 failed, 0 skipped (0s)
nooracle: skipped: util-linux readprofile not found (0s)
notroot: skipped: must run as root (0s)
partial: 3 passed, 0 failed, 2 skipped (0s)
  skipped: nooracle: util-linux readprofile not found
  skipped: notroot: must run as root
  skipped: partial (2): gprof(not installed); m32-O2(no gcc -m32)
check: 43 passed, 0 failed, 4 skipped
EOF
cp "$TMP/want" "$TMP/want0"
# the seconds are not the point: compared as 0
check_at() {
	check
	sed 's/ ([0-9]*s)$/ (0s)/' "$TMP/out" > "$TMP/out0" && mv "$TMP/out0" "$TMP/out"
}
READPROFILE_CHECK_NO_SKIP= check_at
[ "$(tail -n 1 "$TMP/out")" = "check: 43 passed, 0 failed, 4 skipped" ] ||
	echo "last line: $(tail -n 1 "$TMP/out")" >> "$TMP/out"
expect "three skipped suites: exit 0, the skips said" 0
export READPROFILE_CHECK_NO_SKIP=1
check_at
sed '$d' "$TMP/want" > "$TMP/want1"
printf '%s\n' "check: READPROFILE_CHECK_NO_SKIP is set: each skip counts as a failure" \
    "check: 43 passed, 4 failed, 4 skipped" >> "$TMP/want1"
mv "$TMP/want1" "$TMP/want"
expect "three skipped suites, READPROFILE_CHECK_NO_SKIP=1: exit 1" 1
# suites this machine cannot run, named: their skips are no failure
READPROFILE_CHECK_MAY_SKIP="nooracle partial" check_at
printf '%s\n' "check: READPROFILE_CHECK_NO_SKIP is set: each skip counts as a failure" \
    "check: 43 passed, 1 failed, 4 skipped" > "$TMP/want"
expect "READPROFILE_CHECK_MAY_SKIP names two of them: one failure" 1
READPROFILE_CHECK_MAY_SKIP="nooracle notroot partial" check_at
echo "check: 43 passed, 0 failed, 4 skipped" > "$TMP/want"
expect "READPROFILE_CHECK_MAY_SKIP names all three: exit 0" 0
unset READPROFILE_CHECK_NO_SKIP

# CHECK_JOBS=2: the same experiment, the same lines in the same order
cp "$TMP/want0" "$TMP/want"
CHECK_JOBS=2 check_at
expect "CHECK_JOBS=2: the experiment, the same lines in the same order" 0

# Two suites that pass only side by side: each marks its start, then waits
# for the other's mark (up to 20 s).  The first then outlasts the second,
# whose lines must still come after its own.
M=$TMP/meet
meet() {	# meet ME OTHER EXTRA-SLEEP [TENTHS-OF-A-SECOND-TO-WAIT]
	echo "touch '$M/$1'; i=0
	while [ ! -e '$M/$2' ] && [ \$i -lt ${4:-200} ]; do sleep 0.1; i=\$((i + 1)); done
	if [ -e '$M/$2' ]; then sleep $3; echo '$1: 1 passed, 0 failed'
	else echo '$1: 0 passed, 1 failed'; fi"
}
printf '%s\n' "a: 1 passed, 0 failed, 0 skipped (0s)" \
    "b: 1 passed, 0 failed, 0 skipped (0s)" \
    "check: 2 passed, 0 failed, 0 skipped" > "$TMP/want"
mkdir "$M"
CHECK_JOBS=2 sh "$TOP/tests/check.sh" a "$(meet a b 0.5)" b "$(meet b a 0)" \
    > "$TMP/out" 2>&1
rc=$?
sed -i 's/ ([0-9]*s)$/ (0s)/' "$TMP/out"
expect "CHECK_JOBS=2: two suites at once, shown in order" 0
# one at a time they cannot meet (a waits 1 s for b): the proof that the
# check above can fail
rm -rf "$M" && mkdir "$M"
printf '%s\n' "a: 0 passed, 1 failed, 0 skipped (0s)" > "$TMP/want"
CHECK_JOBS=1 sh "$TOP/tests/check.sh" a "$(meet a b 0 10)" b "$(meet b a 0 10)" \
    > "$TMP/out" 2>&1
rc=$?
sed -i 's/ ([0-9]*s)$/ (0s)/' "$TMP/out"
expect "CHECK_JOBS=1: one suite at a time" 1
# A long suite does not hold back those after it: a waits for c's mark,
# so c must start while a runs, b having ended (2 at a time).
rm -rf "$M" && mkdir "$M"
printf '%s\n' "a: 1 passed, 0 failed, 0 skipped (0s)" \
    "b: 1 passed, 0 failed, 0 skipped (0s)" \
    "c: 1 passed, 0 failed, 0 skipped (0s)" \
    "check: 3 passed, 0 failed, 0 skipped" > "$TMP/want"
CHECK_JOBS=2 sh "$TOP/tests/check.sh" a "$(meet a c 0 100)" \
    b 'echo "b: 1 passed, 0 failed"' c "$(meet c a 0 100)" \
    > "$TMP/out" 2>&1
rc=$?
sed -i 's/ ([0-9]*s)$/ (0s)/' "$TMP/out"
expect "CHECK_JOBS=2: a suite starts beside a long one, shown in order" 0
echo "check: CHECK_JOBS must be a number from 1: '0'" > "$TMP/want"
CHECK_JOBS=0 sh "$TOP/tests/check.sh" a 'echo "1 passed, 0 failed"' \
    > "$TMP/out" 2>&1
rc=$?
expect "CHECK_JOBS=0: refused" 2

# one SUITE-COMMAND WANTED-LINE...: a real suite and SUITE-COMMAND; exit
# 1, and the wanted lines
one() {
	_c=$1
	shift
	printf '%s\n' "$@" > "$TMP/want"
	for _j in 1 2; do
		CHECK_JOBS=$_j sh "$TOP/tests/check.sh" \
		    good 'echo "5 passed, 0 failed"' bad "$_c" > "$TMP/out" 2>&1
		rc=$?
		sed -i 's/ ([0-9]*s)$/ (0s)/' "$TMP/out"
		expect "CHECK_JOBS=$_j: $_c" 1
	done
}
one 'echo "diff: util-linux not found"' \
    "diff: util-linux not found" \
    "bad: FAILED: no summary line (exit status 0) (0s)" \
    "check: 5 passed, 1 failed, 0 skipped"
one 'echo "3 passed, 0 failed"; echo trailing' \
    "bad: FAILED: no summary line (exit status 0) (0s)"
one 'echo "3 passed, 0 failed"; exit 2' \
    "bad: 3 passed, 1 failed, 0 skipped (0s)" \
    "check: 8 passed, 1 failed, 0 skipped"
one 'echo "0 passed, 0 failed"' "bad: ran no check: one failure"
one 'echo "x: skipped: no tool"; exit 1' "bad: skipped: no tool (0s)" \
    "check: 5 passed, 1 failed, 1 skipped"
one 'echo "2 passed, 1 failed"; exit 1' "check: 7 passed, 1 failed, 0 skipped"

# tests/unit/run.sh counts cmocka's tests, not binaries: a skip() is a
# skip, a binary that dies before its summary one failure more
{
	echo '#!/bin/sh'
	echo 'cat <<EOF'
	printf '[==========] Running 3 test(s).\n[ RUN      ] a\n[       OK ] a\n'
	printf '[ RUN      ] b\n[  SKIPPED ] b\n[ RUN      ] c\n[  FAILED  ] c\n'
	printf '[==========] 3 test(s) run.\n[  PASSED  ] 1 test(s).\n'
	printf '[  SKIPPED ] 1 test(s), listed below:\n[  SKIPPED ] b\n'
	printf '[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] c\n'
	printf 'EOF\nexit 1\n'
} > "$TMP/fakeunit"
printf '#!/bin/sh\necho "[==========] Running 2 test(s)."\nkill -SEGV $$\n' \
    > "$TMP/crashunit"
chmod +x "$TMP/fakeunit" "$TMP/crashunit"
sh "$TOP/tests/unit/run.sh" "$TMP/fakeunit" "$TMP/crashunit" > "$TMP/out" 2>&1
rc=$?
echo "unit: 1 passed, 2 failed, 1 skipped; skipped: fakeunit b (cmocka skip)" \
    > "$TMP/want"
expect "tests/unit/run.sh: tests counted, a skip a skip, a crash a failure" 1

. "$TOP/tests/harness/lib.sh"

summary
