#!/bin/sh
# install-dirs.sh made RECORD DIR...
# install-dirs.sh remove RECORD DIR...
# The directories `make install` creates, and only those, are removed by
# `make uninstall` once empty.
#   made: before `install -d DIR...`, add to RECORD (one path a line) each
#         directory on the way to each DIR that does not exist yet: the
#         ones install is about to create;
#   remove: after the files are removed, rmdir each directory on the way
#         from each DIR up that RECORD holds and that is empty, and drop
#         it from RECORD.  A directory that was there before the install,
#         or that holds anything, is kept.
# Without RECORD (another build directory, or `make clean` since), nothing
# is removed.  A RECORD that cannot be written only keeps the directories.
set -u
what=$1 record=$2
shift 2

case $what in
made)
	for d; do
		while [ -n "$d" ] && [ ! -d "$d" ] && [ ! -L "$d" ]; do
			grep -Fqx -e "$d" "$record" 2>/dev/null ||
				printf '%s\n' "$d" >> "$record" 2>/dev/null ||
				echo "make install: cannot write $record: make uninstall will leave the directories it made" >&2
			d=$(dirname "$d")
		done
	done
	exit 0 ;;
remove)
	[ -f "$record" ] || exit 0
	# Until a pass removes nothing: a parent empties only once every
	# path through it is removed, whatever the order of the DIRs.
	more=1
	while [ $more = 1 ]; do
		more=0
		for d; do
			while grep -Fqx -e "$d" "$record" && rmdir "$d" 2>/dev/null; do
				echo "rmdir $d"
				grep -Fvx -e "$d" "$record" > "$record.tmp"
				mv -f "$record.tmp" "$record"
				more=1
				d=$(dirname "$d")
			done
		done
	done
	[ -s "$record" ] || rm -f "$record"
	exit 0 ;;
esac
echo "usage: install-dirs.sh made|remove RECORD DIR..." >&2
exit 2
