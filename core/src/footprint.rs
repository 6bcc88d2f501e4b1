//! The memory a simulation will need, estimated before anything is allocated, so that a
//! machine or a workload too large for a browser tab is refused with the field that makes it
//! so instead of aborting the process or crashing the worker part-way through building it.
//!
//! The estimate adds the structures that grow with the configuration: the L1s' and the L2's
//! per-line arrays and MSHRs (each structure says what it allocates, next to where it does),
//! the warp slots' registers, the resident blocks' shared memory and the device buffers.
//! Everything else is small or bounded by what is resident (the per-block records, see
//! [`crate::stats::BlockLog`]; the dispatcher's placement ranges) or by a count of its own
//! (device grids: at most [`crate::exec::MAX_DEVICE_GRIDS`], about 1 KB each).

use alloc::format;
use alloc::string::String;

use crate::config::{Coherence, GpuConfig};
use crate::error::ConfigError;
use crate::mem::denovo::Home;
use crate::mem::l1::L1Cache;
use crate::mem::l2::L2Bank;
use crate::sm::Sm;
use crate::workload::Workload;

/// Most bytes the estimate may come to. A wasm worker can address 4 GiB at most and browsers
/// often grant less; the report, snapshots and the engine's small structures come on top, so
/// the big structures get a quarter of it. The largest preset with the largest library
/// workloads needs well under a tenth of it.
pub const MEMORY_BUDGET: u64 = 1 << 30;

/// One part of the estimate, with the field that sizes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// What it is, in words.
    pub what: &'static str,
    /// The configuration or workload field that sizes it.
    pub field: &'static str,
    /// Estimated bytes.
    pub bytes: u64,
}

/// The estimate, part by part, for `workload` on `config` (both validated), with a warp policy
/// that turns up to `smc_bytes` of each SM's shared memory into cache lines.
pub fn estimate(config: &GpuConfig, workload: &Workload, smc_bytes: u32) -> [Part; 5] {
    let core = &config.core;
    let sms = core.sm_count as u64;
    // A warp slot's spilled registers are kept beside its registers, a row of words each.
    let regs = workload.kernels.iter().map(|k| k.regs_per_thread + k.spill_words).max().unwrap_or(0);
    let shared = workload.kernels.iter().map(|k| k.shared_bytes).max().unwrap_or(0);
    let resident_shared = (core.max_tbs_per_sm as u64 * shared as u64).min(core.shared_memory_per_sm as u64);
    let buffers: u64 = workload.buffers.iter().map(|b| b.words as u64 * 4).sum();
    // DeNovo's owner registry has room for every L1 line.
    let registry = match config.coherence {
        Coherence::DeNovo => Home::bytes_needed(config),
        _ => 0,
    };
    [
        Part {
            what: "the L1s",
            field: "l1.size_bytes",
            bytes: sms * L1Cache::bytes_needed(&config.l1, smc_bytes) + registry,
        },
        Part { what: "the L2", field: "l2.size_bytes", bytes: config.l2.banks as u64 * L2Bank::bytes_needed(config) },
        Part {
            what: "the warp slots' registers",
            field: "core.max_warps_per_sm",
            bytes: sms * Sm::slot_bytes_needed(core, regs),
        },
        Part { what: "the blocks' shared memory", field: "core.shared_memory_per_sm", bytes: sms * resident_shared },
        Part { what: "the device buffers", field: "buffers", bytes: buffers },
    ]
}

/// The estimate's total in bytes.
pub fn total(parts: &[Part]) -> u64 {
    parts.iter().map(|p| p.bytes).sum()
}

/// Refuses a simulation whose estimate exceeds [`MEMORY_BUDGET`], naming the field of its
/// largest part.
pub fn check(config: &GpuConfig, workload: &Workload, smc_bytes: u32) -> Result<(), ConfigError> {
    let parts = estimate(config, workload, smc_bytes);
    let total = total(&parts);
    if total <= MEMORY_BUDGET {
        return Ok(());
    }
    let largest = parts.iter().max_by_key(|p| p.bytes).copied().unwrap_or(parts[0]);
    Err(ConfigError::new(
        largest.field,
        format!(
            "the simulation would need about {} of memory, more than the {} a run may use; {} alone take {}",
            size(total),
            size(MEMORY_BUDGET),
            largest.what,
            size(largest.bytes)
        ),
    ))
}

/// `bytes` in binary units, to one decimal.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(size(1 << 30), "1.0 GiB");
        assert_eq!(size(3 << 19), "1.5 MiB");
        assert_eq!(size(5 << 40), "5.0 TiB");
    }
}
