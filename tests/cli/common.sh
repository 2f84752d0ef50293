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
# (CASEDIR/args, or ARGSFILE) inside WORKDIR; stdout to OUT, stderr to
# ERR, prints the exit status.
run_case() {
	_args=$(cat "${5:-$1/args}")
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
		sh "$TOP/tests/cli/mkprof.sh" "$_w" "${_w%.words}"
	done
}
