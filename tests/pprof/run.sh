#!/bin/sh
# run.sh - --pprof, --folded and C++ names against their oracles.
#
#   RP=/abs/readprofile PROFTOOL=/abs/proftool GEN=/abs/gen \
#       sh tests/pprof/run.sh
#
# pprof (go tool pprof, Debian's golang-go): on the real captures
# (fixtures/real, fixtures/arch), generated inputs (tests/differential's gen), the
# recorded gmon.out (fixtures/gmon) and programs built and run here with
# -pg: `pprof -raw` parses every profile we write; `pprof -top` lists the
# functions, ticks, percentages and total of our --top, classic, --exact,
# -s and -b alike, and `-top -nodecount=10` the ticks of our --top 10;
# `-diff_base` of two snapshots' profiles is our --baseline's (kernel and
# gmon.out); with -s,
# `-disasm` puts each counter's ticks on the instruction holding its
# address and `-list -symbolize=force` on its source line (addr2line).
# The live profile (under READPROFILE_TEST_ROOT) with a text map: its
# Mapping has the running kernel's build-id (/sys/kernel/notes), a
# snapshot's none.
# protoc --decode_raw of a small fixture's profile is pinned
# (golden/small.decode_raw); gzip -t accepts every file.  --folded is
# parsed (check.py) against --top, and for hostile names (;, spaces,
# backslashes, invalid UTF-8, a newline: symbols added to a program with
# objcopy) against --json.  C++: a program built with g++ -pg: our names
# are gprof's flat profile's, --no-demangle's are the mangled ones, which
# c++filt turns into ours, and --json gives both.  Errors: an unwritable
# --pprof file is an error naming it before any input is read, and a
# failed run leaves no file behind; outfile.sh: what the file may be and
# become.  Calls: calls.c, which counts its own calls, built with -pg for
# x86-64, i386 and s390x (under qemu): the arcs of pprof -raw and -traces
# (-sample_index=calls) and gprof -q's are its counts, -peek shows each
# function's callers and callees, the default view is the time; arcs
# from no function are *unknown*'s; two runs compared by -diff_base (and
# --baseline of them refused, pointing there); a kernel profile has no
# calls.
#
# Without go, protoc, g++, gcc or python3 the checks that need them are
# skipped, and said so.  go runs with HOME, GOCACHE and GOPATH in a
# temporary directory, GOPROXY=off, GOTOOLCHAIN=local: no network.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=pprof
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
: "${PROFTOOL:?set PROFTOOL to the proftool binary}"
: "${GEN:?set GEN to the gen binary}"

have "$PYTHON" || suite_skipped "python3 not installed"
CHECK="$PYTHON $TOP/tests/pprof/check.py"
F=$TOP/fixtures
HOME=$TMP/home GOCACHE=$TMP/gocache GOPATH=$TMP/gopath GOPROXY=off
GOTOOLCHAIN=local GOFLAGS= GOTELEMETRY=off
export HOME GOCACHE GOPATH GOPROXY GOTOOLCHAIN GOFLAGS GOTELEMETRY
mkdir "$HOME"

WHY=$TMP/why
rp() { $RP_WRAP "$RP" "$@"; }

have_go=0
if command -v go > /dev/null 2>&1 && go tool pprof -h > /dev/null 2>&1; then
	have_go=1
else
	skipped "pprof(go not installed)"
fi
pprof() { go tool pprof "$@"; }

# profile LABEL OUT ARGS...: readprofile --pprof OUT ARGS; gzip and
# pprof -raw accept it.
profile() {
	label=$1 out=$2
	shift 2
	if ! rp --pprof "$out" "$@" > "$TMP/stdout" 2> "$TMP/why" ||
	    [ -s "$TMP/stdout" ]; then
		bad "$label: readprofile --pprof $*"
		return 1
	fi
	if gzip -t "$out" 2> "$TMP/why"; then ok; else bad "$label: gzip -t"; fi
	[ $have_go = 1 ] || return 0
	if pprof -raw "$out" > "$TMP/raw" 2> "$TMP/why" &&
	    grep -q '^Samples:' "$TMP/raw"; then ok; else
		bad "$label: pprof -raw does not read it"
		return 1
	fi
}

# agree LABEL ARGS...: the checks of pprof -top against --top for ARGS.
agree() {
	label=$1
	shift
	profile "$label" "$TMP/p.pb.gz" "$@" || return
	[ $have_go = 1 ] || return 0
	# the reference: --top of the same options but -s and -b, which
	# change its lines, not its ticks
	for a in "$@"; do
		shift
		case $a in -s|-b) ;; *) set -- "$@" "$a" ;; esac
	done
	rp --top 1000000 "$@" > "$TMP/top" 2> /dev/null
	pprof -top -sample_index=samples -nodecount=1000000 -nodefraction=0 \
	    -symbolize=none "$TMP/p.pb.gz" > "$TMP/ptop" 2> "$TMP/why"
	if $CHECK top "$TMP/top" "$TMP/ptop" > "$TMP/why" 2>&1; then ok; else
		bad "$label: pprof -top differs from --top"
	fi
	pprof -top -sample_index=samples -nodecount=10 -nodefraction=0 \
	    -symbolize=none "$TMP/p.pb.gz" > "$TMP/ptop10" 2> "$TMP/why"
	if $CHECK top "$TMP/top" "$TMP/ptop10" 10 > "$TMP/why" 2>&1; then ok
	else bad "$label: pprof -top -nodecount=10 differs from --top 10"; fi
	# --folded: the same functions and ticks
	rp --folded "$@" > "$TMP/folded" 2> /dev/null
	if $CHECK folded "$TMP/top" "$TMP/folded" > "$TMP/why" 2>&1; then ok
	else bad "$label: --folded differs from --top"; fi
}

# --- kernel profiles ---------------------------------------------------------
gunzip -c "$F/real/profile.gz" > "$TMP/real.prof"
gunzip -c "$F/real/kallsyms.gz" > "$TMP/real.map"
for mode in "" --exact -s -b "--exact -s"; do
	# shellcheck disable=SC2086 # the mode is words
	agree "real $mode" -p "$TMP/real.prof" -m "$TMP/real.map" $mode
done
for a in arm64 i386 s390x; do
	agree "$a" -p "$F/arch/$a/profile.gz" -m "$F/arch/$a/kallsyms.gz"
done
for seed in 1 2 3; do
	mkdir "$TMP/g$seed" && "$GEN" "$seed" "$TMP/g$seed" > /dev/null &&
	    agree "gen $seed" -p "$TMP/g$seed/profile" -m "$TMP/g$seed/map" &&
	    agree "gen $seed --exact" --exact -p "$TMP/g$seed/profile" \
		-m "$TMP/g$seed/map"
done

# --hz: cpu/nanoseconds beside the ticks, and the period
profile "real --hz" "$TMP/hz.pb.gz" --hz 250 -p "$TMP/real.prof" \
    -m "$TMP/real.map"
if [ $have_go = 1 ]; then
	pprof -raw "$TMP/hz.pb.gz" > "$TMP/raw"
	if grep -q '^PeriodType: cpu nanoseconds' "$TMP/raw" &&
	    grep -q '^Period: 4000000$' "$TMP/raw" &&
	    grep -q '^samples/count cpu/nanoseconds' "$TMP/raw" &&
	    awk '/^Samples:/ { s = 1; next } s && /^ +[0-9]+ +[0-9]+:/ {
		if ($2 + 0 != $1 * 4000000) exit 1; n++ } /^Locations/ { s = 0 }
		END { exit n == 0 }' "$TMP/raw"; then ok; else
		echo "the samples at --hz 250 are not ticks * 4 ms" > "$TMP/why"
		bad "real --hz 250"
	fi
	pprof -raw "$TMP/p.pb.gz" > "$TMP/raw"	# the last one, without --hz
	if grep -q '^PeriodType: samples count' "$TMP/raw" &&
	    ! grep -q nanoseconds "$TMP/raw"; then ok; else
		bad "without --hz a snapshot has no cpu time"
	fi
fi

# --baseline: pprof -diff_base of two snapshots equals our difference
"$PROFTOOL" reduce le 5 "$TMP/real.prof" "$TMP/base.prof"
profile "base" "$TMP/a.pb.gz" -p "$TMP/base.prof" -m "$TMP/real.map"
profile "later" "$TMP/b.pb.gz" -p "$TMP/real.prof" -m "$TMP/real.map"
agree "--baseline" --baseline "$TMP/base.prof" -p "$TMP/real.prof" \
    -m "$TMP/real.map"
if [ $have_go = 1 ]; then
	rp --top 1000000 --baseline "$TMP/base.prof" -p "$TMP/real.prof" \
	    -m "$TMP/real.map" > "$TMP/top"
	pprof -top -sample_index=samples -nodecount=1000000 -nodefraction=0 \
	    -symbolize=none -diff_base="$TMP/a.pb.gz" "$TMP/b.pb.gz" \
	    > "$TMP/ptop" 2> "$TMP/why"
	# pprof lists a function whose difference is 0 too: leave it out
	awk '!($1 == 0 && $4 == 0 && $2 ~ /%$/)' "$TMP/ptop" > "$TMP/ptop.nz"
	if $CHECK diff "$TMP/top" "$TMP/ptop.nz" > "$TMP/why" 2>&1; then ok
	else bad "-diff_base differs from --baseline"; fi
fi

# --- protoc --decode_raw of a small profile, pinned ----------------------------
mkdir "$TMP/small" && cd "$TMP/small" || exit 1
# step 4, eight counters 3 1 0 5 2 0 7 9 (the last one *unknown*)
printf '\004\0\0\0\003\0\0\0\001\0\0\0\0\0\0\0\005\0\0\0\002\0\0\0\0\0\0\0\007\0\0\0\011\0\0\0' > profile
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T alpha' \
    '0000000000001008 T beta' '0000000000001010 t gamma;delta' \
    '0000000000001018 t epsilon' '0000000000001020 T _etext' > map
touch -d @1700000000 profile
# written whatever is installed: the checks after this one read it too
if ! rp --pprof small.pb.gz -s -p profile -m map 2> "$TMP/why"; then
	bad "small: readprofile --pprof"
elif ! command -v protoc > /dev/null 2>&1; then
	skipped "protoc(not installed)"
else
	gunzip -c small.pb.gz | protoc --decode_raw |
	    sed "s/readprofile $RP_VERSION\"/readprofile @VERSION@\"/" \
	    > "$TMP/decoded"
	if cmp -s "$TMP/decoded" "$TOP/tests/pprof/golden/small.decode_raw"
	then ok; else
		diff "$TOP/tests/pprof/golden/small.decode_raw" "$TMP/decoded" \
		    > "$TMP/why"
		bad "small: protoc --decode_raw differs from the golden file"
	fi
fi
# the same profile on standard output (but for the command line)
rp --pprof - -s -p profile -m map > stdout.pb.gz 2> "$TMP/why"
if [ "$(gunzip -c small.pb.gz | tr -c '[:print:]' '\n' | grep -v 'command:')" = \
    "$(gunzip -c stdout.pb.gz | tr -c '[:print:]' '\n' | grep -v 'command:')" ]
then ok; else bad "--pprof - differs"; fi
# the folded lines of the same
rp --folded -p profile -m map > folded
if printf '%s\n' 'alpha 3' 'beta 1' 'gamma\x3bdelta 7' 'epsilon 7' '[unknown] 9' |
    cmp -s - folded
then ok; else cp folded "$TMP/why"; bad "small: --folded"; fi

# cpu time in exact integers: 3 and 16 counters of 2^32 - 1 (12,884,901,885
# and 68,719,476,720 ticks) at 1000 Hz, and at 1 Hz past int64: clamped,
# with a warning and a comment; the counts stay exact
{
	printf '\004\0\0\0'
	i=0
	while [ $i -lt 19 ]; do printf '\377\377\377\377'; i=$((i + 1)); done
	printf '\0\0\0\0'
} > huge.prof
printf '%s\n' '0000000000001000 T _stext' '0000000000001000 T alpha' \
    '0000000000001010 T beta' '0000000000001050 T _etext' > huge.map
# decode PB.GZ: protoc's text of the profile, checked against our schema
# (tests/pprof/profile.proto: proto3, its strings must be valid UTF-8)
decode() {
	gunzip -c "$1" | protoc -I"$TOP/tests/pprof" \
	    --decode=perftools.profiles.Profile profile.proto
}
# values PB.GZ: each sample's values on a line
values() { decode "$1" | awk '/^sample {/ { if (v != "") print v; v = ""; s = 1 }
    s && /^  value:/ { v = v (v == "" ? "" : " ") $2 } /^}/ { s = 0 }
    END { if (v != "") print v }'; }
if ! command -v protoc > /dev/null 2>&1; then
	skipped "protoc(not installed)"
else
	rp --pprof h1000.pb.gz --hz 1000 -p huge.prof -m huge.map 2> "$TMP/why"
	if [ "$(values h1000.pb.gz)" = "$(printf '%s\n' \
	    '12884901885 12884901885000000' '68719476720 68719476720000000')" ] &&
	    [ ! -s "$TMP/why" ]; then ok; else
		values h1000.pb.gz >> "$TMP/why"; bad "--hz 1000: exact cpu time"
	fi
	rp --pprof h1.pb.gz --hz 1 -p huge.prof -m huge.map 2> "$TMP/err"
	if [ "$(values h1.pb.gz)" = "$(printf '%s\n' \
	    '12884901885 9223372036854775807' '68719476720 9223372036854775807')" ] &&
	    [ "$(cat "$TMP/err")" = "readprofile: warning: --pprof: clamped: 2 sample values past int64, written as 9223372036854775807" ] &&
	    decode h1.pb.gz | grep -q '^string_table: "clamped: 2 sample values'
	then ok; else
		{ cat "$TMP/err"; values h1.pb.gz; } > "$TMP/why"
		bad "--hz 1: cpu time past int64"
	fi
fi

# strings are valid UTF-8: a name and the map's file name with bytes that
# are not, escaped as --json does (\xNN, a backslash doubled)
printf '%s\n' '0000000000001000 T _stext' "0000000000001000 T $(printf 'caf\351')" \
    '0000000000001008 T back\slash' "0000000000001010 T $(printf 'caf\303\251')" \
    '0000000000001020 T _etext' > "map$(printf '\377')"
rp --pprof u8.pb.gz -p profile -m "map$(printf '\377')" 2> "$TMP/why"
if ! command -v protoc > /dev/null 2>&1; then
	skipped "protoc(not installed)"
elif decode u8.pb.gz > "$TMP/dec" 2>> "$TMP/why" &&
    grep -qxF 'string_table: "caf\\xe9"' "$TMP/dec" &&
    grep -qxF 'string_table: "back\\\\slash"' "$TMP/dec" &&
    grep -qxF 'string_table: "map\\xff"' "$TMP/dec" &&
    grep -qxF 'string_table: "map: map\\xff"' "$TMP/dec" &&
    grep -qxF 'string_table: "caf\303\251"' "$TMP/dec"; then ok
else cat "$TMP/dec" >> "$TMP/why"; bad "strings that are not UTF-8"; fi
if [ $have_go = 1 ]; then
	if pprof -raw u8.pb.gz > "$TMP/raw" 2> "$TMP/why" &&
	    grep -qF 'caf\xe9 :0 s=0' "$TMP/raw"; then ok; else
		cat "$TMP/raw" >> "$TMP/why"; bad "pprof -raw: escaped names"
	fi
fi

# the live profile's tick rate: CONFIG_HZ of the running kernel's config
# (under a test root); a snapshot's is unknown
root=$TMP/root
mkdir -p "$root/proc" "$root/boot" && cp profile "$root/proc/profile" &&
    echo CONFIG_HZ=300 > "$root/boot/config-$(uname -r)"
READPROFILE_TEST_ROOT=$root rp --pprof live.pb.gz -m map 2> /dev/null
if gunzip -c live.pb.gz | grep -a -q "tick rate: 300 Hz ($root/boot/config-" &&
    gunzip -c small.pb.gz | grep -a -q "tick rate: unknown"; then ok; else
	gunzip -c live.pb.gz | tr -c '[:print:]' '\n' | grep rate > "$TMP/why"
	bad "the live profile's CONFIG_HZ"
fi
if [ $have_go = 1 ]; then
	pprof -raw live.pb.gz > "$TMP/raw" 2> "$TMP/why"
	if grep -q '^Period: 3333333$' "$TMP/raw" &&
	    grep -q '^ *7 *23333333: ' "$TMP/raw"; then ok; else
		cp "$TMP/raw" "$TMP/why"; bad "CONFIG_HZ=300: period and cpu time"
	fi
fi
# where today's distributions keep the kernel's config, in this order:
# /boot/config-R, /usr/lib/modules/R/config (Debian from 13, Fedora,
# Arch), /lib/modules/R/config, /proc/config.gz (read through gzip); each
# alone, then each with the ones after it, a different CONFIG_HZ in each
REL=$(uname -r)
croot=$TMP/croot
cfgs="/boot/config-$REL:300 /usr/lib/modules/$REL/config:250 /lib/modules/$REL/config:1000 /proc/config.gz:100"
# cfg_put PLACE:HZ: that config under $croot
cfg_put() {
	mkdir -p "$croot$(dirname "${1%:*}")" &&
	    case ${1%:*} in
	    *.gz) printf '# CONFIG_HZ_1000 is not set\nCONFIG_HZ=%s\n' "${1#*:}" |
		gzip -c > "$croot${1%:*}" ;;
	    *) printf '# CONFIG_HZ_1000 is not set\nCONFIG_HZ=%s\n' "${1#*:}" \
		> "$croot${1%:*}" ;;
	    esac
}
# cfg_rate WHAT PLACE:HZ: the live profile's --pprof says that tick rate
cfg_rate() {
	READPROFILE_TEST_ROOT=$croot rp --pprof cfg.pb.gz -m map 2> "$TMP/why"
	if gunzip -c cfg.pb.gz | grep -a -q "tick rate: ${2#*:} Hz ($croot${2%:*})"
	then ok; else
		gunzip -c cfg.pb.gz | tr -c '[:print:]' '\n' | grep rate >> "$TMP/why"
		bad "the kernel's config, $1: CONFIG_HZ of ${2%:*}"
	fi
}
for c in $cfgs; do
	rm -rf "$croot" && mkdir -p "$croot/proc" && cp profile "$croot/proc/profile"
	cfg_put "$c" && cfg_rate "alone" "$c"
done
rm -rf "$croot" && mkdir -p "$croot/proc" && cp profile "$croot/proc/profile"
for c in $cfgs; do cfg_put "$c"; done
for c in $cfgs; do
	cfg_rate "first of those left" "$c"
	rm -f "$croot${c%:*}"
done
READPROFILE_TEST_ROOT=$croot rp --pprof cfg.pb.gz -m map 2> /dev/null
if gunzip -c cfg.pb.gz | grep -a -q "tick rate: unknown (give it with --hz)"
then ok; else bad "no kernel config: the tick rate is unknown"; fi

# what the live counters count names the sample type: CPU ticks are
# samples and, at CONFIG_HZ, CPU time; schedule() calls and KVM exits are
# counts, never time, whatever the config says
# stypes PB.GZ: its sample types, TYPE/UNIT a line
stypes() {
	decode "$1" | awk '/^string_table:/ { s = substr($0, 15)
		gsub(/^"|"$/, "", s); st[n++] = s }
	    /^sample_type {/ { t = 1; ty = 0; u = 0 }
	    t && /^  type:/ { ty = $2 } t && /^  unit:/ { u = $2 }
	    t && /^}/ { l[m++] = ty " " u; t = 0 }
	    END { for (i = 0; i < m; i++) { split(l[i], a, " ")
		printf "%s/%s\n", st[a[1]], st[a[2]] } }'
}
rm -rf "$croot" && mkdir -p "$croot/proc" "$croot/sys/kernel" &&
    cp profile "$croot/proc/profile" && cfg_put "/usr/lib/modules/$REL/config:250"
for m in "1:samples/count cpu/nanoseconds:tick rate: 250 Hz" \
    "2:schedule/calls:tick rate: none (the counters count schedule() calls, not time)" \
    "4:kvm/exits:tick rate: none (the counters count KVM exits, not time)"; do
	echo "${m%%:*}" > "$croot/sys/kernel/profiling"
	want=${m#*:}
	rate=${want#*:}
	want=${want%%:*}
	for hz in "" --hz=100; do
		READPROFILE_TEST_ROOT=$croot rp --pprof cnt.pb.gz -m map $hz \
		    2> "$TMP/why"
		gunzip -c cnt.pb.gz > "$TMP/cnt.pb"
		case ${m%%:*}$hz in
		1--hz=100) r="tick rate: 100 Hz (--hz)" ;;
		*) r=$rate ;;
		esac
		if grep -a -qF "$r" "$TMP/cnt.pb" && { [ "${m%%:*}" = 1 ] ||
		    ! grep -a -q nanoseconds "$TMP/cnt.pb"; }; then ok; else
			tr -c '[:print:]' '\n' < "$TMP/cnt.pb" | grep . >> "$TMP/why"
			bad "mode ${m%%:*}$hz: --pprof's comments ($r), CPU time only for CPU ticks"
		fi
		if ! command -v protoc > /dev/null 2>&1; then
			skipped "protoc(not installed)"
		elif [ "$(stypes cnt.pb.gz | tr '\n' ' ')" = "$want " ]; then ok
		else
			stypes cnt.pb.gz > "$TMP/why"
			bad "mode ${m%%:*}$hz: the sample types are $want"
		fi
	done
done

# the live profile with a text map: the Mapping carries the running
# kernel's build-id (/sys/kernel/notes, a Xen note before the GNU one, in
# this machine's byte order), said in a comment; a snapshot's does not
KID=0123456789abcdef0123456789abcdef01234567
mkdir -p "$root/sys/kernel" &&
    "$PYTHON" - "$root/sys/kernel/notes" "$KID" <<'PY'
import struct, sys
def note(name, typ, desc):
    n = name + b"\0"
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return struct.pack("=III", len(n), len(desc), typ) + pad(n) + pad(desc)
with open(sys.argv[1], "wb") as f:
    f.write(note(b"Xen", 6, b"linux\0") +
            note(b"GNU", 3, bytes.fromhex(sys.argv[2])))
PY
READPROFILE_TEST_ROOT=$root rp --pprof live.pb.gz -m map 2> /dev/null
rp --pprof snap.pb.gz -p profile -m map 2> /dev/null
gunzip -c live.pb.gz > "$TMP/live.pb"
gunzip -c snap.pb.gz > "$TMP/snap.pb"
if grep -aqF "build-id: $KID (the running kernel's, /sys/kernel/notes)" \
    "$TMP/live.pb" && ! grep -aqF "$KID" "$TMP/snap.pb"; then ok
else
	cat "$TMP/live.pb" "$TMP/snap.pb" | tr -c '[:print:]' '\n' |
	    grep . > "$TMP/why"
	bad "the live profile's Mapping: the running kernel's build-id"
fi
if [ $have_go = 1 ]; then
	pprof -raw live.pb.gz | sed -n '/^Mappings/{n;p;}' > "$TMP/mapping"
	pprof -raw snap.pb.gz | sed -n '/^Mappings/{n;p;}' > "$TMP/smapping"
	if grep -q " map $KID \[FN\]$" "$TMP/mapping" &&
	    grep -q " map  *\[FN\]$" "$TMP/smapping"; then ok; else
		cat "$TMP/mapping" "$TMP/smapping" > "$TMP/why"
		bad "pprof -raw: the live Mapping's build-id"
	fi
fi

# --- errors: the file ------------------------------------------------------------
# an unwritable place: named, before the (missing) profile is read
rp --pprof "$TMP/small/nodir/x.pb.gz" -p "$TMP/missing" -m map \
    > "$TMP/out" 2> "$TMP/err"
rc=$?
if [ $rc = 1 ] && [ ! -s "$TMP/out" ] && [ "$(cat "$TMP/err")" = \
    "readprofile: $TMP/small/nodir/x.pb.gz: No such file or directory" ]
then ok; else cp "$TMP/err" "$TMP/why"; bad "unwritable --pprof (rc $rc)"; fi
rp --pprof "$TMP/small" -p profile -m map > "$TMP/out" 2> "$TMP/err"
if [ $? = 1 ] && grep -q "^readprofile: $TMP/small: Is a directory$" \
    "$TMP/err"; then ok; else cp "$TMP/err" "$TMP/why"; bad "--pprof DIR"; fi
# a failure after the file was created leaves nothing; an old file stays
mkdir "$TMP/e" && echo old > "$TMP/e/old.pb.gz"
rp --pprof "$TMP/e/new.pb.gz" -p profile -m "$TMP/missing" 2> /dev/null
rp --pprof "$TMP/e/old.pb.gz" -p profile -m "$TMP/missing" 2> /dev/null
if [ "$(ls "$TMP/e")" = old.pb.gz ] && [ "$(cat "$TMP/e/old.pb.gz")" = old ]
then ok; else ls -la "$TMP/e" > "$TMP/why"; bad "a failed --pprof left files"; fi
# the file's own rules: old files, targets, links, names, owners, signals
. "$TOP/tests/pprof/outfile.sh"
if rp --pprof x --top 5 -p profile -m map 2> "$TMP/err"; then
	bad "--pprof with --top accepted"
elif grep -q "^readprofile: --pprof replaces the report: it cannot be used with --top$" "$TMP/err" &&
    [ ! -e x ] && ! ls x.tmp* > /dev/null 2>&1; then ok
else cp "$TMP/err" "$TMP/why"; bad "--pprof --top"; fi
# util-linux's abbreviations: --p is --profile, --he --help, --no --no-auto
rp --p profile --ma map > "$TMP/a" 2> /dev/null
rp --profile profile --mapfile map > "$TMP/b"
if cmp -s "$TMP/a" "$TMP/b" && [ -s "$TMP/a" ]; then ok; else bad "--p"; fi
if rp --he | grep -q -- "--pprof <file>"; then ok; else bad "--he"; fi
rp --no -p profile -m map > "$TMP/a" 2> /dev/null
rp --no-auto -p profile -m map > "$TMP/b"
if cmp -s "$TMP/a" "$TMP/b" && [ -s "$TMP/a" ]; then ok; else bad "--no"; fi
cd "$TOP" || exit 1

# --- programs built here -------------------------------------------------------
B=$TMP/build
mkdir "$B" && cd "$B" || exit 1
cp "$TOP/tests/pprof/lines.c" "$TOP/tests/pprof/names.cc" . || exit 1

# the recorded gmon.out
agree "fixtures/gmon/hot" -p "$F/gmon/hot.gmon" -m "$F/gmon/hot"
agree "fixtures/gmon/hot -s" -s -p "$F/gmon/hot.gmon" -m "$F/gmon/hot"

# a C program with -g: -disasm and -list
if ! command -v gcc > /dev/null 2>&1; then
	skipped "C(no gcc)"
elif ! gcc -O1 -g -pg -o lines lines.c 2> "$TMP/why"; then
	skipped "C(cannot build with -pg)"
else
	./lines > /dev/null && mv gmon.out lines.gmon
	agree "lines" -p lines.gmon -m lines
	agree "lines -s" -s -p lines.gmon -m lines
	agree "lines -b" -b -p lines.gmon -m lines
	# a gmon.out's --baseline (every bin halved) against -diff_base
	"$PYTHON" "$TOP/tests/views/halve.py" lines.gmon half.gmon
	agree "lines --baseline" --baseline half.gmon -p lines.gmon -m lines
	if [ $have_go = 1 ]; then
		rp --pprof half.pb.gz -p half.gmon -m lines
		rp --pprof full.pb.gz -p lines.gmon -m lines
		rp --top 1000000 --baseline half.gmon -p lines.gmon -m lines \
		    > "$TMP/top"
		pprof -top -sample_index=samples -nodecount=1000000 \
		    -nodefraction=0 -symbolize=none -diff_base=half.pb.gz \
		    full.pb.gz > "$TMP/ptop" 2> "$TMP/why"
		awk '!($1 == 0 && $4 == 0 && $2 ~ /%$/)' "$TMP/ptop" \
		    > "$TMP/ptop.nz"
		if $CHECK diff "$TMP/top" "$TMP/ptop.nz" > "$TMP/why" 2>&1
		then ok; else bad "lines: -diff_base differs from --baseline"; fi
	fi
	rp -s -p lines.gmon -m lines > "$TMP/s"
	rp --pprof s.pb.gz -s -p lines.gmon -m lines
	if [ $have_go = 1 ]; then
		for fn in hot_one hot_two; do
			pprof -disasm "$fn" -sample_index=samples s.pb.gz \
			    > "$TMP/disasm" 2> "$TMP/why"
			if $CHECK disasm "$TMP/s" "$TMP/disasm" > "$TMP/why" 2>&1
			then ok; else bad "lines: pprof -disasm $fn"; fi
		done
		# the Mapping: the program's name and build-id, its text range
		id=$(readelf -n lines | sed -n 's/^ *Build ID: *//p')
		pprof -raw s.pb.gz | sed -n '/^Mappings/{n;p;}' > "$TMP/mapping"
		if [ -n "$id" ] && grep -q " lines $id \[FN\]$" "$TMP/mapping"
		then ok; else
			echo "build-id $id" | cat - "$TMP/mapping" > "$TMP/why"
			bad "lines: the Mapping's file and build-id"
		fi
		awk -F '\t' '$4 > 0 { print $2 }' "$TMP/s" > "$TMP/addrs"
		# shellcheck disable=SC2046 # one address a word
		addr2line -e lines $(cat "$TMP/addrs") | awk '{ print $1 }' |
		    paste -d ' ' "$TMP/addrs" - > "$TMP/lines"
		pprof -list hot_two -symbolize=force -sample_index=samples \
		    s.pb.gz > "$TMP/list" 2> "$TMP/why"
		if $CHECK list "$TMP/s" "$TMP/lines" "$TMP/list" > "$TMP/why" 2>&1
		then ok; else bad "lines: pprof -list hot_two"; fi
	fi
	# hostile names, added to the program at counters with ticks
	if command -v objcopy > /dev/null 2>&1; then
		sh "$TOP/tests/pprof/hostile.sh" lines "$TMP/s" hostile \
		    > "$TMP/why" 2>&1
		if [ -f hostile ]; then
			rp -J -p lines.gmon -m hostile > "$TMP/json"
			rp --folded -p lines.gmon -m hostile > "$TMP/folded"
			if $CHECK hostile "$TMP/json" "$TMP/folded" > "$TMP/why" 2>&1 &&
			    [ "$(grep -c 'x3b\|x0a\|xff\|x5c\|x09' "$TMP/folded")" -ge 5 ]
			then ok; else bad "hostile names in --folded"; fi
			rp --pprof h.pb.gz -p lines.gmon -m hostile
			if [ $have_go = 1 ]; then
				if pprof -raw h.pb.gz > /dev/null 2> "$TMP/why"; then ok
				else bad "hostile names: pprof -raw"; fi
			fi
		else
			bad "hostile names: the program could not be made"
		fi
	else
		skipped "hostile(no objcopy)"
	fi
fi

# --- call arcs: the calls sample type -------------------------------------------
# calls.c counts its own calls; built with -pg for x86-64, i386 (under
# qemu-i386-static) and s390x (big-endian, under qemu-s390x-static), as
# the gmon suite does.  Its arcs in pprof -raw and -traces
# (-sample_index=calls) and gprof -q's are the ones it made; -peek shows
# each function's callers and callees; the default view is the time.
cp "$TOP/tests/pprof/calls.c" . || exit 1
INC32=$B/inc32
mkdir "$INC32" && ln -s /usr/include/x86_64-linux-gnu/asm "$INC32/asm"
# callgraph NAME EMULATOR WORK CC FLAGS...: build, run, check
callgraph() {
	name=$1 emu=$2 work=$3 cc=$4
	shift 4
	if ! command -v "$cc" > /dev/null 2>&1; then
		skipped "calls $name(no $cc)"; return
	elif ! "$cc" "$@" -O2 -fno-inline -fno-optimize-sibling-calls -pg \
	    -o "$name" calls.c 2> "$TMP/why"; then
		skipped "calls $name(cannot build with -pg)"; : > "$TMP/why"
		return
	elif [ "$emu" != - ] && ! command -v "$emu" > /dev/null 2>&1; then
		skipped "calls $name(no $emu)"; return
	fi
	rm -f gmon.out
	if [ "$emu" = - ]; then
		./"$name" 3 "$work" > "$name.known"
	else	# a foreign libc as a cross sysroot, or as multiarch packages
		"$emu" ./"$name" 3 "$work" > "$name.known" 2> /dev/null ||
		    { rm -f gmon.out
		    "$emu" -L "/usr/${cc%-gcc}" ./"$name" 3 "$work" > "$name.known"; }
	fi
	mv gmon.out "$name.gmon" || { bad "calls $name: no gmon.out"; return; }
	profile "calls $name" "$name.pb.gz" -p "$name.gmon" -m "$name" || return
	[ $have_go = 1 ] || return 0
	pprof -raw "$name.pb.gz" > "$name.raw" 2> "$TMP/why"
	pprof -sample_index=calls -traces "$name.pb.gz" > "$name.traces" \
	    2> "$TMP/why"
	g=
	if command -v gprof > /dev/null 2>&1; then
		gprof -b -q "$name" "$name.gmon" > "$name.gprof" && g=$name.gprof
	else
		skipped "calls $name: gprof -q(not installed)"
	fi
	if $CHECK calls "$name.known" "$name.raw" "$name.traces" $g \
	    > "$TMP/why" 2>&1; then ok; else
		bad "calls $name: the arcs are not the program's"
	fi
	for fn in leaf mid fib top main; do
		pprof -sample_index=calls -peek "^$fn\$" "$name.pb.gz" \
		    > "$name.peek" 2> "$TMP/why"
		if $CHECK peek "$name.known" "$name.peek" $fn > "$TMP/why" 2>&1
		then ok; else bad "calls $name: pprof -peek $fn"; fi
	done
	# a Location per bucket (-s, -b) and every function (-a): the same
	for o in -s -b -a; do
		[ "$name" = x86-64 ] || break
		rp --pprof "$name$o.pb.gz" $o -p "$name.gmon" -m "$name"
		pprof -raw "$name$o.pb.gz" > "$name$o.raw" 2> "$TMP/why"
		pprof -sample_index=calls -traces "$name$o.pb.gz" \
		    > "$name$o.traces" 2> "$TMP/why"
		if $CHECK calls "$name.known" "$name$o.raw" "$name$o.traces" \
		    > "$TMP/why" 2>&1; then ok; else
			bad "calls $name $o: the arcs are not the program's"
		fi
	done
	# the default view is the time, as without arcs
	pprof -top -nodecount=1000000 "$name.pb.gz" > "$TMP/dflt" 2> /dev/null
	pprof -top -nodecount=1000000 -sample_index=cpu "$name.pb.gz" \
	    > "$TMP/cpu" 2> /dev/null
	if grep -q '^Type: cpu$' "$TMP/dflt" && cmp -s "$TMP/dflt" "$TMP/cpu"
	then ok; else
		diff "$TMP/cpu" "$TMP/dflt" > "$TMP/why"
		bad "calls $name: the default view is not the time"
	fi
}
callgraph x86-64 - 5000000 gcc
callgraph i386 qemu-i386-static 2000000 gcc -m32 -I"$INC32"
callgraph s390x qemu-s390x-static 2000000 s390x-linux-gnu-gcc
if [ -f x86-64.gmon ] && [ $have_go = 1 ]; then
	# main outside every function (the map begins at leaf, above main
	# at -O2): the ends of the arcs out of it are *unknown*'s, one
	# Function with its ticks; the calls still add up to the arcs'
	lo=$(nm x86-64 | awk '$3 == "main" { print $1 }')
	hi=$(nm x86-64 | awk '$3 == "leaf" { print $1 }')
	nm -n x86-64 | awk -v m="$hi" 'NF == 3 && $1 >= m' > cut.map
	sed 's/^main /*unknown* /' x86-64.known > cut.known
	if [ "$lo" \< "$hi" ]; then
		rp --pprof cut.pb.gz -p x86-64.gmon -m cut.map 2> /dev/null
		pprof -raw cut.pb.gz > cut.raw 2> "$TMP/why"
		pprof -sample_index=calls -traces cut.pb.gz > cut.traces 2> "$TMP/why"
		# one Function *unknown*: its name once in the string table
		if $CHECK calls cut.known cut.raw cut.traces > "$TMP/why" 2>&1 &&
		    grep -q '^ *[1-9][0-9]* .*: [0-9]* $' cut.raw &&
		    { ! command -v protoc > /dev/null 2>&1 ||
		    [ "$(gunzip -c cut.pb.gz | protoc --decode_raw |
		    grep -c '^6: "\*unknown\*"$')" = 1 ]; }
		then ok; else bad "calls: *unknown*'s arcs"; fi
	else
		skipped "calls *unknown*(main does not lie below leaf)"
	fi
fi
# two runs of a program: --baseline, which subtracts snapshots of one
# run, refuses them (a bin lower) and points to pprof -diff_base, which
# compares them: the calls into each function, the second run's less the
# first's
if [ -f x86-64.gmon ] && [ $have_go = 1 ]; then
	rm -f gmon.out
	./x86-64 2 1 > short.known && mv gmon.out short.gmon
	rp --baseline x86-64.gmon -p short.gmon -m x86-64 > "$TMP/out" \
	    2> "$TMP/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$TMP/out" ] &&
	    grep -q '^readprofile: short.gmon: bin [0-9]* is lower' "$TMP/err" &&
	    grep -qF 'go tool pprof -diff_base old.pb.gz new.pb.gz' "$TMP/err"
	then ok; else
		cp "$TMP/err" "$TMP/why"
		bad "--baseline of two runs: exit $rc, no pointer to -diff_base"
	fi
	rp --pprof old.pb.gz -p x86-64.gmon -m x86-64 2> /dev/null
	rp --pprof new.pb.gz -p short.gmon -m x86-64 2> /dev/null
	pprof -top -sample_index=calls -nodecount=1000000 -diff_base old.pb.gz \
	    new.pb.gz > "$TMP/dtop" 2> "$TMP/why"
	if $CHECK diffcalls x86-64.known short.known "$TMP/dtop" > "$TMP/why" 2>&1
	then ok; else bad "two runs: pprof -diff_base's calls"; fi
fi
# a kernel profile has no calls; nor has a gmon.out's difference
rp --pprof "$TMP/k.pb.gz" -p "$TMP/real.prof" -m "$TMP/real.map"
if [ -f x86-64.gmon ]; then
	rp --pprof "$TMP/d.pb.gz" --baseline x86-64.gmon -p x86-64.gmon -m x86-64
fi
if ! gunzip -c "$TMP/k.pb.gz" | grep -aq calls &&
    { [ ! -f "$TMP/d.pb.gz" ] || ! gunzip -c "$TMP/d.pb.gz" | grep -aq calls; }
then ok; else bad "calls in a kernel profile, or in a difference"; fi

# C++: names as gprof and c++filt print them
if ! command -v g++ > /dev/null 2>&1; then
	skipped "C++(no g++)"
elif ! g++ -O1 -pg -o names names.cc 2> "$TMP/why"; then
	skipped "C++(cannot build with -pg)"
else
	./names > /dev/null && mv gmon.out names.gmon
	rp -p names.gmon -m names > "$TMP/ours" 2> "$TMP/err"
	if grep -q 'notice: C++ names are shown mangled' "$TMP/err"; then
		# a build that cannot load libstdc++'s demangler (musl): it says so
		skipped "C++(this build has no demangler: libstdc++.so.6 not loadable)"
	else
	rp --no-demangle -p names.gmon -m names > "$TMP/mangled"
	# the names of the text report, ticks first: "%6u %-40s %8.4f"
	names() { sed -n 's/^ *[0-9][0-9]* \(.*[^ ]\) *[0-9][0-9]*\.[0-9]\{4\}$/\1/p' "$1" |
	    grep -v '^total$' | grep -v '^\*unknown\*$'; }
	names "$TMP/ours" > "$TMP/ours.names"
	names "$TMP/mangled" > "$TMP/mangled.names"
	if grep -q '^ns::Widget::spin(long)$' "$TMP/ours.names" &&
	    grep -q '^_ZN2ns6Widget4spinEl$' "$TMP/mangled.names" &&
	    [ ! -s "$TMP/err" ]; then ok; else
		cat "$TMP/ours" "$TMP/err" > "$TMP/why"; bad "C++: names"
	fi
	if command -v c++filt > /dev/null 2>&1; then
		c++filt < "$TMP/mangled.names" > "$TMP/filt.names"
		if cmp -s "$TMP/filt.names" "$TMP/ours.names"; then ok; else
			diff "$TMP/filt.names" "$TMP/ours.names" > "$TMP/why"
			bad "C++: c++filt of --no-demangle's names differs"
		fi
	else
		skipped "c++filt(not installed)"
	fi
	if command -v gprof > /dev/null 2>&1; then
		# gprof's flat profile: the functions with self time
		gprof -b -p names names.gmon | awk 'NF >= 4 && $1 ~ /^[0-9.]+$/ &&
		    $3 > 0 { sub(/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9]+ +[0-9.]+ +[0-9.]+ +)?/, "");
		    print }' | sort > "$TMP/gprof.names"
		sort "$TMP/ours.names" > "$TMP/ours.sorted"
		if [ -s "$TMP/gprof.names" ] &&
		    comm -23 "$TMP/gprof.names" "$TMP/ours.sorted" | cmp -s - /dev/null
		then ok; else
			comm -3 "$TMP/gprof.names" "$TMP/ours.sorted" > "$TMP/why"
			bad "C++: a name of gprof's flat profile is not ours"
		fi
	else
		skipped "gprof(not installed)"
	fi
	rp -J -p names.gmon -m names > "$TMP/json"
	if "$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = {x["mangled"]: x["name"] for x in d["functions"]}
sys.exit(f.get("_ZN2ns6Widget4spinEl") != "ns::Widget::spin(long)")' "$TMP/json"
	then ok; else cp "$TMP/json" "$TMP/why"; bad "C++: --json names"; fi
	agree "C++" -p names.gmon -m names
	profile "C++ names" names.pb.gz -p names.gmon -m names &&
	if [ $have_go = 1 ]; then
		pprof -raw names.pb.gz > "$TMP/raw"
		if grep -q 'ns::Widget::spin(long) :0 s=0(_ZN2ns6Widget4spinEl)' \
		    "$TMP/raw"; then ok; else
			bad "C++: pprof's function and system names"
		fi
	fi
fi
fi
cd "$TOP" || exit 1

summary
