//! What a claim measures of a run, read off its [`Report`].
//!
//! Every metric the 55 rows name is here. Most are read off one run's report; those of
//! programs side by side (weighted speedup, ANTT, fairness, a program's normalised IPC) also
//! need each program's run alone ([`Metric::measure_co_run`]). [`Metric::available`] says which
//! the engine measures: a metric added for a row whose mechanism is still missing says `false`
//! until it does, and a row that is run may only use available metrics (a test checks it).

use alloc::string::String;

use crate::stats::Report;

/// A number measured of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Cycles until the whole launch sequence finished.
    Cycles,
    /// Warp instructions per cycle, whole GPU.
    Ipc,
    /// L1 misses (new fetches and sector misses) per thousand warp instructions. The papers
    /// count instructions per thread or per warp; a ratio between variants of one workload
    /// is the same either way. For a run with `l1.replacement = Belady` (timed with LRU, its
    /// L1 stream replayed), the replay's Belady misses per thousand warp instructions of the
    /// timed run: the CCWS paper's "S-BEL" MPKI (the replay keeps lines, so no sector misses).
    L1Mpki,
    /// L1 hits per accepted L1 access; under DeNovo a store or atomic on data the L1 owns is
    /// a hit too (ikra.md §4).
    L1HitRate,
    /// L2 hits per L2 lookup.
    L2HitRate,
    /// DRAM line reads.
    DramReads,
    /// Interconnect flits, both directions (the network-traffic measure).
    NetworkFlits,
    /// Interconnect flits times the hops each travelled (the links' work on a mesh).
    NetworkFlitHops,
    /// The share of global accesses served at one level ([`AccessLevel`]), the IKRA paper's
    /// memory access breakdown.
    AccessShare(AccessLevel),
    /// Share of SM cycles in which the LSU retried a request the L1 could not accept (the
    /// CKE paper's "% LSU stall").
    LsuStallShare,
    /// Share of scheduler cycles in which an instruction issued (a compute-utilisation
    /// measure).
    IssueShare,
    /// Failed L1 attempts (every cause) per accepted L1 access (the CKE paper's rsfail rate).
    ReservationFailsPerAccess,
    /// The named program's (of programs side by side) reservation failures per L1 access: its
    /// requests' failed attempts, counted per retry cycle, over its accesses (`cke.md`'s
    /// per-kernel rsfail).
    ProgramReservationFailsPerAccess(&'static str),
    /// Cycles from the start of the first run of the named kernel to the end of its first
    /// run that ends (a kernel's time beside its co-runners).
    FirstRunCycles(&'static str),
    /// The named kernel's L1 accesses per thousand cycles while it runs: over its runs, their
    /// accesses over the cycles from each one's start to its end.
    KernelL1AccessesPerKcycle(&'static str),
    /// The named kernel's L1 miss rate: misses (sector misses included) per load, over its
    /// runs; stores and atomics (written through, or under DeNovo done on owned data or
    /// registered) are not loads.
    KernelL1MissRate(&'static str),
    /// Share of L1 hits that hit a line the same warp brought in (its miss allocated the line;
    /// a new warp in a reused slot is another warp). Merges into fetches in flight are not
    /// hits. 0 when nothing hit.
    IntraWarpHitShare,
    /// Dynamic energy, the IKRA paper's five components (core+, L1, scratchpad, L2, network;
    /// no DRAM, idle or static energy): `stats::energy`.
    Energy,
    /// DeNovo: requests the home bank forwarded to the L1 that owned their data (remote-L1
    /// hits).
    RemoteL1Hits,
    /// Weighted speedup of programs side by side (`a+b`): the sum over them of each one's
    /// normalised IPC, its IPC beside the others over its IPC alone (`cke.md` §6). Measured
    /// with the runs of each program alone that the plan adds ([`super::plan::solo_index`]).
    WeightedSpeedup,
    /// Average normalised turnaround time of programs side by side: the mean over them of
    /// IPC alone over IPC beside the others (lower is better).
    Antt,
    /// Fairness of programs side by side: the smallest normalised IPC over the largest.
    Fairness,
    /// The named program's (a co-run part's library id) IPC beside the others over its IPC
    /// alone.
    KernelNormalizedIpc(&'static str),
    /// The named program's L1 accesses per cycle beside the others over its rate alone (the
    /// CKE paper's Fig. 6, accesses per thousand cycles, as a ratio).
    KernelL1AccessRateRatio(&'static str),
    /// Under Warped-Slicer, the weighted speedup its scalability curves predict at the split it
    /// chose (the paper's "theoretical" one): the sum of each kernel's normalised performance
    /// at its block count.
    TheoreticalSpeedup,
    /// Weighted speedup reached over the one Warped-Slicer's curves predict.
    AchievedOverTheoretical,
    /// The blocks per SM SMK or Warped-Slicer allowed the named program (a co-run part's
    /// library id).
    SharedBlocks(&'static str),
    /// Average warps per SM its warp policy let issue over the run: live and not held back
    /// (CIAO's stalled warps, CCWS's warps barred from loading and SWL's beyond the limit are
    /// held), over every SM and every cycle of the run.
    ActiveWarps,
    /// Global loads held back by the warp policy's gate per thousand warp instructions: each
    /// load held back at least once counts once, however long it waited.
    GatedLoadsPerKilo,
    /// Under the Steal TB scheduler, launches begun without a re-chunk whose chunks and steal
    /// queues did not hold every block exactly once (its invariant); none under other policies.
    UnpartitionedLaunches,
    /// Under the Steal TB scheduler, steal-queue overflows (each re-chunks the next launch).
    StealOverflows,
}

/// Where a global access was served, as the IKRA paper breaks accesses down (ikra.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AccessLevel {
    /// The SM's own L1: load hits, and under DeNovo writes to owned data.
    L1,
    /// Another SM's L1, which owned the data (DeNovo's forwarded reads).
    RemoteL1,
    /// An L2 bank: its hits, the stores written through to it and DeNovo's registrations.
    L2,
    /// Main memory: L2 misses, and requests merged into a DRAM read in flight.
    Memory,
}

impl AccessLevel {
    /// Every level, nearest first.
    pub const ALL: [AccessLevel; 4] = [AccessLevel::L1, AccessLevel::RemoteL1, AccessLevel::L2, AccessLevel::Memory];

    /// Accesses `report` counts at this level. Merges into an L1 fetch in flight are left out
    /// (nothing new is served); a load part forwarded and part served by its bank counts at both.
    pub fn served(self, report: &Report) -> u64 {
        let (l1, l2) = (&report.l1, &report.l2);
        match self {
            AccessLevel::L1 => l1.hits + l1.owned_writes,
            AccessLevel::RemoteL1 => l2.forwarded,
            AccessLevel::L2 => l2.hits + l2.writes + l2.registrations,
            AccessLevel::Memory => l2.misses + l2.mshr_merges,
        }
    }

    /// Its name in tables.
    pub fn name(self) -> &'static str {
        match self {
            AccessLevel::L1 => "the L1",
            AccessLevel::RemoteL1 => "a remote L1",
            AccessLevel::L2 => "the L2",
            AccessLevel::Memory => "memory",
        }
    }
}

/// Each program's normalised IPC in a co-run, in the order of `report.parts`: its instructions
/// over the co-run's cycles (its measurement window) divided by its IPC alone in `solos` (the
/// same order). `None` for a report of one program, a count of solos that differs, or a
/// program that issued nothing alone.
pub fn normalized_ipcs(report: &Report, solos: &[&Report]) -> Option<alloc::vec::Vec<f64>> {
    if report.parts.is_empty() || report.parts.len() != solos.len() || report.cycles == 0 {
        return None;
    }
    let mut normalized = alloc::vec::Vec::with_capacity(solos.len());
    for (part, solo) in report.parts.iter().zip(solos) {
        if solo.cycles == 0 || solo.warp_instructions == 0 {
            return None;
        }
        let together = part.warp_instructions as f64 / report.cycles as f64;
        let alone = solo.warp_instructions as f64 / solo.cycles as f64;
        normalized.push(together / alone);
    }
    Some(normalized)
}

impl Metric {
    /// Whether the engine measures it today.
    pub fn available(self) -> bool {
        match self {
            Metric::FirstRunCycles(_)
            | Metric::WeightedSpeedup
            | Metric::Antt
            | Metric::Fairness
            | Metric::KernelNormalizedIpc(_)
            | Metric::KernelL1AccessRateRatio(_)
            | Metric::TheoreticalSpeedup
            | Metric::AchievedOverTheoretical
            | Metric::SharedBlocks(_)
            | Metric::KernelL1AccessesPerKcycle(_)
            | Metric::KernelL1MissRate(_)
            | Metric::ProgramReservationFailsPerAccess(_)
            | Metric::UnpartitionedLaunches
            | Metric::StealOverflows => true,
            other => other.measure(&Report::default()).is_some(),
        }
    }

    /// Short name for tables.
    pub fn name(self) -> String {
        let fixed = match self {
            Metric::Cycles => "cycles",
            Metric::Ipc => "IPC",
            Metric::L1Mpki => "L1 MPKI",
            Metric::L1HitRate => "L1 hit rate",
            Metric::L2HitRate => "L2 hit rate",
            Metric::DramReads => "DRAM reads",
            Metric::NetworkFlits => "network flits",
            Metric::NetworkFlitHops => "network flit-hops",
            Metric::AccessShare(level) => return alloc::format!("share of accesses served by {}", level.name()),
            Metric::LsuStallShare => "LSU stall share",
            Metric::IssueShare => "issue share",
            Metric::ReservationFailsPerAccess => "rsfail per access",
            Metric::Energy => "energy",
            Metric::RemoteL1Hits => "remote-L1 hits",
            Metric::WeightedSpeedup => "weighted speedup",
            Metric::Antt => "ANTT",
            Metric::Fairness => "fairness",
            Metric::IntraWarpHitShare => "intra-warp hit share",
            Metric::ActiveWarps => "active warps",
            Metric::GatedLoadsPerKilo => "gated loads per kilo-instruction",
            Metric::UnpartitionedLaunches => "launches not partitioned",
            Metric::StealOverflows => "steal-queue overflows",
            Metric::FirstRunCycles(k) => return alloc::format!("{k} cycles"),
            Metric::KernelNormalizedIpc(k) => return alloc::format!("{k} normalised IPC"),
            Metric::KernelL1AccessRateRatio(k) => return alloc::format!("{k} L1 access rate over alone"),
            Metric::TheoreticalSpeedup => "theoretical weighted speedup",
            Metric::AchievedOverTheoretical => "weighted speedup over theoretical",
            Metric::SharedBlocks(k) => return alloc::format!("{k} blocks per SM"),
            Metric::KernelL1AccessesPerKcycle(k) => return alloc::format!("{k} L1 accesses per 1K cycles"),
            Metric::KernelL1MissRate(k) => return alloc::format!("{k} L1 miss rate"),
            Metric::ProgramReservationFailsPerAccess(p) => return alloc::format!("{p} rsfail per access"),
        };
        String::from(fixed)
    }

    /// Whether it is measured on programs side by side against each one's run alone
    /// ([`Metric::measure_co_run`]).
    pub fn needs_solo_runs(self) -> bool {
        matches!(
            self,
            Metric::WeightedSpeedup
                | Metric::Antt
                | Metric::Fairness
                | Metric::KernelNormalizedIpc(_)
                | Metric::KernelL1AccessRateRatio(_)
                | Metric::AchievedOverTheoretical
        )
    }

    /// A co-run's value from its report and the reports of its programs alone, in the order of
    /// `report.parts`: each program's normalised IPC is its instructions over the co-run's
    /// cycles (its measurement window) divided by its IPC alone. `None` for another metric, a
    /// report of one program, or a program that issued nothing alone.
    pub fn measure_co_run(self, report: &Report, solos: &[&Report]) -> Option<f64> {
        if report.parts.is_empty() || report.parts.len() != solos.len() || report.cycles == 0 {
            return None;
        }
        if let Metric::KernelL1AccessRateRatio(name) = self {
            let i = report.parts.iter().position(|p| p.name == name)?;
            let (part, solo) = (&report.parts[i], solos[i]);
            if solo.cycles == 0 || solo.l1.accesses == 0 {
                return None;
            }
            let together = part.l1.accesses as f64 / report.cycles as f64;
            return Some(together / (solo.l1.accesses as f64 / solo.cycles as f64));
        }
        let normalized = normalized_ipcs(report, solos)?;
        let n = normalized.len() as f64;
        let (min, max) = normalized.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        Some(match self {
            Metric::WeightedSpeedup => normalized.iter().sum(),
            Metric::Antt => normalized.iter().map(|x| if *x > 0.0 { 1.0 / x } else { f64::INFINITY }).sum::<f64>() / n,
            Metric::Fairness if max > 0.0 => min / max,
            Metric::Fairness => 0.0,
            Metric::KernelNormalizedIpc(name) => normalized[report.parts.iter().position(|p| p.name == name)?],
            Metric::AchievedOverTheoretical => {
                normalized.iter().sum::<f64>() / Metric::TheoreticalSpeedup.measure(report).filter(|&t| t > 0.0)?
            }
            _ => return None,
        })
    }

    /// Its value for `report`; `None` when the engine does not measure it yet.
    pub fn measure(self, report: &Report) -> Option<f64> {
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let l1 = &report.l1;
        Some(match self {
            Metric::Cycles => report.cycles as f64,
            Metric::Ipc => ratio(report.warp_instructions, report.cycles),
            Metric::L1Mpki => match &report.l1_replay {
                Some(replay) => 1000.0 * ratio(replay.belady_misses, report.warp_instructions),
                None => 1000.0 * ratio(l1.misses + l1.sector_misses, report.warp_instructions),
            },
            Metric::L1HitRate => ratio(l1.hits + l1.owned_writes, l1.accesses),
            Metric::L2HitRate => ratio(report.l2.hits, report.l2.accesses),
            Metric::DramReads => report.dram.reads as f64,
            Metric::NetworkFlits => report.network.flits as f64,
            Metric::NetworkFlitHops => report.network.flit_hops() as f64,
            Metric::AccessShare(level) => {
                let served = AccessLevel::ALL.map(|l| l.served(report));
                ratio(level.served(report), served.iter().sum())
            }
            Metric::RemoteL1Hits => report.l2.forwarded as f64,
            Metric::Energy => report.energy.total(),
            Metric::LsuStallShare => {
                let stalled: u64 = report.sms.iter().map(|s| s.lsu_stall_cycles).sum();
                ratio(stalled, report.cycles * report.sms.len() as u64)
            }
            Metric::IssueShare => {
                let s = &report.stalls;
                ratio(s.issued, s.total())
            }
            Metric::ReservationFailsPerAccess => ratio(l1.failures(), l1.accesses),
            Metric::ProgramReservationFailsPerAccess(name) => {
                let part = report.parts.iter().find(|p| p.name == name)?;
                if part.l1.accesses == 0 {
                    return None;
                }
                ratio(part.l1.failures(), part.l1.accesses)
            }
            Metric::GatedLoadsPerKilo => 1000.0 * ratio(report.gated_loads, report.warp_instructions),
            Metric::UnpartitionedLaunches => report.steal?.unpartitioned_launches as f64,
            Metric::StealOverflows => report.steal?.overflows as f64,
            Metric::IntraWarpHitShare => ratio(l1.intra_warp_hits, l1.hits),
            Metric::ActiveWarps => {
                let warp_cycles: u64 = report.sms.iter().map(|s| s.active_warp_cycles).sum();
                ratio(warp_cycles, report.cycles * report.sms.len() as u64)
            }
            Metric::FirstRunCycles(name) => {
                let mut runs = report.kernels.iter().filter(|k| k.name == name);
                let start = runs.clone().map(|k| k.start_cycle).min()?;
                let end = runs.find_map(|k| (k.end_cycle > 0).then_some(k.end_cycle))?;
                (end - start) as f64
            }
            Metric::KernelL1AccessesPerKcycle(name) => {
                let runs = report.kernels.iter().filter(|k| k.name == name && k.end_cycle > 0);
                let (accesses, cycles) =
                    runs.fold((0, 0), |(a, c), k| (a + k.l1.accesses, c + (k.end_cycle - k.start_cycle)));
                if cycles == 0 {
                    return None;
                }
                1000.0 * ratio(accesses, cycles)
            }
            Metric::KernelL1MissRate(name) => {
                let runs = report.kernels.iter().filter(|k| k.name == name);
                let (misses, loads) = runs.fold((0, 0), |(m, l), k| {
                    // Stores and atomics leave: written through, or under DeNovo done on owned
                    // data or registered.
                    let writes = k.l1.forwarded + k.l1.owned_writes + k.l1.registrations;
                    (m + k.l1.misses + k.l1.sector_misses, l + k.l1.accesses - writes)
                });
                if loads == 0 {
                    return None;
                }
                ratio(misses, loads)
            }
            Metric::TheoreticalSpeedup => report.sharing.as_ref()?.theoretical_speedup?,
            Metric::SharedBlocks(name) => {
                // A kernel per program, in the order the programs' streams first launched.
                let sharing = report.sharing.as_ref()?;
                if sharing.kernels.len() != report.parts.len() {
                    return None;
                }
                sharing.kernels[report.parts.iter().position(|p| p.name == name)?].blocks_per_sm as f64
            }
            // Measured with the programs' runs alone: `measure_co_run`.
            Metric::WeightedSpeedup
            | Metric::Antt
            | Metric::Fairness
            | Metric::KernelNormalizedIpc(_)
            | Metric::KernelL1AccessRateRatio(_)
            | Metric::AchievedOverTheoretical => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::l1::L1Stats;
    use crate::stats::{KernelReport, L1Replay, L2Stats, SmReport};
    use alloc::vec;

    /// 39 accesses, of which 9 stores; 6 misses and 3 sector misses.
    fn a_l1() -> L1Stats {
        L1Stats { accesses: 39, forwarded: 9, misses: 6, sector_misses: 3, ..L1Stats::default() }
    }

    fn report() -> Report {
        Report {
            cycles: 1000,
            warp_instructions: 4000,
            l1: L1Stats {
                accesses: 200,
                hits: 150,
                intra_warp_hits: 120,
                inter_warp_hits: 30,
                misses: 30,
                sector_misses: 10,
                fail_mshr_entry: 60,
                fail_miss_queue: 40,
                ..L1Stats::default()
            },
            sms: vec![
                SmReport { lsu_stall_cycles: 100, ..SmReport::default() },
                SmReport { lsu_stall_cycles: 300, ..SmReport::default() },
            ],
            kernels: vec![
                KernelReport {
                    name: "a".into(),
                    start_cycle: 10,
                    end_cycle: 400,
                    l1: a_l1(),
                    ..KernelReport::default()
                },
                KernelReport { name: "b".into(), start_cycle: 0, end_cycle: 990, ..KernelReport::default() },
                KernelReport {
                    name: "a".into(),
                    start_cycle: 401,
                    end_cycle: 791,
                    l1: a_l1(),
                    ..KernelReport::default()
                },
            ],
            gated_loads: 12,
            ..Report::default()
        }
    }

    #[test]
    fn metrics_read_the_report_as_documented() {
        let r = report();
        assert_eq!(Metric::Ipc.measure(&r), Some(4.0));
        assert_eq!(Metric::L1Mpki.measure(&r), Some(10.0), "40 misses in 4000 instructions");
        let replayed = Report {
            l1_replay: Some(L1Replay { belady_misses: 8, lru_misses: 30, ..L1Replay::default() }),
            ..report()
        };
        assert_eq!(Metric::L1Mpki.measure(&replayed), Some(2.0), "8 Belady misses in 4000 instructions");
        assert_eq!(Metric::L1HitRate.measure(&r), Some(0.75));
        assert_eq!(Metric::IntraWarpHitShare.measure(&r), Some(0.8), "120 of 150 hits");
        assert_eq!(Metric::ReservationFailsPerAccess.measure(&r), Some(0.5));
        assert_eq!(Metric::LsuStallShare.measure(&r), Some(0.2), "400 of 2 SMs × 1000 cycles");
        assert_eq!(Metric::FirstRunCycles("a").measure(&r), Some(390.0));
        assert_eq!(Metric::FirstRunCycles("c").measure(&r), None);
        assert_eq!(Metric::KernelL1AccessesPerKcycle("a").measure(&r), Some(100.0), "78 accesses in 390 + 390 cycles");
        assert_eq!(Metric::KernelL1MissRate("a").measure(&r), Some(0.3), "18 of 60 loads");
        assert_eq!(Metric::KernelL1MissRate("b").measure(&r), None, "no loads");
        assert_eq!(Metric::GatedLoadsPerKilo.measure(&r), Some(3.0), "12 loads held back in 4000 instructions");
        let denovo = Report {
            l1: L1Stats { accesses: 100, hits: 50, owned_writes: 10, ..L1Stats::default() },
            l2: L2Stats {
                hits: 9,
                writes: 1,
                registrations: 5,
                forwarded: 15,
                misses: 8,
                mshr_merges: 2,
                ..L2Stats::default()
            },
            ..Report::default()
        };
        assert_eq!(Metric::L1HitRate.measure(&denovo), Some(0.6), "50 hits and 10 owned writes in 100");
        assert_eq!(Metric::RemoteL1Hits.measure(&denovo), Some(15.0));
        let share = |level| Metric::AccessShare(level).measure(&denovo);
        // 60 at the L1, 15 remote, 15 at the L2, 10 in memory.
        assert_eq!(share(AccessLevel::L1), Some(0.6));
        assert_eq!(share(AccessLevel::RemoteL1), Some(0.15));
        assert_eq!(share(AccessLevel::L2), Some(0.15));
        assert_eq!(share(AccessLevel::Memory), Some(0.1));
        assert!(Metric::Cycles.available());
        let spent =
            Report { energy: crate::stats::energy::Energy { core: 3.0, dram: 5.0, ..Default::default() }, ..report() };
        assert_eq!(Metric::Energy.measure(&spent), Some(3.0), "DRAM is not among the paper's components");
    }

    #[test]
    fn co_run_metrics_follow_the_papers_definitions_against_each_programs_run_alone() {
        use crate::stats::PartReport;
        let part = |name: &str, warp_instructions| PartReport {
            name: name.into(),
            warp_instructions,
            ..PartReport::default()
        };
        // Over a 100-cycle window A issued 100 and B 300; alone A issues 200 and B 400 in 100 cycles.
        let together = Report { cycles: 100, parts: vec![part("a", 100), part("b", 300)], ..Report::default() };
        let alone = |warp_instructions| Report { cycles: 100, warp_instructions, ..Report::default() };
        let (a, b) = (alone(200), alone(400));
        let measure = |m: Metric| m.measure_co_run(&together, &[&a, &b]).expect("measured");
        // Normalised IPCs 0.5 and 0.75.
        assert!((measure(Metric::WeightedSpeedup) - 1.25).abs() < 1e-12);
        assert!((measure(Metric::Antt) - (2.0 + 4.0 / 3.0) / 2.0).abs() < 1e-12);
        assert!((measure(Metric::Fairness) - 0.5 / 0.75).abs() < 1e-12);
        assert!((measure(Metric::KernelNormalizedIpc("b")) - 0.75).abs() < 1e-12);
        assert_eq!(Metric::KernelNormalizedIpc("c").measure_co_run(&together, &[&a, &b]), None);
        assert_eq!(Metric::WeightedSpeedup.measure_co_run(&together, &[&a]), None, "a program's run alone is missing");
        assert_eq!(Metric::Ipc.measure_co_run(&together, &[&a, &b]), None);
        for m in [Metric::WeightedSpeedup, Metric::Antt, Metric::Fairness, Metric::KernelNormalizedIpc("a")] {
            assert!(m.available() && m.needs_solo_runs());
            assert_eq!(m.measure(&together), None, "one report cannot measure it");
        }
    }

    /// A split reported by Warped-Slicer, and the L1 access rates of the programs beside each
    /// other against alone.
    #[test]
    fn split_metrics_read_the_sharing_report_and_access_rates_compare_with_each_program_alone() {
        use crate::stats::sharing::{SharedKernel, SharingReport};
        use crate::stats::PartReport;
        let part = |name: &str, warp_instructions, accesses| PartReport {
            name: name.into(),
            warp_instructions,
            l1: L1Stats { accesses, ..L1Stats::default() },
            ..PartReport::default()
        };
        let shared = |blocks_per_sm| SharedKernel { blocks_per_sm, ..SharedKernel::default() };
        let together = Report {
            cycles: 1000,
            parts: vec![part("a", 1000, 70), part("b", 3000, 130)],
            sharing: Some(SharingReport { kernels: vec![shared(9), shared(4)], theoretical_speedup: Some(1.6) }),
            ..Report::default()
        };
        // Alone, a made 130 accesses and 2000 instructions in 1000 cycles; b 260 and 4000 in 2000.
        let alone = |cycles, warp_instructions, accesses| Report {
            cycles,
            warp_instructions,
            l1: L1Stats { accesses, ..L1Stats::default() },
            ..Report::default()
        };
        let (a, b) = (alone(1000, 2000, 130), alone(2000, 4000, 260));
        assert_eq!(Metric::SharedBlocks("a").measure(&together), Some(9.0));
        assert_eq!(Metric::SharedBlocks("b").measure(&together), Some(4.0));
        assert_eq!(Metric::SharedBlocks("c").measure(&together), None);
        // a's 70 accesses met 35 failed attempts; b's none.
        let mut failing = together.clone();
        failing.parts[0].l1.fail_line_alloc = 20;
        failing.parts[0].l1.fail_mshr_entry = 15;
        assert_eq!(Metric::ProgramReservationFailsPerAccess("a").measure(&failing), Some(0.5));
        assert_eq!(Metric::ProgramReservationFailsPerAccess("b").measure(&failing), Some(0.0));
        assert_eq!(Metric::ProgramReservationFailsPerAccess("c").measure(&failing), None);
        assert_eq!(Metric::TheoreticalSpeedup.measure(&together), Some(1.6));
        let co = |m: Metric| m.measure_co_run(&together, &[&a, &b]).expect("measured");
        // 70 per 1000 cycles against 130: the paper's Fig. 6 in miniature.
        assert!((co(Metric::KernelL1AccessRateRatio("a")) - 70.0 / 130.0).abs() < 1e-12);
        assert!((co(Metric::KernelL1AccessRateRatio("b")) - 1.0).abs() < 1e-12);
        // Normalised IPCs 0.5 and 1.5: 2.0 reached against 1.6 predicted.
        assert!((co(Metric::AchievedOverTheoretical) - 1.25).abs() < 1e-12);
        let unshared = Report { sharing: None, ..together.clone() };
        assert_eq!(Metric::AchievedOverTheoretical.measure_co_run(&unshared, &[&a, &b]), None);
    }
}
