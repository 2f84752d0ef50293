#!/bin/sh
# run.sh - checks for what this readprofile does beyond util-linux:
# --exact (against the independent model in tests/differential/model.c), --baseline
# (against util-linux run on the difference snapshot), profile and map
# sources (stdin, pipes, FIFOs, process substitution, compressed files),
# the wrong-map warning, and -i -v.
#
#   RP=/abs/readprofile MODEL=/abs/model GEN=/abs/gen [RP_WRAP='valgrind -q'] \
#       [ORACLE=/usr/sbin/readprofile] [PROFTOOL=/abs/proftool] \
#       [EXT_SEEDS=300] [EXT_BASE_SEEDS=40] \
#       sh tests/extensions/run.sh
#
# Prints PASS or FAIL for each check (a failure with a reproducer and the
# first lines of the difference), SKIP for what cannot run here, and
# `N passed, N failed` last.  Exit status 1 when a check failed.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=extensions
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
: "${MODEL:?set MODEL to the compiled tests/differential/model.c}"
: "${GEN:?set GEN to the compiled tests/differential/gen.c}"
ORACLE=${ORACLE:-/usr/sbin/readprofile}
SEEDS=${EXT_SEEDS:-300}
BSEEDS=${EXT_BASE_SEEDS:-40}
CC=${CC:-cc}

. "$TOP/tests/libc.sh"
libc_setup


# rp PREFIX ARGS...: readprofile ARGS, stdout in PREFIX.out, stderr in
# PREFIX.err, exit status in $RC.
rp() {
	_p=$1
	shift
	$RP_WRAP "$RP" "$@" >"$_p.out" 2>"$_p.err" </dev/null
	RC=$?
}

# same NAME PREFIX EXPECTED-STDOUT-FILE [REPRODUCER]: readprofile's run in
# PREFIX exited 0, printed EXPECTED-STDOUT-FILE and nothing on stderr.
same() {
	_why=
	[ "$RC" = 0 ] || _why="$_why exit $RC;"
	cmp -s "$3" "$2.out" || _why="$_why stdout differs;"
	[ -s "$2.err" ] && _why="$_why stderr not empty;"
	if [ -z "$_why" ]; then
		ok "$1"
	else
		diff "$3" "$2.out" >"$TMP/same.diff" 2>&1
		echo "${4:-}" >"$TMP/same.cmd"
		bad "$1:$_why" "$TMP/same.cmd" "$2.err" "$TMP/same.diff"
	fi
}

# INCOMPLETE: the last line of stderr after an error found once the report
# began (it is written as it is made)
INCOMPLETE="readprofile: the report above is incomplete"
# fails NAME PREFIX EXPECTED-STDERR-LINE: exit 1, empty stdout, and stderr
# exactly the line; with LATE=1, the report begun on stdout and stderr
# the line and INCOMPLETE.
fails() {
	printf '%s\n' "$3" >"$TMP/fails.exp"
	[ "${LATE:-0}" = 1 ] && echo "$INCOMPLETE" >>"$TMP/fails.exp"
	if [ "$RC" = 1 ] && { [ -s "$2.out" ] || [ "${LATE:-0}" = 0 ]; } &&
	    { [ ! -s "$2.out" ] || [ "${LATE:-0}" = 1 ]; } &&
	    cmp -s "$TMP/fails.exp" "$2.err"
	then
		ok "$1"
	else
		echo "exit $RC, stdout $(wc -c <"$2.out") bytes; stderr:" \
		    >"$TMP/fails.why"
		bad "$1" "$TMP/fails.why" "$2.err"
	fi
}

for _t in "$RP" "$MODEL" "$GEN"; do
	[ -x "$_t" ] || { echo "not executable: $_t" >&2; exit 2; }
done
have gzip || { echo "gzip is required" >&2; exit 2; }
[ -f "$TOP/fixtures/real/profile.gz" ] && [ -f "$TOP/fixtures/real/kallsyms.gz" ] ||
	{ echo "fixtures/real is missing" >&2; exit 2; }
# PROFTOOL: a compiled tests/extensions/proftool.c; built here when not given.
PT=${PROFTOOL:-}
if [ -z "$PT" ]; then
	PT=$TMP/proftool
	"$CC" -O2 -o "$PT" "$TOP/tests/extensions/proftool.c" ||
		{ echo "cannot build tests/extensions/proftool.c" >&2; exit 2; }
fi
HAVE_ORACLE=0
[ -x "$ORACLE" ] && HAVE_ORACLE=1

# Host byte order, for the Byte_order: lines.
if [ "$(printf '\001\000\000\000' | od -An -tu4 | tr -d ' ')" = 1 ]; then
	HOST=little-endian OTHER=big-endian HOSTORD=le
else
	HOST=big-endian OTHER=little-endian HOSTORD=be
fi

# The real capture, and the profile a profile=4 boot would have kept
# (step 16: four step-4 counters merged).
R=$TMP/real
mkdir "$R"
gzip -dc "$TOP/fixtures/real/profile.gz" >"$R/profile"
gzip -dc "$TOP/fixtures/real/kallsyms.gz" >"$R/map"
"$PT" rebin 4 "$R/profile" "$R/p16"
STEXT=$(awk '$3 == "_stext" { print $1; exit }' "$R/map")
ETEXT=$(awk '$3 == "_etext" { print $1; exit }' "$R/map")

# Parse the low 48 bits of a hex number (exact in awk's doubles).
AWKHEX='function hex(s,   v, i, c) {
	s = tolower(s); sub(/^0x/, "", s)
	if (length(s) > 12) s = substr(s, length(s) - 11)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0) return -1
		v = v * 16 + c - 1
	}
	return v
}'

echo "== --exact against the model"

# exact_vs_model NAME PROFILE MAP OPTS
exact_vs_model() {
	"$MODEL" $4 "$2" "$3" >"$TMP/m.out" 2>"$TMP/m.err"
	_mrc=$?
	rp "$TMP/r" --exact $4 -p "$2" -m "$3"
	if [ $_mrc != 0 ]; then
		bad "$1: the model failed (exit $_mrc)" "$TMP/m.err"
		return
	fi
	same "$1" "$TMP/r" "$TMP/m.out" "readprofile --exact $4 -p $2 -m $3"
}
for o in "" -a -v -s -b -bv -sv; do
	exact_vs_model "real, --exact ${o:-(default)} == model" \
	    "$R/profile" "$R/map" "$o"
done
for o in "" -a -s -b; do
	exact_vs_model "real at step 16, --exact ${o:-(default)} == model" \
	    "$R/p16" "$R/map" "$o"
done

# vs_model PROFILE MAP OPTS: readprofile --exact OPTS against the model.
# Sets KIND (same, error, declined) and WHY (empty when right).  The model
# declines (exit 2) what it does not cover; its exit 4 (a symbol beyond
# the profile) and 5 (addresses going down) must be errors of readprofile.
vs_model() {
	"$MODEL" $3 "$1" "$2" >"$TMP/m.out" 2>"$TMP/m.err"
	_mrc=$?
	rp "$TMP/r" --exact $3 -p "$1" -m "$2"
	WHY=
	case $_mrc in
	0)
		KIND=same
		[ "$RC" = 0 ] || WHY="exit $RC"
		cmp -s "$TMP/m.out" "$TMP/r.out" || WHY="$WHY stdout differs"
		;;
	2)
		KIND=declined
		;;
	4|5)
		KIND=error
		[ $_mrc = 4 ] && _msg='profile address out of range' ||
		    _msg='address goes backwards'
		[ "$RC" = 1 ] && { [ ! -s "$TMP/r.out" ] ||
		    [ "$(tail -n 1 "$TMP/r.err")" = "$INCOMPLETE" ]; } &&
		    grep -q "$_msg" "$TMP/r.err" ||
		    WHY="expected '$_msg', got exit $RC"
		;;
	*)
		KIND=error
		WHY="model exit $_mrc: $(cat "$TMP/m.err")"
		;;
	esac
	if [ -n "$WHY" ]; then
		diff "$TMP/m.out" "$TMP/r.out" | head -n 6 >"$TMP/vs.diff"
		cat "$TMP/r.err" >>"$TMP/vs.diff"
	fi
}

# Hand-made edge cases.  Step 4, counters 1..8: words 1..7 are text
# buckets, word 8 is *unknown*.
E=$TMP/edge
mkdir "$E"
printf '\004\000\000\000\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000\005\000\000\000\006\000\000\000\007\000\000\000\010\000\000\000' >"$E/p8"
printf '\004\000\000\000\011\000\000\000' >"$E/p0"	# no text counter
# zero-length symbols; b starts mid-bucket; c in the partial bucket
# after the last counter
printf '%s\n' '0000000000001000 T _stext' '0000000000001002 T a' \
    '0000000000001002 t z' '000000000000101d W b' '0000000000001020 w c' \
    '0000000000001021 T _etext' >"$E/zero-len"
# absolute symbols: skipped while nothing is credited, __init_end always;
# then one ends the report
printf '%s\n' '0000000000000ff0 T before' '0000000000001000 T _stext' \
    '0000000000001005 A abs' '0000000000001006 T x' \
    '0000000000001010 A __init_end' '0000000000001011 T y' \
    '0000000000001012 ? abs2' '0000000000001013 T y2' \
    '0000000000001020 T _etext' >"$E/abs"
printf '%s\n' '0000000000001000 T __stext' '0000000000001009 T x' \
    '000000000000100a D data' '000000000000100c T y' >"$E/data-ends"
printf '%s\n' '0000000000001000 T _stext' '0000000000001010 T x' >"$E/no-etext"
printf '%s\n' '0000000000001000 T _stext' >"$E/stext-only"
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T __etext' >"$E/empty-text"
printf '%s\n' '0000000000001000 T _stext' '0000000000001024 T c' \
    '0000000000001030 T _etext' >"$E/beyond"
printf '%s\n' '0000000000001000 T _stext' '0000000000001004 T x' \
    '0000000000000ffc T back' '0000000000001010 T _etext' >"$E/backwards"
for c in zero-len:same abs:same data-ends:same no-etext:same \
    stext-only:same empty-text:same beyond:error backwards:error; do
	m=${c%%:*}
	for p in p8 p0; do
		[ "$p" = p0 ] && [ "${c#*:}" = error ] && continue
		for o in "" -a -s -ab; do
			vs_model "$E/$p" "$E/$m" "$o"
			# p0 has no text: the model decides alone what it gives
			if [ -z "$WHY" ] && { [ $p = p0 ] || [ "$KIND" = "${c#*:}" ]; }; then
				ok "edge case $m, profile $p, --exact ${o:-(default)}: $KIND as the model"
			else
				echo "$WHY ($KIND); reproduce: readprofile --exact $o -p $p -m $m" >"$TMP/why"
				bad "edge case $m, profile $p, --exact $o" "$TMP/why" "$TMP/vs.diff"
			fi
		done
	done
done
# Step 0 (64-bit big-endian kernels): the step comes from the map's text,
# 4 here; --exact is then its report of the profile with word 0 set to 4.
# Without _etext the step is unknown: an error.
printf '\000\000\000\000\001\000\000\000\002\000\000\000' >"$E/step0"
printf '\004\000\000\000\001\000\000\000\002\000\000\000' >"$E/step4"
printf '%s\n' '0000000000001000 T _stext' '0000000000001004 T x' \
    '0000000000001008 T _etext' >"$E/step-map"
note="readprofile: the profile's step word is 0, as 64-bit big-endian kernels write it; using step 4 from $E/step-map"
for o in "" -a -s -b -v; do
	rp "$TMP/c" --exact $o -p "$E/step4" -m "$E/step-map"
	rp "$TMP/r" --exact $o -p "$E/step0" -m "$E/step-map"
	printf '%s\n' "$note" >"$TMP/note"
	if [ "$RC" = 0 ] && cmp -s "$TMP/c.out" "$TMP/r.out" &&
	    cmp -s "$TMP/note" "$TMP/r.err"; then
		ok "step 0: --exact ${o:-(default)} == --exact at the inferred step"
	else
		echo "exit $RC; readprofile --exact $o -p step0 -m step-map" \
		    >"$TMP/why"
		diff "$TMP/c.out" "$TMP/r.out" >"$TMP/step.diff" 2>&1
		bad "step 0: --exact ${o:-(default)} == --exact at the inferred step" \
		    "$TMP/why" "$TMP/r.err" "$TMP/step.diff"
	fi
	rp "$TMP/r" --exact $o -p "$E/step0" -m "$E/no-etext"
	fails "step 0, no _etext: --exact ${o:-(default)} is an error" "$TMP/r" \
	    "readprofile: the profile's step word is 0 and $E/no-etext has no _etext: the sampling step is unknown (give the map of the profiled kernel with -m)"
done

# Random maps and profiles: "" and -a always, and one more option set
# per seed.
G=$TMP/g
mkdir "$G"
ROT="-v -s -b -ab -abv -sv -as -bs -asv"
nrun=0 nskip=0 nerr=0 nbad=0
: >"$TMP/random.fail"
seed=1
while [ "$seed" -le "$SEEDS" ]; do
	if ! "$GEN" "$seed" "$G" 2>"$TMP/gen.err"; then
		echo "gen $seed failed" >>"$TMP/random.fail"
		nbad=$((nbad + 1))
		seed=$((seed + 1))
		continue
	fi
	[ $((seed % 50)) != 0 ] || echo "... $seed of $SEEDS random maps"
	extra=$(echo $ROT | cut -d' ' -f$((seed % 9 + 1)))
	for o in "" -a "$extra"; do
		vs_model "$G/profile" "$G/map" "$o"
		# the maps match their profiles: no warning
		grep -q 'does not match' "$TMP/r.err" &&
		    WHY="$WHY warned" && cp "$TMP/r.err" "$TMP/vs.diff"
		case $KIND in
		same) nrun=$((nrun + 1)) ;;
		error) nerr=$((nerr + 1)) ;;
		*) nskip=$((nskip + 1)) ;;
		esac
		if [ -n "$WHY" ]; then
			nbad=$((nbad + 1))
			if [ $nbad -le 5 ]; then
				echo "seed $seed: $WHY; reproduce: gen $seed D &&" \
				    "readprofile --exact $o -p D/profile -m D/map"
				cat "$TMP/vs.diff"
			fi >>"$TMP/random.fail"
		fi
	done
	seed=$((seed + 1))
done
label="--exact == model on $SEEDS random maps ($nrun compared, $nerr errors, $nskip declined)"
if [ $nbad -gt 0 ]; then
	bad "$label: $nbad wrong" "$TMP/random.fail"
elif [ $nrun -lt $((SEEDS * 3 / 2)) ]; then
	bad "$label: the model declined too many"
else
	ok "$label"
fi

echo "== --exact on the i386, arm64 and s390x captures against the model"

. "$TOP/tests/golden/common.sh"
# arch_exact NAME DIR PROFILE MAP OPTS STDERR-FILE MODEL-PROFILE: in DIR,
# readprofile --exact OPTS on PROFILE prints what the model prints for
# MODEL-PROFILE, exits 0, and its stderr is STDERR-FILE (the byte-order
# note of util-linux for the big-endian capture, nothing for the others;
# the recorded notes name the files as the golden cases do, relative to DIR).
arch_exact() {
	_d=$(pwd)
	cd "$2" || exit 2
	"$MODEL" $5 "$7" "$4" >"$TMP/m.out" 2>"$TMP/m.err"
	_mrc=$?
	rp "$TMP/r" --exact $5 -p "$3" -m "$4"
	cd "$_d" || exit 2
	_why=
	[ $_mrc = 0 ] || _why="$_why the model failed (exit $_mrc);"
	[ "$RC" = 0 ] || _why="$_why exit $RC;"
	cmp -s "$TMP/m.out" "$TMP/r.out" || _why="$_why stdout differs;"
	cmp -s "$6" "$TMP/r.err" || _why="$_why stderr differs;"
	if [ -z "$_why" ]; then
		ok "$1"
		return
	fi
	diff "$TMP/m.out" "$TMP/r.out" >"$TMP/same.diff" 2>&1
	echo "(cd $2 && readprofile --exact $5 -p $3 -m $4)" >"$TMP/same.cmd"
	diff "$6" "$TMP/r.err" >"$TMP/same.errdiff" 2>&1
	bad "$1:$_why" "$TMP/same.cmd" "$TMP/m.err" "$TMP/same.errdiff" "$TMP/same.diff"
}
for a in "$TOP"/fixtures/arch/*/; do
	a=${a%/}
	n=${a##*/}
	A=$TMP/arch-$n
	if ! unpack_capture "$a" "$A"; then
		bad "$n: cannot decompress fixtures/arch/$n"
		continue
	fi
	p=profile
	[ -f "$A/profile.patched" ] && p=profile.patched
	for o in "" -a -v -s -b; do
		arch_exact "$n: --exact ${o:-(default)} == model" "$A" \
		    "$p" kallsyms "$o" "$a/golden/default/expected.err" "$p"
	done
	# the raw big-endian snapshot (step word 0) must give the same reports
	if [ -f "$A/profile.patched" ]; then
		for o in "" -a -v -s -b; do
			arch_exact "$n raw snapshot: --exact ${o:-(default)} == model on the step-patched one" \
			    "$A" profile kallsyms "$o" "$a/golden/raw-default/expected.err" \
			    profile.patched
		done
	fi
	rm -rf "$A"
done

echo "== --exact facts on the real capture"

# The ticks of the words 1..n-2 all fall in [_stext, _etext), which the
# map's symbols cover from _stext to _etext: none is left unattributed.
for p in profile p16; do
	set -- $("$PT" sum "$R/$p")
	rp "$TMP/r" --exact -a -p "$R/$p" -m "$R/map"
	got=$(awk -v S="$1" -v U="$2" '
		$2 == "total" { t = $1 }
		$2 == "*unknown*" { u = $1; next }
		NF == 3 && $2 != "total" { s += $1 }
		END {
			if (t == S && s == S && u == U) { print "ok"; exit }
			print "total " t ", sum of symbols " s ", *unknown* " u \
			    "; counters 1..n-2 sum to " S ", last word " U
		}' "$TMP/r.out")
	if [ "$RC" = 0 ] && [ "$got" = ok ]; then
		ok "real $p: --exact total == sum of symbol ticks == sum of the text counters"
	else
		echo "$got" >"$TMP/why"
		bad "real $p: --exact total vs counters" "$TMP/why" "$TMP/r.err"
	fi
done

# ticks NAME FILE: the ticks of symbol NAME in a default report (0 if absent)
ticks() {
	awk -v n="$1" 'NF == 3 && $2 == n { t = $1 } END { print t + 0 }' "$2"
}
# At step 16 the classic rule gives clear_page_erms (16 bytes, 16-aligned)
# nothing: its only bucket goes to clear_user_original.  Really 211.
rp "$TMP/c" -p "$R/p16" -m "$R/map"
rp "$TMP/e" --exact -p "$R/p16" -m "$R/map"
c=$(ticks clear_page_erms "$TMP/c.out") e=$(ticks clear_page_erms "$TMP/e.out")
if [ "$c" = 0 ] && [ "$e" = 211 ]; then
	ok "real step 16: clear_page_erms classic 0, --exact 211"
else
	echo "classic $c, exact $e" >"$TMP/why"
	bad "real step 16: clear_page_erms classic 0, --exact 211" "$TMP/why"
fi
# Step 4: msg_get.cold's last bucket has 1 tick, the classic rule gives it
# to register_key_type.cold.
rp "$TMP/c" -p "$R/profile" -m "$R/map"
rp "$TMP/e" --exact -p "$R/profile" -m "$R/map"
got="$(ticks msg_get.cold "$TMP/c.out") $(ticks register_key_type.cold "$TMP/c.out") $(ticks msg_get.cold "$TMP/e.out") $(ticks register_key_type.cold "$TMP/e.out")"
if [ "$got" = "0 1 1 0" ]; then
	ok "real step 4: msg_get.cold / register_key_type.cold classic 0/1, --exact 1/0"
else
	echo "classic, exact: $got" >"$TMP/why"
	bad "real step 4: msg_get.cold / register_key_type.cold" "$TMP/why"
fi

# Coarser steps only merge buckets: a symbol whose start and end are both
# 16-aligned (from _stext) has the same exact ticks at step 4 and 16.
rp "$TMP/e4" --exact -v -a -p "$R/profile" -m "$R/map"
rp "$TMP/e16" --exact -v -a -p "$R/p16" -m "$R/map"
paste -d ' ' "$TMP/e4.out" "$TMP/e16.out" | awk -v st="$STEXT" "$AWKHEX"'
	NF == 8 && $2 != "total" {
		if ($1 != $5 || $2 != $6) { bad++; next }
		a = hex($1) - hex(st)
		if (have && pa % 16 == 0 && a % 16 == 0) {
			n++
			if (pt4 != pt16) { bad++; print pn ": " pt4 " at step 4, " pt16 " at step 16" }
		}
		have = 1; pa = a; pn = $2; pt4 = $3; pt16 = $7
	}
	END { print n " checked, " bad + 0 " wrong"; exit (bad || n < 1000) }' \
    >"$TMP/why"
if [ $? = 0 ]; then
	ok "real: 16-aligned symbols have the same --exact ticks at step 4 and 16 ($(tail -n 1 "$TMP/why"))"
else
	bad "real: 16-aligned symbols, --exact step 4 vs 16" "$TMP/why"
fi

# -s lists every bucket that starts in [start, next), all but the last
# word, with address, name+offset and count; the counts add up.
NW16=$(($(wc -c <"$R/p16") / 4))
rp "$TMP/r" --exact -v -a -s -p "$R/p16" -m "$R/map"
awk -v st="$STEXT" -v et="$ETEXT" -v step=16 -v nw="$NW16" "$AWKHEX"'
	function close_sym(next_a,   endb) {
		if (cur == "") return
		if (sum != ticks) err(cur ": counters add up to " sum ", not " ticks)
		# the next bucket not listed must start at or after next_a,
		# or be the last word
		if (expect < next_a && expect <= lastb)
			err(cur ": bucket at offset " expect " not listed")
	}
	function err(m) { if (++bad <= 10) print m }
	BEGIN { S = hex(st); lastb = (nw - 3) * step }
	/^\t/ {
		split($0, f, "\t")
		a = hex(f[2]) - S
		if (!match(f[3], /\+(0x[0-9a-f]+|0)$/)) { err("bad line " $0); next }
		nm = substr(f[3], 1, RSTART - 1); off = hex(substr(f[3], RSTART + 1))
		if (nm != cur) err("counter of " nm " under " cur)
		if (a != expect) err(cur ": bucket at " a ", expected " expect)
		if (off != a - ca) err(cur ": offset " off " for bucket at " a)
		if (a > lastb) err(cur ": lists the last word")
		sum += f[4]; expect = a + step; lines++
		next
	}
	$2 == "*unknown*" { close_sym(hex(et) - S); cur = ""; next }
	$2 == "total" { next }
	{
		a = hex($1) - S
		close_sym(a)
		cur = $2; ca = a; ticks = $3; sum = 0
		expect = int((a + step - 1) / step) * step
	}
	END { if (lines != nw - 2) err(lines " counter lines, expected " nw - 2)
	      exit bad > 0 }' "$TMP/r.out" >"$TMP/why"
arc=$?
if [ "$RC" = 0 ] && [ $arc = 0 ]; then
	ok "real step 16: --exact -v -a -s lists every bucket of every symbol once"
else
	bad "real step 16: --exact -v -a -s structure" "$TMP/why" "$TMP/r.err"
fi

# -b -a: every text word once, in order, grouped under the symbols; each
# symbol's total line is the sum of its bins; the bins add up to the total.
rp "$TMP/r" --exact -a -b -p "$R/p16" -m "$R/map"
awk -v st="$STEXT" -v step=16 -v nw="$NW16" "$AWKHEX"'
	function err(m) { if (++bad <= 10) print m }
	BEGIN { S = hex(st) }
	/^\t/ {
		split($0, f, "\t")
		a = hex(f[2]) - S
		if (a != bins * step) err("bin at " a ", expected " bins * step)
		bins++; sym += f[3]; all += f[3]
		next
	}
	/^  total\t/ { n = $2; if (n != sym) err("symbol total " n ", bins " sym); sym = 0; next }
	/:$/ { if (sym) err("bins without a total line before " $0); sym = 0; next }
	$2 == "total" { total = $1; next }
	END {
		if (bins != nw - 2) err(bins " bins, expected " nw - 2)
		if (all != total) err("bins add up to " all ", total " total)
		exit bad > 0
	}' "$TMP/r.out" >"$TMP/why"
arc=$?
if [ "$RC" = 0 ] && [ $arc = 0 ]; then
	ok "real step 16: --exact -a -b bins cover the text once and add up"
else
	bad "real step 16: --exact -a -b structure" "$TMP/why" "$TMP/r.err"
fi

# -v: the same symbols, ticks and loads as the default report.
rp "$TMP/d" --exact -p "$R/p16" -m "$R/map"
rp "$TMP/v" --exact -v -p "$R/p16" -m "$R/map"
awk 'NF == 3 { print $1, $2, $3 } NF == 2 { print }' "$TMP/d.out" >"$TMP/d.norm"
awk 'NF == 4 { print $3, $2, $4 } NF == 2 { print }' "$TMP/v.out" >"$TMP/v.norm"
if [ "$RC" = 0 ] && cmp -s "$TMP/d.norm" "$TMP/v.norm" &&
    [ "$(wc -l <"$TMP/d.out")" = "$(wc -l <"$TMP/v.out")" ]; then
	ok "real step 16: --exact -v has the default report's symbols, ticks, loads"
else
	diff "$TMP/d.norm" "$TMP/v.norm" >"$TMP/why"
	bad "real step 16: --exact -v vs default" "$TMP/why"
fi

# The figures the README and the man page give, from the command they
# print beside them.
sh "$TOP/tests/extensions/exact-moved.sh" "$RP" "$PT" >"$TMP/moved" 2>&1
sed 's/^/    /' "$TMP/moved" >"$TMP/moved.readme"
if [ "$(wc -l <"$TMP/moved")" = 8 ] &&
    grep -Fqx "    \$ make readprofile build/tests/proftool && sh tests/extensions/exact-moved.sh" "$TOP/README.md" &&
    awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
	i < n && $0 == want[i + 1] { i++ } END { exit i == n ? 0 : 1 }' \
    "$TMP/moved.readme" "$TOP/README.md"; then
	ok "README: exact-moved.sh output as printed there"
else
	bad "README: exact-moved.sh output as printed there" "$TMP/moved"
fi
s16=$(sed -n 's/^step 16: \([0-9]*\) of [0-9]* ticks (\([0-9.]*%\)).*/\1 ticks (\2)/p' "$TMP/moved")
if [ -n "$s16" ] && grep -Fq "$s16" "$TOP/man/readprofile-formats.5" &&
    grep -Fq "$s16 land" "$TOP/README.md" &&
    grep -Fq "(step 4) one tick of 10,262 moves" "$TOP/README.md" &&
    grep -Fq "printed with 0" "$TOP/README.md" &&
    grep -Fq "ticks instead of 211:" "$TOP/README.md" &&
    grep -Fq "moves; merged to step 16" "$TOP/man/readprofile-formats.5" &&
    grep -q "^step 4: 1 of 10262 ticks" "$TMP/moved" &&
    grep -Fq "one tick of 10262" "$TOP/man/readprofile-formats.5" &&
    grep -qx "  clear_page_erms 0 -> 211" "$TMP/moved" &&
    grep -Fq "with none instead of 211" "$TOP/man/readprofile-formats.5"; then
	ok "README and man page: the --exact figures of exact-moved.sh in the text"
else
	bad "README and man page: the --exact figures of exact-moved.sh in the text ($s16)" "$TMP/moved"
fi

echo "== --baseline against util-linux on the difference snapshot"

# order FILE: le or be, from the step word (gen's steps are below 2^24).
order() {
	od -An -tu1 -N4 "$1" | awk '{ print ($1 == 0 ? "be" : "le") }'
}
# guess FILE: whether util-linux takes FILE as reversed.
guess() {
	"$ORACLE" -i -p "$1" 2>&1 >/dev/null | grep -c Assuming
}
if [ $HAVE_ORACLE = 0 ]; then
	skipped "--baseline comparisons: $ORACLE not found"
else
	OPTS="- -v -a -av -b -bv -ab -abv -s -sv -as -asv -bs -bsv -abs -absv"
	ncmp=0 nguess=0 nbad=0
	: >"$TMP/base.fail"
	seed=1
	while [ "$seed" -le "$BSEEDS" ]; do
		[ $((seed % 10)) != 0 ] || echo "... $seed of $BSEEDS random pairs"
		"$GEN" "$seed" "$G" || { nbad=$((nbad + 1)); seed=$((seed + 1)); continue; }
		ord=$(order "$G/profile")
		"$PT" reduce "$ord" "$seed" "$G/profile" "$G/base"
		"$PT" sub "$ord" "$G/base" "$G/profile" "$G/diff"
		for f in profile base diff; do
			"$PT" swap "$G/$f" "$G/$f.x"
		done
		for x in "" .x; do
			# The difference is what util-linux reads.  But when its
			# byte-order guess on the difference differs from the one on
			# the profile (all counters unchanged, say), the difference
			# is given to it in host order, with -n.
			dfile=$G/diff$x n=
			if [ "$(guess "$G/profile$x")" != "$(guess "$G/diff$x")" ]; then
				nguess=$((nguess + 1)) n=-n
				[ "$ord" = $HOSTORD ] && [ -n "$x" ] && dfile=$G/diff
				[ "$ord" != $HOSTORD ] && [ -z "$x" ] && dfile=$G/diff.x
			fi
			for o in $OPTS; do
				[ "$o" = - ] && o=
				"$ORACLE" $n $o -p "$dfile" -m "$G/map" >"$TMP/o.out" 2>/dev/null
				orc=$?
				rp "$TMP/r" --baseline "$G/base$x" $o -p "$G/profile$x" -m "$G/map"
				ncmp=$((ncmp + 1))
				if [ "$RC" != "$orc" ] || ! cmp -s "$TMP/o.out" "$TMP/r.out"; then
					nbad=$((nbad + 1))
					[ $nbad -le 5 ] && {
						echo "seed $seed${x:+ (byte-swapped)} $o: exit $RC vs $orc${n:+ (util-linux -n)}"
						diff "$TMP/o.out" "$TMP/r.out" | head -n 6
					} >>"$TMP/base.fail"
				fi
			done
			# and --exact --baseline against the model on the difference
			"$MODEL" "$dfile" "$G/map" >"$TMP/m.out" 2>/dev/null
			if [ $? = 0 ]; then
				rp "$TMP/r" --exact --baseline "$G/base$x" -p "$G/profile$x" -m "$G/map"
				ncmp=$((ncmp + 1))
				if [ "$RC" != 0 ] || ! cmp -s "$TMP/m.out" "$TMP/r.out"; then
					nbad=$((nbad + 1))
					echo "seed $seed${x:+ (byte-swapped)} --exact: differs from the model" \
					    >>"$TMP/base.fail"
				fi
			fi
		done
		seed=$((seed + 1))
	done
	label="--baseline == util-linux on the difference, $BSEEDS random pairs x 2 byte orders x 16 option sets ($ncmp runs; $nguess differences in host order with -n: the byte-order guess differs)"
	if [ $nbad = 0 ] && [ $ncmp -gt 0 ]; then
		ok "$label"
	else
		bad "$label: $nbad wrong" "$TMP/base.fail"
	fi

	# The real capture.
	"$PT" reduce le 7 "$R/profile" "$R/base"
	"$PT" sub le "$R/base" "$R/profile" "$R/diff"
	for o in "" -a; do
		"$ORACLE" $o -p "$R/diff" -m "$R/map" >"$TMP/o.out" 2>/dev/null
		rp "$TMP/r" --baseline "$R/base" $o -p "$R/profile" -m "$R/map"
		same "real: --baseline ${o:-(default)} == util-linux on the difference" \
		    "$TMP/r" "$TMP/o.out" "readprofile --baseline BASE $o -p PROFILE -m MAP"
	done
fi

# Errors, on small hand-made profiles: step 4, counters 5 7 0 2.
S=$TMP/small
mkdir "$S"
printf '\004\000\000\000\005\000\000\000\007\000\000\000\000\000\000\000\002\000\000\000' >"$S/p"
printf '\010\000\000\000\005\000\000\000\007\000\000\000\000\000\000\000\002\000\000\000' >"$S/step8"
printf '\004\000\000\000\005\000\000\000\007\000\000\000\000\000\000\000' >"$S/short"
printf '\004\000\000\000\005\000\000\000\010\000\000\000\000\000\000\000\002\000\000\000' >"$S/higher"
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T f' \
    '0000000000001008 T g' '0000000000001010 T _etext' >"$S/map"
cd "$S" || exit 2
rp "$TMP/r" --baseline step8 -p p -m map
fails "--baseline with another step" "$TMP/r" \
    "readprofile: step8: sampling step 8 differs from p's 4"
rp "$TMP/r" --baseline short -p p -m map
fails "--baseline with fewer counters" "$TMP/r" \
    "readprofile: short: 3 counters, but p has 4"
rp "$TMP/r" --baseline p -p short -m map
fails "--baseline with more counters" "$TMP/r" \
    "readprofile: p: 4 counters, but short has 3"
rp "$TMP/r" --baseline higher -p p -m map
fails "--baseline with a counter above the profile's" "$TMP/r" \
    "readprofile: p: counter 1 is lower than in higher (were the counters reset?)"
"$PT" swap p p.x && "$PT" swap higher higher.x
rp "$TMP/r" --baseline higher.x -p p.x -m map
fails "--baseline with a counter above the profile's, byte-swapped files" "$TMP/r" \
    "readprofile: p.x: counter 1 is lower than in higher.x (were the counters reset?)"
rp "$TMP/r" --baseline p -p p -m map
printf '%s\n' '     0 *unknown*' \
    '     0 total                                      0.0000' >"$TMP/exp"
same "--baseline of a profile against itself: all zero" "$TMP/r" "$TMP/exp"
cd "$TOP" || exit 2

echo "== profile and map sources"

rp "$TMP/ref" -p "$R/profile" -m "$R/map"
[ "$RC" = 0 ] || bad "real: plain files (exit $RC)" "$TMP/ref.err"
REF=$TMP/ref.out

$RP_WRAP "$RP" -p - -m "$R/map" <"$R/profile" >"$TMP/r.out" 2>"$TMP/r.err"
RC=$?
same "-p - from a redirected file" "$TMP/r" "$REF"

cat "$R/profile" | $RP_WRAP "$RP" -p - -m "$R/map" >"$TMP/r.out" 2>"$TMP/r.err"
RC=$?
same "-p - from a pipe" "$TMP/r" "$REF"

cat "$R/map" | $RP_WRAP "$RP" -p "$R/profile" -m - >"$TMP/r.out" 2>"$TMP/r.err"
RC=$?
same "-m - from a pipe" "$TMP/r" "$REF"

if have bash; then
	bash -c "exec $RP_WRAP \"\$1\" -p <(cat \"\$2\") -m \"\$3\"" bash \
	    "$RP" "$R/profile" "$R/map" >"$TMP/r.out" 2>"$TMP/r.err" </dev/null
	RC=$?
	same "-p <(process substitution)" "$TMP/r" "$REF"
	bash -c "exec $RP_WRAP \"\$1\" -p \"\$2\" -m <(cat \"\$3\")" bash \
	    "$RP" "$R/profile" "$R/map" >"$TMP/r.out" 2>"$TMP/r.err" </dev/null
	RC=$?
	same "-m <(process substitution)" "$TMP/r" "$REF"
else
	skipped "process substitution: no bash"
fi

if mkfifo "$TMP/fifo" 2>/dev/null; then
	cat "$R/profile" >"$TMP/fifo" &
	rp "$TMP/r" -p "$TMP/fifo" -m "$R/map"
	wait
	same "-p FIFO" "$TMP/r" "$REF"
	cat "$R/map" >"$TMP/fifo" &
	rp "$TMP/r" -p "$R/profile" -m "$TMP/fifo"
	wait
	same "-m FIFO" "$TMP/r" "$REF"
else
	skipped "FIFOs: mkfifo failed"
fi

C=$TMP/comp
mkdir "$C"
for t in gzip:gz xz:xz zstd:zst bzip2:bz2; do
	tool=${t%%:*} ext=${t#*:}
	if ! have "$tool"; then
		skipped ".$ext inputs: $tool not installed"
		continue
	fi
	"$tool" -c <"$R/profile" >"$C/profile.$ext"
	"$tool" -c <"$R/map" >"$C/map.$ext"
	rp "$TMP/r" -p "$C/profile.$ext" -m "$R/map"
	same "-p profile.$ext" "$TMP/r" "$REF"
	rp "$TMP/r" -p "$R/profile" -m "$C/map.$ext"
	same "-m map.$ext" "$TMP/r" "$REF"
done
if [ $HAVE_ORACLE = 1 ]; then
	# --baseline reads the same sources.
	"$ORACLE" -p "$R/diff" -m "$R/map" >"$TMP/o.out" 2>/dev/null
	gzip -c <"$R/base" >"$C/base.gz"
	rp "$TMP/r" --baseline "$C/base.gz" -p "$R/profile" -m "$R/map"
	same "--baseline base.gz" "$TMP/r" "$TMP/o.out"
	$RP_WRAP "$RP" --baseline - -p "$R/profile" -m "$R/map" <"$R/base" \
	    >"$TMP/r.out" 2>"$TMP/r.err"
	RC=$?
	same "--baseline - from stdin" "$TMP/r" "$TMP/o.out"
else
	skipped "--baseline from base.gz and stdin: $ORACLE not found"
fi

# A missing decompressor (PATH without zstd; readprofile given by path).
if have zstd; then
	zstd -q -c <"$R/profile" >"$C/x.zst"
else
	cp "$R/profile" "$C/x.zst"
fi
cp "$R/map" "$C/m.zst"
WRAP_ABS=
if [ -n "$RP_WRAP" ]; then
	set -- $RP_WRAP
	_w=$(command -v "$1")
	shift
	WRAP_ABS="$_w $*"
fi
(cd "$C" && PATH=/nonexistent && export PATH &&
    exec $WRAP_ABS "$RP" -p x.zst -m "$R/map" >"$TMP/r.out" 2>"$TMP/r.err")
RC=$?
fails "-p x.zst without zstd in PATH" "$TMP/r" \
    "readprofile: x.zst: cannot run zstd to decompress it: $(strerror ENOENT)"
(cd "$C" && PATH=/nonexistent && export PATH &&
    exec $WRAP_ABS "$RP" -p "$R/profile" -m m.zst >"$TMP/r.out" 2>"$TMP/r.err")
RC=$?
fails "-m m.zst without zstd in PATH" "$TMP/r" \
    "readprofile: m.zst: cannot run zstd to decompress it: $(strerror ENOENT)"
# A decompressor that fails.
printf 'this is not gzip data\n' >"$C/bad.gz"
rp "$TMP/r" -p "$C/bad.gz" -m "$R/map"
if [ "$RC" = 1 ] && [ ! -s "$TMP/r.out" ] &&
    grep -q '^readprofile: .*bad.gz: gzip failed (exit status 1)' "$TMP/r.err"; then
	ok "-p bad.gz: gzip's failure is reported"
else
	bad "-p bad.gz: expected 'gzip failed (exit status 1)', exit $RC" "$TMP/r.err"
fi

echo "== the wrong-map warning"

# Step 4, 8 counters (32 bytes of text).  "narrow": the map's text is 24
# bytes, 6 counters; "wide": 48 bytes, 12 counters, beyond the profile.
printf '\004\000\000\000\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000\005\000\000\000\006\000\000\000\007\000\000\000\010\000\000\000' >"$S/p8"
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T f' \
    '0000000000001008 T g' '0000000000001010 t h' '0000000000001018 T _etext' \
    >"$S/narrow"
sed 's/1018 T _etext/1030 T _etext/' "$S/narrow" >"$S/wide"
cd "$S" || exit 2
# warned NAME MAP BYTES COUNTERS OPTS: one warning line, and stdout that of
# util-linux (the model's with --exact), which never warns.
warned() {
	rp "$TMP/r" $5 -p p8 -m "$2"
	if [ "$4" -gt 8 ]; then	# the profile is short: named first
		printf '%s\n' "readprofile: warning: p8 is shorter than the text of $2, which it does not match: its 8 counters at step 4 cover 32 bytes, but _etext - _stext is $3 bytes ($4 counters): a cut copy of the profile, or else pass the map of the kernel that wrote the profile with -m"
	else
		printf '%s\n' "readprofile: warning: $2 does not match p8: _etext - _stext is $3 bytes, $4 counters at step 4, but the profile has 8 counters; pass the map of the kernel that wrote the profile with -m"
	fi >"$TMP/exp.err"
	why=
	[ "$RC" = 0 ] || why="$why exit $RC;"
	cmp -s "$TMP/exp.err" "$TMP/r.err" || why="$why stderr differs;"
	case $5 in
	*--exact*)
		"$MODEL" ${5#--exact} p8 "$2" >"$TMP/o.out" 2>&1 ||
		    why="$why model failed;"
		cmp -s "$TMP/o.out" "$TMP/r.out" || why="$why stdout differs from the model;"
		;;
	*)
		if [ $HAVE_ORACLE = 1 ]; then
			"$ORACLE" $5 -p p8 -m "$2" >"$TMP/o.out" 2>"$TMP/o.err"
			cmp -s "$TMP/o.out" "$TMP/r.out" || why="$why stdout differs from util-linux;"
		elif [ -z "$why" ]; then
			skipped "stdout with the wrong-map warning: $ORACLE not found"
			return
		fi
		;;
	esac
	if [ -z "$why" ]; then
		ok "$1 ${5:-(default)}: one warning naming both files and sizes"
	else
		echo "reproduce: readprofile $5 -p p8 -m $2" >"$TMP/why"
		bad "$1 ${5:-(default)}:$why" "$TMP/why" "$TMP/r.err"
	fi
}
for o in "" -a -v -b -s -abv --exact "--exact -a"; do
	warned "map with less text than the profile" narrow 24 6 "$o"
done
for o in --exact "--exact -a"; do
	warned "map with more text than the profile" wide 48 12 "$o"
done
# The classic rule needs the counters up to _etext: an error, no warning,
# once the map's text is read (after the lines before it).
rp "$TMP/r" -p p8 -m wide
LATE=1 fails "map with more text than the profile (classic): the short profile first, then out of range" "$TMP/r" \
    "readprofile: the profile is shorter than the map's text: its 8 counters at step 4 cover 32 bytes, but _etext - _stext in wide is 48 bytes (a cut copy of the profile, or the map of another kernel)
readprofile: profile address out of range. Wrong map file?"
# The real capture cut short, against its full map: the short profile is
# named first; util-linux's one line follows, word for word, and the exit
# status is util-linux's.
head -c 4000000 "$R/profile" >"$S/cut"
rp "$TMP/r" -p "$S/cut" -m "$R/map"
if [ "$RC" = 1 ] && [ -s "$TMP/r.out" ] && [ "$(wc -l <"$TMP/r.err")" = 3 ] &&
    [ "$(tail -n 1 "$TMP/r.err")" = "$INCOMPLETE" ] &&
    head -n 1 "$TMP/r.err" | grep -q "^readprofile: the profile is shorter than the map's text: its 999999 counters at step 4 cover 3999996 bytes, but _etext - _stext in $R/map is 14687538 bytes (a cut copy of the profile, or the map of another kernel)\$"; then
	ok "a cut real profile: named first"
else
	bad "a cut real profile: named first (exit $RC)" "$TMP/r.err"
fi
if [ $HAVE_ORACLE = 1 ]; then
	"$ORACLE" -p "$S/cut" -m "$R/map" >/dev/null 2>"$TMP/o.err"
	orc=$?
	if [ "$orc" = "$RC" ] && [ "$(sed -n 2p "$TMP/r.err")" = "$(cat "$TMP/o.err")" ]; then
		ok "a cut real profile: util-linux's line and exit status follow"
	else
		echo "util-linux: exit $orc, stderr: $(cat "$TMP/o.err")" >"$TMP/why"
		bad "a cut real profile: util-linux's line and exit status follow" "$TMP/why" "$TMP/r.err"
	fi
else
	skipped "a cut profile against util-linux: $ORACLE not found"
fi
cd "$TOP" || exit 2

# The real profile with 4 more counters than the map's text.
cat "$R/profile" >"$R/p+4"
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >>"$R/p+4"
rp "$TMP/r" -p "$R/p+4" -m "$R/map"
if [ "$RC" = 0 ] && [ "$(wc -l <"$TMP/r.err")" = 1 ] &&
    grep -q "^readprofile: warning: $R/map does not match $R/p+4: _etext - _stext is 14687538 bytes, 3671884 counters at step 4, but the profile has 3671888 counters; pass the map of the kernel that wrote the profile with -m\$" "$TMP/r.err"
then
	ok "real profile with 4 extra counters: warning with both files and sizes"
else
	bad "real profile with 4 extra counters: warning (exit $RC)" "$TMP/r.err"
fi
if [ $HAVE_ORACLE = 1 ]; then
	"$ORACLE" -p "$R/p+4" -m "$R/map" >"$TMP/o.out" 2>/dev/null
	if cmp -s "$TMP/o.out" "$TMP/r.out"; then
		ok "real profile with 4 extra counters: stdout == util-linux"
	else
		diff "$TMP/o.out" "$TMP/r.out" >"$TMP/why"
		bad "real profile with 4 extra counters: stdout differs from util-linux" "$TMP/why"
	fi
else
	skipped "real profile with 4 extra counters: stdout == util-linux: $ORACLE not found"
fi

# No warning when the map matches.
for o in "" --exact "-a -b" -v; do
	rp "$TMP/r" $o -p "$R/profile" -m "$R/map"
	if [ "$RC" = 0 ] && [ ! -s "$TMP/r.err" ]; then
		ok "real ${o:-(default)}: no warning"
	else
		bad "real ${o:-(default)}: stderr not empty (exit $RC)" "$TMP/r.err"
	fi
done
rp "$TMP/r" -p "$R/p16" -m "$R/map"
if [ "$RC" = 0 ] && [ ! -s "$TMP/r.err" ]; then
	ok "real at step 16: no warning"
else
	bad "real at step 16: stderr not empty (exit $RC)" "$TMP/r.err"
fi
nwarn=0
seed=1
while [ "$seed" -le 100 ]; do
	"$GEN" "$seed" "$G"
	rp "$TMP/r" -p "$G/profile" -m "$G/map"
	grep -q 'does not match' "$TMP/r.err" && nwarn=$((nwarn + 1))
	seed=$((seed + 1))
done
if [ $nwarn = 0 ]; then
	ok "no warning on 100 random matching maps"
else
	bad "$nwarn of 100 random matching maps warned"
fi

echo "== a late error: the report so far, said incomplete"

# The real map with an address going down just before _etext: the error
# comes after more than 2 MB of -a report, written as it was made: every
# kind of stdout gets that part whole, and stderr the error, then the line
# that says the report above is incomplete.
awk '$3 == "_etext" { print "ffffffffb4000010 T back" } { print }' \
    "$R/map" >"$R/backmap"
BACKLINE=$(grep -n ' back$' "$R/backmap" | cut -d: -f1)
BACKMSG="readprofile: $R/backmap($BACKLINE): address goes backwards"
# backerr FILE: FILE ends with the error line and INCOMPLETE (and has no
# NUL bytes)
backerr() {
	[ "$(tail -n 2 "$1" | head -n 1 | grep -c "^$BACKMSG (0x")" = 1 ] &&
	    [ "$(tail -n 1 "$1")" = "$INCOMPLETE" ] &&
	    [ "$(tr -d '\000' <"$1" | wc -c)" = "$(wc -c <"$1")" ]
}
# the part made before the error: the -a report up to the function before
# "back", as the report of the map cut there ends it
rp "$TMP/ref-a" -a -p "$R/profile" -m "$R/map"
rp "$TMP/part" -a -p "$R/profile" -m "$R/backmap"
if [ "$RC" = 1 ] && [ "$(wc -c <"$TMP/part.out")" -gt 2000000 ] &&
    [ "$(wc -l <"$TMP/part.err")" = 2 ] && backerr "$TMP/part.err" &&
    head -n "$(wc -l <"$TMP/part.out")" "$TMP/ref-a.out" | cmp -s - "$TMP/part.out"
then
	ok "error after 2 MB of report, stdout a file: the report so far, the error, incomplete"
else
	bad "error after 2 MB of report, stdout a file: exit $RC, $(wc -c <"$TMP/part.out") bytes" "$TMP/part.err"
fi
{ $RP_WRAP "$RP" -a -p "$R/profile" -m "$R/backmap" 2>/dev/null
    echo "rc=$?" >"$TMP/rc"; } | cat >"$TMP/r.out"
if [ "$(cat "$TMP/rc")" = rc=1 ] && cmp -s "$TMP/part.out" "$TMP/r.out"; then
	ok "error after 2 MB of report, stdout a pipe: the report so far"
else
	bad "error after 2 MB of report, stdout a pipe: $(cat "$TMP/rc"), $(wc -c <"$TMP/r.out") bytes"
fi
echo keep >"$TMP/f"
$RP_WRAP "$RP" -a -p "$R/profile" -m "$R/backmap" >>"$TMP/f" 2>/dev/null
{ echo keep; cat "$TMP/part.out"; } >"$TMP/exp"
if cmp -s "$TMP/exp" "$TMP/f"; then
	ok "error after 2 MB of report, appending to a file: after what it held"
else
	bad "error after 2 MB of report, appending to a file: $(wc -c <"$TMP/f") bytes"
fi
# The shell's file description is shared: what comes next must follow
# what came before, with no hole and nothing cut.
{ echo before; $RP_WRAP "$RP" -a -p "$R/profile" -m "$R/backmap"; echo after; } \
    >"$TMP/f" 2>/dev/null
{ echo before; cat "$TMP/part.out"; echo after; } >"$TMP/exp"
if cmp -s "$TMP/exp" "$TMP/f"; then
	ok "error after 2 MB of report in { before; readprofile; after; } >FILE: before, the report so far, after"
else
	echo "reproduce: { echo before; readprofile -a -p PROFILE -m MAP-GOING-BACK; echo after; } >f; FILE has $(wc -c <"$TMP/f") bytes:" >"$TMP/why"
	od -c "$TMP/f" | sed -n '1p;$p' >>"$TMP/why"
	bad "error after 2 MB of report in { before; readprofile; after; } >FILE" "$TMP/why"
fi
$RP_WRAP "$RP" -a -p "$R/profile" -m "$R/backmap" >"$TMP/f" 2>&1
if backerr "$TMP/f" && [ "$(($(wc -l <"$TMP/f") - 2))" = "$(wc -l <"$TMP/part.out")" ] &&
    head -n "$(wc -l <"$TMP/part.out")" "$TMP/f" | cmp -s - "$TMP/part.out"; then
	ok "error after 2 MB of report, >FILE 2>&1: the report so far, then the error and incomplete"
else
	echo "reproduce: readprofile -a -p PROFILE -m MAP-GOING-BACK >f 2>&1; f has $(wc -c <"$TMP/f") bytes" >"$TMP/why"
	bad "error after 2 MB of report, >FILE 2>&1" "$TMP/why"
fi
# And when all goes well, every kind of stdout gets the same report.
rp "$TMP/ref" -a -p "$R/profile" -m "$R/map"
$RP_WRAP "$RP" -a -p "$R/profile" -m "$R/map" 2>"$TMP/r.err" | cat >"$TMP/r.out"
RC=0
same "-a report to a pipe == to a file" "$TMP/r" "$TMP/ref.out"
{ echo before; $RP_WRAP "$RP" -a -p "$R/profile" -m "$R/map"; echo after; } \
    >"$TMP/r.out" 2>"$TMP/r.err"
{ echo before; cat "$TMP/ref.out"; echo after; } >"$TMP/exp"
same "-a report between two lines of a shared file" "$TMP/r" "$TMP/exp"
echo keep >"$TMP/r.out"
$RP_WRAP "$RP" -a -p "$R/profile" -m "$R/map" >>"$TMP/r.out" 2>"$TMP/r.err"
RC=$?
{ echo keep; cat "$TMP/ref.out"; } >"$TMP/exp"
same "-a report appended to a file" "$TMP/r" "$TMP/exp"

echo "== -i -v"
# what the last counter holds: unknown for a file that is not the running
# kernel's /proc/profile (tests/kernel checks the live one)
LAST="Last_counter: unknown (not the running kernel's profile: up to 6.10 it also counts ticks outside the text, from 6.11 it is text only; *unknown*)"

# expect NAME PREFIX LINES...: exit 0, stdout exactly LINES, stderr empty
expect() {
	_n=$1 _p=$2
	shift 2
	printf '%s\n' "$@" >"$TMP/exp"
	same "$_n" "$_p" "$TMP/exp"
}
rp "$TMP/r" -i -p "$R/profile"
expect "real -i: one line" "$TMP/r" "Sampling_step: 4"
rp "$TMP/r" -i -p "$R/profile" -m "$R/map"
expect "real -i -m: still one line" "$TMP/r" "Sampling_step: 4"
rp "$TMP/r" -i -v -p "$R/profile"
expect "real -i -v" "$TMP/r" "Sampling_step: 4" "Counters: 3671884" \
    "Text_bytes: 14687536" "Byte_order: $HOST (native)" "$LAST"
rp "$TMP/r" -i -v -p "$R/profile" -m "$R/map"
expect "real -i -v -m kallsyms: matches" "$TMP/r" "Sampling_step: 4" \
    "Counters: 3671884" "Text_bytes: 14687536" "Byte_order: $HOST (native)" \
    "Map: $R/map matches" "$LAST"
rp "$TMP/r" -i -v -p "$R/p16" -m "$R/map"
expect "real at step 16 -i -v -m kallsyms: matches" "$TMP/r" \
    "Sampling_step: 16" "Counters: 917971" "Text_bytes: 14687536" \
    "Byte_order: $HOST (native)" "Map: $R/map matches" "$LAST"
rp "$TMP/r" -i -v -p "$R/p+4" -m "$R/map"
expect "real +4 counters -i -v -m kallsyms: does not match" "$TMP/r" \
    "Sampling_step: 4" "Counters: 3671888" "Text_bytes: 14687552" \
    "Byte_order: $HOST (native)" \
    "Map: $R/map does not match (_etext - _stext is 14687538 bytes, 3671884 counters; profile has 3671888)" "$LAST"
cd "$S" || exit 2
rp "$TMP/r" -i -v -p p8 -m wide
expect "small -i -v -m: does not match" "$TMP/r" "Sampling_step: 4" \
    "Counters: 8" "Text_bytes: 32" "Byte_order: $HOST (native)" \
    "Map: wide does not match (_etext - _stext is 48 bytes, 12 counters; profile has 8)" "$LAST"
rp "$TMP/r" -i -v -p p8 -m narrow
expect "small -i -v -m narrower map: does not match" "$TMP/r" "Sampling_step: 4" \
    "Counters: 8" "Text_bytes: 32" "Byte_order: $HOST (native)" \
    "Map: narrow does not match (_etext - _stext is 24 bytes, 6 counters; profile has 8)" "$LAST"
rp "$TMP/r" -i -v -p p8 -m "$TMP/no-such-map"
fails "-i -v with a missing map: no partial output" "$TMP/r" \
    "readprofile: $TMP/no-such-map: $(strerror ENOENT)"
cd "$TOP" || exit 2
"$PT" swap "$R/profile" "$R/swapped"
rp "$TMP/r" -i -v -p "$R/swapped"
printf '%s\n' "Sampling_step: 4" "Counters: 3671884" "Text_bytes: 14687536" \
    "Byte_order: $OTHER (reversed)" "$LAST" >"$TMP/exp"
if [ "$RC" = 0 ] && cmp -s "$TMP/exp" "$TMP/r.out" &&
    [ "$(cat "$TMP/r.err")" = "readprofile: Assuming reversed byte order. Use -n to force native byte order." ]
then
	ok "real byte-swapped -i -v: $OTHER (reversed)"
else
	diff "$TMP/exp" "$TMP/r.out" >"$TMP/why"
	bad "real byte-swapped -i -v (exit $RC)" "$TMP/why" "$TMP/r.err"
fi
rp "$TMP/r" -i -v -n -p "$R/swapped"
if [ "$RC" = 0 ] && [ ! -s "$TMP/r.err" ] &&
    grep -qx "Byte_order: $HOST (native, -n)" "$TMP/r.out"; then
	ok "real byte-swapped -i -v -n: native, -n"
else
	bad "real byte-swapped -i -v -n (exit $RC)" "$TMP/r.out" "$TMP/r.err"
fi

summary
