//! Dynamic parallelism: kernels whose threads launch child grids from the device (LaPerm), on
//! graphs, meshes, tables and text. Children re-read what their parents read, so where their
//! blocks run (and when) decides what the L1 and L2 still hold.

use super::LibraryWorkload;

/// This category's workloads.
pub const WORKLOADS: &[LibraryWorkload] = workloads! {
    "bfs-dp", "BFS (dynamic parallelism)", DynamicParallelism, "N" = 16384 in 1024..=262144 "vertices",
        "Level-synchronous BFS over a power-law graph where a frontier vertex with 32 or more out-edges launches a child grid to expand them.";
    "sssp-dp", "SSSP on a road mesh (dynamic parallelism)", DynamicParallelism, "N" = 128 in 32..=512 "mesh side",
        "Bellman-Ford relaxation with atomicMin from the centre of a road-like mesh, a parent thread per 32-vertex segment launching a child for a busy segment.";
    "sssp-dp-powerlaw", "SSSP on a power-law graph (dynamic parallelism)", DynamicParallelism, "N" = 16384 in 1024..=262144 "vertices",
        "Bellman-Ford relaxation with atomicMin over a power-law graph, where a vertex with 32 or more out-edges launches a child grid to relax them.";
    "clr-dp", "Graph colouring (dynamic parallelism)", DynamicParallelism, "N" = 32768 in 1024..=262144 "vertices",
        "Jones-Plassmann colouring of a banded, cage15-like graph: a thread per vertex, and a vertex with 32 or more edges launches a child grid to scan them.";
    "amr", "Adaptive mesh refinement", DynamicParallelism, "N" = 128 in 16..=256 "grid side",
        "A coarse grid with a thin flame front: hot cells launch a child that refines them into 32 sub-cells, which refine again, up to three nested levels.";
    "amr-hotspot", "Adaptive mesh refinement of a hot spot", DynamicParallelism, "N" = 128 in 16..=256 "grid side",
        "A coarse grid with a Gaussian hot spot: hot cells launch a child that splits their energy over 32 sub-cells in a region of its own, and the hottest sub-cells split again.";
    "join", "Relational join (dynamic parallelism)", DynamicParallelism, "N" = 16384 in 256..=262144 "keys",
        "An index join against a table with power-law key multiplicities, probed in key order: a probe whose key has 32 or more rows launches a child grid to scan them.";
    "regex", "Regex matching (dynamic parallelism)", DynamicParallelism, "NS" = 2048 in 32..=16384 "strings",
        "A thread per string prefilters for the motifs' prefixes and launches a 32-thread child per candidate block of offsets, each thread running the DFA.";
};
