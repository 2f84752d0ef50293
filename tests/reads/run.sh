#!/bin/sh
# run.sh - one read: the profile and the baseline are each read once, and
# a pipe gives the same report as the file.
#
#   RP=/abs/readprofile sh tests/reads/run.sh
#
# On the bundled capture (fixtures/real: profile.gz, kallsyms.gz) and a
# baseline made from it (every counter halved):
#   - under strace (-f: a decompressor's reads count too), the bytes read
#     from the profile's and the baseline's descriptors are each exactly
#     the file's size, for every view; skipped by name without strace;
#   - every view and option gives the same output from a pipe (-p - and
#     --baseline -) as from the file; where the output names the profile
#     (--json, --pprof's comments) or the time it was taken (--pprof), that
#     name and time are taken out of both before the comparison (--pprof:
#     decoded with protoc --decode_raw; skipped by name without it);
#   - the default report, -a, -s, --top and --json make no file (strace:
#     no open with O_CREAT or O_TMPFILE, no creat), and a small TMPDIR (a
#     file size limit below the report, as root a 64 KiB tmpfs) or an
#     unwritable one does not fail -a: the report goes to stdout as made;
#   - with a baseline, from a file or a pipe, the peak resident set of a
#     64 MiB profile is at most its size + 16 MiB (or, under a sanitizer,
#     that of the same run without the baseline + 16 MiB).
# Prints FAIL lines and "reads: N passed, N failed".
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=reads
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary}"
PY=${PYTHON:-python3}
# lines FILE: its lines, 0 when there is none (the checks run in a
# pipeline's subshell write a line a check)
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }

P=$TMP/profile
M=$TMP/kallsyms
B=$TMP/base
gzip -dc "$TOP/fixtures/real/profile.gz" > "$P" || exit 1
gzip -dc "$TOP/fixtures/real/kallsyms.gz" > "$M" || exit 1
# the baseline: the same step word, every counter halved (in the file's
# order, little-endian)
"$PY" - "$P" "$B" <<'PYEOF' || exit 1
import array, sys
w = array.array('I')
w.frombytes(open(sys.argv[1], 'rb').read())
if sys.byteorder != 'little':
    w.byteswap()
for k in range(1, len(w)):
    w[k] //= 2
if sys.byteorder != 'little':
    w.byteswap()
open(sys.argv[2], 'wb').write(w.tobytes())
PYEOF
PSIZE=$(wc -c < "$P")
BSIZE=$(wc -c < "$B")

# The views, one option set a line (B: the baseline).
VIEWS='
-v
-a
-s
-b
-b -a
--exact
--exact -s
--top 5
--top 5 -s
--top 5 -b
--json
--json -s
--json -b
--folded
--pprof -
--pprof - -s
-i
-i -v
-n
--baseline B
--baseline B -s
--baseline B --top 5
--baseline B --top 5 -s
--baseline B --json -b
--baseline B --exact
--baseline B --folded
--baseline B --pprof -
--baseline B --pprof - -s'

# set -- the option set $1, with B the baseline's path $2
opts() {
	echo "$1" | sed "s|--baseline B|--baseline $2|"
}

# ---- read once -------------------------------------------------------------
# read_bytes LOG PATH: the bytes strace LOG shows read from PATH's
# descriptors (opened, read or pread, closed; any process)
read_bytes() {
	"$PY" - "$1" "$2" <<'PYEOF'
import re, sys
log, path = sys.argv[1], sys.argv[2]
fds = {}
total = 0
op = re.compile(r'^(\d+)\s+open(?:at)?\(.*?"((?:[^"\\]|\\.)*)".*\)\s+=\s+(\d+)')
rd = re.compile(r'^(\d+)\s+(?:read|pread64)\((\d+),.*\)\s+=\s+(\d+)')
cl = re.compile(r'^(\d+)\s+close\((\d+)\)')
for line in open(log):
    m = op.match(line)
    if m:
        fds[(m.group(1), m.group(3))] = m.group(2) == path
        continue
    m = rd.match(line)
    if m:
        if fds.get((m.group(1), m.group(2))):
            total += int(m.group(3))
        continue
    m = cl.match(line)
    if m:
        fds.pop((m.group(1), m.group(2)), None)
print(total)
PYEOF
}

if command -v strace >/dev/null 2>&1; then
	echo "$VIEWS" | while IFS= read -r v; do
		[ -n "$v" ] || continue
		# shellcheck disable=SC2046 # the options are words
		# (LeakSanitizer cannot run under ptrace: a sanitized build
		# is checked for leaks by the other runs)
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -s 0 -e trace=open,openat,read,pread64,close \
		    -o "$TMP/log" "$RP" -p "$P" -m "$M" $(opts "$v" "$B") \
		    > "$TMP/out" 2> "$TMP/err"
		rc=$?
		got=$(read_bytes "$TMP/log" "$P")
		want=$PSIZE
		if [ "$rc" != 0 ] || [ "$got" != "$want" ]; then
			echo "FAIL reads: '$v': status $rc, $got bytes read of the $want of the profile"
			head -n 3 "$TMP/err"
			echo x >> "$TMP/failed"
		else
			echo x >> "$TMP/passed"
		fi
		case $v in
		*B*)
			got=$(read_bytes "$TMP/log" "$B")
			if [ "$got" != "$BSIZE" ]; then
				echo "FAIL reads: '$v': $got bytes read of the $BSIZE of the baseline"
				echo x >> "$TMP/failed"
			else
				echo x >> "$TMP/passed"
			fi ;;
		esac
	done
	tally "$(lines "$TMP/passed")" "$(lines "$TMP/failed")"
	rm -f "$TMP/passed" "$TMP/failed"
else
	skipped "strace not found: the profile and baseline read once"
fi

# --interval: the first read, then one a report (under a test root, as
# the live profile: the release is read too, for --exact)
ROOT=$TMP/root
mkdir -p "$ROOT/proc/sys/kernel"
echo 6.1.0 > "$ROOT/proc/sys/kernel/osrelease"
"$PY" - "$ROOT/proc/profile" <<'PYEOF' || exit 1
import array, sys
w = array.array('I', [4] + [k % 7 for k in range(1, 1025)])
open(sys.argv[1], 'wb').write(w.tobytes())
PYEOF
printf '0000000000001000 T _stext\n0000000000001800 T f\n0000000000002000 T _etext\n' > "$ROOT/map"
RSIZE=$(wc -c < "$ROOT/proc/profile")
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    READPROFILE_TEST_ROOT=$ROOT strace -f -qq -s 0 \
	    -e trace=open,openat,read,pread64,close -o "$TMP/log" "$RP" \
	    -m "$ROOT/map" --interval 0.01 --iterations 3 --exact --top 1 \
	    > "$TMP/out" 2> "$TMP/err"
	got=$(read_bytes "$TMP/log" "$ROOT/proc/profile")
	if [ "$got" = $((4 * RSIZE)) ]; then
		ok
	else
		bad "--interval --iterations 3: $got bytes read, not 4 x $RSIZE"
	fi
fi
# a regression: --exact under --interval once used a freed path after
# about 15 reports (a ring of recycled kernel paths)
if READPROFILE_TEST_ROOT=$ROOT "$RP" -m "$ROOT/map" --interval 0.001 \
    --iterations 1000 --exact --top 1 > "$TMP/out" 2> "$TMP/err" &&
    [ "$(grep -c '^--- ' "$TMP/out")" = 1000 ] && [ ! -s "$TMP/err" ]; then
	ok
else
	bad "--interval --iterations 1000 --exact: $(head -c 300 "$TMP/err")"
fi

# ---- a pipe as the file -----------------------------------------------------
# norm FILE: the output with the profile's and baseline's names made one
# ("-" for both), and for --pprof (gzip) decoded, its time taken out
norm() {
	if gzip -t "$1" 2>/dev/null; then
		gzip -dc "$1" | protoc --decode_raw |
		    sed -e '/^9: [0-9]*$/d' -e "s|$P|-|g" -e "s|$B|-|g"
	else
		sed -e "s|$P|-|g" -e "s|$B|-|g" "$1"
	fi
}

have_protoc=1
command -v protoc >/dev/null 2>&1 || have_protoc=0
echo "$VIEWS" | {
	while IFS= read -r v; do
		[ -n "$v" ] || continue
		case $v in
		*pprof*) [ "$have_protoc" = 1 ] || continue ;;
		esac
		# shellcheck disable=SC2046
		"$RP" -p "$P" -m "$M" $(opts "$v" "$B") > "$TMP/file" 2> "$TMP/file.err"
		echo $? >> "$TMP/file.err"
		# shellcheck disable=SC2046
		"$RP" -p - -m "$M" $(opts "$v" "$B") < "$P" > "$TMP/pipe" 2> "$TMP/pipe.err"
		echo $? >> "$TMP/pipe.err"
		norm "$TMP/file" > "$TMP/file.n"
		norm "$TMP/pipe" > "$TMP/pipe.n"
		if cmp -s "$TMP/file.n" "$TMP/pipe.n" &&
		    cmp -s "$TMP/file.err" "$TMP/pipe.err" &&
		    [ -s "$TMP/file.n" ]; then
			echo x >> "$TMP/passed"
		else
			echo "FAIL reads: '$v': -p - differs from -p FILE"
			diff "$TMP/file.n" "$TMP/pipe.n" | head -n 4
			diff "$TMP/file.err" "$TMP/pipe.err" | head -n 4
			echo x >> "$TMP/failed"
		fi
		case $v in
		*B*) ;;
		*) continue ;;
		esac
		# the baseline from a pipe, the profile from the file
		# shellcheck disable=SC2046
		"$RP" -p "$P" -m "$M" $(opts "$v" -) < "$B" > "$TMP/pipe" 2> "$TMP/pipe.err"
		echo $? >> "$TMP/pipe.err"
		norm "$TMP/pipe" > "$TMP/pipe.n"
		if cmp -s "$TMP/file.n" "$TMP/pipe.n" &&
		    cmp -s "$TMP/file.err" "$TMP/pipe.err"; then
			echo x >> "$TMP/passed"
		else
			echo "FAIL reads: '$v': --baseline - differs from --baseline FILE"
			diff "$TMP/file.n" "$TMP/pipe.n" | head -n 4
			echo x >> "$TMP/failed"
		fi
	done
}
[ "$have_protoc" = 1 ] || skipped "protoc not found: --pprof from a pipe"

# ---- no file made: the report goes to standard output as it is made -------
# creates LOG: the calls of strace LOG that make a file (open or openat
# with O_CREAT or O_TMPFILE, creat), one a line
creates() {
	grep -E 'O_CREAT|O_TMPFILE|creat\(' "$1"
}
if command -v strace >/dev/null 2>&1; then
	for v in "" -a -s "--top 5" --json; do
		# shellcheck disable=SC2086
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -s 256 -e trace=open,openat,creat -o "$TMP/log" \
		    "$RP" -p "$P" -m "$M" $v > "$TMP/out" 2> "$TMP/err"
		rc=$?
		if [ $rc = 0 ] && [ -s "$TMP/out" ] && ! creates "$TMP/log" > "$TMP/made"
		then ok; else
			bad "'${v:-default}': status $rc, a file made: $(head -n 2 "$TMP/made")"
		fi
	done
else
	skipped "strace not found: no file made by the report"
fi

# A small TMPDIR does not fail the report: a file size limit that the
# report to a pipe is not bound by (ulimit -f: 64 KiB), and as root a
# 64 KiB tmpfs as TMPDIR; the whole report, as with room.
"$RP" -a -p "$P" -m "$M" > "$TMP/want" 2> /dev/null
(ulimit -f 128 && exec "$RP" -a -p "$P" -m "$M" 2> "$TMP/err") |
    cat > "$TMP/out"
if cmp -s "$TMP/want" "$TMP/out" && [ ! -s "$TMP/err" ] &&
    [ "$(wc -c < "$TMP/want")" -gt 131072 ]; then ok
else bad "-a under ulimit -f 128 (a small TMPDIR): not the report: $(head -n 2 "$TMP/err")"; fi
mkdir "$TMP/tiny"
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null 2>&1 &&
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1"' sh "$TMP/tiny" \
    2> /dev/null; then
	unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" &&
	    TMPDIR=$1 exec "$2" -a -p "$3" -m "$4"' sh "$TMP/tiny" "$RP" "$P" \
	    "$M" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc = 0 ] && cmp -s "$TMP/want" "$TMP/out" && [ ! -s "$TMP/err" ]
	then ok; else
		bad "-a with TMPDIR a full 64 KiB tmpfs: status $rc: $(head -n 2 "$TMP/err")"
	fi
else
	skipped "a tiny tmpfs as TMPDIR(not root, or no mount namespace)"
fi
chmod 0500 "$TMP/tiny"
TMPDIR=$TMP/tiny "$RP" -a -p "$P" -m "$M" > "$TMP/out" 2> "$TMP/err"
if [ $? = 0 ] && cmp -s "$TMP/want" "$TMP/out" && [ ! -s "$TMP/err" ]; then ok
else bad "-a with TMPDIR unwritable: not the report"; fi

# Held once: with a baseline, from a file or a pipe, the peak resident set
# is at most the profile's size + 16 MiB, or the run's without the
# baseline + 16 MiB (the baseline is read a piece at a time into the
# profile's copy, not held beside it).  The profile: the
# capture's, its counters repeated up to 64 MiB.
BIG=$TMP/big
BIGB=$TMP/bigbase
"$PY" - "$P" "$BIG" "$BIGB" <<'PYEOF' || exit 1
import sys
d = open(sys.argv[1], 'rb').read()
w, c = d[:4], d[4:]
body = (c * (64 * 2**20 // len(c) + 1))[:64 * 2**20]
open(sys.argv[2], 'wb').write(w + body)
open(sys.argv[3], 'wb').write(w + bytes(len(body)))
PYEOF
# peak_kib ARGS...: the peak RSS (KiB) of readprofile ARGS, stdin from
# $BIGB; nothing when it did not exit 0
peak_kib() {
	"$PY" - "$BIGB" "$RP" "$@" <<'PYEOF'
import resource, subprocess, sys
with open(sys.argv[1], 'rb') as f:
    r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, stdin=f)
if r.returncode == 0:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PYEOF
}
# against the same run without the baseline (a sanitizer's own memory is
# in both), or the profile's size + 16 MiB when that is more
ref=$(peak_kib -p "$BIG" -m "$M")
limit=$(( $(wc -c < "$BIG") / 1024 + 16 * 1024 ))
[ -n "$ref" ] && [ $((ref + 16 * 1024)) -gt "$limit" ] &&
	limit=$((ref + 16 * 1024))
for how in file pipe; do
	b=$BIGB
	[ $how = pipe ] && b=-
	for v in "" "--top 5" "-s"; do
		# shellcheck disable=SC2086
		kib=$(peak_kib -p "$BIG" -m "$M" --baseline "$b" $v)
		if [ -n "$kib" ] && [ "$kib" -le "$limit" ]; then
			ok
		else
			bad "--baseline ($how) $v: peak ${kib:-?} KiB, over $limit"
		fi
	done
done
tally "$(lines "$TMP/passed")" "$(lines "$TMP/failed")"
summary
