//! The memory side of the GPU: the coalescer, the L1 with its MSHRs and miss queue, and
//! below it the interconnect, the L2 banks and DRAM; `events` orders what they schedule.

pub mod cache;
pub mod coalescer;
pub mod denovo;
pub mod dram;
pub mod events;
pub mod l1;
pub mod l2;
pub mod line_table;
pub mod network;
pub mod replay;
