#!/bin/sh
# make check-vmlinux: a real kernel's vmlinux against its System.map.
#
# Downloads Debian's linux-image-*-dbg package for VMLINUX_ARCH (default
# s390x, 433 MB, through dpkg multiarch; amd64's is 855 MB), unpacks only
# usr/lib/debug/boot/ (vmlinux and System.map), generates a profile that
# fits the kernel's text, and checks that every report option gives the
# same output, error output and exit status with -m vmlinux as with
# -m System.map; then times the two.  Not part of make check or CI.
#
# Environment:
#   RP=PATH             the binary to test (default ./readprofile)
#   SYMDUMP=PATH        also check that the symbols read from vmlinux are
#                       System.map line for line (make check-vmlinux sets it)
#   VMLINUX_ARCH=ARCH   s390x (default) or amd64 ...
#   VMLINUX_DIR=DIR     use DIR/vmlinux-* and DIR/System.map-* instead of
#                       downloading
# Downloads are cached in build/vmlinux-cache/.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOP=$ROOT
SUITE=check-vmlinux
. "$TOP/tests/lib.sh"
RP=${RP:-$ROOT/readprofile}
ARCH=${VMLINUX_ARCH:-s390x}
CACHE=$ROOT/build/vmlinux-cache
die() { echo "check-vmlinux: $*" >&2; bad "$*"; summary; }
[ -x "$RP" ] || die "$RP: not found (run make first)"

# --- the package ---------------------------------------------------------------
if [ -n "${VMLINUX_DIR:-}" ]; then
	DIR=$VMLINUX_DIR
else
	mkdir -p "$CACHE"
	meta=linux-image-$ARCH-dbg
	[ "$ARCH" = s390x ] || [ "$ARCH" = amd64 ] || meta=linux-image-$ARCH-dbg
	q=$meta
	[ "$ARCH" = "$(dpkg --print-architecture)" ] || q=$meta:$ARCH
	pkg=$(apt-cache depends "$q" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ :]*-dbg\).*/\1/p' | head -n 1)
	[ -n "$pkg" ] || die "no $q in the package lists (for another architecture: dpkg --add-architecture $ARCH; apt-get update)"
	[ "$ARCH" = "$(dpkg --print-architecture)" ] || pkg=$pkg:$ARCH
	deb=$(ls "$CACHE/${pkg%%:*}"_*.deb 2>/dev/null | tail -n 1)
	if [ -z "$deb" ]; then
		echo "check-vmlinux: downloading $pkg ..." >&2
		(cd "$CACHE" && apt-get download -q -o APT::Sandbox::User=root "$pkg") >&2 ||
			die "apt-get download $pkg failed"
		deb=$(ls "$CACHE/${pkg%%:*}"_*.deb | tail -n 1)
	fi
	DIR=$CACHE/${pkg%%:*}
	if [ ! -d "$DIR/usr/lib/debug/boot" ]; then
		mkdir -p "$DIR"
		dpkg-deb --fsys-tarfile "$deb" | (cd "$DIR" && tar -x ./usr/lib/debug/boot/) ||
			die "cannot unpack $deb"
	fi
	DIR=$DIR/usr/lib/debug/boot
fi
vmlinux=$(ls "$DIR"/vmlinux-* 2>/dev/null | head -n 1)
sysmap=$(ls "$DIR"/System.map-* 2>/dev/null | head -n 1)
[ -f "$vmlinux" ] && [ -f "$sysmap" ] || die "no vmlinux-* and System.map-* in $DIR"
echo "check-vmlinux: $(basename "$vmlinux") ($(wc -c < "$vmlinux" | tr -d ' ') bytes), $(basename "$sysmap") ($(wc -l < "$sysmap" | tr -d ' ') lines)"

# --- a profile of this kernel ---------------------------------------------------
# step 16 (profile=4); sparse pseudo-random counts, hot runs, ticks outside.
s=$(awk '$3 == "_stext" { print $1; exit }' "$sysmap")
e=$(awk '$3 == "_etext" { print $1; exit }' "$sysmap")
[ -n "$s" ] && [ -n "$e" ] || die "no _stext or _etext in $sysmap"
n=$(( (0x${e#????????} - 0x${s#????????}) / 16 ))
awk -v n="$n" 'BEGIN {
	srand(12); printf "16"
	for (i = 1; i < n; i++)
		printf " %d", rand() < 0.97 ? 0 : int(rand() * rand() * 5000)
	printf " 4242\n"
}' > "$TMP/profile.words"
sh "$ROOT/tests/golden/mkprof.sh" "$TMP/profile.words" "$TMP/profile" || die "mkprof failed"
awk '{ for (i = 1; i <= NF; i++) printf "%d ", i == 1 ? $i : int($i / 3); print "" }' \
    "$TMP/profile.words" > "$TMP/base.words"
sh "$ROOT/tests/golden/mkprof.sh" "$TMP/base.words" "$TMP/base" || die "mkprof failed"

# --- the symbols: System.map line for line ---------------------------------------
if [ -n "${SYMDUMP:-}" ]; then
	if "$SYMDUMP" "$vmlinux" > "$TMP/syms" && cmp -s "$TMP/syms" "$sysmap"; then
		ok
		echo "ok   the symbols of vmlinux are System.map, line for line"
	else
		bad "the symbols of vmlinux differ from System.map:"
		diff "$sysmap" "$TMP/syms" | head -n 10
	fi
fi

# --- every report ---------------------------------------------------------------
ln -s "$vmlinux" "$TMP/elf"
ln -s "$sysmap" "$TMP/map"
for opt in '' -v -a -b -s '-a -v' '-b -a' '-s -v' --exact '--exact -v' \
    '-i -v' '--baseline base' '--baseline base -v'; do
	# shellcheck disable=SC2086
	(cd "$TMP" && "$RP" -p profile -m elf $opt > o1 2> e1; echo $? > r1
	 "$RP" -p profile -m map $opt > o2 2> e2; echo $? > r2)
	sed 's/^Map: map /Map: elf /' "$TMP/o2" > "$TMP/o2e"
	sed 's/\bmap\b/elf/g' "$TMP/e2" > "$TMP/e2e"
	if cmp -s "$TMP/o1" "$TMP/o2e" && cmp -s "$TMP/e1" "$TMP/e2e" &&
	    cmp -s "$TMP/r1" "$TMP/r2" && [ -s "$TMP/o1" ]; then
		ok
		echo "ok   '$opt' ($(wc -l < "$TMP/o1" | tr -d ' ') lines, exit $(cat "$TMP/r1"))"
	else
		bad "'$opt': -m vmlinux and -m System.map differ"
		diff "$TMP/o2e" "$TMP/o1" | head -n 10
		diff "$TMP/e2e" "$TMP/e1" | head -n 4
	fi
done

# --- time -----------------------------------------------------------------------
t() { /usr/bin/env time -f '%e s, %M KiB peak RSS' "$@" > /dev/null 2>> "$TMP/time" || true; }
if command -v time >/dev/null 2>&1 || [ -x /usr/bin/time ]; then
	: > "$TMP/time"
	t "$RP" -p "$TMP/profile" -m "$vmlinux"
	t "$RP" -p "$TMP/profile" -m "$sysmap"
	nm=nm
	[ "$ARCH" = s390x ] && command -v s390x-linux-gnu-nm >/dev/null 2>&1 && nm=s390x-linux-gnu-nm
	t "$nm" -n "$vmlinux"
	echo "time: -m vmlinux: $(sed -n 1p "$TMP/time"); -m System.map: $(sed -n 2p "$TMP/time"); $nm -n vmlinux: $(sed -n 3p "$TMP/time")"
fi
summary
