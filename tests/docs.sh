#!/bin/sh
# docs.sh - the documents against the program:
# - the man page passes mandoc -Tlint (style included) and groff -ww -z -man
#   (each skipped, with a line saying so, when not installed) and renders
#   the JSON keys of --interval -J whole;
# - every figure of README.md, HACKING.md and packaging/README.md: an
#   indented block whose line "$ COMMAND" is followed by output lines is
#   run (from the top of the tree, `readprofile` being $RP; a leading
#   "make ... && " is left out: make check built it) and must print those
#   lines exactly; a command that needs root (sudo) or the network is not
#   written so; one of go tool pprof is skipped without go, and where it
#   merges profiles (-proto) its last total must be the sum of the others;
# - packaging/debian/changelog's version is VERSION-1.
#
#   RP=/abs/readprofile sh tests/docs.sh
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=docs
. "$TOP/tests/lib.sh"
: "${RP:?set RP to the readprofile binary to test}"
WHY=$TMP/why
MAN=$TOP/man/readprofile.8

if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint "$MAN" >"$TMP/why" 2>&1 && [ ! -s "$TMP/why" ] &&
	    ok || bad "mandoc -Tlint"
else
	skipped "mandoc -Tlint: mandoc is not installed"
fi
if command -v groff >/dev/null 2>&1; then
	groff -ww -z -man "$MAN" >"$TMP/why" 2>&1 && [ ! -s "$TMP/why" ] &&
	    ok || bad "groff -ww -z -man"
	groff -man -Tutf8 -rLL=2000n -rHY=0 -P-cbou "$MAN" 2>/dev/null | tr -s ' \n' '  ' >"$TMP/r"
	grep -Fq '"interval":{"number":n,"time":text,"seconds":s,"reset":false}' "$TMP/r" &&
	    grep -Fq '{"address":n,"address_hex":hex,"count":n}' "$TMP/r" &&
	    ok || { : >"$TMP/why"; bad "groff renders the JSON keys whole"; }
else
	skipped "groff checks: groff is not installed"
fi

v=$(sed -n '1s/^readprofile (\([^)]*\)) .*/\1/p' "$TOP/packaging/debian/changelog")
if [ "$v" = "$(cat "$TOP/VERSION")-1" ]; then ok; else
	echo "changelog $v, VERSION $(cat "$TOP/VERSION")" >"$TMP/why"
	bad "packaging/debian/changelog at VERSION-1"
fi

# The figures: $RP as `readprofile` (and ./readprofile) on PATH.
mkdir "$TMP/bin"
ln -s "$RP" "$TMP/bin/readprofile"
for doc in README.md HACKING.md packaging/README.md; do
	[ -f "$TOP/$doc" ] || continue
	# one file per figure: its command, then its expected lines
	awk -v dir="$TMP" -v doc="${doc%%/*}" '
	function flush() { if (n > 0) close(f); n = 0 }
	/^ +\$ / {
		flush()
		ind = index($0, "$") - 1
		k++; f = dir "/fig." doc "." k
		cmd = substr($0, ind + 3)
		while (cmd ~ /\|$/ || cmd ~ /\\$/) {
			if (cmd ~ /\\$/) cmd = substr(cmd, 1, length(cmd) - 1)
			getline nx; sub(/^ +/, " ", nx); cmd = cmd nx
		}
		print cmd > f; n = 1; next
	}
	n > 0 && /^ +[^ ]/ && index($0, substr("                ", 1, ind)) == 1 {
		print substr($0, ind + 1) > f; next
	}
	n > 0 && /^ +$/ { flush(); next }
	{ flush() }' "$TOP/$doc"
done
for f in "$TMP"/fig.*; do
	[ -f "$f" ] || continue
	cmd=$(head -n 1 "$f" | sed 's/^make [^&]*&& //; s|^\./readprofile |readprofile |')
	tail -n +2 "$f" >"$TMP/want"
	[ -s "$TMP/want" ] || continue		# a command shown, no figure
	case $cmd in
	*"go tool pprof"*)
		if ! command -v go >/dev/null 2>&1; then
			skipped "a figure of go tool pprof: go is not installed"
			continue
		fi ;;
	esac
	(cd "$TOP" && PATH="$TMP/bin:$PATH" sh -c "$cmd") >"$TMP/got" 2>&1
	if cmp -s "$TMP/want" "$TMP/got"; then ok; else
		diff "$TMP/want" "$TMP/got" >"$TMP/why"
		bad "figure: \$ $cmd"
	fi
	# merged snapshots: the last total is the sum of the others
	case $cmd in
	*"go tool pprof -proto"*)
		if awk '$2 == "total" { t[++n] = $1 }
		    END { for (i = 1; i < n; i++) s += t[i]
			exit !(n > 2 && s == t[n]) }' "$TMP/got"; then ok; else
			cp "$TMP/got" "$TMP/why"
			bad "figure: \$ $cmd: the merged total is not the sum"
		fi ;;
	esac
done

# The man page's figures: each .EX block whose first line is "$ COMMAND",
# run where profile and kallsyms are the bundled kernel capture
# (fixtures/real) and gmon.out and prog the bundled program
# (fixtures/gmon/hot); "..." in the figure stands for any text, and then
# the lines are joined (a JSON document is shown over several lines).
if command -v "$PYTHON" >/dev/null 2>&1; then
	W=$TMP/man
	mkdir "$W"
	gzip -dc "$TOP/fixtures/real/profile.gz" >"$W/profile"
	gzip -dc "$TOP/fixtures/real/kallsyms.gz" >"$W/kallsyms"
	cp "$TOP/fixtures/gmon/hot.gmon" "$W/gmon.out"
	cp "$TOP/fixtures/gmon/hot" "$W/prog"
	"$PYTHON" - "$MAN" "$W" "$TMP/bin" >"$TMP/why" 2>&1 <<'PY'
import os, re, subprocess, sys
man, work, bindir = sys.argv[1:4]
def plain(t):
    return (t.replace("\\-", "-").replace("\\e", "\\")
            .replace("\\(aq", "'").replace("\\&", ""))
blocks, cur = [], None
for ln in open(man, encoding="utf-8").read().split("\n"):
    if ln == ".EX":
        cur = []
    elif ln == ".EE":
        if cur and cur[0].startswith("$ "):
            blocks.append(cur)
        cur = None
    elif cur is not None:
        cur.append(plain(ln))
env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
bad = 0
for b in blocks:
    cmd, want = b[0][2:], b[1:]
    got = subprocess.run(cmd, shell=True, cwd=work, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT
                         ).stdout.decode("utf-8", "replace")
    if any("..." in w for w in want):
        text = "".join(w.lstrip(" ") if i else w for i, w in enumerate(want))
        flat = got.replace("\n", "")
        at = 0
        for frag in (f.strip(" ") for f in text.split("...")):
            k = flat.find(frag, at)
            if k < 0:
                print("$ %s: %r not in its output" % (cmd, frag[:120]))
                bad += 1
                break
            at = k + len(frag)
    elif got.split("\n")[:-1] != want:
        print("$ %s:\n want %r\n got  %r" % (cmd, want[:4], got[:300]))
        bad += 1
print("%d man page figures" % len(blocks))
sys.exit(1 if bad or len(blocks) < 4 else 0)
PY
	if [ $? = 0 ]; then ok; else bad "man page figures"; fi
else
	skipped "the man page's figures need python3"
fi

summary
