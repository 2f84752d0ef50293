#!/bin/sh
# run.sh - the set-user-ID install: privileges only for /proc/profile.
#
#   sh tests/setuid/run.sh            (as real root; skipped otherwise)
#
# Skipped when SKIP_SETUID is set to anything, under fakeroot, and inside
# a package build (DEB_BUILD_* or RPM_BUILD_ROOT set).
#
# Builds a readprofile whose /proc/profile is a root-only file of our own
# (-DPROC_PROFILE), installs it set-user-ID root in a scratch directory,
# and runs it as user nobody:
#   (a) -r and -M write the root-only "/proc/profile" (privileges regained
#       for that open only; a copy without the set-user-ID bit cannot);
#   (b) -p, (c) -m, --baseline: a root-only file is refused with
#       "Permission denied", compressed or not (opened with the caller's
#       rights);
#   (d) readable files give the normal report;
#   (e) a decompressor is run with the caller's rights, not root's;
#   (g) a C++ program's names are demangled by the system's libstdc++,
#       never by one in the caller's LD_LIBRARY_PATH (which the plain
#       copy, as a control, does load).
# Needs setpriv, or runuser, or su.  Prints `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=setuid
. "$TOP/tests/lib.sh"

[ -z "${SKIP_SETUID:-}" ] || suite_skipped "SKIP_SETUID is set"
[ "$(id -u)" -eq 0 ] || suite_skipped "must run as root"
# fakeroot says uid 0 but cannot make set-user-ID files; the kernel's view
# of our effective user ID is in /proc.
[ -z "${FAKEROOTKEY:-}" ] || suite_skipped "under fakeroot, not real root"
case ${LD_PRELOAD:-} in *fakeroot*) suite_skipped "under fakeroot, not real root" ;; esac
if [ -r /proc/self/status ]; then
	[ "$(awk '/^Uid:/ { print $3 }' /proc/self/status)" = 0 ] ||
		suite_skipped "not real root"
fi
# A package build must leave no set-user-ID root program behind, even briefly.
if [ -n "${RPM_BUILD_ROOT:-}" ] || env | grep -q '^DEB_BUILD_'; then
	suite_skipped "inside a package build"
fi
NOBODY=$(id -u nobody 2>/dev/null) || NOBODY=65534
NOGROUP=$(id -g nobody 2>/dev/null) || NOGROUP=65534
if command -v setpriv >/dev/null 2>&1; then
	as_nobody() {
		setpriv --reuid="$NOBODY" --regid="$NOGROUP" --clear-groups -- "$@"
	}
elif command -v runuser >/dev/null 2>&1; then
	as_nobody() { runuser -u nobody -- "$@"; }
elif command -v su >/dev/null 2>&1; then
	as_nobody() {
		_cmd=
		for _a in "$@"; do
			_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
		done
		su -s /bin/sh nobody -c "exec $_cmd"
	}
else
	suite_skipped "no setpriv, runuser or su"
fi

# A scratch directory where the set-user-ID bit works (not nosuid) and that
# user nobody can reach: tried in the build tree first, then /var/tmp, /tmp.
# Running a set-user-ID program in it is not proof enough that nobody can
# reach it (some systems let the program start though a directory above is
# closed, mode 700): nobody must also be able to enter it.
D=
for base in "$TOP" /var/tmp "${TMPDIR:-/tmp}"; do
	cand=$(mktemp -d "$base/build-suid.XXXXXX" 2>/dev/null) || continue
	chmod 755 "$cand"
	cp "$(command -v id)" "$cand/id" && chmod 4755 "$cand/id"
	if [ "$(as_nobody "$cand/id" -u 2>/dev/null)" = 0 ] &&
	    as_nobody /bin/sh -c 'cd "$1"' sh "$cand" 2>/dev/null; then
		D=$cand
		rm -f "$D/id"
		break
	fi
	rm -rf "$cand"
done
[ -n "$D" ] || suite_skipped "no directory (in the checkout, /var/tmp or ${TMPDIR:-/tmp}) that user nobody can enter and run a set-user-ID program in"
# the directory tests/lib.sh removes at exit: $D
rm -rf "$TMP"
TMP=$D
. "$TOP/tests/libc.sh"
libc_setup
DENIED=$(strerror EACCES)

verdict() {
	if [ -z "$bad" ]; then
		ok
		return
	fi
	bad "$1:$bad"
	sed -n '1,5s/^/    stderr: /p' "$D/err"
}

# The fake /proc/profile, root-only, in a directory anyone may traverse.
mkdir "$D/proc" "$D/obj" "$D/bin" "$D/plain" "$D/tmp" || exit 1
chmod 755 "$D/proc" "$D/bin" "$D/plain"
chmod 1777 "$D/tmp"
FAKE=$D/proc/profile
printf 'ABCDEFGH' > "$FAKE"
chmod 600 "$FAKE"

# Build with PROC_PROFILE pointing at it.
if ! make -C "$TOP" --no-print-directory B="$D/obj" BIN="$D/obj/readprofile" \
    CPPFLAGS="-DPROC_PROFILE=\\\"$FAKE\\\" -DSYS_PROFILING=\\\"$D/proc/profiling\\\"" \
    > "$D/build.log" 2>&1; then
	cat "$D/build.log"
	echo "setuid: cannot build" >&2
	exit 1
fi
cp "$D/obj/readprofile" "$D/bin/readprofile" || exit 1
# the plain copy by the same name: messages start with the name it runs by
cp "$D/obj/readprofile" "$D/plain/readprofile" || exit 1
chown 0:0 "$D/bin/readprofile" "$D/plain/readprofile"
chmod 4755 "$D/bin/readprofile"
chmod 755 "$D/plain/readprofile"
RP=$D/bin/readprofile

# Inputs: readable ones and root-only ones.
IN=$TOP/fixtures/inputs
cp "$IN/rich.profile" "$IN/rich.map" "$D/" || exit 1
cp "$IN/rich.profile" "$D/secret.profile"
cp "$IN/rich.map" "$D/secret.map"
gzip -c "$IN/rich.map" > "$D/secret.map.gz"
gzip -c "$IN/rich.profile" > "$D/secret.profile.gz"
gzip -c "$IN/rich.map" > "$D/rich.map.gz"
chmod 644 "$D/rich.profile" "$D/rich.map" "$D/rich.map.gz"
chmod 600 "$D/secret.profile" "$D/secret.map" "$D/secret.map.gz" \
    "$D/secret.profile.gz"
EXPECTED=$TOP/fixtures/cases/rich/expected.out

# nobody BINARY ARGS...: run as nobody in $D; stdout $D/out, stderr $D/err
nobody() {
	_b=$1
	shift
	(cd "$D" && as_nobody "$_b" "$@" </dev/null >"$D/out" 2>"$D/err")
	rc=$?
}

# refused NAME MESSAGE ARGS...: exit 1, empty stdout, MESSAGE on stderr
refused() {
	_n=$1 _m=$2
	shift 2
	nobody "$RP" "$@"
	bad=
	[ "$rc" -eq 1 ] || bad="$bad exit $rc, expected 1;"
	[ -s "$D/out" ] && bad="$bad stdout not empty;"
	grep -F -q -e "$_m" "$D/err" || bad="$bad message lacks '$_m';"
	verdict "$_n"
}

first_bytes() { od -An -tx1 -N4 "$FAKE" | tr -d ' \n'; }

# (a) -r: privileges regained to open the fake /proc/profile.
nobody "$RP" -r
bad=
[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
[ -s "$D/err" ] && bad="$bad message on stderr;"
[ "$(first_bytes)" = 00424344 ] || bad="$bad file not reset (starts $(first_bytes));"
verdict "(a) -r as nobody writes the root-only profile"

printf 'ABCDEFGH' > "$FAKE"
nobody "$RP" -M 5
bad=
[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
[ -s "$D/err" ] && bad="$bad message on stderr;"
case $(first_bytes) in
05000000|00000005) ;;
*) bad="$bad multiplier not written (starts $(first_bytes));" ;;
esac
verdict "(a) -M 5 as nobody writes the root-only profile"

# Control: without the set-user-ID bit, nobody cannot.
printf 'ABCDEFGH' > "$FAKE"
nobody "$D/plain/readprofile" -r
bad=
[ "$rc" -eq 1 ] || bad="$bad exit $rc, expected 1;"
grep -F -q "readprofile: $FAKE: $DENIED" "$D/err" ||
	bad="$bad no '$DENIED';"
[ "$(first_bytes)" = 41424344 ] || bad="$bad file changed;"
verdict "(a) control: -r without set-user-ID is refused"

# (b), (c): files given by the caller are opened with the caller's rights.
refused "(b) -p root-only profile" "readprofile: secret.profile: $DENIED" \
    -p secret.profile -m rich.map
refused "(b) -p root-only profile -i" "readprofile: secret.profile: $DENIED" \
    -i -p secret.profile
refused "(b) -p root-only compressed profile" \
    "readprofile: secret.profile.gz: $DENIED" -p secret.profile.gz -m rich.map
refused "(c) -m root-only map" "readprofile: secret.map: $DENIED" \
    -p rich.profile -m secret.map
refused "(c) -m root-only compressed map" "readprofile: secret.map.gz: $DENIED" \
    -p rich.profile -m secret.map.gz
refused "(c) -i -v -m root-only map" "readprofile: secret.map: $DENIED" \
    -i -v -p rich.profile -m secret.map
refused "--baseline root-only" "readprofile: secret.profile: $DENIED" \
    -p rich.profile --baseline secret.profile -m rich.map

# (g) --enable starts the kernel's profiling, which holds kernel memory
# until the next boot: only for root running it, never through the
# set-user-ID bit (the fake switch, root's, is left alone).
printf 0 > "$D/proc/profiling"
chmod 644 "$D/proc/profiling"
refused "(g) --enable through the set-user-ID bit" \
    "readprofile: --enable is refused by a set-user-ID install" --enable
refused "(g) --enable=schedule through the set-user-ID bit" \
    "readprofile: --enable is refused by a set-user-ID install" --enable=schedule
nobody "$D/plain/readprofile" --enable
bad=
[ "$rc" -eq 1 ] || bad="$bad exit $rc, expected 1;"
grep -F -q "readprofile: --enable needs root" "$D/err" || bad="$bad no 'needs root';"
verdict "(g) control: --enable as nobody without set-user-ID is refused"
[ "$(cat "$D/proc/profiling")" = 0 ] && bad= || bad=" the switch was written;"
verdict "(g) the switch is left alone"

# (d) readable files work.
nobody "$RP" -p rich.profile -m rich.map
bad=
[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
[ -s "$D/err" ] && bad="$bad message on stderr;"
cmp -s "$EXPECTED" "$D/out" || bad="$bad wrong report;"
verdict "(d) readable profile and map"

# (e) the decompressor runs as the caller: a gzip of nobody's choosing
# (first in PATH) must not get root's rights.
GZIP_BIN=$(command -v gzip)
cat > "$D/tmp/gzip" <<EOF
#!/bin/sh
id -u > "$D/tmp/gzip-euid"
exec "$GZIP_BIN" "\$@"
EOF
chmod 755 "$D/tmp/gzip"
(cd "$D" && PATH="$D/tmp:$PATH" as_nobody "$RP" -p rich.profile -m rich.map.gz \
    </dev/null >"$D/out" 2>"$D/err")
rc=$?
bad=
[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
cmp -s "$EXPECTED" "$D/out" || bad="$bad wrong report;"
[ "$(cat "$D/tmp/gzip-euid" 2>/dev/null)" = "$NOBODY" ] ||
	bad="$bad decompressor ran as uid '$(cat "$D/tmp/gzip-euid" 2>/dev/null)';"
verdict "(e) decompressor runs with the caller's rights"

# (f) while it reads the caller's input (here: blocked on a FIFO), the
# process holds no way back to root: real, effective and saved user IDs
# are all the caller's.
# Polled every 0.1 s up to a minute (times TIME_SCALE): the process, then
# its state, blocked opening the FIFO (wchan wait_for_partner; where the
# kernel does not say, asleep: nothing else sleeps before the open).
mkfifo "$D/tmp/fifo" && chmod 666 "$D/tmp/fifo"
(cd "$D" && as_nobody "$RP" -p tmp/fifo -m rich.map </dev/null >"$D/out" 2>"$D/err") &
bg=$!
pid= i=0 blocked=
bound=$((600 * TS))
while [ -z "$blocked" ] && [ $i -lt $bound ]; do
	sleep 0.1
	i=$((i + 1))
	if [ -z "$pid" ]; then
		for d in /proc/[0-9]*; do
			if [ "$(readlink "$d/exe" 2>/dev/null)" = "$RP" ]; then
				pid=${d#/proc/}
				break
			fi
		done
		continue
	fi
	w=$(cat "/proc/$pid/wchan" 2>/dev/null)
	case $w in
	*partner*|fifo_open) blocked=1 ;;
	""|0) [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = S ] &&
		blocked=1 ;;
	esac
done
uids=
[ -z "$pid" ] || uids=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' "/proc/$pid/status" 2>/dev/null)
cat "$D/rich.profile" > "$D/tmp/fifo"
wait "$bg"
rc=$?
bad=
[ -n "$pid" ] || bad="$bad process not found;"
[ -z "$pid" ] || [ -n "$blocked" ] || bad="$bad not seen blocked opening the FIFO;"
[ -z "$pid" ] || [ "$uids" = "$NOBODY $NOBODY $NOBODY $NOBODY" ] ||
	bad="$bad user IDs (real, effective, saved, fs) are '$uids';"
[ "$rc" -eq 0 ] && cmp -s "$EXPECTED" "$D/out" || bad="$bad exit $rc or wrong report;"
verdict "(f) no saved root user ID while reading input"

# (g) the demangler is the system's: a libstdc++.so.6 of nobody's choosing
# (in LD_LIBRARY_PATH) is not loaded by the set-user-ID copy, whose
# process stays AT_SECURE; the plain copy loads it (the test can fail).
if command -v g++ >/dev/null 2>&1 &&
    g++ -O1 -pg -o "$D/names" "$TOP/tests/pprof/names.cc" 2>/dev/null &&
    (cd "$D" && ./names && mv gmon.out names.gmon) &&
    mkdir "$D/evil" && printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' \
	'#include <unistd.h>' \
	'__attribute__((constructor)) static void mark(void) {' \
	'	FILE *f = fopen(getenv("EVIL_MARK"), "w");' \
	'	if (f) { fprintf(f, "%d\n", (int)geteuid()); fclose(f); } }' \
	'char *__cxa_demangle(const char *m, char *b, size_t *n, int *s)' \
	'{ (void)m; (void)b; (void)n; *s = 0; char *r = malloc(5);' \
	'  if (r) snprintf(r, 5, "EVIL"); return r; }' > "$D/evil/evil.c" &&
    gcc -shared -fPIC -o "$D/evil/libstdc++.so.6" "$D/evil/evil.c" 2>/dev/null
then
	chmod -R a+rX "$D/evil" "$D/names" "$D/names.gmon"
	plain="$D/plain/readprofile"
	# A sanitizer's runtime is itself linked with libstdc++.so.6: a
	# plain copy cannot start with another one first in its path.
	if readelf -d "$plain" 2>/dev/null | grep -q 'lib[at]san\|libubsan'
	then
		skipped "(g) control: the sanitizer runtime needs the real libstdc++.so.6"
		plain=
	fi
	for b in "$RP" $plain; do
		rm -f "$D/tmp/evil-mark"
		(cd "$D" && LD_LIBRARY_PATH="$D/evil" EVIL_MARK="$D/tmp/evil-mark" \
		    as_nobody "$b" -p names.gmon -m names </dev/null >"$D/out" \
		    2>"$D/err")
		rc=$?
		bad=
		[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
		if [ "$b" = "$RP" ]; then
			[ -e "$D/tmp/evil-mark" ] &&
				bad="$bad LD_LIBRARY_PATH's libstdc++ was loaded;"
			# a build with no demangler (musl) says so, and
			# must still not load the caller's library
			grep -q 'notice: C++ names are shown mangled' "$D/err" ||
			grep -q 'ns::Widget::spin(long)' "$D/out" ||
				bad="$bad names not demangled by the system's;"
			verdict "(g) set-user-ID: the system's demangler only"
		else
			[ -e "$D/tmp/evil-mark" ] && grep -q EVIL "$D/out" ||
				bad="$bad the plain copy did not load it;"
			verdict "(g) plain copy: LD_LIBRARY_PATH is honoured (control)"
		fi
	done
else
	skipped "(g) the system's demangler: no g++ -pg or gcc -shared"
fi

summary
