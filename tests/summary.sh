# summary.sh - sourced by the suites (POSIX sh): the closing line that
# tests/check.sh reads, with what could not run here and why.
#
#   skipped REASON      one check that could not run here; prints
#                       `SKIP: REASON`, counts it, keeps REASON (once)
#   summary NAME PASS FAIL
#                       `NAME: PASS passed, FAIL failed[, K skipped;
#                       skipped: REASON; REASON...]`
#   suite_skipped NAME REASON
#                       the whole suite cannot run here: `NAME: skipped:
#                       REASON`, exit 0
SKIPS=0
SKIPWHY=
skipped() {
	SKIPS=$((SKIPS + 1))
	echo "SKIP: $1"
	case "; $SKIPWHY;" in
	*"; $1;"*) ;;
	*) SKIPWHY=${SKIPWHY:+$SKIPWHY; }$1 ;;
	esac
}
summary() {
	if [ "$SKIPS" = 0 ]; then
		echo "$1: $2 passed, $3 failed"
	else
		echo "$1: $2 passed, $3 failed, $SKIPS skipped; skipped: $SKIPWHY"
	fi
}
suite_skipped() {
	echo "$1: skipped: $2"
	exit 0
}
