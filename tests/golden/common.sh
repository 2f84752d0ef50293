# common.sh - helpers shared by run.sh and regen.sh (sourced, POSIX sh).
#
# A case is a directory holding `args` (one command line, evaluated by the
# shell, paths relative to the directory it runs in) and the expected
# results: expected.out (or expected.out.gz), expected.err, expected.rc.
# The binary is always run as plain `readprofile` (through a symlink in
# $BINDIR put first in PATH), so messages that quote argv[0] do not depend
# on where the binary lives.

# setup_bindir BINARY: create $TMP/bin/readprofile -> BINARY
setup_bindir() {
	case $1 in
	/*) _bin=$1 ;;
	*) _bin=$(pwd)/$1 ;;
	esac
	[ -x "$_bin" ] || { echo "not executable: $_bin" >&2; exit 2; }
	BINDIR=$TMP/bin
	mkdir -p "$BINDIR"
	ln -sf "$_bin" "$BINDIR/readprofile"
}

# run_case CASEDIR WORKDIR OUT ERR [ARGSFILE]: run the case's command line
# (CASEDIR/args, or CASEDIR/ARGSFILE) inside WORKDIR; stdout to OUT, stderr
# to ERR, prints the exit status.
run_case() {
	_args=$(cat "$1/${5:-args}")
	(
		cd "$2" || exit 2
		PATH=$BINDIR:$PATH
		eval "exec $RP_WRAP readprofile $_args" </dev/null >"$3" 2>"$4"
	)
	echo $?
}

# build_profiles DIR: turn every DIR/*.words into its binary profile
# (NAME.words -> NAME, or NAME.profile for NAME.words in fixtures/inputs).
build_profiles() {
	for _w in "$1"/*.words; do
		[ -f "$_w" ] || continue
		sh "$TOP/tests/golden/mkprof.sh" "$_w" "${_w%.words}"
	done
}

# unpack_capture DIR WORKDIR: decompress the capture DIR/profile.gz and
# DIR/kallsyms.gz into WORKDIR/profile and WORKDIR/kallsyms. When DIR/patch-step
# holds a step (a big-endian 64-bit kernel's capture, whose step word reads 0),
# also write WORKDIR/profile.patched: the profile with word 0 set to that step,
# big-endian, which is what util-linux needs to give the kernel's report.
unpack_capture() {
	mkdir -p "$2" &&
		gzip -dc "$1/profile.gz" >"$2/profile" &&
		gzip -dc "$1/kallsyms.gz" >"$2/kallsyms" || return 1
	[ -f "$1/patch-step" ] || return 0
	_s=$(cat "$1/patch-step")
	{
		printf "\\$(printf %03o $((_s >> 24 & 255)))\\$(printf %03o $((_s >> 16 & 255)))"
		printf "\\$(printf %03o $((_s >> 8 & 255)))\\$(printf %03o $((_s & 255)))"
		tail -c +5 "$2/profile"
	} >"$2/profile.patched"
}

# cut_map IN OUT: the map IN with each line cut to util-linux's length,
# 126 bytes (it reads a line into 128 bytes, the newline and NUL
# included; a longer one is its "wrong map line"): the names of 7.x
# kernels' Rust symbols shortened, every address and type kept.
cut_map() {
	LC_ALL=C awk 'length($0) > 126 { $0 = substr($0, 1, 126) } { print }' \
	    "$1" >"$2"
}
