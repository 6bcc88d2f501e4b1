//! Concurrent kernels: compute-intensive and memory-intensive kernels to run side by side (the
//! concurrent-kernel-execution paper, which pairs C and M kernels on the same SMs), plus one
//! workload that launches such a pair into two streams itself.

use super::LibraryWorkload;

/// This category's workloads.
pub const WORKLOADS: &[LibraryWorkload] = workloads! {
    "blackscholes", "Black-Scholes", ConcurrentKernels, "OPTIONS" = 524288 in 512..=4194304 "options",
        "The CUDA SDK's option pricer: logf, sqrtf and expf-heavy arithmetic around a few coalesced loads, a compute-intensive kernel.";
    "matmul", "Tiled matrix multiply", ConcurrentKernels, "N" = 192 in 16..=1024 "matrix side",
        "C = A x B through 16 x 16 shared-memory tiles: shared-memory and ALU bound with light global traffic, a compute-intensive kernel.";
    "copy", "Streaming copy", ConcurrentKernels, "N" = 2097152 in 1024..=16777216 "words",
        "A coalesced device-to-device copy with no reuse and no arithmetic, a memory-intensive kernel.";
    "histogram", "Histogram", ConcurrentKernels, "N" = 2097152 in 2048..=16777216 "values",
        "A 256-bin histogram through shared-memory atomics merged with global atomics, skewed so some bins are hot.";
    "spmv", "Sparse matrix-vector product (JDS)", ConcurrentKernels, "N" = 49152 in 192..=393216 "rows",
        "Parboil's SpMV in the jagged-diagonal layout, a thread per row gathering x over a band: the concurrent-kernel paper's memory-intensive sv.";
    "kmeans-transpose", "K-means transpose", ConcurrentKernels, "POINTS" = 49152 in 256..=393216 "points",
        "Rodinia kmeans' point-major to feature-major transpose, 34 lines per warp load: the concurrent-kernel paper's memory-intensive ks.";
    "pair-compute-memory", "Compute + memory pair", ConcurrentKernels, "POINTS" = 8192 in 256..=262144 "points",
        "A compute-intensive kernel and a strided, memory-intensive transpose launched into two streams so they share the SMs.";
};
