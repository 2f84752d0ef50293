#!/bin/sh
# repro.sh - reproducibility of the tarball and of the build.
#
#   sh tools/repro.sh        (make check-repro; needs a git checkout)
#
# (a) two make dist runs, a second apart, give the same bytes;
# (b) the tarball unpacked in two directories of different names and
#     depths builds the same binary, byte for byte.
# Prints `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
MAKE=${MAKE:-make}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
pass=0
fail=0
verdict() {
	if [ -z "$bad" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1:$bad"
	fi
}
V=$(cat "$TOP/VERSION")
mkdir "$T/1" "$T/2"
sh "$TOP/tools/dist.sh" "$V" "$T/1" >/dev/null 2>&1 || { echo "repro: make dist failed" >&2; exit 1; }
sleep 1
sh "$TOP/tools/dist.sh" "$V" "$T/2" >/dev/null 2>&1 || { echo "repro: make dist failed" >&2; exit 1; }
bad=
cmp -s "$T/1/readprofile-$V.tar.gz" "$T/2/readprofile-$V.tar.gz" || bad=" tarballs differ;"
verdict "(a) make dist twice: identical tarballs"

bad=
A=$T/a
B=$T/some/much/longer/build-path
mkdir -p "$A" "$B"
for d in "$A" "$B"; do
	tar -xzf "$T/1/readprofile-$V.tar.gz" -C "$d"
	env -u MAKEFLAGS -u MFLAGS $MAKE -C "$d/readprofile-$V" --no-print-directory \
	    REPRO=1 > "$d/log" 2>&1 || { bad="$bad build in $d failed;"; cat "$d/log"; }
done
cmp -s "$A/readprofile-$V/readprofile" "$B/readprofile-$V/readprofile" ||
	bad="$bad binaries differ;"
verdict "(b) two build paths: identical binaries"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
