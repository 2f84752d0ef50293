#!/bin/sh
# man-name.sh NAME VERSION < man/readprofile.8 > NAME.8
# The man page of a program installed as NAME (make install PROGRAM=NAME):
# the title, the synopsis, every example and every mention of the command
# take NAME, and @VERSION@ the version; so do the "readprofile: " prefix of
# messages and the commands hints give, as the program run as NAME prints
# them.  The package's name keeps its own: in the title's footer, in
# "readprofile\-ng" and in "(readprofile)" (-V under another name).
# NAME holds only letters, digits and '._+-' (make install checks), none
# of which sed reads specially in a replacement.
set -eu
name=$1 version=$2
upper=$(printf '%s' "$name" | tr a-z A-Z)
w='\(^\|[ "'\''(<]\)readprofile\([ ,.:'\''"]\|\\[^-]\|$\)'
exec sed -e "s/@VERSION@/$version/g" \
	-e '/^\.\\"/b' \
	-e "s/^\\.TH READPROFILE /.TH $upper /" \
	-e '/^\.TH /b' \
	-e "s/$w/\\1$name\\2/g" \
	-e "s/$w/\\1$name\\2/g"
