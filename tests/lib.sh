# lib.sh - what every suite shares (POSIX sh), sourced first:
#
#   TOP=$(cd "$(dirname "$0")/../.." && pwd)
#   SUITE=NAME
#   . "$TOP/tests/lib.sh"
#
# The prologue: `set -u`, LC_ALL=C, PYTHON (python3 unless tests/check.sh
# gave the interpreter itself), TS (TIME_SCALE, 1 by default: the factor
# of every time limit and wait), RP_WRAP (empty unless given), and the
# variables a suite uses as its own taken out of the caller's
# environment.  A suite takes from its caller only what its header names.
#
# The temporary directory: TMP, made here, removed at exit with the
# processes whose ids a suite adds to BGPIDS; HUP, INT and TERM end the
# suite with status 1.
#
# The checks, counted in `pass` and `fail` (read them, never set them):
#   ok [WHAT]           one check passed (WHAT names it, for the reader);
#                       more than one argument is a mistake, counted as a
#                       failure
#   bad WHAT [FILE...]  one check failed: prints `FAIL WHAT`, then the first
#                       15 lines of each FILE that is not empty, indented,
#                       and of the file named by WHY, if the suite sets it
#                       (the file is emptied: it explains one failure)
#   tally PASS FAIL     checks counted elsewhere (a subshell, a test
#                       binary): PASS passes and FAIL failures more
#   skipped REASON      one check could not run here: prints
#                       `SKIP: REASON`, counts it, keeps REASON (once)
#   have COMMAND        COMMAND can be run (command -v)
#   timed SECONDS CMD...
#                       CMD, stopped after SECONDS times TIME_SCALE (TERM,
#                       then KILL 5 s later): exit status 124 or 137
#   run ARGS...         the program under test, $RP_WRAP "$RP" ARGS, timed:
#                       in RUNDIR (default: here), stdin IN (/dev/null),
#                       stdout OUT ($TMP/out), stderr $TMP/err, stopped
#                       after RUN_TIMEOUT seconds (60 times TIME_SCALE);
#                       its exit status in rc
#
# The end, one of:
#   summary             the last line that tests/check.sh reads, `SUITE: N
#                       passed, M failed[, K skipped; skipped: REASON;
#                       REASON...]`, and exit: 0, or 1 when a check failed
#   suite_skipped REASON
#                       none of the suite can run here: `SUITE: skipped:
#                       REASON`, exit 0
set -u
: "${SUITE:?set SUITE to the suite's name before sourcing tests/lib.sh}"
LC_ALL=C
export LC_ALL
unset LANGUAGE CDPATH GREP_OPTIONS IN OUT W TRAIL RUNDIR RUN_TIMEOUT bad rc RC
PYTHON=${PYTHON:-python3}
RP_WRAP=${RP_WRAP:-}
TS=${TIME_SCALE:-1}
case $TS in
''|*[!0-9]*|0*) echo "$SUITE: TIME_SCALE must be a whole number from 1: '$TS'" >&2
	exit 2 ;;
esac
pass=0
fail=0
SKIPS=0
SKIPWHY=
BGPIDS=
WHY=

TMP=$(mktemp -d) || exit 1
lib_cleanup() {
	for _p in $BGPIDS; do kill "$_p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap lib_cleanup EXIT
trap 'exit 1' HUP INT TERM

ok() {
	if [ $# -gt 1 ]; then
		bad "ok given $# arguments ($1 ...): it takes at most a name"
		return 1
	fi
	pass=$((pass + 1))
}
bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	shift
	for _f in "$@" ${WHY:+"$WHY"}; do
		[ -s "$_f" ] && head -n 15 "$_f" | sed 's/^/    | /'
	done
	[ -z "${WHY:-}" ] || : > "$WHY"
	return 0
}
tally() {
	pass=$((pass + $1))
	fail=$((fail + $2))
}
skipped() {
	SKIPS=$((SKIPS + 1))
	echo "SKIP: $1"
	case "; $SKIPWHY;" in
	*"; $1;"*) ;;
	*) SKIPWHY=${SKIPWHY:+$SKIPWHY; }$1 ;;
	esac
}
have() {
	command -v "$1" >/dev/null 2>&1
}
timed() {
	_s=$1
	shift
	timeout -k 5 $((_s * TS)) "$@"
}

run() {
	(
		cd "${RUNDIR:-.}" || exit 2
		# shellcheck disable=SC2086
		exec timeout -k 5 "${RUN_TIMEOUT:-$((60 * TS))}" $RP_WRAP "$RP" \
		    "$@" <"${IN:-/dev/null}" >"${OUT:-$TMP/out}" 2>"$TMP/err"
	)
	rc=$?
}

summary() {
	if [ "$SKIPS" = 0 ]; then
		echo "$SUITE: $pass passed, $fail failed"
	else
		echo "$SUITE: $pass passed, $fail failed, $SKIPS skipped; skipped: $SKIPWHY"
	fi
	[ "$fail" = 0 ] && exit 0
	exit 1
}
suite_skipped() {
	echo "$SUITE: skipped: $1"
	exit 0
}
