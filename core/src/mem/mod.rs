//! The memory side of the GPU: caches today; the coalescer, MSHRs, L2 banks, interconnect and
//! DRAM join here as the timing engine grows.

pub mod cache;
