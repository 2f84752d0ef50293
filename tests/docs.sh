#!/bin/sh
# docs.sh - the documents against the program:
# - both man pages (readprofile.8, readprofile-formats.5) pass mandoc
#   -Tlint (style included) and groff -ww -z -man (each skipped, with a
#   line saying so, when not installed), render to at most 300 and 400
#   lines at 80 columns, and the formats page renders the JSON keys of
#   --interval -J whole;
# - every option of --help has its entry in OPTIONS of readprofile.8, and
#   the page's jq example picks the busiest function of a real --json;
# - README's install line (its first `make install`), run into a scratch
#   directory, installs the name every README command uses, and that
#   program accepts the options of each of those commands;
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
FMT=$TOP/man/readprofile-formats.5

# lines PAGE: the page rendered at 80 columns, as a reader's terminal shows it
lines() {
	if command -v col >/dev/null 2>&1; then
		mandoc -Tutf8 -Owidth=80 "$1" | col -bx
	else
		mandoc -Tutf8 -Owidth=80 "$1" | sed 's/.\x08//g'
	fi
}
if command -v mandoc >/dev/null 2>&1; then
	for page in "$MAN" "$FMT"; do
		mandoc -Tlint "$page" >"$TMP/why" 2>&1 && [ ! -s "$TMP/why" ] &&
		    ok || bad "mandoc -Tlint ${page##*/}"
	done
	for limit in "$MAN 300" "$FMT 400"; do
		set -- $limit
		n=$(lines "$1" | wc -l)
		echo "${1##*/}: $n lines at 80 columns, at most $2" >"$TMP/why"
		[ "$n" -gt 0 ] && [ "$n" -le "$2" ] && ok ||
		    bad "${1##*/} longer than $2 lines"
	done
	# every option of --help has its entry (a tag line) in OPTIONS
	lines "$MAN" | sed -n '/^OPTIONS/,/^[A-Z]/p' >"$TMP/options"
	"$RP" --help | sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p' >"$TMP/longs"
	: >"$TMP/why"
	[ "$(wc -l <"$TMP/longs")" -gt 20 ] || echo "only $(wc -l <"$TMP/longs") options read from --help" >>"$TMP/why"
	while IFS= read -r o; do
		grep -Eq "^       (-[A-Za-z], )?$o( |\[|\$)" "$TMP/options" ||
		    echo "$o has no entry in OPTIONS" >>"$TMP/why"
	done <"$TMP/longs"
	[ ! -s "$TMP/why" ] && ok || bad "every option of --help in readprofile.8"
else
	skipped "mandoc checks: mandoc is not installed"
fi
if command -v groff >/dev/null 2>&1; then
	for page in "$MAN" "$FMT"; do
		groff -ww -z -man "$page" >"$TMP/why" 2>&1 && [ ! -s "$TMP/why" ] &&
		    ok || bad "groff -ww -z -man ${page##*/}"
	done
	groff -man -Tutf8 -rLL=2000n -rHY=0 -P-cbou "$FMT" 2>/dev/null | tr -s ' \n' '  ' >"$TMP/r"
	grep -Fq '"interval":{"number":n,"time":text,"seconds":s,"reset":false}' "$TMP/r" &&
	    grep -Fq '{"address":n,"address_hex":hex,"count":n}' "$TMP/r" &&
	    ok || { : >"$TMP/why"; bad "groff renders the JSON keys whole"; }
else
	skipped "groff checks: groff is not installed"
fi

# The jq example of readprofile.8 names the busiest function: the first
# of the classic report sorted, on the bundled capture.
if command -v jq >/dev/null 2>&1; then
	filter=$(sed -n "s/^jq \\\\-r \\\\(aq\\(.*\\)\\\\(aq profile.jsonl\$/\\1/p" "$MAN")
	got=$("$RP" -J -p "$TOP/fixtures/real/profile.gz" -m "$TOP/fixtures/real/kallsyms.gz" |
	    jq -r "$filter" 2>&1)
	want=$("$RP" -p "$TOP/fixtures/real/profile.gz" -m "$TOP/fixtures/real/kallsyms.gz" |
	    grep -v ' total ' | sort -rn | awk 'NR == 1 { print $2 }')
	echo "filter '$filter': '$got', the busiest: '$want'" >"$TMP/why"
	[ -n "$filter" ] && [ -n "$want" ] && [ "$got" = "$want" ] && ok ||
	    bad "the man page's jq example names the busiest function"
else
	skipped "the man page's jq example: jq is not installed"
fi

# README's install line, run into a scratch directory with the binary
# under test: it must install one program, in a directory that comes
# before util-linux's /usr/sbin in root's PATH and is in a user's (Debian's
# defaults, /etc/login.defs), under the name every command of README's
# indented blocks uses; and that program must accept each command's
# options (run with --help after them: a parse, nothing else).
if command -v "$PYTHON" >/dev/null 2>&1; then
	"$PYTHON" - "$TOP/README.md" "$TMP/inst" "$RP" >"$TMP/why" 2>&1 <<'PY'
import os, re, shlex, subprocess, sys
readme, dest, rp = sys.argv[1:4]
code, prev = [], ""
for ln in open(readme, encoding="utf-8").read().split("\n"):
    if not re.match(r"^    \S|^     ", ln):
        prev = ""
        continue
    ln = prev + ln.strip()
    if ln.startswith("$ "):
        ln = ln[2:]
    if ln.endswith("\\"):
        prev = ln[:-1] + " "
        continue
    prev = ""
    code.append(ln)
inst = [c for c in code if re.match(r"make install\b", c)]
if not inst:
    sys.exit("README has no indented 'make install' line")
line = inst[0].split("#")[0].split()
env = dict(os.environ)
env.pop("MAKEFLAGS", None); env.pop("MFLAGS", None)
r = subprocess.run(line + ["--no-print-directory", "DESTDIR=" + dest, "BIN=" + rp],
                   cwd=os.path.dirname(readme), env=env,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
if r.returncode:
    sys.exit("%s failed:\n%s" % (" ".join(line), r.stdout.decode()))
progs = []
for d, _, files in os.walk(dest):
    if os.path.basename(d) in ("bin", "sbin"):
        progs += [os.path.join(d, f) for f in files]
if len(progs) != 1:
    sys.exit("%s installed %d programs: %s" % (" ".join(line), len(progs), progs))
prog = progs[0]
name, bindir = os.path.basename(prog), os.path.dirname(prog)[len(dest):]
root_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".split(":")
user_path = "/usr/local/bin:/usr/bin:/bin".split(":")
bad = 0
if bindir not in root_path or root_path.index(bindir) > root_path.index("/usr/sbin"):
    print("%s: %s is not before /usr/sbin in root's PATH" % (name, bindir)); bad += 1
if bindir not in user_path:
    print("%s: %s is not in a user's PATH" % (name, bindir)); bad += 1
ops = {"|", "||", "&&", ";", "(", ")", "&", "$("}
redir = re.compile(r"^[0-9]*[<>]+&?$")
n = 0
for c in code:
    lex = shlex.shlex(c, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    try:
        toks = list(lex)
    except ValueError as e:
        print("cannot split %r: %s" % (c, e)); bad += 1
        continue
    i, at_cmd = 0, True
    while i < len(toks):
        t = toks[i]
        i += 1
        if t in ops:
            at_cmd = True
            continue
        if not (at_cmd and re.match(r"^(\./)?readprofile[\w.+-]*$", t)):
            at_cmd = False
            continue
        at_cmd = False
        n += 1
        if t != name:
            print("README runs %r, the install line installs %r: %s" % (t, name, c))
            bad += 1
        args = []
        while i < len(toks) and toks[i] not in ops and toks[i] != "<(":
            if redir.match(toks[i]):
                i += 2
                continue
            args.append(toks[i]); i += 1
        if i < len(toks) and toks[i] == "<(":
            depth = 1; i += 1
            while i < len(toks) and depth:
                depth += toks[i] in ("(", "<(", "$(") 
                depth -= toks[i] == ")"
                i += 1
            args.append("x")
            while i < len(toks) and toks[i] not in ops and toks[i] != "<(":
                args.append(toks[i]); i += 1
        r = subprocess.run([prog] + args + ["--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode or not r.stdout.startswith(b"\nUsage:"):
            print("%s %s: not accepted:\n%s" % (name, " ".join(args),
                  r.stdout.decode(errors="replace")[:300]))
            bad += 1
print("%d README commands of %s (%s)" % (n, name, bindir))
sys.exit(1 if bad or n < 10 else 0)
PY
	if [ $? = 0 ]; then ok; else bad "README's commands run as written after its install line"; fi
else
	skipped "README's commands against its install line need python3"
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

# The man pages' figures: each .EX block whose lines "$ COMMAND" are each
# followed by the command's output,
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
	"$PYTHON" - "$W" "$TMP/bin" "$MAN" "$FMT" >"$TMP/why" 2>&1 <<'PY'
import os, re, subprocess, sys
work, bindir = sys.argv[1:3]
def plain(t):
    return (t.replace("\\-", "-").replace("\\e", "\\")
            .replace("\\(aq", "'").replace("\\&", ""))
blocks, cur = [], None
for man in sys.argv[3:]:
    for ln in open(man, encoding="utf-8").read().split("\n"):
        if ln == ".EX":
            cur = []
        elif ln == ".EE":
            cur = None
        elif cur is not None and ln.startswith("$ "):
            cur = [plain(ln)]
            blocks.append(cur)
        elif cur:
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
	skipped "the man pages' figures need python3"
fi

summary
