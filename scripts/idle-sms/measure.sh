#!/bin/sh
# Instructions the whole process executes (callgrind) for each kernel here on the Fermi preset
# resized to 15, 132 and 1024 SMs, and each count against the 15-SM one: what idle SMs cost,
# free of the VM's wall-time noise. Usage: scripts/idle-sms/measure.sh [BINARY]
set -eu
bin=${1:-./target/release/warpscope}
dir=$(dirname "$0")
for kernel in compute4 chase4; do
    base=
    for sms in 15 132 1024; do
        n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" run "$dir/$kernel.cu" \
            --set core.sm_count=$sms 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
        base=${base:-$n}
        echo "$kernel $sms SMs: $n instructions, $(echo "scale=2; $n / $base" | bc)x"
    done
done
