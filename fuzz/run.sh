#!/bin/sh
# run.sh - build the libFuzzer harnesses and run each one for a while.
#
#   sh fuzz/run.sh [SECONDS]        (default 60 per harness; make fuzz)
#
# Harnesses: the map reader, the profile reader, the report, JSON strings,
# ELF files, a report of any C++ name (bounded by the system), --pprof's encoder and its strings,
# --folded frames.
# Needs clang (with libFuzzer).  Builds into build-fuzz/ with
# -fsanitize=fuzzer,address,undefined, writes seed corpora there from
# fixtures/, replays the regression inputs of fixtures/hostile/fuzz/HARNESS/,
# then fuzzes each harness for SECONDS.  New corpus entries are kept in
# build-fuzz/corpus-HARNESS between runs; a crash leaves its input in
# build-fuzz/artifacts/ and makes this script fail.
#
# Environment: CLANG (default clang), FUZZ_ONLY (run only this harness).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-60}
CLANG=${CLANG:-clang}
B=$TOP/build-fuzz
HARNESSES="fuzz_map fuzz_profile fuzz_report fuzz_json fuzz_folded fuzz_elf fuzz_demangle
    fuzz_pprof"

case $SECS in
''|*[!0-9]*) echo "usage: sh fuzz/run.sh [SECONDS]" >&2; exit 2 ;;
esac
command -v "$CLANG" >/dev/null 2>&1 ||
	{ echo "fuzz: $CLANG not found (libFuzzer needs clang)" >&2; exit 2; }

mkdir -p "$B/artifacts" || exit 1
cd "$TOP" || exit 1

# --- build -----------------------------------------------------------------
LIB_SRCS=
for f in src/*/*.c; do
	[ "$f" = src/cli/main.c ] || LIB_SRCS="$LIB_SRCS $f"
done
CF="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=all -std=c11 -Wall -Wextra -D_GNU_SOURCE
    -DRP_VERSION=\"fuzz\" -Isrc"
for h in $HARNESSES; do
	lf=
	# fuzz_report frees what a longjmp out of the library left behind.
	[ "$h" = fuzz_report ] || [ "$h" = fuzz_elf ] &&
		lf="-Wl,--wrap=xmalloc -Wl,--wrap=xrealloc -Wl,--wrap=free"
	# shellcheck disable=SC2086
	$CLANG $CF -o "$B/$h" fuzz/$h.c $LIB_SRCS $lf ||
		{ echo "fuzz: cannot build $h" >&2; exit 1; }
done

# --- seeds -----------------------------------------------------------------
# byte N: the byte N (0..255) on stdout
byte() { printf "\\$(printf %03o "$1")"; }

rm -rf "$B/seeds" && mkdir -p "$B/seeds/fuzz_map" "$B/seeds/fuzz_profile" \
    "$B/seeds/fuzz_report" "$B/seeds/fuzz_json" "$B/seeds/fuzz_folded" \
    "$B/seeds/fuzz_elf" "$B/seeds/fuzz_pprof" || exit 1
# JSON strings: names of the real capture, and bytes JSON must escape
gzip -dc fixtures/real/kallsyms.gz | awk 'NR % 5000 == 1 { print $3 }' |
	head -n 20 | split -l 1 - "$B/seeds/fuzz_json/name"
printf 'a"b\\c\001\177\377\303\251\355\240\200' >"$B/seeds/fuzz_json/escapes"
# mangled names: the program's own kinds, and substitutions that double
mkdir -p "$B/seeds/fuzz_demangle" || exit 1
k=0
for n in _ZN2ns6Widget4spinEl _ZNSt6vectorIiSaIiEE9push_backERKi \
    _ZN2ns4turnImEET_S1_ _Z3fooPFviE _ZN1AC2ERKS_ _ZZ4mainENKUlvE_clEv.isra.0 \
    _ZN4llvm5nodesIPNS_10RegionInfoEEENS_14iterator_rangeINS_11GraphTraitsIT_E14nodes_iteratorEEERKS5_ \
    _ZNSt8_Rb_treeISsSt4pairIKSsiESt10_Select1stIS2_ESt4lessISsESaIS2_EE8_M_eraseEPSt13_Rb_tree_nodeIS2_E \
    _ZTVN10__cxxabiv117__class_type_infoE _ZThn8_N1B1fEv _ZGVZ1fvE1x \
    _Z1fIJidEEvDpT_ _Z1fIiEDTplfp_fp_ET_ _Z1f10AAAAAAAAAA1BIS_S_ES0_IS1_S1_ES0_IS2_S2_E \
    _Z1fIJiiiiiiiiiiiiiiiiEEDTspplT_spplT_spplT_spplT_spplT_spplT_spplT_spT_Ev \
    _Z1fIJiEEDTspppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppfp_EDpT_; do
	k=$((k + 1))
	printf '%s' "$n" > "$B/seeds/fuzz_demangle/n$k"
done
# pprof: a flag byte, a rate byte, the map's name and function names
printf '\003\372/boot/map\377\000caf\351\000caf\303\251\000back\\slash\000\355\240\200\000\364\220\200\200' \
    >"$B/seeds/fuzz_pprof/names"
printf '\000\000map\000alpha\000\000beta' >"$B/seeds/fuzz_pprof/plain"
# with call arcs (flag bit 2), with and without a rate
printf '\005\144map\000main\000mid\000leaf\000fib' >"$B/seeds/fuzz_pprof/arcs"
printf '\004\000prog\000a\000b\000\001\002\003\004\005\006' \
    >"$B/seeds/fuzz_pprof/arcs-norate"
cp "$B/seeds/fuzz_json/"* "$B/seeds/fuzz_folded/"
printf 'x 12' >"$B/seeds/fuzz_folded/count"
printf 'f 1.5 2' >"$B/seeds/fuzz_folded/counts"
printf '[unknown]' >"$B/seeds/fuzz_folded/frame"

# Small real ELF files: the test texts assembled for every target found,
# as objects, executables and shared objects (both classes, both orders).
elfseed() {	# AS ASFLAGS LD EMULATION TAG
	command -v "$1" >/dev/null 2>&1 && command -v "$3" >/dev/null 2>&1 ||
		return 0
	for s in text kernel; do
		o=$B/seeds/fuzz_elf/$5-$s.o
		# shellcheck disable=SC2086
		"$1" $2 -L -o "$o" "tests/elf/$s.s" 2>/dev/null || continue
		"$3" -m "$4" -shared -o "$B/seeds/fuzz_elf/$5-$s.so" "$o" 2>/dev/null
		[ $s = kernel ] &&
			"$3" -m "$4" -e _stext -o "$B/seeds/fuzz_elf/$5-$s.exe" "$o" 2>/dev/null
	done
	return 0
}
elfseed as --64 ld elf_x86_64 x64
elfseed as --32 ld elf_i386 x32
elfseed s390x-linux-gnu-as -m64 s390x-linux-gnu-ld elf64_s390 s64
elfseed s390x-linux-gnu-as -m31 s390x-linux-gnu-ld elf_s390 s31
for f in build/elfsym.o build/symsrc.o; do
	[ -f "$f" ] && [ "$(wc -c < "$f")" -lt 65536 ] && cp "$f" "$B/seeds/fuzz_elf/"
done

# A slice of the real capture: 512 counters from a hot spot, with the map
# lines that fall in it between a moved _stext and a matching _etext.
mkdir -p "$B/real" || exit 1
if [ ! -s "$B/real/slice.profile" ]; then
	{
		byte 4; byte 0; byte 0; byte 0
		gzip -dc fixtures/real/profile.gz |
			dd bs=4 skip=379649 count=512 2>/dev/null
	} > "$B/real/slice.profile"
	{
		echo "ffffffffb4171c00 T _stext"
		gzip -dc fixtures/real/kallsyms.gz | awk '
			$1 >= "ffffffffb4171c00" && $1 < "ffffffffb4172400"'
		echo "ffffffffb4172400 T _etext"
	} > "$B/real/slice.map"
fi

n=0
for map in fixtures/inputs/*.map fixtures/cases/*/map fixtures/cases-ours/*/map \
    "$B/real/slice.map"; do
	[ -f "$map" ] || continue
	n=$((n + 1))
	cp "$map" "$B/seeds/fuzz_map/map$n"
	prof=$(dirname "$map")/profile
	[ -f "$prof" ] || prof=${map%.map}.profile
	[ -f "$prof" ] || continue
	size=$(wc -c < "$prof")
	[ "$size" -lt 65536 ] || continue
	for flag in 0 1 4 16 32 17 72 88; do
		{ byte "$flag"; cat "$prof"; } > "$B/seeds/fuzz_profile/p$n-$flag"
	done
	{ byte 8; byte $((size % 256)); byte $((size / 256)); cat "$prof" "$prof"; } > "$B/seeds/fuzz_profile/b$n"
	{
		byte $((size % 256)); byte $((size / 256))
		cat "$prof" "$map"
	} > "$B/seeds/fuzz_report/r$n"
done

# gmon.out files: told by content, as in the program; the flag byte picks
# pipe or memfd and the report options
for g in fixtures/gmon/*.gmon; do
	for flag in 0 1 10 22; do
		{ byte "$flag"; cat "$g"; } > "$B/seeds/fuzz_profile/$(basename "$g")-$flag"
	done
done

# --- regression inputs ------------------------------------------------------
fail=0
for h in $HARNESSES; do
	dir=fixtures/hostile/fuzz/$h
	set -- "$dir"/*
	[ -f "$1" ] || continue
	if ! "$B/$h" -runs=1 "$@" > "$B/$h.regress.log" 2>&1; then
		echo "FAIL $h: a regression input of $dir crashes:" >&2
		grep -E 'ERROR|SUMMARY|check failed|Running' "$B/$h.regress.log" |
			tail -n 20 >&2
		fail=1
	fi
done
[ "$fail" -eq 0 ] || exit 1

# --- fuzz ------------------------------------------------------------------
[ "$SECS" -gt 0 ] || { echo "fuzz: regression inputs pass"; exit 0; }
for h in $HARNESSES; do
	[ -z "${FUZZ_ONLY:-}" ] || [ "$FUZZ_ONLY" = "$h" ] || continue
	mkdir -p "$B/corpus-$h" || exit 1
	echo "fuzz: $h for ${SECS}s"
	if "$B/$h" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=4096 \
	    -max_len=8192 -detect_leaks=1 -print_final_stats=1 \
	    -artifact_prefix="$B/artifacts/$h-" \
	    "$B/corpus-$h" "$B/seeds/$h" > "$B/$h.log" 2>&1; then
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$B/$h.log" |
			tail -n 1
	else
		echo "FAIL $h: crash, input saved in $B/artifacts/:" >&2
		grep -E 'ERROR|SUMMARY|check failed|Test unit written' "$B/$h.log" |
			tail -n 20 >&2
		fail=1
	fi
done
if [ "$fail" -ne 0 ]; then
	echo "fuzz: FAILED (add the crashing input to fixtures/hostile/fuzz/HARNESS/)" >&2
	exit 1
fi
echo "fuzz: no crash"
