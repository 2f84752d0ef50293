#!/bin/sh
# check-gen.sh - prove that gen.c's inputs are well defined for util-linux:
# run it under valgrind on GEN_CASES seeds (default 100, from DIFF_SEED or 1)
# with the options that read every counter, and fail on any memory error.
# Each run is a check: `check-gen: N passed, M failed`.
#
#   [GEN=/path/to/gen] [ORACLE=/usr/sbin/readprofile] sh tests/differential/check-gen.sh
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=check-gen
. "$TOP/tests/lib.sh"
ORACLE=${ORACLE:-/usr/sbin/readprofile}
CASES=${GEN_CASES:-100}
SEED=${DIFF_SEED:-1}
have valgrind || suite_skipped "no valgrind"
if [ ! -x "$ORACLE" ] || ! "$ORACLE" -V 2>/dev/null | grep -q util-linux; then
	suite_skipped "util-linux readprofile not found"
fi
. "$TOP/tests/differential/common.sh"
seed=$SEED
while [ "$seed" -lt $((SEED + CASES)) ]; do
	"$GEN" "$seed" "$TMP" || exit 1
	for o in "-a -s" "-a -b" "-n -a -s" "-n -a -b"; do
		valgrind -q --error-exitcode=99 "$ORACLE" $o -p "$TMP/profile" \
			-m "$TMP/map" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ "$rc" -ne 0 ] || grep -v '^readprofile: Assuming reversed' "$TMP/err" | grep -q .; then
			bad "seed $seed, $o: exit $rc" "$TMP/err"
		else
			ok
		fi
	done
	seed=$((seed + 1))
done
echo "$CASES cases, $fail bad runs"
summary
