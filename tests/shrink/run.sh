#!/bin/sh
# run.sh - an input whose size changes while readprofile reads it.
#
#   RP=/abs/readprofile TRUNC_AT=/abs/trunc_at sh tests/shrink/run.sh
#
# Makes (with python3) a profile of several read windows, a text map of
# many read buffers and an ELF file of many symbol chunks (as and ld;
# skipped without them), then for each of them runs
#     readprofile -p PROFILE -m MAP > FILE
# under trunc_at (tests/shrink/trunc_at.c), which cuts the input short
# (or lengthens it) on entering the Nth read or write call of the run:
# N swept from the first read of that input (it is open by then) through
# the other input's reads and the report's writes to the last write.
# Each run must end either with exit 1, one message naming the input as
# changed and an empty FILE, or (the report goes out as it is made) the
# part of the report made before the change was caught, that message and
# a line saying the report above is incomplete (no report that looks
# complete); or, when the change came after the input was read and
# checked for the last time, with the same report as an undisturbed run.
# The profile is checked once it is read, before the report: a change
# there leaves no report.  A change at or
# before the last read of the input must be an error.  With --pprof the
# ELF map's headers are read once more after the report (its Mapping): a
# change at that last read is an error too, leaving no file.  Prints FAIL lines,
# then "shrink: N passed, N failed".  SHRINK_POINTS: moments per case
# (default 24).  Skipped where ptrace is not permitted (qemu-user, some
# containers) or python3 is missing.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=shrink
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary}"
: "${TRUNC_AT:?set TRUNC_AT to the trunc_at helper}"
POINTS=${SHRINK_POINTS:-24}
# LeakSanitizer cannot run under ptrace: leaks are the other suites' to find
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

[ -x "$TRUNC_AT" ] || { echo "shrink: $TRUNC_AT: not built"; exit 1; }
"$TRUNC_AT" 0 0 /dev/null true 2>/dev/null ||
	suite_skipped "ptrace is not permitted here"
have "$PYTHON" || suite_skipped "no python3 to make the inputs"

# ---- inputs ----------------------------------------------------------------
# NSYM text symbols of 64 bytes from 0xffffffff81000000 (_stext), names of
# some 40 bytes: a text map of about 4 MB, a profile at step 4 of about as
# much (15 windows of 256 KiB), one counter in three hit.
NSYM=60000
"$PYTHON" - "$TMP" "$NSYM" <<'PY' || { echo "shrink: cannot make the inputs"; exit 1; }
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
base = 0xffffffff81000000
names = ["kernel_function_number_%06d_of_the_text" % i for i in range(n)]
with open(d + "/map", "w") as m:
    m.write("%016x T _stext\n" % base)
    for i, nm in enumerate(names):
        m.write("%016x %s %s\n" % (base + 64 + 64 * i, "tT"[i % 2], nm))
    m.write("%016x T _etext\n" % (base + 64 + 64 * n))
with open(d + "/s.s", "w") as s:
    s.write("\t.text\n\t.globl _stext\n_stext:\n\t.skip 64\n")
    for i, nm in enumerate(names):
        if i % 2 == 0:
            s.write("\t.globl %s\n" % nm)
        s.write("%s:\n\t.skip 64\n" % nm)
    s.write("\t.globl _etext\n_etext:\n")
words = (64 + 64 * n) // 4 + 1
r, w = 1, [4]
for k in range(1, words):
    r = (r * 1103515245 + 12345) & 0x7fffffff
    w.append((r >> 8) % 50 if r % 3 == 0 else 0)
with open(d + "/profile", "wb") as p:
    p.write(struct.pack("<%dI" % len(w), *w))
PY
ELF=
if have as && have ld; then
	as -o "$TMP/s.o" "$TMP/s.s" &&
	ld -e _stext -Ttext=0xffffffff81000000 -o "$TMP/elf" "$TMP/s.o" &&
	ELF=$TMP/elf
fi
[ -n "$ELF" ] || skipped "the ELF cases: no as/ld"
rm -f "$TMP/s.s" "$TMP/s.o"

# sweep LABEL FILE NEWSIZE ARGS...: readprofile ARGS > out, FILE resized
# to NEWSIZE at moments spread over the run
sweep() {
	label=$1 file=$2 newsize=$3
	shift 3
	cp "$file" "$file.orig"
	# shellcheck disable=SC2086 # RP_WRAP: a command and its options
	"$TRUNC_AT" 0 0 "$file" $RP_WRAP "$RP" "$@" > "$TMP/want" \
	    2> "$TMP/want.err"
	rc=$?
	stats=$(sed -n 's/^events \([0-9]*\) first \([0-9]*\) last \([0-9]*\)$/\1 \2 \3/p' \
	    "$TMP/want.err")
	[ -n "$stats" ] || { bad "$label: trunc_at said nothing"; return; }
	# shellcheck disable=SC2086 # three numbers
	set -- $stats "$@"
	events=$1 first=$2 last=$3
	shift 3
	sed -i '/^events [0-9]* first [0-9]* last [0-9]*$/d' "$TMP/want.err"
	if [ "$rc" != 0 ] || [ -s "$TMP/want.err" ] || [ "$first" -lt 1 ] ||
	    [ "$last" -lt "$first" ]; then
		bad "$label: the undisturbed run (exit $rc, events $events, reads $first-$last): $(head -c 300 "$TMP/want.err")"
		return
	fi
	errors=0
	i=0
	while [ "$i" -lt "$POINTS" ]; do
		# moments first .. events, spread evenly, both ends included
		n=$((first + i * (events - first) / (POINTS - 1)))
		i=$((i + 1))
		cp "$file.orig" "$file"
		# shellcheck disable=SC2086
		"$TRUNC_AT" "$n" "$newsize" "$file" $RP_WRAP "$RP" "$@" \
		    > "$TMP/out" 2> "$TMP/err"
		rc=$?
		sed -i '/^events [0-9]* first [0-9]* last [0-9]*$/d' "$TMP/err"
		what="$label, change at call $n of $events (reads $first-$last)"
		if [ "$rc" = 1 ]; then
			nerr=1
			[ -s "$TMP/out" ] && nerr=2
			if [ -s "$TMP/out" ] && { [ "$file" = "$P" ] ||
			    [ "$(tail -n 1 "$TMP/err")" != "readprofile: the report above is incomplete" ]; }; then
				bad "$what: exit 1, $(wc -c < "$TMP/out") bytes of report left, stderr: $(head -c 300 "$TMP/err")"
			elif ! head -n 1 "$TMP/err" | grep -q "^readprofile: $file: the file \(shrank\|grew\) while being read" ||
			    [ "$(wc -l < "$TMP/err")" != $nerr ]; then
				bad "$what: exit 1, message: $(head -c 300 "$TMP/err")"
			else
				errors=$((errors + 1))
				ok
			fi
		elif [ "$rc" = 0 ] && [ "$n" -gt "$last" ] &&
		    cmp -s "$TMP/out" "$TMP/want" && cmp -s "$TMP/err" "$TMP/want.err"; then
			ok
		else
			bad "$what: exit $rc, $(wc -c < "$TMP/out") of $(wc -c < "$TMP/want") bytes, stderr: $(head -c 300 "$TMP/err")"
		fi
	done
	[ "$errors" -gt 0 ] || bad "$label: no change was caught"
	cp "$file.orig" "$file"
	rm -f "$file.orig"
}

P=$TMP/profile M=$TMP/map
psize=$(wc -c < "$P")
msize=$(wc -c < "$M")
sweep "profile cut to 4096 bytes" "$P" 4096 -p "$P" -m "$M"
sweep "profile cut in half, -s" "$P" $((psize / 2)) -s -p "$P" -m "$M"
sweep "profile grown" "$P" $((psize + 4096)) -p "$P" -m "$M"
sweep "text map cut to 4096 bytes" "$M" 4096 -p "$P" -m "$M"
sweep "text map cut in half, -a" "$M" $((msize / 2)) -a -p "$P" -m "$M"
sweep "text map grown" "$M" $((msize + 100)) -p "$P" -m "$M"
if [ -n "$ELF" ]; then
	esize=$(wc -c < "$ELF")
	sweep "ELF map cut to 4096 bytes" "$ELF" 4096 -p "$P" -m "$ELF"
	sweep "ELF map cut in half, -a" "$ELF" $((esize / 2)) -a -p "$P" -m "$ELF"
	sweep "ELF map grown" "$ELF" $((esize + 4096)) -p "$P" -m "$ELF"
	# --pprof reads the ELF map's headers again after the report, for
	# its Mapping (elf_peek, sym/elfsym.c): a change at the last read of that is
	# an error naming the map too, and leaves no --pprof file
	cp "$ELF" "$ELF.orig"
	for newsize in 4096 $((esize + 4096)); do
		rm -f "$TMP/p.pb.gz"
		# shellcheck disable=SC2086 # RP_WRAP: a command and its options
		"$TRUNC_AT" 0 0 "$ELF" $RP_WRAP "$RP" --pprof "$TMP/p.pb.gz" \
		    -p "$P" -m "$ELF" 2> "$TMP/err"
		last=$(sed -n 's/^events [0-9]* first [0-9]* last \([0-9]*\)$/\1/p' \
		    "$TMP/err")
		if [ ! -s "$TMP/p.pb.gz" ] || [ -z "$last" ]; then
			bad "--pprof, ELF map: the undisturbed run: $(head -c 300 "$TMP/err")"
			continue
		fi
		rm -f "$TMP/p.pb.gz"
		# shellcheck disable=SC2086
		"$TRUNC_AT" "$last" "$newsize" "$ELF" $RP_WRAP "$RP" \
		    --pprof "$TMP/p.pb.gz" -p "$P" -m "$ELF" 2> "$TMP/err"
		rc=$?
		sed -i '/^events [0-9]* first [0-9]* last [0-9]*$/d' "$TMP/err"
		if [ "$rc" = 1 ] && [ ! -e "$TMP/p.pb.gz" ] &&
		    [ "$(wc -l < "$TMP/err")" = 1 ] &&
		    grep -q "^readprofile: $ELF: the file \(shrank\|grew\) while being read" "$TMP/err"
		then ok; else
			bad "--pprof, ELF map resized to $newsize at its last read (call $last): exit $rc, $(ls "$TMP" | grep -c '^p\.pb\.gz') file(s), stderr: $(head -c 300 "$TMP/err")"
		fi
		cp "$ELF.orig" "$ELF"
	done
	rm -f "$ELF.orig"
fi
summary
