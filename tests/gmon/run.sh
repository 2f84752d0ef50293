#!/bin/sh
# run.sh - gmon.out: readprofile against gprof, on real and synthetic files.
#
#   RP=/abs/readprofile GMONTOOL=/abs/gmontool [RP_WRAP=...] sh tests/gmon/run.sh
#
# Recorded runs: fixtures/gmon/ (program, map, gmon.out; x86-64, i386,
# s390x).  Real programs: fixtures/gmon/hot.c (three functions of known weight) built
# with -pg as PIE -O0, -no-pie -O2, -m32 -O2 (run under qemu-i386-static)
# and s390x -O2 (big-endian, under qemu-s390x-static), run at test time
# (under a second of CPU each) to write a fresh gmon.out.  Synthetic files:
# GNU and BSD, both byte orders, 4- and 8-byte addresses, fractional bin
# widths, several histogram records, over those programs' text (a 4-byte
# big-endian file is checked against its byte-swapped twin: no program).
# A variant whose compiler, libraries or emulator is missing is skipped,
# and said so.
#
# For each file and each function gprof lists:
#   - readprofile's ticks equal FIRST of `gmontool model` (an independent
#     reading of the file: the bins whose first address lies in the
#     function), exactly;
#   - gprof's self seconds equal the model's SPLIT / rate within 0.005 s,
#     the rounding of its two decimals: the model of how gprof shares a
#     bin holds;
#   - |ticks / rate - gprof's self seconds| <= DIFF / rate + 0.005 s, DIFF
#     computed per function bin by bin as |our credit - gprof's|: the
#     exact tolerance, nothing guessed.  It is 0 for a function whose bins
#     lie wholly inside it at an even width (the -m32 programs: 4 bytes).
# Totals exact: total + *unknown* is the sum of every bin, total the sum
# of the functions' ticks, and gprof's last cumulative seconds equal the
# model's sum of SPLIT within 0.005.  -v's calls column equals gprof's.  Every report option (default, -a,
# -b, -s, --exact, -v, -v's seconds) gives the same ticks per function;
# pipes and compressed files the same report; --baseline subtracts;
# --top 3 -v and --json -s agree with the text reports (check.py).
# Malformed files are errors: exit 1, one "readprofile: FILE: ..." line,
# nothing on stdout; GMON_MUTATIONS (default 90) random mutations of the
# files end in a report (-v, -b, --pprof -) or in messages and exit 1,
# never a crash.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=gmon
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
: "${GMONTOOL:?set GMONTOOL to the gmontool binary}"



rp() { $RP_WRAP "$RP" "$@"; }

# nm for the binary's architecture
nm_for() {
	case $(od -An -tx1 -j18 -N1 "$1" | tr -d ' ') in
	16) echo s390x-linux-gnu-nm ;;
	*) echo nm ;;
	esac
}

# joined ERR: a message wrapped over lines ("readprofile: " each, the
# second on indented by two spaces) as one line
joined() {
	awk 'NR > 1 && sub(/^readprofile:   /, "") { printf " %s", $0; next }
	    { printf "%s%s", (NR > 1 ? "\n" : ""), $0 } END { if (NR) print "" }' "$1"
}

# cut_short: $B/out empty, or (an error found after the report began: it
# is written as it is made) the last line of $B/err saying the report
# above is incomplete; msg: $B/err without that line
cut_short() {
	[ ! -s "$B/out" ] ||
	    [ "$(tail -n 1 "$B/err")" = "readprofile: the report above is incomplete" ]
}
msg() {
	if [ -s "$B/out" ]; then sed '$d' "$B/err"; else cat "$B/err"; fi
}

# unattributed REPORT ERR GMON MAP: the ticks no function holds (the
# report's *unknown*) are counted on stderr, and nothing else is said;
# none, nothing at all
unattributed() {
	u=$(awk '$2 == "*unknown*" { print $1 }' "$1")
	a=$(awk '$2 == "*unknown*" { s += $1 } $2 == "total" { s += $3 }
	    END { print s }' "$1")
	if [ "${u:-0}" = 0 ]; then
		[ ! -s "$2" ]
		return
	fi
	[ "$(joined "$2" | wc -l)" -eq 1 ] &&
	    joined "$2" | grep -qF "readprofile: warning: $u of the $a ticks in $3 lie in no function of $4 (*unknown* in the report):" &&
	    awk 'length($0) > 80 && $0 !~ /^readprofile:   [^ ]*$/ { e = 1 }
	    END { exit e }' "$2"
}

# compare LABEL PROG GMON ORDER PTR MAP: the checks above for one file.
compare() {
	label=$1 prog=$2 gmon=$3 order=$4 ptr=$5 map=$6 d=$TMP/c
	rm -rf "$d" && mkdir "$d"
	nogprof=
	if ! command -v gprof > /dev/null 2>&1; then
		# without the oracle: the model's checks only, and a skip
		: > "$d/gprof"
		nogprof=1
	elif ! gprof -b -p "$prog" "$gmon" > "$d/gprof" 2>"$d/gprof.err"; then
		bad "$label: gprof fails: $(head -n 2 "$d/gprof.err")"
		return
	fi
	"$GMONTOOL" model "$gmon" "$order" "$ptr" "$map" > "$d/model" ||
		{ bad "$label: gmontool model fails"; return; }
	if ! rp -v -p "$gmon" -m "$map" > "$d/v" 2>"$d/v.err" ||
	    ! unattributed "$d/v" "$d/v.err" "$gmon" "$map"; then
		bad "$label: readprofile -v fails: $(head -n 2 "$d/v.err")"
		return
	fi
	rate=$(awk '$1 == "*total*" { print $3 }' "$d/model")
	rp -v -a -p "$gmon" -m "$map" > "$d/va" 2> "$d/e.va"
	# ticks per function from each report form; all must agree
	awk 'NF >= 5 && $2 != "total" { print $2, $3 }' "$d/v" > "$d/t.v"
	rp -a -p "$gmon" -m "$map" 2> "$d/e.a" | awk 'NF == 3 && $2 != "total" &&
	    $1 > 0 { print $2, $1 }' > "$d/t.a"
	rp -p "$gmon" -m "$map" 2> "$d/e.plain" | awk 'NF == 3 && $2 != "total" {
	    print $2, $1 }' > "$d/t.plain"
	rp --exact -p "$gmon" -m "$map" 2> "$d/e.exact" | awk 'NF == 3 && $2 != "total" {
	    print $2, $1 }' > "$d/t.exact"
	rp -b -p "$gmon" -m "$map" 2> "$d/e.b" | awk '/:$/ { n = substr($0, 1,
	    length($0) - 1) } /^  total/ { print n, $2 }' > "$d/t.b"
	rp -s -p "$gmon" -m "$map" 2> "$d/e.s" | awk '
	    /^\t/ { split($2, f, "+"); s[f[1]] += $3; next }
	    NF == 3 && $2 != "total" { print $2, $1; n[$2] = 1 }
	    END { for (k in s) if (!(k in n) && s[k]) print "stray", k }' \
	    > "$d/t.s"
	rp -s -p "$gmon" -m "$map" 2> "$d/e.s2" | awk '
	    /^\t/ { split($2, f, "+"); s[f[1]] += $3; next }
	    NF == 3 && $2 != "total" { t[$2] = $1 }
	    END { for (k in t) if (s[k] != t[k]) print k, t[k], s[k] }' \
	    > "$d/s.bad"
	for f in a plain exact b s; do
		if cmp -s "$d/t.v" "$d/t.$f"; then ok; else
			bad "$label: ticks of -$f differ from -v's:"
			diff "$d/t.v" "$d/t.$f" | head -n 5
		fi
	done
	if [ -s "$d/s.bad" ]; then
		bad "$label: -s bins do not add up: $(head -n 3 "$d/s.bad")"
	else ok; fi
	# every form warns as -v does, of the same ticks of no function
	for f in va a plain exact b s s2; do
		if cmp -s "$d/v.err" "$d/e.$f"; then ok; else
			bad "$label: stderr of -$f differs from -v's: $(head -n 2 "$d/e.$f")"
		fi
	done
	# -v's seconds are ticks / rate
	if awk -v r="$rate" 'NF >= 5 { x = $3 / r - $5
	    if (x > 0.0000005 || x < -0.0000005) { print; e = 1 } }
	    END { exit e }' "$d/v" > "$d/sec.bad"; then ok; else
		bad "$label: -v seconds are not ticks / rate: $(head -n 2 "$d/sec.bad")"
	fi
	# per function, against the model and gprof
	if awk -v r="$rate" -v label="$label" '
	    FILENAME ~ /model$/ { first[$1] = $2; split_[$1] = $3
		diff[$1] = $4; if ($1 == "*total*") all = $2; next }
	    FILENAME ~ /\/v$/ {
		if ($2 == "*unknown*") unk = $1
		else if (NF >= 5 && $2 == "total") tot = $3
		else if (NF >= 5) { ours[$2] = $3; sum += $3 }
		next }
	    FILENAME ~ /\/va$/ { if (NF == 6 && $2 != "total") calls[$2] = $6
		next }
	    # gprof: %time cumulative self [calls self total] name
	    $1 ~ /^[0-9.]+$/ && NF >= 4 { g[$NF] = $3; cum = $2 }
	    $1 ~ /^[0-9.]+$/ && NF == 7 { gcalls[$NF] = $4 }
	    function abs(x) { return x < 0 ? -x : x }
	    END {
		for (f in ours) if (ours[f] != first[f] + 0) {
			printf "%s: %s: %d ticks, model %d\n", label, f,
			    ours[f], first[f]; e = 1 }
		for (f in g) {
			if (!(f in split_)) {
				printf "%s: gprof has %s, not in the map\n",
				    label, f; e = 1; continue }
			if (abs(split_[f] / r - g[f]) > 0.005 + 1e-6) {
				printf "%s: %s: gprof %s, model %.4f\n", label,
				    f, g[f], split_[f] / r; e = 1 }
			tol = diff[f] / r + 0.005
			if (abs(ours[f] / r - g[f]) > tol + 1e-6) {
				printf "%s: %s: %.4f s, gprof %s, tolerance " \
				    "%.4f\n", label, f, ours[f] / r, g[f], tol
				e = 1 }
			nchk++
		}
		for (f in gcalls) if (calls[f] != gcalls[f]) {
			printf "%s: %s: %s calls, gprof %s\n", label, f,
			    calls[f], gcalls[f]; e = 1 }
		for (f in split_) if (f != "*total*") ssum += split_[f]
		if (tot != sum || tot + unk != all) {
			printf "%s: total %d + unknown %d, functions %d, " \
			    "bins %d\n", label, tot, unk, sum, all; e = 1 }
		if (nchk && abs(cum - ssum / r) > 0.005 + 1e-6) {
			printf "%s: gprof cumulative %s, model %.4f\n", label,
			    cum, ssum / r; e = 1 }
		exit e
	    }' "$d/model" "$d/v" "$d/va" "$d/gprof" > "$d/cmp"; then ok; else
		bad "$label: against the model and gprof:"
		head -n 8 "$d/cmp"
	fi
	[ -z "$nogprof" ] || skipped "against gprof: gprof not installed"
	# --top and --json against the text reports (tests/views/check.py)
	if command -v "$PYTHON" > /dev/null 2>&1; then
		chk="$PYTHON $TOP/tests/views/check.py"
		rp -p "$gmon" -m "$map" > "$d/plain" 2> "$d/e.p2"
		rp -s -v -p "$gmon" -m "$map" > "$d/sv" 2> "$d/e.sv"
		rp -i -v -p "$gmon" > "$d/iv" 2> "$d/e.iv"
		rp --top 3 -v -p "$gmon" -m "$map" > "$d/top" 2> "$d/e.top"
		rp -J -s -p "$gmon" -m "$map" > "$d/j" 2> "$d/e.j"
		if $chk top 3 "$d/plain" "$d/v" "$d/top" v > "$d/chk" 2>&1 &&
		    $chk json "$d/j" "$d/v" "$d/sv" >> "$d/chk" 2>&1 &&
		    $chk gmoninfo "$d/j" "$d/iv" >> "$d/chk" 2>&1; then ok; else
			bad "$label: --top or --json: $(head -n 3 "$d/chk")"
		fi
		for f in p2 sv top j; do	# -i reads no map: no warning
			if cmp -s "$d/v.err" "$d/e.$f" && [ ! -s "$d/e.iv" ]
			then ok; else
				bad "$label: stderr of $f (or -i) is not -v's: $(head -n 2 "$d/e.$f")"
			fi
		done
	else
		skipped "--top and --json: no python3"
	fi
	# a pipe and a compressed file give the same report
	gzip -c "$gmon" > "$d/g.gz"
	rp -v -p "$d/g.gz" -m "$map" > "$d/v.gz" 2> "$d/v.gz.err"
	rp -v -p - -m "$map" < "$gmon" > "$d/v.pipe" 2> "$d/v.pipe.err"
	if cmp -s "$d/v" "$d/v.gz" && cmp -s "$d/v" "$d/v.pipe" &&
	    unattributed "$d/v.gz" "$d/v.gz.err" "$d/g.gz" "$map" &&
	    unattributed "$d/v.pipe" "$d/v.pipe.err" - "$map"; then ok; else
		bad "$label: a compressed file or a pipe gives another report"
	fi
}

# elf_map LABEL PROG GMON MAP: -m PROG (the ELF file itself) gives the
# reports -m MAP (its nm -n output) gives, once ELF maps are read
elf_map() {
	for o in -v -a -b -s; do
		rp $o -p "$3" -m "$2" > "$TMP/elf.out" 2> "$TMP/elf.err"
		if grep -q "is an ELF file, not a symbol map" "$TMP/elf.err"; then
			skipped "-m PROGRAM: ELF maps not read by this build"
			return
		fi
		rp $o -p "$3" -m "$4" > "$TMP/map.out" 2>&1
		if cmp -s "$TMP/elf.out" "$TMP/map.out" && [ ! -s "$TMP/elf.err" ]; then
			ok
		else
			bad "$1: -m PROGRAM $o differs from -m <(nm -n PROGRAM)"
		fi
	done
}

# the histogram's range from -i -v: "LOW HIGH"
range_of() {
	rp -i -v -p "$1" | awk '$1 == "Range:" { split($2, r, "-");
	    print r[1], r[2] }'
}

# --- recorded runs (fixtures/gmon): the same checks, no compiler needed ---
F=$TOP/fixtures/gmon
compare rec-x86-64 "$F/hot" "$F/hot.gmon" le 8 "$F/hot.map"
compare rec-i386 "$F/hot-m32" "$F/hot-m32.gmon" le 4 "$F/hot-m32.map"
compare rec-s390x "$F/hot-s390x" "$F/hot-s390x.gmon" be 8 "$F/hot-s390x.map"
for a in "" -m32 -s390x; do
	elf_map "rec$a" "$F/hot$a" "$F/hot$a.gmon" "$F/hot$a.map"
done

# --- the golden cases written by hand (fixtures/cases-ours/gmon-*) ---------
# Their ticks per function (and the sum of each function's bins with -b and
# -s), total and *unknown* against the model; the rest of their layout (-b
# and -s bin addresses, -i -v lines, messages) is a regression pin
# (fixtures/cases-ours/README.md).
# pinned CASE ORDER PTR GMON MAP
pinned() {
	"$GMONTOOL" model "$F/$4" "$2" "$3" "$F/$5" > "$TMP/pm" ||
		{ bad "case $1: gmontool model fails"; return; }
	if awk 'FILENAME ~ /\/pm$/ { if ($1 == "*total*") all = $2
		else if ($2 > 0) m[$1] = $2; next }
	    /^\t/ && NF == 2 { bins[cur] += $2; next }
	    /^\t/ { split($2, q, "+"); bins[q[1]] += $3; next }
	    /:$/ { cur = substr($0, 1, length($0) - 1); next }
	    $1 == "total" { if ($2 > 0) got[cur] = $2; next }
	    $2 == "*unknown*" { unk = $1; next }
	    { v = length($1) >= 8 && $1 ~ /^[0-9a-f]+$/
	      t = v ? $3 : $1
	      if ($2 == "total") tot = t
	      else if (t > 0) got[$2] = t }
	    END {
		for (f in m) if (got[f] != m[f])
			e = e sprintf("%s: %d ticks, model %d; ", f, got[f], m[f])
		for (f in got) if (!(f in m))
			e = e sprintf("%s: %d ticks, model none; ", f, got[f])
		for (f in bins) if (bins[f] != got[f])
			e = e sprintf("%s: bins add up to %d, not %d; ", f,
			    bins[f], got[f])
		if (tot + unk != all || tot == 0)
			e = e sprintf("total %d + unknown %d, model %d", tot, unk, all)
		if (e != "") { print e; exit 1 }
	    }' "$TMP/pm" "$TOP/fixtures/cases-ours/$1/expected.out" > "$TMP/pm.bad"
	then ok; else
		bad "case $1: expected.out against the model: $(cat "$TMP/pm.bad")"
	fi
}
for c in default verbose all exact stdin counters bins; do
	pinned "gmon-$c" le 8 hot.gmon hot.map
done
pinned gmon-m32-verbose le 4 hot-m32.gmon hot-m32.map
pinned gmon-s390x-verbose be 8 hot-s390x.gmon hot-s390x.map
pinned gmon-s390x-bins be 8 hot-s390x.gmon hot-s390x.map

# --- real programs ---------------------------------------------------------
B=$TMP/b
mkdir "$B" && cp "$TOP/fixtures/gmon/hot.c" "$B/" || exit 1
cd "$B" || exit 1
INC32=$B/inc32
mkdir "$INC32" && ln -s /usr/include/x86_64-linux-gnu/asm "$INC32/asm"

# build NAME CC FLAGS...: the program, or a note why not
build() {
	name=$1 cc=$2
	shift 2
	command -v "$cc" > /dev/null 2>&1 || { skipped "$name: no $cc"; return 1; }
	"$cc" "$@" -pg -o "$name" hot.c 2> "$name.cc.err" ||
		{ skipped "$name: cannot build: $(head -n 1 "$name.cc.err" | head -c 60)"; return 1; }
}

# real NAME ORDER PTR EMULATOR ITER CC FLAGS...
real() {
	name=$1 order=$2 ptr=$3 emu=$4 iter=$5
	shift 5
	build "$name" "$@" || return
	e1=${emu%%|*}
	if [ "$emu" != - ] && ! command -v "${e1%% *}" > /dev/null 2>&1; then
		skipped "$name: no ${e1%% *}"
		return
	fi
	# EMU is "EMULATOR [ARGS]", or two ways separated by "|": the second
	# is tried when the first fails (a foreign libc installed both as a
	# cross sysroot and as multiarch packages may not mix under -L)
	rm -f gmon.out
	if [ "$emu" = - ]; then
		./"$name" "$iter"
	else
		# shellcheck disable=SC2086
		${emu%%|*} ./"$name" "$iter" 2> "$name.run.err" ||
		    { rm -f gmon.out; ${emu#*|} ./"$name" "$iter"; }
	fi
	[ -s gmon.out ] || { bad "$name: no gmon.out written"; return; }
	mv gmon.out "$name.gmon"
	$(nm_for "$name") -n "$name" > "$name.map"
	compare "$name" "$B/$name" "$B/$name.gmon" "$order" "$ptr" "$B/$name.map"
	elf_map "$name" "$B/$name" "$B/$name.gmon" "$B/$name.map"
	# the hot functions were seen (their ticks are checked against gprof's
	# above).  Not their order of weight: profil counts CPU time, which on
	# a shared machine is not a measure of work (seen on a busy 2-CPU
	# machine: spin_b 25 ticks for twice the turns of spin_a's 23).
	awk 'NF >= 5 && $2 ~ /^spin_/ { t[$2] = $3 }
	    END { exit !(t["spin_a"] > 0 && t["spin_b"] > 0) }' \
	    "$TMP/c/v" && ok || bad "$name: hot functions not seen as expected:" \
	    "$(grep spin_ "$TMP/c/v" | awk '{ printf "%s %s; ", $2, $3 }')"
}

real pie-O0 le 8 - 80000000 gcc -O0
real nopie-O2 le 8 - 150000000 gcc -O2 -no-pie -fno-pie
real m32-O2 le 4 qemu-i386-static 100000000 gcc -m32 -O2 -I"$INC32"
real s390x-O2 be 8 "qemu-s390x-static|qemu-s390x-static -L /usr/s390x-linux-gnu" 30000000 \
    s390x-linux-gnu-gcc -O2

# --- the program must be the profiled one -----------------------------------
# text_of PROG: "LOW HIGH" of its text as readelf gives it: the lowest
# PT_LOAD address, the end of its executable sections
text_of() {
	lo=$(readelf -lW "$1" | awk '$1 == "LOAD" { print $3; exit }')
	hi=0
	for e in $(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
	    awk '$7 ~ /X/ && $7 ~ /A/ { print "0x" $3 "+0x" $5 }'); do
		[ $(($e)) -gt $((hi)) ] && hi=$(($e))
	done
	printf '0x%x 0x%x\n' "$lo" "$hi"
}
# another -pg program, of other functions and size
printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' \
    'static volatile unsigned long sink;' \
    'void work(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 3; }' \
    'int main(int argc, char **argv) { work(argc > 1 ? strtoul(argv[1], 0, 10) : 1000);' \
    '	printf("%lu\n", sink); return 0; }' > other.c
if [ ! -f "$B/pie-O0.gmon" ] || ! command -v readelf > /dev/null 2>&1; then
	skipped "another program's gmon.out: no pie-O0 run or no readelf"
elif ! gcc -O0 -pg -o other other.c 2> other.cc.err; then
	skipped "another program's gmon.out: cannot build: $(head -n 1 other.cc.err | head -c 60)"
else
	rm -f gmon.out
	./other 50000000 > /dev/null && mv gmon.out other.gmon
	nm -n other > other.map
	compare other "$B/other" "$B/other.gmon" le 8 "$B/other.map"
	elf_map other "$B/other" "$B/other.gmon" "$B/other.map"
	# each profile against the other program, or its nm -n output: exit 1,
	# both ranges named (the map's from its __executable_start and etext)
	for pair in "pie-O0.gmon other" "other.gmon pie-O0" \
	    "pie-O0.gmon other.map" "other.gmon pie-O0.map"; do
		set -- $pair
		r=$(range_of "$B/$1" | tr ' ' -)
		case $2 in
		*.map) t=$(printf '0x%x-0x%x' \
		    "0x$(awk '$3 == "__executable_start" { print $1 }' "$B/$2")" \
		    "0x$(awk '$3 == "etext" { print $1 }' "$B/$2")") ;;
		*) t=$(text_of "$B/$2" | tr ' ' -) ;;
		esac
		rp -p "$B/$1" -m "$B/$2" > "$B/out" 2> "$B/err"
		rc=$?
		if [ $rc -eq 1 ] && cut_short && [ "$(msg)" = \
		    "readprofile: $B/$1: the histogram $r does not match the text of $B/$2, $t: it is the profile of another program, or of another build of it" ]; then
			ok
		else
			bad "$1 against $2: exit $rc, stderr: $(cat "$B/err")"
		fi
	done
fi

# --- stripped programs, without their debug files ---------------------------
# stripped LABEL PROG GMON: PROG stripped; N the ticks of its unstripped
# report.  Its .dynsym holds no function that runs (at most
# __gmon_start__, which a C++ program exports, credited with its own
# bytes only): an error, exit 1, after the report said incomplete (--top:
# no report), the
# cause and the place looked at in lines of at most 80 columns
stripped() {
	cp "$2" "$2.s" && strip "$2.s" || { bad "$1: cannot strip"; return; }
	n=$(rp -p "$3" -m "$2" | awk '{ s += $1 } END { print s - $1 }')
	for o in "" --top=3; do
		rp $o -p "$3" -m "$2.s" > "$B/out" 2> "$B/err"
		rc=$?
		if [ $rc -eq 1 ] && cut_short && [ "$n" -gt 0 ] &&
		    joined "$B/err" | grep -q "^readprofile: none of the $n ticks in $3 lies in a function of $2.s: $2.s has no symbol table (stripped): only its dynamic symbols are known. Its debug file (from the distribution's -dbgsym, -dbg or -debuginfo package) was looked for as /usr/lib/debug/.build-id/[0-9a-f]*/[0-9a-f]*\.debug$" &&
		    awk 'length($0) > 80 && $0 !~ /^readprofile:   [^ ]*$/ { e = 1 }
		    END { exit e }' "$B/err"; then
			ok
		else
			bad "$1 stripped $o: exit $rc, stderr: $(cat "$B/err")"
		fi
	done
	# --pprof FILE and --folded FILE: the error comes first, FILE stays
	for o in --pprof --folded; do
		echo old > "$B/keep"
		rp $o "$B/keep" -p "$3" -m "$2.s" > "$B/out" 2> "$B/err"
		rc=$?
		if [ $rc -eq 1 ] && [ "$(cat "$B/keep")" = old ] &&
		    grep -q "^readprofile: none of the $n ticks" "$B/err"; then
			ok
		else
			bad "$1 stripped $o FILE: exit $rc, FILE: $(head -c 20 "$B/keep")"
		fi
	done
}
if [ -f "$B/pie-O0.gmon" ] && command -v strip > /dev/null 2>&1; then
	stripped pie-O0 "$B/pie-O0" "$B/pie-O0.gmon"
else
	skipped "stripped C program: no pie-O0 run or no strip"
fi
printf '%s\n' '#include <cstdlib>' '#include <vector>' \
    'static volatile unsigned long sink;' \
    'void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }' \
    'int main(int argc, char **argv) { std::vector<int> v(3);' \
    '	spin(argc > 1 ? std::strtoul(argv[1], 0, 10) : 1000); return v[0]; }' > cxx.cc
if ! command -v g++ > /dev/null 2>&1 || ! command -v strip > /dev/null 2>&1; then
	skipped "stripped C++ program: no g++ or strip"
elif ! g++ -O0 -pg -o cxx cxx.cc 2> cxx.cc.err; then
	skipped "stripped C++ program: cannot build: $(head -n 1 cxx.cc.err | head -c 60)"
else
	rm -f gmon.out
	./cxx 100000000 && mv gmon.out cxx.gmon
	stripped c++ "$B/cxx" "$B/cxx.gmon"
fi
# some functions exported (-rdynamic), a static one not: the exported ones
# get the ticks in their own bytes, the rest is counted in a warning, exit 0
if [ -f "$B/pie-O0.gmon" ] && command -v strip > /dev/null 2>&1 &&
    gcc -O0 -pg -rdynamic -o rdyn hot.c 2> /dev/null; then
	# the static spin_c has a seventh of the work: with a few ticks in
	# all it may get none, so run longer until it has one
	n=40000000 tries=0
	while rm -f gmon.out; ./rdyn $n && mv gmon.out rdyn.gmon &&
	    rp -p "$B/rdyn.gmon" -m "$B/rdyn" > "$B/full" &&
	    ! grep -q ' spin_c ' "$B/full" && [ $tries -lt 5 ]; do
		n=$((n * 2)) tries=$((tries + 1))
	done
	cp rdyn rdyn.s && strip rdyn.s
	rp -p "$B/rdyn.gmon" -m "$B/rdyn.s" > "$B/out" 2> "$B/err"
	rc=$?
	u=$(awk '$2 == "*unknown*" { print $1 }' "$B/out")
	a=$(awk '$2 == "*unknown*" || $2 == "total" { s += $1 } END { print s }' "$B/out")
	if [ $rc -eq 0 ] && [ "${u:-0}" -gt 0 ] &&
	    [ "$a" = "$(awk '$2 == "*unknown*" || $2 == "total" { s += $1 } END { print s }' "$B/full")" ] &&
	    ! grep -q ' spin_c ' "$B/out" &&
	    joined "$B/err" | grep -q "^readprofile: warning: $u of the $a ticks in $B/rdyn.gmon lie in no function of $B/rdyn.s (\*unknown\* in the report): $B/rdyn.s has no symbol table (stripped)" &&
	    awk 'FILENAME ~ /full$/ { f[$2] = $1; next }
	        $2 != "*unknown*" && $2 != "total" && !($1 <= f[$2]) { e = 1 }
	        END { exit e }' "$B/full" "$B/out"; then
		ok
	else
		bad "-rdynamic, stripped: exit $rc, stdout: $(cat "$B/out"), stderr: $(cat "$B/err")"
	fi
else
	skipped "-rdynamic stripped program: no pie-O0 run, strip or gcc"
fi

# --- synthetic files -------------------------------------------------------
# synth LABEL PROG FORMAT ORDER PTR NBINS SEED NHIST
synth() {
	[ -f "$B/$2" ] && [ -f "$B/$2.map" ] ||
		{ skipped "$1: no $2 program"; return; }
	set -- "$@" $(range_of "$B/$2.gmon")
	"$GMONTOOL" write "$3" "$4" "$5" "$9" "${10}" "$6" 100 "$7" "$8" \
	    > "$B/$1.gmon"
	compare "$1" "$B/$2" "$B/$1.gmon" "$4" "$5" "$B/$2.map"
}

# a program without a gmon.out of its own (its run was skipped): the
# range of its text from nm, for the synthetic files
for p in m32-O2 s390x-O2; do
	[ -f "$B/$p" ] && [ ! -f "$B/$p.gmon" ] || continue
	$(nm_for "$B/$p") -n "$B/$p" > "$B/$p.map"
	hi=$(awk '$3 == "etext" || $3 == "_etext" { print $1; exit }' "$B/$p.map")
	"$GMONTOOL" write gnu le 4 0 "0x$hi" 1 100 1 1 > "$B/$p.gmon"
done

synth gnu-le8 pie-O0 gnu le 8 1000 1 1
synth gnu-le8-3rec pie-O0 gnu le 8 777 2 3
synth bsd-le8 pie-O0 bsd le 8 1213 3 1
synth gnu-le8-nopie nopie-O2 gnu le 8 999 4 2
synth gnu-le4 m32-O2 gnu le 4 1000 5 1
synth bsd-le4 m32-O2 bsd le 4 1001 6 1
synth gnu-be8 s390x-O2 gnu be 8 700 7 2
synth bsd-be8 s390x-O2 bsd be 8 701 8 1
# two histogram ranges with a gap, added up over two records each
synth split-le8 pie-O0 gnusplit le 8 1000 13 2
synth split-be8 s390x-O2 gnusplit be 8 700 14 2

# a range that starts inside a function (_init + 6): its first bins are _init's
if [ -f "$B/pie-O0.map" ]; then
	set -- $(range_of "$B/pie-O0.gmon")
	lo=$(awk '$3 == "_init" { print "0x" $1 }' "$B/pie-O0.map")
	lo=$(printf '0x%x' $((lo + 6)))
	"$GMONTOOL" write gnu le 8 "$lo" "$2" 400 100 12 1 > "$B/mid.gmon"
	compare mid-function "$B/pie-O0" "$B/mid.gmon" le 8 "$B/pie-O0.map"
	grep -q " _init " "$TMP/c/v" && ok ||
		bad "mid-function: _init, which reaches into the range, not reported"
else
	skipped "mid-function: no pie-O0 program"
fi

# 4-byte big-endian: no program for gprof; the byte-swapped twin
if [ -f "$B/m32-O2.map" ]; then
	set -- $(range_of "$B/m32-O2.gmon")
	for fmt in gnu bsd; do
		"$GMONTOOL" write $fmt le 4 "$1" "$2" 1003 100 9 2 > "$B/tw-le.gmon"
		"$GMONTOOL" write $fmt be 4 "$1" "$2" 1003 100 9 2 > "$B/tw-be.gmon"
		cmp -s "$B/tw-le.gmon" "$B/tw-be.gmon" &&
			bad "twin $fmt: the two byte orders wrote the same bytes"
		for o in "" -a -b -s -v --exact; do
			# shellcheck disable=SC2086
			rp $o -p "$B/tw-le.gmon" -m "$B/m32-O2.map" > "$B/tw-le.out" \
			    2> "$B/tw-le.err"
			# shellcheck disable=SC2086
			rp $o -p "$B/tw-be.gmon" -m "$B/m32-O2.map" > "$B/tw-be.out" \
			    2> "$B/tw-be.err"
			# the same warning, but for the file's name
			if [ -s "$B/tw-le.out" ] &&
			    cmp -s "$B/tw-le.out" "$B/tw-be.out" &&
			    sed 's/tw-be\.gmon/tw-le.gmon/' "$B/tw-be.err" |
			    cmp -s - "$B/tw-le.err"; then ok; else
				bad "twin $fmt $o: big-endian report differs"
			fi
		done
		rp -i -v -p "$B/tw-be.gmon" | grep -qx "Byte_order: big-endian" &&
			rp -i -v -p "$B/tw-be.gmon" | grep -qx "Pointer_size: 4" &&
			ok || bad "twin $fmt: -i -v does not say big-endian, 4"
		"$GMONTOOL" model "$B/tw-be.gmon" be 4 "$B/m32-O2.map" |
			awk '$1 != "*total*" && $2 > 0 { print $1, $2 }' > "$B/tw.model"
		rp -p "$B/tw-be.gmon" -m "$B/m32-O2.map" 2> /dev/null | awk 'NF == 3 &&
		    $2 != "total" { print $2, $1 }' > "$B/tw.ours"
		cmp -s "$B/tw.model" "$B/tw.ours" && ok ||
			bad "twin $fmt: big-endian ticks differ from the model"
	done
else
	skipped "4-byte big-endian twins: no m32-O2 program"
fi

# --baseline: a file of 3 records minus the same first record alone
if [ -f "$B/pie-O0.map" ]; then
	set -- $(range_of "$B/pie-O0.gmon")
	"$GMONTOOL" write gnu le 8 "$1" "$2" 1000 100 11 1 > "$B/base.gmon"
	"$GMONTOOL" write gnu le 8 "$1" "$2" 1000 100 11 3 > "$B/later.gmon"
	rp -a -p "$B/later.gmon" -m "$B/pie-O0.map" | awk 'NF == 3 { print $2, $1 }' > "$B/l"
	rp -a -p "$B/base.gmon" -m "$B/pie-O0.map" | awk 'NF == 3 { print $2, $1 }' > "$B/e"
	rp -a --baseline "$B/base.gmon" -p "$B/later.gmon" -m "$B/pie-O0.map" |
		awk 'NF == 3 { print $2, $1 }' > "$B/d"
	if awk 'FILENAME ~ /\/l$/ { l[$1] = $2; next }
	    FILENAME ~ /\/e$/ { e[$1] = $2; next }
	    { if ($2 != l[$1] - e[$1]) { print; bad = 1 } n++ }
	    END { exit bad || n < 5 }' "$B/l" "$B/e" "$B/d"; then ok; else
		bad "--baseline: not the difference of the two reports"
	fi
	rp --baseline "$B/later.gmon" -p "$B/base.gmon" -m "$B/pie-O0.map" \
	    > "$B/out" 2> "$B/err"
	[ $? -eq 1 ] && [ ! -s "$B/out" ] &&
	    grep -q "^readprofile: .*bin [0-9]* is lower" "$B/err" && ok ||
		bad "--baseline of a later file: not an error"
else
	skipped "--baseline: no pie-O0 program"
fi

# --- malformed files -------------------------------------------------------
# hdr: the GNU header, little-endian, version 1
hdr() { printf 'gmon\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000'; }
# le32 N / le64 N
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) \
    $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
le64() { le32 "$1"; le32 0; }
# hist LOW HIGH NBINS RATE: a histogram record's header
hist() { printf '\000'; le64 "$1"; le64 "$2"; le32 "$3"; le32 "$4";
    printf 'seconds\000\000\000\000\000\000\000\000s'; }
zeros() { head -c "$1" /dev/zero; }

# bad NAME MESSAGE-PATTERN: the file $B/NAME.bad must be refused so
malformed() {
	rp -p "$B/$1.bad" -m "$B/pie-O0.map" > "$B/out" 2> "$B/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$B/out" ] && [ "$(wc -l < "$B/err")" -eq 1 ] &&
	    grep -q "^readprofile: $B/$1.bad: $2" "$B/err"; then ok; else
		bad "malformed $1: exit $rc, stderr: $(cat "$B/err")"
	fi
}
[ -f "$B/pie-O0.map" ] || : > "$B/pie-O0.map"
{ hdr; hist 0 4096 1024 100; zeros 100; } > "$B/short-bins.bad"
malformed short-bins "short histogram: 1024 bins need 2048 bytes"
{ hdr; hist 0 4096 1024 100 | head -c 20; } > "$B/short-head.bad"
malformed short-head "short histogram record header"
{ hdr; hist 0 4096 5000 100; zeros 10000; } > "$B/nbins.bad"
malformed nbins "impossible bin count 5000"
{ hdr; hist 0 4096 0 100; } > "$B/nbins0.bad"
malformed nbins0 "impossible bin count 0"
{ hdr; hist 4096 4096 16 100; zeros 32; } > "$B/empty.bad"
malformed empty "histogram range 0x1000-0x1000 is empty"
{ hdr; hist 8192 4096 16 100; zeros 32; } > "$B/inverted.bad"
malformed inverted "histogram range 0x2000-0x1000 is empty"
{ hdr; hist 0 4096 16 100; zeros 32; printf '\007'; zeros 20; } > "$B/tag.bad"
malformed tag "unknown record tag 7 at offset 93"
{ hdr; hist 0 4096 16 100; zeros 32; printf '\001'; zeros 10; } > "$B/arc.bad"
malformed arc "short call arc record at offset 93"
{ hdr; } > "$B/nohist.bad"
malformed nohist "no histogram record"
{ hdr; hist 0 4096 16 100; zeros 32; hist 0 8192 16 100; zeros 32; } \
    > "$B/ranges.bad"
malformed ranges "histogram records overlap (0x0-0x1000 in 16 bins, 0x0-0x2000 in 16)"
{ hdr; hist 0 4096 16 100; zeros 32; hist 0 4096 16 60; zeros 32; } \
    > "$B/rates.bad"
malformed rates "histogram records disagree on the profiling rate"
{ le64 0; le64 4096; le32 5000; le32 0x51879; le32 100; zeros 12; zeros 64; } \
    > "$B/bsdcount.bad"
malformed bsdcount "impossible byte count 5000"
{ le64 0; le64 4096; le32 72; le32 0x51879; le32 100; zeros 12; zeros 32; zeros 5; } \
    > "$B/bsdarc.bad"
malformed bsdarc "short call arc record at offset 72"
# call counts never wrap: two arcs of 2^63 calls add up past 2^64 - 1
{ le64 0; le64 4096; le32 72; le32 0x51879; le32 100; zeros 12; zeros 32
  for from in 16 32; do le64 $from; le64 64; le32 0; le32 0x80000000; done; } \
    > "$B/callsum.bad"
malformed callsum "call counts add up past 2^64 - 1 (the call arc at offset 96)"

# --- mutations: a report, or messages and exit 1; never a crash ----------
# (a mutation that breaks the "gmon" magic makes a kernel profile, or not
# even that: the kernel path's messages then)
NMUT=${GMON_MUTATIONS:-90}
i=0
for g in "$F"/*.gmon "$B"/gnu-le8-3rec.gmon "$B"/bsd-le8.gmon "$B"/bsd-be8.gmon; do
	[ -f "$g" ] || continue
	k=0
	while [ $k -lt $((NMUT / 6)) ]; do
		i=$((i + 1)) k=$((k + 1))
		"$GMONTOOL" mutate "$g" "$i" > "$B/mut.gmon"
		for o in -v -b "--pprof -"; do	# --pprof: the call graph
			# shellcheck disable=SC2086 # an option and its argument
			rp $o -p "$B/mut.gmon" -m "$F/hot.map" > "$B/out" 2> "$B/err"
			rc=$?
			if [ $rc -eq 0 ] && [ -s "$B/out" ] &&
			    ! joined "$B/err" | grep -qv "^readprofile: warning: "; then
				ok
			elif [ $rc -eq 1 ] && cut_short && [ -s "$B/err" ] &&
			    ! grep -qv "^readprofile: " "$B/err"; then
				ok
			else
				bad "mutation $i of $(basename "$g") $o: exit $rc," \
				    "stderr: $(head -c 300 "$B/err")"
			fi
		done
	done
done

summary
