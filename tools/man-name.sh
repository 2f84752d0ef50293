#!/bin/sh
# man-name.sh NAME VERSION < man/readprofile.8 > NAME.8
# man-name.sh NAME VERSION < man/readprofile-formats.5 > NAME-formats.5
# The man pages of a program installed as NAME (make install PROGRAM=NAME):
# the titles, the synopsis, every example and every mention of the
# command take NAME, readprofile-formats becomes NAME-formats, and
# @VERSION@ the version; so does a message quoted as the program prints
# it ("readprofile: ...", the word followed by a colon): run as NAME, its
# messages start with NAME.  "(readprofile)", the package's name in -V's
# line under another name, keeps it.
# NAME holds only letters, digits and '._+-' (make install checks), none
# of which sed reads specially in a replacement.
set -eu
name=$1 version=$2
upper=$(printf '%s' "$name" | tr a-z A-Z)
w='\(^\|[ "'\''(<]\)readprofile\([ ,.:'\''"]\|\\[^-]\|$\)'
exec sed -e "s/@VERSION@/$version/g" \
	-e '/^\.\\"/b' \
	-e "s/^\\.TH READPROFILE-FORMATS /.TH $upper-FORMATS /" \
	-e "s/^\\.TH READPROFILE /.TH $upper /" \
	-e '/^\.TH /b' \
	-e "s/readprofile\\\\-formats/$name\\\\-formats/g" \
	-e "s/$w/\\1$name\\2/g" \
	-e "s/$w/\\1$name\\2/g"
