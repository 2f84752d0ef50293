#!/bin/sh
# install.sh - make install and make uninstall.
#
#   sh tests/install.sh
#
# (a) a hardened build (stack protector, _FORTIFY_SOURCE, PIE, full RELRO),
#     then `make install` with no flags installs that very binary (same
#     checksum) and compiles nothing, nor touches the build's flags;
# (b) PROGRAM=readprofile-ng installs binary, both man pages (NAME,
#     SYNOPSIS, version, the formats page as readprofile-ng-formats.5) and
#     bash completion under that name; uninstall removes them;
# (c) without a built binary, make install stops and says to run make;
# (d) uninstall removes the directories install created, once empty, and
#     only those: others' files and directories that were there are kept.
# Builds in a scratch directory (B=, BIN=); prints `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=check-install
. "$TOP/tests/lib.sh"
MAKE=${MAKE:-make}
VERSION=${RP_VERSION:-$(cat "$TOP/VERSION")}
T=$TMP
[ -z "${KEEP:-}" ] || trap - EXIT	# KEEP=1: the directory is kept
verdict() {
	if [ -z "$bad" ]; then
		ok
	else
		bad "$1:$bad"
	fi
}
# mk ARGS...: make in the source tree with the scratch build directory
mk() {
	env -u CFLAGS -u LDFLAGS -u CPPFLAGS -u MAKEFLAGS -u MFLAGS \
	    $MAKE -C "$TOP" --no-print-directory B="$T/obj" BIN="$T/obj/readprofile" "$@"
}
sum() { cksum < "$1"; }

# (c) first, while nothing is built.
bad=
mk install DESTDIR="$T/none" > "$T/log" 2>&1 && bad="$bad exit 0;"
grep -q "run 'make' first" "$T/log" || bad="$bad no 'run make first' message;"
[ -e "$T/obj/readprofile" ] && bad="$bad it compiled;"
[ -n "$(find "$T/none" -type f 2>/dev/null)" ] && bad="$bad files installed;"
verdict "(c) install without a build says to run make"

# (a) hardened build, plain install.
HCFLAGS='-O2 -g -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE'
HLDFLAGS='-pie -Wl,-z,relro,-z,now'
if ! mk CFLAGS="$HCFLAGS" LDFLAGS="$HLDFLAGS" > "$T/build.log" 2>&1; then
	cat "$T/build.log"
	echo "install: hardened build failed" >&2
	exit 1
fi
built=$(sum "$T/obj/readprofile")
flags=$(sum "$T/obj/flags")
bad=
mk install DESTDIR="$T/d" > "$T/log" 2>&1 || { bad="$bad make install failed;"; cat "$T/log"; }
grep -q -e ' -c ' -e ' -o ' "$T/log" && bad="$bad it compiled;"
[ "$(sum "$T/obj/readprofile")" = "$built" ] || bad="$bad build changed;"
[ "$(sum "$T/obj/flags")" = "$flags" ] || bad="$bad build flags rewritten;"
f=$T/d/usr/local/sbin/readprofile
[ -f "$f" ] && [ "$(sum "$f")" = "$built" ] || bad="$bad installed binary differs;"
[ "$("$f" -V)" = "readprofile $VERSION" ] || bad="$bad -V says '$("$f" -V)';"
if command -v readelf >/dev/null 2>&1; then
	readelf -d "$f" 2>/dev/null | grep -q 'BIND_NOW' || bad="$bad no BIND_NOW;"
	readelf -h "$f" 2>/dev/null | grep -q 'DYN' || bad="$bad not PIE;"
fi
verdict "(a) plain make install after a hardened build keeps the binary"

# A later `make` with the same flags has nothing to do.
bad=
mk CFLAGS="$HCFLAGS" LDFLAGS="$HLDFLAGS" > "$T/log" 2>&1 || bad="$bad make failed;"
grep -q -e ' -c ' "$T/log" && bad="$bad rebuilt after install;"
verdict "(a) make after install rebuilds nothing"

# Default name: four files, uninstall leaves nothing.
bad=
for p in usr/local/sbin/readprofile usr/local/share/man/man8/readprofile.8 \
    usr/local/share/man/man5/readprofile-formats.5 \
    usr/local/share/bash-completion/completions/readprofile; do
	[ -f "$T/d/$p" ] || bad="$bad no $p;"
done
grep -q '@VERSION@' "$T/d/usr/local/share/man/man8/readprofile.8" \
    "$T/d/usr/local/share/man/man5/readprofile-formats.5" &&
	bad="$bad @VERSION@ left in a man page;"
grep -q "^\.TH READPROFILE 8 .*\"readprofile $VERSION\"" \
    "$T/d/usr/local/share/man/man8/readprofile.8" || bad="$bad man page lacks the version;"
grep -q "^\.TH READPROFILE-FORMATS 5 .*\"readprofile $VERSION\"" \
    "$T/d/usr/local/share/man/man5/readprofile-formats.5" ||
	bad="$bad formats page lacks the version;"
mk uninstall DESTDIR="$T/d" > "$T/log" 2>&1 || bad="$bad uninstall failed;"
[ -z "$(find "$T/d" -type f 2>/dev/null)" ] || bad="$bad left: $(find "$T/d" -type f);"
[ ! -e "$T/d" ] || bad="$bad left directories: $(find "$T/d" | tr '\n' ' ');"
verdict "default name: installed and uninstalled"

# (b) another name.
bad=
N=readprofile-ng
mk install DESTDIR="$T/n" PREFIX=/usr PROGRAM=$N > "$T/log" 2>&1 ||
	{ bad="$bad make install failed;"; cat "$T/log"; }
b=$T/n/usr/sbin/$N m=$T/n/usr/share/man/man8/$N.8
c=$T/n/usr/share/bash-completion/completions/$N
f5=$T/n/usr/share/man/man5/$N-formats.5
[ "$(find "$T/n" -type f | wc -l)" -eq 4 ] || bad="$bad not exactly 4 files;"
[ -x "$b" ] && [ "$("$b" -V)" = "$N (readprofile) $VERSION" ] ||
	bad="$bad binary missing or wrong -V;"
sed -n '/^\.SH NAME/{n;p;}' "$m" | grep -q "^$N \\\\- " || bad="$bad NAME;"
# every synopsis line of the source page, under the new name
syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESC/p' "$TOP/man/readprofile.8" |
	grep -c '^\.B readprofile')
[ "$syn" -gt 0 ] &&
[ "$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESC/p' "$m" | grep -c "^\.B $N")" -eq "$syn" ] ||
	bad="$bad SYNOPSIS;"
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESC/p' "$m" | grep -q -e '^\.B readprofile$' -e '^\.B readprofile ' &&
	bad="$bad SYNOPSIS keeps the old name;"
grep -q '^\.TH READPROFILE-NG 8 ' "$m" || bad="$bad .TH;"
# the formats page: its title, its name, the pages naming each other
grep -q '^\.TH READPROFILE-NG-FORMATS 5 ' "$f5" || bad="$bad formats .TH;"
sed -n '/^\.SH NAME/{n;p;}' "$f5" | grep -q "^$N\\\\-formats \\\\- " ||
	bad="$bad formats NAME;"
grep -q "^\.BR $N\\\\-formats (5)" "$m" || bad="$bad SEE ALSO of the formats page;"
grep -q "^\.BR $N (8)" "$f5" || bad="$bad the formats page's SEE ALSO;"
# every example under the new name, none under the old
ex=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$TOP/man/readprofile.8" |
	grep -c '^readprofile ')
[ "$ex" -gt 5 ] &&
[ "$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$m" | grep -c "^$N ")" -eq "$ex" ] ||
	bad="$bad EXAMPLES;"
# the binary's usage line and hint, by the name it runs as
[ "$("$b" --help | sed -n 3p)" = " $N [options]" ] || bad="$bad usage line;"
[ "$("$b" --bogus 2>&1 | tail -n 1)" = "Try '$N --help' for more information." ] ||
	bad="$bad Try line;"
if command -v bash >/dev/null 2>&1; then
	got=$(bash -c '. "$1"; complete -p '"$N"'; COMP_WORDS=('"$N"' --ba)
	    COMP_CWORD=1; _readprofile; echo "${COMPREPLY[*]}"' x "$c" 2>&1)
	[ "$got" = "complete -F _readprofile $N
--baseline" ] || bad="$bad completion: $got;"
fi
mk uninstall DESTDIR="$T/n" PREFIX=/usr PROGRAM=$N > "$T/log" 2>&1 ||
	bad="$bad uninstall failed;"
[ -z "$(find "$T/n" -type f 2>/dev/null)" ] || bad="$bad left: $(find "$T/n" -type f);"
[ ! -e "$T/n" ] || bad="$bad left directories: $(find "$T/n" | tr '\n' ' ');"
verdict "(b) PROGRAM=$N: binary, man pages, completion, uninstall"

# (d) a tree that has others' files, and empty directories of its own.
bad=
K=$T/k/usr/local
mkdir -p "$K/sbin" "$K/share/man/man1" "$K/share/man/man8" "$K/bin"
echo other > "$K/share/man/man8/other.8"
mk install DESTDIR="$T/k" > "$T/log" 2>&1 || { bad="$bad make install failed;"; cat "$T/log"; }
[ -d "$K/share/bash-completion/completions" ] || bad="$bad no completions directory;"
# the same install twice: nothing it made is forgotten
mk install DESTDIR="$T/k" > "$T/log" 2>&1 || { bad="$bad make install again failed;"; cat "$T/log"; }
mk uninstall DESTDIR="$T/k" > "$T/log" 2>&1 || bad="$bad uninstall failed;"
left=$(cd "$T/k" && find . | LC_ALL=C sort | tr '\n' ' ')
[ "$left" = ". ./usr ./usr/local ./usr/local/bin ./usr/local/sbin ./usr/local/share ./usr/local/share/man ./usr/local/share/man/man1 ./usr/local/share/man/man8 ./usr/local/share/man/man8/other.8 " ] ||
	bad="$bad left: $left;"
[ "$(cat "$K/share/man/man8/other.8")" = other ] || bad="$bad other.8 changed;"
verdict "(d) uninstall removes what install made, keeps the rest"

# (d) the same, with the directories that hold the files installed into
# a tree that held nothing but another file in share
bad=
mkdir -p "$T/j/usr/local/share"
echo x > "$T/j/usr/local/share/keep"
mk install DESTDIR="$T/j" > "$T/log" 2>&1 || { bad="$bad make install failed;"; cat "$T/log"; }
mk uninstall DESTDIR="$T/j" > "$T/log" 2>&1 || bad="$bad uninstall failed;"
left=$(cd "$T/j" && find . | LC_ALL=C sort | tr '\n' ' ')
[ "$left" = ". ./usr ./usr/local ./usr/local/share ./usr/local/share/keep " ] ||
	bad="$bad left: $left;"
verdict "(d) uninstall stops at a directory that holds another file"

bad=
mk install DESTDIR="$T/x" PROGRAM='a b' > "$T/log" 2>&1 && bad="$bad accepted;"
verdict "(b) PROGRAM with a space is refused"

summary
