#!/bin/busybox sh
# /init of the initramfs that tests/vm/run.sh builds for the i386, arm64 and
# s390x kernels (busybox sh). util-linux cannot run in these guests (it is
# the host's x86-64 binary), so the guest only captures: it runs a workload,
# snapshots /proc/profile and /proc/kallsyms and sends both out over the
# console; the host compares the reports. When the initramfs holds a
# readprofile built for the guest (/ours/readprofile), the guest also runs it
# and sends its results out:
#   live-i       -i on the live /proc/profile
#   snap-MODE    reports on the snapshot (MODE: default -v -a -b -s -i exact)
#   live-report  -m /proc/kallsyms on the live file, right before `profile2`,
#                a second snapshot
#   r-before, r, r-after   -m /proc/kallsyms, -r, -m /proc/kallsyms
# Console protocol (as init.sh):
#   @@RP NOTE text | @@RP BEGIN file ... base64 of gzip ... @@RP END file
#   @@RP DONE

/bin/busybox mkdir -p /proc /sys /dev /tmp
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox --install -s /bin
export PATH=/bin
exec </dev/null >/dev/console 2>&1
dmesg -n 3

OURS=/ours/readprofile
W=/tmp/w
S=/tmp/snap
mkdir -p "$W" "$S"

workload() {
	i=0
	while [ $i -lt "${RP_LOOPS:-40}" ]; do
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

# capture TAG ARGS...: ours with ARGS; sends TAG.out, TAG.err and TAG.rc
capture() {
	tag=$1; shift
	"$OURS" "$@" >"$W/$tag.out" 2>"$W/$tag.err"
	echo $? >"$W/$tag.rc"
	for f in out err rc; do
		send "$tag.$f" "$W/$tag.$f"
	done
}

echo "@@RP NOTE kernel $(uname -r) ($(uname -m)), cmdline: $(cat /proc/cmdline)"
[ -x "$OURS" ] && capture live-i -i

workload
cp /proc/profile "$S/profile"
cp /proc/kallsyms "$S/kallsyms"
echo "@@RP NOTE snapshot: $(wc -c <"$S/profile") bytes of /proc/profile, $(wc -l <"$S/kallsyms") lines of /proc/kallsyms"
send profile "$S/profile"
send kallsyms "$S/kallsyms"

if [ -x "$OURS" ]; then
	for m in default -v -a -b -s -i --exact; do
		a=$m
		[ "$m" = default ] && a=
		t=${m#--}; t=${t#-}
		capture "snap-$t" -p "$S/profile" -m "$S/kallsyms" $a
	done
	capture live-report -m /proc/kallsyms
	cp /proc/profile "$S/profile2"
	send profile2 "$S/profile2"
	workload
	capture r-before -m /proc/kallsyms
	capture r -r
	capture r-after -m /proc/kallsyms
fi

echo "@@RP DONE"
sync
poweroff -f
