#!/bin/sh
# check.sh - run test suites, each with a labelled summary line, then the
# total.
#
#   [READPROFILE_CHECK_NO_SKIP=1] [CHECK_JOBS=J] [CHECK_VERBOSE=1] \
#       sh tests/check.sh NAME 'COMMAND' [NAME 'COMMAND']...
#
# Each COMMAND (run by sh, in the current directory) is a suite.  A suite
# that passes shows one line, below; one that fails shows its whole
# output first.  CHECK_VERBOSE=1 shows every suite's output.
# CHECK_JOBS=J (default 1; the Makefile gives 2) runs up to J suites at
# once; each suite is shown, in the order given, once it has ended (with
# CHECK_JOBS=1 and CHECK_VERBOSE=1, its output as it comes).
# A suite's last line must be one of
#
#   [LABEL: ]N passed, M failed[, K skipped][; skipped: REASONS]
#       the suite ran: N checks passed, M failed, K could not run here
#       (REASONS says why; a tail without K counts as one skip);
#   [LABEL: ]skipped: REASON
#       the suite could not run here at all (exit status 0).
#
# (tests/lib.sh prints both.)  That line is replaced by
# `NAME: N passed, M failed, K skipped (S s)`, or `NAME: skipped: REASON`,
# with the suite's reasons kept.  A suite fails when its exit status is not
# 0, when it counts a failure, when its last line is neither of the above,
# or when it ran no check at all (0 passed, 0 failed, 0 skipped).
#
# At the end: each skip with its reason, then the last line
#
#   check: N passed, M failed, K skipped
#
# (the time and number of suites on the line before).  Exit status 1 when
# any suite failed.  With READPROFILE_CHECK_NO_SKIP=1 (CI sets it: there
# every oracle is installed) a skip is a failure too: each one is counted
# in M as well as in K, and the exit status is 1; but for the suites named
# in READPROFILE_CHECK_MAY_SKIP (blank-separated), which this machine
# cannot run (e.g. unit with musl-gcc: no cmocka built for musl).
set -u
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM

case ${READPROFILE_CHECK_NO_SKIP:-0} in
""|0) NOSKIP=0 ;;
*) NOSKIP=1 ;;
esac
case ${CHECK_VERBOSE:-0} in
""|0) VERBOSE=0 ;;
*) VERBOSE=1 ;;
esac
# The suites run python3 hundreds of times: resolve it once to the
# interpreter itself, so that a version manager's shim (pyenv's is a shell
# script that runs pyenv: about 0.2 s a call) runs once, not per check.
# Suites take PYTHON, or python3 when it is unset.
if [ -z "${PYTHON:-}" ] && command -v python3 >/dev/null 2>&1; then
	PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	if [ -n "$PYTHON" ]; then export PYTHON; else unset PYTHON; fi
fi
now() { date +%s; }
tpass=0 tfail=0 tskip=0 nsuite=0 bad=0 start=$(now)
tstrict=0	# skips that are failures under READPROFILE_CHECK_NO_SKIP
# counted NAME K: K skips of suite NAME, failures unless it may skip
counted() {
	case " ${READPROFILE_CHECK_MAY_SKIP:-} " in
	*" $1 "*) ;;
	*) tstrict=$((tstrict + $2)) ;;
	esac
	tskip=$((tskip + $2))
}
: > "$TMP/skips"

# summarize: a suite's output on stdin, written on stdout but its last
# line, which is parsed into $TMP/sum: "run P F K\tREASONS",
# "skip\tREASON" or "none\tLAST LINE" (that line written too).
summarize() {
	awk -v sum="$TMP/sum" '
		NR > 1 { print last; fflush() }
		{ last = $0 }
		END {
			line = last
			if (line !~ /^([0-9]+ passed|skipped: )/)
				sub(/^[A-Za-z0-9_. ()-]+: /, "", line)
			if (line ~ /^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?(; skipped: .*)?$/) {
				why = ""
				if ((i = index(line, "; skipped: ")) > 0) {
					why = substr(line, i + 11)
					line = substr(line, 1, i - 1)
				}
				n = split(line, w, /[ ,]+/)
				k = n >= 6 ? w[5] + 0 : 0
				if (k == 0 && why != "") k = 1
				printf "run %d %d %d\t%s\n", w[1], w[3], k, why > sum
			} else if (line ~ /^skipped: ./) {
				printf "skip\t%s\n", substr(line, 10) > sum
			} else {
				if (NR > 0) print last
				printf "none\t%s\n", last > sum
			}
		}'
}

# The suites, numbered: name_I and cmd_I.
n=0
while [ $# -ge 2 ]; do
	n=$((n + 1))
	eval "name_$n=\$1 cmd_$n=\$2"
	shift 2
done

# CHECK_JOBS=J runs up to J suites at once (default 1: one after the
# other).  Each suite writes to $TMP/I.out (but with CHECK_JOBS=1 and
# CHECK_VERBOSE=1: shown as it comes), and is shown, in order, once it
# and those before it have ended; with J > 1 $TMP/I.end holds its exit
# status and end time.  A suite's time is from its start to its end.
JOBS=${CHECK_JOBS:-1}
case $JOBS in
''|*[!0-9]*|0*) echo "check: CHECK_JOBS must be a number from 1: '$JOBS'" >&2; exit 2 ;;
esac
started=0
# start I: suite I in the background
start() {
	eval "_cmd=\$cmd_$1"
	now > "$TMP/$1.t0"
	(
		sh -c "$_cmd" > "$TMP/$1.out" 2>&1 < /dev/null
		_rc=$?
		echo "$_rc $(now)" > "$TMP/$1.end"
	) &
	eval "pid_$1=\$!"
}

# fill: start suites, in order, while fewer than JOBS run; a suite runs
# until its .end file is written.  A long suite does not hold back the
# ones after it: they run beside it, and are shown once it has ended.
fill() {
	_running=0 _k=0
	while [ $_k -lt $started ]; do
		_k=$((_k + 1))
		[ -f "$TMP/$_k.end" ] || _running=$((_running + 1))
	done
	while [ $started -lt $n ] && [ $_running -lt "$JOBS" ]; do
		started=$((started + 1)) _running=$((_running + 1))
		start $started
	done
}

# show: the output of a suite that failed, whole (once; unless it was
# shown already)
show() {
	[ "$VERBOSE" = 1 ] || cat "$TMP/body"
}

i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	eval "name=\$name_$i cmd=\$cmd_$i"
	nsuite=$((nsuite + 1))
	: > "$TMP/body"
	if [ "$JOBS" = 1 ] && [ "$VERBOSE" = 1 ]; then
		t0=$(now)
		{ sh -c "$cmd" 2>&1 < /dev/null; echo $? > "$TMP/rc"; } | summarize
		rc=$(cat "$TMP/rc") t1=$(now)
	elif [ "$JOBS" = 1 ]; then
		t0=$(now)
		sh -c "$cmd" > "$TMP/$i.out" 2>&1 < /dev/null
		rc=$? t1=$(now)
		summarize < "$TMP/$i.out" > "$TMP/body"
	else
		fill
		while [ ! -f "$TMP/$i.end" ]; do
			sleep 0.2
			fill
		done
		eval "wait \$pid_$i"
		read -r rc t1 < "$TMP/$i.end" || { rc=1 t1=$(now); }
		t0=$(cat "$TMP/$i.t0")
		summarize < "$TMP/$i.out" > "$TMP/body"
		[ "$VERBOSE" = 0 ] || cat "$TMP/body"
	fi
	rm -f "$TMP/$i.out"
	t=$((t1 - t0))
	IFS='	' read -r head why < "$TMP/sum"
	set -- $head
	kind=$1
	shift
	case $kind in
	skip)
		[ "$rc" = 0 ] || show
		echo "$name: skipped: $why (${t}s)"
		if [ "$rc" != 0 ]; then
			echo "$name: but its exit status is $rc"
			tfail=$((tfail + 1))
		fi
		printf '%s: %s\n' "$name" "$why" >> "$TMP/skips"
		counted "$name" 1
		continue ;;
	none)
		show
		echo "$name: FAILED: no summary line (exit status $rc) (${t}s)"
		tfail=$((tfail + 1))
		continue ;;
	esac
	p=$1 f=$2 k=$3
	shift 3
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		show
		echo "$name: exit status $rc with no failure counted: one failure"
		f=1
	elif [ $((p + f + k)) = 0 ]; then
		show
		echo "$name: ran no check: one failure"
		f=1
	elif [ "$f" != 0 ]; then
		show
	fi
	echo "$name: $p passed, $f failed, $k skipped (${t}s)"
	[ "$k" = 0 ] || printf '%s (%d): %s\n' "$name" "$k" "$why" >> "$TMP/skips"
	tpass=$((tpass + p))
	tfail=$((tfail + f))
	counted "$name" "$k"
done
echo "check: $nsuite suites in $(( $(now) - start ))s"
if [ "$tskip" != 0 ]; then
	echo "check: skipped here (install what they need to run them):"
	sed 's/^/  skipped: /' "$TMP/skips"
	if [ "$NOSKIP" = 1 ] && [ "$tstrict" != 0 ]; then
		echo "check: READPROFILE_CHECK_NO_SKIP is set: each skip counts as a failure"
		tfail=$((tfail + tstrict))
	fi
fi
[ "$tfail" = 0 ] || bad=1
echo "check: $tpass passed, $tfail failed, $tskip skipped"
[ "$bad" = 0 ]
