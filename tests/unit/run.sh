#!/bin/sh
# Run each cmocka test binary given as an argument; sum up at the end.
pass=0 fail=0
for t in "$@"; do
	if "$t"; then
		pass=$((pass + 1))
	else
		echo "FAILED: $t"
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
