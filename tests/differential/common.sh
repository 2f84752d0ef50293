# common.sh - sourced by run.sh and check-gen.sh (POSIX sh): a scratch
# directory removed on exit, and the generator (built there unless GEN is
# given).  Needs TOP, the top of the source tree.
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
if [ -z "${GEN:-}" ]; then
	GEN=$TMP/gen
	${CC:-cc} -std=c11 -O2 -o "$GEN" "$TOP/tests/differential/gen.c" || exit 1
fi
