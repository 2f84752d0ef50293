#!/bin/sh
# check.sh - run test suites, each with a labelled summary line, then the
# total.
#
#   sh tests/check.sh NAME 'COMMAND' [NAME 'COMMAND']...
#
# Each COMMAND (run by sh, in the current directory) is a suite whose last
# line of output is `N passed, M failed` (or `LABEL: N passed, M failed`),
# or one saying it was skipped.  Its output is shown as it comes, with
# that last line replaced by `NAME: N passed, M failed (S s)`.  At the end:
# `check: N passed, M failed in K suites (S s)`; the exit status is 1 when
# any suite failed or gave no summary.
set -u
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM

now() { date +%s; }
tpass=0 tfail=0 nsuite=0 bad=0 start=$(now)
while [ $# -ge 2 ]; do
	name=$1 cmd=$2
	shift 2
	nsuite=$((nsuite + 1))
	t0=$(now)
	{ sh -c "$cmd" 2>&1; echo $? > "$TMP/rc"; } |
	    awk -v name="$name" -v sum="$TMP/sum" '
		function flush() { if (held != "") print held; held = "" }
		/^([A-Za-z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed/ {
			flush(); held = $0; fflush(); next
		}
		{ flush(); print; fflush() }
		END {
			line = held
			sub(/^[A-Za-z0-9_-]+: /, "", line)
			if (split(line, w, " ") >= 4 && w[2] == "passed,") {
				print w[1], w[3] + 0 > sum
			} else {
				print "none" > sum
			}
		}'
	rc=$(cat "$TMP/rc")
	t=$(( $(now) - t0 ))
	read -r p f < "$TMP/sum"
	if [ "$p" = none ]; then
		if [ "$rc" = 0 ]; then
			echo "$name: skipped (${t}s)"
			continue
		fi
		echo "$name: no summary, exit status $rc (${t}s)"
		bad=1
		continue
	fi
	[ "$rc" = 0 ] || [ "$f" != 0 ] || { f=1; bad=1; }
	echo "$name: $p passed, $f failed (${t}s)"
	tpass=$((tpass + p))
	tfail=$((tfail + f))
done
[ "$tfail" = 0 ] || bad=1
echo "check: $tpass passed, $tfail failed in $nsuite suites ($(( $(now) - start ))s)"
[ "$bad" = 0 ]
