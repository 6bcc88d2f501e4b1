//! When a `Simulate` job takes its snapshots, and how their number stays bounded.
//!
//! Snapshots are taken at cycle 0, at every multiple of the interval and at the cycle the run
//! ends. The runner makes the engine land exactly on each multiple, so the sequence depends
//! only on simulated time, never on how the run is sliced. The schedule mirrors what the page
//! holds under the protocol's rule ([`keeps`]) and doubles the interval when that reaches its
//! bound.

use warpscope_core::Simulation;

use crate::protocol::{keeps, TakenSnapshot};

/// The snapshot schedule of one job.
#[derive(Clone, Debug)]
pub struct SnapshotSchedule {
    /// Current interval (0: only the first and the last snapshot).
    every: u64,
    /// Cycle of the next snapshot (`u64::MAX`: none before the end).
    next: u64,
    l1_sm: usize,
    /// Most snapshots kept at one time.
    max: usize,
    /// Cycles of the snapshots the page keeps, by the protocol's rule.
    kept: Vec<u64>,
    /// Cycle of the last snapshot sent.
    last: Option<u64>,
}

impl SnapshotSchedule {
    /// Snapshots every `every` cycles (0: first and last only) of SM `l1_sm`'s L1, at most
    /// `max` kept.
    pub fn new(every: u64, l1_sm: usize, max: usize) -> Self {
        SnapshotSchedule { every, next: 0, l1_sm, max: max.max(2), kept: Vec::new(), last: None }
    }

    /// The cycle the engine must land on next.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// The interval now.
    pub fn every(&self) -> u64 {
        self.every
    }

    /// The snapshot due at the simulation's cycle, if one is.
    pub fn due(&mut self, sim: &mut Simulation) -> Option<TakenSnapshot> {
        let cycle = sim.cycle();
        if cycle < self.next {
            return None;
        }
        let taken = self.take(sim);
        self.kept.push(cycle);
        if self.every > 0 && self.kept.len() >= self.max {
            self.every = self.every.saturating_mul(2);
            let every = self.every;
            self.kept.retain(|&c| keeps(c, every));
        }
        self.next = match self.every {
            0 => u64::MAX,
            every => (cycle / every).saturating_add(1).saturating_mul(every),
        };
        Some(taken)
    }

    /// The last snapshot, at the cycle the run ended (none if one was just taken there).
    pub fn last(&mut self, sim: &mut Simulation) -> Option<TakenSnapshot> {
        (self.last != Some(sim.cycle())).then(|| self.take(sim))
    }

    fn take(&mut self, sim: &mut Simulation) -> TakenSnapshot {
        let snapshot = sim.snapshot(self.l1_sm);
        self.last = Some(snapshot.cycle);
        TakenSnapshot { every: self.every, snapshot }
    }
}
