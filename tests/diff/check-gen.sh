#!/bin/sh
# check-gen.sh - prove that gen.c's inputs are well defined for util-linux:
# run it under valgrind on GEN_CASES seeds (default 100, from DIFF_SEED or 1)
# with the options that read every counter, and fail on any memory error.
#
#   [GEN=/path/to/gen] sh tests/diff/check-gen.sh
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ORACLE=${ORACLE:-/usr/sbin/readprofile}
CASES=${GEN_CASES:-100}
SEED=${DIFF_SEED:-1}
. "$TOP/tests/diff/common.sh"
bad=0
seed=$SEED
while [ "$seed" -lt $((SEED + CASES)) ]; do
	"$GEN" "$seed" "$TMP" || exit 1
	for o in "-a -s" "-a -b" "-n -a -s" "-n -a -b"; do
		valgrind -q --error-exitcode=99 "$ORACLE" $o -p "$TMP/profile" \
			-m "$TMP/map" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ "$rc" -ne 0 ] || grep -v '^readprofile: Assuming reversed' "$TMP/err" | grep -q .; then
			echo "seed $seed, $o: exit $rc"
			head -5 "$TMP/err"
			bad=$((bad + 1))
		fi
	done
	seed=$((seed + 1))
done
echo "$CASES cases, $bad bad runs"
[ "$bad" -eq 0 ]
