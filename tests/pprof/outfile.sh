# outfile.sh - sourced by run.sh (in $TMP/small, with profile and map
# there): the file --pprof writes.  An old file stays byte for byte unless
# the run succeeds (an address going backwards at the map's end: an error
# after the output began); "-", /dev/stdout, /dev/fd/N and /proc/self/fd/N
# are written through the descriptor (appended to a log opened with >>,
# the file behind it kept, also when deleted);
# /dev/null, a FIFO and a terminal-like target are written directly; a
# symlink is written through (also a dangling one and a chain); a
# 250-byte name works, a 256-byte one is refused before any work; mode
# and owner are kept (as root, and as another user via setpriv, when
# this runs as root), a new file gets 0666 & ~umask; a run killed by
# SIGXFSZ (ulimit -f), SIGALRM, SIGUSR1 or SIGTERM while the file is
# open leaves nothing behind; without O_TMPFILE (a preload library that
# refuses it) the named temporary works for a 250-byte name and an error
# removes it.

O=$TMP/of
mkdir "$O" || exit 1

# listing DIR: its names, one a line, dot files too
listing() { ls -A "$1"; }

# --- a failed run leaves the old file as it was ------------------------------
printf 'old contents\0\377\n' > "$O/keep.pb.gz"
cp "$O/keep.pb.gz" "$O/keep.orig"
sed '$i 0000000000001004 t back' map > "$O/late.map"
rp --pprof "$O/keep.pb.gz" -s -p profile -m "$O/late.map" \
    > "$TMP/out" 2> "$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -q 'address goes backwards' "$TMP/err" &&
    cmp -s "$O/keep.pb.gz" "$O/keep.orig" &&
    [ "$(listing "$O")" = "$(printf 'keep.orig\nkeep.pb.gz\nlate.map')" ]
then ok; else
	{ echo "rc $rc"; cat "$TMP/err"; listing "$O"; } > "$TMP/why"
	bad "a failed run (a late map error) changed the old --pprof file"
fi
rm -f "$O"/*

# --- targets that are not regular files: written directly -------------------
if rp --pprof /dev/null -p profile -m map 2> "$TMP/why" && [ -c /dev/null ]
then ok; else bad "--pprof /dev/null"; fi
mkfifo "$O/out.fifo"
timeout 10 cat "$O/out.fifo" > "$O/got" &
rpid=$!
rp --pprof "$O/out.fifo" -p profile -m map 2> "$TMP/why"
rc=$?
wait "$rpid"
if [ $rc = 0 ] && gzip -t "$O/got" 2>> "$TMP/why" && [ -p "$O/out.fifo" ]
then ok; else bad "--pprof FIFO (rc $rc)"; fi
# /dev/stdout on a pipe
rp --pprof /dev/stdout -p profile -m map 2> "$TMP/why" | cat > "$O/piped"
if gzip -t "$O/piped" 2>> "$TMP/why" &&
    gunzip -c "$O/piped" | grep -aq 'map: map'; then ok
else bad "--pprof /dev/stdout on a pipe"; fi
rm -f "$O"/*

# --- descriptors: written through them, the file behind them never replaced --
# --pprof /dev/stdout >> log: appended after what the log held (the log is
# the same file, not a new one); /dev/fd/1 and /proc/self/fd/1 the same
for name in /dev/stdout /dev/fd/1 /proc/self/fd/1 -; do
	printf 'earlier line\n' > "$O/app.log"
	ino=$(stat -c %i "$O/app.log")
	rp --pprof "$name" -p profile -m map >> "$O/app.log" 2> "$TMP/why"
	rc=$?
	if [ $rc = 0 ] && [ "$(head -n 1 "$O/app.log")" = "earlier line" ] &&
	    [ "$(stat -c %i "$O/app.log")" = "$ino" ] &&
	    tail -c +14 "$O/app.log" | gzip -t 2>> "$TMP/why" &&
	    [ "$(listing "$O")" = app.log ]; then ok
	else listing "$O" >> "$TMP/why"; bad "--pprof $name >> log (rc $rc)"; fi
	rm -f "$O"/*
done
# /dev/fd/3 on a file opened for appending: the same
printf 'earlier line\n' > "$O/three.log"
rp --pprof /dev/fd/3 -p profile -m map 3>> "$O/three.log" 2> "$TMP/why"
if [ $? = 0 ] && [ "$(head -n 1 "$O/three.log")" = "earlier line" ] &&
    tail -c +14 "$O/three.log" | gzip -t 2>> "$TMP/why" &&
    [ "$(listing "$O")" = three.log ]; then ok
else listing "$O" >> "$TMP/why"; bad "--pprof /dev/fd/3 3>> log"; fi
rm -f "$O"/*
# the file behind descriptor 1 deleted: written to it, no other file made
(exec > "$O/gone.pb.gz" && rm "$O/gone.pb.gz" &&
    exec $RP_WRAP "$RP" --pprof /dev/stdout -p profile -m map) 2> "$TMP/why"
rc=$?
if [ $rc = 0 ] && [ -z "$(listing "$O")" ]; then ok
else listing "$O" >> "$TMP/why"; bad "--pprof /dev/stdout, its file deleted (rc $rc)"; fi
# a descriptor that is not open: said at once
rp --pprof /dev/fd/9 -p "$TMP/missing" -m map 9>&- 2> "$TMP/err"
if [ $? = 1 ] && grep -q '^readprofile: /dev/fd/9: ' "$TMP/err" &&
    [ "$(wc -l < "$TMP/err")" = 1 ]; then ok
else cp "$TMP/err" "$TMP/why"; bad "--pprof /dev/fd/9 closed"; fi
rm -f "$O"/*

# --- symlinks: written through ----------------------------------------------
mkdir "$O/d" && echo old > "$O/d/real.pb.gz" &&
    ln -s d/real.pb.gz "$O/l1" && ln -s l1 "$O/l2" &&
    ln -s ../nowhere.pb.gz "$O/d/dangling"
rp --pprof "$O/l2" -p profile -m map 2> "$TMP/why"
rp --pprof "$O/d/dangling" -p profile -m map 2>> "$TMP/why"
if [ -L "$O/l1" ] && [ -L "$O/l2" ] && [ -L "$O/d/dangling" ] &&
    gzip -t "$O/d/real.pb.gz" && gzip -t "$O/nowhere.pb.gz" &&
    [ "$(listing "$O")" = "$(printf 'd\nl1\nl2\nnowhere.pb.gz')" ] &&
    [ "$(listing "$O/d")" = "$(printf 'dangling\nreal.pb.gz')" ]
then ok; else
	ls -laR "$O" >> "$TMP/why"; bad "--pprof through a symlink"
fi
. "$TOP/tests/libc.sh"	# the C library's own texts (glibc, musl)
libc_setup
ln -s loop "$O/loop"
if ! rp --pprof "$O/loop" -p profile -m map 2> "$TMP/err" &&
    grep -qFx "readprofile: $O/loop: $(strerror ELOOP)" "$TMP/err"; then ok
else cp "$TMP/err" "$TMP/why"; bad "a symlink loop"; fi
rm -rf "${O:?}"/*

# --- the target's own name length limit --------------------------------------
long=$(printf '%0244d' 0).pb.gz		# 250 bytes
echo old > "$O/$long.old"
rp --pprof "$O/$long" -p profile -m map 2> "$TMP/why" &&
    rp --pprof "$O/$long" -p profile -m map 2>> "$TMP/why"	# replaced
if [ $? = 0 ] && gzip -t "$O/$long" &&
    [ "$(listing "$O" | wc -l)" = 2 ]; then ok
else listing "$O" >> "$TMP/why"; bad "a 250-byte --pprof name"; fi
long=$(printf '%0250d' 0).pb.gz		# 256 bytes: too long, at once
rp --pprof "$O/$long" -p "$TMP/missing" -m map 2> "$TMP/err"
if [ $? = 1 ] && [ "$(cat "$TMP/err")" = \
    "readprofile: $O/$long: $(strerror ENAMETOOLONG)" ]; then ok
else cp "$TMP/err" "$TMP/why"; bad "a 256-byte --pprof name"; fi
rm -f "$O"/*

# --- mode and owner -------------------------------------------------------
echo old > "$O/m.pb.gz" && chmod 0640 "$O/m.pb.gz"
ln "$O/m.pb.gz" "$O/hard"
(umask 027 && rp --pprof "$O/new.pb.gz" -p profile -m map &&
    rp --pprof "$O/m.pb.gz" -p profile -m map) 2> "$TMP/why"
if [ "$(stat -c %a "$O/m.pb.gz")" = 640 ] &&
    [ "$(stat -c %a "$O/new.pb.gz")" = 640 ] &&
    gzip -t "$O/m.pb.gz" && [ "$(cat "$O/hard")" = old ]; then ok
else ls -la "$O" >> "$TMP/why"; bad "--pprof's mode (or a hard link)"; fi
rm -f "$O"/*
if [ "$(id -u)" != 0 ]; then
	skipped "owner(not root)"
elif ! command -v setpriv > /dev/null 2>&1; then
	skipped "owner(no setpriv)"
else
	echo old > "$O/o.pb.gz" && chown 1234:5678 "$O/o.pb.gz" &&
	    chmod 0604 "$O/o.pb.gz"
	rp --pprof "$O/o.pb.gz" -p profile -m map 2> "$TMP/why"
	if [ "$(stat -c '%u:%g %a' "$O/o.pb.gz")" = "1234:5678 604" ] &&
	    gzip -t "$O/o.pb.gz"; then ok
	else ls -la "$O" >> "$TMP/why"; bad "as root: the owner kept"; fi
	# another user who may write it, not own it: never wider
	# (not a sticky directory: there only the owner may replace it)
	chmod 0755 "$TMP" "$TMP/small" && chmod 0777 "$O" &&
	    chmod 0666 "$O/o.pb.gz"
	asuser() { setpriv --reuid 2000 --regid 2000 --clear-groups "$@"; }
	if ! asuser "$RP" --version > /dev/null 2>&1; then
		skipped "owner(uid 2000 cannot run $RP)"
	else
		asuser $RP_WRAP "$RP" --pprof "$O/o.pb.gz" -p profile -m map \
		    2> "$TMP/why"
		if [ "$(stat -c '%u:%g %a' "$O/o.pb.gz")" = "2000:2000 606" ] &&
		    gzip -t "$O/o.pb.gz"; then ok
		else ls -la "$O" >> "$TMP/why"; bad "another user: mode wider"; fi
		# in a sticky directory only the owner may replace it: said
		# before any input is read
		chmod 1777 "$O" && chown 1234 "$O/o.pb.gz" && chmod 0666 "$O/o.pb.gz"
		asuser $RP_WRAP "$RP" --pprof "$O/o.pb.gz" -p "$TMP/missing" \
		    -m map 2> "$TMP/err"
		if [ $? = 1 ] && [ "$(cat "$TMP/err")" = \
		    "readprofile: $O/o.pb.gz: Operation not permitted" ]; then ok
		else cp "$TMP/err" "$TMP/why"; bad "a sticky directory"; fi
	fi
	chmod 0700 "$TMP"
fi
rm -f "$O"/*

# --- signals: nothing left ---------------------------------------------------
# a file size limit below the profile: SIGXFSZ while it is written
gunzip -c "$F/real/profile.gz" > "$TMP/real.prof" 2> /dev/null
# (in the background: the shell says nothing of how it ended)
(ulimit -f 8 && exec $RP_WRAP "$RP" --pprof "$O/big.pb.gz" -s \
    -p "$TMP/real.prof" -m "$TMP/real.map") 2> /dev/null &
wait $! 2> /dev/null
rc=$?
if [ $rc -gt 128 ] && [ -z "$(listing "$O")" ]; then ok; else
	listing "$O" > "$TMP/why"; bad "ulimit -f left a file (status $rc)"
fi
# killed while it waits for its profile (a FIFO nobody writes), with the
# file open: the test sees it in /proc, then the directory is as it was
mkfifo "$TMP/wait.fifo"
for sig in ALRM USR1 TERM; do
	$RP_WRAP "$RP" --pprof "$O/sig.pb.gz" -p "$TMP/wait.fifo" -m map \
	    2> /dev/null &
	pid=$! i=0 open=0
	while [ $i -lt 100 ]; do
		if ls -l "/proc/$pid/fd" 2> /dev/null | grep -qF "$O/"; then
			open=1
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$sig" "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	rc=$?
	if [ $open = 1 ] && [ $rc -gt 128 ] && [ -z "$(listing "$O")" ]; then ok
	else
		listing "$O" > "$TMP/why"
		bad "SIG$sig left a file (open: $open, status $rc)"
	fi
done

# --- a file system without O_TMPFILE (notmpfile.c refuses it) ---------------
# a named temporary beside the file, no longer than its name: renamed at
# the end with the old mode, removed on an error
if ! command -v gcc > /dev/null 2>&1; then
	skipped "notmpfile(no gcc)"
elif ! gcc -shared -fPIC -o "$TMP/notmpfile.so" "$TOP/tests/pprof/notmpfile.c" \
    -ldl 2> "$TMP/why"; then
	skipped "notmpfile(cannot build a preload library)"
else
	rm -f "$O"/*
	notmp() {
		NOTMPFILE_SEEN=$TMP/seen LD_PRELOAD=$TMP/notmpfile.so \
		    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		    $RP_WRAP "$RP" "$@"
	}
	long=$(printf '%0244d' 0).pb.gz		# 250 bytes
	echo old > "$O/$long" && chmod 0604 "$O/$long"
	echo old > "$O/keep.pb.gz"
	rm -f "$TMP/seen"
	notmp --pprof "$O/$long" -p profile -m map 2> "$TMP/why"
	rc=$?
	notmp --pprof "$O/keep.pb.gz" -p profile -m "$TMP/missing" 2>> "$TMP/why"
	if [ ! -e "$TMP/seen" ]; then
		skipped "notmpfile(LD_PRELOAD not honoured by this build)"
	elif [ $rc = 0 ] && gzip -t "$O/$long" &&
	    [ "$(stat -c %a "$O/$long")" = 604 ] &&
	    [ "$(cat "$O/keep.pb.gz")" = old ] &&
	    [ "$(listing "$O" | wc -l)" = 2 ]; then ok
	else listing "$O" >> "$TMP/why"; bad "without O_TMPFILE (rc $rc)"; fi
	rm -f "$O"/*
fi
