#!/bin/sh
# mkprof.sh WORDS OUT - build a binary profile from a text description.
#
# WORDS holds whitespace-separated tokens ('#' starts a comment):
#   le | be    byte order of the words that follow (default le)
#   N          a 32-bit word, decimal or 0x-hex (the first word is the step)
#   N*K        the word N repeated K times
#   raw:HH..   literal bytes in hex (for odd-sized files)
set -e
[ $# -eq 2 ] || { echo "usage: mkprof.sh WORDS OUT" >&2; exit 2; }
awk '
function num(s,   v, i, c) {
	if (s !~ /^0[xX]/) return s + 0
	v = 0
	for (i = 3; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1)))
		if (c == 0) { print "bad number " s > "/dev/stderr"; exit 2 }
		v = v * 16 + c - 1
	}
	return v
}
function byte(b) { out = out sprintf("\\%03o", b); if (length(out) > 256) flush() }
function flush() { if (out != "") print out; out = "" }
function word(v,   i, b) {
	for (i = 0; i < 4; i++) {
		b[i] = v % 256; v = int(v / 256)
	}
	if (order == "be") { byte(b[3]); byte(b[2]); byte(b[1]); byte(b[0]) }
	else { byte(b[0]); byte(b[1]); byte(b[2]); byte(b[3]) }
}
BEGIN { order = "le"; out = "" }
{
	sub(/#.*/, "")
	for (f = 1; f <= NF; f++) {
		t = $f
		if (t == "le" || t == "be") { order = t; continue }
		if (t ~ /^raw:/) {
			t = substr(t, 5)
			for (i = 1; i < length(t); i += 2) byte(num("0x" substr(t, i, 2)))
			continue
		}
		n = 1
		if (split(t, p, "*") == 2) { t = p[1]; n = p[2] + 0 }
		v = num(t)
		for (k = 0; k < n; k++) word(v)
	}
}
END { flush() }' "$1" | {
	: > "$2"
	while IFS= read -r line; do printf "$line" >> "$2"; done
}
