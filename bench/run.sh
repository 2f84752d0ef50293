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
#   BENCH_SCALING_RUNS=N  timed runs per program and size in the scaling
#                       table (default 5)
#   BENCH_NO_SCALING=1  leave out the scaling table (and its 4x input)
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
# dense DIR SCALE: the dense input (bench/gen.c ... dense) at SCALE in DIR
dense() {
	stamp="gen $(cksum < bench/gen.c) scale $2 dense"
	if [ ! -f "$1/stamp" ] || [ "$(cat "$1/stamp")" != "$stamp" ] ||
	   [ ! -f "$1/profile" ] || [ ! -f "$1/kallsyms" ]; then
		echo "bench: generating the dense input in $1 (scale $2) ..." >&2
		rm -rf "$1"
		mkdir -p "$1"
		"$TOOLS/gen" "$1" "$2" dense
		echo "$stamp" > "$1/stamp"
	fi
}
DENSE=$DATA/dense-1
dense "$DENSE" 1
SCALES="0.25 1 4"
if [ "${BENCH_NO_SCALING:-0}" = 1 ]; then
	SCALES=
fi
for x in $SCALES; do
	[ "$x" = 1 ] || dense "$DATA/dense-$x" "$x"
done
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

# run_case NAME GOAL_RATIO GOAL_CAT_RATIO GOAL_RSS_KIB PROFILE MAP [OPTION...]
# Ours and util-linux, and `cat PROFILE MAP`, interleaved.  With REF=classic
# (for --exact, which util-linux lacks) the reference is ours without
# --exact, and the outputs are not compared.
run_case() {
	name=$1 goal=$2 catgoal=$3 rssgoal=$4 prof=$5 map=$6
	shift 6
	T=$OUTD/$(echo "$name" | tr -c 'a-z0-9\n' '-' | tr -s '-')	# large-default, ...
	rm -f "$T".*
	echo "bench: $name ..." >&2
	REFBIN=$THEIRS
	if [ "${REF:-}" = classic ]; then
		REFBIN=$OURS
		refargs=
		for a; do [ "$a" = --exact ] || refargs="$refargs $a"; done
	fi

	# Same output?  (also the warm-up run of each program)
	"$TIMEIT" -o "$T.ours.out" -e "$T.ours.err" "$OURS" "$@" -p "$prof" -m "$map" > "$T.ours.st"
	if [ "${REF:-}" = classic ]; then
		# shellcheck disable=SC2086 # refargs: options without --exact
		"$TIMEIT" -o "$T.theirs.out" -e "$T.theirs.err" "$OURS" $refargs -p "$prof" -m "$map" > "$T.theirs.st"
	else
		"$TIMEIT" -o "$T.theirs.out" -e "$T.theirs.err" "$THEIRS" "$@" -p "$prof" -m "$map" > "$T.theirs.st"
	fi
	rc_o=$(cut -d' ' -f3 < "$T.ours.st")
	rc_t=$(cut -d' ' -f3 < "$T.theirs.st")
	same=OK
	if [ "$rc_o" != "$rc_t" ]; then
		same="DIFF(exit $rc_o/$rc_t)"
	elif [ "${REF:-}" = classic ]; then
		same="n/a(--exact)"
	elif ! cmp -s "$T.ours.out" "$T.theirs.out"; then
		same="DIFF(stdout)"
	elif ! cmp -s "$T.ours.err" "$T.theirs.err"; then
		same="DIFF(stderr)"
	fi
	case $same in DIFF*) FAILED=1 ;; esac
	lines=$(wc -l < "$T.ours.out" | tr -d ' ')
	EXPECT_RC=$rc_t

	# Interleaved timed runs; the order rotates so that no program
	# always runs first.
	i=1
	while [ "$i" -le "$RUNS" ]; do
		case $((i % 3)) in
		1) order="ours theirs cat" ;;
		2) order="theirs cat ours" ;;
		0) order="cat ours theirs" ;;
		esac
		for who in $order; do
			case $who in
			ours) timed ours "$OURS" "$@" -p "$prof" -m "$map" ;;
			theirs)
				if [ "${REF:-}" = classic ]; then
					# shellcheck disable=SC2086
					timed theirs "$OURS" $refargs -p "$prof" -m "$map"
				else
					timed theirs "$THEIRS" "$@" -p "$prof" -m "$map"
				fi ;;
			cat)
				rc_keep=$EXPECT_RC
				EXPECT_RC=0
				timed cat cat "$prof" "$map"
				EXPECT_RC=$rc_keep ;;
			esac
		done
		i=$((i + 1))
	done
	to=$(median "$T.ours.time")
	tt=$(median "$T.theirs.time")
	tc=$(median "$T.cat.time")
	co=$(median "$T.ours.cpu")
	ct=$(median "$T.theirs.cpu")
	ro=$(maximum "$T.ours.rss")
	rt=$(maximum "$T.theirs.rss")

	instr=n/a
	instr_t=-
	if [ "$HAVE_VG" = yes ]; then
		instr=$(instructions "$T.ours" "$OURS" "$@" -p "$prof" -m "$map")
		if [ "$BENCH_CALLGRIND" = 2 ] && [ "${REF:-}" != classic ]; then
			instr_t=$(instructions "$T.theirs" "$THEIRS" "$@" -p "$prof" -m "$map")
		fi
	fi

	echo "$name|$*|$same|$lines|$to|$tt|$goal|$ro|$rt|$rssgoal|$instr|$co|$ct|$instr_t|$tc|$catgoal|${REF:-util}" >> "$RESULTS"
}

# scaling X RUNS: the dense input at scale X, default report: seconds per
# MB of input (profile + map) for ours, util-linux and cat, medians of RUNS
# interleaved runs; a line in $SCALING
scaling() {
	d=$DATA/dense-$1
	T=$OUTD/scaling-$1
	rm -f "$T".*
	echo "bench: scaling $1 ..." >&2
	EXPECT_RC=0
	"$TIMEIT" "$OURS" -p "$d/profile" -m "$d/kallsyms" > /dev/null
	i=1
	while [ "$i" -le "$2" ]; do
		timed ours "$OURS" -p "$d/profile" -m "$d/kallsyms"
		timed theirs "$THEIRS" -p "$d/profile" -m "$d/kallsyms"
		timed cat cat "$d/profile" "$d/kallsyms"
		i=$((i + 1))
	done
	mb=$(($(wc -c < "$d/profile") + $(wc -c < "$d/kallsyms")))
	echo "$1|$mb|$(median "$T.ours.time")|$(median "$T.theirs.time")|$(median "$T.cat.time")|$(maximum "$T.ours.rss")|$(median "$T.ours.cpu")|$(median "$T.theirs.cpu")" >> "$SCALING"
}

KIB8=8192
run_case "large default" 0.20 - "$KIB8" "$LARGE/profile" "$LARGE/kallsyms"
run_case "large -a"      0.25 - "$KIB8" "$LARGE/profile" "$LARGE/kallsyms" -a
run_case "dense default" 0.10 2 "$KIB8" "$DENSE/profile" "$DENSE/kallsyms"
run_case "dense -a"      0.12 - "$KIB8" "$DENSE/profile" "$DENSE/kallsyms" -a
run_case "dense -s"      0.12 - "$KIB8" "$DENSE/profile" "$DENSE/kallsyms" -s
REF=classic
run_case "dense --exact" 1.10 - "$KIB8" "$DENSE/profile" "$DENSE/kallsyms" --exact
REF=
run_case "real -a"       0.33 - -       "$REAL/profile" "$REAL/kallsyms" -a
run_case "real default"  -    - -       "$REAL/profile" "$REAL/kallsyms"
SCALING=$OUTD/scaling
: > "$SCALING"
for x in $SCALES; do
	scaling "$x" "${BENCH_SCALING_RUNS:-5}"
done

# ---- report ---------------------------------------------------------------
between() {	# number of map lines between _stext and _etext
	awk '$3 == "_stext" { f = 1; next } $3 == "_etext" { exit } f { n++ } END { print n + 0 }' "$1"
}
psize=$(wc -c < "$LARGE/profile" | tr -d ' ')
msize=$(wc -c < "$LARGE/kallsyms" | tr -d ' ')
dpsize=$(wc -c < "$DENSE/profile" | tr -d ' ')
dmsize=$(wc -c < "$DENSE/kallsyms" | tr -d ' ')
echo
echo "readprofile benchmark: $RUNS interleaved runs per program and case, output to /dev/null"
echo "ours:   ${OURS#"$TOP"/} ($("$OURS" -V 2>&1 | head -n 1))"
echo "theirs: ${THEIRS#"$TOP"/} ($("$THEIRS" -V 2>&1 | head -n 1))"
echo "large:  bench/gen.c, scale $SCALE: $(between "$LARGE/kallsyms") symbols between _stext and _etext,"
echo "        profile $psize bytes, map $msize bytes"
echo "dense:  bench/gen.c, scale 1, dense: $(between "$DENSE/kallsyms") symbols, one counter in 50 non-zero,"
echo "        profile $dpsize bytes, map $dmsize bytes"
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
	printf "%-14s %7s %8s %8s %8s %7s %7s %4s %6s %6s %4s %6s  %s\n", "case", "lines",
		"ours ms", "ref ms", "cat ms", "ratio", "goal", "met", "/cat", "goal", "met",
		"cpu", "output"
	missed = 0
}
{
	name[NR] = $1; ro[NR] = $8; rt[NR] = $9; rg[NR] = $10; ins[NR] = $11; inst[NR] = $14
	to = $5; tt = $6; goal = $7; co = $12; ct = $13; tc = $15; cg = $16
	ratio = tt > 0 ? to / tt : 0
	cr = tc > 0 ? to / tc : 0
	met = "-"
	if (goal != "-") { met = ratio <= goal + 0 ? "yes" : "NO"; if (met == "NO") missed++ }
	cmet = "-"
	if (cg != "-") { cmet = cr <= cg + 0 ? "yes" : "NO"; if (cmet == "NO") missed++ }
	printf "%-14s %7s %8.2f %8.2f %8.2f %7.3f %7s %4s %6.2f %6s %4s %6.3f  %s%s\n", $1, $4,
		to * 1000, tt * 1000, tc * 1000, ratio, goal == "-" ? "-" : "<=" goal, met,
		cr, cg == "-" ? "-" : "<=" cg, cmet, (ct > 0 ? co / ct : 0), $3,
		$17 == "classic" ? " (ref: ours, classic)" : ""
	n = NR
}
END {
	printf "\n%-14s %10s %10s %10s %4s %16s %16s\n", "case", "ours RSS", "ref RSS", "RSS goal", "met",
		"ours instr", "util instr"
	for (i = 1; i <= n; i++) {
		met = "-"
		if (rg[i] != "-") { met = ro[i] + 0 <= rg[i] + 0 ? "yes" : "NO"; if (met == "NO") missed++ }
		printf "%-14s %10s %10s %10s %4s %16s %16s\n", name[i], mib(ro[i]), mib(rt[i]),
			rg[i] == "-" ? "-" : "<=" mib(rg[i]), met, grp(ins[i]), grp(inst[i])
	}
	print missed > missed_file
}' "$RESULTS"
if [ -s "$SCALING" ]; then
	echo
	echo "scaling: the dense input at each scale, default report, ${BENCH_SCALING_RUNS:-5} interleaved runs"
	awk -F'|' -v missed_file="$OUTD/missed2" '
	BEGIN {
		printf "%-6s %9s %9s %9s %9s %10s %10s %9s %10s %10s %10s %4s\n", "scale", "input MB",
			"ours ms", "util ms", "cat ms", "ours ms/MB", "util ms/MB", "cat ms/MB",
			"ours cpu/MB", "util cpu/MB", "ours RSS", "met"
		missed = 0
	}
	{
		mb = $2 / 1e6
		met = $6 + 0 <= 8192 ? "yes" : "NO"
		if (met == "NO") missed++
		printf "%-6s %9.1f %9.2f %9.2f %9.2f %10.4f %10.4f %9.4f %10.4f %10.4f %6.1f MiB %4s\n", $1 "x", mb,
			$3 * 1000, $4 * 1000, $5 * 1000, $3 * 1000 / mb, $4 * 1000 / mb, $5 * 1000 / mb,
			$7 * 1000 / mb, $8 * 1000 / mb, $6 / 1024, met
	}
	END { print missed > missed_file }' "$SCALING"
	MISSED2=$(cat "$OUTD/missed2")
else
	MISSED2=0
fi
MISSED=$(($(cat "$OUTD/missed") + MISSED2))
# symbols straight from a vmlinux-sized ELF file against nm (bench/elf.sh)
if ! BENCH_OURS=$OURS BENCH_RUNS=$RUNS sh bench/elf.sh; then
	[ "${BENCH_STRICT:-0}" = 1 ] && MISSED=$((MISSED + 1))
	FAILED=1
fi
echo
echo "lines: lines of our report; ms: median wall time; cpu/MB: median user+system ms per MB; ref: util-linux (for --exact: ours, classic"
echo "report); cat: cat of the two inputs; ratio: ours / ref; /cat: ours / cat; cpu: the ratio of the"
echo "median user+system times; output: OK when stdout, stderr and exit status are identical;"
echo "RSS: peak resident set size, max over the runs (goal: <= 8 MiB); instr: instructions (Ir) of one"
echo "run under callgrind (profiles kept in ${OUTD#"$TOP"/}/*.callgrind, for callgrind_annotate)."
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
