#!/bin/sh
# bench/run.sh - ./readprofile against util-linux's readprofile, cat and
# the floor of one read (bench/floor.c): CPU time, wall time and peak
# memory (make bench).
#
# Usage: sh bench/run.sh          (or: make bench)
#
# Environment:
#   BENCH_RUNS=N        timed runs of each program, case and mode (default 5;
#                       three times as many for the quick real-default and
#                       real-a, whose goal is the closest to the figures)
#   BENCH_FILE_RUNS=N   the same for the cases whose report goes to a file
#                       (default 3: they are there for the peak RSS)
#   BENCH_CASES="..."   cases to run, by name (default: all; see CASES below)
#   BENCH_MODES="..."   pinned (the default: the goals are set pinned to
#                       one processor), unpinned, or both; every goal must
#                       hold in each mode run
#   BENCH_PIN_CPU=N     the processor of the pinned runs (default 0)
#   BENCH_PIN_WITH=W    how a run is pinned: affinity (default: timeit sets
#                       the affinity itself before exec: the command's cost
#                       alone) or taskset (`taskset -c N COMMAND`, taskset's
#                       own start counted as part of the run, as when a
#                       user types it)
#   BENCH_OURS=PATH     binary under test (default ./readprofile)
#   BENCH_THEIRS=PATH   reference binary (default /usr/sbin/readprofile)
#   BENCH_SCALE=X       size of the generated "large" input (default 1)
#   BENCH_SCALING=1     also the scaling table (dense input at 0.25, 1, 4x)
#   BENCH_SCALING_RUNS=N  timed runs per program and size in it (default 5)
#   BENCH_CALLGRIND=N   instruction counts under valgrind: 0 none (default),
#                       1 ours, 2 ours and theirs
#   BENCH_STRICT=0      exit 0 even when a goal is missed
#   CC                  compiler for the helpers (default cc)
#
# Exit status: 0 when every output matched and every goal was met; 1 when
# an output differed or a program failed; 2 on a usage error; 3 when a
# goal was missed (0 with BENCH_STRICT=0).  The last line, RESULT, says
# the same and names each goal missed.
set -eu

cd "$(dirname "$0")/.."
TOP=$(pwd)
RUNS=${BENCH_RUNS:-5}
FILE_RUNS=${BENCH_FILE_RUNS:-3}
OURS=${BENCH_OURS:-$TOP/readprofile}
THEIRS=${BENCH_THEIRS:-/usr/sbin/readprofile}
SCALE=${BENCH_SCALE:-1}
MODES=${BENCH_MODES:-pinned}
PIN_CPU=${BENCH_PIN_CPU:-0}
PIN_WITH=${BENCH_PIN_WITH:-affinity}
CC=${CC:-cc}
TOOLS=$TOP/build/bench
DATA=$TOP/build/bench-data
OUTD=$DATA/out

# Every case, in the order run.  Goals (CPU time is user + system, median
# of the runs, ours / the floor of one read of the same two inputs
# (bench/floor.c: the profile read whole into fresh memory, the map read
# through one buffer, nothing parsed), or ours / util-linux; RSS is ours,
# the largest of the runs):
#   real-default   CPU <= 1.6 x the floor     real-a    CPU <= 1.8 x the floor
#   dense-default  CPU <= 2.0 x the floor     dense-a   CPU <= 2.5 x the floor
#   dense-s        CPU <= 0.35 x util-linux (real-s: figures, no goal)
#   dense-exact    CPU <= 1.10 of our classic report (util-linux has no --exact)
#   every case     peak RSS <= the profile's size + 16 MiB
#   elf            bench/elf.sh: its own goals
CASES_ALL="real-default real-a real-s real-as-file dense-default dense-a dense-s dense-s-file dense-exact large-default large-a elf"
CASES=${BENCH_CASES:-$CASES_ALL}

usage_error() {
	echo "bench: $*" >&2
	exit 2
}
for n in "$RUNS" "$FILE_RUNS"; do
	case $n in
	''|*[!0-9]*|0) usage_error "BENCH_RUNS and BENCH_FILE_RUNS must be positive numbers" ;;
	esac
done
case $PIN_CPU in
''|*[!0-9]*) usage_error "BENCH_PIN_CPU must be a processor number" ;;
esac
case $PIN_WITH in
taskset)
	command -v taskset > /dev/null 2>&1 ||
		usage_error "taskset not found (util-linux); BENCH_PIN_WITH=affinity pins without it" ;;
affinity) ;;
*) usage_error "BENCH_PIN_WITH: taskset or affinity" ;;
esac
for m in $MODES; do
	case $m in
	unpinned|pinned) ;;
	*) usage_error "BENCH_MODES: unknown mode '$m' (unpinned, pinned)" ;;
	esac
done
[ -n "$MODES" ] || usage_error "BENCH_MODES is empty"
for c in $CASES; do
	case " $CASES_ALL " in
	*" $c "*) ;;
	*) usage_error "BENCH_CASES: unknown case '$c' (one of: $CASES_ALL)" ;;
	esac
done
wanted() {	# is a case whose name matches the pattern $1 to be run?
	for c in $CASES; do
		# shellcheck disable=SC2254 # $1 is a pattern
		case $c in $1) return 0 ;; esac
	done
	return 1
}
for b in "$OURS" "$THEIRS"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b: not found or not executable" >&2
		exit 2
	fi
done
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac

mkdir -p "$TOOLS" "$DATA" "$OUTD"
# one run at a time in a build directory: two would share their files,
# and each would slow the other down
if ! mkdir "$OUTD/lock" 2>/dev/null; then
	echo "bench: another run is using $OUTD (if none is, remove $OUTD/lock)" >&2
	exit 2
fi
trap 'rmdir "$OUTD/lock"' EXIT
trap 'exit 130' INT TERM

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
build bench/floor.c "$TOOLS/floor"
TIMEIT=$TOOLS/timeit

# ---- inputs ---------------------------------------------------------------
# generated DIR SCALE [dense]: bench/gen.c's input, made again only when
# missing or when gen.c or the scale changed
generated() {
	stamp="gen $(cksum < bench/gen.c) scale $2 ${3:-}"
	if [ ! -f "$1/stamp" ] || [ "$(cat "$1/stamp")" != "$stamp" ] ||
	   [ ! -f "$1/profile" ] || [ ! -f "$1/kallsyms" ]; then
		echo "bench: generating $1 (scale $2 ${3:-}) ..." >&2
		rm -rf "$1"
		mkdir -p "$1"
		"$TOOLS/gen" "$1" "$2" ${3:+"$3"}
		echo "$stamp" > "$1/stamp"
	fi
}
LARGE=$DATA/large
DENSE=$DATA/dense-1
REAL=$DATA/real
wanted 'large-*' && generated "$LARGE" "$SCALE"
wanted 'dense-*' && generated "$DENSE" 1 dense
SCALES=
if [ "${BENCH_SCALING:-0}" = 1 ]; then
	SCALES="0.25 1 4"
	for x in $SCALES; do
		generated "$DATA/dense-$x" "$x" dense
	done
fi
mkdir -p "$REAL"
for f in profile kallsyms; do
	if [ ! -f "$REAL/$f" ] || newer "fixtures/real/$f.gz" "$REAL/$f"; then
		gzip -dc "fixtures/real/$f.gz" > "$REAL/$f.tmp"
		mv "$REAL/$f.tmp" "$REAL/$f"
	fi
done

# ---- measuring ------------------------------------------------------------
BENCH_CALLGRIND=${BENCH_CALLGRIND:-0}
HAVE_VG=no
if [ "$BENCH_CALLGRIND" != 0 ]; then
	if command -v valgrind > /dev/null 2>&1; then
		HAVE_VG=yes
	else
		echo "bench: valgrind not found: no instruction counts" >&2
	fi
fi

# stat_of med|max COLUMN FILE: median or maximum of a column of timeit lines
stat_of() {
	awk -v f="$1" -v c="$2" '{ print $c }' "$3" | sort -n | awk -v f="$1" '
		{ v[NR] = $1 }
		END {
			if (f == "max") print v[NR]
			else if (NR % 2) print v[(NR + 1) / 2]
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
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

# timed WHO MODE OUTFILE EXPECTED_STATUS COMMAND ARGS... : one run of
# COMMAND (pinned to processor $PIN_CPU in mode pinned), its timeit line
# appended to $T.WHO.MODE
timed() {
	who=$1 mode=$2 out=$3 want=$4
	shift 4
	pin=
	if [ "$mode" = pinned ]; then
		if [ "$PIN_WITH" = taskset ]; then
			set -- taskset -c "$PIN_CPU" "$@"
		else
			pin="-c $PIN_CPU"
		fi
	fi
	# shellcheck disable=SC2086 # $pin: the option and its value
	r=$("$TIMEIT" $pin -o "$out" -e "$OUTD/timed.err" "$@") || r=
	if [ -z "$r" ]; then
		echo "bench: $who ($mode): could not be run" >&2
		exit 1
	fi
	case $r in
	*" $want "*) ;;
	*)	echo "bench: $who ($mode): exit status other than $want in a timed run: $r" >&2
		FAILED=1 ;;
	esac
	echo "$r" >> "$T.$who.$mode"
}

FAILED=0
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
RESULTS=$OUTD/results
GOALS=$OUTD/goals
: > "$RESULTS"
: > "$GOALS"

# run_case NAME: one case (see CASES_ALL).  Ours, the reference, `cat
# PROFILE MAP` (reading the inputs once, to /dev/null) and, where the goal
# is against it, the floor of one read (bench/floor.c), in each mode,
# interleaved in an order that rotates from one round to the next, so
# that a slow spell of the machine hits them all.
run_case() {
	name=$1
	cpugoal=- tofile=no ref=util
	case $name in
	real-*)  prof=$REAL/profile  map=$REAL/kallsyms ;;
	dense-*) prof=$DENSE/profile map=$DENSE/kallsyms ;;
	large-*) prof=$LARGE/profile map=$LARGE/kallsyms ;;
	esac
	case $name in
	real-default)  set -- ;              cpugoal=1.6 ref=floor ;;
	real-a)        set -- -a ;           cpugoal=1.8 ref=floor ;;
	real-s)        set -- -s ;;
	real-as-file)  set -- -a -s ;        tofile=yes ;;
	dense-default) set -- ;              cpugoal=2.0 ref=floor ;;
	dense-a)       set -- -a ;           cpugoal=2.5 ref=floor ;;
	dense-s)       set -- -s ;           cpugoal=0.35 ;;
	dense-s-file)  set -- -s ;           tofile=yes ;;
	dense-exact)   set -- --exact ;      cpugoal=1.10 ref=classic ;;
	large-default) set -- ;;
	large-a)       set -- -a ;;
	esac
	T=$OUTD/$name
	rm -f "$T".*
	echo "bench: $name ..." >&2
	# the reference's options: util-linux has no --exact, so that case
	# is measured against our classic report
	refbin=$THEIRS refopt=
	if [ "$ref" = classic ]; then
		refbin=$OURS refopt=
	else
		refopt="$*"
	fi

	# Same output?  (also the warm-up run of each program)
	"$TIMEIT" -o "$T.ours.out" -e "$T.ours.err" "$OURS" "$@" -p "$prof" -m "$map" > "$T.ours.st"
	# shellcheck disable=SC2086 # $refopt: options
	"$TIMEIT" -o "$T.theirs.out" -e "$T.theirs.err" "$refbin" $refopt -p "$prof" -m "$map" > "$T.theirs.st"
	rc_o=$(cut -d' ' -f3 < "$T.ours.st")
	rc_t=$(cut -d' ' -f3 < "$T.theirs.st")
	same=OK
	if [ "$rc_o" != "$rc_t" ]; then
		same="DIFF(exit $rc_o/$rc_t)"
	elif [ "$ref" = classic ]; then
		same="n/a"
	elif ! cmp -s "$T.ours.out" "$T.theirs.out"; then
		same="DIFF(stdout)"
	elif ! cmp -s "$T.ours.err" "$T.theirs.err"; then
		same="DIFF(stderr)"
	fi
	lines=$(wc -l < "$T.ours.out" | tr -d ' ')
	# outputs that differ are kept for a look; the others (up to 600 MB
	# each with -s) are not
	case $same in
	DIFF*) FAILED=1 ;;
	*) rm -f "$T.ours.out" "$T.ours.err" "$T.theirs.out" "$T.theirs.err" ;;
	esac
	out_o=/dev/null out_t=/dev/null runs=$RUNS
	case $name in real-default|real-a) runs=$((RUNS * 3)) ;; esac
	if [ "$tofile" = yes ]; then
		out_o=$T.ours.file out_t=$T.theirs.file runs=$FILE_RUNS
	fi

	entries=
	for m in $MODES; do
		entries="$entries ours:$m theirs:$m cat:$m"
		[ "$ref" = floor ] && entries="$entries floor:$m"
	done
	# shellcheck disable=SC2086
	n=$(set -- $entries; echo $#)
	i=0
	while [ "$i" -lt "$runs" ]; do
		k=0
		while [ "$k" -lt "$n" ]; do
			# shellcheck disable=SC2086
			e=$(set -- $entries; shift $(((i + k) % n)); echo "$1")
			m=${e#*:}
			# shellcheck disable=SC2086 # $refopt: options
			case $e in
			ours:*) timed ours "$m" "$out_o" "$rc_o" "$OURS" "$@" -p "$prof" -m "$map" ;;
			theirs:*) timed theirs "$m" "$out_t" "$rc_t" "$refbin" $refopt -p "$prof" -m "$map" ;;
			cat:*) timed cat "$m" /dev/null 0 cat "$prof" "$map" ;;
			floor:*) timed floor "$m" /dev/null 0 "$TOOLS/floor" "$prof" "$map" ;;
			esac
			k=$((k + 1))
		done
		i=$((i + 1))
	done
	rm -f "$T.ours.file" "$T.theirs.file"

	instr=- instr_t=-
	if [ "$HAVE_VG" = yes ]; then
		instr=$(instructions "$T.ours" "$OURS" "$@" -p "$prof" -m "$map")
		if [ "$BENCH_CALLGRIND" = 2 ] && [ "$ref" != classic ]; then
			instr_t=$(instructions "$T.theirs" "$THEIRS" "$@" -p "$prof" -m "$map")
		fi
	fi

	pkib=$(($(wc -c < "$prof") / 1024))
	for m in $MODES; do
		# wall, cpu, rss of ours, then of the reference, then of cat;
		# then the profile's KiB and the floor's CPU (or -)
		floor=-
		[ -f "$T.floor.$m" ] && floor=$(stat_of med 4 "$T.floor.$m")
		echo "$name|$m|$same|$lines|$cpugoal|$ref|$instr|$instr_t|$(
			for w in ours theirs cat; do
				printf '%s|%s|%s|' "$(stat_of med 1 "$T.$w.$m")" \
				    "$(stat_of med 4 "$T.$w.$m")" "$(stat_of max 2 "$T.$w.$m")"
			done)$pkib|$floor" >> "$RESULTS"
	done
}

# scaling X RUNS: the dense input at scale X, default report, unpinned:
# median ms per MB of input (profile + map) of ours, util-linux and cat
scaling() {
	d=$DATA/dense-$1
	T=$OUTD/scaling-$1
	rm -f "$T".*
	echo "bench: scaling $1 ..." >&2
	"$TIMEIT" "$OURS" -p "$d/profile" -m "$d/kallsyms" > /dev/null
	i=1
	while [ "$i" -le "$2" ]; do
		timed ours unpinned /dev/null 0 "$OURS" -p "$d/profile" -m "$d/kallsyms"
		timed theirs unpinned /dev/null 0 "$THEIRS" -p "$d/profile" -m "$d/kallsyms"
		timed cat unpinned /dev/null 0 cat "$d/profile" "$d/kallsyms"
		i=$((i + 1))
	done
	mb=$(($(wc -c < "$d/profile") + $(wc -c < "$d/kallsyms")))
	pkib=$(($(wc -c < "$d/profile") / 1024))
	echo "$1|$mb|$(stat_of med 1 "$T.ours.unpinned")|$(stat_of med 1 "$T.theirs.unpinned")|$(stat_of med 1 "$T.cat.unpinned")|$(stat_of max 2 "$T.ours.unpinned")|$(stat_of med 4 "$T.ours.unpinned")|$(stat_of med 4 "$T.theirs.unpinned")|$(stat_of med 4 "$T.cat.unpinned")|$pkib" >> "$SCALING"
}

for c in $CASES; do
	[ "$c" = elf ] || run_case "$c"
done
# the cost of starting a process, and of taskset's start in a pinned run
T=$OUTD/start
rm -f "$T".*
i=0
while [ "$i" -lt "$RUNS" ]; do
	timed true unpinned /dev/null 0 true
	[ "$PIN_WITH" = taskset ] && timed taskset unpinned /dev/null 0 taskset -c "$PIN_CPU" true
	i=$((i + 1))
done
SCALING=$OUTD/scaling
: > "$SCALING"
for x in $SCALES; do
	scaling "$x" "${BENCH_SCALING_RUNS:-5}"
done

# ---- report ---------------------------------------------------------------
between() {	# number of map lines between _stext and _etext
	awk '$3 == "_stext" { f = 1; next } $3 == "_etext" { exit } f { n++ } END { print n + 0 }' "$1"
}
describe() {	# describe NAME DIR WHAT
	[ -f "$2/profile" ] || return 0
	echo "$1 $3: $(between "$2/kallsyms") symbols between _stext and _etext,"
	echo "        profile $(wc -c < "$2/profile" | tr -d ' ') bytes, map $(wc -c < "$2/kallsyms" | tr -d ' ') bytes"
}
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo
echo "readprofile benchmark: $RUNS interleaved runs of each program, case and mode ($((RUNS * 3)) for real-default and real-a, $FILE_RUNS for *-file)"
ours_is=$("$OURS" -V 2>&1 | head -n 1)
if [ "$OURS" = "$TOP/readprofile" ] && c=$(git rev-parse --short HEAD 2>/dev/null); then
	git diff --quiet HEAD -- src 2>/dev/null || c="$c with changes to src/"
	ours_is="$ours_is, commit $c"
fi
echo "ours:   ${OURS#"$TOP"/} ($ours_is)"
echo "theirs: ${THEIRS#"$TOP"/} ($("$THEIRS" -V 2>&1 | head -n 1))"
wanted 'real-*' && describe "real:  " "$REAL" "fixtures/real"
wanted 'dense-*' && describe "dense: " "$DENSE" "bench/gen.c, scale 1, dense"
wanted 'large-*' && describe "large: " "$LARGE" "bench/gen.c, scale $SCALE"
echo "host:   $(uname -sm), $ncpu CPUs, load average $LOAD0 before," \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') after"
start=$(awk -v t="$(stat_of med 4 "$T.true.unpinned")" 'BEGIN { printf "%.2f", t * 1000 }')
if [ "$PIN_WITH" = taskset ]; then
	echo "modes:  $MODES (pinned: every program run as taskset -c $PIN_CPU PROGRAM, taskset's start counted)"
	echo "start:  CPU ms of true: $start; of taskset -c $PIN_CPU true: $(awk -v t="$(stat_of med 4 "$T.taskset.unpinned")" 'BEGIN { printf "%.2f", t * 1000 }') (medians)"
else
	echo "modes:  $MODES (pinned: every program on processor $PIN_CPU only, set by timeit before exec)"
	echo "start:  CPU ms of true: $start (median)"
fi
if awk -v l="${LOAD0%% *}" -v n="$ncpu" 'BEGIN { exit !(l + 0 >= n + 0) }'; then
	echo "note:   the load average was at least the number of CPUs: wall times are noisy, CPU times less so"
fi
echo
awk -F'|' -v goals="$GOALS" -v callgrind="$HAVE_VG" -v mode1="${MODES%% *}" '
function mib(k) { return sprintf("%.1f", k / 1024) }
function grp(n,   s) {	# 1234567 -> 1,234,567
	if (n !~ /^[0-9]+$/) return n
	s = ""
	while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }
	return n s
}
function goal(ok, what) {
	print (ok ? "yes" : "NO") "|" what >> goals
	return ok ? "yes" : "NO"
}
BEGIN {
	printf "%-14s %-8s %10s | %-25s %13s | %-25s %13s %9s %3s | %-12s %6s %3s | %s\n",
		"", "", "", "        wall ms", "wall ratio", "        CPU ms", "CPU ratio", "", "",
		" peak MiB", "", "", ""
	printf "%-14s %-8s %10s | %8s %8s %7s %6s %6s | %8s %8s %7s %6s %6s %9s %3s | %5s %6s %6s %3s | %s\n",
		"case", "mode", "lines", "ours", "util", "cat", "/util", "/cat",
		"ours", "util", "cat", "/util", "/cat", "goal", "met", "ours", "util", "goal", "met", "output"
}
{
	name = $1; mode = $2; same = $3; lines = $4; cg = $5; ref = $6
	wo = $9; co = $10; ro = $11; wt = $12; ct = $13; rt = $14; wc = $15; cc = $16
	fc = ($19 != "-" ? $19 + 0 : 0)
	cr = ref == "floor" ? (fc > 0 ? co / fc : 0) : (ct > 0 ? co / ct : 0)
	met = "-"
	if (cg != "-")
		met = goal(cr > 0 && cr <= cg + 0, sprintf("%s %s CPU: %.3f of %s, goal <= %s", name, mode, cr,
			ref == "classic" ? "classic" : ref == "floor" ? "the floor" : "util-linux", cg))
	rlim = $18 + 16384	# KiB: the profile and 16 MiB
	rmet = goal(ro + 0 <= rlim, sprintf("%s %s RSS: peak %.1f MiB, goal <= %.1f MiB (the profile + 16)",
		name, mode, ro / 1024, rlim / 1024))
	printf "%-14s %-8s %10s | %8.2f %8.2f %7.2f %6.3f %6.2f | %8.2f %8.2f %7.2f %6.3f %6.2f %9s %3s | %5s %6s %6s %3s | %s\n",
		name, mode, grp(lines), wo * 1000, wt * 1000, wc * 1000, (wt > 0 ? wo / wt : 0), (wc > 0 ? wo / wc : 0),
		co * 1000, ct * 1000, cc * 1000, (ct > 0 ? co / ct : 0), (cc > 0 ? co / cc : 0),
		(cg == "-" ? "-" : "<=" cg (ref == "floor" ? "/flr" : ref == "classic" ? "/ours" : "/util")), met,
		mib(ro), mib(rt), "<=" mib(rlim), rmet, same (ref == "classic" ? " (util: ours, classic)" : "")
	if (callgrind == "yes" && mode == mode1)
		ins = ins sprintf("%-14s %16s %16s\n", name, grp($7), grp($8))
	if ($19 != "-" && $19 > 0 && cc > 0)
		fl = fl sprintf("%-14s %-8s %8.2f %8.2f %7.2f %9.2f %10.2f %10s\n", name, mode,
			co * 1000, $19 * 1000, cc * 1000, $19 / cc, co / $19, "<=" cg)
}
END {
	if (fl != "") {
		printf "\n%-14s %-8s %8s %8s %7s %9s %10s %10s\n", "floor", "mode", "ours", "floor",
			"cat", "floor/cat", "ours/floor", "goal/floor"
		printf "%s", fl
	}
	if (ins != "") {
		printf "\n%-14s %16s %16s\n", "instructions", "ours", "util-linux"
		printf "%s", ins
	}
}' "$RESULTS"
if [ -s "$SCALING" ]; then
	echo
	echo "scaling: the dense input at each scale, default report, unpinned, ${BENCH_SCALING_RUNS:-5} interleaved runs"
	awk -F'|' -v goals="$GOALS" '
	BEGIN {
		printf "%-6s %9s %9s %9s %9s %10s %10s %9s %11s %11s %10s %4s\n", "scale", "input MB",
			"ours ms", "util ms", "cat ms", "ours ms/MB", "util ms/MB", "cat ms/MB",
			"ours cpu/MB", "util cpu/MB", "ours RSS", "met"
	}
	{
		mb = $2 / 1e6
		rlim = $10 + 16384
		met = $6 + 0 <= rlim ? "yes" : "NO"
		print met "|scaling " $1 "x RSS: peak " sprintf("%.1f", $6 / 1024) " MiB, goal <= " sprintf("%.1f", rlim / 1024) " MiB (the profile + 16)" >> goals
		printf "%-6s %9.1f %9.2f %9.2f %9.2f %10.4f %10.4f %9.4f %11.4f %11.4f %6.1f MiB %4s\n", $1 "x", mb,
			$3 * 1000, $4 * 1000, $5 * 1000, $3 * 1000 / mb, $4 * 1000 / mb, $5 * 1000 / mb,
			$7 * 1000 / mb, $8 * 1000 / mb, $6 / 1024, met
	}' "$SCALING"
fi
# symbols straight from a vmlinux-sized ELF file against nm (bench/elf.sh)
if wanted elf; then
	if ! BENCH_OURS=$OURS BENCH_RUNS=$RUNS BENCH_GOALS=$GOALS sh bench/elf.sh; then
		FAILED=1
	fi
fi
echo
echo "lines: lines of our report; wall: median wall time; CPU: median user + system time (wait4's rusage: the"
echo "process, its threads and the children it waited for); util: util-linux (for dense-exact: ours, classic report);"
echo "cat: cat of the two inputs to /dev/null; /util, /cat: ours / util, ours / cat of the medians; peak MiB: the"
echo "largest peak resident set size (ru_maxrss) of the runs; output: OK when stdout, stderr and exit status are"
echo "identical.  Output to /dev/null, except *-file: to a file in ${OUTD#"$TOP"/}."
echo "floor: CPU ms of bench/floor.c, which reads the profile whole into fresh memory (as readprofile reads it"
echo "once) and the map through one buffer, parsing nothing; /flr: a goal against it (ours / floor of the medians)."
[ "$HAVE_VG" = yes ] &&
	echo "instructions: Ir of one run under callgrind (profiles in ${OUTD#"$TOP"/}/*.callgrind, for callgrind_annotate)."
met=$(grep -c '^yes|' "$GOALS" || true)
all=$(wc -l < "$GOALS" | tr -d ' ')
missed=$((all - met))
if [ "$missed" != 0 ]; then
	echo
	echo "goals missed:"
	sed -n 's/^NO|/  /p' "$GOALS"
fi
partial=" (modes: $MODES)"
if [ "$FAILED" != 0 ]; then
	echo "RESULT: outputs differ or a program failed (outputs kept in ${OUTD#"$TOP"/}); $met of $all goals met$partial"
	exit 1
fi
if [ "$missed" != 0 ]; then
	echo "RESULT: all outputs identical; $met of $all goals met, missed: $(sed -n 's/^NO|\([^:]*\):.*/\1/p' "$GOALS" | paste -sd, - | sed 's/,/, /g')$partial"
	[ "${BENCH_STRICT:-1}" = 0 ] && exit 0
	exit 3
fi
echo "RESULT: all outputs identical; all $all goals met$partial"
