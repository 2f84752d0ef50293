# lib.sh - sourced by tests/harness/run.sh: tests/lib.sh on fake suites,
# alone and under tests/check.sh.
#
# A suite that passes shows one line under check.sh, its chatter hidden
# (CHECK_VERBOSE=1 shows it); a failing check makes its suite fail, its
# whole output shown; `bad` shows the first 15 lines of its files and of
# WHY; a skip is a failure under READPROFILE_CHECK_NO_SKIP=1 (but for
# READPROFILE_CHECK_MAY_SKIP), a whole suite's skip too; `ok` given the
# arguments of another helper's shape fails; the closing line and exit
# status; TMP removed and BGPIDS stopped at exit and on TERM; `timed`
# stops its command at SECONDS times TIME_SCALE; the caller's IN, OUT, W,
# bad and LC_ALL are not taken; a TIME_SCALE that is no number is
# refused.

FAKE=$TMP/fake
mkdir "$FAKE"
# fake NAME BODY: the suite $FAKE/NAME.sh, BODY after tests/lib.sh
fake() {
	printf '%s\n' "TOP='$TOP'" "SUITE=$1" '. "$TOP/tests/lib.sh"' "$2" \
	    > "$FAKE/$1.sh"
}
# lacks NAME LINE: the last run's output has no line LINE
lacks() {
	if grep -qxF -- "$2" "$TMP/out"; then
		bad "$1: the line '$2' is shown"
		sed 's/^/    | /' "$TMP/out"
	else
		ok
	fi
}
# checkrun SUITE...: check.sh on the fake suites, output in $TMP/out,
# times as (0s)
checkrun() {
	for _s; do
		set -- "$@" "$_s" "sh '$FAKE/$_s.sh'"
		shift
	done
	sh "$TOP/tests/check.sh" "$@" > "$TMP/out" 2>&1
	rc=$?
	sed -i 's/ ([0-9]*s)$/ (0s)/' "$TMP/out"
}

fake good 'ok; ok "a name"; echo chatter of a good suite; summary'
fake failing 'ok; bad "the widget is wrong"; echo chatter of a failing suite; summary'
for j in 1 2; do
	printf '%s\n' "chatter of a failing suite" \
	    "failing: 1 passed, 1 failed, 0 skipped (0s)" \
	    "check: 3 passed, 1 failed, 0 skipped" > "$TMP/want"
	CHECK_JOBS=$j checkrun good failing
	expect "lib, CHECK_JOBS=$j: a failing check fails the suite and the run" 1
	lacks "lib, CHECK_JOBS=$j: a suite that passes is one line" \
	    "chatter of a good suite"
	printf '%s\n' "good: 2 passed, 0 failed, 0 skipped (0s)" \
	    "FAIL the widget is wrong" > "$TMP/want"
	expect "lib, CHECK_JOBS=$j: the failing suite's output shown whole" 1
	CHECK_JOBS=$j CHECK_VERBOSE=1 checkrun good failing
	printf '%s\n' "chatter of a good suite" \
	    "good: 2 passed, 0 failed, 0 skipped (0s)" > "$TMP/want"
	expect "lib, CHECK_JOBS=$j, CHECK_VERBOSE=1: every suite's output" 1
done
checkrun good
printf '%s\n' "good: 2 passed, 0 failed, 0 skipped (0s)" \
    "check: 2 passed, 0 failed, 0 skipped" > "$TMP/want"
expect "lib: a suite that passes" 0
[ "$(wc -l < "$TMP/out")" = 3 ] || echo "3 lines wanted" >> "$TMP/out"
expect "lib: a run that passes is a line per suite and two" 0

# bad's files: 15 lines of each, and WHY's, emptied
fake files 'seq 1 20 > "$TMP/f"; WHY=$TMP/why; echo because > "$WHY"
bad "two files" "$TMP/f" "$TMP/none"
[ -s "$WHY" ] && echo "WHY kept"
bad "again"; summary'
sh "$FAKE/files.sh" > "$TMP/out" 2>&1
rc=$?
printf '%s\n' "FAIL two files" "    | 1" "    | 15" "    | because" \
    "FAIL again" "files: 0 passed, 2 failed" > "$TMP/want"
expect "lib: bad shows 15 lines of each file, and WHY once" 1
lacks "lib: bad shows 15 lines" "    | 16"
lacks "lib: WHY emptied by bad" "WHY kept"
[ "$(grep -c because "$TMP/out")" = 1 ] || echo "'because' not once" >> "$TMP/out"
expect "lib: WHY shown with one failure only" 1

# skips
fake skips 'ok; skipped "no gprof"; skipped "no gprof"; skipped "no qemu"; summary'
fake whole 'suite_skipped "no widget here"; ok; summary'
sh "$FAKE/skips.sh" > "$TMP/out" 2>&1
rc=$?
printf '%s\n' "SKIP: no gprof" \
    "skips: 1 passed, 0 failed, 3 skipped; skipped: no gprof; no qemu" > "$TMP/want"
expect "lib: the closing line with the skips, each reason once" 0
[ "$(tail -n 1 "$TMP/out")" = "skips: 1 passed, 0 failed, 3 skipped; skipped: no gprof; no qemu" ] ||
	echo "not the last line" >> "$TMP/out"
expect "lib: the closing line is the last" 0
sh "$FAKE/whole.sh" > "$TMP/out" 2>&1
rc=$?
echo "whole: skipped: no widget here" > "$TMP/want"
expect "lib: suite_skipped says why and exits 0" 0
lacks "lib: suite_skipped ends the suite" "whole: 1 passed, 0 failed"
READPROFILE_CHECK_NO_SKIP= checkrun good skips whole
printf '%s\n' "  skipped: skips (3): no gprof; no qemu" \
    "  skipped: whole: no widget here" \
    "check: 3 passed, 0 failed, 4 skipped" > "$TMP/want"
expect "lib: skips listed, no failure" 0
READPROFILE_CHECK_NO_SKIP=1 checkrun good skips
echo "check: 3 passed, 3 failed, 3 skipped" > "$TMP/want"
expect "lib: a skip under READPROFILE_CHECK_NO_SKIP=1 fails" 1
READPROFILE_CHECK_NO_SKIP=1 checkrun whole
echo "check: 0 passed, 1 failed, 1 skipped" > "$TMP/want"
expect "lib: a skipped suite under READPROFILE_CHECK_NO_SKIP=1 fails" 1
READPROFILE_CHECK_NO_SKIP=1 READPROFILE_CHECK_MAY_SKIP="skips whole" \
    checkrun good skips whole
echo "check: 3 passed, 0 failed, 4 skipped" > "$TMP/want"
expect "lib: READPROFILE_CHECK_MAY_SKIP names them" 0

# ok in another helper's shape (NAME EXPECTED ARGS...) is no pass
fake shape 'ok "name" expected.out -p profile; summary'
sh "$FAKE/shape.sh" > "$TMP/out" 2>&1
rc=$?
echo "shape: 0 passed, 1 failed" > "$TMP/want"
expect "lib: ok with more than a name fails" 1

# TMP and BGPIDS at exit, and on TERM (once the background process is
# sleep: a signal to the shell it is forked from may be lost)
started='sleep 300 & BGPIDS=$!
until grep -q 300 "/proc/$BGPIDS/cmdline" 2>/dev/null; do sleep 0.05; done
echo "$TMP" > "$FAKE/tmpname"; echo $BGPIDS > "$FAKE/bgpid"'
fake clean "$started
ok; summary"
fake term "$started
wait"
gone() {	# gone NAME: the suite's TMP and background process are gone
	_t=0
	while kill -0 "$(cat "$FAKE/bgpid")" 2>/dev/null && [ $_t -lt $((100 * TS)) ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	if [ -e "$(cat "$FAKE/tmpname")" ]; then
		bad "lib, $1: TMP is left"
	elif kill -0 "$(cat "$FAKE/bgpid")" 2>/dev/null; then
		bad "lib, $1: a process of BGPIDS is left"
		kill "$(cat "$FAKE/bgpid")"
	else
		ok
	fi
}
FAKE=$FAKE sh "$FAKE/clean.sh" > "$TMP/out" 2>&1
gone "at exit"
rm -f "$FAKE/tmpname" "$FAKE/bgpid"
FAKE=$FAKE sh "$FAKE/term.sh" > "$TMP/out" 2>&1 &
tp=$!
_t=0
until [ -s "$FAKE/bgpid" ] || [ $_t -ge $((100 * TS)) ]; do
	sleep 0.1
	_t=$((_t + 1))
done
kill -TERM "$tp"
wait "$tp"
rc=$?
: > "$TMP/want"
expect "lib: TERM ends the suite with status 1" 1
gone "on TERM"

# the timed run: SECONDS times TIME_SCALE
fake timed 'timed 1 sleep 2; echo "status $?"'
TIME_SCALE=1 sh "$FAKE/timed.sh" > "$TMP/out" 2>&1
rc=$?
echo "status 124" > "$TMP/want"
expect "lib: timed 1 stops a command of 2 s" 0
TIME_SCALE=4 sh "$FAKE/timed.sh" > "$TMP/out" 2>&1
rc=$?
echo "status 0" > "$TMP/want"
expect "lib: timed 1 with TIME_SCALE=4 lets it end" 0
TIME_SCALE=x sh "$FAKE/timed.sh" > "$TMP/out" 2>&1
rc=$?
echo "timed: TIME_SCALE must be a whole number from 1: 'x'" > "$TMP/want"
expect "lib: TIME_SCALE=x refused" 2

# the caller's variables
fake env 'echo "IN=${IN-unset} OUT=${OUT-unset} W=${W-unset} bad=${bad-unset} LC_ALL=$LC_ALL"'
IN=/dev/zero OUT=/dev/full W=/ bad=x LC_ALL=POSIX sh "$FAKE/env.sh" \
    > "$TMP/out" 2>&1
rc=$?
echo "IN=unset OUT=unset W=unset bad=unset LC_ALL=C" > "$TMP/want"
expect "lib: the caller's IN, OUT, W, bad and LC_ALL not taken" 0

# tests/need-cmocka.sh where cmocka is missing (a cc that links nothing):
# as root, one line says what it installs before it does; as a user, the
# one command to run as root, and no sudo
mkdir "$TMP/bin"
printf '#!/bin/sh\nexit 1\n' > "$TMP/bin/cc"
printf '#!/bin/sh\necho "$*" >> "%s/apt.log"\n' "$TMP" > "$TMP/bin/apt-get"
printf '#!/bin/sh\necho "$ID"\n' > "$TMP/bin/id"
chmod +x "$TMP/bin/cc" "$TMP/bin/apt-get" "$TMP/bin/id"
ID=0 PATH=$TMP/bin:$PATH CC=cc sh "$TOP/tests/need-cmocka.sh" > "$TMP/out" 2>&1
rc=$?
printf '%s\n' "make check: installing cmocka for the unit tests: apt-get install libcmocka-dev" \
    "make check: 'apt-get install -y libcmocka-dev' failed" > "$TMP/want"
[ "$(head -n 1 "$TMP/out")" = "$(head -n 1 "$TMP/want")" ] ||
	echo "not the first line" >> "$TMP/out"
grep -qx 'install -y libcmocka-dev' "$TMP/apt.log" 2>/dev/null ||
	echo "apt-get not run" >> "$TMP/out"
expect "need-cmocka.sh as root: says what it installs, first" 1
ID=1000 PATH=$TMP/bin:$PATH CC=cc sh "$TOP/tests/need-cmocka.sh" > "$TMP/out" 2>&1
rc=$?
echo "make check needs cmocka for the unit tests; as root, run: apt-get install libcmocka-dev" \
    > "$TMP/want"
[ "$(wc -l < "$TMP/out")" = 1 ] || echo "not one line" >> "$TMP/out"
expect "need-cmocka.sh as a user: the one command to run as root" 1
lacks "need-cmocka.sh as a user: no sudo" "$(grep sudo "$TMP/out")"
