#!/bin/sh
# hostile.sh PROG REPORT OUT: PROG with function symbols of hostile names
# (a ';', a space, a backslash, a newline, a byte that is not UTF-8, a
# tab) added at the first addresses of the -s REPORT whose counters have
# ticks, so that each of them gets ticks; written to OUT.
set -eu
prog=$1 report=$2 out=$3
text=$(readelf -SW "$prog" | sed -n 's/^ *\[ *[0-9]*\] \.text  *[A-Z]* *\([0-9a-f]*\) .*/\1/p')
[ -n "$text" ]
set --
for addr in $(awk -F '\t' '$4 > 0 { print $2 }' "$report" | head -n 6); do
	case $# in
	0) name="semi;colon" ;;
	2) name="with space" ;;
	4) name='back\slash' ;;
	6) name=$(printf 'new\nline') ;;
	8) name=$(printf 'bad\377utf8') ;;
	*) name=$(printf 'tab\there') ;;
	esac
	set -- "$@" --add-symbol \
	    "$name=.text:0x$(printf '%x' $((addr - 0x$text))),global,function"
done
objcopy "$@" "$prog" "$out"
