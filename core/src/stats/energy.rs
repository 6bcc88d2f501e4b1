//! Dynamic energy from per-event counts, split as the IKRA paper splits it (ikra.md §4): GPU
//! core+ (instruction fetch, register file, datapath), L1, scratchpad, L2 and network. DRAM is
//! counted apart and left out of the total, as the paper lists no DRAM component; idle and
//! static energy are not modelled (the paper excludes them: its CUs are power-gated when idle,
//! so running shorter saves nothing by itself).
//!
//! The paper used GPUWattch (40 nm, the GTX 480) and McPAT 1.1; neither's per-access figures are
//! published. Ours come from public figures at the neighbouring 45 nm node, each derivation
//! below, so they are to be read as ratios between runs of one machine, which is how the paper
//! plots every energy result (normalised to G):
//!
//! - **SRAM reads** (Horowitz, "Computing's energy problem", ISSCC 2014, 45 nm): 64 bits from an
//!   8 KB array 10 pJ, 32 KB 20 pJ, 1 MB 100 pJ. Between the points, linear in log₂(size); below
//!   8 KB the 8 KB figure; above 1 MB the last segment extended. A write is costed as a read.
//! - **Arithmetic** (same source): a 32-bit float add 0.9 pJ and multiply 3.7 pJ, so a lane's
//!   fused multiply-add, the typical GPU operation, 4.6 pJ.
//! - **Wires**: 64 bits over 10 mm 64 pJ, 0.1 pJ per bit per mm (Dally's figures, as tabled in
//!   BMC Bioinformatics 19:417, 2018, Table 7); wire energy per mm changes little between nodes.
//! - **DRAM** (Horowitz): 1.3–2.6 nJ per 64 bits; the midpoint, 1.95 nJ.
//!
//! Each event's cost, from the machine's geometry ([`EnergyModel::for_config`]):
//!
//! | event | cost |
//! |---|---|
//! | warp instruction (core+) | fetch: 64 bits of an instruction cache of at most 8 KB; two register reads and one write of 32 lanes × 4 bytes from banks of one lane's share of the register file; 32 lanes × 4.6 pJ |
//! | L1 access, fill, forwarded read answered, write-back read out | one line of the L1's size |
//! | scratchpad pass (one per bank-conflict degree) | 128 bytes (32 banks × 4 bytes) of the shared memory's size |
//! | L2 access, write, write-back from an L1, fill from DRAM | one line of a bank's size |
//! | L2 registration or forwarding lookup (DeNovo) | 64 bits of a bank (the registry's word) |
//! | flit-hop | the flit over one mesh tile's pitch (5.75 mm: the GTX 480's 529 mm² die in the 4×4 mesh's 16 tiles), and a router buffer write and read of the flit (SRAM of at most 8 KB) |
//! | DRAM read or write | one line |

use serde::{Deserialize, Serialize};

use crate::config::GpuConfig;
use crate::stats::{KernelReport, Report};

/// Picojoules to read 64 bits from an SRAM array of `bytes` (Horowitz 2014, 45 nm), linear in
/// log₂ of the size between his three points.
pub fn sram_pj_per_64_bits(bytes: u64) -> f64 {
    const POINTS: [(f64, f64); 3] = [(13.0, 10.0), (15.0, 20.0), (20.0, 100.0)]; // (log₂ bytes, pJ)
                                                                                 // libm, not the platform's log2: the same bits natively and in wasm.
    let x = libm::log2(bytes.max(1) as f64);
    if x <= POINTS[0].0 {
        return POINTS[0].1;
    }
    let segment = if x <= POINTS[1].0 { 0 } else { 1 };
    let ((x0, y0), (x1, y1)) = (POINTS[segment], POINTS[segment + 1]);
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

/// A lane's 32-bit fused multiply-add: a float add and a float multiply (Horowitz 2014).
const LANE_OP_PJ: f64 = 0.9 + 3.7;
/// Wire energy per bit per millimetre.
const WIRE_PJ_PER_BIT_MM: f64 = 0.1;
/// A mesh tile's pitch: the GTX 480's 529 mm² die in 16 tiles.
const TILE_MM: f64 = 5.75;
/// DRAM per 64 bits: the midpoint of Horowitz's 1.3–2.6 nJ.
const DRAM_PJ_PER_64_BITS: f64 = 1950.0;
/// Bytes of one pass through a scratchpad of 32 four-byte banks.
const SCRATCHPAD_PASS_BYTES: u64 = 128;
/// The largest instruction cache or router buffer costed (both are small arrays).
const SMALL_ARRAY_BYTES: u64 = 8 * 1024;

/// Picojoules per event for one machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EnergyModel {
    /// A warp instruction through the core (fetch, register file, datapath).
    pub warp_instruction: f64,
    /// A line read or written in the L1.
    pub l1_line: f64,
    /// A pass through the scratchpad's banks.
    pub scratchpad_pass: f64,
    /// A line read or written in an L2 bank.
    pub l2_line: f64,
    /// A lookup of a bank's tags or owner registry without data.
    pub l2_lookup: f64,
    /// A flit across one hop: the link and a router.
    pub flit_hop: f64,
    /// A line read from or written to DRAM.
    pub dram_line: f64,
}

impl EnergyModel {
    /// The costs for `config`'s arrays (see the module's table).
    pub fn for_config(config: &GpuConfig) -> Self {
        let line = config.l1.line_bytes as u64;
        let per_line = |array: u64| (line / 8) as f64 * sram_pj_per_64_bits(array);
        let warp = config.core.warp_size as u64;
        let rf_bank = config.core.registers_per_sm as u64 * 4 / warp.max(1);
        let operand = (warp * 4 / 8) as f64 * sram_pj_per_64_bits(rf_bank);
        let fetch = sram_pj_per_64_bits(SMALL_ARRAY_BYTES);
        let bank = config.l2.size_bytes as u64 / config.l2.banks.max(1) as u64;
        let flit_bits = config.interconnect.flit_bytes as f64 * 8.0;
        // A flit written into and read out of a router's input buffer.
        let router = 2.0 * (flit_bits / 64.0) * sram_pj_per_64_bits(SMALL_ARRAY_BYTES);
        EnergyModel {
            warp_instruction: fetch + 3.0 * operand + warp as f64 * LANE_OP_PJ,
            l1_line: per_line(config.l1.size_bytes as u64),
            scratchpad_pass: (SCRATCHPAD_PASS_BYTES / 8) as f64
                * sram_pj_per_64_bits(config.core.shared_memory_per_sm as u64),
            l2_line: per_line(bank),
            l2_lookup: sram_pj_per_64_bits(bank),
            flit_hop: flit_bits * WIRE_PJ_PER_BIT_MM * TILE_MM + router,
            dram_line: (line / 8) as f64 * DRAM_PJ_PER_64_BITS,
        }
    }

    /// The energy of the events `kernel` counts.
    pub fn of_run(&self, kernel: &KernelReport) -> Energy {
        self.of(&Counts::of_run(kernel))
    }

    /// The energy of the events `report` counts over its runs (a region's runs, for a region).
    pub fn of_report(&self, report: &Report) -> Energy {
        let mut counts = Counts::default();
        for k in &report.kernels {
            counts.add(&Counts::of_run(k));
        }
        self.of(&counts)
    }

    fn of(&self, c: &Counts) -> Energy {
        Energy {
            core: c.warp_instructions as f64 * self.warp_instruction,
            l1: c.l1_lines as f64 * self.l1_line,
            scratchpad: c.scratchpad_passes as f64 * self.scratchpad_pass,
            l2: c.l2_lines as f64 * self.l2_line + c.l2_lookups as f64 * self.l2_lookup,
            network: c.flit_hops as f64 * self.flit_hop,
            dram: c.dram_lines as f64 * self.dram_line,
        }
    }
}

/// The events energy is charged for, from one run's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    warp_instructions: u64,
    l1_lines: u64,
    scratchpad_passes: u64,
    l2_lines: u64,
    l2_lookups: u64,
    flit_hops: u64,
    dram_lines: u64,
}

impl Counts {
    fn of_run(k: &KernelReport) -> Counts {
        let (l1, l2) = (&k.l1, &k.l2);
        Counts {
            warp_instructions: k.warp_instructions,
            // Every accepted access touches the array; every fetch's data is written into it; an
            // owner reads the line out for a forwarded read, and an evicted owned line for its
            // write-back. (A forwarded read is charged to the run of the read.)
            l1_lines: l1.accesses + l1.misses + l1.sector_misses + l2.forwarded + l1.owned_writebacks,
            scratchpad_passes: k.shared_accesses,
            l2_lines: l2.accesses + l2.writes + l2.l1_writebacks + k.dram_reads,
            l2_lookups: l2.registrations + l2.forwarded,
            flit_hops: k.network.flit_hops(),
            dram_lines: k.dram_reads + k.dram_writes,
        }
    }

    fn add(&mut self, o: &Counts) {
        self.warp_instructions += o.warp_instructions;
        self.l1_lines += o.l1_lines;
        self.scratchpad_passes += o.scratchpad_passes;
        self.l2_lines += o.l2_lines;
        self.l2_lookups += o.l2_lookups;
        self.flit_hops += o.flit_hops;
        self.dram_lines += o.dram_lines;
    }
}

/// Dynamic energy by component, in picojoules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Energy {
    /// GPU core+: instruction fetch, register file, datapath.
    pub core: f64,
    /// The L1s.
    pub l1: f64,
    /// The scratchpads (shared memory).
    pub scratchpad: f64,
    /// The L2 banks.
    pub l2: f64,
    /// The network.
    pub network: f64,
    /// DRAM: not in [`Energy::total`], as the paper lists no DRAM component.
    pub dram: f64,
}

impl Energy {
    /// The paper's total: core+, L1, scratchpad, L2 and network.
    pub fn total(&self) -> f64 {
        self.core + self.l1 + self.scratchpad + self.l2 + self.network
    }

    /// The components of [`Energy::total`] in the paper's order, with their names.
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("GPU core+", self.core),
            ("L1", self.l1),
            ("scratchpad", self.scratchpad),
            ("L2", self.l2),
            ("network", self.network),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::mem::l1::L1Stats;
    use crate::stats::{L2Stats, NetworkStats, Traffic};

    #[test]
    fn sram_figures_meet_horowitz_points_and_interpolate_in_log_size() {
        assert_eq!(sram_pj_per_64_bits(1024), 10.0, "below 8 KB: the 8 KB figure");
        assert_eq!(sram_pj_per_64_bits(8 * 1024), 10.0);
        assert_eq!(sram_pj_per_64_bits(16 * 1024), 15.0, "halfway in log₂ between 8 and 32 KB");
        assert_eq!(sram_pj_per_64_bits(32 * 1024), 20.0);
        assert_eq!(sram_pj_per_64_bits(1024 * 1024), 100.0);
        // 128 KB: two of the five doublings from 32 KB to 1 MB.
        assert!((sram_pj_per_64_bits(128 * 1024) - 52.0).abs() < 1e-9);
        assert!((sram_pj_per_64_bits(2 * 1024 * 1024) - 116.0).abs() < 1e-9, "the last segment extended");
    }

    #[test]
    fn the_ikra_machine_costs_worked_by_hand() {
        let m = EnergyModel::for_config(&presets::ikra_denovo());
        // Fetch 10; register banks of 32 768 × 4 / 32 = 4 KB: 16 × 10 per operand, three
        // operands; 32 lanes × 4.6.
        assert!((m.warp_instruction - (10.0 + 480.0 + 147.2)).abs() < 1e-9);
        // 128 KB L1: 16 × 52 pJ per 128-byte line.
        assert!((m.l1_line - 832.0).abs() < 1e-9);
        // 16 KB shared memory: 16 × 15 pJ per pass.
        assert!((m.scratchpad_pass - 240.0).abs() < 1e-9);
        // 4 MB over 16 banks, 256 KB a bank: 68 pJ per 64 bits.
        assert!((m.l2_lookup - 68.0).abs() < 1e-9);
        assert!((m.l2_line - 16.0 * 68.0).abs() < 1e-9);
        // A 16-byte flit: 128 bits × 0.1 pJ × 5.75 mm, and 2 × 2 × 10 pJ in the router.
        assert!((m.flit_hop - (73.6 + 40.0)).abs() < 1e-9);
        assert!((m.dram_line - 16.0 * 1950.0).abs() < 1e-9);
    }

    #[test]
    fn a_run_is_charged_for_each_event_once_and_dram_stays_out_of_the_total() {
        let m = EnergyModel {
            warp_instruction: 1.0,
            l1_line: 10.0,
            scratchpad_pass: 100.0,
            l2_line: 1000.0,
            l2_lookup: 10_000.0,
            flit_hop: 100_000.0,
            dram_line: 1_000_000.0,
        };
        let run = KernelReport {
            warp_instructions: 7,
            // 5 accesses, of which 2 misses and 1 sector miss; 1 owned line written back.
            l1: L1Stats { accesses: 5, misses: 2, sector_misses: 1, owned_writebacks: 1, ..L1Stats::default() },
            shared_accesses: 3,
            // 2 lookups, 1 write, 1 write-back from an L1; 1 forwarded read, 1 registration.
            l2: L2Stats {
                accesses: 2,
                writes: 1,
                l1_writebacks: 1,
                forwarded: 1,
                registrations: 1,
                ..L2Stats::default()
            },
            dram_reads: 1,
            dram_writes: 1,
            network: NetworkStats { read: Traffic { packets: 2, flits: 4, flit_hops: 6 }, ..NetworkStats::default() },
            ..KernelReport::default()
        };
        let e = m.of_run(&run);
        assert_eq!(e.core, 7.0);
        assert_eq!(e.l1, 10.0 * (5 + 2 + 1 + 1 + 1) as f64, "accesses, fills, the forwarded read, the write-back");
        assert_eq!(e.scratchpad, 300.0);
        assert_eq!(e.l2, 1000.0 * (2 + 1 + 1 + 1) as f64 + 10_000.0 * 2.0, "with the DRAM fill; two lookups");
        assert_eq!(e.network, 600_000.0);
        assert_eq!(e.dram, 2_000_000.0);
        assert_eq!(e.total(), 7.0 + 100.0 + 300.0 + 25_000.0 + 600_000.0);
        let report = Report { kernels: alloc::vec![run.clone(), run], ..Report::default() };
        assert_eq!(m.of_report(&report).total(), 2.0 * e.total());
    }
}
