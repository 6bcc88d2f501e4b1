//! Inter-kernel reuse: iterated kernels whose blocks re-read what the same block index touched
//! in the previous launch (the inter-kernel reuse-aware TB scheduling paper), plus controls
//! without reuse.

use super::LibraryWorkload;

/// This category's workloads.
pub const WORKLOADS: &[LibraryWorkload] = workloads! {
    "vecadd", "Vector add (streaming)", InterKernelReuse, "N" = 65536 in 1024..=4194304 "elements",
        "A coalesced streaming kernel with no reuse at all, within or across kernels: the baseline every cache policy should leave alone.";
    "hotspot", "Hotspot", InterKernelReuse, "N" = 256 in 32..=1024 "grid side",
        "Rodinia's thermal simulation: an iterated 2-D stencil where each block re-reads the tile its index wrote in the previous kernel.";
    "pathfinder", "Pathfinder", InterKernelReuse, "COLS" = 65536 in 512..=1048576 "columns",
        "Rodinia's row-by-row dynamic programming: each launch extends the cheapest paths by one row, and each block re-reads the column strip it wrote in the previous launch.";
    "srad", "SRAD v2", InterKernelReuse, "N" = 256 in 32..=1024 "image side",
        "Rodinia's speckle-reducing diffusion: two kernels per iteration on 16 x 16 tiles, each block reading what the same block index wrote in the kernel before.";
    "stencil", "Jacobi stencil", InterKernelReuse, "N" = 256 in 32..=2048 "grid side",
        "A 2-D 5-point Jacobi relaxation iterated with swapped arrays, all neighbours read from global memory: each block re-reads the tile it wrote last launch plus a halo.";
    "nw", "Needleman-Wunsch", InterKernelReuse, "N" = 512 in 32..=2048 "sequence length",
        "Rodinia's sequence alignment in anti-diagonal wavefronts of 16 x 16 tiles, one launch per diagonal, the block count rising then falling.";
    "ubench", "Load-add-store microbenchmark", InterKernelReuse, "T" = 12 in 2..=4096 "blocks",
        "The inter-kernel reuse paper's microbenchmark: 16 launches in place, each block adding to its own 8 KB slice, so block i needs exactly what block i wrote; 12, 36 and 96 blocks are its GPU-small, -medium and -large on 3 SMs.";
    "ubench-ws", "Work-stealing microbenchmark", InterKernelReuse, "T" = 96 in 2..=4096 "blocks",
        "The load-add-store microbenchmark with unequal work clustered by block: block b updates its slice 1 to 64 times, rising with b, so static chunks are unbalanced unless idle SMs steal.";
    "kmeans", "K-means assignment", InterKernelReuse, "POINTS" = 8000 in 256..=262144 "points",
        "Rodinia's k-means assignment step iterated by the host: every launch re-reads the same read-only features but nothing a previous launch wrote, the control.";
};
