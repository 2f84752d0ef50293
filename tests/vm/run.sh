#!/bin/sh
# make check-vm: boot Debian's kernel under qemu (TCG) twice, with profile=2
# and profile=4, and test readprofile against the live /proc/profile.
# The guest side is tests/vm/init.sh; this script builds the initramfs, boots,
# and collects the results from the serial console.
#
# Environment:
#   RP=PATH        test this binary instead of building a static one
#   VM_TIMEOUT=S   seconds allowed per boot (default 240)
#   VM_KEEP=1      always save each boot's snapshot (profile + kallsyms)
# Downloaded packages are cached in build/vm-cache/; console logs (and the
# snapshot of a boot with a failed comparison) are saved in build/vm-out/.

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$ROOT/build/vm-cache
OUT=$ROOT/build/vm-out
TIMEOUT=${VM_TIMEOUT:-240}
KEEP=${VM_KEEP:-0}
UL=/usr/sbin/readprofile

die() {
	echo "check-vm: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rp-vm.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
start=$(date +%s)

# --- tools ---------------------------------------------------------------------
need=
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
command -v cpio >/dev/null 2>&1 || need="$need cpio"
[ -x "$UL" ] || need="$need util-linux"
if [ -n "$need" ]; then
	echo "check-vm: installing$need"
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $need; } \
		>"$TMP/apt.log" 2>&1 || { tail -n 20 "$TMP/apt.log" >&2; die "apt-get install$need failed"; }
fi
[ -x "$UL" ] || die "$UL (util-linux) not found"

# --- the kernel and busybox packages (cached) ------------------------------------
mkdir -p "$CACHE" "$OUT"
kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1
}
kpkg=$(kernel_pkg)
if [ -z "$kpkg" ]; then
	apt-get update -q >"$TMP/apt.log" 2>&1
	kpkg=$(kernel_pkg)
fi
fetch() { # fetch PACKAGE: path of its .deb in the cache, downloading it if needed
	set -- "$1" "$(ls "$CACHE/$1"_*.deb 2>/dev/null | tail -n 1)"
	if [ -z "$2" ]; then
		(cd "$CACHE" && apt-get download -q -o APT::Sandbox::User=root "$1") \
			>"$TMP/download.log" 2>&1 || { cat "$TMP/download.log" >&2; return 1; }
		set -- "$1" "$(ls "$CACHE/$1"_*.deb 2>/dev/null | tail -n 1)"
	fi
	[ -n "$2" ] && echo "$2"
}
if [ -n "$kpkg" ]; then
	kdeb=$(fetch "$kpkg") || die "cannot download $kpkg"
else # no package lists: fall back on a cached kernel
	kdeb=$(ls "$CACHE"/linux-image-*-amd64_*.deb 2>/dev/null | tail -n 1)
	[ -n "$kdeb" ] || die "cannot resolve the kernel package of linux-image-amd64"
fi
bdeb=$(fetch busybox-static) || die "cannot download busybox-static"

kernel=$CACHE/$(basename "$kdeb" .deb).vmlinuz
if [ ! -s "$kernel" ]; then
	dpkg-deb --fsys-tarfile "$kdeb" | tar -x -C "$TMP" --wildcards './boot/vmlinuz-*' ||
		die "cannot unpack $kdeb"
	mv "$TMP"/boot/vmlinuz-* "$kernel.tmp" && mv "$kernel.tmp" "$kernel"
fi

# --- the binary under test ---------------------------------------------------------
if [ -n "${RP:-}" ]; then
	OURS=$RP
else
	OURS=$ROOT/build-static/readprofile
	echo "check-vm: building a static readprofile"
	if ! make -C "$ROOT" --no-print-directory B=build-static BIN=build-static/readprofile \
		LDFLAGS=-static >"$TMP/build.log" 2>&1; then
		tail -n 40 "$TMP/build.log" >&2
		echo "FAIL: build a static readprofile (make B=build-static BIN=build-static/readprofile LDFLAGS=-static)"
		echo "0 passed, 1 failed"
		exit 1
	fi
fi
[ -x "$OURS" ] || die "$OURS: not an executable"

# --- the initramfs -------------------------------------------------------------
R=$TMP/root
mkdir -p "$R/bin" "$R/ours" "$R/ul" "$R/dev" "$R/etc"
dpkg-deb --fsys-tarfile "$bdeb" | tar -x -O ./bin/busybox >"$R/bin/busybox" ||
	die "cannot unpack $bdeb"
chmod 755 "$R/bin/busybox"
cp "$OURS" "$R/ours/readprofile"
cp "$UL" "$R/ul/readprofile"
cp "$ROOT/tests/vm/init.sh" "$R/init"
chmod 755 "$R/init" "$R/ours/readprofile" "$R/ul/readprofile"
# shared libraries and the dynamic loader of the dynamic binaries
for f in "$UL" "$OURS"; do
	ldd "$f" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'
done | sort -u | while read -r lib; do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done
mknod "$R/dev/console" c 5 1 2>/dev/null || true
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$TMP/initrd.gz" ||
	die "cannot build the initramfs"

# --- boot twice, in parallel -----------------------------------------------------
pids=
trap 'kill $pids 2>/dev/null; exit 1' HUP INT TERM
boot() { # boot SHIFT: console log in $TMP/pSHIFT.log, in the background
	timeout "$TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 1024 -nographic \
		-monitor none -nic none -no-reboot -kernel "$kernel" -initrd "$TMP/initrd.gz" \
		-append "console=ttyS0 profile=$1 panic=-1 RP_STEP=$((1 << $1)) RP_KEEP=$KEEP" \
		-serial "file:$TMP/p$1.log" </dev/null >"$TMP/p$1.qemu" 2>&1 &
	pids="$pids $!"
}
echo "check-vm: booting $(basename "$kernel" .vmlinuz) with profile=2 and profile=4 (qemu, TCG)"
boot 2
pid2=$!
boot 4
pid4=$!
wait "$pid2"
echo $? >"$TMP/p2.rc"
wait "$pid4"
echo $? >"$TMP/p4.rc"
pids=

# --- results -----------------------------------------------------------------------
passed=0
failed=0
for s in 2 4; do
	label="profile=$s"
	log=$TMP/p$s.log
	[ -f "$log" ] || : >"$log"
	tr -d '\r' <"$log" >"$TMP/p$s.txt"
	rm -rf "$OUT/$label"
	mkdir -p "$OUT/$label"
	cp "$TMP/p$s.txt" "$OUT/$label/console.log"
	# results and notes
	sed -n 's/^@@RP //p' "$TMP/p$s.txt" >"$TMP/p$s.res"
	while IFS= read -r line; do
		case $line in
		PASS\ *) passed=$((passed + 1)); echo "PASS $label: ${line#PASS }" ;;
		FAIL\ *) failed=$((failed + 1)); echo "FAIL $label: ${line#FAIL }" ;;
		NOTE\ *) echo "     $label: ${line#NOTE }" ;;
		esac
	done <"$TMP/p$s.res"
	# files sent out by the guest
	for f in $(sed -n 's/^@@RP BEGIN //p' "$TMP/p$s.txt"); do
		sed -n "/^@@RP BEGIN $f\$/,/^@@RP END $f\$/p" "$TMP/p$s.txt" | sed '1d;$d' |
			base64 -d >"$OUT/$label/$f" 2>/dev/null &&
			echo "     $label: saved $OUT/$label/$f"
	done
	if grep -q '^@@RP DONE$' "$TMP/p$s.txt"; then
		passed=$((passed + 1))
		echo "PASS $label: guest finished"
	else
		failed=$((failed + 1))
		echo "FAIL $label: guest finished (qemu exit status $(cat "$TMP/p$s.rc" 2>/dev/null), 124 = timeout after ${TIMEOUT}s)"
		echo "---- last 40 lines of the guest console ($label) ----"
		tail -n 40 "$TMP/p$s.txt"
		sed 's/^/qemu: /' "$TMP/p$s.qemu" | tail -n 5
		echo "----"
	fi
done
echo "check-vm: took $(($(date +%s) - start))s; console logs in $OUT"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
