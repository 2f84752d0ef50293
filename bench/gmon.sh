#!/bin/sh
# bench/gmon.sh - the memory of a large gmon.out: peak RSS at most the
# file's size (a compressed file's decompressed size; with --baseline,
# both files') + 32 MiB (make bench runs it after bench/adversarial.sh).
#
#   sh bench/gmon.sh
#
# Environment: BENCH_OURS (default ./readprofile), BENCH_GMON_BINS (bins
# of the histogram, default 2^27: a 256 MiB file), BENCH_GMON_ARCS (call
# arcs of the second file, default 10 million: 210 MB), BENCH_STRICT=1
# (exit 1 when a goal is missed).
#
# Cases: one GNU histogram record of BINS 16-bit bins over a program of
# 64 functions (bin k holds k mod 7), read plain, gzip-compressed (it is
# decompressed into memory), with -v, and with itself as --baseline;
# then a GNU file of 4096 bins and ARCS 64-bit call arcs, two to each
# callee, scattered (the calls column), plain, compressed, and with -v.
# Prints each case's wall and CPU seconds and peak RSS against its goal.
# The inputs are written to build/bench-data/gmon/ and kept.
set -eu
cd "$(dirname "$0")/.."
TOP=$(pwd)
OURS=${BENCH_OURS:-$TOP/readprofile}
BINS=${BENCH_GMON_BINS:-134217728}
CC=${CC:-cc}
D=$TOP/build/bench-data/gmon
TIMEIT=$TOP/build/bench/timeit
mkdir -p "$D" "$TOP/build/bench"
case $OURS in /*) ;; *) OURS=$TOP/$OURS ;; esac
[ -x "$TIMEIT" ] || $CC -std=c11 -O2 -o "$TIMEIT" bench/timeit.c

LOW=4096
HIGH=$((LOW + 2 * BINS))
if [ ! -f "$D/big.gmon.gz" ] || [ "$(cat "$D/stamp" 2>/dev/null)" != "$BINS" ]; then
	echo "bench-gmon: writing a gmon.out of $BINS bins ..." >&2
	python3 - "$D/big.gmon" "$LOW" "$HIGH" "$BINS" <<'EOF'
import struct, sys
path, low, high, n = sys.argv[1], *map(int, sys.argv[2:])
with open(path, 'wb') as f:
    f.write(b'gmon' + struct.pack('<I', 1) + bytes(12))
    f.write(b'\0' + struct.pack('<QQII', low, high, n, 100) +
            b'seconds' + bytes(8) + b's')
    chunk = b''.join(struct.pack('<H', k % 7) for k in range(7 * 8192))
    left = n
    while left:
        k = min(left, 7 * 8192)
        f.write(chunk[:2 * k])
        left -= k
EOF
	gzip -c "$D/big.gmon" > "$D/big.gmon.gz"
	awk -v lo="$LOW" -v hi="$HIGH" 'BEGIN { for (i = 0; i < 64; i++)
	    printf "%016x T f%d\n", lo + int(i * (hi - lo) / 64), i }' > "$D/big.map"
	echo "$BINS" > "$D/stamp"
fi
ARCS=${BENCH_GMON_ARCS:-10000000}
AHIGH=$((LOW + 32 * 1048576))
if [ ! -f "$D/arcs.gmon.gz" ] || [ "$(cat "$D/arcs.stamp" 2>/dev/null)" != "$ARCS" ]; then
	echo "bench-gmon: writing a gmon.out of $ARCS call arcs ..." >&2
	python3 - "$D/arcs.gmon" "$LOW" "$AHIGH" "$ARCS" <<'EOF'
import struct, sys
path, low, high, n = sys.argv[1], *map(int, sys.argv[2:])
nb, m = 4096, max(1, n // 2)
with open(path, 'wb') as f:
    f.write(b'gmon' + struct.pack('<I', 1) + bytes(12))
    f.write(b'\0' + struct.pack('<QQII', low, high, nb, 100) +
            b'seconds' + bytes(8) + b's')
    f.write(b''.join(struct.pack('<H', k % 7) for k in range(nb)))
    # arc i calls low + 4 * (i * step mod m): scattered, each callee twice
    rec, step, buf = struct.Struct('<BQQI'), 2654435761 % m, []
    for i in range(n):
        buf.append(rec.pack(1, low, low + 4 * (i * step % m) % (high - low),
                            i % 1000 + 1))
        if len(buf) == 65536:
            f.write(b''.join(buf))
            buf = []
    f.write(b''.join(buf))
EOF
	gzip -c "$D/arcs.gmon" > "$D/arcs.gmon.gz"
	awk -v lo="$LOW" -v hi="$AHIGH" 'BEGIN { for (i = 0; i < 64; i++)
	    printf "%016x T f%d\n", lo + int(i * (hi - lo) / 64), i }' > "$D/arcs.map"
	echo "$ARCS" > "$D/arcs.stamp"
fi
size=$(wc -c < "$D/big.gmon")
asize=$(wc -c < "$D/arcs.gmon")
missed=0
# case NAME GOAL-BYTES ARGS...: one run of readprofile ARGS
case_() {
	_name=$1 _bytes=$2
	shift 2
	"$TIMEIT" -o "$D/out" "$OURS" "$@" > "$D/line"
	read -r wall rss rc cpu _rest < "$D/line"
	[ "$rc" = 0 ] || { echo "bench-gmon: $_name: exit $rc" >&2; exit 1; }
	goal=$((_bytes / 1024 + 32 * 1024))
	ok=$([ "$rss" -le "$goal" ] && echo ok || echo MISSED)
	[ "$ok" = ok ] || missed=1
	printf '%-26s %7.2f s wall %7.2f s CPU %8.1f MiB peak RSS (goal %6.1f)  %s\n' \
	    "$_name" "$wall" "$cpu" "$(echo "$rss" | awk '{ print $1 / 1024 }')" \
	    "$(echo "$goal" | awk '{ print $1 / 1024 }')" "$ok"
}

echo "gmon.out of $BINS bins ($size bytes; one run each; goal: peak RSS <= file + 32 MiB)"
case_ "-p FILE" "$size" -p "$D/big.gmon" -m "$D/big.map"
case_ "-p FILE.gz" "$size" -p "$D/big.gmon.gz" -m "$D/big.map"
case_ "-v -p FILE" "$size" -v -p "$D/big.gmon" -m "$D/big.map"
case_ "--baseline FILE -p FILE" "$((2 * size))" --baseline "$D/big.gmon" \
    -p "$D/big.gmon" -m "$D/big.map"
echo "gmon.out of $ARCS call arcs ($asize bytes)"
case_ "-p ARCS" "$asize" -p "$D/arcs.gmon" -m "$D/arcs.map"
case_ "-p ARCS.gz" "$asize" -p "$D/arcs.gmon.gz" -m "$D/arcs.map"
case_ "-v -p ARCS" "$asize" -v -p "$D/arcs.gmon" -m "$D/arcs.map"
[ $missed = 0 ] || [ "${BENCH_STRICT:-0}" != 1 ] || exit 1
exit 0
