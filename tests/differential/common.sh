# common.sh - sourced by run.sh and check-gen.sh (POSIX sh) after
# tests/lib.sh: the generator, built in TMP unless GEN is given.
if [ -z "${GEN:-}" ]; then
	GEN=$TMP/gen
	${CC:-cc} -std=c11 -O2 -o "$GEN" "$TOP/tests/differential/gen.c" || exit 1
fi
