#!/bin/sh
# make check-vm: boot Debian's kernels under qemu (TCG) and test readprofile
# on what they write in /proc/profile:
#   amd64  twice, with profile=2 and profile=4; the guest (tests/vm/init.sh)
#          runs this readprofile and util-linux's on the live file;
#   i386, arm64, s390x  with profile=2; the guest (tests/vm/init-cross.sh)
#          sends a snapshot of /proc/profile and /proc/kallsyms out over the
#          console, and this script compares the reports on the host. The
#          s390x guest also runs a readprofile cross-built for s390x.
#   current  today's Debian kernels, amd64 (trixie's 6.12, sid's 7.x, from
#          Debian's archive through a private apt sources list), each booted
#          twice without profile=: --enable, then --enable=schedule
#          (tests/vm/current.sh).
# This script installs what it needs, builds the initramfs images, boots,
# and collects the results from the serial consoles.
#
# Environment:
#   RP=PATH          test this binary instead of building a static one
#   RP_S390X=PATH    the s390x binary for the s390x guest, instead of building
#                    one with s390x-linux-gnu-gcc
#   VM_ARCHS=LIST    architectures to boot (default "amd64 i386 arm64 s390x
#                    current"; current: today's kernels, amd64)
#   VM_CURRENT=LIST  the Debian suites of "current" (default "trixie sid")
#   VM_JOBS=N        guests running at once (default 2)
#   VM_TIMEOUT=S     seconds allowed per boot (default 600)
#   VM_KEEP=1        always save the amd64 boots' snapshots (the other
#                    guests always send theirs)
# Downloaded packages are cached in build/vm-cache/; console logs and
# snapshots are saved in build/vm-out/LABEL/.

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOP=$ROOT
SUITE=check-vm
. "$TOP/tests/lib.sh"
CACHE=$ROOT/build/vm-cache
OUT=$ROOT/build/vm-out
TIMEOUT=${VM_TIMEOUT:-600}
KEEP=${VM_KEEP:-0}
ARCHS=${VM_ARCHS:-amd64 i386 arm64 s390x current}
CURRENT=${VM_CURRENT:-trixie sid}
JOBS=${VM_JOBS:-2}
UL=/usr/sbin/readprofile

die() {
	echo "check-vm: $*" >&2
	bad "$*"
	summary
}
has() { # has ARCH: ARCH is in $ARCHS
	case " $ARCHS " in *" $1 "*) return 0 ;; esac
	return 1
}
for a in $ARCHS; do
	case $a in amd64 | i386 | arm64 | s390x | current) ;; *) die "VM_ARCHS: unknown architecture $a" ;; esac
done

start=$(date +%s)

# --- tools ---------------------------------------------------------------------
apt_install() { # apt_install PACKAGE...
	echo "check-vm: installing $*"
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=900 "$@"; } \
		>"$TMP/apt.log" 2>&1 || { tail -n 20 "$TMP/apt.log" >&2; die "apt-get install $* failed"; }
}
need=
if has amd64 || has i386 || has current; then
	command -v qemu-system-x86_64 >/dev/null 2>&1 &&
		command -v qemu-system-i386 >/dev/null 2>&1 || need="$need qemu-system-x86"
fi
has arm64 && ! command -v qemu-system-aarch64 >/dev/null 2>&1 && need="$need qemu-system-arm"
has s390x && ! command -v qemu-system-s390x >/dev/null 2>&1 && need="$need qemu-system-misc"
if has s390x && [ -z "${RP_S390X:-}" ] && ! command -v s390x-linux-gnu-gcc >/dev/null 2>&1; then
	need="$need gcc-s390x-linux-gnu libc6-dev-s390x-cross"
fi
command -v cpio >/dev/null 2>&1 || need="$need cpio"
[ -x "$UL" ] || need="$need util-linux"
[ -n "$need" ] && apt_install $need
[ -x "$UL" ] || die "$UL (util-linux) not found"

# foreign architectures, for apt-get download of their kernels and busybox
added=
for a in $ARCHS; do
	[ "$a" = "$(dpkg --print-architecture)" ] || [ "$a" = current ] && continue
	dpkg --print-foreign-architectures | grep -qx "$a" && continue
	dpkg --add-architecture "$a" || die "dpkg --add-architecture $a failed"
	added=1
done
[ -n "$added" ] && { apt-get update -q >"$TMP/apt.log" 2>&1 || die "apt-get update failed"; }

# --- the kernel and busybox packages (cached) ------------------------------------
mkdir -p "$CACHE" "$OUT"
flavour() { # flavour ARCH: Debian's kernel flavour for ARCH
	case $1 in i386) echo 686 ;; *) echo "$1" ;; esac
}
kernel_pkg() { # kernel_pkg ARCH: the versioned package the meta package depends on
	apt-cache depends "linux-image-$(flavour "$1"):$1" 2>/dev/null |
		sed -n "s/^ *Depends: \(linux-image-[0-9][^ :]*-$(flavour "$1")\)\(:$1\)\{0,1\}\$/\1/p" | head -n 1
}
fetch() { # fetch PACKAGE ARCH: path of its .deb in the cache, downloading it if needed
	set -- "$1" "$2" "$(ls "$CACHE/$1"_*_"$2".deb 2>/dev/null | tail -n 1)"
	if [ -z "$3" ]; then
		(cd "$CACHE" && apt-get download -q -o APT::Sandbox::User=root "$1:$2") \
			>"$TMP/download.log" 2>&1 || { cat "$TMP/download.log" >&2; return 1; }
		set -- "$1" "$2" "$(ls "$CACHE/$1"_*_"$2".deb 2>/dev/null | tail -n 1)"
	fi
	[ -n "$3" ] && echo "$3"
}
updated=
for a in $ARCHS; do
	[ "$a" = current ] && continue	# below
	kpkg=$(kernel_pkg "$a")
	if [ -z "$kpkg" ] && [ -z "$updated" ]; then
		apt-get update -q >"$TMP/apt.log" 2>&1
		updated=1
		kpkg=$(kernel_pkg "$a")
	fi
	if [ -n "$kpkg" ]; then
		kdeb=$(fetch "$kpkg" "$a") || die "cannot download $kpkg:$a"
	else # no package lists: fall back on a cached kernel
		kdeb=$(ls "$CACHE"/linux-image-*-"$(flavour "$a")"_*_"$a".deb 2>/dev/null | tail -n 1)
		[ -n "$kdeb" ] || die "cannot resolve the kernel package of linux-image-$(flavour "$a"):$a"
	fi
	bdeb=$(fetch busybox-static "$a") || die "cannot download busybox-static:$a"
	kernel=$CACHE/$(basename "$kdeb" .deb).vmlinuz
	if [ ! -s "$kernel" ]; then
		rm -rf "$TMP/boot"
		dpkg-deb --fsys-tarfile "$kdeb" | tar -x -C "$TMP" --wildcards './boot/vmlinuz-*' ||
			die "cannot unpack $kdeb"
		mv "$TMP"/boot/vmlinuz-* "$kernel.tmp" && mv "$kernel.tmp" "$kernel"
	fi
	# amd64: the .notes of the image's vmlinux (an ELF file in an xz
	# stream), and its build-id, for the guests booted without profile=
	if [ "$a" = amd64 ] && [ ! -s "$kernel.buildid" ]; then
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kernel" | head -n 1 | cut -d: -f1)
		if [ -n "$off" ] &&
			{ tail -c +$((off + 1)) "$kernel" | xz -dc >"$TMP/vmlinux" 2>/dev/null; [ -s "$TMP/vmlinux" ]; } &&
			objcopy -O binary --only-section=.notes "$TMP/vmlinux" "$kernel.notes" &&
			readelf -n "$TMP/vmlinux" | sed -n 's/^ *Build ID: //p' >"$kernel.buildid"; then
			:
		else
			rm -f "$kernel.notes" "$kernel.buildid"
		fi
		rm -f "$TMP/vmlinux"
	fi
	echo "$kernel" >"$TMP/$a.kernel"
	echo "$bdeb" >"$TMP/$a.busybox"
	dpkg-deb -f "$kdeb" Package Version | tr '\n' ' ' | sed 's/Package: //; s/ Version: / /; s/ $//' \
		>"$TMP/$a.kpkg"
done

# --- today's kernels: Debian's suites, through a private apt setup ---------
# current_fetch SUITE: the suite's amd64 kernel (what linux-image-amd64
# depends on; sid splits it into linux-binary-R, the image, and
# linux-base-R, the config) into $TMP/current-SUITE.{kernel,config,kpkg},
# and where its package installs the config into .cfgpath.  The host's own
# sources and lists are never used nor changed.
current_fetch() {
	_s=$1
	_a=$CACHE/apt-$_s
	mkdir -p "$_a/lists/partial" "$_a/cache/archives/partial" || return 1
	echo "deb http://deb.debian.org/debian $_s main" >"$_a/sources.list"
	set -- -o Dir::Etc::sourcelist="$_a/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$_a/lists" -o Dir::Cache="$_a/cache" \
		-o APT::Architectures=amd64 -o APT::Sandbox::User=root
	apt-get "$@" -q update >"$TMP/apt-$_s.log" 2>&1 ||
		echo "check-vm: apt-get update of $_s failed; using what is cached"
	_img=$(apt-cache "$@" depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
	[ -n "$_img" ] || { echo "check-vm: no linux-image-amd64 in $_s" >&2; return 1; }
	_pkgs=$(apt-cache "$@" depends "$_img" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-\(binary\|base\)-[0-9][^ ]*\)$/\1/p')
	[ -n "$_pkgs" ] || _pkgs=$_img
	_x=$CACHE/$_img.tree
	for _p in $_pkgs; do
		_d=$(ls "$CACHE/${_p}"_*_amd64.deb 2>/dev/null | tail -n 1)
		if [ -z "$_d" ]; then
			(cd "$CACHE" && apt-get "$@" -q download "$_p") >"$TMP/download.log" 2>&1 ||
				{ cat "$TMP/download.log" >&2; return 1; }
			_d=$(ls "$CACHE/${_p}"_*_amd64.deb 2>/dev/null | tail -n 1)
		fi
		[ -n "$_d" ] || return 1
		[ -f "$_x.$_p.done" ] && continue
		mkdir -p "$_x"
		# only the image, the config and System.map: not the modules
		dpkg-deb --fsys-tarfile "$_d" | tar -x -C "$_x" --wildcards \
			'./boot/*' './usr/lib/modules/*/vmlinuz' './usr/lib/modules/*/config' \
			'./usr/lib/modules/*/System.map' 2>/dev/null
		echo "$_p $(dpkg-deb -f "$_d" Version)" >"$_x.$_p.done"
	done
	_k=$(ls "$_x"/boot/vmlinuz-* "$_x"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
	_c=$(ls "$_x"/boot/config-* "$_x"/usr/lib/modules/*/config 2>/dev/null | head -n 1)
	[ -n "$_k" ] && [ -n "$_c" ] || { echo "check-vm: no vmlinuz or config in $_pkgs" >&2; return 1; }
	echo "$_k" >"$TMP/current-$_s.kernel"
	echo "$_c" >"$TMP/current-$_s.config"
	echo "${_c#"$_x"}" >"$TMP/current-$_s.cfgpath"
	cat "$_x".*.done | tr '\n' ' ' | sed 's/ $//' >"$TMP/current-$_s.kpkg"
}
if has current; then
	bdeb=$(fetch busybox-static amd64) || die "cannot download busybox-static:amd64"
	echo "$bdeb" >"$TMP/amd64.busybox"
	for s in $CURRENT; do
		current_fetch "$s" || die "cannot fetch the kernel of Debian $s"
	done
fi

# --- the binaries under test ---------------------------------------------------
build() { # build WHAT MAKE-ARGS...: make, or report the failure and stop
	what=$1
	shift
	echo "check-vm: building $what"
	if ! make -C "$ROOT" --no-print-directory "$@" >"$TMP/build.log" 2>&1; then
		tail -n 40 "$TMP/build.log" >&2
		bad "build $what (make $*)"
		summary
	fi
}
# and the independent model of --exact (tests/differential/model.c), run on the host
MODEL=$ROOT/build-static/tests/model
if [ -n "${RP:-}" ]; then
	OURS=$RP
	build "the --exact model" B=build-static BIN=build-static/readprofile LDFLAGS=-static \
		build-static/tests/model
else
	OURS=$ROOT/build-static/readprofile
	build "a static readprofile and the --exact model" B=build-static \
		BIN=build-static/readprofile LDFLAGS=-static build-static/readprofile build-static/tests/model
fi
[ -x "$OURS" ] || die "$OURS: not an executable"
OURS390=
if has s390x; then
	if [ -n "${RP_S390X:-}" ]; then
		OURS390=$RP_S390X
	else
		OURS390=$ROOT/build-s390x/readprofile
		build "a static readprofile for s390x" CC=s390x-linux-gnu-gcc LDFLAGS=-static \
			B=build-s390x BIN=build-s390x/readprofile
	fi
	[ -f "$OURS390" ] || die "$OURS390: not found"
fi

# --- the initramfs images ------------------------------------------------------
initramfs() { # initramfs ARCH: $TMP/ARCH.initrd.gz
	R=$TMP/root-$1
	mkdir -p "$R/bin" "$R/dev" "$R/etc"
	_bb=$TMP/$1.busybox
	[ -f "$_bb" ] || _bb=$TMP/amd64.busybox	# today's kernels: the host's
	dpkg-deb --fsys-tarfile "$(cat "$_bb")" | tar -x -O ./bin/busybox >"$R/bin/busybox" ||
		die "cannot unpack $(cat "$_bb")"
	chmod 755 "$R/bin/busybox"
	if [ "$1" = amd64 ] || [ "${1%%-*}" = current ]; then
		mkdir -p "$R/ours" "$R/ul"
		cp "$OURS" "$R/ours/readprofile"
		cp "$UL" "$R/ul/readprofile"
		cp "$ROOT/tests/vm/init.sh" "$R/init"
		cp "$ROOT/tests/vm/newcomer.sh" "$R/newcomer.sh"
		cp "$ROOT/tests/vm/current.sh" "$R/current.sh"
		[ -f "$TMP/$1.config" ] && cp "$(cat "$TMP/$1.config")" "$R/kconfig"
		chmod 755 "$R/ours/readprofile" "$R/ul/readprofile"
		# shared libraries and the dynamic loader of the dynamic binaries
		for f in "$UL" "$OURS"; do
			ldd "$f" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'
		done | sort -u | while read -r lib; do
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
		done
	else
		cp "$ROOT/tests/vm/init-cross.sh" "$R/init"
		if [ "$1" = s390x ]; then
			mkdir -p "$R/ours"
			cp "$OURS390" "$R/ours/readprofile"
			chmod 755 "$R/ours/readprofile"
		fi
	fi
	chmod 755 "$R/init"
	mknod "$R/dev/console" c 5 1 2>/dev/null || true
	(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$TMP/$1.initrd.gz" ||
		die "cannot build the initramfs for $1"
}
for a in $ARCHS; do
	if [ "$a" = current ]; then
		for s in $CURRENT; do
			initramfs "current-$s"
		done
	else
		initramfs "$a"
	fi
done

# --- boot, VM_JOBS at a time ---------------------------------------------------
# Each boot runs in the background: console in $TMP/LABEL.log, qemu's own
# output in LABEL.qemu, its exit status in LABEL.rc, seconds in LABEL.time.
running=
trap 'for f in "$TMP"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done; exit 1' HUP INT TERM
boot() { # boot LABEL ARCH SHIFT: profile=SHIFT; none or schedule: no profile=
	set -- "$1" "$2" "$3" "$(cat "$TMP/$2.kernel")"
	cfg=
	[ -f "$TMP/$2.cfgpath" ] && cfg=$(cat "$TMP/$2.cfgpath")
	case $3 in
	none) prof= mode=none st=4 ;;
	schedule) prof= mode=schedule st=1 ;;
	current | current-schedule) prof= mode=$3 st=4 ;;
	*) prof="profile=$3 " mode= st=$((1 << $3)) ;;
	esac
	bid=
	[ -s "$4.buildid" ] && bid=$(cat "$4.buildid")
	case $2 in
	amd64 | current-*) q="qemu-system-x86_64 -accel tcg -cpu max" c=ttyS0 ;;
	i386) q="qemu-system-i386 -accel tcg -cpu max" c=ttyS0 ;;
	arm64) q="qemu-system-aarch64 -M virt -cpu max" c=ttyAMA0 ;;
	s390x) q="qemu-system-s390x -M s390-ccw-virtio" c=ttysclp0 ;;
	esac
	echo "$q -m 1024 -nographic -monitor none -nic none -no-reboot -kernel $(basename "$4") \
-initrd initrd.gz -append \"console=$c ${prof}panic=-1 ...\"" >"$TMP/$1.cmd"
	(
		s=$(date +%s)
		timeout "$TIMEOUT" $q -m 1024 -nographic -monitor none -nic none -no-reboot \
			-kernel "$4" -initrd "$TMP/$2.initrd.gz" \
			-append "console=$c ${prof}panic=-1 RP_STEP=$st RP_KEEP=$KEEP RP_MODE=$mode RP_BUILDID=$bid RP_CONFIG=$cfg" \
			-serial "file:$TMP/$1.log" </dev/null >"$TMP/$1.qemu" 2>&1 &
		echo $! >"$TMP/$1.pid"
		wait $!
		echo $? >"$TMP/$1.rc"
		echo $(($(date +%s) - s)) >"$TMP/$1.time"
		rm -f "$TMP/$1.pid"
	) &
	running="$running $!"
	echo "check-vm: booting $(basename "$4" .vmlinuz) with ${prof:-no profile= (then $mode)} (qemu, TCG)"
}
throttle() { # wait for the oldest boot while VM_JOBS are running
	set -- $running
	while [ $# -ge "$JOBS" ]; do
		wait "$1"
		shift
	done
	running=" $*"
}
labels=
for a in $ARCHS; do
	if [ "$a" = amd64 ]; then
		for s in 2 4; do
			throttle
			boot "amd64-profile=$s" amd64 "$s"
			labels="$labels amd64-profile=$s"
		done
		for s in none schedule; do
			throttle
			boot "amd64-$s" amd64 "$s"
			labels="$labels amd64-$s"
		done
	elif [ "$a" = current ]; then
		for s in $CURRENT; do
			for m in current current-schedule; do
				throttle
				boot "$m-$s" "current-$s" "$m"
				labels="$labels $m-$s"
			done
		done
	else
		throttle
		boot "$a" "$a" 2
		labels="$labels $a"
	fi
done
for p in $running; do
	wait "$p"
done
running=

# --- results -----------------------------------------------------------------------
# vm_ok WHAT, vm_bad WHAT: a check of guest $label (tests/lib.sh counts)
vm_ok() {
	ok
	echo "PASS $label: $*"
}
vm_bad() {
	bad "$label: $*"
}
note() { sed "s/^/     $label: /"; }
check() { # check NAME CONDITION...
	_n=$1
	shift
	if "$@"; then vm_ok "$_n"; else vm_bad "$_n"; fi
}
# total FILE: ticks on the `total` line of a default-format report
total() { awk '$2 == "total" { print $1 }' "$1"; }

# host_run TAG BINARY ARGS...: in $H: TAG.out, TAG.err, TAG.rc
host_run() {
	_t=$1
	shift
	"$@" >"$H/$_t.out" 2>"$H/$_t.err" </dev/null
	echo $? >"$H/$_t.rc"
}
# same NAME TAG-A TAG-B: stdout and exit status of two runs are equal
same() {
	if cmp -s "$H/$2.out" "$H/$3.out" && cmp -s "$H/$2.rc" "$H/$3.rc"; then
		vm_ok "$1"
		return
	fi
	vm_bad "$1"
	{
		echo "exit status: $(cat "$H/$2.rc") and $(cat "$H/$3.rc")"
		sed 's/^/stderr: /' "$H/$3.err" | head -n 5
		diff "$H/$2.out" "$H/$3.out" | head -n 20
	} | note
}

# cross_checks ARCH: the host's checks on a guest's snapshot ($G/profile,
# $G/kallsyms), and on the s390x guest's own results ($G/*.out ...)
cross_checks() {
	H=$TMP/host-$1
	mkdir -p "$H"
	step=4 # profile=2
	if [ ! -s "$G/profile" ] || [ ! -s "$G/kallsyms" ]; then
		vm_bad "the guest sent its snapshot of /proc/profile and /proc/kallsyms"
		return
	fi
	vm_ok "the guest sent its snapshot of /proc/profile and /proc/kallsyms"
	p=$G/profile
	w0=$(od -An -tx1 -N4 "$p" | tr -d ' \n')
	if [ "$1" = s390x ]; then
		# a 64-bit big-endian kernel writes the high half of its step: 0
		check "the step word of the big-endian 64-bit kernel reads 0 (bytes $w0)" test "$w0" = 00000000
		{
			printf '\000\000\000\004'
			tail -c +5 "$p"
		} >"$G/profile.patched"
		ulp=$G/profile.patched
		modes="default -v -a -b -s -i"
	else
		check "the step word is $step, little-endian (bytes $w0)" test "$w0" = 04000000
		ulp=$p
		modes="default -v -a -b -s -i -n"
	fi
	host_run ul-total "$UL" -p "$ulp" -m "$G/kallsyms"
	t=$(total "$H/ul-total.out")
	echo "snapshot: $(wc -c <"$p") bytes, total ${t:-?} ticks (util-linux)" | note
	check "the snapshot has ticks (util-linux total > 0)" test "${t:-0}" -gt 0
	for m in $modes; do
		a=$m
		[ "$m" = default ] && a=
		host_run "ul$m" "$UL" -p "$ulp" -m "$G/kallsyms" $a
		host_run "ours$m" "$OURS" -p "$p" -m "$G/kallsyms" $a
		if [ "$1" = s390x ]; then
			same "ours $m on the raw snapshot: stdout and exit status of util-linux on the step-patched one" \
				"ul$m" "ours$m"
			host_run "ourspatched$m" "$OURS" -p "$ulp" -m "$G/kallsyms" $a
			same "ours $m on the step-patched snapshot: stdout and exit status of util-linux" \
				"ul$m" "ourspatched$m"
		else
			same "ours $m: stdout and exit status of util-linux" "ul$m" "ours$m"
		fi
	done
	# --exact against the independent model
	for o in "" -a -v -s -b; do
		host_run "model$o" "$MODEL" $o "$ulp" "$G/kallsyms"
		host_run "exact$o" "$OURS" --exact $o -p "$p" -m "$G/kallsyms"
		if [ "$1" = s390x ]; then
			same "ours --exact ${o:-(default)} on the raw snapshot: the model's report of the step-patched one" \
				"model$o" "exact$o"
			host_run "exactpatched$o" "$OURS" --exact $o -p "$ulp" -m "$G/kallsyms"
			same "ours --exact ${o:-(default)} on the step-patched snapshot: the model's report" \
				"model$o" "exactpatched$o"
		else
			same "ours --exact ${o:-(default)}: the model's report" "model$o" "exact$o"
		fi
	done
	[ "$1" = s390x ] && guest_checks
}

# guest_checks: the results of the readprofile built for s390x, run in the guest
guest_checks() {
	if [ ! -f "$G/live-i.rc" ]; then
		vm_bad "s390x readprofile ran in the guest"
		return
	fi
	check "s390x readprofile in the guest: -i on the live /proc/profile prints Sampling_step: $step" \
		test "$(cat "$G/live-i.rc"):$(cat "$G/live-i.out")" = "0:Sampling_step: $step"
	sed 's/^/-i stderr: /' "$G/live-i.err" | note
	# on the snapshot: the same as util-linux on the step-patched one, and as
	# ours on this host (stderr too)
	for m in default -v -a -b -s -i --exact; do
		t=${m#--}
		t=${t#-}
		cp "$G/snap-$t.out" "$H/guest$m.out" 2>/dev/null || : >"$H/guest$m.out"
		cp "$G/snap-$t.err" "$H/guest$m.err" 2>/dev/null || : >"$H/guest$m.err"
		cp "$G/snap-$t.rc" "$H/guest$m.rc" 2>/dev/null || echo missing >"$H/guest$m.rc"
		if [ "$m" = --exact ]; then
			same "s390x readprofile in the guest: --exact on the snapshot: the model's report" \
				model guest--exact
			same "s390x readprofile in the guest: --exact on the snapshot: as ours on this host" \
				exact guest--exact
		else
			same "s390x readprofile in the guest: $m on the snapshot: util-linux's on the step-patched one" \
				"ul$m" "guest$m"
			same "s390x readprofile in the guest: $m on the snapshot: as ours on this host" \
				"ours$m" "guest$m"
		fi
		[ "$m" = --exact ] && continue
		# the byte-order note is for the host only: the profile is native
		# there; and the guest's files are in /tmp/snap
		grep -v '^readprofile: Assuming reversed byte order' "$H/ours$m.err" |
			sed "s|$G/|/tmp/snap/|g" >"$H/ours$m.be.err"
		if cmp -s "$H/ours$m.be.err" "$H/guest$m.err"; then
			vm_ok "s390x readprofile in the guest: $m on the snapshot: stderr as ours on this host, less the byte-order note"
		else
			vm_bad "s390x readprofile in the guest: $m on the snapshot: stderr as ours on this host, less the byte-order note"
			diff "$H/ours$m.be.err" "$H/guest$m.err" | head -n 6 | note
		fi
	done
	# live report, against the host's report of a snapshot taken right after:
	# the ticks of the few moments between the two reads only add
	if [ -s "$G/profile2" ]; then
		host_run after "$OURS" -p "$G/profile2" -m "$G/kallsyms"
		tl=$(total "$G/live-report.out")
		ta=$(total "$H/after.out")
		bad=$(awk 'NR == FNR { if ($2 != "total") t[$2] = $1; next }
			$2 != "total" && !($2 in t && t[$2] >= $1) { print }' \
			"$H/after.out" "$G/live-report.out" | head -n 5)
		echo "live report: total ${tl:-?}; snapshot right after: total ${ta:-?}" | note
		if [ "$(cat "$G/live-report.rc")" = 0 ] && [ -n "$tl" ] && [ -n "$ta" ] &&
			[ "$tl" -gt 0 ] && [ "$tl" -le "$ta" ] && [ $((tl * 10)) -ge $((ta * 9)) ] &&
			[ -z "$bad" ]; then
			vm_ok "s390x readprofile in the guest: -m /proc/kallsyms on the live file: the host's report of a snapshot right after, less the ticks between (every symbol <=, total within 10%)"
		else
			vm_bad "s390x readprofile in the guest: -m /proc/kallsyms on the live file: the host's report of a snapshot right after, less the ticks between (every symbol <=, total within 10%)"
			{
				echo "exit status $(cat "$G/live-report.rc")"
				sed 's/^/stderr: /' "$G/live-report.err" | head -n 5
				echo "$bad"
			} | note
		fi
	else
		vm_bad "the guest sent a second snapshot (profile2)"
	fi
	tb=$(total "$G/r-before.out")
	ta=$(total "$G/r-after.out")
	echo "-r: total ${tb:-?} before, ${ta:-?} after" | note
	if [ "$(cat "$G/r.rc")" = 0 ] && [ ! -s "$G/r.err" ] && [ "${tb:-0}" -ge 100 ] &&
		[ -n "$ta" ] && [ $((ta * 10)) -lt "$tb" ]; then
		vm_ok "s390x readprofile in the guest: -r resets the live counters"
	else
		vm_bad "s390x readprofile in the guest: -r resets the live counters"
		sed 's/^/-r stderr: /' "$G/r.err" | head -n 3 | note
	fi
}

# current_checks LABEL: the sample types of the --pprof the guest sent
# (cpu.pprof after --enable, sched.pprof after --enable=schedule)
current_checks() {
	case $1 in
	current-schedule-*) f=sched want="schedule/calls" ;;
	*) f=cpu want="samples/count cpu/nanoseconds" ;;
	esac
	if ! command -v protoc >/dev/null 2>&1; then
		echo "SKIP $label: the sample types of --pprof: no protoc here"
		return
	fi
	got=$(gzip -dc "$G/$f.pprof" 2>/dev/null |
		protoc -I"$ROOT/tests/pprof" --decode=perftools.profiles.Profile profile.proto 2>/dev/null |
		awk '/^string_table:/ { s = substr($0, 15); gsub(/^"|"$/, "", s); st[n++] = s }
		    /^sample_type {/ { t = 1; ty = 0; u = 0 }
		    t && /^  type:/ { ty = $2 } t && /^  unit:/ { u = $2 }
		    t && /^}/ { l[m++] = ty " " u; t = 0 }
		    END { for (i = 0; i < m; i++) { split(l[i], a, " ")
			printf "%s%s/%s", i ? " " : "", st[a[1]], st[a[2]] } }')
	check "--pprof's sample types are $want (got: ${got:-none})" test "$got" = "$want"
}

for label in $labels; do
	log=$TMP/$label.log
	[ -f "$log" ] || : >"$log"
	G=$OUT/$label
	rm -rf "$G"
	mkdir -p "$G"
	tr -d '\r' <"$log" >"$G/console.log"
	case $label in
	amd64-*) a=amd64 ;;
	current-schedule-*) a=current-${label#current-schedule-} ;;
	*) a=$label ;;
	esac
	echo "$(cat "$TMP/$a.kpkg"): $(cat "$TMP/$label.cmd")" | note
	# results and notes
	sed -n 's/^@@RP //p' "$G/console.log" >"$TMP/$label.res"
	while IFS= read -r line; do
		case $line in
		PASS\ *) vm_ok "${line#PASS }" ;;
		FAIL\ *) vm_bad "${line#FAIL }" ;;
		NOTE\ *) echo "${line#NOTE }" | note ;;
		esac
	done <"$TMP/$label.res"
	# files sent out by the guest
	for f in $(sed -n 's/^@@RP BEGIN //p' "$G/console.log"); do
		sed -n "/^@@RP BEGIN $f\$/,/^@@RP END $f\$/p" "$G/console.log" | sed '1d;$d' |
			base64 -d 2>/dev/null | {
			case $f in
			*.gz) cat ;;
			*) gzip -dc ;;
			esac
		} >"$G/$f"
	done
	if grep -q '^@@RP DONE$' "$G/console.log"; then
		vm_ok "guest finished in $(cat "$TMP/$label.time")s"
		k=$(cat "$TMP/amd64.kernel" 2>/dev/null)
		case $label in
		amd64-none | amd64-schedule)
			if [ -s "$k.notes" ] && cmp -s "$k.notes" "$G/notes"; then
				vm_ok "the guest's /sys/kernel/notes is the .notes of the kernel image (build-id $(cat "$k.buildid"))"
			else
				vm_bad "the guest's /sys/kernel/notes is the .notes of the kernel image (build-id $(cat "$k.buildid" 2>/dev/null))"
			fi
			;;
		esac
		case $a in
		amd64) ;;
		current-*) current_checks "$label" ;;
		*) cross_checks "$a" ;;
		esac
	else
		vm_bad "guest finished (qemu exit status $(cat "$TMP/$label.rc" 2>/dev/null), 124 = timeout after ${TIMEOUT}s)"
		echo "---- last 40 lines of the guest console ($label) ----"
		tail -n 40 "$G/console.log"
		sed 's/^/qemu: /' "$TMP/$label.qemu" | tail -n 5
		echo "----"
	fi
done
echo "check-vm: took $(($(date +%s) - start))s; console logs and snapshots in $OUT"
summary
