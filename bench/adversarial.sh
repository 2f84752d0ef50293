#!/bin/sh
# bench/adversarial.sh - inputs crafted to be slow: each must take under
# 1 s (make bench runs it after bench/run.sh).
#
#   ANTIQSORT=build/tests/antiqsort GMONTOOL=build/tests/gmontool \
#       sh bench/adversarial.sh
#
# Environment: BENCH_OURS (default ./readprofile), BENCH_RUNS (default 5),
# BENCH_ADV_N (symbols, default 160000), BENCH_ADV_RANGES (a gmon.out's
# records, default 100000), BENCH_STRICT=1 (exit 1
# when a goal is missed).
#
# Cases, each against its ordinary twin:
#   antiqsort ELF:  -m an ELF file whose symbol table is ordered against
#                   a quicksort (tests/adversarial/antiqsort.c; 5.6 MB);
#                   twin: the same symbols shuffled
#   shared names:   -m an ELF file of 80,000 symbols at one address whose
#                   names are suffixes of one string of 780,000 bytes
#                   (tests/elf/suffixelf.c; 2.7 MB): nm's order by name;
#                   no twin (as a text map it would be 31 GB)
#   demangling:     -p a gmon.out with -m a map in which one name in 1,000
#                   is a 278-byte mangled name whose substitutions double
#                   at each of 24 levels (520 MB demangled, 3.6 s for
#                   c++filt); twin: --no-demangle.  Each such name costs
#                   the demangler's limit, 100 ms of CPU time, and a new
#                   child: its goal is 1 s and 0.15 s for each
#   gmon ranges:    -p a gmon.out of N histogram records over N ranges in
#                   a random order (gmontool write many; 6.9 MB); twin:
#                   the same bins as one record
# Prints the median wall and CPU seconds of each; the goal is on CPU time
# (the machine may be shared), under 1 s (where said, more).  The reports
# of each pair must be identical.  The antiqsort input is generated once
# (about 20 s: the adversary runs the quadratic sort) and cached in
# build/bench-data/adversarial/.
set -eu
cd "$(dirname "$0")/.."
TOP=$(pwd)
OURS=${BENCH_OURS:-$TOP/readprofile}
RUNS=${BENCH_RUNS:-5}
N=${BENCH_ADV_N:-160000}
# ranges: at most GMON_MAX_HIST (131,072) records in a gmon.out
NR=${BENCH_ADV_RANGES:-100000}
CC=${CC:-cc}
: "${ANTIQSORT:?set ANTIQSORT to the tests/adversarial/antiqsort helper}"
: "${GMONTOOL:?set GMONTOOL to the tests/gmon/gmontool helper}"
D=$TOP/build/bench-data/adversarial
TIMEIT=$TOP/build/bench/timeit
mkdir -p "$D" "$TOP/build/bench"
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac
[ -x "$TIMEIT" ] || $CC -std=c11 -O2 -o "$TIMEIT" bench/timeit.c

stamp="n $N $(cksum < tests/adversarial/antiqsort.c)"
if [ ! -f "$D/stamp" ] || [ "$(cat "$D/stamp")" != "$stamp" ] ||
   [ ! -f "$D/adv.profile" ]; then
	echo "bench-adversarial: generating the antiqsort ELF ($N symbols) ..." >&2
	"$ANTIQSORT" "$N" "$D/adv"
	"$ANTIQSORT" "$N" "$D/twin" shuffled
	echo "$stamp" > "$D/stamp"
fi
SUFFIXELF=$TOP/build/bench/suffixelf
[ -x "$SUFFIXELF" ] && [ "$SUFFIXELF" -nt tests/elf/suffixelf.c ] ||
	$CC -std=c11 -O2 -o "$SUFFIXELF" tests/elf/suffixelf.c
[ -f "$D/suffix.profile" ] && [ "$D/suffix" -nt "$SUFFIXELF" ] ||
	"$SUFFIXELF" 80000 780000 "$D/suffix"
"$GMONTOOL" write many le 8 0x100000 $((0x100000 + NR * 16)) 1 100 7 "$NR" \
    > "$D/many.gmon"
"$GMONTOOL" write manyone le 8 0x100000 $((0x100000 + NR * 16)) 1 100 7 "$NR" \
    > "$D/one.gmon"
awk -v n="$N" 'BEGIN { printf "%016x T _stext\n", 1048576
	for (i = 1; i < n / 4; i++) printf "%016x T f%d\n", 1048576 + 64 * i, i }' \
    > "$D/many.map"
# the doubling name: f(A, B<A, A>, B<B<A, A>, B<A, A> >, ...), 24 levels
awk -v n="$N" 'BEGIN { b36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	d = "_Z1f10AAAAAAAAAA1BIS_S_E"
	for (k = 2; k <= 24; k++)
		d = d sprintf("S0_IS%s_S%s_E", substr(b36, k, 1), substr(b36, k, 1))
	printf "%016x T _stext\n", 1048576
	for (i = 1; i < n / 4; i++)
		printf "%016x T %s\n", 1048576 + 64 * i, i % 1000 ? "f" i : d }' \
    > "$D/mangled.map"

# median FILE: the middle line of the numbers in FILE
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
missed=0 differ=0
# case NAME OUT ARGS...: RUNS timed runs of readprofile ARGS, output to OUT
case_() {
	_name=$1 _out=$2
	shift 2
	: > "$D/wall"
	: > "$D/cpu"
	_i=0
	while [ $_i -lt "$RUNS" ]; do
		"$TIMEIT" -o "$_out" "$OURS" "$@" > "$D/line"
		read -r wall _rss rc cpu < "$D/line"
		[ "$rc" = 0 ] || { echo "bench-adversarial: $_name: exit $rc" >&2; exit 1; }
		echo "$wall" >> "$D/wall"
		echo "$cpu" >> "$D/cpu"
		_i=$((_i + 1))
	done
	w=$(median "$D/wall")
	c=$(median "$D/cpu")
	ok=$(awk -v c="$c" -v g="${GOAL:-1.0}" 'BEGIN { print (c < g) ? "ok" : "MISSED" }')
	[ "$ok" = ok ] || missed=1
	printf '%-34s %8.3f s wall %8.3f s CPU   %s\n' "$_name" "$w" "$c" "$ok"
}

echo "adversarial inputs ($N symbols or ranges; median of $RUNS runs; goal: under 1 s CPU)"
case_ "antiqsort ELF -m" "$D/adv.out" -m "$D/adv" -p "$D/adv.profile"
case_ "  twin: shuffled symbols" "$D/twin.out" -m "$D/twin" -p "$D/twin.profile"
cmp -s "$D/adv.out" "$D/twin.out" || { echo "  reports differ" ; differ=1; }
case_ "ELF, 80000 names sharing bytes -m" "$D/suffix.out" -m "$D/suffix" \
    -p "$D/suffix.profile"
case_ "gmon.out, $NR ranges -p" "$D/many.out" -p "$D/many.gmon" -m "$D/many.map"
case_ "  twin: one range" "$D/one.out" -p "$D/one.gmon" -m "$D/many.map"
cmp -s "$D/many.out" "$D/one.out" || { echo "  reports differ" ; differ=1; }
ncrafted=$(grep -c ' _Z1f10A' "$D/mangled.map")
GOAL=$(awk -v n="$ncrafted" 'BEGIN { print 1 + 0.15 * n }')
case_ "gmon.out, $ncrafted doubling C++ names -p" "$D/dm.out" \
    -p "$D/one.gmon" -m "$D/mangled.map"
GOAL=1.0
case_ "  twin: --no-demangle" "$D/nodm.out" --no-demangle -p "$D/one.gmon" \
    -m "$D/mangled.map"
cmp -s "$D/dm.out" "$D/nodm.out" || { echo "  reports differ" ; differ=1; }
case_ "gmon.out, $NR ranges -s" "$D/many.out" -s -p "$D/many.gmon" -m "$D/many.map"
case_ "  twin: one range -s" "$D/one.out" -s -p "$D/one.gmon" -m "$D/many.map"
cmp -s "$D/many.out" "$D/one.out" || { echo "  reports differ" ; differ=1; }
[ $differ = 0 ] || exit 1
[ $missed = 0 ] || [ "${BENCH_STRICT:-0}" != 1 ] || exit 1
exit 0
