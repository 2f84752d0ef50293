#!/bin/sh
# layout.sh - the rule of the source tree (src/README.md), checked.
#
#   sh tests/layout.sh              (make check runs it as the suite "layout")
#   sh tests/layout.sh DIR          check DIR instead of src/, no self-tests
#
# Over every .c and .h file:
#   folders   each lies in one of base hist sym core views cli, none directly
#             in src/ and none deeper;
#   includes  a quoted include names "folder/name.h", a file that exists,
#             in the includer's own folder or one below it:
#                 base <- hist, sym <- core <- views <- cli
#             (hist and sym never include each other); no header of ours
#             is included as <folder/name.h>;
#   circles   no circle of includes between modules (a module is name.c
#             with name.h; core/a.c including core/b.h makes a depend on b);
#   length    no function over 80 lines, from the line naming it to its
#             closing brace (the code's style: the name starts a line, the
#             braces of a function body stand in column 0);
#   params    no function with more than 5 parameters (its name starts a
#             line, its body's brace stands in column 0);
#   state     no variable at file scope that is not const (a declaration
#             on one line, in column 0: a function pointer too), but the
#             three of STATE_OK: the run is described in struct run.
# First, self-tests: the checks run on small planted trees (an upward
# include, a sideways one, one without a folder, a missing header, a
# circle, a file outside the folders, an 81-line function, one of six
# parameters, a variable at file scope) must fail, each naming the planted line, and pass on a clean
# tree.
# Prints `N passed, M failed`.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=layout
. "$TOP/tests/lib.sh"
MAXLEN=80
MAXPARAMS=5
# The only variables outside a run: the hook a fatal error runs before it
# exits (main's drops the held output and --pprof's file), the flag the
# signal handler of --interval sets, and the name the program runs by,
# which every message starts with (getopt's too: a char * it never writes).
STATE_OK="base/util.c:hook base/util.c:hook_ctx cli/interval.c:stop
    base/util.c:progname"

# The .c and .h files under the tree DIR, as paths relative to it.
files() {
	(cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | sort)
}

# check_folders DIR: a line for each file not in a known folder.
check_folders() {
	files "$1" | awk '
		{
			n = split($0, p, "/")
			if (n != 2 || p[1] !~ /^(base|hist|sym|core|views|cli)$/)
				print $0 ": not in one of the folders " \
				    "base hist sym core views cli"
		}'
}

# check_includes DIR EDGES: a line for each include against the rule; the
# module edges "from to" go to the file EDGES.
check_includes() {
	(cd "$1" && files . | xargs awk -v edges="$2" '
		BEGIN {
			lv["base"] = 0; lv["hist"] = 1; lv["sym"] = 1
			lv["core"] = 2; lv["views"] = 3; lv["cli"] = 4
			printf "" > edges
		}
		FNR == 1 {
			folder = FILENAME
			sub(/\/.*/, "", folder)
			mod = FILENAME
			sub(/\.[ch]$/, "", mod)
		}
		/^[ \t]*#[ \t]*include[ \t]*</ {
			inc = $0
			sub(/^[^<]*</, "", inc)
			sub(/>.*/, "", inc)
			f = inc
			sub(/\/.*/, "", f)
			if (index(inc, "/") && (f in lv))
				print FILENAME ":" FNR ": <" inc ">: a header " \
				    "of ours, to be included as \"" inc "\""
			next
		}
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			inc = $0
			sub(/^[^"]*"/, "", inc)
			sub(/".*/, "", inc)
			where = FILENAME ":" FNR ": \"" inc "\": "
			if (inc !~ /^[a-z]+\/[A-Za-z0-9_]+\.h$/) {
				print where "not \"folder/name.h\""
				next
			}
			f = inc
			sub(/\/.*/, "", f)
			if (!(f in lv)) {
				print where "no such folder"
				next
			}
			if ((getline line < inc) < 0) {
				print where "no such header"
				next
			}
			close(inc)
			if (folder in lv && f != folder && lv[f] >= lv[folder])
				print where f "/ is not below " folder "/"
			to = inc
			sub(/\.h$/, "", to)
			if (to != mod)
				print mod, to > edges
		}') || echo "the include check failed to run"
}

# check_circles EDGES: the circles tsort finds among the module edges.
check_circles() {
	tsort < "$1" > /dev/null 2> "$TMP/tsort.err"
	rc=$?
	if [ $rc != 0 ] || [ -s "$TMP/tsort.err" ]; then
		echo "a circle of includes between modules:"
		sed 's/^/  /' "$TMP/tsort.err"
	fi
}

# check_length DIR: a line for each function over MAXLEN lines.
check_length() {
	(cd "$1" && files . | xargs awk -v max="$MAXLEN" '
		function name_of(s) {
			sub(/[ \t]*\(.*/, "", s)
			sub(/.*[^A-Za-z0-9_]/, "", s)
			return s
		}
		FNR == 1 { head = 0; start = 0 }
		/^[A-Za-z_]/ && /\(/ && !/;[ \t]*$/ && !/=/ {
			head = FNR
			name = name_of($0)
			if ($0 ~ /\{[ \t]*$/)
				start = FNR	# the brace on the name line
		}
		/^\{/ { start = head ? head : FNR }
		/^\}/ {
			if (start && FNR - start + 1 > max)
				print FILENAME ":" start ": " name "() is " \
				    FNR - start + 1 " lines (at most " max ")"
			start = 0
			head = 0
		}') || echo "the length check failed to run"
}

# check_params DIR: a line for each function of more than MAXPARAMS
# parameters (the commas outside its parameters' own parentheses).
check_params() {
	(cd "$1" && files . | xargs awk -v max="$MAXPARAMS" '
		FNR == 1 { sig = "" }
		/^[A-Za-z_][A-Za-z0-9_]*\(/ { sig = ""; at = FNR }
		/;[ \t]*$/ { sig = ""; next }
		{ sig = sig " " $0 }
		/^\{/ && sig != "" {
			name = sig
			sub(/^ */, "", name)
			sub(/\(.*/, "", name)
			depth = 0; n = 1; empty = 1
			for (i = index(sig, "("); i <= length(sig); i++) {
				c = substr(sig, i, 1)
				if (c == "(")
					depth++
				else if (c == ")" && --depth == 0)
					break
				else if (c == "," && depth == 1)
					n++
				else if (depth == 1 && c ~ /[A-Za-z]/)
					empty = 0
			}
			if (sig ~ /\([ \t]*void[ \t]*\)/)
				n = 0
			if (!empty && n > max)
				print FILENAME ":" at ": " name "() has " n \
				    " parameters (at most " max ")"
			sig = ""
		}') || echo "the parameter check failed to run"
}

# check_state DIR: a line for each variable at file scope not in STATE_OK.
check_state() {
	(cd "$1" && files . | xargs awk -v ok="$STATE_OK" '
		BEGIN {
			n = split(ok, a, /[ \t\n]+/)
			for (i = 1; i <= n; i++)
				allowed[a[i]] = 1
		}
		/^[A-Za-z_]/ && /;[ \t]*$/ && !/^(typedef|extern|enum) / &&
		    !/^(struct|union) [A-Za-z_0-9]+;/ && !/\{/ &&
		    !/(^|[^A-Za-z0-9_])const([^A-Za-z0-9_]|$)/ {
			s = $0
			p = index(s, "(")
			if (p && substr(s, p + 1, 1) != "*")
				next	# a function: its first ( opens its parameters
			if (p) {	# a function pointer: its name
				sub(/^[^(]*\(\*/, "", s)
				sub(/\).*/, "", s)
			} else {
				sub(/[ \t]*(=.*)?;[ \t]*$/, "", s)
				sub(/\[.*/, "", s)
				sub(/.*[^A-Za-z0-9_]/, "", s)
			}
			if (!((FILENAME ":" s) in allowed))
				print FILENAME ":" FNR ": " s ": a variable at " \
				    "file scope (state belongs in the run)"
		}') || echo "the state check failed to run"
}

# judge DESC FILE: a check passes when it found nothing.
judge() {
	if [ -s "$2" ]; then
		bad "$1"
		sed 's/^/  /' "$2"
	else
		ok
	fi
}

# check_all DIR OUT: every check of the tree DIR, the findings in OUT.
check_all() {
	{
		check_folders "$1"
		check_includes "$1" "$TMP/edges"
		check_circles "$TMP/edges"
		check_length "$1"
		check_params "$1"
		check_state "$1"
	} > "$2"
}

# --- self-tests: the checker on planted trees --------------------------------

# plant DIR FILE TEXT: write TEXT (printf %b) to DIR/FILE.
plant() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%b' "$3" > "$1/$2"
}

# body N: a function of N lines in all, name line to closing brace.
body() {
	awk -v n="$1" 'BEGIN {
		print "static int\nlong_one(void)\n{\n\tint x = 0;"
		for (i = 0; i < n - 5; i++)
			print "\tx++;"
		print "\treturn x;\n}"
	}'
}

# A clean tree: every folder, each including downwards and itself, a
# function of exactly MAXLEN lines.
clean() {
	rm -rf "$1"
	for d in base hist sym core views cli; do
		plant "$1" "$d/$d.h" "/* $d */\n"
	done
	plant "$1" base/base.c '#include <stdio.h>\n#include "base/base.h"\n'
	plant "$1" hist/hist.c '#include "base/base.h"\n#include "hist/hist.h"\n'
	plant "$1" sym/sym.c '#include "base/base.h"\n#include "sym/sym.h"\n'
	plant "$1" core/core.c '#include "hist/hist.h"\n#include "sym/sym.h"\n'
	plant "$1" views/views.c '#include "core/core.h"\n#include "base/base.h"\n'
	plant "$1" cli/cli.c '#include "views/views.h"\n#include "hist/hist.h"\n'
	body "$MAXLEN" >> "$1/cli/cli.c"
}

# selftest DESC WANT FILE TEXT [FILE TEXT]...: the clean tree with each
# TEXT appended to its FILE must fail with a finding that contains WANT.
selftest() {
	desc=$1 want=$2
	shift 2
	clean "$TMP/tree"
	while [ $# -ge 2 ]; do
		plant "$TMP/tree" "$1.new" "$2"
		cat "$TMP/tree/$1.new" >> "$TMP/tree/$1"
		rm -f "$TMP/tree/$1.new"
		shift 2
	done
	check_all "$TMP/tree" "$TMP/found"
	if grep -F -- "$want" "$TMP/found" > /dev/null; then
		ok
	else
		bad "self-test: $desc is not found (want \"$want\"); found:"
		sed 's/^/  /' "$TMP/found"
	fi
}

if [ $# = 0 ]; then
	clean "$TMP/tree"
	check_all "$TMP/tree" "$TMP/found"
	judge "self-test: a clean tree passes" "$TMP/found"
	selftest "an upward include (base/ including core/)" \
	    'base/base.c:3: "core/core.h": core/ is not below base/' \
	    base/base.c '#include "core/core.h"\n'
	selftest "an include from views/ up to cli/" \
	    'views/views.c:3: "cli/cli.h": cli/ is not below views/' \
	    views/views.c '#include "cli/cli.h"\n'
	selftest "a sideways include (hist/ including sym/)" \
	    'hist/hist.c:3: "sym/sym.h": sym/ is not below hist/' \
	    hist/hist.c '#include "sym/sym.h"\n'
	selftest "a sideways include (sym/ including hist/)" \
	    'sym/sym.h:2: "hist/hist.h": hist/ is not below sym/' \
	    sym/sym.h '#include "hist/hist.h"\n'
	selftest "an include without a folder" \
	    'core/core.c:3: "core.h": not "folder/name.h"' \
	    core/core.c '#include "core.h"\n'
	selftest "an include of a missing header" \
	    'core/core.c:3: "base/gone.h": no such header' \
	    core/core.c '#include "base/gone.h"\n'
	selftest "a header of ours in angle brackets" \
	    'core/core.c:3: <core/core.h>: a header of ours' \
	    core/core.c '#include <core/core.h>\n'
	selftest "a file outside the folders" \
	    'stray.c: not in one of the folders' \
	    stray.c '#include "base/base.h"\n'
	selftest "a file in a folder of a folder" \
	    'core/deep/x.c: not in one of the folders' \
	    core/deep/x.c '#include "base/base.h"\n'
	selftest "a circle between the headers of two modules" \
	    'a circle of includes between modules' \
	    core/two.h '#include "core/core.h"\n' \
	    core/core.h '#include "core/two.h"\n'
	selftest "a circle between two .c files (each including the other's header)" \
	    'a circle of includes between modules' \
	    core/two.h '/* two */\n' \
	    core/two.c '#include "core/core.h"\n' \
	    core/core.c '#include "core/two.h"\n'
	selftest "a function of $((MAXLEN + 1)) lines" \
	    "base/base.c:4: long_one() is $((MAXLEN + 1)) lines" \
	    base/base.c "$(body $((MAXLEN + 1)))\n"
	selftest "a function of $((MAXLEN + 1)) lines, its brace on the name line" \
	    "base/base.c:3: long_one() is $((MAXLEN + 1)) lines" \
	    base/base.c "$(body $((MAXLEN + 2)) | sed '1d; 2s/)$/) {/; 3d')\n"
	selftest "a function of $((MAXPARAMS + 1)) parameters" \
	    "core/core.c:4: six() has $((MAXPARAMS + 1)) parameters" \
	    core/core.c 'static int\nsix(int a, int b, int c, int d,\n    void (*e)(int, int), int f)\n{\n\treturn a;\n}\n'
	selftest "a variable at file scope" \
	    'hist/hist.c:3: seen: a variable at file scope' \
	    hist/hist.c 'static int seen;\n'
	selftest "a function pointer at file scope" \
	    'views/views.c:3: hook: a variable at file scope' \
	    views/views.c 'void (*hook)(void);\n'
	selftest "an array at file scope, initialised" \
	    'sym/sym.c:3: last: a variable at file scope' \
	    sym/sym.c 'static char last[64] = "";\n'
	SRC=$TOP/src
else
	SRC=$1
fi

# --- the tree ------------------------------------------------------------------

check_folders "$SRC" > "$TMP/f"
judge "every file of src/ is in one of its folders" "$TMP/f"
check_includes "$SRC" "$TMP/edges" > "$TMP/f"
judge "every include of src/ is \"folder/name.h\", in its folder or below" \
    "$TMP/f"
check_circles "$TMP/edges" > "$TMP/f"
judge "no circle of includes between the modules of src/" "$TMP/f"
check_length "$SRC" > "$TMP/f"
judge "no function of src/ over $MAXLEN lines" "$TMP/f"
check_params "$SRC" > "$TMP/f"
judge "no function of src/ with more than $MAXPARAMS parameters" "$TMP/f"
check_state "$SRC" > "$TMP/f"
judge "no variable at file scope in src/ but those of STATE_OK" "$TMP/f"

summary
