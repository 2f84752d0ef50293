#!/bin/sh
# distcheck.sh - check the release tarball on its own.
#
#   sh tools/distcheck.sh TARBALL        (make distcheck)
#
# Unpacks TARBALL in a temporary directory and there: builds, runs make
# check, make install DESTDIR=..., make uninstall, and checks that nothing
# is left installed, not even the directories install made, that make clean leaves exactly the tarball's files,
# and that make dist refuses to run outside a git checkout.
# MAKEFLAGS from the caller (CC, CFLAGS...) are passed on.
set -eu
TGZ=${1:?usage: distcheck.sh TARBALL}
case $TGZ in /*) ;; *) TGZ=$(pwd)/$TGZ ;; esac
MAKE=${MAKE:-make}
NAME=$(basename "$TGZ" .tar.gz)
die() {
	echo "make distcheck: $*" >&2
	exit 1
}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

tar -xzf "$TGZ" -C "$T"
S=$T/$NAME
[ -f "$S/Makefile" ] || die "$TGZ does not unpack to $NAME/"
(cd "$T" && find "$NAME" \( -type f -o -type l \) | LC_ALL=C sort) > "$T/files"

echo "== distcheck: build and check in $NAME/"
$MAKE -C "$S" --no-print-directory
$MAKE -C "$S" --no-print-directory check

echo "== distcheck: install and uninstall"
D=$T/dest
$MAKE -C "$S" --no-print-directory install DESTDIR="$D" PREFIX=/usr
n=$(find "$D" -type f | wc -l)
[ "$n" -eq 4 ] || die "make install installed $n files, expected 4"
v=$(cat "$S/VERSION")
[ "$("$D/usr/sbin/readprofile" -V)" = "readprofile $v" ] ||
	die "the installed binary does not say version $v"
$MAKE -C "$S" --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr
[ ! -e "$D" ] || die "make uninstall left: $(find "$D")"

echo "== distcheck: make clean leaves the tarball's files"
$MAKE -C "$S" --no-print-directory clean
(cd "$T" && find "$NAME" \( -type f -o -type l \) | LC_ALL=C sort) > "$T/after"
diff -u "$T/files" "$T/after" >&2 || die "make clean leaves a different tree"

echo "== distcheck: make dist outside git"
if (cd "$S" && GIT_CEILING_DIRECTORIES=$T $MAKE --no-print-directory dist) \
    > "$T/dist.log" 2>&1; then
	die "make dist ran in an unpacked tarball"
fi
grep -q 'not a git checkout' "$T/dist.log" || { cat "$T/dist.log" >&2; die "no clear message"; }

echo "distcheck: $NAME.tar.gz is ready"
