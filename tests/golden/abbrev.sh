# abbrev.sh - sourced by run.sh: every abbreviation of a long option that
# util-linux's readprofile accepts does here what it does there (stdout,
# stderr but for the program name getopt puts first, exit status), and so
# do the prefixes util-linux finds ambiguous (--m, --v, --ve, --ver, --h).
# Needs util-linux's readprofile (UL_READPROFILE, default
# /usr/sbin/readprofile); skipped without it.  -r and -M write
# /proc/profile and are left to the unit test (tests/unit/test_options.c),
# as are --help and --version, whose texts differ on purpose: here only
# their exit status and the first word of their first two lines (the
# program's name, for --version) are compared.  -n on a swapped profile: ours adds a warning that the
# map does not fit (README, differences), left out of the comparison.
# Not under RP_WRAP (valgrind): the parse is the unit test's, and the
# 140 runs would add minutes there.
UL=${UL_READPROFILE:-/usr/sbin/readprofile}
if [ -n "$RP_WRAP" ]; then
	echo "note: abbreviations against util-linux: not run under $RP_WRAP (the cli suite without it runs them)"
elif [ ! -x "$UL" ]; then
	skipped "abbreviations against util-linux: no $UL"
else
	# util-linux's getopt messages are glibc's: compared only when the
	# binary under test has glibc's too (not with musl)
	glibc=0
	getopt_says --h 2>&1 | grep -q "possibilities" && glibc=1
	R=$TOP/fixtures/cases/rich
	V=$TOP/fixtures/cases/reversed
	# ab_run OUT ARGS...: OUT.out, OUT.err (program name cut), OUT.rc
	ab_run() {
		_o=$1
		shift
		"$@" >"$_o.out" 2>"$_o.err.raw"
		echo $? >"$_o.rc"
		sed 's/^[^ :]*readprofile: /readprofile: /' "$_o.err.raw" >"$_o.err"
	}
	# ab_case LABEL HOW ARGS...: ours and util-linux's alike; HOW 1: the
	# first word of the first two lines, 2: without our map-fit warning
	ab_case() {
		_l=$1 _first=$2
		shift 2
		ab_run "$TMP/ab-ul" "$UL" "$@"
		if [ "$_first" = 2 ] && [ "$ORDER" = big ]; then
			# -n on a big-endian host: ours reads the profile
			# rebuilt in the other order (run.sh, make_flipped),
			# as util-linux's native order reads the original
			_n=$#
			while [ "$_n" -gt 0 ]; do
				_a=$1
				shift
				case $_a in
				"$V"/*) _a=$TMP/flip/fixtures/cases/reversed/${_a#"$V"/} ;;
				esac
				set -- "$@" "$_a"
				_n=$((_n - 1))
			done
		fi
		ab_run "$TMP/ab-rp" $RP_WRAP "$RP" "$@"
		if [ "$_first" = 1 ]; then
			for f in out err; do
				for w in ul rp; do
					head -n 2 "$TMP/ab-$w.$f" |
					    sed 's/ .*//' >"$TMP/ab-$w.2"
					mv "$TMP/ab-$w.2" "$TMP/ab-$w.$f"
				done
			done
		elif [ "$_first" = 2 ]; then
			grep -v ' does not match .*pass the map of the kernel' \
			    "$TMP/ab-rp.err" >"$TMP/ab-rp.2"
			mv "$TMP/ab-rp.2" "$TMP/ab-rp.err"
		fi
		[ $glibc = 1 ] || [ "$(cat "$TMP/ab-ul.rc")" = 0 ] ||
			cp "$TMP/ab-ul.err" "$TMP/ab-rp.err"
		if cmp -s "$TMP/ab-ul.out" "$TMP/ab-rp.out" &&
		    cmp -s "$TMP/ab-ul.err" "$TMP/ab-rp.err" &&
		    cmp -s "$TMP/ab-ul.rc" "$TMP/ab-rp.rc"; then
			ok
		else
			bad "abbreviation $_l (readprofile $*)"
			for f in out err rc; do
				diff "$TMP/ab-ul.$f" "$TMP/ab-rp.$f" | head -n 6
			done
		fi
	}
	for name in mapfile profile info verbose all histbin counters no-auto \
	    version help; do
		p=
		rest=$name
		while [ -n "$rest" ]; do
			p=$p${rest%"${rest#?}"}
			rest=${rest#?}
			case $name in
			mapfile)
				ab_case "--$p" 0 -p "$R/profile" "--$p" "$R/map"
				ab_case "--$p=" 0 -p "$R/profile" "--$p=$R/map" ;;
			profile)
				ab_case "--$p" 0 -m "$R/map" "--$p" "$R/profile"
				ab_case "--$p=" 0 -m "$R/map" "--$p=$R/profile" ;;
			no-auto)
				ab_case "--$p" 2 -p "$V/profile" -m "$V/map" "--$p" ;;
			version|help)
				ab_case "--$p" 1 -p "$R/profile" -m "$R/map" "--$p" ;;
			*)
				ab_case "--$p" 0 -p "$R/profile" -m "$R/map" "--$p"
				ab_case "--$p=x" 0 -p "$R/profile" -m "$R/map" "--$p=x" ;;
			esac
		done
	done
	# --count is util-linux's --counters, and 5 an operand it ignores
	ab_case "--count 5" 0 -p "$R/profile" -m "$R/map" --count 5
	rm -f "$TMP"/ab-*
fi
