//! warpscope-core: the engine behind warpscope.
//!
//! This crate knows nothing of the browser, the wall clock, threads or ambient randomness:
//! it is `no_std` + `alloc`, every random choice comes from a seeded [`rng::SplitMix64`], and
//! the same inputs give the same report on every platform, bit for bit.
//!
//! What is here today:
//! - [`mem::cache`]: a set-associative tag array (LRU or FIFO replacement, owner id per line),
//!   the building block of the L1 and L2 models.
//! - [`sweep`]: a cache sweep job that drives the tag array with a synthetic access stream in
//!   bounded steps. It is the first computation the browser worker runs; the cycle-level
//!   `Simulation` joins it with the timing engine.
//!
//! Inputs are validated up front and errors name the field and the reason ([`ConfigError`]);
//! after validation nothing in here fails or panics.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod bench;
pub mod claims;
pub mod config;
pub mod error;
pub mod events;
pub mod exec;
pub mod footprint;
pub mod gpu;
pub mod isa;
pub mod kernel;
pub mod launch;
pub mod library;
pub mod mem;
pub mod rng;
pub mod scalability;
pub mod sched;
pub mod sm;
pub mod stats;
pub mod sweep;
pub mod workload;

pub use error::ConfigError;
pub use gpu::{Policies, RunOptions, Simulation, StepOutcome};
pub use sweep::{CacheSweep, CacheSweepReport, CacheSweepSpec};
