#!/bin/sh
# make demo: readprofile on the bundled real-kernel snapshot (fixtures/real),
# hottest functions first.
rp=${1:-./readprofile}
dir=fixtures/real
echo "\$ readprofile -p $dir/profile.gz -m $dir/kallsyms.gz | sort -rn | head -20"
"$rp" -p "$dir/profile.gz" -m "$dir/kallsyms.gz" | sort -rn | head -20
