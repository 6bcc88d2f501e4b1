//! Cache interference: kernels whose warps evict each other's lines in the L1 (CIAO). The
//! PolyBench/GPU linear-algebra kernels give every thread a row to walk, so each warp re-reads
//! 32 lines of its own while the other warps push them out; a Mars-like map-reduce does the same
//! with text records, and Mars's k-means (KMN) with points. The stencils (2DCONV, 3DCONV) and
//! GEMM are the controls whose reuse is coalesced or shared between warps.

use super::LibraryWorkload;

/// This category's workloads.
pub const WORKLOADS: &[LibraryWorkload] = workloads! {
    "atax", "ATAX", CacheInterference, "N" = 1024 in 64..=4096 "matrix side",
        "PolyBench's y = A^T(Ax): a row walk where every lane re-reads its own line while the other warps evict it (CIAO's large-working-set class), then a coalesced column walk.";
    "bicg", "BICG", CacheInterference, "N" = 1024 in 64..=4096 "matrix side",
        "PolyBench's BiCG step: a coalesced column walk (s = A^T r), then a row walk (q = A p) whose warps evict each other's rows.";
    "mvt", "MVT", CacheInterference, "N" = 1024 in 64..=4096 "matrix side",
        "PolyBench's x1 += A y1 and x2 += A^T y2: a row walk with heavy inter-warp interference, then a coalesced column walk.";
    "gesummv", "GESUMMV", CacheInterference, "N" = 1024 in 64..=4096 "matrix side",
        "PolyBench's y = alpha A x + beta B x: one row walk over two matrices, 64 lines per warp, two warps fill the L1.";
    "2dconv", "2DCONV", CacheInterference, "N" = 1024 in 32..=4096 "image side",
        "PolyBench's 3x3 convolution: coalesced, little traffic per instruction, a compute-intensive control for CIAO.";
    "3dconv", "3DCONV", CacheInterference, "N" = 96 in 8..=256 "volume side",
        "PolyBench's 3-D convolution, one launch per plane: coalesced stencil loads with reuse only between warps and launches.";
    "syr2k", "SYR2K", CacheInterference, "N" = 128 in 32..=512 "matrix side",
        "PolyBench's symmetric rank-2k update: each warp re-reads 64 rows of its own, shared within its block, evicted by the other blocks.";
    "gemm", "GEMM", CacheInterference, "N" = 192 in 32..=1024 "matrix side",
        "PolyBench's naive matrix multiply: broadcast and coalesced loads whose reuse is shared between warps, a control for the row walkers.";
    "kmn", "KMN (Mars k-means)", CacheInterference, "POINTS" = 3072 in 256..=65536 "points",
        "Mars's k-means assignment: each thread reads its own point's line once per cluster (row-major, uncoalesced), 32 lines per warp live for the whole kernel (CIAO's large-working-set KMN).";
    "mapreduce", "Map-reduce word count", CacheInterference, "RECORDS" = 16384 in 256..=262144 "records",
        "A Mars-style word count: each thread scans its own text record twice (uncoalesced, evicted by other warps), then atomics count the emitted keys.";
};
