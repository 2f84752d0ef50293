# shellcheck shell=sh
# current.sh - sourced by tests/vm/init.sh on a current Debian kernel
# (trixie's 6.12, sid's 7.x) booted WITHOUT profile=:
#   RP_MODE=current           --enable=sleep (gone since 6.11), --enable,
#                             a workload, then -i -v, --top, --pprof, and a
#                             snapshot's reports against util-linux's with
#                             its map's names cut to util-linux's line length
#   RP_MODE=current-schedule  --enable=schedule, a workload, then -i -v,
#                             --top, --json and --pprof name schedule() calls
# RP_CONFIG: where the kernel's package installs its config (/boot/config-R
# on trixie, /usr/lib/modules/R/config on sid): the initramfs's /kconfig is
# put there, so that the program finds it as on an installed system.

SYS=/sys/kernel/profiling
if [ -n "${RP_CONFIG:-}" ] && [ -f /kconfig ]; then
	mkdir -p "$(dirname "$RP_CONFIG")"
	cp /kconfig "$RP_CONFIG"
fi
hz=$(sed -n 's/^CONFIG_HZ=//p' /kconfig 2>/dev/null)
echo "@@RP NOTE config at ${RP_CONFIG:-?}: CONFIG_HZ=${hz:-?}, $(grep -c . /proc/kallsyms) kallsyms lines, the longest $(awk '{ if (length($0) > n) n = length($0) } END { print n }' /proc/kallsyms) bytes"
check "no /proc/profile after a boot without profile=" test ! -e /proc/profile
check "$SYS reads 0" test "$(cat $SYS)" = 0

# pprof_out TAG: --pprof of the live profile, sent out as TAG.pprof (the
# host decodes its sample types), and its bytes, decompressed, in TAG.pb
pprof_out() {
	capture "$1" "$OURS" --pprof "$W/$1.pb.gz" -m /proc/kallsyms
	[ -s "$W/$1.pb.gz" ] && send "$1.pprof" "$W/$1.pb.gz"
	gzip -dc "$W/$1.pb.gz" >"$W/$1.pb" 2>/dev/null
}
# top_total TAG: the ticks of --top's total row
top_total() { awk '$NF == "total" { print $1 }' "$W/$1.out"; }

if [ "$RP_MODE" = current-schedule ]; then
	capture en "$OURS" --enable=schedule
	note <"$W/en.out"
	if [ "$(rc en)" = 0 ] && grep -qx 'Counting: schedule() calls' "$W/en.out" &&
		grep -qx 'Sampling_step: 1' "$W/en.out" && [ "$(cat $SYS)" = 2 ]; then
		verdict PASS "ours: --enable=schedule: started, counting schedule() calls, step 1 ($SYS reads 2)"
	else
		verdict FAIL "ours: --enable=schedule: started, counting schedule() calls, step 1 ($SYS reads 2)"
		show en
	fi
	workload
	capture iv "$OURS" -i -v
	note <"$W/iv.out"
	check "ours: -i -v says Counting: schedule() calls" grep -qx 'Counting: schedule() calls' "$W/iv.out"
	capture top "$OURS" --top 5 -m /proc/kallsyms
	head -n 8 "$W/top.out" | note
	check "ours: --top names what it counts: Counting: schedule() calls, then a calls column" \
		test "$(sed -n 1p "$W/top.out")|$(sed -n 2p "$W/top.out")" = \
		"Counting: schedule() calls| calls     load   share function"
	t=$(top_total top)
	check "ours: --top's total row has calls (${t:-?})" test "${t:-0}" -gt 0
	capture js "$OURS" --json -m /proc/kallsyms
	check "ours: --json says \"counting\":\"schedule() calls\"" \
		grep -q '"counting":"schedule() calls"' "$W/js.out"
	pprof_out sched
	if [ "$(rc sched)" = 0 ] && ! grep -aq nanoseconds "$W/sched.pb" &&
		grep -aqF 'counting: schedule() calls' "$W/sched.pb" &&
		grep -aqF 'tick rate: none (the counters count schedule() calls, not time)' "$W/sched.pb"; then
		verdict PASS "ours: --pprof of the schedule profile: counts schedule calls, no CPU time (CONFIG_HZ=${hz:-?} in $RP_CONFIG)"
	else
		verdict FAIL "ours: --pprof of the schedule profile: counts schedule calls, no CPU time (CONFIG_HZ=${hz:-?} in $RP_CONFIG)"
		show sched
	fi
	return 0
fi

# --- --enable=sleep: gone since 6.11, the kernel starts nothing ------------
capture sleep "$OURS" --enable=sleep
note <"$W/sleep.err"
if [ "$(rc sleep)" = 1 ] && [ "$(cat $SYS)" = 0 ] &&
	grep -q 'profile=sleep was removed in Linux 6.11' "$W/sleep.err"; then
	verdict PASS "ours: --enable=sleep: the kernel starts nothing ($SYS still reads 0), and the message says profile=sleep was removed in 6.11"
else
	verdict FAIL "ours: --enable=sleep: the kernel starts nothing ($SYS still reads 0), and the message says profile=sleep was removed in 6.11"
	show sleep
fi

# --- --enable -------------------------------------------------------------
capture en "$OURS" --enable
note <"$W/en.out"
mem=$(($(stat -c %s /proc/profile 2>/dev/null || echo 4) - 4))
printf 'Started: 2\nCounting: CPU ticks\nSampling_step: 4\nKernel_memory: %s bytes, until the next boot\n' \
	"$mem" >"$W/en.expect"
if [ "$(rc en)" = 0 ] && [ ! -s "$W/en.err" ] && cmp -s "$W/en.expect" "$W/en.out" &&
	[ "$(cat $SYS)" = 1 ]; then
	verdict PASS "ours: --enable: profiling started, CPU ticks at step 4 ($SYS reads 1)"
else
	verdict FAIL "ours: --enable: profiling started, CPU ticks at step 4 ($SYS reads 1)"
	show en
fi
workload

# --- -i -v, without -m and with it ------------------------------------------
capture iv "$OURS" -i -v
note <"$W/iv.out"
sed 's/^/-i -v stderr: /' "$W/iv.err" | note
check "ours: -i -v says Counting: CPU ticks" grep -qx 'Counting: CPU ticks' "$W/iv.out"
check "ours: -i -v: the last counter is text only (kernel $(uname -r), from 6.11)" \
	grep -q "^Last_counter: text (kernel $(uname -r): from 6.11" "$W/iv.out"
capture ivm "$OURS" -i -v -m /proc/kallsyms
note <"$W/ivm.out"
check "ours: -i -v -m /proc/kallsyms: the map matches" grep -qx 'Map: /proc/kallsyms matches' "$W/ivm.out"

# --- --top on the live file, and the total of a report right after ----------
capture top "$OURS" --top 5 -m /proc/kallsyms
head -n 8 "$W/top.out" | note
t=$(top_total top)
if [ "$(rc top)" = 0 ] && [ ! -s "$W/top.err" ] &&
	[ "$(sed -n 1p "$W/top.out")|$(sed -n 2p "$W/top.out")" = "Counting: CPU ticks| ticks     load   share function" ] &&
	[ "${t:-0}" -gt 0 ]; then
	verdict PASS "ours: --top 5 on the live file: Counting: CPU ticks, then ticks, load, share and the name; a total row ($t)"
else
	verdict FAIL "ours: --top 5 on the live file: Counting: CPU ticks, then ticks, load, share and the name; a total row (${t:-?})"
	show top
fi

# --- --pprof: CPU time at CONFIG_HZ from the package's config place ---------
pprof_out cpu
if [ "$(rc cpu)" = 0 ] && grep -aq nanoseconds "$W/cpu.pb" &&
	grep -aqF "tick rate: $hz Hz ($RP_CONFIG)" "$W/cpu.pb"; then
	verdict PASS "ours: --pprof: CPU time at CONFIG_HZ=$hz, read from $RP_CONFIG"
else
	verdict FAIL "ours: --pprof: CPU time at CONFIG_HZ=${hz:-?}, read from $RP_CONFIG"
	show cpu
fi

# --- a snapshot: read whole; util-linux's reports on its names cut short -----
cp /proc/profile "$S/profile"
cp /proc/kallsyms "$S/kallsyms"
# util-linux reads a map line into 128 bytes: 126 and the newline
awk 'length($0) > 126 { $0 = substr($0, 1, 126) } { print }' "$S/kallsyms" >"$S/short"
long=$(awk 'length($0) > 126 { n++ } END { print n + 0 }' "$S/kallsyms")
capture whole "$OURS" -p "$S/profile" -m "$S/kallsyms"
capture short "$OURS" -p "$S/profile" -m "$S/short"
capture ulfull "$UL" -p "$S/profile" -m "$S/kallsyms"
echo "@@RP NOTE $long kallsyms lines longer than util-linux's 126 bytes; util-linux on the whole map: exit $(rc ulfull), $(head -n 1 "$W/ulfull.err")" 
if [ "$(rc whole)" = 0 ] && [ ! -s "$W/whole.err" ] && cmp -s "$W/whole.out" "$W/short.out"; then
	verdict PASS "ours: the snapshot with its whole kallsyms ($long long lines): exit 0, no message, the report of the names cut short"
else
	verdict FAIL "ours: the snapshot with its whole kallsyms ($long long lines): exit 0, no message, the report of the names cut short"
	show whole
fi
snapfail=0
snapshot_reports "$S/short" ", names cut to 126 bytes"
t=$(awk '$2 == "total" { print $1 }' "$W/snap-uldefault.out")
echo "@@RP NOTE snapshot: $(wc -c <"$S/profile") bytes, util-linux total ${t:-?} ticks"
if [ "$snapfail" = 1 ] || [ "${RP_KEEP:-0}" = 1 ]; then
	send profile.gz "$S/profile"
	send kallsyms.gz "$S/kallsyms"
fi
