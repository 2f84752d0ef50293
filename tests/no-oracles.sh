#!/bin/sh
# no-oracles.sh - make check as a newcomer's machine may run it: without
# protoc and go on PATH (the pprof suite's oracles, which skip by name),
# and with OUT, IN and W exported, names that build scripts often use and
# that no suite may take from its caller.  .ci/run runs it.
#
#   sh tests/no-oracles.sh
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM

# PATH as it is, less protoc and go: a folder of links to everything else
# readable by all: the set-user-ID suite runs commands as another user
chmod 755 "$TMP" && mkdir -m 755 "$TMP/bin" || exit 1
IFS=:
for d in $PATH; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		b=${f##*/}
		case $b in protoc|go|gofmt) continue ;; esac
		[ -e "$TMP/bin/$b" ] || ln -s "$f" "$TMP/bin/$b"
	done
done
unset IFS
for t in protoc go; do
	if PATH=$TMP/bin command -v "$t" >/dev/null 2>&1; then
		echo "no-oracles: $t is still on PATH"
		exit 1
	fi
done
cd "$TOP" || exit 1
OUT=$TMP/caller-out IN=$TMP/caller-in W=$TMP/caller-w
export OUT IN W
PATH=$TMP/bin env -u READPROFILE_CHECK_NO_SKIP make check
