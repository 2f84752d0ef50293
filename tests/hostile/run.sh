#!/bin/sh
# run.sh - hostile inputs: never crash, never hang, never mislead.
#
#   RP=/abs/path/readprofile [RP_WRAP='valgrind -q --error-exitcode=99'] \
#       sh tests/hostile/run.sh
#
# Every run must end either with exit 0 and a correct report, or with exit
# 1, a message on stderr starting "readprofile: " and nothing on stdout,
# or, after the part of the report that was made (it is written as it is
# made), the message and last the line saying the report is incomplete;
# never a signal, never a hang, never a sanitizer report.  Cases with a
# known answer check it byte for byte (hand-computed), and every report
# run with -a must add up: its symbol lines sum to its total.
#
# Environment:
#   HOSTILE_TIMEOUT    seconds per run (default 20 times TIME_SCALE)
#   TIME_SCALE         factor of the limits and waits (default 1)
#   HOSTILE_MUTATIONS  random mutations of small fixtures (default 200)
#   HOSTILE_SEED       seed of the mutations (default 1)
#   HOSTILE_KEEP       directory to keep the inputs of failed mutations in
#   CRLF_SAME=1        a CRLF map must give the LF report (not an error)
# Prints each failure, then `N passed, N failed`.
set -u
# names of this suite, never the caller's (build scripts export OUT, IN):
# tests/lib.sh unsets them
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=hostile
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
case $RP in /*) ;; *) RP=$(pwd)/$RP ;; esac
[ -x "$RP" ] || { echo "not executable: $RP" >&2; exit 2; }
# Limits in seconds, times TIME_SCALE (slower builds: sanitizers,
# valgrind, emulators).
TO=${HOSTILE_TIMEOUT:-$((20 * TS))}
NMUT=${HOSTILE_MUTATIONS:-200}
SEED=${HOSTILE_SEED:-1}

W=$TMP/w
mkdir "$W" || exit 1
. "$TOP/tests/libc.sh"
libc_setup
# A private copy: the binary under test may be rebuilt while this runs
# (unless the temporary directory does not allow running programs).
if cp "$RP" "$TMP/readprofile" && "$TMP/readprofile" -V >/dev/null 2>&1; then
	RP=$TMP/readprofile
fi
INCOMPLETE="readprofile: the report above is incomplete"

# --- running and judging ----------------------------------------------------

# run ARGS... (tests/lib.sh): readprofile in $W with stdin $IN (default
# /dev/null) and stdout $OUT (default $TMP/out); stderr to $TMP/err,
# status in $rc, stopped after $TO seconds.
RUNDIR=$W RUN_TIMEOUT=$TO

# sane: the invariants every run must keep; sets $bad.
sane() {
	bad=
	case $rc in
	0) ;;
	1)
		if [ "${OUT:-$TMP/out}" = "$TMP/out" ] && [ -s "$TMP/out" ] &&
		    [ "$(tail -n 1 "$TMP/err")" != "$INCOMPLETE" ]; then
			bad="$bad exit 1, stdout not empty, and no line saying the report is incomplete;"
		fi
		[ -s "$TMP/err" ] || bad="$bad exit 1 without a message;"
		;;
	124|137) bad="$bad hangs (killed after ${TO}s);" ;;
	*)
		if [ "$rc" -gt 128 ]; then
			bad="$bad killed by signal $((rc - 128));"
		else
			bad="$bad exit $rc;"
		fi
		;;
	esac
	if grep -q -e Sanitizer -e 'runtime error' -e '^==[0-9]*==' "$TMP/err"; then
		bad="$bad sanitizer/valgrind report;"
	fi
	if grep -v '^readprofile: ' "$TMP/err" >/dev/null; then
		bad="$bad stderr line not starting 'readprofile: ';"
	fi
	return 0
}

# adds_up ARGS...: a report with -a (not -b) whose symbols sum to the total;
# with -b -v, the per-symbol totals do.
adds_up() {
	[ "$rc" -eq 0 ] || return 0
	_a=0 _b=0 _v=0 _i=0 _skip=0
	for _o in "$@"; do
		if [ "$_skip" -eq 1 ]; then
			_skip=0
			continue
		fi
		case $_o in
		-p|-m|-M|--baseline|--profile|--mapfile) _skip=1 ;;
		--*) ;;
		-*)
			case $_o in *a*) _a=1 ;; esac
			case $_o in *b*) _b=1 ;; esac
			case $_o in *v*) _v=1 ;; esac
			case $_o in *i*) _i=1 ;; esac
			;;
		esac
	done
	[ "$_i" -eq 0 ] || return 0
	if [ "$_b" -eq 1 ]; then
		[ "$_v" -eq 1 ] || return 0
		_r=$(awk -v v="$_v" '
			/^  total\t\t\t\t/ { s += $2; next }
			{ l[NR] = $0 }
			END { n = split(l[NR], f, " "); t = v ? f[n - 1] : f[1]
			      print (s == t) ? "ok" : "bins " s " total " t }' "$TMP/out")
	elif [ "$_a" -eq 1 ]; then
		_r=$(awk -v v="$_v" '
			{ l[NR] = $0 }
			END {
				for (i = 1; i <= NR - 2; i++) {
					if (substr(l[i], 1, 1) == "\t") continue
					n = split(l[i], f, " ")
					s += v ? f[n - 1] : f[1]
				}
				n = split(l[NR], f, " "); t = v ? f[n - 1] : f[1]
				print (s == t) ? "ok" : "symbols " s " total " t
			}' "$TMP/out")
	else
		return 0
	fi
	[ "$_r" = ok ] || bad="$bad report does not add up ($_r);"
}

verdict() {
	[ $(((pass + fail + 1) % 100)) != 0 ] ||
		echo "... $((pass + fail + 1)) checks so far"
	if [ -z "$bad" ]; then
		ok
		return 0
	fi
	bad "$1:$bad"
	sed -n '1,5s/^/    stderr: /p' "$TMP/err" | cut -c1-300
	return 1
}

# gives NAME EXPECTED ARGS...: exit 0, stdout == file EXPECTED, stderr empty
gives() {
	_g=$1 _h=$2
	shift 2
	okwarn "$_g" "$_h" "" "$@"
}

# okwarn NAME EXPECTED WARNING ARGS...: as gives, with the one line WARNING
# on stderr ("": nothing at all)
okwarn() {
	_n=$1 _e=$2 _w=$3
	shift 3
	run "$@"
	sane
	[ "$rc" -eq 0 ] || bad="$bad exit $rc, expected 0;"
	if ! cmp -s "$_e" "$TMP/out"; then
		bad="$bad wrong report;"
		diff "$_e" "$TMP/out" | cut -c1-200 | sed -n '1,12s/^/    /p'
	fi
	if [ -z "$_w" ]; then
		[ -s "$TMP/err" ] && bad="$bad unexpected stderr;"
	else
		[ "$(cat "$TMP/err")" = "$_w" ] || bad="$bad stderr is not '$_w';"
	fi
	adds_up "$@"
	verdict "$_n"
}

# ok_note NAME EXPECTED NOTE ARGS...: as gives, but stderr is the line NOTE
ok_note() {
	_a=$1 _b=$2 _c=$3
	shift 3
	okwarn "$_a" "$_b" "readprofile: $_c" "$@"
}

# exits_1 ARGS...: run ARGS (sane), noting an exit status other than 1
exits_1() {
	run "$@"
	sane
	[ "$rc" -eq 1 ] || bad="$bad exit $rc, expected 1;"
}

# err NAME MESSAGE ARGS...: exit 1 and stderr holds MESSAGE
err() {
	_n=$1 _m=$2
	shift 2
	exits_1 "$@"
	grep -F -q -e "$_m" "$TMP/err" || bad="$bad message lacks '$_m';"
	verdict "$_n"
}

# err_is NAME STDERR ARGS...: exit 1, and stderr is STDERR, whole
err_is() {
	_n=$1 _m=$2
	shift 2
	exits_1 "$@"
	[ "$(cat "$TMP/err")" = "$_m" ] || bad="$bad stderr is not '$_m';"
	verdict "$_n"
}

# any NAME ARGS...: only the invariants
any() {
	_n=$1
	shift
	run "$@"
	sane
	adds_up "$@"
	verdict "$_n"
}

# --- building inputs ----------------------------------------------------------

# The byte order of the binary under test (a big-endian one runs under
# qemu): from -i -v on a profile without counters.  Profiles are built in
# it, so that the expected reports hold on any host.
printf '\001\000\000\000' > "$W/one"
ORDER=$(cd "$W" && $RP_WRAP "$RP" -i -v -p one |
    sed -n 's/^Byte_order: \([a-z]*\)-endian (native)$/\1/p')
case $ORDER in
little) HOST=le ;;
big) HOST=be ;;
*) echo "cannot tell the byte order of $RP" >&2; exit 2 ;;
esac
rm -f "$W/one"

# prof NAME WORDS...: a profile in $W/NAME, in the host's byte order
prof() {
	_f=$1
	shift
	echo "$HOST $*" > "$TMP/words"
	sh "$TOP/tests/golden/mkprof.sh" "$TMP/words" "$W/$_f" ||
		{ echo "cannot build profile $_f" >&2; exit 2; }
}

# Report lines, as printf would write them (numbers given as text).
sym() { printf '%6s %-40s %8s\n' "$1" "$2" "$3"; }
vsym() { printf '%s %-40s %6s %8s\n' "$1" "$2" "$3" "$4"; }
unk() { printf '%6s *unknown*\n' "$1"; }
tot() { sym "$1" total "$2"; }
vtot() { vsym 0000000000000000 total "$1" "$2"; }
bins_total() { printf '  total\t\t\t\t%s\n' "$1"; }

# Origin used by the hand-made maps.
O=ffff80000000

cp "$TOP/fixtures/inputs/rich.map" "$W/" || exit 2
# rich.words is little-endian: its words, in the host's order
prof rich.profile $(sed -e 's/#.*//' -e 's/\ble\b//' "$TOP/fixtures/inputs/rich.words")
RICH=$TOP/fixtures/cases

# --- symbols beyond the profile, below _stext, going backwards ----------------

prof p5 4 1 2 3 4
cat > "$W/beyond.map" <<EOF
${O}1000 T _stext
${O}1004 T f
${O}1100 T g
${O}1200 T _etext
EOF
for o in "" -s -b -a -as -ab -v -bv -asv --exact; do
	# shellcheck disable=SC2086
	err "beyond-end $o" "readprofile: profile address out of range. Wrong map file?" \
	    $o -p p5 -m beyond.map
done
# Only the pending symbol of a map without _etext lies beyond: no read at all.
printf '%s\n' "${O}1000 T _stext" "${O}1004 T f" "${O}9000 T g" > "$W/beyond-last.map"
err "beyond-end-last" "profile address out of range" -p p5 -m beyond-last.map
err "beyond-end-last -s" "profile address out of range" -s -p p5 -m beyond-last.map

printf '%s\n' "${O}1000 T _stext" "${O}0ff0 T before" "${O}1010 T _etext" > "$W/below.map"
for o in "" -b -s --exact; do
	# shellcheck disable=SC2086
	err "below-stext $o" \
	    "readprofile: below.map(2): address goes backwards (0x${O}0ff0 after 0x${O}1000)" \
	    $o -p p5 -m below.map
done
printf '%s\n' "${O}1000 T _stext" "${O}1004 T a" "${O}1008 T b" "${O}1006 T c" \
    "${O}1010 T _etext" > "$W/backwards.map"
err "backwards" \
    "readprofile: backwards.map(4): address goes backwards (0x${O}1006 after 0x${O}1008)" \
    -p p5 -m backwards.map
err "backwards -ab --exact" "backwards.map(4): address goes backwards" \
    -ab --exact -p p5 -m backwards.map
# The line number counts skipped absolute symbols and blank-free lines alike.
printf '%s\n' "0000000000000000 A __abs" "${O}1000 T _stext" "${O}1000 A abs_at" \
    "${O}1004 T a" "${O}1002 T c" > "$W/backwards-abs.map"
err "backwards after absolute" "backwards-abs.map(5): address goes backwards" \
    -p p5 -m backwards-abs.map
printf '%s\n' "${O}1000 T _stext" "${O}1008 T a" "${O}1004 T _etext" > "$W/etext-back.map"
err "_etext going backwards" "etext-back.map(3): address goes backwards" \
    -p p5 -m etext-back.map

# --- short and odd-sized profiles ---------------------------------------------

printf a > "$W/t1"
printf ab > "$W/t2"
printf abc > "$W/t3"
for n in 1 2 3; do
	err "profile of $n bytes" \
	    "readprofile: t$n: truncated profile: $n bytes is not a whole number of 32-bit words" \
	    -p "t$n" -m rich.map
	err "profile of $n bytes -i" "t$n: truncated profile: $n bytes" -i -p "t$n"
done
# A trailing partial word is left out, as util-linux does, with a warning.
# trailing NAME N EXPECTED ARGS...: exit 0, stdout == file EXPECTED, stderr
# the one warning about N trailing bytes of the profile named in $TRAIL
trailing() {
	_n=$1 _k=$2 _e=$3
	shift 3
	run "$@"
	sane
	[ "$rc" -eq 0 ] || bad="$bad exit $rc, expected 0;"
	cmp -s "$_e" "$TMP/out" || bad="$bad wrong report;"
	_s=s
	[ "$_k" = 1 ] && _s=
	printf 'readprofile: %s: ignoring %s trailing byte%s (not a whole 32-bit word)\n' \
	    "$TRAIL" "$_k" "$_s" > "$TMP/trail.exp"
	cmp -s "$TMP/trail.exp" "$TMP/err" || bad="$bad not the one warning;"
	verdict "$_n"
}
for n in 1 2 3; do
	cat "$W/rich.profile" "$W/t$n" > "$W/rich+$n"
	gzip -c "$W/rich+$n" > "$W/rich+$n.gz"
	for o in "" -s -b -a; do
		OUT=$TMP/whole run $o -p rich.profile -m rich.map
		TRAIL=rich+$n trailing "trailing $n bytes ${o:-(default)}" $n \
		    "$TMP/whole" $o -p "rich+$n" -m rich.map
	done
	TRAIL=rich+$n.gz trailing "trailing $n bytes, gzip'd" $n \
	    "$RICH/rich/expected.out" -p "rich+$n.gz" -m rich.map
	IN=$W/rich+$n TRAIL=- trailing "trailing $n bytes on stdin" $n \
	    "$RICH/rich/expected.out" -p - -m rich.map
	printf 'Sampling_step: 8\n' > "$TMP/step"
	TRAIL=rich+$n trailing "trailing $n bytes -i" $n "$TMP/step" -i -p "rich+$n"
	OUT=$TMP/whole run -i -v -p rich.profile -m rich.map
	TRAIL=rich+$n trailing "trailing $n bytes -i -v" $n "$TMP/whole" \
	    -i -v -p "rich+$n" -m rich.map
	OUT=$TMP/whole run --exact -p rich.profile -m rich.map
	TRAIL=rich+$n trailing "trailing $n bytes --exact" $n "$TMP/whole" \
	    --exact -p "rich+$n" -m rich.map
done
: > "$W/empty"
err "empty profile" "readprofile: empty: input file is empty" -p empty -m rich.map
err "/dev/null profile" "readprofile: /dev/null: input file is empty" -p /dev/null -m rich.map
prof p1 4
any "step word only" -p p1 -m beyond.map
any "step word only -i -v" -i -v -p p1 -m beyond.map
printf '%s\n' "${O}1000 T _stext" > "$W/stext-only.map"
any "step word only, map of _stext" -a -p p1 -m stext-only.map
any "step word only, map of _stext --exact" --exact -p p1 -m stext-only.map

# --- step 0 and huge steps ----------------------------------------------------

# A zero step word (64-bit big-endian kernels): the step is the power of
# two that makes the map's text hold the profile's 4 counters, here 4.
prof s0 0 1 2 3 4
printf '%s\n' "${O}1000 T _stext" "${O}1004 T f" "${O}1008 T g" "${O}1010 T _etext" \
    > "$W/s0.map"
printf '%s\n' "${O}1000 T _stext" "${O}1004 T f" "${O}1008 T g" > "$W/s0-noetext.map"
printf '%s\n' "${O}1000 T _stext" "${O}1004 T f" "${O}1008 T g" "${O}1018 T _etext" \
    > "$W/s0-nofit.map"
note="the profile's step word is 0, as 64-bit big-endian kernels write it; using step 4 from s0.map"
# (util-linux on the profile with its step word set to 4 prints the same)
{ sym 1 f 0.2500; sym 5 g 0.6250; unk 4; tot 6 0.3750; } > "$TMP/e-s0"
{ sym 0 _stext 0.0000; cat "$TMP/e-s0"; } > "$TMP/e-s0a"
{
	sym 1 f 0.2500; sym 5 g 0.6250
	printf '\t0x%s\tg+0\t3\n' "${O}1008"; unk 4; tot 6 0.3750
} > "$TMP/e-s0s"
{
	bins_total 0
	printf 'f:\n\t%s\t1\n' "${O}1000"; bins_total 1
	printf 'g:\n\t%s\t2\n\t%s\t3\n' "${O}1004" "${O}1008"; bins_total 5
	unk 4; vtot 6 0.3750
} > "$TMP/e-s0bv"
# --exact: each counter to the symbol it covers; the last one is *unknown*
{ sym 1 _stext 0.2500; sym 2 f 0.5000; sym 3 g 0.3750; unk 4; tot 6 0.3750; } \
    > "$TMP/e-s0x"
ok_note "step 0" "$TMP/e-s0" "$note" -p s0 -m s0.map
ok_note "step 0 -a" "$TMP/e-s0a" "$note" -a -p s0 -m s0.map
ok_note "step 0 -s" "$TMP/e-s0s" "$note" -s -p s0 -m s0.map
ok_note "step 0 -bv" "$TMP/e-s0bv" "$note" -bv -p s0 -m s0.map
ok_note "step 0 --exact" "$TMP/e-s0x" "$note" --exact -p s0 -m s0.map
printf 'Sampling_step: 4\n' > "$TMP/e-s0i"
ok_note "step 0 -i -m" "$TMP/e-s0i" "$note" -i -p s0 -m s0.map
printf 'Sampling_step: 0\n' > "$TMP/e-s0i0"
ok_note "step 0 -i without a map" "$TMP/e-s0i0" "this kernel does not report \
its sampling step: the profile's step word is 0, as 64-bit big-endian kernels \
write it; to infer the step from the kernel's map, run readprofile -i -m MAP" \
    -i -p s0
err "step 0, no _etext" "s0-noetext.map has no _etext: the sampling step is unknown" \
    -p s0 -m s0-noetext.map
err "step 0 -b, no _etext" "has no _etext" -b -p s0 -m s0-noetext.map
err "step 0, no power of two fits" "no power of two fits s0-nofit.map" \
    -a -p s0 -m s0-nofit.map
err "step 0 --exact, no power of two fits" "no power of two fits" \
    --exact -p s0 -m s0-nofit.map
err "step 0 -i, no power of two fits" "no power of two fits" \
    -i -p s0 -m s0-nofit.map

O2=ffff8000
prof s8 0x80000000 5 6 7
printf '%s\n' ffff800000000000\ T\ _stext ffff800080000000\ T\ f \
    ffff800100000000\ T\ g ffff800180000000\ T\ _etext > "$W/s8.map"
{ sym 5 f 0.0000; sym 6 g 0.0000; unk 7; tot 11 0.0000; } > "$TMP/e-s8"
{
	printf 'f:\n\t%s\t5\n' "${O2}00000000"; bins_total 5
	printf 'g:\n\t%s\t6\n' "${O2}80000000"; bins_total 6
	unk 7; tot 11 0.0000
} > "$TMP/e-s8b"
{ sym 5 _stext 0.0000; sym 6 f 0.0000; unk 7; tot 11 0.0000; } \
    > "$TMP/e-s8x"
{
	sym 5 _stext 0.0000; printf '\t0x%s\t_stext+0\t5\n' "${O2}00000000"
	sym 6 f 0.0000; printf '\t0x%s\tf+0\t6\n' "${O2}80000000"
	unk 7; tot 11 0.0000
} > "$TMP/e-s8xs"
gives "step 0x80000000" "$TMP/e-s8" -p s8 -m s8.map
gives "step 0x80000000 -s" "$TMP/e-s8" -s -p s8 -m s8.map
gives "step 0x80000000 -b" "$TMP/e-s8b" -b -p s8 -m s8.map
gives "step 0x80000000 --exact" "$TMP/e-s8x" --exact -p s8 -m s8.map
gives "step 0x80000000 --exact -s" "$TMP/e-s8xs" --exact -s -p s8 -m s8.map
any "step 0x80000000 -abv" -abv -p s8 -m s8.map
any "step 0x80000000 -asv" -asv -p s8 -m s8.map

prof sf 0xffffffff 1 2
printf '%s\n' "${O2}00000000 T _stext" "${O2}fffffffe T f" "ffff8001fffffffe T _etext" \
    > "$W/sf.map"
{ sym 1 f 0.0000; unk 2; tot 1 0.0000; } > "$TMP/e-sf"
{
	sym 1 f 0.0000
	printf '\t0x%s\tf+0x%s\t1\n' "${O2}00000000" ffffffff00000002
	unk 2; tot 1 0.0000
} > "$TMP/e-sfs"
{ printf 'f:\n\t%s\t1\n' "${O2}00000000"; bins_total 1; unk 2; tot 1 0.0000; } \
    > "$TMP/e-sfb"
{ sym 1 _stext 0.0000; unk 2; tot 1 0.0000; } > "$TMP/e-sfx"
# No kernel writes such a step (it writes 1 << N): the report, and a warning.
NOTPROF="readprofile: warning: sf does not look like a kernel profile: its sampling step 4294967295 is not a power of two"
okwarn "step 0xffffffff" "$TMP/e-sf" "$NOTPROF" -p sf -m sf.map
okwarn "step 0xffffffff -s" "$TMP/e-sfs" "$NOTPROF" -s -p sf -m sf.map
okwarn "step 0xffffffff -b" "$TMP/e-sfb" "$NOTPROF" -b -p sf -m sf.map
okwarn "step 0xffffffff --exact" "$TMP/e-sfx" "$NOTPROF" --exact -p sf -m sf.map
any "step 0xffffffff -asv --exact" -asv --exact -p sf -m sf.map
any "step 0xffffffff -i -v" -i -v -p sf -m sf.map

# --- names, bytes and line endings -------------------------------------------

LONG=$(awk 'BEGIN { s = "_RNvCs"; while (length(s) < 10000) s = s "Abc_def09"
	print substr(s, 1, 10000) }')
prof n8 8 1 2 3 4
printf '%s\n' "${O}1000 T _stext" "${O}1008 T $LONG" "${O}1020 T _etext" > "$W/long.map"
{ sym 6 "$LONG" 0.2500; unk 4; tot 6 0.1875; } > "$TMP/e-long"
{ vsym "${O}1008" "$LONG" 6 0.2500; unk 4; vtot 6 0.1875; } > "$TMP/e-longv"
{
	sym 6 "$LONG" 0.2500
	printf '\t0x%s\t%s+0\t2\n\t0x%s\t%s+0x8\t3\n' "${O}1008" "$LONG" "${O}1010" "$LONG"
	unk 4; tot 6 0.1875
} > "$TMP/e-longs"
{
	printf '%s:\n\t%s\t1\n\t%s\t2\n\t%s\t3\n' "$LONG" "${O}1000" "${O}1008" "${O}1010"
	bins_total 6; unk 4; tot 6 0.1875
} > "$TMP/e-longb"
gives "10000-byte name" "$TMP/e-long" -p n8 -m long.map
gives "10000-byte name -v" "$TMP/e-longv" -v -p n8 -m long.map
gives "10000-byte name -s" "$TMP/e-longs" -s -p n8 -m long.map
gives "10000-byte name -b" "$TMP/e-longb" -b -p n8 -m long.map

# A name filling the longest line accepted (1 MiB), then one byte more.
awk -v o="$O" -v w="$W" -v e="$TMP/e-max" 'BEGIN {
	s = "x"; while (length(s) < 1048576) s = s s
	name = substr(s, 1, 1048576 - 19)	# "ADDRESS T " is 19 bytes
	print o "1000 T _stext" > (w "/max-line.map")
	print o "1008 T " name > (w "/max-line.map")
	print o "1020 T _etext" > (w "/max-line.map")
	print o "1000 T _stext" > (w "/too-long.map")
	print o "1008 T " name "y" > (w "/too-long.map")
	print o "1020 T _etext" > (w "/too-long.map")
	printf "%6s %-40s %8s\n", 6, name, "0.2500" > e
	printf "%6s *unknown*\n", 4 > e
	printf "%6s %-40s %8s\n", 6, "total", "0.1875" > e
}'
gives "line of exactly 1 MiB" "$TMP/e-max" -p n8 -m max-line.map
err "line of 1 MiB + 1" "readprofile: too-long.map(2): line longer than 1048576 bytes" \
    -p n8 -m too-long.map
awk -v o="$O" 'BEGIN { s = "z"; while (length(s) < 2097152) s = s s
	print o "1000 T _stext"; print s }' > "$W/2mb.map"
err "2 MB map line" "readprofile: 2mb.map(2): line longer than 1048576 bytes" \
    -p n8 -m 2mb.map
awk 'BEGIN { s = "z"; while (length(s) < 2097152) s = s s; printf "%s", s }' \
    > "$W/2mb-first.map"
err "2 MB first line, no newline" "2mb-first.map(1): line longer than 1048576 bytes" \
    -p n8 -m 2mb-first.map

# NUL bytes and binary garbage.
printf '%s T _stext\n%s T f\000oo\n%s T _etext\n' "${O}1000" "${O}1008" "${O}1020" \
    > "$W/nul.map"
# Either the text ends at the NUL (as in the classic tool) or the line is
# refused; nothing else.
{ sym 6 f 0.2500; unk 4; tot 6 0.1875; } > "$TMP/e-nul"
run -p n8 -m nul.map
sane
if [ "$rc" -eq 0 ]; then
	cmp -s "$TMP/e-nul" "$TMP/out" || bad="$bad wrong report;"
else
	grep -q -F 'readprofile: nul.map(2): wrong map line' "$TMP/err" ||
		bad="$bad wrong message;"
fi
verdict "NUL in a name"
printf '\000\000\000\n%s T _stext\n' "${O}1000" > "$W/nul-first.map"
err "NUL line first" "nul-first.map(1): wrong map line" -p n8 -m nul-first.map
printf '%s T _stext\n\000%s T f\n' "${O}1000" "${O}1008" > "$W/nul-start.map"
err "line starting with NUL" "nul-start.map(2): wrong map line" -p n8 -m nul-start.map

# A map that is neither text nor an ELF file (NUL bytes, or no line end,
# in its first 64 KiB) is named as such, after the line that failed.
NOTTEXT="is not a symbol map: it is neither text"
err_is "/dev/zero as -m: not text" "readprofile: /dev/zero(1): line longer than 1048576 bytes
readprofile: /dev/zero $NOTTEXT (NUL bytes in its first 64 KiB) nor an ELF file" \
    -p rich.profile -m /dev/zero
err_is "2 MB first line, no newline: not text" "readprofile: 2mb-first.map(1): line longer than 1048576 bytes
readprofile: 2mb-first.map $NOTTEXT (no line end in its first 64 KiB) nor an ELF file" \
    -p n8 -m 2mb-first.map
err_is "2 MB map line after a good one: text" \
    "readprofile: 2mb.map(2): line longer than 1048576 bytes" -p n8 -m 2mb.map
err_is "NUL line first: not text" "readprofile: nul-first.map(1): wrong map line
readprofile: nul-first.map $NOTTEXT (NUL bytes in its first 64 KiB) nor an ELF file" \
    -p n8 -m nul-first.map
# a zip archive's header, no line end: the whole file one line
printf 'PK\003\004\024\000\000\000\010\000zip' > "$W/zip.map"
err_is "a zip archive as -m" "readprofile: zip.map(1): wrong map line
readprofile: zip.map $NOTTEXT (NUL bytes in its first 64 KiB) nor an ELF file" \
    -p n8 -m zip.map
IN=$W/zip.map err_is "a zip archive on stdin as -m" "readprofile: -(1): wrong map line
readprofile: standard input $NOTTEXT (NUL bytes in its first 64 KiB) nor an ELF file" \
    -p n8 -m -
# NUL bytes past 64 KiB of good lines: text, by its start
awk -v o="$O" 'BEGIN { print o "1000 T _stext"
	for (i = 0; i < 3000; i++) printf "%s1008 t filler_%05d\n", o, i }' > "$W/late-nul.map"
printf '\000\001\n' >> "$W/late-nul.map"
err_is "NUL bytes past 64 KiB: text" "readprofile: late-nul.map(3002): wrong map line" \
    -p n8 -m late-nul.map
# every line parses (a NUL ends a name, as in the classic tool), but no _stext
printf '%s T a\000\001\002\n%s T b\n' "${O}1000" "${O}1008" > "$W/nul-nostext.map"
err_is "NUL bytes, no _stext: not text" "readprofile: can't find \"_stext\" in nul-nostext.map
readprofile: nul-nostext.map $NOTTEXT (NUL bytes in its first 64 KiB) nor an ELF file" \
    -p n8 -m nul-nostext.map
# a text map with a wrong line: only that line
printf '%s T _stext\nnot a map line\n' "${O}1000" > "$W/wrong.map"
err_is "a wrong line in a text map" "readprofile: wrong.map(2): wrong map line" \
    -p n8 -m wrong.map
for o in "" -a -b -s; do
	# shellcheck disable=SC2086
	any "profile as map $o" $o -p n8 -m n8
	# shellcheck disable=SC2086
	any "binary as map $o" $o -p n8 -m "$RP"
	# shellcheck disable=SC2086
	any "map as profile $o" $o -p rich.map -m rich.map
	# shellcheck disable=SC2086
	any "binary as profile $o" $o -p "$RP" -m rich.map
done
awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) {
	c = int(rand() * 254) + 1; printf "%c", c } }' > "$W/garbage"
cat "$W/rich.map" "$W/garbage" > "$W/rich-garbage.map"
{ head -n 5 "$W/rich.map"; cat "$W/garbage"; } > "$W/garbage-in.map"
any "garbage map" -p rich.profile -m garbage
any "garbage after _etext" -p rich.profile -m rich-garbage.map
gives "garbage after _etext: correct report" "$RICH/rich/expected.out" \
    -p rich.profile -m rich-garbage.map
any "garbage inside the text" -a -p rich.profile -m garbage-in.map

# Addresses at the edges of 64 bits.
printf '%s\n' "ffffffffffffff00 T _stext" "ffffffffffffff80 T f" "ffffffffffffffff T g" \
    "ffffffffffffffff T _etext" > "$W/top.map"
for o in "" -a -s -b -abv --exact -as; do
	# shellcheck disable=SC2086
	any "top of the address space $o" $o -p p5 -m top.map
done
printf '%s\n' "1 T _stext" "2 T f" "123456789abcdef0123 T g" > "$W/overflow.map"
any "address overflowing 64 bits" -a -p p5 -m overflow.map
printf '%s\n' "-1 T _stext" "0x10 T f" "-0x5 T g" > "$W/signed.map"
any "signed addresses" -a -p p5 -m signed.map
prof s1 1 1 2 3 4
printf '%s\n' "${O}1000 T _stext" "${O}1001 T f" "${O}1003 T g" "${O}1004 T h" \
    "${O}1005 T _etext" > "$W/s1.map"
for o in -a -as -ab --exact "--exact -as"; do
	# shellcheck disable=SC2086
	any "step 1 $o" $o -p s1 -m s1.map
done

# CRLF line endings: the same report as LF, or refused with a message (the
# classic tool keeps the CR in the name, so it finds no _stext); never a
# different report.  CRLF_SAME=1 requires the same report.
awk '{ printf "%s\r\n", $0 }' "$W/rich.map" > "$W/rich-crlf.map"
awk '{ printf "%s\r\n", $0 }' "$W/long.map" > "$W/long-crlf.map"
# crlf NAME LF-EXPECTED ARGS...
crlf() {
	_n=$1 _e=$2
	shift 2
	run "$@"
	sane
	if [ "$rc" -eq 0 ]; then
		cmp -s "$_e" "$TMP/out" || bad="$bad report differs from LF;"
		[ -s "$TMP/err" ] && bad="$bad unexpected stderr;"
	elif [ "${CRLF_SAME:-0}" = 1 ]; then
		bad="$bad exit $rc, expected the LF report;"
	fi
	verdict "$_n"
}
for o in "" -a -v -s -b -bv -asv --exact "--exact -s"; do
	# shellcheck disable=SC2086
	run $o -p rich.profile -m rich.map
	cp "$TMP/out" "$TMP/lf"
	# shellcheck disable=SC2086
	crlf "CRLF map $o" "$TMP/lf" $o -p rich.profile -m rich-crlf.map
done
crlf "CRLF map, long name" "$TMP/e-long" -p n8 -m long-crlf.map

# --- files that are not files ---------------------------------------------------

mkdir "$W/dir"
err "directory as -p" "readprofile: dir: $(strerror EISDIR)" -p dir -m rich.map
err "directory as -m" "readprofile: dir: $(strerror EISDIR)" -p rich.profile -m dir
err "directory as --baseline" "readprofile: dir: $(strerror EISDIR)" \
    -p rich.profile --baseline dir -m rich.map
err "directory as -p -i" "readprofile: dir: $(strerror EISDIR)" -i -p dir

err "missing -p" "readprofile: nosuch: $(strerror ENOENT)" -p nosuch -m rich.map
err "missing -m" "readprofile: nosuch: $(strerror ENOENT)" -p rich.profile -m nosuch
err "missing --baseline" "readprofile: nosuch: $(strerror ENOENT)" \
    -p rich.profile --baseline nosuch -m rich.map
err "missing -m -i -v" "readprofile: nosuch: $(strerror ENOENT)" \
    -i -v -p rich.profile -m nosuch
err "missing .gz" "readprofile: nosuch.gz: $(strerror ENOENT)" \
    -p rich.profile -m nosuch.gz
ln -s nowhere "$W/dangling"
err "dangling symlink" "readprofile: dangling: $(strerror ENOENT)" \
    -p dangling -m rich.map
ln -s loop "$W/loop"
err "symlink loop" "readprofile: loop: $(strerror ELOOP)" \
    -p rich.profile -m loop
if [ "$(id -u)" -ne 0 ]; then
	cp "$W/rich.map" "$W/secret.map" && chmod 000 "$W/secret.map"
	err "unreadable map" "readprofile: secret.map: $(strerror EACCES)" \
	    -p rich.profile -m secret.map
fi

err "/dev/zero as -p" "readprofile: /dev/zero: too large for a profile" \
    -p /dev/zero -m rich.map
err "/dev/zero as -p -i" "readprofile: /dev/zero: too large for a profile" -i -p /dev/zero
err "/dev/zero as -m" "readprofile: /dev/zero(1): line longer than" \
    -p rich.profile -m /dev/zero
err "/dev/zero as --baseline" "readprofile: /dev/zero: too large for a profile" \
    -p rich.profile --baseline /dev/zero -m rich.map
if truncate -s 2G "$W/sparse" 2>/dev/null; then
	err "sparse 2 GiB profile" "readprofile: sparse: too large for a profile" \
	    -p sparse -m rich.map
	rm -f "$W/sparse"
fi

# FIFOs: read to the end, right report.
mkfifo "$W/fifo" "$W/fifo2" || exit 2
# bg_write FILE FIFO: write FILE into FIFO in the background
bg_write() {
	cat "$1" > "$2" &
	BGPIDS="$BGPIDS $!"
}
# bg_done: stop the writers (still blocked if readprofile never opened the FIFO)
bg_done() {
	for _p in $BGPIDS; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	BGPIDS=
}
bg_write "$W/rich.profile" "$W/fifo"
gives "FIFO as -p" "$RICH/rich/expected.out" -p fifo -m rich.map
bg_done
bg_write "$W/rich.map" "$W/fifo"
gives "FIFO as -m" "$RICH/rich/expected.out" -p rich.profile -m fifo
bg_done
bg_write "$W/rich.profile" "$W/fifo"
bg_write "$W/rich.map" "$W/fifo2"
gives "FIFOs as -p and -m" "$RICH/rich/expected.out" -p fifo -m fifo2
bg_done
bg_write "$W/rich.profile" "$W/fifo"
gives "FIFO as -p -s" "$RICH/rich-s/expected.out" -s -p fifo -m rich.map
bg_done
IN=$W/rich.profile gives "stdin as -p" "$RICH/rich/expected.out" -p - -m rich.map
IN=$W/rich.map gives "stdin as -m" "$RICH/rich/expected.out" -p rich.profile -m -
bg_write "$W/rich+2" "$W/fifo"
TRAIL=fifo trailing "trailing 2 bytes through a FIFO" 2 "$RICH/rich/expected.out" \
    -p fifo -m rich.map
bg_done
IN=$W/t3 err "stdin: 3 bytes" "readprofile: -: truncated profile: 3 bytes" -p - -m rich.map

# --- compressed inputs ----------------------------------------------------------

gzip -c "$W/rich.map" > "$W/rich.map.gz"
gzip -c "$W/rich.profile" > "$W/rich.profile.gz"
gives "gzip'd map and profile" "$RICH/rich/expected.out" -p rich.profile.gz -m rich.map.gz
printf 'this is not gzip data\n' > "$W/bad.map.gz"
cp "$W/bad.map.gz" "$W/bad.profile.gz"
head -c 40 "$W/rich.map.gz" > "$W/cut.map.gz"
head -c 30 "$W/rich.profile.gz" > "$W/cut.profile.gz"
err "corrupt .gz map" "readprofile: bad.map.gz: gzip failed (exit status 1)" \
    -p rich.profile -m bad.map.gz
err "corrupt .gz profile" "readprofile: bad.profile.gz: gzip failed (exit status 1)" \
    -p bad.profile.gz -m rich.map
err "truncated .gz map" "readprofile: cut.map.gz: gzip failed" -p rich.profile -m cut.map.gz
err "truncated .gz profile" "readprofile: cut.profile.gz: gzip failed" \
    -p cut.profile.gz -m rich.map
err "corrupt .gz profile -i" "bad.profile.gz: gzip failed" -i -p bad.profile.gz
err "corrupt .gz baseline" "bad.profile.gz: gzip failed" \
    -p rich.profile --baseline bad.profile.gz -m rich.map
: > "$W/empty.gz"
err "empty .gz profile" "readprofile: empty.gz: " -p empty.gz -m rich.map
# readprofile run with its standard input closed: the decompressor must
# still get the file.
run_closed_stdin() {
	(
		cd "$W" || exit 2
		# shellcheck disable=SC2086
		exec timeout -k 5 "$TO" $RP_WRAP "$RP" "$@" <&- >"$TMP/out" 2>"$TMP/err"
	)
	rc=$?
}
run_closed_stdin -p rich.profile.gz -m rich.map
sane
[ "$rc" -eq 0 ] && cmp -s "$RICH/rich/expected.out" "$TMP/out" ||
	bad="$bad exit $rc or wrong report with stdin closed;"
verdict "compressed profile with stdin closed"

# A decompressor read to the end is waited for: no zombie while readprofile
# goes on (here: blocked opening a FIFO for --baseline).  The decompressor
# is a gzip first in PATH that notes its process ID, so the check knows it
# ran; readprofile is polled (every 0.1 s, up to a minute times
# TIME_SCALE) until it is blocked opening the FIFO (wchan
# wait_for_partner; where the kernel does not say, asleep with no child
# running), and then must have no child left, zombie or not.
if ps -o pid= -p $$ >/dev/null 2>&1; then
	mkdir "$TMP/gzbin" || exit 2
	printf '#!/bin/sh\necho $$ > "%s"\nexec %s "$@"\n' "$TMP/gzip.pid" \
	    "$(command -v gzip)" > "$TMP/gzbin/gzip" && chmod +x "$TMP/gzbin/gzip" ||
	    exit 2
	rm -f "$TMP/gzip.pid"
	(
		cd "$W" || exit 2
		PATH=$TMP/gzbin:$PATH
		# shellcheck disable=SC2086
		exec timeout -k 5 "$TO" $RP_WRAP "$RP" -p rich.profile.gz \
		    --baseline fifo -m rich.map </dev/null >"$TMP/out" 2>"$TMP/err"
	) & tpid=$!
	kids= blocked= rp= i=0
	while [ -z "$blocked" ] && [ $i -lt $((600 * TS)) ]; do
		sleep 0.1
		i=$((i + 1))
		# the timeout's child (the subshell itself when no timeout)
		[ -n "$rp" ] ||
		    rp=$(ps -eo pid=,ppid= | awk -v t="$tpid" '$2 == t { print $1 }')
		[ -n "$rp" ] && [ -s "$TMP/gzip.pid" ] || continue
		# the state first, then the children: once blocked, a child
		# not yet waited for stays
		w=$(cat "/proc/$rp/wchan" 2>/dev/null)
		kids=$(ps -eo ppid=,pid=,stat=,comm= | awk -v p="$rp" '$1 == p')
		case $w in
		*partner*|fifo_open) blocked=1 ;;
		""|0) case $kids in *" Z"*|"")
			[ "$(awk '{ print $3 }' "/proc/$rp/stat" 2>/dev/null)" != S ] ||
			    blocked=1 ;;
		      esac ;;
		esac
	done
	bg_write "$W/rich.profile" "$W/fifo"
	wait "$tpid"
	rc=$?
	bg_done
	sane
	[ -s "$TMP/gzip.pid" ] || bad="$bad the decompressor did not run;"
	[ -n "$blocked" ] || bad="$bad readprofile not seen blocked opening the FIFO;"
	[ -z "$kids" ] || bad="$bad child left while blocked: $kids;"
	verdict "decompressor reaped (no zombie)"
else
	skipped "decompressor reaped: no ps"
fi

# Odd file names are file names: no shell.
cp "$W/rich.map.gz" "$W/-v.gz"
cp "$W/rich.map.gz" "$W/x;touch PWNED;.gz"
cp "$W/rich.map.gz" "$W/\$(touch PWNED2).gz"
cp "$W/rich.profile.gz" "$W/-n.gz"
gives "map named -v.gz" "$RICH/rich/expected.out" -p rich.profile -m -v.gz
gives "map named --mapfile=-v.gz" "$RICH/rich/expected.out" -p rich.profile --mapfile=-v.gz
gives "profile named -n.gz" "$RICH/rich/expected.out" -p -n.gz -m rich.map
gives "map named 'x;touch PWNED;.gz'" "$RICH/rich/expected.out" \
    -p rich.profile -m "x;touch PWNED;.gz"
gives "map named '\$(touch PWNED2).gz'" "$RICH/rich/expected.out" \
    -p rich.profile -m "\$(touch PWNED2).gz"
bad=
for f in PWNED PWNED2; do
	[ ! -e "$W/$f" ] && [ ! -e "$TOP/$f" ] || bad="$bad $f was created (a shell ran);"
done
verdict "no shell for file names"

# --- totals, output errors, options ----------------------------------------------

prof big 4 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0
printf '%s\n' "${O}1000 T _stext" "${O}1010 T f" "${O}1014 T _etext" > "$W/big.map"
{
	sym 12884901885 _stext 805306367.8125
	sym 4294967295 f 1073741823.7500
	unk 0
	tot 17179869180 858993459.0000
} > "$TMP/e-big"
{
	vsym "${O}1000" _stext 12884901885 805306367.8125
	vsym "${O}1010" f 4294967295 1073741823.7500
	unk 0
	vtot 17179869180 858993459.0000
} > "$TMP/e-bigv"
{
	printf '_stext:\n'
	printf '\t%s\t4294967295\n' "${O}1000" "${O}1004" "${O}1008"
	bins_total 12884901885
	printf 'f:\n\t%s\t4294967295\n' "${O}100c"
	bins_total 4294967295
	unk 0
	tot 17179869180 858993459.0000
} > "$TMP/e-bigb"
gives "total beyond 2^32" "$TMP/e-big" -p big -m big.map
gives "total beyond 2^32 -v" "$TMP/e-bigv" -v -p big -m big.map
gives "total beyond 2^32 -b" "$TMP/e-bigb" -b -p big -m big.map
any "total beyond 2^32 -abv" -abv -p big -m big.map
any "total beyond 2^32 --exact -a" --exact -a -p big -m big.map

# The real capture, for large reports.
gzip -dc "$TOP/fixtures/real/profile.gz" > "$W/real.profile" &&
	gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$W/real.map" ||
	{ echo "cannot decompress fixtures/real" >&2; exit 2; }

OUT=/dev/full err "> /dev/full" "readprofile: write error: No space left on device" \
    -p rich.profile -m rich.map
[ "$(cat "$TMP/err")" = "readprofile: write error: No space left on device" ] ||
	{ bad=" stderr is not exactly the write error;"; verdict "> /dev/full message"; }
OUT=/dev/full err "> /dev/full, large report" \
    "readprofile: write error: No space left on device" -as -p real.profile -m real.map
OUT=/dev/full err "> /dev/full, -V" "readprofile: write error: No space left on device" -V
OUT=/dev/full err "> /dev/full, -i" "readprofile: write error: No space left on device" \
    -i -p rich.profile

# | head -1: the reader leaves; nothing to say about it.
(
	cd "$W" || exit 2
	# shellcheck disable=SC2086
	{ timeout -k 5 "$TO" $RP_WRAP "$RP" -as -p real.profile -m real.map 2>"$TMP/err"
	  echo $? > "$TMP/rc"; } | head -n 1 > "$TMP/head"
)
rc=$(cat "$TMP/rc")
: > "$TMP/out"
sane
[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
# the real capture is little-endian: a big-endian host notes it, only that
: > "$TMP/want-err"
[ "$ORDER" = big ] && echo "readprofile: Assuming reversed byte order." \
    "Use -n to force native byte order." > "$TMP/want-err"
cmp -s "$TMP/want-err" "$TMP/err" || bad="$bad message on stderr;"
[ -s "$TMP/head" ] || bad="$bad no first line;"
verdict "| head -1"

err "-M 99999999999" "readprofile: failed to parse multiplier: '99999999999'" -M 99999999999
err "-M abc" "readprofile: failed to parse multiplier: 'abc'" -M abc
err "-M ''" "readprofile: failed to parse multiplier: ''" -M ''
err "-M 12abc" "readprofile: failed to parse multiplier: '12abc'" -M 12abc
err "-M -99999999999" "readprofile: failed to parse multiplier: '-99999999999'" \
    -M -99999999999
err "-M 2147483648" "readprofile: failed to parse multiplier: '2147483648'" -M 2147483648

# --baseline against hostile snapshots.
prof b-lower 8 0 0 4 1 0 2 5 0 7 1 0 0 0 0 4 9 0 0 1 0 2 2 0 6
prof b-short 8 0 0 3
prof b-step 4 0 0 3 1 0 2 5 0 7 1 0 0 0 0 4 9 0 0 1 0 2 2 0 6
err "baseline higher" "readprofile: rich.profile: counter 2 is lower than in b-lower" \
    -p rich.profile --baseline b-lower -m rich.map
err "baseline of another size" "readprofile: b-short: 3 counters, but rich.profile has 24" \
    -p rich.profile --baseline b-short -m rich.map
err "baseline of another step" "readprofile: b-step: sampling step 4 differs from rich.profile's 8" \
    -p rich.profile --baseline b-step -m rich.map
err "baseline truncated" "readprofile: t3: truncated profile: 3 bytes" \
    -p rich.profile --baseline t3 -m rich.map
# A baseline through a pipe (compressed, stdin) longer than a piece read
# at a time: its step and size are known only at its end, and are what is
# reported when they differ, before any counter found above the profile's.
prof w-one 8 1
prof w-16 16 1
tail -c 4 "$W/w-one" > "$W/ones"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
	cat "$W/ones" "$W/ones" > "$W/ones.2" && mv "$W/ones.2" "$W/ones"
done
{ head -c 4 "$W/w-one"; cat "$W/ones"; } > "$W/b-big"
{ head -c 4 "$W/w-16"; cat "$W/ones"; } > "$W/b-step16"
{ head -c 4 "$W/w-one"; head -c 400000 /dev/zero; } > "$W/p-big"
{ head -c 4 "$W/w-one"; head -c 800000 /dev/zero; } > "$W/p-bigger"
{ head -c 4 "$W/w-one"; head -c 524288 /dev/zero; } > "$W/p-same"
gzip -c "$W/b-big" > "$W/b-big.gz"
gzip -c "$W/b-step16" > "$W/b-step16.gz"
err_is "baseline of another size, a file" \
    "readprofile: b-big: 131072 counters, but p-big has 100000" \
    -p p-big --baseline b-big -m rich.map
err_is "baseline of another size, gzip'd" \
    "readprofile: b-big.gz: 131072 counters, but p-big has 100000" \
    -p p-big --baseline b-big.gz -m rich.map
IN=$W/b-big err_is "baseline of another size, on stdin" \
    "readprofile: -: 131072 counters, but p-big has 100000" \
    -p p-big --baseline - -m rich.map
err_is "baseline shorter than the profile, gzip'd" \
    "readprofile: b-big.gz: 131072 counters, but p-bigger has 200000" \
    -p p-bigger --baseline b-big.gz -m rich.map
err_is "baseline of another step, gzip'd" \
    "readprofile: b-step16.gz: sampling step 16 differs from p-big's 8" \
    -p p-big --baseline b-step16.gz -m rich.map
err_is "baseline higher, gzip'd, of the same size" \
    "readprofile: p-same: counter 0 is lower than in b-big.gz (were the counters reset?)" \
    -p p-same --baseline b-big.gz -m rich.map
{ unk 0; tot 0 0.0000; } > "$TMP/e-zero"
gives "baseline = profile" "$TMP/e-zero" -p rich.profile --baseline rich.profile -m rich.map
TRAIL=rich+3 trailing "baseline with 3 trailing bytes" 3 "$TMP/e-zero" \
    -p rich.profile --baseline rich+3 -m rich.map
bg_write "$W/rich.profile" "$W/fifo"
gives "baseline = profile, through a FIFO" "$TMP/e-zero" \
    -p rich.profile.gz --baseline fifo -m rich.map
bg_done

# --- random mutations of small fixtures -----------------------------------------

# mutate_text SEED IN OUT: 1-3 edits of a text file (bit flips, truncation,
# duplicated, dropped or swapped lines, garbage lines, odd addresses)
mutate_text() {
	awk -v seed="$1" '
	BEGIN { srand(seed); for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	{ l[++n] = $0 }
	function r(k) { return int(rand() * k) }
	END {
		if (n == 0) l[++n] = ""
		ops = 1 + r(3); cut = -1
		for (op = 0; op < ops; op++) {
			k = 1 + r(n); t = r(8)
			if (t == 0 && length(l[k]) > 0) {	# flip a bit
				p = 1 + r(length(l[k])); c = ord[substr(l[k], p, 1)]
				b = 2 ^ r(8); c = (int(c / b) % 2) ? c - b : c + b
				if (c == 0 || c > 255) c = 1
				l[k] = substr(l[k], 1, p - 1) sprintf("%c", c) substr(l[k], p + 1)
			} else if (t == 1) {			# duplicate a line
				for (i = n; i >= k; i--) l[i + 1] = l[i]; n++
			} else if (t == 2 && n > 1) {		# drop a line
				for (i = k; i < n; i++) l[i] = l[i + 1]; n--
			} else if (t == 3) {			# swap two lines
				j = 1 + r(n); s = l[k]; l[k] = l[j]; l[j] = s
			} else if (t == 4) {			# new address
				a = ""; for (i = 0; i < 1 + r(18); i++) a = a substr("0123456789abcdef", 1 + r(16), 1)
				sub(/^[^ ]*/, a, l[k])
			} else if (t == 5) {			# new type
				sub(/ [^ ]* /, " " substr("TtWwAa?DdBbRrUN", 1 + r(15), 1) " ", l[k])
			} else if (t == 6) {			# garbage line
				g = ""; for (i = 0; i < r(40); i++) g = g sprintf("%c", 1 + r(254))
				for (i = n; i >= k; i--) l[i + 1] = l[i]; n++; l[k] = g
			} else {				# truncate
				cut = r(length(l[k]) + 1); n = k
			}
		}
		for (i = 1; i < n; i++) print l[i]
		if (cut >= 0) printf "%s", substr(l[n], 1, cut); else print l[n]
	}' "$2" > "$3"
}

# mutate_bin SEED IN OUT: 1-3 edits of a binary file (bit flips, big or
# zero words, a cut anywhere, a duplicated or dropped word, swapped bytes)
mutate_bin() {
	od -An -v -tx1 "$2" | awk -v seed="$1" '
	BEGIN { srand(seed) }
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function r(k) { return int(rand() * k) }
	function hex(v) { return substr("0123456789abcdef", int(v / 16) + 1, 1) \
	    substr("0123456789abcdef", v % 16 + 1, 1) }
	function val(h,   v, i) { v = 0; for (i = 1; i <= 2; i++)
	    v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
	END {
		ops = 1 + r(3)
		for (op = 0; op < ops && n > 0; op++) {
			t = r(7); k = r(n)
			if (t == 0) {			# flip a bit
				v = val(b[k]); m = 2 ^ r(8)
				v = (int(v / m) % 2) ? v - m : v + m; b[k] = hex(v)
			} else if (t == 1) {		# a big word
				w = 4 * int(k / 4); for (i = w; i < w + 4 && i < n; i++) b[i] = "ff"
			} else if (t == 2) {		# a zero word
				w = 4 * int(k / 4); for (i = w; i < w + 4 && i < n; i++) b[i] = "00"
			} else if (t == 3) {		# cut
				n = k
			} else if (t == 4) {		# duplicate a word
				w = 4 * int(k / 4); if (w + 4 > n) continue
				for (i = n - 1; i >= w; i--) b[i + 4] = b[i]; n += 4
			} else if (t == 5) {		# drop a word
				w = 4 * int(k / 4); if (w + 4 > n) continue
				for (i = w; i + 4 < n; i++) b[i] = b[i + 4]; n -= 4
			} else {			# swap the byte order of every word
				for (w = 0; w + 4 <= n; w += 4) {
					s = b[w]; b[w] = b[w + 3]; b[w + 3] = s
					s = b[w + 1]; b[w + 1] = b[w + 2]; b[w + 2] = s
				}
			}
		}
		s = ""
		for (i = 0; i < n; i++) { s = s b[i]; if (length(s) >= 64) { print "raw:" s; s = "" } }
		if (s != "") print "raw:" s
	}' > "$TMP/mut.words"
	sh "$TOP/tests/golden/mkprof.sh" "$TMP/mut.words" "$3"
}

SRCS=
for d in rich reversed step0 zero-len weak-local abs-skipped init-end no-etext \
    order-large dunder-names; do
	[ -f "$RICH/$d/map" ] && [ -f "$RICH/$d/profile" ] && SRCS="$SRCS $RICH/$d"
done
SRCS="$SRCS $TOP/fixtures/inputs/rich"
set -- $SRCS
nsrc=$#
OPTS="-a|-v|-s|-b|-as|-ab|-abv|-asv|--exact -a|--exact -as|--exact -abv|-n -a|-i|-i -v|-av --exact|-a -n -s"
nopts=$(echo "$OPTS" | awk -F'|' '{ print NF }')
m=1
while [ "$m" -le "$NMUT" ]; do
	s=$((SEED * 100003 + m))
	i=$((s % nsrc + 1))
	eval "src=\${$i}"
	case $src in
	*/inputs/rich) smap=$src.map sprof=$src.profile ;;
	*) smap=$src/map sprof=$src/profile ;;
	esac
	what=$((s / 7 % 3))
	cp "$smap" "$W/mut.map"
	cp "$sprof" "$W/mut.profile"
	[ "$what" -eq 1 ] || mutate_text "$s" "$smap" "$W/mut.map"
	[ "$what" -eq 2 ] || mutate_bin "$s" "$sprof" "$W/mut.profile"
	o=$(echo "$OPTS" | awk -F'|' -v k=$((s / 3 % nopts + 1)) '{ print $k }')
	# shellcheck disable=SC2086
	if ! any "mutation $m (seed $s, ${src#"$TOP"/}, $o)" $o -p mut.profile -m mut.map &&
	    [ -n "${HOSTILE_KEEP:-}" ]; then
		mkdir -p "$HOSTILE_KEEP/mutation-$m" &&
			cp "$W/mut.map" "$W/mut.profile" "$HOSTILE_KEEP/mutation-$m/" &&
			echo "$o" > "$HOSTILE_KEEP/mutation-$m/options"
	fi
	m=$((m + 1))
done

summary
