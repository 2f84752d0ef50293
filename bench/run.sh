#!/bin/sh
# bench/run.sh - side-by-side benchmark of ./readprofile against util-linux.
#
# Usage: sh bench/run.sh          (or: make bench)
#
# Environment:
#   BENCH_RUNS=N        timed runs per program and case (default 11)
#   BENCH_OURS=PATH     binary under test (default ./readprofile)
#   BENCH_THEIRS=PATH   reference binary (default /usr/sbin/readprofile)
#   BENCH_SCALE=X       size of the generated input (default 1: 500,000 symbols)
#   BENCH_CALLGRIND=N   instruction counts under valgrind: 0 none, 1 ours
#                       (default), 2 ours and theirs
#   BENCH_STRICT=1      exit 1 when a goal is missed, not only on a difference
#   CC                  compiler for the helpers (default cc)
#
# The helpers are built into build/bench/, the inputs cached in
# build/bench-data/ (the large one is regenerated only when missing or when
# bench/gen.c or the scale changed).  Exit status: 0 when every output
# matched, 1 otherwise (or when a goal was missed, with BENCH_STRICT=1).
set -eu

cd "$(dirname "$0")/.."
TOP=$(pwd)
RUNS=${BENCH_RUNS:-11}
OURS=${BENCH_OURS:-$TOP/readprofile}
THEIRS=${BENCH_THEIRS:-/usr/sbin/readprofile}
SCALE=${BENCH_SCALE:-1}
CC=${CC:-cc}
TOOLS=$TOP/build/bench
DATA=$TOP/build/bench-data

case $RUNS in
''|*[!0-9]*|0) echo "bench: BENCH_RUNS must be a positive number" >&2; exit 2 ;;
esac
for b in "$OURS" "$THEIRS"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b: not found or not executable" >&2
		exit 2
	fi
done
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac

mkdir -p "$TOOLS" "$DATA"

# ---- helpers --------------------------------------------------------------
newer() {	# is file $1 newer than file $2?  (POSIX sh has no test -nt)
	[ -n "$(find "$1" -newer "$2" 2>/dev/null)" ]
}
build() {	# build SOURCE BINARY
	if [ ! -x "$2" ] || newer "$1" "$2"; then
		$CC -std=c11 -O2 -Wall -Wextra -o "$2" "$1"
	fi
}
build bench/gen.c "$TOOLS/gen"
build bench/timeit.c "$TOOLS/timeit"
TIMEIT=$TOOLS/timeit

# ---- inputs ---------------------------------------------------------------
LARGE=$DATA/large
stamp="gen $(cksum < bench/gen.c) scale $SCALE"
if [ ! -f "$LARGE/stamp" ] || [ "$(cat "$LARGE/stamp")" != "$stamp" ] ||
   [ ! -f "$LARGE/profile" ] || [ ! -f "$LARGE/kallsyms" ]; then
	echo "bench: generating the large input in $LARGE (scale $SCALE) ..." >&2
	rm -rf "$LARGE"
	mkdir -p "$LARGE"
	"$TOOLS/gen" "$LARGE" "$SCALE"
	echo "$stamp" > "$LARGE/stamp"
fi
REAL=$DATA/real
mkdir -p "$REAL"
for f in profile kallsyms; do
	if [ ! -f "$REAL/$f" ] || newer "fixtures/real/$f.gz" "$REAL/$f"; then
		gzip -dc "fixtures/real/$f.gz" > "$REAL/$f.tmp"
		mv "$REAL/$f.tmp" "$REAL/$f"
	fi
done

# ---- measuring ------------------------------------------------------------
OUTD=$DATA/out
mkdir -p "$OUTD"
BENCH_CALLGRIND=${BENCH_CALLGRIND:-1}
HAVE_VG=no
if [ "$BENCH_CALLGRIND" != 0 ]; then
	if command -v valgrind > /dev/null 2>&1; then
		HAVE_VG=yes
	else
		echo "bench: valgrind not found: no instruction counts" >&2
	fi
fi

median() {	# median of the numbers in file $1
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
maximum() {
	sort -n "$1" | tail -n 1
}

# instructions PREFIX BINARY ARGS... : instructions executed (Ir) in one run
# under callgrind; the profile is kept in PREFIX.callgrind for
# callgrind_annotate.
instructions() {
	p=$1
	shift
	if valgrind --tool=callgrind --callgrind-out-file="$p.callgrind" \
	    "$@" > /dev/null 2> "$p.callgrind.log"; then
		awk '/^(summary|totals):/ { print $2; exit }' "$p.callgrind"
	else
		echo failed
	fi
}

# timed WHO BINARY ARGS... : one run, output to /dev/null; appends to $T.WHO.*
timed() {
	who=$1
	shift
	r=$("$TIMEIT" -e "$OUTD/timed.err" "$@") || r=
	if [ -z "$r" ]; then
		echo "bench: $who: could not be run" >&2
		exit 1
	fi
	# shellcheck disable=SC2086 # split into its fields
	set -- $r
	if [ "$3" != "$EXPECT_RC" ]; then
		echo "bench: $who: exit status $3 in a timed run (expected $EXPECT_RC)" >&2
		FAILED=1
	fi
	echo "$1" >> "$T.$who.time"
	echo "$2" >> "$T.$who.rss"
	echo "$4" >> "$T.$who.cpu"
}

FAILED=0
MISSED=0
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
RESULTS=$OUTD/results
: > "$RESULTS"

# run_case NAME GOAL_RATIO GOAL_RSS_KIB PROFILE MAP [OPTION...]
run_case() {
	name=$1 goal=$2 rssgoal=$3 prof=$4 map=$5
	shift 5
	T=$OUTD/$(echo "$name" | tr -c 'a-z0-9\n' '-' | tr -s '-')	# large-default, ...
	rm -f "$T".*
	echo "bench: $name ..." >&2

	# Same output?  (also the warm-up run of each program)
	"$TIMEIT" -o "$T.ours.out" -e "$T.ours.err" "$OURS" "$@" -p "$prof" -m "$map" > "$T.ours.st"
	"$TIMEIT" -o "$T.theirs.out" -e "$T.theirs.err" "$THEIRS" "$@" -p "$prof" -m "$map" > "$T.theirs.st"
	rc_o=$(cut -d' ' -f3 < "$T.ours.st")
	rc_t=$(cut -d' ' -f3 < "$T.theirs.st")
	same=OK
	if [ "$rc_o" != "$rc_t" ]; then
		same="DIFF(exit $rc_o/$rc_t)"
	elif ! cmp -s "$T.ours.out" "$T.theirs.out"; then
		same="DIFF(stdout)"
	elif ! cmp -s "$T.ours.err" "$T.theirs.err"; then
		same="DIFF(stderr)"
	fi
	[ "$same" = OK ] || FAILED=1
	lines=$(wc -l < "$T.theirs.out" | tr -d ' ')
	EXPECT_RC=$rc_t

	# Interleaved timed runs; the order alternates so that neither program
	# always runs first.
	i=1
	while [ "$i" -le "$RUNS" ]; do
		if [ $((i % 2)) = 1 ]; then
			timed ours "$OURS" "$@" -p "$prof" -m "$map"
			timed theirs "$THEIRS" "$@" -p "$prof" -m "$map"
		else
			timed theirs "$THEIRS" "$@" -p "$prof" -m "$map"
			timed ours "$OURS" "$@" -p "$prof" -m "$map"
		fi
		i=$((i + 1))
	done
	to=$(median "$T.ours.time")
	tt=$(median "$T.theirs.time")
	co=$(median "$T.ours.cpu")
	ct=$(median "$T.theirs.cpu")
	ro=$(maximum "$T.ours.rss")
	rt=$(maximum "$T.theirs.rss")

	instr=n/a
	instr_t=-
	if [ "$HAVE_VG" = yes ]; then
		instr=$(instructions "$T.ours" "$OURS" "$@" -p "$prof" -m "$map")
		if [ "$BENCH_CALLGRIND" = 2 ]; then
			instr_t=$(instructions "$T.theirs" "$THEIRS" "$@" -p "$prof" -m "$map")
		fi
	fi

	echo "$name|$*|$same|$lines|$to|$tt|$goal|$ro|$rt|$rssgoal|$instr|$co|$ct|$instr_t" >> "$RESULTS"
}

KIB8=8192
run_case "large default" 0.20 "$KIB8" "$LARGE/profile" "$LARGE/kallsyms"
run_case "large -a"      0.25 "$KIB8" "$LARGE/profile" "$LARGE/kallsyms" -a
run_case "real -a"       0.33 -       "$REAL/profile" "$REAL/kallsyms" -a
run_case "real default"  -    -       "$REAL/profile" "$REAL/kallsyms"

# ---- report ---------------------------------------------------------------
between() {	# number of map lines between _stext and _etext
	awk '$3 == "_stext" { f = 1; next } $3 == "_etext" { exit } f { n++ } END { print n + 0 }' "$1"
}
psize=$(wc -c < "$LARGE/profile" | tr -d ' ')
msize=$(wc -c < "$LARGE/kallsyms" | tr -d ' ')
echo
echo "readprofile benchmark: $RUNS interleaved runs per program and case, output to /dev/null"
echo "ours:   ${OURS#"$TOP"/} ($("$OURS" -V 2>&1 | head -n 1))"
echo "theirs: ${THEIRS#"$TOP"/} ($("$THEIRS" -V 2>&1 | head -n 1))"
echo "large:  bench/gen.c, scale $SCALE: $(between "$LARGE/kallsyms") symbols between _stext and _etext,"
echo "        profile $psize bytes, map $msize bytes"
echo "real:   fixtures/real: $(between "$REAL/kallsyms") symbols between _stext and _etext"
echo "host:   $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs," \
	"load average $LOAD0 before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') after"
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if awk -v l="${LOAD0%% *}" -v n="$ncpu" 'BEGIN { exit !(l + 0 >= n + 0) }'; then
	echo "note:   the load average was at least the number of CPUs: the wall times are noisy"
fi
echo
awk -F'|' -v missed_file="$OUTD/missed" '
function mib(k) { return sprintf("%.1f MiB", k / 1024) }
function grp(n,   s) {	# 1234567 -> 1,234,567
	if (n !~ /^[0-9]+$/) return n
	s = ""
	while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }
	return n s
}
BEGIN {
	printf "%-14s %7s %9s %9s %7s %7s %4s %9s  %s\n", "case", "lines",
		"ours ms", "util ms", "ratio", "goal", "met", "cpu ratio", "output"
	missed = 0
}
{
	name[NR] = $1; ro[NR] = $8; rt[NR] = $9; rg[NR] = $10; ins[NR] = $11; inst[NR] = $14
	to = $5; tt = $6; goal = $7; co = $12; ct = $13
	ratio = tt > 0 ? to / tt : 0
	met = "-"
	if (goal != "-") { met = ratio <= goal + 0 ? "yes" : "NO"; if (met == "NO") missed++ }
	printf "%-14s %7s %9.2f %9.2f %7.3f %7s %4s %9.3f  %s\n", $1, $4, to * 1000, tt * 1000,
		ratio, goal == "-" ? "-" : "<=" goal, met, (ct > 0 ? co / ct : 0), $3
	n = NR
}
END {
	printf "\n%-14s %10s %10s %10s %4s %16s %16s\n", "case", "ours RSS", "util RSS", "RSS goal", "met",
		"ours instr", "util instr"
	for (i = 1; i <= n; i++) {
		met = "-"
		if (rg[i] != "-") { met = ro[i] + 0 <= rg[i] + 0 ? "yes" : "NO"; if (met == "NO") missed++ }
		printf "%-14s %10s %10s %10s %4s %16s %16s\n", name[i], mib(ro[i]), mib(rt[i]),
			rg[i] == "-" ? "-" : "<=" mib(rg[i]), met, grp(ins[i]), grp(inst[i])
	}
	print missed > missed_file
}' "$RESULTS"
MISSED=$(cat "$OUTD/missed")
# symbols straight from a vmlinux-sized ELF file against nm (bench/elf.sh)
if ! BENCH_OURS=$OURS BENCH_RUNS=$RUNS sh bench/elf.sh; then
	[ "${BENCH_STRICT:-0}" = 1 ] && MISSED=$((MISSED + 1))
	FAILED=1
fi
echo
echo "lines: lines of the report; ms: median wall time; ratio: ours / util-linux; cpu ratio: the same"
echo "for the median user+system time; output: OK when stdout, stderr and exit status are identical;"
echo "RSS: peak resident set size, max over the runs; instr: instructions (Ir) of one run under callgrind"
echo "(profiles kept in ${OUTD#"$TOP"/}/*.callgrind, for callgrind_annotate)."
if [ "$FAILED" != 0 ]; then
	echo "RESULT: outputs differ or a program failed (outputs kept in ${OUTD#"$TOP"/})"
	exit 1
fi
if [ "$MISSED" != 0 ]; then
	echo "RESULT: all outputs identical; $MISSED goal(s) missed"
	[ "${BENCH_STRICT:-0}" = 1 ] && exit 1
	exit 0
fi
echo "RESULT: all outputs identical; all goals met"
