#!/bin/sh
# run.sh - run each cmocka test binary given as an argument and count its
# tests: cmocka's own result for each (OK, FAILED or ERROR, SKIPPED).  A
# binary that ends without them all (a crash) or with a status other than
# 0 counts one failure more.
#
#   [UNIT_WRAP='qemu-s390x-static'] [UNIT_LABEL=unit] sh tests/unit/run.sh BINARY...
#
# Temporary files go to a directory of their own, removed at the end.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=${UNIT_LABEL:-unit}
. "$TOP/tests/lib.sh"
UNIT_WRAP=${UNIT_WRAP:-}
TMPDIR=$TMP
export TMPDIR
for t in "$@"; do
	# shellcheck disable=SC2086
	$UNIT_WRAP "$t" > "$TMP/log" 2>&1
	rc=$?
	cat "$TMP/log"
	# the results before cmocka's closing list (which names them again)
	set -- $(awk '
	    /^\[==========\] [0-9]+ test\(s\) run\./ { done = 1 }
	    done { next }
	    /^\[       OK \] / { p++ }
	    /^\[  (FAILED|ERROR) +\] / { f++ }
	    /^\[  SKIPPED \] / { s++; sub(/^\[  SKIPPED \] /, ""); w = w " " $0 }
	    END { printf "%d %d %d %d%s\n", p, f, s, done, w }' "$TMP/log")
	p=$1 f=$2 s=$3 done=$4
	shift 4
	for w; do
		skipped "${t##*/} $w (cmocka skip)" > /dev/null
	done
	if [ "$done" = 0 ] || { [ "$rc" != 0 ] && [ "$f" = 0 ]; }; then
		why=
		[ "$done" = 1 ] || why=", before cmocka's summary"
		bad "$t: exit status $rc$why"
	fi
	tally "$p" "$f"
done
summary
