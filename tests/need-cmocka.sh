#!/bin/sh
# make check needs cmocka.  On Debian, as root, install it; otherwise say how.
have_cmocka() {
	${CC:-cc} -E -x c - >/dev/null 2>&1 <<EOT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
EOT
}
have_cmocka && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "make check: installing libcmocka-dev with apt-get"
	{ apt-get install -y libcmocka-dev ||
	    { apt-get update && apt-get install -y libcmocka-dev; }; } >/dev/null 2>&1
	have_cmocka && exit 0
	echo "make check: 'apt-get install -y libcmocka-dev' failed" >&2
	exit 1
fi
echo "make check needs cmocka; install it with:" >&2
echo "    sudo apt-get install -y libcmocka-dev" >&2
exit 1
