#!/bin/sh
# bench/cxx.sh - the cost of demangling: the report of a real C++ program,
# built with g++ -pg and run, against the same report with --no-demangle
# (make bench runs it after bench/gmon.sh).
#
#   sh bench/cxx.sh
#
# Environment: BENCH_OURS (default ./readprofile), BENCH_BASE (another
# readprofile, e.g. a build of an older commit, timed beside it: its CPU
# time is the "before" of the goal), BENCH_RUNS (default 11),
# BENCH_CXX_TYPES (class templates instantiated, default 120),
# BENCH_PIN_CPU (the processor every run is held to, default 0),
# BENCH_STRICT=1 (exit 1 when a goal is missed).
#
# The program (generated into build/bench-data/cxx/, kept between runs)
# instantiates std::map, std::unordered_map, std::vector, std::sort and
# std::to_string over TYPES key types: some 15,000 functions, their names
# mangled C++ of 70 to 600 bytes.  It is built with -O0 -pg and run once
# (about a second) for its gmon.out.  Cases, each timed RUNS times,
# interleaved, pinned to one processor, median CPU (user + system, the
# demangler's child included: it is waited for) and wall time:
#   default   -p gmon.out -m PROGRAM: the functions with ticks
#   -a        every function of the program's text: every name demangled
# each beside --no-demangle (the floor: no demangling at all) and, with
# BENCH_BASE, beside that program.  Goal (with BENCH_BASE): CPU at most
# 1.25 times BENCH_BASE's in each case.  The reports of ours and
# BENCH_BASE must be identical.
set -eu
cd "$(dirname "$0")/.."
TOP=$(pwd)
OURS=${BENCH_OURS:-$TOP/readprofile}
BASE=${BENCH_BASE:-}
RUNS=${BENCH_RUNS:-11}
TYPES=${BENCH_CXX_TYPES:-120}
PIN=${BENCH_PIN_CPU:-0}
CC=${CC:-cc}
CXX=${CXX:-g++}
D=$TOP/build/bench-data/cxx
TIMEIT=$TOP/build/bench/timeit
mkdir -p "$D" "$TOP/build/bench"
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac
command -v "$CXX" >/dev/null 2>&1 ||
	{ echo "bench-cxx: $CXX not found: skipped" >&2; exit 0; }
[ -x "$TIMEIT" ] || $CC -std=c11 -O2 -o "$TIMEIT" bench/timeit.c

stamp="types $TYPES $(cksum < bench/cxx.sh)"
if [ ! -f "$D/gmon.out" ] || [ "$(cat "$D/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "bench-cxx: building a C++ program of $TYPES key types with -pg ..." >&2
	awk -v n="$TYPES" 'BEGIN {
		print "#include <algorithm>\n#include <map>\n#include <string>"
		print "#include <unordered_map>\n#include <vector>"
		print "namespace bench {"
		print "template <int N> struct Key {\n\tlong v;"
		print "\tbool operator<(const Key &o) const { return v < o.v; }"
		print "\tbool operator==(const Key &o) const { return v == o.v; }\n};"
		print "template <int N> struct KeyHash {"
		print "\tsize_t operator()(const Key<N> &k) const { return std::hash<long>()(k.v); }\n};"
		print "template <int N> long work(long n)\n{"
		print "\tstd::map<Key<N>, std::vector<std::string> > m;"
		print "\tstd::unordered_map<Key<N>, long, KeyHash<N> > u;"
		print "\tstd::vector<Key<N> > v;\n\tlong s = 0;"
		print "\tfor (long i = 0; i < n; i++) {"
		print "\t\tKey<N> k{(i * 7919) % 997};"
		print "\t\tm[k].push_back(std::to_string(i));\n\t\tu[k] += i;\n\t\tv.push_back(k);\n\t}"
		print "\tstd::sort(v.begin(), v.end());"
		print "\tfor (auto &p : m)\n\t\ts += (long)p.second.size();"
		print "\tfor (auto &p : u)\n\t\ts += p.second;"
		print "\treturn s + (long)std::count(v.begin(), v.end(), Key<N>{3});\n}\n}"
		print "int main()\n{\n\tlong s = 0;"
		for (i = 0; i < n; i++)
			printf "\ts += bench::work<%d>(20000);\n", i
		print "\treturn s == 42;\n}"
	}' > "$D/prog.cc"
	"$CXX" -O0 -pg -o "$D/prog" "$D/prog.cc"
	rm -f "$D/gmon.out"
	(cd "$D" && ./prog) || true
	[ -s "$D/gmon.out" ] || { echo "bench-cxx: the program wrote no gmon.out" >&2; exit 1; }
	echo "$stamp" > "$D/stamp"
fi
nfunc=$(nm --defined-only "$D/prog" | grep -c ' [TtWw] _Z' || true)

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one LABEL BINARY ARGS...: a timed run, "CPU WALL" appended to $D/t.LABEL
one() {
	_l=$1
	shift
	"$TIMEIT" -c "$PIN" -o "$D/out.$_l" "$@" > "$D/line"
	read -r wall _rss rc cpu _rest < "$D/line"
	[ "$rc" = 0 ] || { echo "bench-cxx: $_l: exit $rc" >&2; exit 1; }
	echo "$cpu $wall" >> "$D/t.$_l"
}
missed=0
echo "C++ program: $nfunc mangled text symbols (bench/cxx.sh), $RUNS runs each pinned to CPU $PIN, median"
printf '%-10s %-16s %9s %9s %8s\n' case program "CPU ms" "wall ms" ratio
for a in default -a; do
	opt=; [ "$a" = default ] || opt=$a
	labels="ours nodm"
	[ -z "$BASE" ] || labels="base ours nodm"
	for l in $labels; do : > "$D/t.$l"; done
	i=0
	while [ $i -lt "$RUNS" ]; do
		# shellcheck disable=SC2086
		[ -z "$BASE" ] || one base "$BASE" $opt -p "$D/gmon.out" -m "$D/prog"
		# shellcheck disable=SC2086
		one ours "$OURS" $opt -p "$D/gmon.out" -m "$D/prog"
		# shellcheck disable=SC2086
		one nodm "$OURS" $opt --no-demangle -p "$D/gmon.out" -m "$D/prog"
		i=$((i + 1))
	done
	if [ -n "$BASE" ] && ! cmp -s "$D/out.base" "$D/out.ours"; then
		echo "bench-cxx: $a: the report differs from BENCH_BASE's" >&2
		exit 1
	fi
	rl=nodm
	[ -z "$BASE" ] || rl=base
	ref=$(cut -d' ' -f1 "$D/t.$rl" | median)
	for l in $labels; do
		c=$(cut -d' ' -f1 "$D/t.$l" | median)
		w=$(cut -d' ' -f2 "$D/t.$l" | median)
		case $l in
		base) name="BENCH_BASE" ;; ours) name="ours" ;; *) name="--no-demangle" ;;
		esac
		printf '%-10s %-16s %9.1f %9.1f %7.2fx\n' "$a" "$name" \
		    "$(echo "$c" | awk '{ print $1 * 1000 }')" \
		    "$(echo "$w" | awk '{ print $1 * 1000 }')" \
		    "$(awk -v c="$c" -v r="$ref" 'BEGIN { print (r > 0 ? c / r : 0) }')"
	done
	if [ -n "$BASE" ]; then
		c=$(cut -d' ' -f1 "$D/t.ours" | median)
		ok=$(awk -v c="$c" -v r="$ref" 'BEGIN { print c <= 1.25 * r ? "yes" : "NO" }')
		[ "$ok" = yes ] || missed=1
		echo "goal: $a: CPU at most 1.25 x BENCH_BASE's: $ok"
	fi
	echo "$a: $(grep -c '::' "$D/out.ours" || true) demangled names in the report"
done
[ $missed = 0 ] || [ "${BENCH_STRICT:-0}" != 1 ] || exit 1
exit 0
