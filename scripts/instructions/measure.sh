#!/bin/sh
# Instructions the whole process executes (callgrind) for a fixed set of library runs, one line
# each: a count that the VM's wall-time noise does not move, to compare two builds of the
# engine. With a second binary, each run's change from the first to the second.
# Usage: scripts/instructions/measure.sh [BINARY [OTHER_BINARY]]
set -eu
first=${1:-./target/release/warpscope}
second=${2:-}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run --workload "$2" --gpu "$3" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# Memory-bound, compute-bound and launch-heavy runs, each on its paper's machine, and two on
# the H100-like preset (wide L1 sets, 132 SMs).
for run in hotspot:ikra-denovo srad:ikra-denovo clr-dp:laperm-k20c memcached:ccws-fermi \
    kmeans-transpose:cke-maxwell gesummv:fermi-gtx480 syr2k:fermi-gtx480 gemm:h100 hotspot:h100; do
    workload=${run%%:*} gpu=${run#*:}
    a=$(count "$first" "$workload" "$gpu")
    if [ -z "$second" ]; then
        echo "$workload $gpu: $a"
    else
        b=$(count "$second" "$workload" "$gpu")
        echo "$workload $gpu: $a -> $b ($(echo "scale=1; ($b - $a) * 100 / $a" | bc) %)"
    fi
done
