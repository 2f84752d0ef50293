#!/bin/sh
# run.sh - the running kernel's side, on a machine without a profiling
# kernel: the default map chain and its notices, the hints after a missing
# /proc/profile.  Each case runs readprofile with READPROFILE_TEST_ROOT set
# to a made-up root directory (its /boot, /proc, /lib/modules, ...), and
# compares stdout, stderr (the root's path taken out) and the exit status
# word for word.
#
#   RP=/abs/readprofile [RP_WRAP='valgrind -q --error-exitcode=99'] \
#       sh tests/kernel/run.sh
#
# Prints one FAIL line (and a diff) per failing case, and last
# `kernel: N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=kernel
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"

. "$TOP/tests/libc.sh"
libc_setup
REL=$(uname -r)
IN=$TOP/fixtures/inputs

# root NAME: a fresh, empty made-up root in $ROOT
root() {
	ROOT=$TMP/root-$1
	rm -rf "$ROOT"
	mkdir -p "$ROOT/boot" "$ROOT/proc"
}

# expect NAME RC OUT ARGS...: run readprofile ARGS under $ROOT; exit
# status RC, stdout equal to file OUT (or empty for -), stderr equal to
# this function's standard input, with the root's path removed.
expect() {
	_n=$1 _rc=$2 _out=$3
	shift 3
	cat > "$TMP/exp.err"
	[ $(((pass + fail + 1) % 10)) != 0 ] ||
		echo "... $((pass + fail + 1)) checks so far"
	(cd "$TMP" && READPROFILE_TEST_ROOT=$ROOT exec $RP_WRAP "$RP" "$@" \
	    </dev/null >"$TMP/out" 2>"$TMP/err.raw")
	rc=$?
	sed "s|$ROOT||g" "$TMP/err.raw" > "$TMP/err"
	bad=
	[ -z "${UNWRAP:-}" ] || unwrap
	[ "$rc" = "$_rc" ] || bad="$bad exit $rc, expected $_rc;"
	if [ "$_out" = - ]; then
		[ -s "$TMP/out" ] && bad="$bad stdout not empty;"
	else
		cmp -s "$_out" "$TMP/out" || bad="$bad stdout differs;"
	fi
	cmp -s "$TMP/exp.err" "$TMP/err" || bad="$bad stderr differs;"
	if [ -z "$bad" ]; then
		ok
		return
	fi
	bad "$_n:$bad"
	diff -u "$TMP/exp.err" "$TMP/err" | sed -n '3,20p'
}

# unwrap: a hint is wrapped at 80 columns, each line after the first
# indented under its text: no line of $TMP/err.raw is wider (but one that
# holds the root's path, a file name), and $TMP/err gets each hint joined
# back into one line, to be compared whole.
unwrap() {
	awk -v root="$ROOT" 'index($0, root) == 0 && length($0) > 80 {
		printf " line %d is %d columns;", NR, length($0) }' \
	    "$TMP/err.raw" > "$TMP/wide"
	[ -s "$TMP/wide" ] && bad="$bad$(cat "$TMP/wide")"
	awk -v p="${NAME:-readprofile}:       " 'index($0, p) == 1 &&
	    substr($0, length(p) + 1, 1) != " " { $0 = substr($0, length(p) + 1)
		line = line " " $0; next }
	     { if (NR > 1) print line; line = $0 }
	     END { if (NR) print line }' "$TMP/err" > "$TMP/err.joined"
	mv "$TMP/err.joined" "$TMP/err"
}

# verdict WHAT: the status of the command just run counted; WHAT said
# when it failed
verdict() {
	if [ $? = 0 ]; then
		ok
	else
		bad "$1"
	fi
}

# run_root OUT ARGS...: readprofile ARGS under $ROOT, stdout and stderr to OUT
run_root() {
	_o=$1
	shift
	(cd "$TMP" && READPROFILE_TEST_ROOT=$ROOT exec $RP_WRAP "$RP" "$@" \
	    </dev/null >"$_o" 2>&1)
}

# --- the default map chain ---------------------------------------------
# The places, in order, and what a stub says.
M1=/boot/System.map
M2=/boot/System.map-$REL
M3=/usr/lib/debug/boot/System.map-$REL
MU=/usr/lib/modules/$REL/System.map
M4=/lib/modules/$REL/System.map
V1=/usr/lib/debug/boot/vmlinux-$REL
VU=/usr/lib/debug/usr/lib/modules/$REL/vmlinux
V2=/usr/lib/debug/lib/modules/$REL/vmlinux
KS=/proc/kallsyms
PKG=linux-image-$REL-dbg
RICH=$TOP/fixtures/cases/rich/expected.out
# missing PLACE...: the notice's line for each PLACE, found missing
missing() {
	for _p; do
		echo "readprofile:   $_p: missing"
	done
}
# put FILE PLACE: copy FILE to PLACE under $ROOT
put() {
	mkdir -p "$(dirname "$ROOT$2")" && cp "$1" "$ROOT$2"
}
stub() {
	mkdir -p "$(dirname "$ROOT$1")"
	echo "ffffffffffffffff B The real System.map is in the $PKG package" \
	    > "$ROOT$1"
}
# A live profile: the made-up root's /proc/profile.
live() {
	put "$IN/rich.profile" /proc/profile
}

root empty
rm -r "$ROOT/boot"
expect "no map at all, a copied profile" 1 - -p "$IN/rich.profile" <<EOF
readprofile: no usable symbol map:
$(missing $M1 $M2 $M3 $MU $M4 $V1 $VU $V2 $KS)
readprofile: $IN/rich.profile is not this kernel's /proc/profile: pass the map of the kernel it came from with -m
EOF
live
expect "no map at all, the live profile" 1 - <<EOF
readprofile: no usable symbol map:
$(missing $M1 $M2 $M3 $MU $M4 $V1 $VU $V2 $KS)
readprofile: pass a map with -m: the kernel's System.map, or a copy of /proc/kallsyms made as root
EOF

root first
live
put "$IN/rich.map" $M1
expect "/boot/System.map" 0 "$RICH" </dev/null
root versioned
live
put "$IN/rich.map" $M2
expect "/boot/System.map-R" 0 "$RICH" </dev/null
root debug
live
stub $M1
stub $M2
put "$IN/rich.map" $M3
expect "Debian: stubs in /boot, the -dbg package's map" 0 "$RICH" </dev/null
root fedora
live
put "$IN/rich.map" $M4
expect "Fedora: /lib/modules/R/System.map" 0 "$RICH" </dev/null
root usrlib
live
put "$IN/rich.map" $MU
expect "/usr/lib/modules/R/System.map" 0 "$RICH" </dev/null
# R is the release the root says (/proc/sys/kernel/osrelease), as uname -r
# on the kernel it stands for
root release
live
mkdir -p "$ROOT/proc/sys/kernel"
echo 7.2.13+deb14-amd64 > "$ROOT/proc/sys/kernel/osrelease"
put "$IN/rich.map" /usr/lib/modules/7.2.13+deb14-amd64/System.map
expect "/usr/lib/modules/R/System.map, R the root's osrelease" 0 "$RICH" </dev/null
# /usr/lib/modules/R before /lib/modules/R: a map of no text at the
# second place is not reached
root usrfirst
live
put "$IN/rich.map" $MU
printf '%s\n' "ffffffff80ff0000 D data" > "$TMP/nodata.map"
put "$TMP/nodata.map" $M4
expect "/usr/lib/modules/R/System.map before /lib/modules/R's" 0 "$RICH" </dev/null

root kallsyms
live
stub $M2
mkdir -p "$ROOT$M3"
mkdir -p "$(dirname "$ROOT$M4")"
printf '%s\n' "ffffffff80ff0000 D data" > "$ROOT$M4"
put "$IN/rich.map" $KS
expect "only kallsyms: each place said" 0 "$RICH" <<EOF
readprofile: using $KS; no System.map was usable:
readprofile:   $M1: missing
readprofile:   $M2: a stub; the real map is in the $PKG package
readprofile:   $M3: unreadable ($(strerror EISDIR))
readprofile:   $MU: missing
readprofile:   $M4: no _stext
$(missing $V1 $VU $V2)
EOF

root hidden
live
stub $M2
sed 's/^[0-9a-f]*/0000000000000000/' "$IN/rich.map" > "$ROOT$KS"
expect "kallsyms hidden, the live profile" 1 - <<EOF
readprofile: no usable symbol map:
readprofile:   $M1: missing
readprofile:   $M2: a stub; the real map is in the $PKG package
$(missing $M3 $MU $M4 $V1 $VU $V2)
readprofile:   $KS: symbol addresses are hidden (all zero)
readprofile: $KS: symbol addresses are hidden (all zero, kernel.kptr_restrict); run as root, or allow them with: sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1
EOF
expect "kallsyms hidden, a copied profile: -m is the fix" 1 - -p "$IN/rich.profile" <<EOF
readprofile: no usable symbol map:
readprofile:   $M1: missing
readprofile:   $M2: a stub; the real map is in the $PKG package
$(missing $M3 $MU $M4 $V1 $VU $V2)
readprofile:   $KS: symbol addresses are hidden (all zero)
readprofile: $IN/rich.profile is not this kernel's /proc/profile: pass the map of the kernel it came from with -m
EOF
# however the hidden kallsyms is given (a copy of it, -m): util-linux's
# line, then what it is
HIDDEN="$KS: symbol addresses are hidden (all zero, kernel.kptr_restrict); run as root, or allow them with: sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1"
for o in "" -a "-i -v" --top=3 --json; do
	UNWRAP=1 expect "kallsyms hidden, given with -m${o:+, $o}" 1 - -m "$ROOT$KS" $o <<EOF
readprofile: can't find "_stext" in $KS
readprofile: hint: $HIDDEN
EOF
done
UNWRAP=1 expect "kallsyms hidden, given with -m, a copied profile" 1 - \
    -p "$IN/rich.profile" -m "$ROOT$KS" <<EOF
readprofile: can't find "_stext" in $KS
readprofile: hint: $HIDDEN
EOF
rm "$ROOT$KS"
expect "a stub and no kallsyms: install the -dbg package" 1 - <<EOF
readprofile: no usable symbol map:
readprofile:   $M1: missing
readprofile:   $M2: a stub; the real map is in the $PKG package
$(missing $M3 $MU $M4 $V1 $VU $V2 $KS)
readprofile: install $PKG for the real map, or pass one with -m
EOF

# This machine's own places (no test root): when it lists them, the five
# System.map places, in order, each named once.
(cd "$TMP" && exec $RP_WRAP "$RP" -p "$IN/rich.profile" </dev/null \
    >/dev/null 2>"$TMP/own.err")
sed -n 's/^readprofile:   \(.*\): [a-z].*/\1/p' "$TMP/own.err" | head -n 5 > "$TMP/own"
if [ -s "$TMP/own" ]; then
	printf '%s\n' "$M1" "$M2" "$M3" "$MU" "$M4" > "$TMP/own.exp"
	cmp -s "$TMP/own.exp" "$TMP/own"
	verdict "this machine's default map places, in order:
$(diff -u "$TMP/own.exp" "$TMP/own" | sed -n '3,12p')"
else
	skipped "this machine's default map places: a System.map here is usable"
fi

# As a user who may not read a root-only map (Ubuntu's /boot/System.map-*).
# A binary in a checkout user nobody cannot reach (under /root) is copied
# into the scratch directory for this.
chmod 755 "$TMP"
nobody_runs() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- /bin/sh -c \
	    'cd "$1" && "$2" -V' sh "$TMP" "$1" >/dev/null 2>&1
}
RP_SAVED=$RP
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    ! nobody_runs "$RP" && mkdir -p "$TMP/copy" &&
    cp "$RP" "$TMP/copy/readprofile"; then
	chmod 755 "$TMP/copy" "$TMP/copy/readprofile"
	RP=$TMP/copy/readprofile	# messages start with the name it runs by
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    nobody_runs "$RP"; then
	root ubuntu
	live
	put "$IN/rich.map" $M2
	chmod 600 "$ROOT$M2"
	put "$IN/rich.map" $KS
	chmod 644 "$ROOT$KS" "$ROOT/proc/profile"
	chmod -R a+rX "$ROOT"
	chmod 600 "$ROOT$M2"
	RP_WRAP_SAVED=$RP_WRAP
	RP_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups -- $RP_WRAP"
	expect "Ubuntu: a root-only System.map-R, as a user" 0 "$RICH" <<EOF
readprofile: using $KS; no System.map was usable:
readprofile:   $M1: missing
readprofile:   $M2: unreadable ($(strerror EACCES))
$(missing $M3 $MU $M4 $V1 $VU $V2)
EOF
	RP_WRAP=$RP_WRAP_SAVED
else
	skipped "a root-only System.map as a user: needs root, setpriv, and a directory user nobody can reach"
fi
RP=$RP_SAVED

# --- build-ids: an ELF map against the running kernel's ------------------
# Two builds of one tiny kernel image (tests/elf/kernel.s), build-ids A and
# B; the made-up /sys/kernel/notes is A's note.  The report itself is the
# ELF reader's (tests/elf): here, the warnings, notices and -i -v lines.
KA=0123456789abcdef0123456789abcdef01234567
KB=fedcba9876543210fedcba9876543210fedcba98
if command -v as >/dev/null 2>&1 && command -v ld >/dev/null 2>&1 &&
    command -v objcopy >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 &&
    as -L -o "$TMP/k.o" "$TOP/tests/elf/kernel.s" 2>/dev/null &&
    ld --build-id=0x$KA -e _stext -o "$TMP/vmlinux-a" "$TMP/k.o" 2>/dev/null &&
    ld --build-id=0x$KB -e _stext -o "$TMP/vmlinux-b" "$TMP/k.o" 2>/dev/null &&
    objcopy -O binary --only-section=.note.gnu.build-id "$TMP/vmlinux-a" \
    "$TMP/notes-a"; then
	# 56 bytes of text, step 4: 14 counters
	printf '4 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n' > "$TMP/kprof.words"
	sh "$TOP/tests/golden/mkprof.sh" "$TMP/kprof.words" "$TMP/kprof"
	nm -n "$TMP/vmlinux-a" | grep -v -e ' [aNUw] ' -e ' \$' -e ' \.L' \
	    -e ' __crc_' -e ' __kstrtab_' -e ' __kstrtabns_' -e ' L0$' > "$TMP/kmap"
	"$RP" -p "$TMP/kprof" -m "$TMP/vmlinux-a" > "$TMP/kref" 2>&1
	[ "$(grep -c total "$TMP/kref")" = 1 ] || echo "FAIL no reference report for the build-id cases"
	bidroot() { # bidroot [nonotes]
		root bid
		mkdir -p "$ROOT/sys/kernel"
		[ "${1:-}" = nonotes ] || cp "$TMP/notes-a" "$ROOT/sys/kernel/notes"
		cp "$TMP/kprof" "$ROOT/proc/profile"
	}
	bidroot
	expect "-m the running kernel's build" 0 "$TMP/kref" -m "$TMP/vmlinux-a" </dev/null
	expect "-m another build: a warning naming both" 0 "$TMP/kref" -m "$TMP/vmlinux-b" <<EOF
readprofile: warning: $TMP/vmlinux-b has build-id $KB, but the running kernel's is $KA (/sys/kernel/notes): wrong map file?
EOF
	expect "-m another build, a copied profile: no warning" 0 "$TMP/kref" \
	    -p "$TMP/kprof" -m "$TMP/vmlinux-b" </dev/null
	expect "-m a text map: nothing to compare" 0 "$TMP/kref" -m "$TMP/kmap" </dev/null
	for b in a:"$KA (matches the running kernel's)" b:"$KB (differs from the running kernel's)"; do
		run_root "$TMP/iv" -i -v -m "$TMP/vmlinux-${b%%:*}"
		bad=
		grep -Fqx "Kernel_build_id: $KA (/sys/kernel/notes)" "$TMP/iv" || bad="$bad no Kernel_build_id;"
		grep -Fqx "Map_build_id: ${b#*:}" "$TMP/iv" || bad="$bad no Map_build_id;"
		run_root "$TMP/ivsnap" -i -v -p "$TMP/kprof" -m "$TMP/vmlinux-${b%%:*}"
		grep -q Kernel_build_id "$TMP/ivsnap" && bad="$bad Kernel_build_id for a snapshot;"
		[ "$(grep Map_build_id "$TMP/ivsnap")" = "Map_build_id: $(echo "${b#*:}" | cut -d' ' -f1)" ] ||
			bad="$bad snapshot Map_build_id;"
		[ -z "$bad" ]
		verdict "-i -v with build ${b%%:*}:$bad
$(cat "$TMP/iv" "$TMP/ivsnap" | sed 's/^/    /')"
	done

	# The default chain: the debug packages' vmlinux after the System.maps,
	# the running kernel's build first.
	bidroot
	put "$TMP/vmlinux-b" "$V1"
	put "$TMP/vmlinux-a" "$V2"
	expect "default: the vmlinux of the running build" 0 "$TMP/kref" <<EOF
readprofile: using $V2 (its build-id matches the running kernel's); no System.map was usable:
$(missing $M1 $M2 $M3 $MU $M4)
readprofile:   $V1: build-id $KB, not the running kernel's $KA
$(missing $VU)
EOF
	bidroot
	put "$TMP/vmlinux-a" "$V1"
	stub "$M2"
	expect "default: the first vmlinux, of the running build" 0 "$TMP/kref" <<EOF
readprofile: using $V1 (its build-id matches the running kernel's); no System.map was usable:
readprofile:   $M1: missing
readprofile:   $M2: a stub; the real map is in the $PKG package
$(missing $M3 $MU $M4)
EOF
	bidroot
	put "$TMP/vmlinux-b" "$V1"
	put "$TMP/kmap" "$KS"
	expect "default: another build's vmlinux, then kallsyms" 0 "$TMP/kref" <<EOF
readprofile: using $KS; no System.map was usable:
$(missing $M1 $M2 $M3 $MU $M4)
readprofile:   $V1: build-id $KB, not the running kernel's $KA
$(missing $VU $V2)
EOF
	rm "$ROOT$KS"
	expect "default: only another build's vmlinux" 0 "$TMP/kref" <<EOF
readprofile: using $V1 (its build-id is NOT the running kernel's: the report is likely wrong); nothing else was usable:
$(missing $M1 $M2 $M3 $MU $M4 $VU $V2 $KS)
EOF
	bidroot nonotes
	put "$TMP/vmlinux-b" "$V2"
	expect "default: a vmlinux, no /sys/kernel/notes" 0 "$TMP/kref" <<EOF
readprofile: using $V2 (its build-id not checked: /sys/kernel/notes gave none); no System.map was usable:
$(missing $M1 $M2 $M3 $MU $M4 $V1 $VU)
EOF
	# any place holding an ELF file of another build comes last
	bidroot
	put "$TMP/vmlinux-b" "$M4"
	put "$TMP/vmlinux-a" "$V2"
	expect "default: another build's ELF file at a System.map place" 0 "$TMP/kref" <<EOF
readprofile: using $V2 (its build-id matches the running kernel's); no System.map was usable:
$(missing $M1 $M2 $M3 $MU)
readprofile:   $M4: build-id $KB, not the running kernel's $KA
$(missing $V1 $VU)
EOF
else
	echo "SKIP build-ids: no as, ld, objcopy or nm"
fi

# --- a default map that does not fit: the sizes, and -m -----------------
# Step 4, 8 counters (32 bytes of text); the map's text is 48 bytes.
root wide
printf '\004\000\000\000\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000\005\000\000\000\006\000\000\000\007\000\000\000\010\000\000\000' \
    > "$ROOT/proc/profile"
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T f' \
    '0000000000001008 T g' '0000000000001010 t h' '0000000000001030 T _etext' \
    > "$ROOT$M1"
# The report as it was made up to h (util-linux's lines too), then the
# error, the sizes and the line that says the report is incomplete.
printf '%6d %-40s %8.4f\n' 1 f 0.125 5 g 0.625 > "$TMP/wide.out"
expect "out of range with the default map: sizes and -m" 1 "$TMP/wide.out" <<EOF
readprofile: the profile is shorter than the map's text: its 8 counters at step 4 cover 32 bytes, but _etext - _stext in $M1 is 48 bytes (a cut copy of the profile, or the map of another kernel)
readprofile: profile address out of range. Wrong map file?
readprofile: no -m: $M1 belongs to the running kernel; a profile copied from another machine or boot needs the map of the kernel it came from, given with -m
readprofile: the report above is incomplete
EOF
expect "out of range with -m: only the sizes" 1 "$TMP/wide.out" -m "$ROOT$M1" <<EOF
readprofile: the profile is shorter than the map's text: its 8 counters at step 4 cover 32 bytes, but _etext - _stext in $M1 is 48 bytes (a cut copy of the profile, or the map of another kernel)
readprofile: profile address out of range. Wrong map file?
readprofile: the report above is incomplete
EOF

# --- no /proc/profile: util-linux's line, then a hint -----------------
CFG=/boot/config-$REL
CFGU=/usr/lib/modules/$REL/config
CFGS="$CFG, $CFGU, /lib/modules/$REL/config, /proc/config.gz"
CMD=/proc/cmdline
NOPROF="readprofile: /proc/profile: $(strerror ENOENT)"
ADD="add profile=2 to the kernel command line (with GRUB: to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run update-grub) and reboot"
# hint NAME ROOT-SETUP HINT: readprofile, -i, -r, -M 2 and -a -v all give
# util-linux's line and HINT, exit 1, empty stdout
hint() {
	_hn=$1 _hh=$3
	root hint
	eval "$2"
	for _o in "" -i -r "-M 2" "-a -v"; do
		UNWRAP=1 expect "no /proc/profile, $_hn${_o:+, $_o}" 1 - $_o <<EOF
$NOPROF
readprofile: hint: $_hh
EOF
	done
}
hint "nothing known" "rm \"\$ROOT$CMD\" 2>/dev/null; :" \
    "/proc/profile needs a kernel built with CONFIG_PROFILING=y and booted with profile=N (for example profile=2 on its command line)"
hint "CONFIG_PROFILING=y, no profile=" \
    "echo 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet' > \"\$ROOT$CMD\"; printf '%s\n' '# CONFIG_PROFILING_X is not set' CONFIG_PROFILING=y > \"\$ROOT$CFG\"" \
    "the kernel has CONFIG_PROFILING=y ($CFG) but was booted without profile=N ($CMD): $ADD"
hint "no config, no profile=" \
    "echo 'root=/dev/sda1 ro prof=2 noprofile=1' > \"\$ROOT$CMD\"" \
    "the kernel was booted without profile=N ($CMD), and must have CONFIG_PROFILING=y (none of $CFGS can be read to check): $ADD"
hint "CONFIG_PROFILING not set" \
    "echo 'root=/dev/sda1 ro' > \"\$ROOT$CMD\"; printf '%s\n' '# CONFIG_PROFILING is not set' > \"\$ROOT$CFG\"" \
    "this kernel was built without CONFIG_PROFILING ($CFG): /proc/profile needs a kernel built with it and booted with profile=N"
hint "profile=2, no config" \
    "echo 'root=/dev/sda1 profile=2 ro' > \"\$ROOT$CMD\"" \
    "the kernel was booted with profile= ($CMD), so it lacks CONFIG_PROFILING (none of $CFGS can be read to check)"
hint "CONFIG_PROFILING not set, in /usr/lib/modules/R/config" \
    "echo 'root=/dev/sda1 ro' > \"\$ROOT$CMD\"; mkdir -p \"\$ROOT${CFGU%/*}\"; printf '%s\n' '# CONFIG_PROFILING is not set' > \"\$ROOT$CFGU\"" \
    "this kernel was built without CONFIG_PROFILING ($CFGU): /proc/profile needs a kernel built with it and booted with profile=N"
hint "CONFIG_PROFILING=y in /proc/config.gz, no profile=" \
    "echo 'ro quiet' > \"\$ROOT$CMD\"; echo CONFIG_PROFILING=y | gzip -c > \"\$ROOT/proc/config.gz\"" \
    "the kernel has CONFIG_PROFILING=y (/proc/config.gz) but was booted without profile=N ($CMD): $ADD"
hint "/boot's config first: CONFIG_PROFILING=y there, not set in /usr/lib/modules" \
    "echo 'ro quiet' > \"\$ROOT$CMD\"; echo CONFIG_PROFILING=y > \"\$ROOT$CFG\"; mkdir -p \"\$ROOT${CFGU%/*}\"; echo '# CONFIG_PROFILING is not set' > \"\$ROOT$CFGU\"" \
    "the kernel has CONFIG_PROFILING=y ($CFG) but was booted without profile=N ($CMD): $ADD"
hint "profile=2 and CONFIG_PROFILING=y" \
    "echo 'profile=2' > \"\$ROOT$CMD\"; echo CONFIG_PROFILING=y > \"\$ROOT$CFG\"" \
    "the kernel has CONFIG_PROFILING=y ($CFG) and profile= on its command line ($CMD): is /proc mounted?"
# A kernel with CONFIG_PROFILING has /sys/kernel/profiling: reading 0, the
# hint is how to start profiling now (whatever /proc/cmdline and the config
# say); reading non-zero, profiling is on and /proc is what is missing.
SYS=/sys/kernel/profiling
MEM="its counters take 4 bytes of kernel memory for every 2^N bytes of kernel text (profile=N; with 2, as much memory as the kernel's text), until the next boot"
START="profiling is off ($SYS reads 0); start it now, as root, with readprofile --enable (or: echo 2 > $SYS): no reboot is needed; it works once per boot, and $MEM"
hint "$SYS reads 0" \
    "mkdir -p \"\$ROOT/sys/kernel\"; echo 0 > \"\$ROOT$SYS\"" "$START"
hint "$SYS reads 0, CONFIG_PROFILING=y, no profile=" \
    "mkdir -p \"\$ROOT/sys/kernel\"; echo 0 > \"\$ROOT$SYS\"; echo 'ro quiet' > \"\$ROOT$CMD\"; echo CONFIG_PROFILING=y > \"\$ROOT$CFG\"" \
    "$START"
hint "$SYS reads 2" \
    "mkdir -p \"\$ROOT/sys/kernel\"; echo 2 > \"\$ROOT$SYS\"" \
    "$SYS reads 2 (profiling is on, counting schedule() calls), yet /proc/profile is missing: is /proc mounted?"
hint "$SYS reads 7" \
    "mkdir -p \"\$ROOT/sys/kernel\"; echo 7 > \"\$ROOT$SYS\"" \
    "$SYS reads 7 (profiling is on), yet /proc/profile is missing: is /proc mounted?"
hint "$SYS holds junk: the other hints" \
    "mkdir -p \"\$ROOT/sys/kernel\"; echo x > \"\$ROOT$SYS\"; rm -f \"\$ROOT$CMD\"" \
    "/proc/profile needs a kernel built with CONFIG_PROFILING=y and booted with profile=N (for example profile=2 on its command line)"

# --- --enable: /sys/kernel/profiling written -----------------------------
# sysroot VALUE: a made-up root whose switch reads VALUE (none when empty)
sysroot() {
	root enable
	mkdir -p "$ROOT/sys/kernel"
	[ -z "$1" ] || printf '%s' "$1" > "$ROOT$SYS"
}
sysroot 0
for a in fast 2x schedule2 ,2 'schedule,' kvm,31 sleep,-1 -1 '' 0x4 \
    schedule,0x2 4.0 1e1 '4 ' 0031 ' -1'; do
	expect "--enable='$a' refused" 1 - "--enable=$a" <<EOF
readprofile: --enable=$a: not what the kernel's profile= takes: N, schedule[,N], sleep[,N] or kvm[,N], N a decimal number from 0 to 30 (each counter covers 2^N bytes of kernel text)
EOF
done
[ "$(cat "$ROOT$SYS")" = 0 ]
verdict "a refused --enable wrote $SYS"
if [ "$(id -u)" = 0 ]; then
	for m in 1:"CPU ticks" 2:"schedule() calls" 4:"KVM exits" 9:"something this readprofile does not know"; do
		sysroot "${m%%:*}"
		expect "--enable, already on (${m%%:*})" 1 - --enable=kvm <<EOF
readprofile: profiling is already on ($SYS reads ${m%%:*}: counting ${m#*:}): the kernel starts it once per boot, so its mode cannot change until the next boot; readprofile reads it as it is
EOF
	done
	sysroot ""
	rmdir "$ROOT/sys/kernel"
	expect "--enable, no $SYS" 1 - --enable <<EOF
readprofile: $SYS: $(strerror ENOENT): this kernel was built without CONFIG_PROFILING (or /sys is not mounted), so profiling cannot start without a kernel that has it
EOF
	# profile=sleep is gone from Linux 6.11 on (and from the stable
	# trees): the kernel takes the word and starts nothing
	sysroot 0
	live
	expect "--enable=sleep: removed in 6.11" 1 - --enable=sleep <<EOF
readprofile: the kernel did not start profiling with sleep ($SYS cannot be read): profile=sleep was removed in Linux 6.11, and in the stable trees too, so recent kernels do not count sleep
EOF
	# The made-up switch reads back what was written: 1 is CPU ticks.
	sysroot 0
	expect "--enable=1, no /proc/profile after it" 1 - --enable=1 <<EOF
readprofile: the kernel did not start profiling with 1 ($SYS reads non-zero, but there is no /proc/profile)
EOF
	sysroot 0
	live
	printf '%s\n' "Started: 1" "Counting: CPU ticks" \
	    "Sampling_step: $(od -An -tu4 -N4 "$IN/rich.profile" | tr -d ' ')" \
	    "Kernel_memory: $(($(wc -c < "$IN/rich.profile") - 4)) bytes, until the next boot" \
	    > "$TMP/enable.out"
	expect "--enable=1" 0 "$TMP/enable.out" --enable=1 </dev/null
	[ "$(cat "$ROOT$SYS")" = 1 ]
	verdict "--enable=1 wrote '$(cat "$ROOT$SYS")'"
	for a in "" =2 =schedule,3 =kvm; do
		sysroot 0
		live
		(cd "$TMP" && READPROFILE_TEST_ROOT=$ROOT $RP_WRAP "$RP" --enable$a \
		    </dev/null >/dev/null 2>&1)
		w=${a#=}
		[ "$(cat "$ROOT$SYS")" = "${w:-2}" ]
		verdict "--enable$a wrote '$(cat "$ROOT$SYS")'"
	done
	# Numbers are decimal (man page, NUMBERS), and written as the kernel
	# reads them in decimal: it takes 010 for octal 8, and 08 for 0.
	for a in 08:8 030:30 schedule,08:schedule,8 ' +4':4 kvm,00:kvm,0 \
	    sleep,012:sleep,12; do
		sysroot 0
		live
		(cd "$TMP" && READPROFILE_TEST_ROOT=$ROOT $RP_WRAP "$RP" \
		    "--enable=${a%%:*}" </dev/null >"$TMP/enable.out" 2>&1)
		# the made-up switch reads back what was written: only a
		# number reads as a mode, and gets as far as "Started:"
		case ${a#*:} in
		*,*) said="Started: ${a#*:}" ;;
		*) said=$(head -n 1 "$TMP/enable.out") ;;
		esac
		[ "$(cat "$ROOT$SYS")" = "${a#*:}" ] &&
		    [ "$said" = "Started: ${a#*:}" ]
		verdict "--enable=${a%%:*} wrote '$(cat "$ROOT$SYS")', said '$(head -n 1 "$TMP/enable.out")'"
	done
else
	echo "SKIP --enable as root: not root"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups -- "$RP" -V >/dev/null 2>&1; then
	sysroot 0
	chmod -R a+rX "$ROOT"
	RP_WRAP_SAVED=$RP_WRAP
	RP_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups -- $RP_WRAP"
	expect "--enable as a user" 1 - --enable <<EOF
readprofile: --enable needs root: starting profiling takes kernel memory until the next boot (as root: readprofile --enable=2, or echo 2 > $SYS)
EOF
	RP_WRAP=$RP_WRAP_SAVED
	[ "$(cat "$ROOT$SYS")" = 0 ]
	verdict "--enable as a user wrote $SYS"
else
	echo "SKIP --enable as a user: needs root and setpriv"
fi

# --- what the counters count: -i -v, --json, --top; classic unchanged ----
for m in 1:"CPU ticks" 2:"schedule() calls" 3:"milliseconds of uninterruptible sleep" 4:"KVM exits"; do
	case ${m%%:*} in	# --top's column of counts, named for them
	1) col=ticks ;; 2) col=calls ;; 3) col=ms ;; 4) col=exits ;;
	esac
	sysroot "${m%%:*}"
	live
	put "$IN/rich.map" $M1
	expect "mode ${m%%:*}: the classic report unchanged" 0 "$RICH" </dev/null
	run_root "$TMP/iv" -i -v
	run_root "$TMP/js" --json
	run_root "$TMP/top" --top 2
	run_root "$TMP/ivsnap" -p "$IN/rich.profile" -i -v
	run_root "$TMP/jssnap" -p "$IN/rich.profile" --json
	bad=
	grep -Fqx "Counting: ${m#*:}" "$TMP/iv" || bad="$bad -i -v;"
	grep -Fq "\"counting\":\"${m#*:}\"," "$TMP/js" || bad="$bad --json;"
	[ "$(head -n 1 "$TMP/top")" = "Counting: ${m#*:}" ] || bad="$bad --top;"
	[ "$(wc -l < "$TMP/top")" = 5 ] || bad="$bad --top lines;"
	[ "$(sed -n 2p "$TMP/top")" = "$(printf '%6s %8s %7s %s' "$col" load share function)" ] ||
	    bad="$bad --top header;"
	run_root "$TMP/topv" --top 2 -v
	[ "$(sed -n 2p "$TMP/topv")" = "$(printf '%-16s %6s %8s %7s %s' address "$col" load share function)" ] ||
	    bad="$bad --top -v header;"
	run_root "$TMP/topsnap" -p "$IN/rich.profile" --top 2
	[ "$(head -n 1 "$TMP/topsnap")" = "$(printf '%6s %8s %7s %s' ticks load share function)" ] ||
	    bad="$bad --top on a snapshot;"
	grep -q Counting "$TMP/ivsnap" && bad="$bad -i -v on a snapshot;"
	grep -Fq '"counting":null,' "$TMP/jssnap" || bad="$bad --json on a snapshot;"
	[ -z "$bad" ]
	verdict "mode ${m%%:*}, what the counters count:$bad"
done

# --- the last counter: text only from 6.11 (--exact), *unknown* before ----
# rich: step 8, 24 counters, the last (6 ticks) is tail_fn's last 8 bytes
# [0xb8, 0xc0).  Up to 6.10 the kernel clamps ticks outside the text into
# it: *unknown*, as for a snapshot.  From 6.11 it drops them: tail_fn's,
# 4 + 6 = 10 ticks over 32 bytes, load 0.3125; total 37 + 6 = 43 over 192
# bytes, 0.2240.
"$RP" --exact -p "$IN/rich.profile" -m "$IN/rich.map" > "$TMP/exact-old"
sed -e 's/^     4 tail_fn                                    0.1250$/    10 tail_fn                                    0.3125/' \
    -e 's/^     6 \*unknown\*$/     0 *unknown*/' \
    -e 's/^    37 total                                      0.1927$/    43 total                                      0.2240/' \
    "$TMP/exact-old" > "$TMP/exact-new"
cmp -s "$TMP/exact-old" "$TMP/exact-new" &&
	echo "FAIL the --exact reference of rich changed: the expected lines no longer apply"
for r in 6.10.14 6.11.0-1-amd64 6.12.5 7.0.0 5.19.0 junk; do
	sysroot 1
	live
	put "$IN/rich.map" $M1
	mkdir -p "$ROOT/proc/sys/kernel"
	echo "$r" > "$ROOT/proc/sys/kernel/osrelease"
	case $r in
	6.1[1-9]*|7.*) want=$TMP/exact-new meaning="text (kernel $r: from 6.11 ticks outside the text are dropped; --exact credits it to its function)" ;;
	junk) want=$TMP/exact-old meaning="unknown (not the running kernel's profile: up to 6.10 it also counts ticks outside the text, from 6.11 it is text only; *unknown*)" ;;
	*) want=$TMP/exact-old meaning="text and every tick outside it (kernel $r: up to 6.10 they are clamped into it; *unknown*)" ;;
	esac
	expect "--exact, live kernel $r" 0 "$want" --exact </dev/null
	expect "classic, live kernel $r: unchanged" 0 "$RICH" </dev/null
	expect "--exact, kernel $r, a snapshot: *unknown*" 0 "$TMP/exact-old" \
	    --exact -p "$IN/rich.profile" </dev/null
	run_root "$TMP/iv" -i -v
	grep -Fqx "Last_counter: $meaning" "$TMP/iv"
	verdict "-i -v, live kernel $r: $(grep Last_counter "$TMP/iv")"
done
run_root "$TMP/iv" -i -v -p "$IN/rich.profile"
grep -Fqx "Last_counter: unknown (not the running kernel's profile: up to 6.10 it also counts ticks outside the text, from 6.11 it is text only; *unknown*)" "$TMP/iv"
verdict "-i -v, a snapshot: $(grep Last_counter "$TMP/iv")"

# Another missing profile is only util-linux's line.
root hint
expect "a missing -p file: no hint" 1 - -p "$TMP/nothing" <<EOF
readprofile: $TMP/nothing: $(strerror ENOENT)
EOF

# --- no notice lost, whatever stdout and stderr are ------------------------
# The default map is the real capture's kallsyms with an address going
# down just before _etext: a notice (the /proc/kallsyms fallback) comes
# first, the error after 2 MB of -a report.  Every way of sending stdout
# and stderr must keep the notice first, the report as far as it was made
# (where stdout goes there too), the error and the line that says the
# report above is incomplete last.
root lost
gzip -dc "$TOP/fixtures/real/profile.gz" > "$TMP/profile" &&
    gzip -dc "$TOP/fixtures/real/kallsyms.gz" |
    awk '$3 == "_etext" { print "ffffffffb4000010 T back" } { print }' \
    > "$ROOT/proc/kallsyms" || { echo "cannot decompress fixtures/real"; exit 1; }
BACKLINE=$(grep -n ' back$' "$ROOT/proc/kallsyms" | cut -d: -f1)
RUN="READPROFILE_TEST_ROOT=$ROOT $RP_WRAP $RP -a -p $TMP/profile"
eval "$RUN" > "$TMP/part" 2> /dev/null
[ "$(wc -c < "$TMP/part")" -gt 1048576 ] ||
	echo "FAIL no notice lost: the report before the error is only $(wc -c < "$TMP/part") bytes"
# lost NAME REDIRECTIONS [BEFORE AFTER]: run $RUN with them (eval'd, in a
# { echo BEFORE; ...; echo AFTER; } group when given); $TMP/f must hold
# BEFORE, the notice (unless NONOTICE=1), the report so far ($TMP/part,
# unless NOREPORT=1), the error, the line that says it is incomplete,
# AFTER, nothing else.
lost() {
	{
		[ $# -lt 3 ] || echo "$3"
		[ "${NONOTICE:-0}" = 1 ] || sed "s|@ROOT@|$ROOT|g" <<EOF
readprofile: using @ROOT@/proc/kallsyms; no System.map was usable:
readprofile:   @ROOT@/boot/System.map: missing
readprofile:   @ROOT@/boot/System.map-$REL: missing
readprofile:   @ROOT@/usr/lib/debug/boot/System.map-$REL: missing
readprofile:   @ROOT@/usr/lib/modules/$REL/System.map: missing
readprofile:   @ROOT@/lib/modules/$REL/System.map: missing
readprofile:   @ROOT@/usr/lib/debug/boot/vmlinux-$REL: missing
readprofile:   @ROOT@/usr/lib/debug/usr/lib/modules/$REL/vmlinux: missing
readprofile:   @ROOT@/usr/lib/debug/lib/modules/$REL/vmlinux: missing
EOF
		[ "${NOREPORT:-0}" = 1 ] || cat "$TMP/part"
		sed "s|@ROOT@|$ROOT|g" <<EOF
readprofile: @ROOT@/proc/kallsyms($BACKLINE): address goes backwards (0xffffffffb4000010 after 0xffffffffb4e01d30)
readprofile: the report above is incomplete
EOF
		[ $# -lt 4 ] || echo "$4"
	} > "$TMP/lost.exp"
	rm -f "$TMP/f"
	if [ $# -ge 3 ]; then
		eval "{ echo $3; $RUN; echo $4; } $2"
	else
		eval "$RUN $2"
	fi
	tr -d '\r' < "$TMP/f" > "$TMP/f.lf"
	if cmp -s "$TMP/lost.exp" "$TMP/f.lf"; then
		ok
		return
	fi
	bad "no notice lost, $1: readprofile -a -p PROFILE $2 ($(wc -c < "$TMP/f") bytes)"
	diff -u "$TMP/lost.exp" "$TMP/f.lf" | cut -c1-200 | sed -n '3,12p'
}
lost "same file, shared offset" '>"$TMP/f" 2>&1'
lost "same file, appending" '>>"$TMP/f" 2>&1'
lost "same file opened twice, appending" '>>"$TMP/f" 2>>"$TMP/f"'
# (stdout from the file's start, not appending: the report, longer, is
# written over the notice appended before it, as that redirection asks)
NONOTICE=1 lost "same file opened twice, stderr appending" '>"$TMP/f" 2>>"$TMP/f"'
lost "same file, in a group" '>"$TMP/f" 2>&1' before after
lost "same pipe" '2>&1 </dev/null | cat >"$TMP/f"'
NOREPORT=1 lost "stdout /dev/null" '>/dev/null 2>"$TMP/f"'
if command -v script >/dev/null 2>&1; then
	lost "a terminal" '>/dev/null 2>&1; script -qec "$RUN" /dev/null </dev/null >"$TMP/f"'
else
	skipped "no notice lost, a terminal: no script(1)"
fi

# --- the name it runs by: each message's prefix, the commands hints give --
# Installed as readprofile-ng (make install PROGRAM=...), a hint copied
# from a message runs this program, not util-linux's readprofile.
mkdir -p "$TMP/bin"
ln -sf "$RP" "$TMP/bin/readprofile-ng"
RP_SAVED=$RP NAME=readprofile-ng
RP=$TMP/bin/readprofile-ng
root named
mkdir -p "$ROOT/sys/kernel"
echo 0 > "$ROOT$SYS"
UNWRAP=1 expect "as readprofile-ng: no /proc/profile, $SYS reads 0" 1 - <<EOF
readprofile-ng: /proc/profile: $(strerror ENOENT)
readprofile-ng: hint: $(echo "$START" | sed 's/with readprofile --enable/with readprofile-ng --enable/')
EOF
expect "as readprofile-ng: -i on a profile whose step word is 0" 0 \
    "$TOP/fixtures/cases-ours/zstep-i-nomap/expected.out" -i -p "$IN/zstep" <<EOF
readprofile-ng: Assuming reversed byte order. Use -n to force native byte order.
readprofile-ng: this kernel does not report its sampling step: the profile's step word is 0, as 64-bit big-endian kernels write it; to infer the step from the kernel's map, run readprofile-ng -i -m MAP
EOF
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups -- "$RP" -V >/dev/null 2>&1; then
	chmod -R a+rX "$ROOT"
	RP_WRAP_SAVED=$RP_WRAP
	RP_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups -- $RP_WRAP"
	expect "as readprofile-ng: --enable as a user" 1 - --enable <<EOF
readprofile-ng: --enable needs root: starting profiling takes kernel memory until the next boot (as root: readprofile-ng --enable=2, or echo 2 > $SYS)
EOF
	RP_WRAP=$RP_WRAP_SAVED
else
	echo "SKIP as readprofile-ng: --enable as a user: needs root and setpriv"
fi
if [ "$(id -u)" = 0 ]; then
	for m in 1:"CPU ticks" 9:"something this readprofile-ng does not know"; do
		echo "${m%%:*}" > "$ROOT$SYS"
		expect "as readprofile-ng: --enable, already on (${m%%:*})" 1 - --enable <<EOF
readprofile-ng: profiling is already on ($SYS reads ${m%%:*}: counting ${m#*:}): the kernel starts it once per boot, so its mode cannot change until the next boot; readprofile-ng reads it as it is
EOF
	done
else
	echo "SKIP as readprofile-ng: --enable, already on: not root"
fi
# -V: the program by its name, then this package (not util-linux) by its
[ "$("$RP" -V)" = "readprofile-ng (readprofile) ${RP_VERSION:-$(cat "$TOP/VERSION")}" ]
verdict "as readprofile-ng: -V says '$("$RP" -V)'"
RP=$RP_SAVED NAME=

# --- the help text's lines of ours ------------------------------------------
"$RP" --help > "$TMP/help"
for l in \
    " -m, --mapfile <mapfile>   symbol map (default: the first System.map found," \
    "                           then /proc/kallsyms; see readprofile(8))" \
    " -i, --info                print only info about the sampling step" \
    "                           (with -v: counters, text size, byte order, map fit)" \
    " -r, --reset               reset all the counters (root, or any user" \
    "                           of a set-user-ID install)" \
    "     --exact               credit each counter to the function holding its" \
    "                           first byte (classic: each function's last" \
    "                           counter goes to the next one)" \
    "     --enable[=<arg>]      start the kernel's profiling now, as profile=<arg>" \
    "                           would (default 2; root only, once per boot)"; do
	grep -Fqx -e "$l" "$TMP/help"
	verdict "--help lacks the line '$l'"
done

summary
