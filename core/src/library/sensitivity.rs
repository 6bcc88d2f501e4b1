//! Cache sensitivity: kernels whose speed depends on how many warps share the L1 (CCWS), from
//! highly sensitive (graph traversal, hash lookups: many lines live per warp, re-read by the same
//! thread) through moderately sensitive (tiled linear algebra) to compute-bound controls.

use super::LibraryWorkload;

/// This category's workloads.
pub const WORKLOADS: &[LibraryWorkload] = workloads! {
    "bfs", "BFS (Rodinia)", CacheSensitivity, "N" = 32768 in 1024..=262144 "vertices",
        "Rodinia's level-synchronous BFS over a power-law graph: each thread walks its own edge list and gathers random neighbours (highly cache-sensitive).";
    "memcached", "Memcached GET", CacheSensitivity, "N" = 16384 in 1024..=131072 "requests",
        "Hash-table lookups: each thread hashes its 64-byte key and walks a bucket chain comparing 128-byte items with it (highly cache-sensitive).";
    "coloring", "Graph colouring", CacheSensitivity, "N" = 32768 in 1024..=262144 "vertices",
        "Jones-Plassmann colouring rounds over a uniform random graph: every uncoloured vertex scans its neighbours' priorities (highly cache-sensitive).";
    "gc", "Garbage collection (mark)", CacheSensitivity, "N" = 65536 in 1024..=262144 "objects",
        "The mark phase of a tracing collector: each thread scans its gray object's reference fields in order and marks the children (highly cache-sensitive).";
    "sssp", "SSSP (Harish & Narayanan)", CacheSensitivity, "N" = 16384 in 1024..=262144 "vertices",
        "Bellman-Ford relaxation from vertex 0 over a random graph: each improved vertex walks its short edge list and atomicMins its neighbours (moderately cache-sensitive).";
    "wp", "Weather prediction (WSM5-like)", CacheSensitivity, "N" = 16384 in 1024..=131072 "columns",
        "Column microphysics: each thread saturates its column's levels, then lets the rain fall through a private per-level array in three sub-steps, with much arithmetic per load (moderately cache-sensitive).";
    "streamcluster", "Streamcluster (Rodinia)", CacheSensitivity, "N" = 16384 in 1024..=131072 "points",
        "Rodinia's gain kernel, once per candidate centre: every point reads its 32 coordinates once and books its cost change in its own row (moderately cache-sensitive, little locality).";
    "cfd", "CFD solver (Rodinia)", CacheSensitivity, "N" = 16128 in 1536..=129024 "cells",
        "Rodinia's euler3d on an unstructured mesh: every cell gathers its four neighbours' flow variables and sums the fluxes through its faces (moderately cache-sensitive, little locality).";
    "phased", "Two-phase kernel", CacheSensitivity, "N" = 30720 in 1024..=122880 "threads",
        "One kernel in two phases: each thread re-reads its own 256-byte record (wants few warps), then each warp walks a chain of dependent lookups in a shared L2-resident table (wants every warp).";
    "backprop", "Back propagation (Rodinia)", CacheSensitivity, "IN" = 16384 in 256..=131072 "input units",
        "Rodinia's backprop step: a shared-memory layer forward pass and a weight update over a 17-column weight matrix (moderately sensitive).";
    "lud", "LU decomposition (Rodinia)", CacheSensitivity, "N" = 256 in 32..=1024 "matrix side",
        "Rodinia's blocked LU decomposition: diagonal, perimeter and internal tile kernels per 16-wide block column (moderately sensitive).";
    "nbody", "N-body", CacheSensitivity, "N" = 2048 in 256..=16384 "bodies",
        "All-pairs gravitational forces with shared-memory tiles: compute-bound, the cache-insensitive control.";
};
