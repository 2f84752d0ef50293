#!/bin/sh
# floors.sh - what reading a profile whole costs, by the memory it is read
# into (bench/floor.c: fresh, populate, huge, mapped), beside cat of the
# same two inputs and readprofile's default report, in interleaved rounds.
#
#   sh bench/floors.sh [CASE...]
#
# CASE is an input that bench/run.sh made in build/bench-data/ (default:
# real dense-1; run `make bench`, or bench/run.sh with those cases, first).
# Prints, for each case and program (by name), the median, least and largest CPU time
# (user + system) of the rounds.
#   BENCH_RUNS   rounds (default 15)
#   BENCH_PIN    a processor: every program run on it alone (timeit -c)
#   BENCH_OURS   binary under test (default ./readprofile)
#   CC           compiler of the helpers (default cc)
set -eu
cd "$(dirname "$0")/.."
RUNS=${BENCH_RUNS:-15}
OURS=${BENCH_OURS:-./readprofile}
TOOLS=build/bench
mkdir -p "$TOOLS"
for t in floor timeit; do	# as bench/run.sh builds them
	[ "$TOOLS/$t" -nt "bench/$t.c" ] ||
	    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$TOOLS/$t" "bench/$t.c"
done
set -- ${@:-real dense-1}
pin=
[ -n "${BENCH_PIN:-}" ] && pin="-c $BENCH_PIN"
for c in "$@"; do
	P=build/bench-data/$c/profile
	M=build/bench-data/$c/kallsyms
	[ -f "$P" ] && [ -f "$M" ] || { echo "floors.sh: no $P or $M" >&2; exit 1; }
	echo "$c: profile $(wc -c < "$P") bytes, map $(wc -c < "$M") bytes," \
	    "$RUNS rounds${pin:+, pinned ($pin)}; CPU ms"
	i=0
	while [ $i -lt "$RUNS" ]; do
		for m in fresh populate huge mapped; do
			echo "$m $("$TOOLS/timeit" $pin "$TOOLS/floor" "$P" "$M" $m)"
		done
		echo "cat $("$TOOLS/timeit" $pin cat "$P" "$M")"
		echo "readprofile $("$TOOLS/timeit" $pin "$OURS" -p "$P" -m "$M")"
		i=$((i + 1))
	done | awk '{ print $1, $5 * 1000 }' | sort -k1,1 -k2g | awk '
	function row() { if (n) printf "  %-12s %8.2f %8.2f %8.2f\n", name,
	    v[int((n + 1) / 2)], v[1], v[n] }
	NR == 1 { printf "  %-12s %8s %8s %8s\n", "", "median", "least", "largest" }
	$1 != name { row(); name = $1; n = 0 }
	{ v[++n] = $2 }
	END { row() }'
done
