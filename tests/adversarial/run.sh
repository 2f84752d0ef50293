#!/bin/sh
# run.sh - nothing lost, nothing quadratic: the attacks of an adversarial
# review, each made deterministic.
#
#   RP=/abs/readprofile [RP_CAP=/abs/readprofile-cap] [ANTIQSORT=/abs/antiqsort]
#   [GMONTOOL=/abs/gmontool] sh tests/adversarial/run.sh
#
# - other writers' bytes: an error after output began never cuts a file
#   back (>> with a concurrent writer, a copytruncate rotation, 1<>, a
#   pipe, /dev/full), and what it leaves behind is what the man page says;
# - crafted symbol tables and gmon.out files (antiqsort.c, gmontool) give
#   the right report (their timing is make bench's: bench/adversarial.sh);
# - the size cap of ELF maps from pipes and decompressors (RP_CAP: the
#   same program linked with a 1 MiB cap, tests/adversarial/smallcap.c);
# - a decompressor that writes much to stderr does not hang us;
# - --interval checks the map on every report;
# - a profile that changes during the run gives a report that adds up;
# - crafted C++ names (gmontool) stay mangled, counted by one warning,
#   and the run keeps under 2 GB of address space and 10 s.
#
# Profiles come through FIFOs where the order of events matters: a read of
# the profile then happens exactly when the test writes it.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=adversarial
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"

W=$TMP/w
mkdir "$W" || exit 1

# verdict NAME: pass when $bad is empty
verdict() {
	if [ -z "$bad" ]; then
		ok
	else
		bad "$1:$bad"
		[ -s "$TMP/err" ] && sed -n '1,5s/^/    stderr: /p' "$TMP/err"
	fi
	bad=
}
bad=

# wait_for COUNT PATTERN FILE: until FILE holds COUNT lines matching
# PATTERN (a generous bound: 60 s); returns 1 when they never came.
wait_for() {
	_t=0
	while [ "$(grep -c -e "$2" "$3" 2>/dev/null)" -lt "$1" ]; do
		[ $_t -lt 1200 ] || return 1
		sleep 0.05
		_t=$((_t + 1))
	done
}

# bg_write FILE FIFO: write FILE into FIFO in the background (blocks until
# readprofile opens it)
bg_write() {
	cat "$1" > "$2" &
	BGPIDS="$BGPIDS $!"
}
# holds_p: whether readprofile $RPPID has the FIFO $W/P open
holds_p() {
	ls -l "/proc/$RPPID/fd" 2>/dev/null | grep -q -e " -> $W/P\$"
}
# feed FILE: one read of the FIFO profile $W/P by readprofile $RPPID: the
# whole of FILE, then the end of input.  The FIFO is held open until
# readprofile has it open too (it cannot see the end before), and the
# next writer waits until readprofile has closed it, or two writers
# would make one read.
feed() {
	_t=0
	# an open interrupted by a signal (a child of the shell ending) is
	# tried again
	until (
		cat "$1"
		_n=0
		until holds_p || [ $_n -ge 1200 ]; do
			sleep 0.05
			_n=$((_n + 1))
		done
	) > "$W/P"; do
		kill -0 "$RPPID" 2>/dev/null || return 1
		[ $_t -lt 20 ] || return 1
		_t=$((_t + 1))
	done
	_t=0
	while holds_p; do
		[ $_t -lt 1200 ] || return 1
		sleep 0.05
		_t=$((_t + 1))
	done
}
bg_done() {
	for _p in $BGPIDS; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	BGPIDS=
}

cp "$TOP/fixtures/inputs/rich.map" "$W/" || exit 2
sh "$TOP/tests/golden/mkprof.sh" "$TOP/fixtures/inputs/rich.words" "$W/rich" ||
	exit 2
RICH=$TOP/fixtures/cases/rich/expected.out
# Another shape: --interval refuses it at the next read.
printf 'le 8 1 2 3\n' > "$TMP/short.words"
sh "$TOP/tests/golden/mkprof.sh" "$TMP/short.words" "$W/short" || exit 2
mkfifo "$W/P" || exit 2
# The report --interval prints for an unchanged profile: every count 0.
"$RP" -p "$W/rich" --baseline "$W/rich" -m "$W/rich.map" > "$TMP/zero" ||
	exit 2

# --- other writers' bytes -----------------------------------------------------

# interval_then_fail OUT-REDIRECTION-SETUP: start readprofile --interval
# on the FIFO profile with stdout to $LOG as opened by $MODE (append,
# rw), let it print one report, run the shell command $BETWEEN, then make
# the next read fail.  Sets rc; stderr in $TMP/err.
interval_then_fail() {
	case $MODE in
	append) $RP_WRAP "$RP" --interval 0.01 -p "$W/P" -m "$W/rich.map" \
	    >>"$LOG" 2>"$TMP/err" & ;;
	rw) $RP_WRAP "$RP" --interval 0.01 -p "$W/P" -m "$W/rich.map" \
	    1<>"$LOG" 2>"$TMP/err" & ;;
	esac
	RPPID=$!
	feed "$W/rich"		# the first read
	feed "$W/rich"		# the second: report 1
	wait_for 1 '^ *0 total' "$LOG" || bad="$bad no first report;"
	eval "$BETWEEN"
	feed "$W/short"		# the third: an error
	wait $RPPID
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
	grep -q '^readprofile: .*P: the profile changed shape' "$TMP/err" ||
		bad="$bad no error message;"
}

# The reproducer of the review: another process appends to the log
# between two reports; the error that follows must not take its line.
LOG=$TMP/log
echo line0 > "$LOG"
MODE=append BETWEEN='echo IMPORTANT >> "$LOG"' interval_then_fail
# line0, the report of interval 1 (its "---" line and the report), IMPORTANT
awk 'NR == 1 && $0 != "line0" { print "line 1: " $0 }
     NR == 2 && !/^--- .* interval 1: / { print "line 2: " $0 }' "$LOG" \
    > "$TMP/why"
[ -s "$TMP/why" ] && bad="$bad $(cat "$TMP/why");"
sed -n '3,$p' "$LOG" | head -n "$(wc -l < "$TMP/zero")" | cmp -s - "$TMP/zero" ||
	bad="$bad report 1 is not whole;"
[ "$(tail -n 1 "$LOG")" = IMPORTANT ] || bad="$bad IMPORTANT is gone;"
[ "$(wc -l < "$LOG")" = $(($(wc -l < "$TMP/zero") + 3)) ] ||
	bad="$bad $(wc -l < "$LOG") lines in the log;"
verdict ">> with a concurrent writer"

# A copytruncate rotation between two reports: the log is emptied; the
# error must not stretch it back to its old size.
echo line0 > "$LOG"
MODE=append BETWEEN='cp "$LOG" "$LOG.1"; : > "$LOG"' interval_then_fail
[ -s "$LOG" ] && bad="$bad the emptied log has $(wc -c < "$LOG") bytes;"
grep -q '^--- ' "$LOG.1" || bad="$bad the rotated log lacks report 1;"
verdict "copytruncate rotation"

# 1<>: stdout opened read-write at offset 0 over a longer file; report 1
# overwrites its start (as asked), the rest stays, nothing is cut.
awk 'BEGIN { for (i = 0; i < 2000; i++) print "keep " i }' > "$LOG"
cp "$LOG" "$TMP/before"
MODE=rw BETWEEN= interval_then_fail
[ "$(wc -c < "$LOG")" = "$(wc -c < "$TMP/before")" ] ||
	bad="$bad size $(wc -c < "$LOG"), was $(wc -c < "$TMP/before");"
# our bytes: the "---" line and the report
L=$(($(head -n 1 "$LOG" | wc -c) + $(wc -c < "$TMP/zero")))
tail -c +$((L + 1)) "$LOG" > "$TMP/rest"
tail -c +$((L + 1)) "$TMP/before" | cmp -s - "$TMP/rest" ||
	bad="$bad the bytes after report 1 changed;"
verdict "1<> over a longer file"

# A pipe: the reader gets every whole report and nothing of the one the
# error stopped.
mkfifo "$W/pipe" || exit 2
cat "$W/pipe" > "$LOG" &
catpid=$!
$RP_WRAP "$RP" --interval 0.01 -p "$W/P" -m "$W/rich.map" >"$W/pipe" \
    2>"$TMP/err" &
RPPID=$!
feed "$W/rich"
feed "$W/rich"
feed "$W/rich"
feed "$W/short"
wait $RPPID
rc=$?
wait $catpid
[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
[ "$(grep -c '^--- ' "$LOG")" = 2 ] || bad="$bad not 2 reports;"
[ "$(tail -n 1 "$LOG")" = "$(tail -n 1 "$TMP/zero")" ] ||
	bad="$bad the last report is not whole;"
verdict "a pipe"

# A late error in a single report (an address going backwards just
# before _etext in a large map): others' bytes kept, the report as far as
# it was made after them, and a line on stderr saying it is incomplete.
gzip -dc "$TOP/fixtures/real/profile.gz" > "$W/real.profile" &&
	gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$W/real.map" || exit 2
awk '/ T _etext$/ { print "0000000000000001 T backwards" } { print }' \
    "$W/real.map" > "$W/late.map"
echo earlier > "$LOG"
$RP_WRAP "$RP" -a -p "$W/real.profile" -m "$W/late.map" >>"$LOG" \
    2>"$TMP/err"
rc=$?
[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
[ "$(head -n 1 "$LOG")" = earlier ] || bad="$bad the first line is gone;"
[ "$(wc -c < "$LOG")" -gt 1048576 ] || bad="$bad $(wc -c < "$LOG") bytes only;"
grep -q 'address goes backwards' "$TMP/err" || bad="$bad no message;"
[ "$(tail -n 1 "$TMP/err")" = "readprofile: the report above is incomplete" ] ||
	bad="$bad no line saying the report is incomplete;"
verdict "late error, >> a file: others' bytes kept, the report so far, said incomplete"

# /dev/full: the write error, exit 1; with --interval at the first report.
for a in "" "--interval 0.01"; do
	p=$W/rich
	[ -n "$a" ] && p=$W/P
	# shellcheck disable=SC2086
	$RP_WRAP "$RP" $a -p "$p" -m "$W/rich.map" \
	    >/dev/full 2>"$TMP/err" &
	RPPID=$!
	[ -n "$a" ] && feed "$W/rich" && feed "$W/rich"
	wait $RPPID
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
	[ "$(cat "$TMP/err")" = "readprofile: write error: No space left on device" ] ||
		bad="$bad not the write error;"
	verdict "/dev/full ${a:-single report}"
done

# No temporary directory: the report does not need one.
# (Not under RP_WRAP: valgrind itself needs TMPDIR.)
if [ -z "$RP_WRAP" ]; then
	TMPDIR=$TMP/nonexistent $RP_WRAP "$RP" -a -p "$W/real.profile" \
	    -m "$W/real.map" >"$LOG" 2>"$TMP/err"
	rc=$?
	"$RP" -a -p "$W/real.profile" -m "$W/real.map" | cmp -s - "$LOG" ||
		bad="$bad not the report;"
	[ $rc = 0 ] && [ ! -s "$TMP/err" ] || bad="$bad exit $rc or a message;"
	verdict "no temporary directory, no error: the report"
fi

# --- crafted symbol tables and gmon.out files -----------------------------------
# The timing is make bench's (bench/adversarial.sh: 160,000 symbols and
# 100,000 ranges, under 1 s); here the reports must be right.

if [ -n "${ANTIQSORT:-}" ] && [ -n "${SYMDUMP:-}" ]; then
	n=${ADV_SYMS:-40000}	# the generator itself is quadratic
	"$ANTIQSORT" "$n" "$W/adv" && "$ANTIQSORT" "$n" "$W/twin" shuffled ||
		exit 2
	if command -v nm >/dev/null 2>&1; then
		"$SYMDUMP" "$W/adv" > "$TMP/ours" 2>"$TMP/err" ||
			bad="$bad symdump failed;"
		nm -n --defined-only "$W/adv" |
		    awk '{ printf "%016s %s %s\n", $1, $2, $3 }' > "$TMP/nm"
		cmp -s "$TMP/ours" "$TMP/nm" || bad="$bad symbols differ from nm -n;"
		[ "$(wc -l < "$TMP/nm")" = "$n" ] || bad="$bad nm lists $(wc -l < "$TMP/nm");"
		verdict "antiqsort ELF ($n symbols): the symbols of nm -n"
	fi
	for a in "" -a -v; do
		# shellcheck disable=SC2086
		$RP_WRAP "$RP" $a -m "$W/adv" -p "$W/adv.profile" > "$TMP/ours" \
		    2>"$TMP/err" || bad="$bad exit $?;"
		# shellcheck disable=SC2086
		"$RP" $a -m "$W/twin" -p "$W/twin.profile" > "$TMP/twin" ||
			bad="$bad the twin failed;"
		cmp -s "$TMP/ours" "$TMP/twin" || bad="$bad not the twin's report;"
		[ "$(wc -l < "$TMP/ours")" -gt $((n / 2)) ] || bad="$bad short report;"
		verdict "antiqsort ELF ($n symbols) ${a:-classic}: the shuffled twin's report"
	done
fi

if [ -n "${GMONTOOL:-}" ]; then
	n=100000
	"$GMONTOOL" write many le 8 0x100000 $((0x100000 + n * 16)) 1 100 7 $n \
	    > "$W/many.gmon" &&
	"$GMONTOOL" write manyone le 8 0x100000 $((0x100000 + n * 16)) 1 100 7 $n \
	    > "$W/one.gmon" || exit 2
	awk 'BEGIN { printf "%016x T _stext\n", 1048576
		for (i = 1; i < 40000; i++) printf "%016x T f%d\n", 1048576 + 64 * i, i }' \
	    > "$W/many.map"
	for a in "" -s -b -v -J; do
		# shellcheck disable=SC2086
		$RP_WRAP "$RP" $a -p "$W/many.gmon" -m "$W/many.map" > "$TMP/ours" \
		    2>"$TMP/err" || bad="$bad exit $?;"
		# shellcheck disable=SC2086
		"$RP" $a -p "$W/one.gmon" -m "$W/many.map" > "$TMP/one" ||
			bad="$bad the one-range twin failed;"
		if [ "$a" = -J ]; then	# the ranges are listed: compare the rest
			sed 's/"ranges":\[[^]]*\]//' "$TMP/ours" > "$TMP/a"
			sed -e 's/"ranges":\[[^]]*\]//' -e 's/one\.gmon/many.gmon/' "$TMP/one" > "$TMP/b"
			cmp -s "$TMP/a" "$TMP/b" || bad="$bad not the one range's report;"
		else
			cmp -s "$TMP/ours" "$TMP/one" || bad="$bad not the one range's report;"
		fi
		verdict "gmon.out of $n ranges ${a:-classic}: the one range's report"
	done
fi

# --- a decompressor that writes much on stderr ----------------------------------
# More than a pipe holds (64 KiB), before its output and after: it must
# not block on stderr while readprofile waits for its output.  The fake
# gzip comes first in PATH; file names are never given to a shell.
if command -v gzip >/dev/null 2>&1; then
	GZIP_REAL=$(command -v gzip)
	mkdir "$TMP/bin" || exit 2
	export GZIP_REAL
	cat > "$TMP/bin/gzip" <<'EOF'
#!/bin/sh
awk 'BEGIN { for (i = 0; i < 4000; i++)
	printf "chatter line %d of the decompressor\n", i > "/dev/stderr" }'
"$GZIP_REAL" "$@" || exit
awk 'BEGIN { for (i = 0; i < 4000; i++) print "more chatter" > "/dev/stderr" }'
EOF
	chmod +x "$TMP/bin/gzip"
	"$GZIP_REAL" -c "$W/rich" > "$W/rich.gz"
	"$GZIP_REAL" -c "$W/rich.map" > "$W/rich.map.gz"
	PATH=$TMP/bin:$PATH timeout -k 5 $((60 * TS)) $RP_WRAP "$RP" -p "$W/rich.gz" \
	    -m "$W/rich.map.gz" > "$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 0 ] || bad="$bad exit $rc;"
	cmp -s "$RICH" "$TMP/out" || bad="$bad wrong report;"
	verdict "a decompressor writing 150 KB on stderr"
	# failing after its chatter: the message gives its first line
	printf 'not gzip\n' > "$W/bad.gz"
	PATH=$TMP/bin:$PATH timeout -k 5 $((60 * TS)) $RP_WRAP "$RP" -p "$W/bad.gz" \
	    -m "$W/rich.map" > "$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
	[ "$(cat "$TMP/err")" = "readprofile: $W/bad.gz: gzip failed (exit status 1): chatter line 0 of the decompressor" ] ||
		bad="$bad not the message with its first line;"
	[ -s "$TMP/out" ] && bad="$bad output;"
	verdict "a chatty decompressor that fails"
fi

# --- --interval: the map's fit on every report ----------------------------------
# The map is replaced by another kernel's after report 1: the reports
# after it draw the warning, once; put back, then replaced again: once
# more.
sed 's/^ffffffff810000c0 T _etext$/ffffffff810000b0 T _etext/' \
    "$W/rich.map" > "$W/misfit.map"
cp "$W/rich.map" "$W/cur.map"
$RP_WRAP "$RP" --interval 0.01 -p "$W/P" -m "$W/cur.map" >"$TMP/out" \
    2>"$TMP/err" &
RPPID=$!
feed "$W/rich"
feed "$W/rich"			# report 1: the map fits
wait_for 1 '^ *0 total' "$TMP/out" || bad="$bad no report 1;"
[ -s "$TMP/err" ] && bad="$bad a warning for a map that fits;"
cp "$W/misfit.map" "$W/new.map" && touch -d '2001-01-01' "$W/new.map" &&
	mv "$W/new.map" "$W/cur.map"
feed "$W/rich"			# reports 2-4: the other kernel's map
feed "$W/rich"
feed "$W/rich"
wait_for 4 '^ *0 total' "$TMP/out" || bad="$bad no report 4;"
[ "$(grep -c 'does not match' "$TMP/err")" = 1 ] ||
	bad="$bad $(grep -c 'does not match' "$TMP/err") warnings after the change, not 1;"
cp "$W/rich.map" "$W/new.map" && mv "$W/new.map" "$W/cur.map"
feed "$W/rich"			# report 5: it fits again
wait_for 5 '^ *0 total' "$TMP/out" || bad="$bad no report 5;"
cp "$W/misfit.map" "$W/new.map" && mv "$W/new.map" "$W/cur.map"
feed "$W/rich"			# report 6: changed again
feed "$W/short"			# the end (an error)
wait $RPPID
[ "$(grep -c 'does not match' "$TMP/err")" = 2 ] ||
	bad="$bad $(grep -c 'does not match' "$TMP/err") warnings in all, not 2;"
grep -q "warning: $W/cur.map does not match $W/P: _etext - _stext is 176 bytes, 22 counters" \
    "$TMP/err" || bad="$bad not the warning;"
verdict "--interval: a map that changes is checked again, warned once"

# --- the size cap of an ELF map from a pipe or a decompressor -------------------
# RP_CAP is the program linked with a 1 MiB cap (the installed one has
# 1 GiB, as for profiles): an ELF file (the program itself) followed by
# zeros, through a pipe and as a small .gz that expands to 64 MiB.
if [ -n "${RP_CAP:-}" ]; then
	capmsg="too large for a symbol file read from a pipe or a decompressor (more than 1048576 bytes)"
	# run by the name readprofile, which its messages start with
	mkdir -p "$TMP/cap" && ln -sf "$RP_CAP" "$TMP/cap/readprofile" || exit 2
	{ cat "$RP_CAP"; head -c 3000000 /dev/zero; } |
	    $RP_WRAP "$TMP/cap/readprofile" -m - -p "$W/rich" > "$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
	[ "$(cat "$TMP/err")" = "readprofile: -: $capmsg" ] || bad="$bad not the cap's message;"
	[ -s "$TMP/out" ] && bad="$bad output;"
	verdict "ELF map from a pipe: the cap"
	if command -v gzip >/dev/null 2>&1; then
		{ cat "$RP_CAP"; head -c 67108864 /dev/zero; } | gzip -1 -c > "$W/bomb.gz"
		timed 60 $RP_WRAP "$TMP/cap/readprofile" -m "$W/bomb.gz" -p "$W/rich" \
		    > "$TMP/out" 2>"$TMP/err"
		rc=$?
		[ $rc = 1 ] || bad="$bad exit $rc, expected 1;"
		[ "$(cat "$TMP/err")" = "readprofile: $W/bomb.gz: $capmsg" ] ||
			bad="$bad not the cap's message;"
		[ "$(wc -c < "$W/bomb.gz")" -lt 1048576 ] || bad="$bad the bomb is large;"
		verdict "ELF map from a decompression bomb: the cap"
	fi
fi
if [ -n "${ANTIQSORT:-}" ]; then	# under the cap: read as from the file
	"$RP" -m "$W/adv" -p "$W/adv.profile" > "$TMP/want"
	cat "$W/adv" | $RP_WRAP "$RP" -m - -p "$W/adv.profile" > "$TMP/out" \
	    2>"$TMP/err" || bad="$bad exit $?;"
	cmp -s "$TMP/want" "$TMP/out" || bad="$bad not the report;"
	verdict "ELF map from a pipe, under the cap"
fi

# --- one read of the counters for every view ------------------------------------
# --top -s: the bucket lines of a function must add up to its ticks
# (--exact), even when the profile changes during the run.  The profile
# has 3 million non-zero counters (its index would exceed its budget, so
# the counters come from the file); the map comes through a FIFO, and the
# profile is rewritten in place while readprofile waits for the map's
# last lines, after it has summed the hot function.
if command -v "$PYTHON" >/dev/null 2>&1; then
	"$PYTHON" - "$W/big" "$W/big.map" "$W/big.new" <<'EOF'
import struct, sys
n = 3000000
w = [4] + [1 + (k % 3) for k in range(n)]
for k in range(1000, 1100):
    w[k] = 50000
open(sys.argv[1], "wb").write(struct.pack("<%dI" % len(w), *w))
for k in range(1000, 1100):
    w[k] = 7
open(sys.argv[3], "wb").write(struct.pack("<%dI" % len(w), *w))
with open(sys.argv[2], "w") as m:
    m.write("%016x T _stext\n" % 0x1000000)
    for i in range(1, 180):
        m.write("%016x T f%d\n" % (0x1000000 + i * 65536, i))
    m.write("%016x T _etext\n" % (0x1000000 + 4 * n))
EOF
	head -n 170 "$W/big.map" > "$W/big.map1"
	tail -n +171 "$W/big.map" > "$W/big.map2"
	mkfifo "$W/M" || exit 2
	$RP_WRAP "$RP" --exact --top 1 -s -p "$W/big" -m "$W/M" > "$TMP/out" \
	    2>"$TMP/err" &
	RPPID=$!
	exec 7>"$W/M"		# held open: the map's end comes when we say
	cat "$W/big.map1" >&7
	# readprofile blocked reading the map (syscall 0, read), twice in a row
	_t=0 _seen=0
	while [ $_seen -lt 2 ] && [ $_t -lt 1200 ]; do
		read -r nr _rest < "/proc/$RPPID/syscall" 2>/dev/null || nr=
		if [ "$nr" = 0 ]; then _seen=$((_seen + 1)); else _seen=0; fi
		sleep 0.05
		_t=$((_t + 1))
	done
	dd if="$W/big.new" of="$W/big" conv=notrunc bs=1M 2>/dev/null
	cat "$W/big.map2" >&7
	exec 7>&-
	wait $RPPID
	rc=$?
	[ $rc = 0 ] || bad="$bad exit $rc;"
	# the header row, the function, its buckets
	awk 'NR == 1 { next } NR == 2 { t = $1; next } /^\t/ { s += $NF; next }
	     { exit } END { if (s != t || t == 0) printf "buckets %d, ticks %d", s, t }' \
	    "$TMP/out" > "$TMP/why"
	[ -s "$TMP/why" ] && bad="$bad $(cat "$TMP/why");"
	verdict "--top -s on a profile rewritten during the run: buckets add up"
fi

# --- one rule for numbers -------------------------------------------------------
# As util-linux reads -M (strtol, base 10): leading blanks and a plus sign
# are taken, by --top, --iterations, --interval and --hz too; a minus sign
# is refused.
"$RP" --top 5 -p "$W/rich" -m "$W/rich.map" > "$TMP/want" 2>/dev/null
for v in ' 5' '+5' '	 +5'; do
	$RP_WRAP "$RP" --top "$v" -p "$W/rich" -m "$W/rich.map" > "$TMP/out" \
	    2>"$TMP/err" || bad="$bad exit $?;"
	cmp -s "$TMP/want" "$TMP/out" || bad="$bad not --top 5's report;"
	verdict "--top '$v' is --top 5, as -M '$v' is -M 5"
done
for v in ' -5' '5 ' ' ' '+ 5' '++5'; do
	$RP_WRAP "$RP" --top "$v" -p "$W/rich" -m "$W/rich.map" > "$TMP/out" \
	    2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc;"
	[ "$(cat "$TMP/err")" = "readprofile: --top: not a whole number from 1 to 9223372036854775807: '$v'" ] ||
		bad="$bad not the message;"
	verdict "--top '$v' refused"
done
timed 60 $RP_WRAP "$RP" --interval ' +0.01' --iterations ' 2' \
    -p "$W/rich" -m "$W/rich.map" > "$TMP/out" 2>"$TMP/err" || bad="$bad exit $?;"
[ "$(grep -c '^--- ' "$TMP/out")" = 2 ] || bad="$bad not 2 reports;"
verdict "--interval ' +0.01' --iterations ' 2'"
$RP_WRAP "$RP" --interval ' nan' -p "$W/rich" -m "$W/rich.map" > "$TMP/out" \
    2>"$TMP/err"
[ $? = 1 ] || bad="$bad not refused;"
verdict "--interval ' nan' refused"
# Decimal only, for every one of them: what strtod alone would take
# (hexadecimal, exponents) is refused by --interval as by --top and -M.
for v in 0x10 0x0.2 0x1p-3 1e-2 .5 5. inf; do
	$RP_WRAP "$RP" --interval "$v" -p "$W/rich" -m "$W/rich.map" \
	    > "$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc;"
	[ "$(cat "$TMP/err")" = "readprofile: --interval: not a number of seconds from 0.001 to 86400: '$v'" ] ||
		bad="$bad not the message;"
	[ -s "$TMP/out" ] && bad="$bad output;"
	verdict "--interval '$v' refused"
done
for o in --top --iterations --hz; do
	$RP_WRAP "$RP" $o 0x10 -p "$W/rich" -m "$W/rich.map" > "$TMP/out" \
	    2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || bad="$bad exit $rc;"
	grep -q "^readprofile: $o: not a whole number from 1 to [0-9]*: '0x10'\$" \
	    "$TMP/err" || bad="$bad not the message;"
	verdict "$o 0x10 refused"
done
$RP_WRAP "$RP" -M 0x10 > "$TMP/out" 2>"$TMP/err"
[ $? = 1 ] || bad="$bad not refused;"
[ "$(cat "$TMP/err")" = "readprofile: failed to parse multiplier: '0x10'" ] ||
	bad="$bad not the message;"
verdict "-M 0x10 refused"

# --- a symbol of 17 hex digits --------------------------------------------------
# It reads as the largest address (as util-linux reads it): beyond the
# profile, while _etext fits; the detail names it, not sizes that agree.
{
	sed -n '/ T _stext$/,/ T tail_fn$/p' "$W/rich.map"
	echo "1ffffffff81000010 T seventeen"
	grep ' T _etext$' "$W/rich.map"
} > "$W/hex17.map"
$RP_WRAP "$RP" -p "$W/rich" -m "$W/hex17.map" > "$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || bad="$bad exit $rc;"
line=$(grep -n seventeen "$W/hex17.map" | cut -d: -f1)
printf '%s\n' "readprofile: profile address out of range. Wrong map file?" \
    "readprofile: $W/hex17.map($line): seventeen at 0xffffffffffffffff lies beyond the end of the profile's text (0xffffffff810000c0); an address of more than 16 hex digits reads as the largest one" \
    > "$TMP/want"
# (after the functions before it, as they were made)
[ -s "$TMP/out" ] && echo "readprofile: the report above is incomplete" >> "$TMP/want"
cmp -s "$TMP/want" "$TMP/err" || bad="$bad not the message;"
verdict "a 17-hex-digit symbol: the detail names it"
# The same symbol with more than the map reader's buffer of data lines
# between it and _etext: the detail still names it, though its line is
# long gone from that buffer when _etext is found.
{
	sed -n '/ T _stext$/,/ T tail_fn$/p' "$W/rich.map"
	echo "1ffffffff81000010 T seventeen"
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "ffffffff81000010 d filler_%06d_of_the_data_section\n", i }'
	grep ' T _etext$' "$W/rich.map"
} > "$W/hex17far.map"
$RP_WRAP "$RP" -p "$W/rich" -m "$W/hex17far.map" > "$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || bad="$bad exit $rc;"
sed "s|$W/hex17.map|$W/hex17far.map|" "$TMP/want" > "$TMP/want.far"
cmp -s "$TMP/want.far" "$TMP/err" || bad="$bad not the message: $(sed -n 2p "$TMP/err");"
verdict "a 17-hex-digit symbol far before _etext: the detail names it"

# --- a gmon.out whose map has no symbol in its range ----------------------------
# As the man page says: the ticks go to the last text symbol before the
# range, with a warning; when there is none, no function holds a tick:
# an error after the report (said incomplete), exit 1.
if [ -n "${GMONTOOL:-}" ]; then
	"$GMONTOOL" write gnu le 8 0x1000 0x2000 256 100 1 1 > "$W/g.gmon" || exit 2
	printf '0000000000000100 T before\n' > "$W/before.map"
	printf '0000000000003000 T after\n' > "$W/after.map"
	for m in before after; do
		$RP_WRAP "$RP" -p "$W/g.gmon" -m "$W/$m.map" > "$TMP/out" 2>"$TMP/err"
		rc=$?
		case $m in
		before)
			[ $rc = 0 ] || bad="$bad exit $rc;"
			grep -q "warning: no text symbol of $W/$m.map lies in" "$TMP/err" ||
				bad="$bad no warning;"
			all=$(awk '{ s += $1 } END { print s - $1 }' "$TMP/out")
			awk -v a="$all" '$2 == "before" && $1 == a { ok = 1 }
			END { exit !ok }' "$TMP/out" || bad="$bad not all to 'before';" ;;
		after)
			[ $rc = 1 ] || bad="$bad exit $rc;"
			[ -s "$TMP/out" ] && [ "$(tail -n 1 "$TMP/err")" != "readprofile: the report above is incomplete" ] &&
				bad="$bad a report not said incomplete;"
			awk 'NR > 1 { sub(/^readprofile:   /, " ") } { printf "%s", $0 }' "$TMP/err" |
			    grep -q "^readprofile: none of the [1-9][0-9]* ticks in $W/g.gmon lies in a function of $W/$m.map: no text symbol of it lies in the histogram's range 0x1000-0x2000" ||
				bad="$bad not the error;" ;;
		esac
		verdict "gmon.out, no symbol in the range, one $m it"
	done
fi

# --- crafted C++ names: the demangler bounded by the system --------------------
# An expression pack expansion (sp) over a pack of 16 prints its operand
# once for each element: nested, each level multiplies the demangled name
# by 16 (the review's name, 74 bytes, would be gigabytes); other operators,
# packs and depths do the same; nested a++ under sp keep the demangler
# busy with little memory.  Each stays as the map spells it, one warning
# counts them, the other names are demangled, and the run keeps under
# 2 GB and 10 s.  A build with no demangler (musl) says so and shows every
# name as the map spells it, within the same bounds.
# rep S N: S N times
rep() {
	_s= _i=0
	while [ $_i -lt "$2" ]; do _s=$_s$1; _i=$((_i + 1)); done
	printf '%s' "$_s"
}
# bounded ARGS...: readprofile ARGS under 2 GB of address space (but for
# a sanitizer's build, whose shadow memory is larger) and 10 s, output in
# $TMP/out and $TMP/err, status in $rc
bounded() {
	(
		readelf -d "$RP" 2>/dev/null | grep -q 'lib[at]san' ||
			ulimit -v 2097152
		exec timeout $((10 * TS)) "$RP" "$@"
	) > "$TMP/out" 2> "$TMP/err"
	rc=$?
}
if [ -n "${GMONTOOL:-}" ]; then
	p16=iiiiiiiiiiiiiiii
	review="_Z1fIJ${p16}EEDT$(rep spplT_ 7)spT_Ev"
	crafted="$review _Z1fIJ${p16}EEDT$(rep spmiT_ 7)spT_Ev
	    _Z1fIJ${p16}${p16}EEDT$(rep spmlT_ 6)spT_Ev
	    _Z1fIJ${p16}EEDT$(rep spanT_ 9)spT_Ev
	    _Z1fIJiiiiEEDT$(rep speoT_ 14)spT_Ev
	    _Z1fIJiEEDTsp$(rep pp 40)fp_EDpT_"
	"$GMONTOOL" write gnu le 8 0x1000 0x2000 256 100 1 1 > "$W/cxx.gmon" ||
		exit 2
	{
		echo "0000000000001000 T _ZN2ns6Widget4spinEl"
		a=$((0x1100))
		for n in $crafted; do
			printf '%016x T %s\n' $a "$n"
			a=$((a + 0x100))
		done
		printf '%016x T %s\n' $a _ZNSt6vectorIiSaIiEE9push_backERKi
	} > "$W/cxx.map"
	bounded -a -p "$W/cxx.gmon" -m "$W/cxx.map"
	[ $rc = 0 ] || bad="$bad exit $rc (124: over 10 s);"
	for n in $crafted; do
		awk -v n="$n" '$2 == n { ok = 1 } END { exit !ok }' "$TMP/out" ||
			bad="$bad not shown as mangled: $n;"
	done
	if grep -q 'notice: C++ names are shown mangled' "$TMP/err"; then
		grep -q '^ *[0-9]* _ZN2ns6Widget4spinEl ' "$TMP/out" ||
			bad="$bad no demangler, yet a name changed;"
		[ "$(wc -l < "$TMP/err")" = 1 ] || bad="$bad more than the notice;"
	else
		grep -q ' ns::Widget::spin(long) ' "$TMP/out" &&
		grep -q ' std::vector<int, std::allocator<int> >::push_back(int const&) ' "$TMP/out" ||
			bad="$bad the other names not demangled;"
		[ "$(grep -c 'C++ names' "$TMP/err")" = 1 ] &&
		grep -q '^readprofile: warning: 6 C++ names are shown mangled: ' "$TMP/err" ||
			bad="$bad not one warning counting 6 names;"
	fi
	verdict "crafted C++ names: mangled, counted once, the rest demangled, under 2 GB and 10 s"
	# stdout and stderr in one file (>log 2>&1): the warning about the
	# report below its total line (without a demangler there is none)
	"$RP" -a -p "$W/cxx.gmon" -m "$W/cxx.map" > "$TMP/both" 2>&1
	t=$(grep -n ' total ' "$TMP/both" | cut -d: -f1)
	w=$(grep -n '^readprofile: warning: 6 C++ names' "$TMP/both" | cut -d: -f1)
	if ! grep -q 'notice: C++ names are shown mangled' "$TMP/both" &&
	    ! { [ -n "$t" ] && [ -n "$w" ] && [ "$w" -gt "$t" ]; }; then
		bad="$bad one file: the warning not below the report ($w, $t);"
	fi
	verdict "crafted C++ names, >log 2>&1: the report, then the warning below it"
	# the review's name alone, in each view that demangles
	printf '0000000000001000 T %s\n' "$review" > "$W/review.map"
	for a in "" -J --folded --top=5; do
		# shellcheck disable=SC2086
		bounded $a -p "$W/cxx.gmon" -m "$W/review.map"
		[ $rc = 0 ] || bad="$bad exit $rc (124: over 10 s);"
		grep -q "$review" "$TMP/out" || bad="$bad not shown mangled;"
		grep -q 'notice: C++ names are shown mangled' "$TMP/err" ||
		grep -q '^readprofile: warning: 1 C++ name is shown mangled: ' "$TMP/err" ||
			bad="$bad no warning;"
		verdict "the review's crafted name ${a:-classic}: mangled, under 2 GB and 10 s"
	done
fi

summary
