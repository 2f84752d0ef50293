# shellcheck shell=sh
# newcomer.sh - sourced by tests/vm/init.sh on an amd64 kernel booted
# WITHOUT profile=: what a newcomer meets, and what --enable does.
#   RP_MODE=none      the hint, --enable refused to a user (plain and
#                     set-user-ID copies), --enable as root, -i right after,
#                     a snapshot's reports against util-linux's, EEXIST,
#                     -i -v (what the counters count, the build-id);
#   RP_MODE=schedule  `echo schedule > /sys/kernel/profiling`, then -i -v
#                     says the counters count schedule() calls.
# RP_BUILDID: the build-id of the kernel image, read on the host.

SYS=/sys/kernel/profiling
send notes "/sys/kernel/notes"

if [ "$RP_MODE" = schedule ]; then
	check "$SYS reads 0 after a boot without profile=" test "$(cat $SYS)" = 0
	if echo schedule >$SYS; then
		verdict PASS "echo schedule > $SYS: accepted"
	else
		verdict FAIL "echo schedule > $SYS: accepted"
	fi
	check "$SYS then reads 2 (schedule)" test "$(cat $SYS)" = 2
	workload
	capture sched-iv "$OURS" -i -v
	if [ "$(rc sched-iv)" = 0 ] && grep -qx 'Counting: schedule() calls' "$W/sched-iv.out" &&
		grep -qx 'Sampling_step: 1' "$W/sched-iv.out"; then
		verdict PASS "ours: -i -v says the counters count schedule() calls (step 1: schedule without ,N)"
	else
		verdict FAIL "ours: -i -v says the counters count schedule() calls (step 1: schedule without ,N)"
	fi
	note <"$W/sched-iv.out"
	capture sched-json "$OURS" --json -m /proc/kallsyms
	check "ours: --json says \"counting\":\"schedule() calls\"" \
		grep -q '"counting":"schedule() calls"' "$W/sched-json.out"
	capture sched-top "$OURS" --top 5 -m /proc/kallsyms
	check "ours: --top's first line says Counting: schedule() calls" \
		test "$(head -n 1 "$W/sched-top.out")" = "Counting: schedule() calls"
	head -n 6 "$W/sched-top.out" | note
	capture sched-enable "$OURS" --enable
	if [ "$(rc sched-enable)" = 1 ] &&
		grep -q "profiling is already on ($SYS reads 2: counting schedule() calls)" "$W/sched-enable.err"; then
		verdict PASS "ours: --enable on a kernel profiling schedule(): already on, in which mode"
	else
		verdict FAIL "ours: --enable on a kernel profiling schedule(): already on, in which mode"
		show sched-enable
	fi
	return 0
fi

# --- the hint -------------------------------------------------------------
check "no /proc/profile after a boot without profile=" test ! -e /proc/profile
check "$SYS reads 0" test "$(cat $SYS)" = 0
capture hint "$OURS" -i
if [ "$(rc hint)" = 1 ] && [ ! -s "$W/hint.out" ] &&
	grep -q '^readprofile: /proc/profile: No such file or directory$' "$W/hint.err" &&
	! awk 'length($0) > 80 { bad = 1 } END { exit !bad }' "$W/hint.err" &&
	sed 's/^readprofile:       / /' "$W/hint.err" | tr -d '\n' |
	    grep -q "readprofile: hint: profiling is off ($SYS reads 0); start it now, as root, with readprofile --enable (or: echo 2 > $SYS): no reboot is needed" &&
	! grep -q reboot\) "$W/hint.err" && ! grep -q GRUB "$W/hint.err"; then
	verdict PASS "ours: -i without /proc/profile: the hint says how to start profiling now, not to reboot"
else
	verdict FAIL "ours: -i without /proc/profile: the hint says how to start profiling now, not to reboot"
fi
note <"$W/hint.err"

# --- --enable refused to a user -------------------------------------------
# by the same name: messages start with the name it runs by
mkdir -p /ours/suid && chmod 755 /ours/suid
cp "$OURS" /ours/suid/readprofile
chmod 4755 /ours/suid/readprofile
su -s /bin/sh nobody -c "/ours/suid/readprofile --enable" >"$W/suid.out" 2>"$W/suid.err"
echo $? >"$W/suid.rc"
if [ "$(rc suid)" = 1 ] && grep -q '^readprofile: --enable is refused by a set-user-ID install' "$W/suid.err" &&
	[ "$(cat $SYS)" = 0 ]; then
	verdict PASS "ours: --enable as uid 65534 through a set-user-ID root copy: refused, $SYS untouched"
else
	verdict FAIL "ours: --enable as uid 65534 through a set-user-ID root copy: refused, $SYS untouched"
	show suid
fi
su -s /bin/sh nobody -c "$OURS --enable" >"$W/user.out" 2>"$W/user.err"
echo $? >"$W/user.rc"
if [ "$(rc user)" = 1 ] && grep -q '^readprofile: --enable needs root' "$W/user.err" &&
	[ "$(cat $SYS)" = 0 ]; then
	verdict PASS "ours: --enable as uid 65534: refused (needs root)"
else
	verdict FAIL "ours: --enable as uid 65534: refused (needs root)"
	show user
fi

# --- --enable as root -------------------------------------------------------
capture en-root "$OURS" --enable
mem=$(($(stat -c %s /proc/profile 2>/dev/null || echo 4) - 4))
printf 'Started: 2\nCounting: CPU ticks\nSampling_step: 4\nKernel_memory: %s bytes, until the next boot\n' \
	"$mem" >"$W/en-root.expect"
if [ "$(rc en-root)" = 0 ] && [ ! -s "$W/en-root.err" ] && cmp -s "$W/en-root.expect" "$W/en-root.out" &&
	[ "$(cat $SYS)" = 1 ] && [ "$mem" -gt 0 ]; then
	verdict PASS "ours: --enable as root: profiling started, mode, step and memory reported ($SYS reads 1)"
else
	verdict FAIL "ours: --enable as root: profiling started, mode, step and memory reported ($SYS reads 1)"
	show en-root
fi
note <"$W/en-root.out"
for b in ours ul; do
	bin=$OURS; [ "$b" = ul ] && bin=$UL
	capture "en-i-$b" "$bin" -i
	check "$b: -i right after --enable prints Sampling_step: 4" \
		test "$(rc en-i-$b):$(cat $W/en-i-$b.out)" = "0:Sampling_step: 4"
done

# --- a report, as util-linux's, on a snapshot -----------------------------------
workload
cp /proc/profile "$S/profile"
cp /proc/kallsyms "$S/kallsyms"
for m in default -a -v; do
	a=$m
	[ "$m" = default ] && a=
	capture "en-ul$m" "$UL" -p "$S/profile" -m "$S/kallsyms" $a
	capture "en-ours$m" "$OURS" -p "$S/profile" -m "$S/kallsyms" $a
	t=$(total en-uldefault)	# the ticks column of the default format
	if [ "${t:-0}" -gt 0 ] && cmp -s "$W/en-ul$m.out" "$W/en-ours$m.out" &&
		[ "$(rc en-ul$m)" = "$(rc en-ours$m)" ]; then
		verdict PASS "after --enable, snapshot $m: util-linux's report (total $t)"
	else
		verdict FAIL "after --enable, snapshot $m: util-linux's report (total ${t:-?})"
		diff "$W/en-ul$m.out" "$W/en-ours$m.out" | head -n 10 | note
	fi
done

# --- EEXIST: the kernel takes the switch once per boot --------------------------
if echo schedule >$SYS 2>"$W/eexist.sh"; then
	verdict FAIL "echo schedule > $SYS after --enable: refused by the kernel (EEXIST)"
else
	verdict PASS "echo schedule > $SYS after --enable: refused by the kernel (EEXIST)"
	note <"$W/eexist.sh"
fi
capture again "$OURS" --enable=schedule,2
if [ "$(rc again)" = 1 ] && [ ! -s "$W/again.out" ] &&
	grep -q "^readprofile: profiling is already on ($SYS reads 1: counting CPU ticks): the kernel starts it once per boot, so its mode cannot change until the next boot" "$W/again.err" &&
	[ "$(cat $SYS)" = 1 ]; then
	verdict PASS "ours: --enable=schedule,2 once profiling is on: already on, counting CPU ticks, not until the next boot"
else
	verdict FAIL "ours: --enable=schedule,2 once profiling is on: already on, counting CPU ticks, not until the next boot"
	show again
fi

# --- -i -v: what the counters count, the last counter, the build-id -------------
capture en-iv "$OURS" -i -v -m /proc/kallsyms
note <"$W/en-iv.out"
check "ours: -i -v says Counting: CPU ticks" grep -qx 'Counting: CPU ticks' "$W/en-iv.out"
check "ours: -i -v says the last counter also holds ticks outside the text (6.1)" \
	grep -q "^Last_counter: text and every tick outside it (kernel $(uname -r): up to 6.10" "$W/en-iv.out"
check "ours: -i -v prints the build-id of /sys/kernel/notes: the kernel image's (${RP_BUILDID:-unknown})" \
	grep -qx "Kernel_build_id: ${RP_BUILDID:-none} (/sys/kernel/notes)" "$W/en-iv.out"
