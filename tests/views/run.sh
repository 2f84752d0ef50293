#!/bin/sh
# run.sh - --top, --json and --interval against an independent reading of
# the classic report (check.py): --top is the classic report sorted with
# percentages computed here; every function, bucket, *unknown* and total
# of --json is the text report's, for every mode and for hostile symbol
# names; the same for the gmon.out captures (seconds, calls, and each
# bucket at a bin start computed from the ranges; --baseline of a copy
# with its bins halved by halve.py); --interval on a profile rewritten
# between reads, reset included.
#
#   RP=/abs/readprofile sh tests/views/run.sh
#
# Needs python3 (skipped without it); jq, when present, parses too.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=views
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
CHECK="$PYTHON $TOP/tests/views/check.py"
# Bounds on the waits below (polls of 50 ms), times TIME_SCALE (slower
# builds: sanitizers, valgrind, emulators).
POLLS=$((400 * TS))

have "$PYTHON" || suite_skipped "needs python3"
WHY=$TMP/why
# rp OUT ARGS...: readprofile ARGS > OUT; fails the test on an exit but 0.
rp() {
	_o=$1
	shift
	if ! $RP_WRAP "$RP" "$@" >"$_o" 2>"$TMP/rp.err"; then
		echo "readprofile $* failed:" >"$TMP/why"
		cat "$TMP/rp.err" >>"$TMP/why"
		return 1
	fi
}
# judge NAME CHECK-ARGS...: run check.py.
judge() {
	_n=$1
	shift
	if $CHECK "$@" >"$TMP/why" 2>&1; then ok; else bad "$_n"; fi
}
jq_parses() {
	command -v jq >/dev/null 2>&1 || return 0
	jq -e . "$1" >/dev/null 2>"$TMP/why"
}

R=$TMP/real
mkdir "$R"
gzip -dc "$TOP/fixtures/real/profile.gz" >"$R/profile"
gzip -dc "$TOP/fixtures/real/kallsyms.gz" >"$R/map"
# An earlier snapshot for --baseline: every counter halved.
"$PYTHON" - "$R/profile" "$R/half" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
w = list(struct.unpack("<%dI" % (len(d) // 4), d))
w[1:] = [x // 2 for x in w[1:]]
open(sys.argv[2], "wb").write(struct.pack("<%dI" % len(w), *w))
PY

echo "== --top against the classic report sorted here"
for mode in "" "--exact" "--baseline $R/half" "-a"; do
	P="-p $R/profile -m $R/map $mode"
	rp "$TMP/c" $P && rp "$TMP/cv" $P -v ||
	    { bad "classic ${mode:-default}"; continue; }
	# N of 1, some, and more than there are functions
	rp "$TMP/t" $P --top 7 && judge "--top 7 $mode" \
	    top 7 "$TMP/c" "$TMP/cv" "$TMP/t" || bad "--top 7 $mode"
	for n in 1 1000000; do
		rp "$TMP/t" $P --top $n -v && judge "--top $n -v $mode" \
		    top $n "$TMP/c" "$TMP/cv" "$TMP/t" v || bad "--top $n -v $mode"
	done
	# -s and -b list every bucket: with -a, millions of lines
	[ "$mode" = -a ] && continue
	rp "$TMP/cs" $P -s && rp "$TMP/csv" $P -s -v ||
	    { bad "classic -s ${mode:-default}"; continue; }
	rp "$TMP/t" $P --top 5 -s && judge "--top 5 -s $mode" \
	    top 5 "$TMP/cs" "$TMP/cv" "$TMP/t" s || bad "--top 5 -s $mode"
	rp "$TMP/t" $P --top 5 -s -v && judge "--top 5 -s -v $mode" \
	    top 5 "$TMP/cs" "$TMP/csv" "$TMP/t" sv || bad "--top 5 -s -v $mode"
	rp "$TMP/cb" $P -b && rp "$TMP/t" $P --top 6 -b &&
	    judge "--top 6 -b $mode" topb 6 "$TMP/cb" "$TMP/t" ||
	    bad "--top 6 -b $mode"
done

echo "== --top: *unknown* ranked with the functions, shares adding up"
U=$TOP/fixtures/cases/init-end
for n in 1 2 3; do
	P="-p $U/profile -m $U/map"
	rp "$TMP/c" $P -s && rp "$TMP/cv" $P -v && rp "$TMP/cb" $P -b ||
	    { bad "classic init-end"; continue; }
	rp "$TMP/t" $P --top $n -s && judge "init-end --top $n -s" \
	    top $n "$TMP/c" "$TMP/cv" "$TMP/t" s || bad "init-end --top $n"
	rp "$TMP/t" $P --top $n -v && judge "init-end --top $n -v" \
	    top $n "$TMP/c" "$TMP/cv" "$TMP/t" v || bad "init-end --top $n -v"
	rp "$TMP/t" $P --top $n -b && judge "init-end --top $n -b" \
	    topb $n "$TMP/cb" "$TMP/t" || bad "init-end --top $n -b"
done
# the shares of every row of --top N for N beyond the functions: 100%
# (each rounded to 0.01; the column before the name)
rp "$TMP/t" -p "$U/profile" -m "$U/map" --top 99 &&
    awk 'NR > 1 && $(NF - 1) ~ /%$/ { s += $(NF - 1); n++ }
	END { exit !(n == 4 && s > 99.95 && s < 100.05) }' "$TMP/t" &&
    ok || bad "init-end --top 99: shares add up"

echo "== --json against the text report"
for mode in "" "--exact" "--baseline $R/half" "-a"; do
	P="-p $R/profile -m $R/map $mode"
	rp "$TMP/cv" $P -v || { bad "classic ${mode:-default}"; continue; }
	rp "$TMP/j" $P -J && jq_parses "$TMP/j" &&
	    judge "--json $mode" json "$TMP/j" "$TMP/cv" || bad "--json $mode"
	[ "$mode" = -a ] && continue
	rp "$TMP/csv" $P -s -v && rp "$TMP/cb.b" $P -b ||
	    { bad "classic -s, -b ${mode:-default}"; continue; }
	rp "$TMP/j" $P --json -s && jq_parses "$TMP/j" &&
	    judge "--json -s $mode" json "$TMP/j" "$TMP/cv" "$TMP/csv" ||
	    bad "--json -s $mode"
	rp "$TMP/j" $P --json -b && jq_parses "$TMP/j" &&
	    judge "--json -b $mode" json "$TMP/j" "$TMP/cv" "$TMP/cb.b" ||
	    bad "--json -b $mode"
	rp "$TMP/j" $P --json --top 9 -s && jq_parses "$TMP/j" &&
	    judge "--json --top 9 -s $mode" json "$TMP/j" "$TMP/cv" \
	    "$TMP/csv" top 9 || bad "--json --top 9 -s $mode"
done

echo "== gmon.out: --top and --json"
# Each recorded capture, against its nm map and against the ELF program
# itself; --baseline: the same file with every bin halved (halve.py).
GM=$TOP/fixtures/gmon
for a in "" -m32 -s390x; do
	g=$GM/hot$a.gmon
	"$PYTHON" "$TOP/tests/views/halve.py" "$g" "$TMP/half.gmon" \
	    >"$TMP/why" 2>&1 || { bad "halve hot$a.gmon"; continue; }
	rp "$TMP/iv" -i -v -p "$g" || bad "hot$a: -i -v"
	for map in "$GM/hot$a.map" "$GM/hot$a"; do
	for mode in "" "--exact" "--baseline $TMP/half.gmon" "-a"; do
		# every mode on x86-64's nm map; else two (the ELF map reads
		# as its nm output: tests/gmon checks it)
		[ "$map" = "$GM/hot.map" ] || case $mode in --exact|-a) continue
		    ;; esac
		[ -z "$a" ] || [ "$map" = "$GM/hot$a.map" ] || continue
		P="-p $g -m $map $mode"
		L="hot$a -m ${map##*/}${mode:+ ${mode%% *}}"
		rp "$TMP/c" $P && rp "$TMP/cv" $P -v && rp "$TMP/cs" $P -s &&
		    rp "$TMP/csv" $P -s -v && rp "$TMP/cb.b" $P -b ||
		    { bad "$L: classic"; continue; }
		rp "$TMP/t" $P --top 2 && judge "$L: --top 2" \
		    top 2 "$TMP/c" "$TMP/cv" "$TMP/t" || bad "$L: --top 2"
		rp "$TMP/t" $P --top 1000 -v && judge "$L: --top 1000 -v" \
		    top 1000 "$TMP/c" "$TMP/cv" "$TMP/t" v || bad "$L: --top -v"
		rp "$TMP/t" $P --top 2 -s && judge "$L: --top 2 -s" \
		    top 2 "$TMP/cs" "$TMP/cv" "$TMP/t" s || bad "$L: --top -s"
		rp "$TMP/t" $P --top 2 -s -v && judge "$L: --top 2 -s -v" \
		    top 2 "$TMP/cs" "$TMP/csv" "$TMP/t" sv || bad "$L: --top -s -v"
		rp "$TMP/t" $P --top 2 -b && judge "$L: --top 2 -b" \
		    topb 2 "$TMP/cb.b" "$TMP/t" || bad "$L: --top -b"
		# -b -v lists every symbol's total: its total line counts the
		# calls of all, as -v -a's does; --top or not (its total
		# row's calls before the name)
		rp "$TMP/cbv" $P -b -v && rp "$TMP/cva" $P -v -a &&
		    rp "$TMP/t" $P --top 9 -b -v &&
		    [ "$(tail -n 1 "$TMP/t" | awk '{ print $(NF - 1) }')" = \
		    "$(tail -n 1 "$TMP/cbv" | awk '{ print $NF }')" ] &&
		    [ "$(tail -n 1 "$TMP/cbv")" = "$(tail -n 1 "$TMP/cva")" ] &&
		    ok || bad "$L: -b -v total line, with --top and without"
		rp "$TMP/j" $P -J && jq_parses "$TMP/j" &&
		    judge "$L: --json" json "$TMP/j" "$TMP/cv" &&
		    judge "$L: --json inputs" gmoninfo "$TMP/j" "$TMP/iv" ||
		    bad "$L: --json"
		rp "$TMP/j" $P -J -s && jq_parses "$TMP/j" &&
		    judge "$L: --json -s" json "$TMP/j" "$TMP/cv" "$TMP/csv" ||
		    bad "$L: --json -s"
		rp "$TMP/j" $P -J -b && jq_parses "$TMP/j" &&
		    judge "$L: --json -b" json "$TMP/j" "$TMP/cv" "$TMP/cb.b" ||
		    bad "$L: --json -b"
		rp "$TMP/j" $P -J --top 2 -s && jq_parses "$TMP/j" &&
		    judge "$L: --json --top 2 -s" json "$TMP/j" "$TMP/cv" \
		    "$TMP/csv" top 2 || bad "$L: --json --top 2 -s"
	done
	done
done

echo "== --json on every golden case"
# Each case that prints a report: the JSON parses, its total and *unknown*
# are those of the -v report, and its total that of the case's recorded
# report when it has a total line (check.py golden: one check a case).
. "$TOP/tests/golden/common.sh"
G=$TMP/golden
mkdir "$G"
# golden CASE-DIR RUN-DIR LABEL
golden() {
	[ -f "$1/args" ] && [ "$(cat "$1/expected.rc" 2>/dev/null)" = 0 ] ||
	    return 0
	args=$(cat "$1/args")
	case " $args " in
	*" -i"*|*" -V"*|*" -h"*|*" -r"*|*"--help"*|*"--version"*|*"--info"*|\
	*"--reset"*|*" -M"*|*"--multiplier"*|*" <"*|*" -p -"*|*"stdin"*)
		return 0 ;;
	esac
	if (cd "$2" && eval "\"\$RP\" $args -J" >"$G/$3.json" 2>/dev/null &&
	    eval "\"\$RP\" $args -v" >"$G/$3.v" 2>/dev/null); then
		# judged with the others below, against the recorded report
		if [ -f "$1/expected.out.gz" ]; then
			gzip -dc "$1/expected.out.gz" >"$G/$3.exp"
		elif [ -f "$1/expected.out" ]; then
			cp "$1/expected.out" "$G/$3.exp"
		fi
	else
		echo "readprofile $args -J failed" >"$TMP/why"
		bad "golden $3 -J"
		rm -f "$G/$3.json" "$G/$3.v"
	fi
}
for d in "$TOP"/fixtures/cases/*/ "$TOP"/fixtures/cases-ours/*/; do
	d=${d%/}
	golden "$d" "$d" "${d##*/}"
done
ln -s "$R/map" "$R/kallsyms"
for d in "$TOP"/fixtures/real/golden/*/; do
	d=${d%/}
	golden "$d" "$R" "real-${d##*/}"
done
for a in "$TOP"/fixtures/arch/*/; do
	[ -d "$a/golden" ] || continue
	a=${a%/}
	unpack_capture "$a" "$TMP/arch" || { bad "unpack ${a##*/}"; continue; }
	for d in "$a"/golden/*/; do
		d=${d%/}
		golden "$d" "$TMP/arch" "${a##*/}-${d##*/}"
	done
	# --top on another architecture's capture (s390x: a zero step word)
	P="-p $TMP/arch/profile -m $TMP/arch/kallsyms"
	rp "$TMP/c" $P && rp "$TMP/cv" $P -v && rp "$TMP/t" $P --top 10 &&
	    judge "--top 10, ${a##*/} capture" top 10 "$TMP/c" "$TMP/cv" \
	    "$TMP/t" || bad "--top 10, ${a##*/} capture"
	rm -rf "$TMP/arch"
done
if command -v jq >/dev/null 2>&1 && ! jq -e . "$G"/*.json >/dev/null 2>"$TMP/why"
then
	bad "golden cases: jq cannot parse them all"
fi
$CHECK golden "$G" >"$TMP/golden.out" 2>&1
_grc=$?
while read -r _v _n; do
	case $_v in
	ok) ok ;;
	*) echo "$_v $_n" >"$TMP/why"; bad "golden ${_n%%:*}: --json" ;;
	esac
done <"$TMP/golden.out"
if [ $_grc != 0 ] && ! grep -qv '^ok ' "$TMP/golden.out"; then
	: >"$TMP/why"
	bad "golden cases: check.py exit status $_grc"
fi

echo "== hostile symbol names"
H=$TMP/hostile
mkdir "$H"
"$PYTHON" - "$H" <<'PY'
import struct, sys
d = sys.argv[1]
names = [b"ctl\x01\x02\x1f\x7fname", b"tab\tin\tname", b"cr\rvt\x0bff\x0c",
         b"bad\xff\xfeutf8", b"cut\xc3", b"overlong\xc0\xaf", b"surr\xed\xa0\x80",
         b"big\xf4\x90\x80\x80", b"ok\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
         b'quote"and\\backslash\\x41', b"\\xff", b"L" * 10000,
         b"\xff" * 10000, (b"\x01\xe9" * 5000)]
step, words = 4, []
lines = [b"ffffffff81000000 T _stext"]
addr = 0xffffffff81000000
for i, n in enumerate(names):
    lines.append(b"%016x T %s" % (addr + 16 * i + 8, n))
n_words = 16 * (len(names) + 1) // 4 + 1
lines.append(b"%016x T _etext" % (addr + 16 * (len(names) + 1)))
w = [step] + [(i * 7) % 13 for i in range(1, n_words)]
open(d + "/map", "wb").write(b"\n".join(lines) + b"\n")
open(d + "/profile", "wb").write(struct.pack("<%dI" % len(w), *w))
PY
P="-p $H/profile -m $H/map"
rp "$TMP/cv" $P -v && rp "$TMP/csv" $P -v -s && rp "$TMP/j" $P -J -s &&
    jq_parses "$TMP/j" && judge "hostile names: --json -s == text" json \
    "$TMP/j" "$TMP/cv" "$TMP/csv" || bad "hostile names: --json -s"
judge "hostile names decode to the map's bytes" names "$TMP/j" "$H/map"
rp "$TMP/j" $P -J -a --top 3 && jq_parses "$TMP/j" &&
    judge "hostile names: --json -a --top 3" names "$TMP/j" "$H/map" ||
    bad "hostile names: --json -a --top 3"
rp "$TMP/c" $P && rp "$TMP/t" $P --top 4 && judge "hostile names: --top 4" \
    top 4 "$TMP/c" "$TMP/cv" "$TMP/t" || bad "hostile names: --top 4"
# -b -a: a function with a bin to list, and only those
rp "$TMP/cb.b" $P -b -a && rp "$TMP/j" $P -J -b -a &&
    judge "hostile names: --json -b -a" json "$TMP/j" "$TMP/cv" "$TMP/cb.b" ||
    bad "hostile names: --json -b -a"

echo "== option errors"
# err NAME MESSAGE ARGS...: exit 1, empty stdout, stderr the message.
err() {
	_n=$1 _m=$2
	shift 2
	$RP_WRAP "$RP" "$@" >"$TMP/e.out" 2>"$TMP/e.err"
	_rc=$?
	printf 'readprofile: %s\n' "$_m" >"$TMP/e.want"
	if [ $_rc = 1 ] && [ ! -s "$TMP/e.out" ] && cmp -s "$TMP/e.want" "$TMP/e.err"
	then ok
	else
		{ echo "exit $_rc; stderr:"; cat "$TMP/e.err"; } >"$TMP/why"
		bad "$_n"
	fi
}
P="-p $R/profile -m $R/map"
err "--top 0" "--top: not a whole number from 1 to 9223372036854775807: '0'" $P --top 0
err "--top x" "--top: not a whole number from 1 to 9223372036854775807: 'x'" $P --top x
err "--top -1" "--top: not a whole number from 1 to 9223372036854775807: '-1'" $P --top -1
err "--interval 0" "--interval: not a number of seconds from 0.001 to 86400: '0'" $P --interval 0
err "--interval nan" "--interval: not a number of seconds from 0.001 to 86400: 'nan'" $P --interval nan
err "--iterations alone" "--iterations needs --interval" $P --iterations 3
err "--iterations 0" "--iterations: not a whole number from 1 to 18446744073709551615: '0'" $P --interval 1 --iterations 0
err "--interval --baseline" "--interval and --baseline cannot be used together: each interval is the baseline of the next" $P --interval 1 --baseline "$R/half"
err "--interval -p -" "--interval reads the profile again: it cannot be standard input" -p - -m "$R/map" --interval 1

echo "== --interval on a profile rewritten between reads"
W=$TMP/watch
mkdir "$W"
# snap N: the profile's Nth version; versions 0-1-2 go up, 3 is a reset,
# 4 goes up again.
"$PYTHON" - "$W" <<'PY'
import struct, sys
d = sys.argv[1]
lines = [b"0000000000001000 T _stext"]
for i in range(40):
    lines.append(b"%016x %s f%d" % (0x1000 + 8 + 16 * i, b"Tt"[i % 2:i % 2 + 1], i))
lines.append(b"%016x T _etext" % (0x1000 + 16 * 41))
open(d + "/map", "wb").write(b"\n".join(lines) + b"\n")
n = 16 * 41 // 4 + 1
v = [[4] + [(k * 5) % 9 for k in range(1, n)]]
v.append([4] + [x + (k % 4) for k, x in enumerate(v[0][1:], 1)])
v.append([4] + [x + (7 if k % 11 == 0 else 0) for k, x in enumerate(v[1][1:], 1)])
v.append([4] + [k % 3 for k in range(1, n)])
v.append([4] + [x + (k % 5) * 1000 for k, x in enumerate(v[3][1:], 1)])
for i, w in enumerate(v):
    open("%s/v%d" % (d, i), "wb").write(struct.pack("<%dI" % n, *w))
PY
# The expected report of each interval.  The first read (v0) is the
# starting point and report 1 sees it unchanged; version k is moved in
# once report k is out, so report k+1 is v(k) - v(k-1), the --baseline
# report; after the reset (v3), the new values themselves.
P="-m $W/map"
rp "$W/e1" $P -p "$W/v0" --baseline "$W/v0" &&
rp "$W/e2" $P -p "$W/v1" --baseline "$W/v0" &&
rp "$W/e3" $P -p "$W/v2" --baseline "$W/v1" &&
rp "$W/e4.reset" $P -p "$W/v3" &&
rp "$W/e5" $P -p "$W/v4" --baseline "$W/v3" &&
rp "$W/j1" $P -p "$W/v0" --baseline "$W/v0" -v &&
rp "$W/j2" $P -p "$W/v1" --baseline "$W/v0" -v &&
rp "$W/j3" $P -p "$W/v2" --baseline "$W/v1" -v &&
rp "$W/j4.reset" $P -p "$W/v3" -v &&
rp "$W/j5" $P -p "$W/v4" --baseline "$W/v3" -v || bad "expected reports"

# watch OUT ARGS...: readprofile --interval 1 --iterations 5 ARGS on $W/cur,
# moving version k in place once report k is out.  Sets RC.
watch() {
	_out=$1
	shift
	cp "$W/v0" "$W/cur"
	: >"$_out"	# emptied before the loop below looks at it
	$RP_WRAP "$RP" -p "$W/cur" $P --interval 1 --iterations 5 "$@" >"$_out" \
	    2>"$W/err" &
	_pid=$!
	for k in 1 2 3 4; do
		_t=0
		while [ "$(grep -c -e '^--- ' -e '"interval"' "$_out")" -lt $k ]; do
			sleep 0.05
			_t=$((_t + 1))
			[ $_t -gt $POLLS ] && break
		done
		cp "$W/v$k" "$W/next" && mv "$W/next" "$W/cur"
	done
	wait $_pid
	RC=$?
}
watch "$W/out"
if [ $RC = 0 ] && grep -q "counters went down" "$W/err"; then
	judge "--interval: each interval's ticks, and a reset" watch \
	    "$W/out" 5 "$W/e1" "$W/e2" "$W/e3" "$W/e4.reset" "$W/e5"
else
	cat "$W/err" >"$TMP/why"
	bad "--interval: exit $RC"
fi
watch "$W/out" -J
[ $RC = 0 ] && judge "--interval -J: one document per interval" watch \
    "$W/out" 5 "$W/j1" "$W/j2" "$W/j3" "$W/j4.reset" "$W/j5" json ||
    bad "--interval -J: exit $RC"

# The live profile under the test root, --exact (the kernel release read
# for each report): 1,000 reports, each with its total, and no path of
# the run's start lost on the way.
mkdir -p "$TMP/root/proc/sys/kernel"
cp "$W/v0" "$TMP/root/proc/profile"
echo 6.12.0 >"$TMP/root/proc/sys/kernel/osrelease"
READPROFILE_TEST_ROOT=$TMP/root $RP_WRAP "$RP" -m "$W/map" --exact --top 1 \
    --interval 0.001 --iterations 1000 >"$W/out" 2>"$W/err"
RC=$?
if [ $RC = 0 ] && [ "$(grep -c ' total$' "$W/out")" = 1000 ] &&
    ! grep -q 'No such file' "$W/err"; then
	ok
else
	bad "--interval --exact on the test root's live profile: exit $RC, $(grep -c ' total$' "$W/out") reports, $(head -c 200 "$W/err")"
fi

# A profile rewritten in place, caught empty at a read: the read waits
# for it to be whole again (up to a second, in sleeps of 20 ms).  Once the
# first report is out, the file is emptied; readprofile sleeps out the
# interval (a voluntary context switch, two with the stop below), then
# finds the file short and waits: five switches in all say it is waiting
# (at its third sleep at least, of fifty).  It is stopped while the
# file is emptied and while it is written back, so however late this
# script is, the read sees the file empty, then whole.
vcsw() {
	awk '/^voluntary_ctxt_switches:/ { print $2 }' "/proc/$1/status" \
	    2>/dev/null
}
cp "$W/v0" "$W/cur"
: >"$W/out"
$RP_WRAP "$RP" -p "$W/cur" $P --interval 1 --iterations 2 >"$W/out" 2>"$W/err" &
_pid=$!
_t=0
while [ "$(grep -c '^--- ' "$W/out")" -lt 1 ] && [ $_t -lt $POLLS ]; do
	sleep 0.05
	_t=$((_t + 1))
done
kill -STOP $_pid 2>/dev/null	# however late this script, before the next read
_c0=$(vcsw $_pid)
: >"$W/cur"
kill -CONT $_pid 2>/dev/null
_t=0 _c=$_c0
while [ -n "$_c" ] && [ "$_c" -lt $((_c0 + 5)) ] && [ $_t -lt $((POLLS * 5)) ]; do
	sleep 0.01
	_t=$((_t + 1))
	_c=$(vcsw $_pid)
done
kill -STOP $_pid 2>/dev/null
cat "$W/v1" >"$W/cur"
kill -CONT $_pid 2>/dev/null
# a readprofile left stopped or hung must not hang the suite: continued
# once more after a second, killed after a minute (times TIME_SCALE),
# unless it has ended ($W/ended)
rm -f "$W/ended"
(
	_g=0
	while [ ! -f "$W/ended" ] && [ $_g -lt $((600 * TS)) ]; do
		[ $_g = 10 ] && kill -CONT $_pid
		sleep 0.1
		_g=$((_g + 1))
	done
	[ -f "$W/ended" ] || kill -KILL $_pid
) >/dev/null 2>&1 &
_guard=$!
wait $_pid
RC=$?
: >"$W/ended"
wait $_guard
_seen=0
[ -n "$_c0" ] && [ -n "$_c" ] && [ "$_c" -ge $((_c0 + 5)) ] && _seen=1
if [ $_seen = 0 ]; then
	echo "context switches ${_c0:-?}, then ${_c:-?}" >"$TMP/why"
	bad "--interval: readprofile not seen waiting for the profile"
elif [ $RC = 0 ]; then
	judge "--interval: a profile caught half-written is waited for" watch \
	    "$W/out" 2 "$W/e1" "$W/e2"
else
	cat "$W/err" >"$TMP/why"
	bad "--interval: a profile caught half-written: exit $RC"
fi

# SIGTERM and SIGINT: the report under way is finished, exit 0.
for sig in TERM INT; do
	cp "$W/v0" "$W/cur"
	: >"$W/out"
	$RP_WRAP "$RP" -p "$W/cur" $P --interval 0.2 >"$W/out" 2>"$W/err" &
	_pid=$!
	_t=0
	while [ "$(grep -c '^--- ' "$W/out")" -lt 2 ] && [ $_t -lt $POLLS ]; do
		sleep 0.05
		_t=$((_t + 1))
	done
	kill -$sig $_pid
	# a readprofile that ignored the signal must not hang the suite
	( sleep $((30 * TS)); kill -KILL $_pid ) >/dev/null 2>&1 &
	_guard=$!
	wait $_pid
	RC=$?
	kill $_guard 2>/dev/null
	if [ $RC = 0 ] && [ "$(tail -n 1 "$W/out" | awk '{ print $2 }')" = total ]
	then ok
	else
		{ echo "exit $RC, last line:"; tail -n 1 "$W/out"; } >"$TMP/why"
		bad "--interval stopped by SIG$sig"
	fi
done

# On a terminal each report is drawn over the last (home, clear first);
# in a pipe (above) the reports follow one another, no escape in them.
printf '\033' >"$TMP/esc"
if grep -qF "$(cat "$TMP/esc")" "$W/out"; then
	bad "--interval in a pipe: an escape sequence"
else
	ok
fi
cp "$W/v0" "$W/cur"
"$PYTHON" - "$RP" "$W/cur" "$TMP/tty" $P >"$TMP/why" 2>&1 <<'PY'
import os, pty, sys
try:
    pid, fd = pty.fork()
except OSError as e:        # no pseudo-terminals here (a build chroot)
    print("SKIP: --interval on a terminal: no pty: %s" % e)
    sys.exit(77)
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "-p", sys.argv[2]] + sys.argv[4:] +
             ["--interval", "0.05", "--iterations", "3", "--top", "2"])
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
screens = out.split(b"\033[H\033[2J")
if screens[0] != b"" or len(screens) != 4:
    sys.exit("want 3 screens each after home+clear: %r" % out[:300])
for s in screens[1:]:
    if not s.startswith(b"--- ") or b" total\r\n" not in s:
        sys.exit("a screen: %r" % s[:200])
PY
case $? in
0) ok ;;
77) cat "$TMP/why" ;;
*) bad "--interval on a terminal: each screen in place" ;;
esac

echo "== one total: --top, --folded and --json against the counters' sum"
# The sum of the profile's counters (words 1..n, od over the file, not
# readprofile) is what every view states: --top's total row, the sum of
# --folded's counts, --json's total + unknown + no_symbol.  The same on
# the map cut to its first 40%: the ticks past its last symbol are
# counted as no symbol, warned about on stderr, and the classic report's
# stdout is util-linux's when that is installed.
SUM=$(od -An -tu4 -v "$R/profile" |
    awk '{ for (i = 1; i <= NF; i++) if (n++) s += $i } END { printf "%.0f", s }')
N=$(wc -l <"$R/map")
head -n $((N * 4 / 10)) "$R/map" >"$R/cut"
for M in map cut; do
	P="-p $R/profile -m $R/$M"
	rp "$TMP/t.top" $P --top 5 &&
	    t=$(tail -n 1 "$TMP/t.top" | awk '{ print $1 }') &&
	    [ "$t" = "$SUM" ] ||
	    { echo "--top total $t, counters $SUM" >>"$TMP/why"; false; } &&
	    ok || bad "one total: --top, $M"
	rp "$TMP/t.folded" $P --folded &&
	    f=$(awk '{ s += $NF } END { printf "%.0f", s }' "$TMP/t.folded") &&
	    [ "$f" = "$SUM" ] ||
	    { echo "--folded sum $f, counters $SUM" >>"$TMP/why"; false; } &&
	    ok || bad "one total: --folded, $M"
	rp "$TMP/t.json" $P --json &&
	    "$PYTHON" - "$TMP/t.json" "$SUM" >"$TMP/why" 2>&1 <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
s = d["in_functions"] + d["unknown"] + d["no_symbol"]
if s != int(sys.argv[2]) or d["total"] != s:
    sys.exit("--json in_functions+unknown+no_symbol %d, total %d, counters %s"
             % (s, d["total"], sys.argv[2]))
PY
	    ok || bad "one total: --json, $M"
done
# the cut map: the warning, after the report, with its count
"$RP" -p "$R/profile" -m "$R/cut" >"$TMP/cut.out" 2>"$TMP/cut.err"
rc=$?
t=$(tail -n 1 "$TMP/cut.out" | awk '{ print $1 }')
u=$(grep ' \*unknown\*$' "$TMP/cut.out" | awk '{ print $1 }')
w=$(sed -n 's/^readprofile: \([0-9]*\) of \([0-9]*\) ticks lie past the last symbol of .*truncated.*/\1 \2/p' \
    "$TMP/cut.err")
if [ $rc = 0 ] && [ "$w" = "$((SUM - t - u)) $SUM" ] && [ "$((SUM - t - u))" -gt 0 ] &&
    [ "$(wc -l <"$TMP/cut.err")" = 1 ]; then ok; else
	{ echo "rc $rc, total $t, unknown $u, counters $SUM; stderr:"
	    cat "$TMP/cut.err"; } >"$TMP/why"
	bad "a truncated map: the ticks past its last symbol are warned about"
fi
"$RP" -p "$R/profile" -m "$R/map" >/dev/null 2>"$TMP/map.err"
if [ -s "$TMP/map.err" ]; then
	cp "$TMP/map.err" "$TMP/why"
	bad "the whole map: no warning"
else ok; fi
ORACLE=${ORACLE:-/usr/sbin/readprofile}
if [ -x "$ORACLE" ] && "$ORACLE" -V 2>/dev/null | grep -q util-linux; then
	"$ORACLE" -p "$R/profile" -m "$R/cut" >"$TMP/cut.want" 2>/dev/null
	if cmp -s "$TMP/cut.want" "$TMP/cut.out"; then ok; else
		diff "$TMP/cut.want" "$TMP/cut.out" >"$TMP/why"
		bad "a truncated map: the classic stdout is util-linux's"
	fi
elif [ "${READPROFILE_CHECK_NO_SKIP:-}" = 1 ]; then
	echo "util-linux readprofile not found" >"$TMP/why"
	bad "a truncated map against util-linux"
else
	echo "SKIP: a truncated map against util-linux: not installed"
fi

echo "views: $pass passed, $fail failed"
[ $fail = 0 ]
