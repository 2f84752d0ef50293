#!/bin/sh
# dist.sh - write the release tarball readprofile-VERSION.tar.gz.
#
#   sh tools/dist.sh VERSION [OUTDIR]        (make dist)
#
# The files are those git tracks (git ls-files), less the repository's
# own (.gitignore, .ci/), taken from the working tree; VERSION is written
# into the file VERSION and the man page.  The same commit gives the same
# bytes: names sorted, owner and group 0, modes normalised, every mtime
# SOURCE_DATE_EPOCH or else the commit's date, gzip -n.
set -eu
V=${1:?usage: dist.sh VERSION [OUTDIR]}
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$TOP}
NAME=readprofile-$V
export LC_ALL=C

die() {
	echo "make dist: $*" >&2
	exit 1
}
case $V in *[!A-Za-z0-9._+~-]*) die "VERSION '$V' has odd characters" ;; esac
command -v git >/dev/null 2>&1 || die "needs git: the file list comes from git ls-files"
if ! top=$(git -C "$TOP" rev-parse --show-toplevel 2>&1); then
	[ ! -e "$TOP/.git" ] ||
		die "git cannot read this checkout: $top"
	die "not a git checkout: the file list comes from git ls-files (unpack a release tarball to build, not to make dist)"
fi
[ "$(cd "$top" && pwd -P)" = "$(cd "$TOP" && pwd -P)" ] ||
	die "$TOP is not the top of its git checkout"
tar --version 2>/dev/null | grep -q 'GNU tar' || die "needs GNU tar (--sort, --mtime, --owner)"

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$TOP" log -1 --format=%ct) ||
		die "no commit to take the date from; set SOURCE_DATE_EPOCH"
fi
git -C "$TOP" diff --quiet HEAD -- 2>/dev/null ||
	echo "make dist: warning: uncommitted changes are in the tarball" >&2
tag=$(git -C "$TOP" describe --tags --exact-match 2>/dev/null || true)
case $tag in
v*) [ "$tag" = "v$V" ] ||
	echo "make dist: warning: HEAD is tagged $tag but VERSION is $V" >&2 ;;
esac

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
S=$T/$NAME
mkdir "$S"
git -C "$TOP" ls-files -z | tr '\0' '\n' |
	grep -v -e '^\.gitignore$' -e '^\.gitattributes$' -e '^\.ci/' |
	sort > "$T/list"
grep -q '^VERSION$' "$T/list" || die "VERSION is not tracked by git"
while IFS= read -r f; do
	[ -f "$TOP/$f" ] || die "$f is tracked but missing from the working tree"
done < "$T/list"
(cd "$TOP" && tar -cf - --no-recursion -T "$T/list") | (cd "$S" && tar -xf -)
printf '%s\n' "$V" > "$S/VERSION"
# The version (and the release date, for the RPM changelog) where they
# are shown; the repository holds only placeholders.  The Debian
# changelog is a real file (a packager copies packaging/debian as it is):
# tests/docs.sh checks its version against VERSION.
rfc=$(date -u -d "@$SOURCE_DATE_EPOCH" '+%a, %d %b %Y %H:%M:%S +0000')
rpmd=$(date -u -d "@$SOURCE_DATE_EPOCH" '+%a %b %d %Y')
for f in man/readprofile.8 man/readprofile-formats.5 packaging/readprofile.spec; do
	[ -f "$S/$f" ] || continue
	sed -e "s/@VERSION@/$V/g" -e "s/@DATE_RFC2822@/$rfc/g" \
	    -e "s/@DATE_RPM@/$rpmd/g" "$TOP/$f" > "$S/$f"
done

sed "s|^|$NAME/|" "$T/list" > "$T/names"
(cd "$T" && tar -cf - --format=gnu --no-recursion --owner=0 --group=0 \
    --numeric-owner --mode='go-w,a+rX' --mtime="@$SOURCE_DATE_EPOCH" \
    -T names) | gzip -n -9 > "$T/$NAME.tar.gz"
mv "$T/$NAME.tar.gz" "$OUT/$NAME.tar.gz"
echo "make dist: $OUT/$NAME.tar.gz ($(wc -l < "$T/list" | tr -d ' ') files)"
