#!/bin/sh
# run.sh - differential test against util-linux readprofile.
#
#   RP=/abs/path/readprofile [GEN=/path/to/gen] [DIFF_CASES=N] [DIFF_SEED=S] \
#       sh tests/differential/run.sh
#
# For each seed S, DIFF_SEED <= S < DIFF_SEED + DIFF_CASES, `gen S DIR`
# writes a random profile and map (see gen.c); both readprofiles then run on
# them with every combination of -v -a -b -s -n, and with -i and -i -n, and
# stdout, stderr and the exit status must be the same. GEN defaults to a
# build of tests/differential/gen.c with $CC; RP_WRAP (e.g. valgrind) prefixes RP.
# Reproduce a failure:  gen S DIR && cd DIR && readprofile OPTS -p profile -m map
#
# Three deliberate differences are allowed: with -n on a big-endian profile
# the step is read byte-swapped, so the map's _etext no longer matches and
# this readprofile warns about it (util-linux does not); that warning is
# ignored.  A profile with a trailing partial word (1 to 3 bytes after the
# last whole word) gets, after util-linux's own messages, exactly one
# warning naming them.  And a step that is not a power of two draws a
# warning that the input does not look like a kernel profile, ignored only
# when the step it names is indeed not a power of two.  Ticks that no
# symbol holds draw a warning with their number N of ALL (readprofile(8),
# TOTALS); it is ignored when N plus util-linux's *unknown* and total is
# ALL.  Any other stderr difference fails.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=differential
. "$TOP/tests/lib.sh"
ORACLE=${ORACLE:-/usr/sbin/readprofile}
if [ ! -x "$ORACLE" ] || ! "$ORACLE" -V 2>/dev/null | grep -q util-linux; then
	suite_skipped "util-linux readprofile not found"
fi
: "${RP:?set RP to the readprofile binary to test}"
case $RP in /*) ;; *) RP=$(pwd)/$RP ;; esac
CASES=${DIFF_CASES:-150}
SEED=${DIFF_SEED:-1}
SHOW=${DIFF_SHOW:-3}	# failures shown with a diff, per job
JOBS=${DIFF_JOBS:-2}

. "$TOP/tests/differential/common.sh"
# Both binaries run as plain `readprofile`, so argv[0] is the same.
mkdir "$TMP/o" "$TMP/r"
ln -s "$ORACLE" "$TMP/o/readprofile"
ln -s "$RP" "$TMP/r/readprofile"

OPTS=
for v in "" -v; do for a in "" -a; do for b in "" -b; do
	for s in "" -s; do for n in "" -n; do
		OPTS="$OPTS$v $a $b $s $n,"
	done; done
done; done; done
OPTS="${OPTS}-i,-i -n"
NOPTS=34

# both DIR WHICH OPTIONS [WRAP]: run readprofile WHICH (o = util-linux,
# r = under test) in DIR/case; outputs in DIR/WHICH.{out,err,rc}
both() {
	(
		cd "$1/case" && PATH=$TMP/$2:$PATH &&
			eval "exec ${4:-} readprofile $3 -p profile -m map" \
				>"$1/$2.out" 2>"$1/$2.err" </dev/null
	)
	echo $? > "$1/$2.rc"
}

# worker J (in a subshell of its own): the seeds S with (S - SEED) %
# JOBS == J; prints failures and ends with a line `PASS FAIL`
worker() {
	W=$TMP/w$1
	mkdir "$W" "$W/case"
	seed=$((SEED + $1))
	while [ "$seed" -lt "$END" ]; do
		rm -f "$W/case/profile" "$W/case/map"
		"$GEN" "$seed" "$W/case" || { bad "gen $seed failed"; break; }
		reversed=
		extra=$(($(wc -c < "$W/case/profile") % 4))
		s=s
		[ "$extra" = 1 ] && s=
		IFS=,
		for o in $OPTS; do
			IFS=' '
			o=$(echo $o)	# squeeze blanks
			both "$W" o "$o"
			both "$W" r "$o" "$RP_WRAP"
			[ -z "$o" ] && grep -q 'Assuming reversed' "$W/o.err" && reversed=1
			case "$reversed $o" in 1*-n*)
				sed '/^readprofile: warning: .* does not match /d' "$W/r.err" > "$W/r.tmp"
				mv "$W/r.tmp" "$W/r.err" ;;
			esac
			# and the warning for a step no kernel writes, when the
			# step it names is indeed not a power of two
			awk '/^readprofile: warning: profile does not look like a kernel profile: its sampling step [0-9]+ is not a power of two$/ {
				s = $14; while (s > 1 && s % 2 == 0) s /= 2
				if (s != 1) next
			} { print }' "$W/r.err" > "$W/r.tmp"
			mv "$W/r.tmp" "$W/r.err"
			# and the count of the ticks of no symbol, when it adds up
			awk -v out="$W/o.out" 'BEGIN {
				while ((getline l < out) > 0) {
					n = split(l, f, " ")
					if (f[2] == "*unknown*") u = f[1]
					if (f[2] == "total") t = f[1]
					if (f[2] == "total" && n == 4) t = f[3]
				}
			}
			/^readprofile: [0-9]+ of [0-9]+ ticks lie (past the last symbol|in no symbol) of / {
				if ($2 + u + t == $4) next
			} { print }' "$W/r.err" > "$W/r.tmp"
			mv "$W/r.tmp" "$W/r.err"
			[ "$extra" = 0 ] || printf 'readprofile: profile: ignoring %s trailing byte%s (not a whole 32-bit word)\n' \
			    "$extra" "$s" >> "$W/o.err"
			if cmp -s "$W/o.out" "$W/r.out" && cmp -s "$W/o.err" "$W/r.err" &&
				cmp -s "$W/o.rc" "$W/r.rc"; then
				ok
				continue
			fi
			bad "seed=$seed: readprofile ${o:+$o }-p profile -m map"
			[ "$fail" -le "$SHOW" ] || continue
			for f in out err rc; do
				diff -u "$W/o.$f" "$W/r.$f" | sed -n '3,30p'
			done
		done
		IFS=' '
		seed=$((seed + JOBS))
		# progress, from the first worker only, on the terminal
		[ "$1" != 0 ] || [ $(((seed - SEED) % (10 * JOBS))) != 0 ] ||
			echo "... $((seed - SEED)) of $CASES cases" >&3
	done
	echo "$pass $fail"
}

END=$((SEED + CASES))
exec 3>&1
j=0
while [ "$j" -lt "$JOBS" ]; do
	worker "$j" > "$TMP/log$j" 2>&1 &
	j=$((j + 1))
done
wait
j=0
while [ "$j" -lt "$JOBS" ]; do
	sed '$d' "$TMP/log$j"
	set -- $(tail -n 1 "$TMP/log$j")
	tally "$1" "$2"
	j=$((j + 1))
done
echo "$CASES cases (seeds $SEED..$((END - 1))), $NOPTS option sets each"
[ "$fail" -eq 0 ] ||
	echo "reproduce: cc -o gen tests/differential/gen.c && ./gen SEED DIR && cd DIR && readprofile OPTIONS -p profile -m map"
summary
