#!/bin/sh
# make demo: readprofile on the bundled real-kernel snapshot (fixtures/real),
# the ten functions with most ticks, with a legend.
rp=${1:-./readprofile}
dir=fixtures/real
echo "A real kernel's tick profile ($dir: Debian 6.1, booted with profile=2)."
echo "ticks: timer interrupts that found the processor in the function;"
echo "load: ticks per byte of the function; share: of all ticks counted."
echo
echo "\$ readprofile --top 10 -p $dir/profile.gz -m $dir/kallsyms.gz"
"$rp" --top 10 -p "$dir/profile.gz" -m "$dir/kallsyms.gz" || exit 1
echo
echo "More on each column and *unknown*: README.md, \"Reading the report\"."
