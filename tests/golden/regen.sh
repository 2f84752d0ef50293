#!/bin/sh
# regen.sh - rebuild the binary profiles of the golden cases from their
# *.words files and re-record expected.{out,err,rc} with the reference
# readprofile (util-linux, default /usr/sbin/readprofile; override with ORACLE).
#
#   sh tests/golden/regen.sh            all of fixtures/cases, fixtures/real/golden,
#                                    fixtures/arch/*/golden and
#                                    fixtures/real-7.2/golden
#   sh tests/golden/regen.sh NAME...    only these cases of fixtures/cases
#
# fixtures/cases-ours is written by hand: only its profiles are rebuilt here.
# A case may hold `oracle-args`: the command line util-linux runs instead of
# `args` (the s390x raw-snapshot cases: util-linux needs the step-patched
# profile), and `extra.err`: lines this readprofile adds after util-linux's
# stderr.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ORACLE=${ORACLE:-/usr/sbin/readprofile}
RP_WRAP=
. "$TOP/tests/golden/common.sh"
. "$TOP/tests/libc.sh"

"$ORACLE" -V 2>/dev/null | grep -q util-linux ||
	{ echo "regen: $ORACLE is not util-linux readprofile" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
setup_bindir "$ORACLE"
libc_setup

# record CASEDIR WORKDIR
record() {
	_a=args
	[ -f "$1/oracle-args" ] && _a=oracle-args
	rc=$(run_case "$1" "$2" "$TMP/out" "$1/expected.err" "$_a")
	[ -f "$1/extra.err" ] && cat "$1/extra.err" >>"$1/expected.err"
	echo "$rc" > "$1/expected.rc"
	# texts from the C library are taken from the platform at test time
	ARGS=$(cat "$1/args")
	libc_generalize "$1/expected.err"
	rm -f "$1/expected.out" "$1/expected.out.gz"
	if [ "$(wc -c < "$TMP/out")" -gt 65536 ]; then
		gzip -n -9 -c "$TMP/out" > "$1/expected.out.gz"
	else
		cp "$TMP/out" "$1/expected.out"
	fi
	echo "$(basename "$1"): exit $rc"
}

build_profiles "$TOP/fixtures/inputs"
for d in "$TOP"/fixtures/cases/*/ "$TOP"/fixtures/cases-ours/*/; do
	build_profiles "${d%/}"
done
# record_oracle CASEDIR: stdout and status of `oracle-args`; stderr stays.
record_oracle() {
	rc=$(run_case "$1" "$1" "$TMP/out" "$TMP/err" oracle-args)
	echo "$rc" > "$1/expected.rc"
	cp "$TMP/out" "$1/expected.out"
	echo "$(basename "$1"): exit $rc (oracle-args)"
}

for d in "$TOP"/fixtures/cases-ours/*/; do
	[ -f "$d/oracle-args" ] && record_oracle "${d%/}"
done
if [ $# -gt 0 ]; then
	for n; do
		record "$TOP/fixtures/cases/$n" "$TOP/fixtures/cases/$n"
	done
	exit 0
fi
for d in "$TOP"/fixtures/cases/*/; do
	record "${d%/}" "${d%/}"
done
mkdir "$TMP/real"
gzip -dc "$TOP/fixtures/real/profile.gz" > "$TMP/real/profile"
gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$TMP/real/kallsyms"
for d in "$TOP"/fixtures/real/golden/*/; do
	record "${d%/}" "$TMP/real"
done
for a in "$TOP"/fixtures/arch/*/; do
	a=${a%/}
	unpack_capture "$a" "$TMP/arch/${a##*/}" || exit 1
	for d in "$a"/golden/*/; do
		record "${d%/}" "$TMP/arch/${a##*/}"
	done
	rm -rf "$TMP/arch/${a##*/}"
done
# the current kernel: util-linux on the map with its lines cut to its length
unpack_capture "$TOP/fixtures/real-7.2" "$TMP/real-7.2" &&
	cut_map "$TMP/real-7.2/kallsyms" "$TMP/real-7.2/kallsyms.cut" || exit 1
for d in "$TOP"/fixtures/real-7.2/golden/*/; do
	record "${d%/}" "$TMP/real-7.2"
done
