#!/bin/sh
# Tests for the bash completion in completion/readprofile.
# Usage: sh tests/completion.sh        (needs bash; skipped without it)

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=completion
. "$TOP/tests/lib.sh"
file=$TOP/completion/readprofile

have bash || suite_skipped "bash not found"

tmp=$TMP
mkdir "$tmp/boot dir"
: >"$tmp/System.map-6.1.0"
: >"$tmp/profile.gz"
mkdir -p "$tmp/debug/boot"
: >"$tmp/debug/boot/vmlinux-6.1.0-27-amd64"
KGLOBS="$tmp/debug/boot/vmlinux-*
$tmp/nowhere/*/vmlinux"
export KGLOBS


# comp WORD... : complete the last WORD of "readprofile WORD...", print
# COMPREPLY one entry per line.
comp() {
    (cd "$tmp" && bash -c '
        _readprofile_kernel_globs="$KGLOBS"
        . "$1" || exit 1
        shift
        COMP_WORDS=(readprofile "$@")
        COMP_CWORD=$#
        _readprofile
        for w in "${COMPREPLY[@]}"; do printf "%s\n" "$w"; done
    ' comp "$file" "$@")
}

# expect DESC WANT WORD... : the completions are exactly WANT (lines).
expect() {
    desc=$1 want=$2
    shift 2
    got=$(comp "$@" | LC_ALL=C sort)
    want=$(printf '%s\n' "$want" | LC_ALL=C sort)
    if [ "$got" = "$want" ]; then
        ok
    else
        bad "$desc"
        printf '  want: %s\n  got:  %s\n' \
            "$(printf '%s' "$want" | tr '\n' ' ')" \
            "$(printf '%s' "$got" | tr '\n' ' ')"
    fi
}

# has DESC WANT WORD... : WANT is among the completions.
has() {
    desc=$1 want=$2
    shift 2
    if comp "$@" | grep -qxF -- "$want"; then
        ok
    else
        bad "$desc: $want not offered"
    fi
}

# hasnt DESC UNWANTED WORD... : UNWANTED is not among the completions.
hasnt() {
    desc=$1 unwanted=$2
    shift 2
    if comp "$@" | grep -qxF -- "$unwanted"; then
        bad "$desc: $unwanted offered"
    else
        ok
    fi
}

longs='--mapfile --profile --multiplier --info --verbose --all --histbin
--counters --reset --no-auto --exact --baseline --version --help'
shorts='-m -p -M -i -v -a -b -s -r -n -V -h'

# Every long option completes from its name less its last character,
# and from its full name to itself alone.
for o in $longs; do
    has "long option $o from a prefix" "$o" "${o%?}"
    expect "long option $o complete" "$o" "$o"
done

# A bare dash offers every option, short and long.
for o in $shorts $longs; do
    has "option $o after -" "$o" -
done

# --top, -J/--json, --interval, --iterations.
for o in --top --json --interval --iterations; do
	has "long option $o from a prefix" "$o" "${o%?}"
	expect "long option $o complete" "$o" "$o"
done
for o in --top -J --json --interval --iterations; do
	has "option $o after -" "$o" -
done
expect "--count is --counters" --counters --count
expect "--top offers numbers" "$(printf '10\n100')" --top 1
has "--interval offers seconds" 5 --interval ''
has "--iterations offers numbers" 10 --iterations ''
hasnt "--interval offers no files" System.map-6.1.0 --interval ''
# --enable's argument is optional: only --enable=ARG is completed
expect "long option --enable from a prefix" --enable --ena
has "option --enable after -" --enable -
expect "--enable= offers what profile= takes" "$(printf -- '--enable=schedule,2\n--enable=sleep,2')" --enable=s
has "--enable = offers the default" 2 --enable = ''
hasnt "--enable then a space: no value" schedule,2 --enable ''
has "--enable then a space: options" --json --enable ''

# --pprof FILE (- for stdout), --folded, --hz N, --no-demangle.
for o in --pprof --folded --hz --no-demangle; do
	has "long option $o from a prefix" "$o" "${o%?}"
	expect "long option $o complete" "$o" "$o"
	has "option $o after -" "$o" -
done
expect "--pprof file name" profile.gz --pprof prof
has "--pprof offers stdout" - --pprof ''
has "--hz offers rates" 250 --hz ''
hasnt "--hz offers no files" System.map-6.1.0 --hz ''
expect "prefix --no-" "$(printf -- '--no-auto\n--no-demangle')" --no-

expect "unique prefix --ba" --baseline --ba
expect "unique prefix --ex" --exact --ex
expect "prefix --no" "$(printf -- '--no-auto\n--no-demangle')" --no
hasnt "no files where an option is expected" System.map-6.1.0 ''
hasnt "no files after a flag" System.map-6.1.0 -a ''

# Options with a file argument complete file names.
expect "-m file name" System.map-6.1.0 -m Sys
expect "--mapfile file name" System.map-6.1.0 --mapfile Sys
expect "--mapfile=file name" --mapfile=System.map-6.1.0 --mapfile=Sys
expect "--mapfile = file name (= as a word)" System.map-6.1.0 --mapfile = Sys
expect "-m directory with a space" "boot dir" -m bo
expect "-p file name" profile.gz -p prof
expect "--profile file name" profile.gz --profile prof
expect "--baseline file name" profile.gz --baseline prof
has "-m lists files" System.map-6.1.0 -m ''
has "-p offers stdin" - -p ''
has "--profile offers stdin" - --profile ''
has "-p lists files" profile.gz -p ''
hasnt "--baseline does not offer stdin" - --baseline ''
expect "-m after other options" System.map-6.1.0 -v -a -m Sys
has "-m offers installed kernel images" "$tmp/debug/boot/vmlinux-6.1.0-27-amd64" -m ''
expect "-m filters kernel images by prefix" "$tmp/debug/boot/vmlinux-6.1.0-27-amd64" -m "$tmp/debug/boot/vm"
hasnt "--baseline offers no kernel image" "$tmp/debug/boot/vmlinux-6.1.0-27-amd64" --baseline ''

# -M takes a number, never a file name.
has "-M offers numbers" 2 -M ''
has "--multiplier offers numbers" 4 --multiplier ''
hasnt "-M offers no files" System.map-6.1.0 -M ''
expect "-M filters numbers" "$(printf '1\n10\n16\n100')" -M 1

summary
