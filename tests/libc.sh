# libc.sh - messages that come from the C library (sourced, POSIX sh).
#
# Texts of strerror(3) and getopt(3) differ between C libraries (glibc:
# "invalid option -- 'x'", musl: "unrecognized option: x"), so tests take
# them from the platform at test time: $LIBCTEXT, the compiled
# tests/libctext.c (make check builds it with the compiler under test), or,
# when unset, a copy compiled here with ${CC:-cc}.  Needs $TOP and $TMP.
#
#   strerror NAME         the text of errno NAME, e.g. strerror ENOENT
#   getopt_says ARG...    what getopt writes for `readprofile ARG...`
#   libc_expand FILE      FILE with @strerror:NAME@ and a line @getopt@
#                         (for the case's args, $ARGS) expanded, and
#                         @VERSION@ replaced by $RP_VERSION

libc_setup() {
	if [ -z "${LIBCTEXT:-}" ] || [ ! -x "$LIBCTEXT" ]; then
		LIBCTEXT=$TMP/libctext
		${CC:-cc} -o "$LIBCTEXT" "$TOP/tests/libctext.c" ||
			{ echo "cannot compile tests/libctext.c" >&2; exit 2; }
	fi
	if [ -z "${RP_VERSION:-}" ]; then
		RP_VERSION=$(cat "$TOP/VERSION") ||
			{ echo "cannot read VERSION" >&2; exit 2; }
	fi
}

strerror() {
	"$LIBCTEXT" strerror "$1" || exit 2
}

getopt_says() {
	"$LIBCTEXT" getopt "$@"
}

# libc_expand FILE: print FILE expanded (see above); $ARGS is evaluated
# like a case's args file, so quoting there works the same.  A file without
# a placeholder is printed unchanged, byte for byte.
libc_expand() {
	if ! grep -q -e '@getopt@' -e '@strerror:' -e '@VERSION@' "$1"; then
		cat "$1"
		return
	fi
	while IFS= read -r _l || [ -n "$_l" ]; do
		case $_l in
		@getopt@)
			(eval "getopt_says $ARGS") 2>/dev/null
			continue ;;
		esac
		while :; do
			case $_l in
			*@strerror:*@*)
				_pre=${_l%%@strerror:*}
				_rest=${_l#*@strerror:}
				_name=${_rest%%@*}
				_l=$_pre$(strerror "$_name")${_rest#*@} ;;
			*@VERSION@*)
				_l=${_l%%@VERSION@*}$RP_VERSION${_l#*@VERSION@} ;;
			*) break ;;
			esac
		done
		printf '%s\n' "$_l"
	done < "$1"
}

# libc_generalize FILE: the inverse of libc_expand for a recorded stderr
# (regen.sh): a line that is exactly getopt's message for $ARGS becomes
# @getopt@, and a known strerror text ending a line becomes @strerror:NAME@.
libc_generalize() {
	_g=$(eval "getopt_says $ARGS" 2>/dev/null)
	: > "$1.new" || exit 2
	while IFS= read -r _l || [ -n "$_l" ]; do
		if [ -n "$_g" ] && [ "$_l" = "$_g" ]; then
			_l=@getopt@
		fi
		for _e in EACCES EISDIR ELOOP ENOENT ENOSPC ERANGE ENOTDIR EINVAL EIO; do
			_t=$(strerror "$_e")
			case $_l in
			*": $_t") _l=${_l%"$_t"}@strerror:$_e@ ;;
			esac
		done
		printf '%s\n' "$_l" >> "$1.new"
	done < "$1"
	mv "$1.new" "$1"
}
