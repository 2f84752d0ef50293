#!/bin/sh
# bench/elf.sh - symbols straight from a vmlinux-sized ELF file against
# making the map with nm first (run by bench/run.sh; make bench).
#
#   sh bench/elf.sh
#
# Environment: BENCH_OURS (default ./readprofile), BENCH_RUNS (default 5),
# BENCH_ELF_SYMS (symbols in the generated image, default 150000),
# BENCH_STRICT=1 (exit 3 when a goal is missed), BENCH_GOALS (a file to
# which a line "yes|GOAL" or "NO|GOAL" is appended for each goal).
#
# Generates build/bench-data/elf/vmlinux with as and ld: a kernel-style
# image (_stext, _etext, linux_banner) with BENCH_ELF_SYMS text symbols
# and some data, and a profile of its text.  Then compares, with the
# same profile:
#   elf:     readprofile -m vmlinux
#   nm+map:  nm -n vmlinux > map; readprofile -m map
#   nm:      nm -n vmlinux > map alone
# Prints the median wall and CPU time and the peak RSS of each, and the
# peak heap (valgrind's massif) of `-m vmlinux` against that of
# `-m System.map` (same report, same output buffer).  Goals: `-m vmlinux`
# takes at most a third of the CPU time of nm alone, and its peak heap
# stays within 16 bytes per symbol, plus the string table it reads whole
# (`.strtab`), of `-m System.map`'s.  The reports must
# be identical (exit 1 if not).
set -eu
cd "$(dirname "$0")/.."
TOP=$(pwd)
OURS=${BENCH_OURS:-$TOP/readprofile}
RUNS=${BENCH_RUNS:-5}
NSYM=${BENCH_ELF_SYMS:-150000}
CC=${CC:-cc}
D=$TOP/build/bench-data/elf
TIMEIT=$TOP/build/bench/timeit
mkdir -p "$D" "$TOP/build/bench"
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac
for t in as ld nm; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "bench-elf: $t not found: skipped" >&2; exit 0; }
done
[ -x "$TIMEIT" ] || $CC -std=c11 -O2 -o "$TIMEIT" bench/timeit.c

# ---- the image ---------------------------------------------------------
stamp="v3 syms $NSYM $(cksum < bench/elf.sh)"
if [ ! -f "$D/stamp" ] || [ "$(cat "$D/stamp")" != "$stamp" ]; then
	echo "bench-elf: generating a $NSYM-symbol vmlinux in $D ..." >&2
	awk -v n="$NSYM" 'BEGIN {
		srand(1)
		split("sched mm fs net drivers kernel block crypto security ipc", sub_, " ")
		print "\t.text\n\t.skip 64\n\t.globl _stext\n\t.type _stext,@function\n_stext:"
		for (i = 0; i < n; i++) {
			name = sprintf("%s_%s_%x", sub_[i % 10 + 1],
			    substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 20, 3 + i % 17), i)
			if (i % 3) print "\t.globl " name
			print "\t.type " name ",@function\n" name ":\n\t.skip " 16 * (1 + int(rand() * 4))
		}
		print "\t.globl _etext\n_etext:\n\t.skip 64"
		print "\t.section .rodata\n\t.globl linux_banner\nlinux_banner:\n\t.asciz \"Linux version 6.1.0-bench\""
		print "\t.data"
		for (i = 0; i < n / 10; i++)
			print "data_" i ":\n\t.long " i
		for (i = 0; i < n / 20; i++)
			print "\t.globl __crc_sym" i "\n\t.set __crc_sym" i ", " 1000 + i
	}' > "$D/vmlinux.s"
	as -o "$D/vmlinux.o" "$D/vmlinux.s"
	ld -e _stext -Ttext=0xffffffff81000000 -o "$D/vmlinux" "$D/vmlinux.o"
	rm -f "$D/vmlinux.o" "$D/vmlinux.s"
	nm -n "$D/vmlinux" > "$D/System.map.unfiltered"
	grep -v -e ' [aNUw] ' -e ' \$' -e ' \.L' -e ' __crc_' -e ' __kstrtab_' \
	    -e ' __kstrtabns_' -e ' L0$' "$D/System.map.unfiltered" > "$D/System.map"
	s=$(awk '$3 == "_stext" { print $1 }' "$D/System.map")
	e=$(awk '$3 == "_etext" { print $1 }' "$D/System.map")
	awk -v n=$(( (0x${e#????????} - 0x${s#????????}) / 16 )) 'BEGIN {
		srand(2); printf "16"
		for (i = 1; i < n; i++) printf " %d", rand() < 0.95 ? 0 : int(rand() * 100)
		printf " 3\n"
	}' > "$D/profile.words"
	sh tests/golden/mkprof.sh "$D/profile.words" "$D/profile"
	rm -f "$D/profile.words"
	echo "$stamp" > "$D/stamp"
fi

# ---- same reports --------------------------------------------------------
"$OURS" -p "$D/profile" -m "$D/vmlinux" > "$D/elf.out"
"$OURS" -p "$D/profile" -m "$D/System.map" > "$D/map.out"
"$OURS" -p "$D/profile" -m "$D/System.map.unfiltered" > "$D/map2.out"
same=OK
cmp -s "$D/elf.out" "$D/map.out" || same="DIFF(vs System.map)"
cmp -s "$D/elf.out" "$D/map2.out" || same="$same DIFF(vs nm -n)"

# ---- timing --------------------------------------------------------------
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maximum() { sort -n | tail -n 1; }
: > "$D/t.elf"; : > "$D/t.nmmap"; : > "$D/t.nm"
i=1
while [ "$i" -le "$RUNS" ]; do
	"$TIMEIT" "$OURS" -p "$D/profile" -m "$D/vmlinux" >> "$D/t.elf"
	"$TIMEIT" sh -c 'nm -n "$1" > "$2" && "$3" -p "$4" -m "$2"' sh \
	    "$D/vmlinux" "$D/map.tmp" "$OURS" "$D/profile" >> "$D/t.nmmap"
	"$TIMEIT" sh -c 'nm -n "$1" > "$2"' sh "$D/vmlinux" "$D/map.tmp" >> "$D/t.nm"
	i=$((i + 1))
done
rm -f "$D/map.tmp"
te=$(cut -d' ' -f1 "$D/t.elf" | median); re=$(cut -d' ' -f2 "$D/t.elf" | maximum)
tm=$(cut -d' ' -f1 "$D/t.nmmap" | median); rm_=$(cut -d' ' -f2 "$D/t.nmmap" | maximum)
tn=$(cut -d' ' -f1 "$D/t.nm" | median); rn=$(cut -d' ' -f2 "$D/t.nm" | maximum)
# peakheap MAP: the peak heap of one report, in bytes
peakheap() {
	valgrind --tool=massif --massif-out-file="$D/massif.out" \
	    "$OURS" -p "$D/profile" -m "$1" > /dev/null 2>&1 &&
	awk -F= '/^mem_heap_B=/ { if ($2 + 0 > m) m = $2 + 0 } END { print m + 0 }' "$D/massif.out"
}
heap=n/a heapmap=n/a
if command -v valgrind >/dev/null 2>&1; then
	heap=$(peakheap "$D/vmlinux")
	heapmap=$(peakheap "$D/System.map")
fi
ce=$(cut -d' ' -f4 "$D/t.elf" | median)
cm=$(cut -d' ' -f4 "$D/t.nmmap" | median)
cn=$(cut -d' ' -f4 "$D/t.nm" | median)
nsym=$(wc -l < "$D/System.map.unfiltered" | tr -d ' ')
# the size of .strtab, which the ELF reader holds in memory
strtab=$(readelf -SW "$D/vmlinux" |
	sed -n 's/.*\] \.strtab  *STRTAB  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
strtab=$((0x${strtab:-0}))
echo
echo "ELF symbols: $nsym symbols in a $(wc -c < "$D/vmlinux" | tr -d ' ')-byte vmlinux (bench/elf.sh), $RUNS runs, median wall and CPU time, peak RSS"
awk -v te="$te" -v tm="$tm" -v tn="$tn" -v re="$re" -v rm="$rm_" -v rn="$rn" \
    -v ce="$ce" -v cm="$cm" -v cn="$cn" -v heapmap="$heapmap" -v goals="${BENCH_GOALS:-/dev/null}" \
    -v heap="$heap" -v nsym="$nsym" -v strtab="$strtab" -v same="$same" -v strict="${BENCH_STRICT:-0}" 'BEGIN {
	printf "%-32s %8s %7s %8s %7s %10s\n", "command", "wall ms", "ratio", "cpu ms", "ratio", "peak RSS"
	printf "%-32s %8.1f %7s %8.1f %7s %6.1f MiB\n", "readprofile -m vmlinux", te * 1000, "1.00", ce * 1000, "1.00", re / 1024
	printf "%-32s %8.1f %6.2fx %8.1f %6.2fx %6.1f MiB\n", "nm -n vmlinux > map; -m map", tm * 1000, tm / te, cm * 1000, cm / ce, rm / 1024
	printf "%-32s %8.1f %6.2fx %8.1f %6.2fx %6.1f MiB\n", "nm -n vmlinux > map (nm alone)", tn * 1000, tn / te, cn * 1000, cn / ce, rn / 1024
	met = cn / ce >= 3 ? "yes" : "NO"
	printf "goal: -m vmlinux takes at most a third of the CPU time of nm alone: %s\n", met
	printf "%s|elf CPU: -m vmlinux %.2fx less than nm alone, goal >= 3x\n", met, cn / ce >> goals
	if (heap != "n/a") {
		d = heap - heapmap
		hmet = d <= 16 * nsym + strtab ? "yes" : "NO"
		printf "peak heap (massif): -m vmlinux %.2f MiB, -m System.map %.2f MiB: %.1f bytes/symbol more, .strtab %.1f bytes/symbol; goal <= 16 + .strtab: %s\n",
		    heap / 1048576, heapmap / 1048576, d / nsym, strtab / nsym, hmet
		printf "%s|elf heap: %.1f bytes/symbol more than -m System.map, goal <= 16 + .strtab (%.1f)\n", hmet, d / nsym, strtab / nsym >> goals
	}
	printf "reports: %s\n", same
	if (same != "OK") exit 1
	if (strict == 1 && (met == "NO" || hmet == "NO")) exit 3
}'
