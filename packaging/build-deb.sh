#!/bin/sh
# build-deb.sh - build the Debian package from the release tarball and
# check it.
#
#   sh packaging/build-deb.sh [TARBALL]     (default: make dist first)
#
# As a packager does: unpacks TARBALL beside it as the .orig.tar.gz,
# copies its packaging/debian in as debian/, runs dpkg-buildpackage -us
# -uc (source and binary; DEB_BUILD_OPTIONS=nocheck is honoured and sets
# the nocheck profile), then checks: lintian on the .changes (the source
# package and the binary one) reports no error and no warning; no file of
# the package is a file of util-linux (dpkg -L); it ships README.md in
# /usr/share/doc/readprofile-ng; and, with
# DEB_INSTALL_TEST=1 as root (a throwaway machine: CI), that it installs
# beside util-linux and removes cleanly.  Needs dpkg-dev, debhelper,
# lintian.  With OUTDIR set, leaves the .deb, .dsc, tarballs and .changes
# there (made when missing); else they go with a temporary directory.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
MAKE=${MAKE:-make}
die() {
	echo "build-deb: $*" >&2
	exit 1
}
for t in dpkg-buildpackage dh lintian; do
	command -v "$t" >/dev/null 2>&1 ||
		die "needs $t (apt-get install dpkg-dev debhelper lintian)"
done
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
# The tools' own scratch files go with ours: lintian leaves one in TMPDIR
# when readelf cannot parse a file of the source (the fuzzers' corpus).
mkdir "$T/tmp"
TMPDIR=$T/tmp
export TMPDIR

if [ $# -gt 0 ]; then
	TGZ=$1
else
	(cd "$TOP" && env -u MAKEFLAGS $MAKE --no-print-directory dist) >&2
	TGZ=$TOP/readprofile-$(cat "$TOP/VERSION").tar.gz
fi
NAME=$(basename "$TGZ" .tar.gz)
V=${NAME#readprofile-}
cp "$TGZ" "$T/readprofile_$V.orig.tar.gz"
tar -xzf "$TGZ" -C "$T"
S=$T/$NAME
[ -d "$S/packaging/debian" ] || die "$TGZ has no packaging/debian"
cp -R "$S/packaging/debian" "$S/debian"

profile=
case " ${DEB_BUILD_OPTIONS:-} " in *" nocheck "*) profile=-Pnocheck ;; esac
[ "$(cd "$S" && dpkg-parsechangelog -S Version)" = "$V-1" ] ||
	die "debian/changelog is not at version $V-1"
echo "== build-deb: dpkg-buildpackage -us -uc $profile"
(cd "$S" && dpkg-buildpackage -us -uc $profile) > "$T/build.log" 2>&1 ||
	{ tail -40 "$T/build.log"; die "dpkg-buildpackage failed"; }
deb=$(ls "$T"/readprofile-ng_*.deb)
changes=$(ls "$T"/readprofile_*.changes)
ls "$T"/readprofile_*.dsc >/dev/null || die "no source package"

echo "== build-deb: lintian"
if ! lintian --fail-on error,warning --display-info "$changes" > "$T/lintian.log" 2>&1; then
	cat "$T/lintian.log"
	die "lintian is not clean"
fi
grep -v 'running with root privileges' "$T/lintian.log" || true

echo "== build-deb: no file shared with util-linux"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\.\//, "/", $6); print $6 }' |
	LC_ALL=C sort > "$T/ours"
cat "$T/ours"
for page in /usr/share/man/man8/readprofile-ng.8.gz \
    /usr/share/man/man5/readprofile-ng-formats.5.gz; do
	grep -qx "$page" "$T/ours" || die "the package lacks $page"
done
# README.md, for a user of the package (dh_compress may compress it)
grep -q -x -e '/usr/share/doc/readprofile-ng/README.md' \
    -e '/usr/share/doc/readprofile-ng/README.md.gz' "$T/ours" ||
	die "the package ships no /usr/share/doc/readprofile-ng/README.md"
if dpkg -L util-linux >/dev/null 2>&1; then
	dpkg -L util-linux | LC_ALL=C sort > "$T/theirs"
	clash=$(LC_ALL=C comm -12 "$T/ours" "$T/theirs" | while IFS= read -r f; do
		[ -d "$f" ] || echo "$f"; done)
	[ -z "$clash" ] || die "files also in util-linux: $clash"
	grep -q '/readprofile$' "$T/theirs" || echo "build-deb: note: util-linux here has no readprofile"
else
	echo "build-deb: note: util-linux is not installed; path check only against its names"
	grep -q -e '^/usr/sbin/readprofile$' -e '/man8/readprofile\.8' -e '/completions/readprofile$' "$T/ours" &&
		die "the package installs util-linux's file names"
fi

if [ "${DEB_INSTALL_TEST:-}" = 1 ] && [ "$(id -u)" = 0 ]; then
	echo "== build-deb: dpkg -i beside util-linux, then dpkg -r"
	dpkg -i "$deb"
	dpkg -S /usr/sbin/readprofile 2>/dev/null | grep -q '^util-linux' ||
		echo "build-deb: note: /usr/sbin/readprofile is not util-linux's here"
	/usr/sbin/readprofile-ng -V | grep -q "^readprofile-ng (readprofile) $V\$" ||
		die "the installed readprofile-ng does not say version $V"
	man -w readprofile-ng >/dev/null 2>&1 || [ -f /usr/share/man/man8/readprofile-ng.8.gz ] ||
		die "no readprofile-ng man page"
	man -w 5 readprofile-ng-formats >/dev/null 2>&1 ||
	    [ -f /usr/share/man/man5/readprofile-ng-formats.5.gz ] ||
		die "no readprofile-ng-formats(5) page"
	dpkg -r readprofile-ng
	[ ! -e /usr/sbin/readprofile-ng ] || die "dpkg -r left /usr/sbin/readprofile-ng"
fi
if [ -n "${OUTDIR:-}" ]; then
	mkdir -p "$OUTDIR"
	for f in "$T"/*.deb "$T"/*.dsc "$T"/*.tar.* "$T"/*.changes "$T"/*.buildinfo; do
		[ -f "$f" ] && cp "$f" "$OUTDIR/"
	done
fi
echo "build-deb: $(basename "$deb") built, lintian clean, no clash with util-linux"
