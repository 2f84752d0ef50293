#!/bin/sh
# exact-moved.sh - what --exact changes on the bundled capture
# (fixtures/real): at its own step (4), and merged to step 16, which is what
# a profile=4 boot would have recorded (proftool rebin).  Prints, for each
# step, the ticks that the classic report puts under another function than
# --exact does, and the largest changes.  These are the figures of the
# README and the man page.
#
#   make readprofile build/tests/proftool
#   sh tests/extensions/exact-moved.sh [READPROFILE [PROFTOOL]]
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RP=${1:-$TOP/readprofile}
PT=${2:-${PROFTOOL:-$TOP/build/tests/proftool}}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM

gzip -dc "$TOP/fixtures/real/profile.gz" > "$TMP/p4" &&
    gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$TMP/map" &&
    "$PT" rebin 4 "$TMP/p4" "$TMP/p16" || exit 1
for s in 4 16; do
	"$RP" -a -p "$TMP/p$s" -m "$TMP/map" > "$TMP/classic" &&
	    "$RP" --exact -a -p "$TMP/p$s" -m "$TMP/map" > "$TMP/exact" || exit 1
	# Both list the same functions in the same order: pair the lines.
	paste -d' ' "$TMP/classic" "$TMP/exact" | awk -v step="$s" '
		$2 == "*unknown*" && $4 == "*unknown*" { next }
		$2 != $5 { print "unpaired lines: " $0; bad = 1; exit 1 }
		$2 == "total" { total = $1; next }
		{ d = $4 - $1 }
		d > 0 { moved += d }
		d != 0 { n++; line[n] = (d < 0 ? -d : d) " " $2 " " $1 " -> " $4 }
		END {
			if (bad)
				exit 1
			printf "step %d: %d of %d ticks (%.1f%%) under another function, in %d functions\n",
			    step, moved, total, 100 * moved / total, n
			for (i = 1; i <= n; i++) print line[i] | "sort -k1,1rn -k2 | head -n 4 | cut -d\" \" -f2-"
		}' | sed '2,$s/^/  /'
done
