#!/bin/sh
# run.sh - the ELF symbol source against binutils nm.
#
#   RP=/abs/readprofile SYMDUMP=/abs/symdump sh tests/elf/run.sh
#
# With every toolchain found (as/ld for x86-64 and i386, s390x-linux-gnu-
# for big-endian 64 and 31 bit), assembles text.s and kernel.s into
# relocatable objects, executables and shared objects, then checks:
#   - the symbol stream (symdump) equals `nm -n --defined-only` (nm -D
#     when there is no .symtab), on these and on the project's own files;
#   - every report of `-m ELF` equals the one of `-m MAP`, MAP being that
#     nm output (stdout, exit status, and stderr but for the file name);
#   - a kernel image gets exactly scripts/mksysmap's filter;
#   - decompressed and standard-input ELF files read the same;
#   - broken ELF files give one clear error, exit 1 and no output.
# Prints FAIL lines and "elf: N passed, N failed".  Takes a few seconds.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=elf
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary}"
: "${SYMDUMP:?set SYMDUMP to the symdump helper}"

# ---- objects ---------------------------------------------------------------
# build NAME AS ASFLAGS LD LDEMUL NM: NAME.o, NAME.exe, NAME.so (and kernel)
OBJS=
build() {
	name=$1 as=$2 asf=$3 ld=$4 emul=$5 nm=$6
	have "$as" && have "$ld" && have "$nm" ||
		{ skipped "$name objects: no $as, $ld or $nm"; return 0; }
	# shellcheck disable=SC2086
	"$as" $asf -o "$TMP/$name.o" "$TOP/tests/elf/text.s" &&
	"$as" $asf -L -o "$TMP/k$name.o" "$TOP/tests/elf/kernel.s" &&
	# no ifunc in a static executable (s390x ld crashes on it)
	sed '/ifn/d' "$TOP/tests/elf/text.s" > "$TMP/noifunc.s" &&
	"$as" $asf -o "$TMP/noifunc.o" "$TMP/noifunc.s" &&
	"$ld" -m "$emul" -e _stext -o "$TMP/$name.exe" "$TMP/noifunc.o" &&
	"$ld" -m "$emul" -shared -o "$TMP/$name.so" "$TMP/$name.o" &&
	"$ld" -m "$emul" -e _stext -o "$TMP/k$name.exe" "$TMP/k$name.o" ||
		{ bad "cannot build the $name objects"; return 0; }
	for f in "$name.o" "$name.exe" "$name.so" "k$name.o" "k$name.exe"; do
		OBJS="$OBJS $f:$nm"
	done
}
# buildc NAME CC CFLAGS NM: tests/elf/prog.c compiled to NAME.o and NAME.so
buildc() {
	name=$1 cc=$2 cf=$3 nm=$4
	have "$cc" && have "$nm" || { skipped "$name: no $cc or $nm"; return 0; }
	# shellcheck disable=SC2086
	if "$cc" $cf -O2 -fPIC -fno-toplevel-reorder -c -o "$TMP/$name.o" \
	    "$TOP/tests/elf/prog.c" 2>/dev/null &&
	    "$cc" $cf -shared -nostdlib -o "$TMP/$name.so" "$TMP/$name.o" 2>/dev/null; then
		OBJS="$OBJS $name.o:$nm $name.so:$nm"
	else
		skipped "$name: $cc $cf cannot build prog.c"
	fi
}
buildc cx64 "${CC:-cc}" -m64 nm
buildc cx32 "${CC:-cc}" -m32 nm
buildc cs64 s390x-linux-gnu-gcc -m64 s390x-linux-gnu-nm
build x64 as --64 ld elf_x86_64 nm
build x32 as --32 ld elf_i386 nm
build s64 s390x-linux-gnu-as -m64 s390x-linux-gnu-ld elf64_s390 s390x-linux-gnu-nm
build s31 s390x-linux-gnu-as -m31 s390x-linux-gnu-ld elf_s390 s390x-linux-gnu-nm
case $OBJS in *s64*) ;; *) echo "elf: note: no s390x-linux-gnu binutils, big-endian objects not tested" ;; esac
case $OBJS in *x32*) ;; *) echo "elf: note: i386 objects not tested" ;; esac

# nmlist NM FILE: nm's defined symbols, widened to 16 digits, without the
# unnamed ones (a text map cannot hold them).
nmlist() {
	d=
	readelf -S -W "$2" 2>/dev/null | grep -q ' \.symtab ' || d=-D
	"$1" $d -n --defined-only "$2" |
		grep -v '^[0-9a-f]* . *$' |
		sed -E 's/^([0-9a-f]{8}) /00000000\1 /'
}

# The filter of the kernel's scripts/mksysmap.
mksysmap() {
	grep -v -e ' [aNUw] ' -e ' \$' -e ' \.L' -e ' __crc_' -e ' __kstrtab_' \
	    -e ' __kstrtabns_' -e ' L0$'
}

# ---- symbol streams --------------------------------------------------------
# symbols FILE NM [FILTER]
symbols() {
	nmlist "$2" "$1" > "$TMP/want" 2>/dev/null || { bad "$2 $1 failed"; return; }
	[ "${3:-}" = kernel ] && { mksysmap < "$TMP/want" > "$TMP/w2"; mv "$TMP/w2" "$TMP/want"; }
	if "$SYMDUMP" "$1" > "$TMP/got" 2> "$TMP/err" && cmp -s "$TMP/want" "$TMP/got"; then
		ok
	else
		bad "symbols of ${1#"$TMP"/} differ from $2's:"
		diff "$TMP/want" "$TMP/got" | head -n 8
		head -n 3 "$TMP/err"
	fi
}
for o in $OBJS; do
	f=${o%%:*} nm=${o#*:}
	case $f in k*) symbols "$TMP/$f" "$nm" kernel ;; *) symbols "$TMP/$f" "$nm" ;; esac
done
# the project's own files, and a few of the system's
for f in "$TOP"/build/*.o "$RP" /bin/sh /usr/lib/x86_64-linux-gnu/libc.so.6 \
    /usr/lib/x86_64-linux-gnu/libm.so.6; do
	[ -f "$f" ] && have nm && symbols "$f" nm
done
# names that are suffixes of a few long strings, many at one address, some
# the same name: nm's order by name without re-reading the shared bytes
if have nm && ${CC:-cc} -std=c11 -O2 -o "$TMP/suffixelf" \
    "$TOP/tests/elf/suffixelf.c" 2>/dev/null; then
	"$TMP/suffixelf" 3000 20000 "$TMP/suffix.exe" mixed &&
		symbols "$TMP/suffix.exe" nm
else
	skipped "names sharing their bytes: no nm, or no ${CC:-cc} for tests/elf/suffixelf.c"
fi
# without linux_banner, no filter
if have nm && [ -f "$TMP/kx64.o" ]; then
	sed 's/linux_banner/not_banner/' "$TOP/tests/elf/kernel.s" > "$TMP/nob.s"
	as -L -o "$TMP/nob.o" "$TMP/nob.s" && symbols "$TMP/nob.o" nm
	grep -q ' L0$' "$TMP/got" && ok || bad "the kernel filter ran without linux_banner"
fi

# ---- reports ---------------------------------------------------------------
# profile FILE.map OUT: a profile fitting the map's text, pseudo-random
# counts with runs of zeros; OUT.base holds half of each count.
profile() {
	s=$(awk '$3 == "_stext" { print $1; exit }' "$1")
	e=$(awk '$3 == "_etext" { print $1; exit }' "$1")
	n=$(( (0x$e - 0x$s) / 4 ))
	awk -v n="$n" -v half="$3" 'BEGIN {
		srand(n); printf "4"
		for (i = 1; i < n; i++) {
			v = (rand() < 0.3) ? 0 : int(rand() * 1000)
			printf " %d", half ? int(v / 2) : v
		}
		printf " 7\n"
	}' > "$2.words"
	sh "$TOP/tests/golden/mkprof.sh" "$2.words" "$2"
}

# same PREFIX WHAT: the ELF map's run (PREFIXout1, PREFIXerr1, PREFIXrc1)
# succeeded with output and equals the text map's (PREFIXout2e, ...).
same() {
	if cmp -s "$TMP/${1}out1" "$TMP/${1}out2e" && cmp -s "$TMP/${1}rc1" "$TMP/${1}rc2" &&
	    cmp -s "$TMP/${1}err1" "$TMP/${1}err2e" &&
	    [ -s "$TMP/${1}out1" ] && [ "$(cat "$TMP/${1}rc1")" = 0 ]; then
		ok
	else
		bad "$2 differs from the nm map's"
		diff "$TMP/${1}out2e" "$TMP/${1}out1" | head -n 6
		diff "$TMP/${1}err2e" "$TMP/${1}err1" | head -n 4
	fi
}

OPTS='-v|-a|-b|-s|-a -b|-v -s|-a -v|--exact|--exact -v -a|-i -v|--baseline base'
# reports FILE NM [FILTER]
reports() {
	nm -n --defined-only "$1" > /dev/null 2>&1 || true
	"$2" -n --defined-only "$1" > "$TMP/map" || { bad "$2 $1"; return; }
	[ "${3:-}" = kernel ] && { mksysmap < "$TMP/map" > "$TMP/m2"; mv "$TMP/m2" "$TMP/map"; }
	profile "$TMP/map" "$TMP/prof" 0 && profile "$TMP/map" "$TMP/base" 1 ||
		{ bad "cannot make a profile for $1"; return; }
	# one counter too many: the wrong-map warning
	printf '1\n' >> "$TMP/prof.words"
	sh "$TOP/tests/golden/mkprof.sh" "$TMP/prof.words" "$TMP/prof2"
	(cd "$TMP" && ln -sf "$1" elf)
	IFS='|'
	for opt in '' $OPTS; do
		unset IFS
		ps=prof	# prof2 has one counter more than base
		case $opt in ''|'-i -v'|-v) ps='prof prof2' ;; esac
		for p in $ps; do
			# shellcheck disable=SC2086
			(cd "$TMP" && "$RP" -p $p -m elf $opt > out1 2> err1; echo $? > rc1
			 "$RP" -p $p -m ./map $opt > out2 2> err2; echo $? > rc2)
			# -i -v: an ELF map's build-id, readelf's, is one line more
			if [ "$opt" = '-i -v' ]; then
				bid=$(readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p' | head -n 1)
				got=$(sed -n 's/^Map_build_id: //p' "$TMP/out1")
				[ "$got" = "$bid" ] && ok ||
					bad "-i -v of ${1#"$TMP"/}: Map_build_id '$got', readelf says '$bid'"
				sed -i '/^Map_build_id: /d' "$TMP/out1"
			fi
			# the messages name the map as given: ./map, not "the map"
			sed 's#\./map#elf#g' "$TMP/err2" > "$TMP/err2e"
			sed 's#^Map: \./map #Map: elf #' "$TMP/out2" > "$TMP/out2e"
			same "" "report '$opt' of ${1#"$TMP"/} (-p $p)"
		done
		IFS='|'
	done
	unset IFS
}
for o in $OBJS; do
	f=${o%%:*} nm=${o#*:}
	case $f in k*) reports "$TMP/$f" "$nm" kernel ;; *) reports "$TMP/$f" "$nm" ;; esac
done

# ---- other ways in ---------------------------------------------------------
if [ -f "$TMP/x64.exe" ]; then
	nm -n --defined-only "$TMP/x64.exe" > "$TMP/map"
	profile "$TMP/map" "$TMP/prof" 0
	# stderr too: the warning of ticks past the last symbol names the
	# map, which is read the same whichever way it comes in
	same_map() { sed 's/ ticks lie past the last symbol of .* (0x/ ticks lie past the last symbol of MAP (0x/' "$1"; }
	"$RP" -p "$TMP/prof" -m "$TMP/x64.exe" -v > "$TMP/want0" 2>&1
	same_map "$TMP/want0" > "$TMP/want"
	for z in gzip xz; do
		have $z || continue
		$z -c "$TMP/x64.exe" > "$TMP/x.$z"
		case $z in gzip) zf=$TMP/x.gz; mv "$TMP/x.$z" "$zf" ;; *) zf=$TMP/x.$z ;; esac
		"$RP" -p "$TMP/prof" -m "$zf" -v > "$TMP/got0" 2>&1 &&
			same_map "$TMP/got0" > "$TMP/got" &&
			cmp -s "$TMP/want" "$TMP/got" && ok || bad "-m FILE.$z differs"
	done
	"$RP" -p "$TMP/prof" -m - -v < "$TMP/x64.exe" > "$TMP/got0" 2>&1 &&
		same_map "$TMP/got0" > "$TMP/got" &&
		cmp -s "$TMP/want" "$TMP/got" && ok || bad "-m - (an ELF on stdin) differs"
fi

# ---- a zero step word (64-bit big-endian kernels) ---------------------------
# The step is inferred from the map's text; every report then equals the
# one with the same map as `nm -n` text, whichever way the ELF comes in.
zerostep() {
	f=$1 nm=$2
	"$nm" -n --defined-only "$f" | mksysmap > "$TMP/zmap" || { bad "$nm $f"; return; }
	profile "$TMP/zmap" "$TMP/zprof" 0 || { bad "cannot make a profile for $f"; return; }
	sed '1s/^4 /0 /' "$TMP/zprof.words" > "$TMP/zprof0.words"
	sh "$TOP/tests/golden/mkprof.sh" "$TMP/zprof0.words" "$TMP/zprof0"
	for opt in '' -a -s -b -v --exact --top=3 --json -i -iv; do
		for how in file xz stdin; do
			# shellcheck disable=SC2086
			(cd "$TMP" && "$RP" -p zprof0 -m ./zmap $opt > zout2 2> zerr2; echo $? > zrc2
			 case $how in
			 file) "$RP" -p zprof0 -m ./zmap.elf $opt ;;
			 xz) "$RP" -p zprof0 -m ./zmap.elf.xz $opt ;;
			 stdin) "$RP" -p zprof0 -m - $opt < ./zmap.elf ;;
			 esac > zout1 2> zerr1; echo $? > zrc1)
			case $how in
			file) mn=./zmap.elf ;; xz) mn=./zmap.elf.xz ;; stdin) mn=- ;;
			esac
			sed "s#\\./zmap\\b#$mn#g" "$TMP/zerr2" > "$TMP/zerr2e"
			sed "s#\\./zmap\\b#$mn#g" "$TMP/zout2" > "$TMP/zout2e"
			same z "zero step word: report '$opt' of ${f#"$TMP"/} ($how)"
		done
	done
}
for o in $OBJS; do
	f=${o%%:*} nm=${o#*:}
	case $f in
	k*.exe)
		cp "$TMP/$f" "$TMP/zmap.elf"
		xz -c "$TMP/$f" > "$TMP/zmap.elf.xz" 2>/dev/null ||
			{ bad "xz cannot compress $f"; continue; }
		zerostep "$TMP/$f" "$nm" ;;
	esac
done

# ---- broken files ----------------------------------------------------------
# patch FILE OFFSET BYTES...: overwrite bytes (decimal values) at OFFSET
patch() {
	f=$1 off=$2
	shift 2
	for b in "$@"; do
		printf "\\$(printf %03o "$b")"
	done | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
# broken NAME WANT: readprofile on $TMP/NAME must fail with WANT
broken() {
	"$RP" -p "$TMP/prof" -m "$TMP/$1" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	    grep -q "^readprofile: $TMP/$1: .*$2" "$TMP/err"; then
		ok
	else
		bad "$1: wanted exit 1 and '$2', got $rc: $(head -c 300 "$TMP/err")"
	fi
}
# hex2dec HEX
h() { printf '%d' "0x$1"; }
if [ -f "$TMP/x64.o" ]; then
	src=$TMP/x64.o
	shoff=$(readelf -h "$src" | awk '/Start of section headers/ { print $5 }')
	symidx=$(readelf -S -W "$src" | awk '$2 == ".symtab" || $3 == ".symtab" { gsub(/[][]/, ""); print $1; exit }')
	symidx=${symidx%]}
	symidx=${symidx#[}
	sh64=$((shoff + symidx * 64))
	symoff=$(readelf -S -W "$src" | sed -n 's/.*\] \.symtab *SYMTAB *[0-9a-f]* \([0-9a-f]*\).*/\1/p')
	symoff=$(h "$symoff")
	mk() { cp "$src" "$TMP/$1"; }
	head -c 10 "$src" > "$TMP/short1";		broken short1 "truncated ELF header"
	head -c 60 "$src" > "$TMP/short2";		broken short2 "truncated ELF header"
	head -c 600 "$src" > "$TMP/short3";		broken short3 "outside the file"
	mk class; patch "$TMP/class" 4 9;		broken class "unknown ELF class 9"
	mk order; patch "$TMP/order" 5 3;		broken order "unknown ELF byte order 3"
	mk noshdr; patch "$TMP/noshdr" 40 0 0 0 0 0 0 0 0; broken noshdr "no section headers"
	mk shent; patch "$TMP/shent" 58 8 0;		broken shent "section header size 8"
	mk shnum; patch "$TMP/shnum" 60 255 127;	broken shnum "section header table lies outside"
	mk symoff; patch "$TMP/symoff" $((sh64 + 24)) 0 0 0 0 0 0 0 1; broken symoff "symbol table lies outside"
	mk symsize; patch "$TMP/symsize" $((sh64 + 32)) 0 0 0 0 48 0 0 0; broken symsize "symbol count 8589934592 does not fit (at most 16777216)"
	mk symodd; patch "$TMP/symodd" $((sh64 + 32)) 25 0 0 0 0 0 0 0; broken symodd "not a whole number"
	mk entsize; patch "$TMP/entsize" $((sh64 + 56)) 7 0 0 0 0 0 0 0; broken entsize "entry size 7, not 24"
	mk link; patch "$TMP/link" $((sh64 + 40)) 255 255 0 0; broken link "not a string table"
	mk name; patch "$TMP/name" $((symoff + 24)) 255 255 255 127; broken name "symbol 1: name offset 2147483647"
	mk shndx; patch "$TMP/shndx" $((symoff + 24 + 6)) 52 18; broken shndx "section index 4660 out of range"
	if have strip && [ -f "$TMP/x64.exe" ]; then
		strip -o "$TMP/stripped" "$TMP/x64.exe";	broken stripped "no symbol table (stripped); use the unstripped file"
	fi
fi

summary
