#!/bin/busybox sh
# /init of the test initramfs built by tests/vm/run.sh (busybox sh).
#
# Runs readprofile against the live /proc/profile of the booted kernel and
# reports on the serial console, one line per check:
#   @@RP PASS name | @@RP FAIL name | @@RP NOTE text
#   @@RP BEGIN file ... base64 of gzip ... @@RP END file
#   @@RP DONE
# Binaries: /ours/readprofile (under test), /ul/readprofile (util-linux).
# The kernel passes RP_STEP (expected sampling step), RP_KEEP (1: always
# send the snapshot out), RP_MODE and RP_CONFIG from its command line as
# environment variables.

/bin/busybox mkdir -p /proc /sys /dev /tmp
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox --install -s /bin
export PATH=/bin
exec </dev/null >/dev/console 2>&1
dmesg -n 3

OURS=/ours/readprofile
UL=/ul/readprofile
W=/tmp/w
S=/tmp/snap
mkdir -p "$W" "$S"
step=${RP_STEP:-4}
failed=0

# verdict PASS|FAIL NAME: a line for the host to count (tests/vm/run.sh)
verdict() { [ "$1" = PASS ] || failed=1; echo "@@RP $*"; }
note() { sed 's/^/@@RP NOTE /'; }
check() { # check NAME CONDITION...
	name=$1; shift
	if "$@"; then verdict PASS "$name"; else verdict FAIL "$name"; fi
}

# capture TAG BINARY ARGS...: TAG.out, TAG.err, TAG.rc in $W
capture() {
	tag=$1; shift
	"$@" >"$W/$tag.out" 2>"$W/$tag.err"
	echo $? >"$W/$tag.rc"
}
rc() { cat "$W/$1.rc"; }
# ticks on the `total` line of a default-format report
total() { awk '$2 == "total" { print $1 }' "$W/$1.out"; }
show() { # show TAG: stderr, exit status and head of stdout, as notes
	{
		echo "$1: exit $(rc "$1")"
		sed 's/^/  stderr: /' "$W/$1.err" | head -n 5
		sed 's/^/  stdout: /' "$W/$1.out" | head -n 5
	} | note
}

workload() {
	i=0
	while [ $i -lt 40 ]; do
		cat /proc/kallsyms >/dev/null
		i=$((i + 1))
	done
	dd if=/dev/zero of=/tmp/zero bs=64k count=64 2>/dev/null
	rm -f /tmp/zero
}

send() { # send NAME FILE: gzip + base64 between markers
	echo "@@RP BEGIN $1"
	gzip -c "$2" | base64
	echo "@@RP END $1"
}

# snapshot_reports MAP [WHAT]: the default, -v, -a, -b, -s and -i reports of
# the snapshot $S/profile with MAP: util-linux's stdout and exit status;
# snapfail=1 when one differs
snapshot_reports() {
	for m in default -v -a -b -s -i; do
		a=$m
		[ "$m" = default ] && a=
		capture "snap-ul$m" "$UL" -p "$S/profile" -m "$1" $a
		capture "snap-ours$m" "$OURS" -p "$S/profile" -m "$1" $a
		if cmp -s "$W/snap-ul$m.out" "$W/snap-ours$m.out" &&
			[ "$(rc snap-ul$m)" = "$(rc snap-ours$m)" ]; then
			verdict PASS "snapshot $m${2:-}: same stdout and exit status as util-linux"
			continue
		fi
		verdict FAIL "snapshot $m${2:-}: same stdout and exit status as util-linux"
		snapfail=1
		echo "exit status: util-linux $(rc snap-ul$m), ours $(rc snap-ours$m)" | note
		sed 's/^/stderr ours: /' "$W/snap-ours$m.err" | head -n 5 | note
		diff "$W/snap-ul$m.out" "$W/snap-ours$m.out" | head -n 20 | note
	done
}

echo "@@RP NOTE kernel $(uname -r), cmdline: $(cat /proc/cmdline)"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
rm -rf /boot

# A boot without profile= (RP_MODE none or schedule): the newcomer's path;
# a current kernel (current, current-schedule): tests/vm/current.sh.
case ${RP_MODE:-} in
current | current-schedule)
	. /current.sh
	echo "@@RP DONE"
	sync
	poweroff -f
	;;
none | schedule)
	. /newcomer.sh
	echo "@@RP DONE"
	sync
	poweroff -f
	;;
esac

# --- -i on the live file -----------------------------------------------------
for b in ul ours; do
	eval "bin=\$$(echo $b | tr a-z A-Z)"
	capture "live-i-$b" "$bin" -i
	check "$b: -i on live /proc/profile prints Sampling_step: $step" \
		test "$(rc live-i-$b):$(cat $W/live-i-$b.out)" = "0:Sampling_step: $step"
done

# --- snapshot and differential reports ---------------------------------------
workload
cp /proc/profile "$S/profile"
cp /proc/kallsyms "$S/kallsyms"
capture snap-ul-default "$UL" -p "$S/profile" -m "$S/kallsyms"
t=$(total snap-ul-default)
echo "@@RP NOTE snapshot: $(wc -c <"$S/profile") bytes, total ${t:-?} ticks"
check "snapshot has ticks (util-linux total > 0)" test "${t:-0}" -gt 0

snapfail=0
snapshot_reports "$S/kallsyms"

# --- live reports --------------------------------------------------------------
capture live-report "$OURS" -m /proc/kallsyms
check "ours: report on live /proc/profile with -m /proc/kallsyms (exit 0, total line)" \
	test "$(rc live-report)" = 0 -a -n "$(total live-report)"
check "ours: no warning on live /proc/profile with its own kallsyms" \
	test ! -s "$W/live-report.err"
[ -s "$W/live-report.err" ] || [ "$(rc live-report)" != 0 ] && show live-report

words=$(($(stat -c %s /proc/profile) / 4))
counters=$((words - 1))
printf 'Sampling_step: %s\nCounters: %s\nText_bytes: %s\nByte_order: little-endian (native)\nMap: /proc/kallsyms matches\nCounting: CPU ticks\nLast_counter: text and every tick outside it (kernel %s: up to 6.10 they are clamped into it; *unknown*)\nKernel_build_id: %s (/sys/kernel/notes)\n' \
	"$step" "$counters" "$((counters * step))" "$(uname -r)" "${RP_BUILDID:-none}" >"$W/iv.expect"
capture live-iv "$OURS" -i -v -m /proc/kallsyms
if [ "$(rc live-iv)" = 0 ] && cmp -s "$W/iv.expect" "$W/live-iv.out"; then
	verdict PASS "ours: -i -v -m /proc/kallsyms on live file (step, counters, map matches)"
else
	verdict FAIL "ours: -i -v -m /proc/kallsyms on live file (step, counters, map matches)"
	show live-iv
	diff "$W/iv.expect" "$W/live-iv.out" | head -n 12 | note
fi

# --- --interval on the live file, a workload running, then a reset ---------
# ivrun TAG ARGS...: ours --interval ARGS in the background; ivwait TAG.
ivrun() {
	tag=$1; shift
	"$OURS" -m /proc/kallsyms --interval "$@" >"$W/$tag.out" 2>"$W/$tag.err" &
	ivpid=$!
}
ivwait() { wait $ivpid; echo $? >"$W/$1.rc"; }
ivheads() { grep -c '^--- .* interval [0-9]*: [0-9.]* s' "$W/$1.out"; }
ivrun iv 1 --iterations 3 --top 5
workload
workload
ivwait iv
t=$(awk '$NF == "total" { s += $1 } END { print s + 0 }' "$W/iv.out")
echo "@@RP NOTE --interval 1 --iterations 3 --top 5: $t ticks in all"
if [ "$(rc iv)" = 0 ] && [ "$(ivheads iv)" = 3 ] && [ ! -s "$W/iv.err" ] &&
	[ "$(grep -c ' total$' "$W/iv.out")" = 3 ] && [ "$t" -gt 0 ]; then
	verdict PASS "ours: --interval --iterations 3 --top 5 on live file (3 reports, ticks)"
else
	verdict FAIL "ours: --interval --iterations 3 --top 5 on live file (3 reports, ticks)"
	show iv
fi
ivrun ivj 1 --iterations 2 -J
workload
ivwait ivj
if [ "$(rc ivj)" = 0 ] && [ "$(wc -l <"$W/ivj.out")" = 2 ] &&
	[ "$(grep -c '^{"interval":{"number":[12],.*"total":[0-9]*,"total_load":[0-9.]*}$' "$W/ivj.out")" = 2 ]; then
	verdict PASS "ours: --interval -J on live file (one document per line)"
else
	verdict FAIL "ours: --interval -J on live file (one document per line)"
	show ivj
fi
# a reset between two reads: reported as such, and the run goes on
ivrun ivr 2 --iterations 3
i=0
while [ "$(ivheads ivr)" -lt 1 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
"$OURS" -r
ivwait ivr
if [ "$(rc ivr)" = 0 ] && [ "$(ivheads ivr)" = 3 ] &&
	[ "$(grep -c '(counters were reset: ticks since the reset)$' "$W/ivr.out")" = 1 ] &&
	grep -q 'counters went down: reset in interval [23];' "$W/ivr.err"; then
	verdict PASS "ours: --interval survives a reset of the live counters"
else
	verdict FAIL "ours: --interval survives a reset of the live counters"
	show ivr
fi

# --- -M 2: x86 refuses the multiplier ----------------------------------------
for b in ul ours; do
	eval "bin=\$$(echo $b | tr a-z A-Z)"
	capture "M2-$b" "$bin" -M 2
	if [ "$(rc M2-$b)" = 1 ] && [ ! -s "$W/M2-$b.out" ] &&
		[ "$(cat "$W/M2-$b.err")" = "readprofile: error writing /proc/profile: Invalid argument" ]; then
		verdict PASS "$b: -M 2 fails with EINVAL as on x86"
	else
		verdict FAIL "$b: -M 2 fails with EINVAL as on x86"
		show "M2-$b"
	fi
done

# --- -r resets the counters ----------------------------------------------------
for b in ul ours; do
	eval "bin=\$$(echo $b | tr a-z A-Z)"
	workload
	capture "r-before-$b" "$UL" -m /proc/kallsyms
	capture "r-$b" "$bin" -r
	capture "r-after-$b" "$UL" -m /proc/kallsyms
	tb=$(total "r-before-$b")
	ta=$(total "r-after-$b")
	echo "@@RP NOTE $b -r: total ${tb:-?} before, ${ta:-?} after"
	if [ "$(rc r-$b)" = 0 ] && [ ! -s "$W/r-$b.err" ] &&
		[ "${tb:-0}" -ge 100 ] && [ -n "$ta" ] && [ $((ta * 10)) -lt "$tb" ]; then
		verdict PASS "$b: -r resets the live counters"
	else
		verdict FAIL "$b: -r resets the live counters"
		show "r-$b"
	fi
done

# --- kallsyms fallback (no -m) ---------------------------------------------------
# (a) no /boot at all, (b) a Debian-style one-line stub System.map
fallback() { # fallback TAG DESCRIPTION
	capture "fb-$1" "$OURS" -p "$S/profile"
	if [ "$(rc fb-$1)" = 0 ] && cmp -s "$W/snap-ul-default.out" "$W/fb-$1.out" &&
		grep -q '^readprofile: using /proc/kallsyms' "$W/fb-$1.err"; then
		verdict PASS "ours: no -m, $2: uses /proc/kallsyms (same report as util-linux -m kallsyms, says so on stderr)"
		head -n 2 "$W/fb-$1.err" | note
	else
		verdict FAIL "ours: no -m, $2: uses /proc/kallsyms (same report as util-linux -m kallsyms, says so on stderr)"
		show "fb-$1"
	fi
}
rm -rf /boot
fallback noboot "no /boot"
mkdir /boot
echo "ffffffffffffffff B The real System.map is in the linux-image-$(uname -r)-dbg package" \
	>"/boot/System.map-$(uname -r)"
fallback stub "stub /boot/System.map-$(uname -r)"
rm -rf /boot

# (c) unprivileged user, kptr_restrict=1: kallsyms addresses read as zero
echo 1 >/proc/sys/kernel/kptr_restrict
chmod 755 /ours /ours/readprofile
su -s /bin/sh nobody -c 'id -u; head -n 1 /proc/kallsyms' >"$W/nobody.out" 2>&1
if [ "$(head -n 1 "$W/nobody.out")" = 65534 ] &&
	sed -n 2p "$W/nobody.out" | grep -q '^0000000000000000 '; then
	verdict PASS "uid 65534 sees zero addresses in /proc/kallsyms (kptr_restrict=1)"
else
	verdict FAIL "uid 65534 sees zero addresses in /proc/kallsyms (kptr_restrict=1)"
	note <"$W/nobody.out"
fi
su -s /bin/sh nobody -c "$OURS" >"$W/fb-nobody.out" 2>"$W/fb-nobody.err"
echo $? >"$W/fb-nobody.rc"
if [ "$(rc fb-nobody)" = 1 ] && [ ! -s "$W/fb-nobody.out" ] &&
	grep -q kptr_restrict "$W/fb-nobody.err"; then
	verdict PASS "ours: no -m, uid 65534, kptr_restrict=1: fails naming kptr_restrict"
	head -n 2 "$W/fb-nobody.err" | note
else
	verdict FAIL "ours: no -m, uid 65534, kptr_restrict=1: fails naming kptr_restrict"
	show fb-nobody
fi

# (d) unprivileged user allowed to see kallsyms addresses: on Debian that takes
# both kptr_restrict=0 and perf_event_paranoid<=1 (the default 3 hides them)
echo 0 >/proc/sys/kernel/kptr_restrict
echo 1 >/proc/sys/kernel/perf_event_paranoid
chmod 755 "$S"
chmod 644 "$S/profile"
su -s /bin/sh nobody -c "$OURS -p $S/profile" >"$W/fb-shown.out" 2>"$W/fb-shown.err"
echo $? >"$W/fb-shown.rc"
if [ "$(rc fb-shown)" = 0 ] && cmp -s "$W/snap-ul-default.out" "$W/fb-shown.out"; then
	verdict PASS "ours: no -m, uid 65534, kptr_restrict=0, perf_event_paranoid=1: same report as util-linux -m kallsyms"
else
	verdict FAIL "ours: no -m, uid 65534, kptr_restrict=0, perf_event_paranoid=1: same report as util-linux -m kallsyms"
	show fb-shown
fi

# --- the snapshot, for reproducing failures on the host ------------------------
if [ "$snapfail" = 1 ] || [ "${RP_KEEP:-0}" = 1 ]; then
	send profile.gz "$S/profile"
	send kallsyms.gz "$S/kallsyms"
fi

echo "@@RP DONE"
sync
poweroff -f
