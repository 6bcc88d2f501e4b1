//! The memory side of the GPU: the coalescer, the L1 with its MSHRs and miss queue, and
//! below it the interconnect, the L2 banks and DRAM.

pub mod cache;
pub mod coalescer;
