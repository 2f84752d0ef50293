#!/bin/sh
# run.sh - the report on two threads (src/reportpar.c, the two-half
# profile pass in src/profile.c) against the one-thread report.
#
#   RP=/abs/path/readprofile [RP_WRAP=...] [ORACLE=/usr/sbin/readprofile] \
#       [PAR_SEEDS=N] [PAR_CASES='plain ...'] [PAR_QUICK=1] sh tests/par/run.sh
#
# PAR_SEEDS: seeds per case (default 2); PAR_CASES: the cases (default
# all); PAR_QUICK=1: two option sets, not ten (for slow wrappers).
#
# tests/par/gen.py makes maps of a few megabytes (so that the report is
# cut into many parts) with what each case puts in them: lines passed
# over, lines that end the report, errors, long lines.  For every case,
# seed and option set, the report of the map read from the file (two
# threads) must equal, in stdout, stderr and exit status, the report of
# the same map read from a pipe (one thread: a pipe is never cut into
# parts), the pipe's name replaced by the file's; and so must the report
# with the parts read from the file rather than mapped
# (READPROFILE_TEST_READ_MAP, for two option sets).  Where the classic tool
# is well defined on the case, its report (stdout and exit status) must be
# the same too.
# Prints each failure, then `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
: "${RP:?set RP to the readprofile binary to test}"
case $RP in /*) ;; *) RP=$(pwd)/$RP ;; esac
RP_WRAP=${RP_WRAP:-}
ORACLE=${ORACLE:-/usr/sbin/readprofile}
SEEDS=${PAR_SEEDS:-2}
LC_ALL=C
export LC_ALL

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# ours NAME ARGS...: our report of the file map, and of the same map piped
ours() {
	n=$1
	shift
	# shellcheck disable=SC2086 # RP_WRAP: a command and its options
	$RP_WRAP "$RP" "$@" -p "$D/profile" -m "$D/map" > "$TMP/$n.out" \
	    2> "$TMP/$n.err"
	echo $? > "$TMP/$n.rc"
	# shellcheck disable=SC2086
	cat "$D/map" | $RP_WRAP "$RP" "$@" -p "$D/profile" -m /dev/stdin \
	    > "$TMP/$n.pout" 2> "$TMP/$n.perr.raw"
	echo $? > "$TMP/$n.prc"
	sed "s|/dev/stdin|$D/map|g" "$TMP/$n.perr.raw" > "$TMP/$n.perr"
}

# in_parts LABEL ARGS...: the report was made in parts, to the end (with
# two processors)
in_parts() {
	l=$1
	shift
	[ "$NCPU" -ge 2 ] || return 0
	# shellcheck disable=SC2086
	READPROFILE_TEST_PARTS=1 $RP_WRAP "$RP" "$@" -p "$D/profile" \
	    -m "$D/map" 2>&1 >/dev/null | grep '^readprofile: test: ' > "$TMP/parts"
	if grep -q ' parts taken in$' "$TMP/parts" &&
	    ! grep -q ': test: [01] of' "$TMP/parts"; then
		ok
	else
		bad "$l: not made in parts: $(cat "$TMP/parts")"
	fi
}

same() {	# same NAME WHAT: the three results of NAME against WHAT's
	cmp -s "$TMP/$1.out" "$TMP/$1.$2out" &&
	    cmp -s "$TMP/$1.err" "$TMP/$1.$2err" &&
	    cmp -s "$TMP/$1.rc" "$TMP/$1.$2rc"
}

NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
have_oracle=no
[ -x "$ORACLE" ] && have_oracle=yes
[ "$have_oracle" = yes ] || echo "note: $ORACLE missing: no comparison with the classic tool"

CASES=${PAR_CASES:-plain initend abs-end data-end etext-mid zero-start tabs \
noeol aliases bad-line bad-after-etext backwards long-lines too-long beyond nul}
OPTSETS='"" "-a" "-v" "-b" "-s" "-av" "-bv" "-sv" "--exact" "--exact -as"'
[ "${PAR_QUICK:-0}" = 1 ] && OPTSETS='"" "-bv"'
for c in $CASES; do
	s=1
	while [ "$s" -le "$SEEDS" ]; do
		D=$TMP/$c-$s
		mkdir -p "$D"
		kind=$(python3 "$TOP/tests/par/gen.py" "$c" "$s" "$D") ||
		    { bad "$c seed $s: gen.py failed"; s=$((s + 1)); continue; }
		eval "set -- $OPTSETS"
		for opts; do
			n=r
			# shellcheck disable=SC2086 # opts: split on purpose
			ours "$n" $opts
			if same "$n" p; then
				ok
			else
				bad "$c seed $s [$opts]: file and pipe differ" \
				    "(exit $(cat "$TMP/$n.rc")/$(cat "$TMP/$n.prc"))"
				diff "$TMP/$n.err" "$TMP/$n.perr" | head -5
			fi
			# the clean cases are made in parts, start to end
			case $c in plain|initend|abs-end|data-end|etext-mid|zero-start|tabs|noeol|aliases|bad-after-etext)
				# shellcheck disable=SC2086
				in_parts "$c seed $s [$opts]" $opts
				case $opts in ""|-bv)
					READPROFILE_TEST_READ_MAP=1
					export READPROFILE_TEST_READ_MAP
					# shellcheck disable=SC2086
					in_parts "$c seed $s [$opts], read" $opts
					unset READPROFILE_TEST_READ_MAP ;;
				esac ;;
			esac
			# the parts read from the file rather than mapped
			case $opts in ""|-bv)
				READPROFILE_TEST_READ_MAP=1
				export READPROFILE_TEST_READ_MAP
				# shellcheck disable=SC2086
				ours rr $opts
				unset READPROFILE_TEST_READ_MAP
				if cmp -s "$TMP/$n.out" "$TMP/rr.out" &&
				    cmp -s "$TMP/$n.err" "$TMP/rr.err" &&
				    cmp -s "$TMP/$n.rc" "$TMP/rr.rc"; then
					ok
				else
					bad "$c seed $s [$opts]: read and mapped parts differ"
				fi ;;
			esac
			case $c in bad-line|backwards|too-long|beyond)
				if [ "$(cat "$TMP/$n.rc")" = 1 ] &&
				    [ ! -s "$TMP/$n.out" ] && [ -s "$TMP/$n.err" ]; then
					ok
				else
					bad "$c seed $s [$opts]: not an error"
				fi ;;
			esac
			[ "$kind" = oracle ] && [ "$have_oracle" = yes ] || continue
			case $opts in *--exact*) continue ;; esac
			# shellcheck disable=SC2086
			"$ORACLE" $opts -p "$D/profile" -m "$D/map" > "$TMP/$n.oout" \
			    2> /dev/null
			echo $? > "$TMP/$n.orc"
			# (our notices, such as the map not fitting, are extra)
			if cmp -s "$TMP/$n.out" "$TMP/$n.oout" &&
			    cmp -s "$TMP/$n.rc" "$TMP/$n.orc"; then
				ok
			else
				bad "$c seed $s [$opts]: differs from $ORACLE"
			fi
		done
		# other inputs: the profile from a pipe (counters in memory),
		# no byte-order pass (-n: no index), a baseline (one thread)
		ours r
		# shellcheck disable=SC2086
		$RP_WRAP "$RP" -p - -m "$D/map" < "$D/profile" > "$TMP/r.sout" \
		    2>/dev/null
		echo $? > "$TMP/r.src"
		if cmp -s "$TMP/r.sout" "$TMP/r.pout" && cmp -s "$TMP/r.src" "$TMP/r.prc"; then
			ok
		else
			bad "$c seed $s [-p -]: differs from the piped map"
		fi
		for extra in "-n" "--baseline $D/profile"; do
			# shellcheck disable=SC2086
			ours r3 $extra
			if same r3 p; then ok; else bad "$c seed $s [$extra]: file and pipe differ"; fi
		done
		rm -rf "$D"
		s=$((s + 1))
	done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
