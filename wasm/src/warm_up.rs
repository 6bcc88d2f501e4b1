//! Warming a new worker's engine before its first job.
//!
//! A browser first runs WebAssembly as quickly compiled baseline code, and recompiles a
//! function with its optimising compiler, in the background, only once that function has run
//! enough (V8's dynamic tiering). So a fresh worker spent the first half second or so of its
//! first run at a third to half the speed of the next run of the same job. The warm-up runs
//! a few short library jobs, the way the page's Run does (compiling the kernel, simulating,
//! taking and encoding snapshots), as soon as the worker is ready, so that the engine's hot
//! functions are marked and compiled while the person is still setting up. It keeps nothing:
//! the replies go nowhere, and a job that arrives ends the warm-up at once.

use warpscope_core::config::presets;
use warpscope_core::{library, Policies};

use crate::protocol::{Job, JobId, Reply, ReportDetail, SimulateJob};
use crate::runner::{Advance, JobRunner};

/// The jobs, each a library workload at its smallest size on the page's default machine,
/// chosen to reach the engine's main paths between them: global loads through L1, L2 and DRAM
/// (gesummv), shared memory, barriers and floating point (hotspot), divergent branches and
/// irregular loads (bfs), atomics (histogram).
pub const PIECES: [&str; 4] = ["gesummv", "hotspot", "bfs", "histogram"];

/// Cycles simulated of each piece at most: a bound, not a setting; at their smallest sizes the
/// pieces end on their own, in 3 000 to 45 000 cycles (about 80 000 in all, a few hundred
/// milliseconds in a fresh worker).
pub const CYCLES_EACH: u64 = 100_000;

/// The machine the pieces run on: the page's default (`DEFAULT_MACHINE` in the frontend's
/// state, which a test there keeps equal).
pub const PRESET: &str = "fermi-gtx480";

/// Snapshot interval of the pieces: the page's (`SNAPSHOT_EVERY` in the frontend's set-up,
/// kept equal by the same test).
pub const SNAPSHOT_EVERY: u64 = 50;

/// Where the warm-up stands.
#[derive(Default)]
pub struct WarmUp {
    next: usize,
    running: Option<JobRunner>,
}

impl WarmUp {
    /// A warm-up that has not started.
    pub fn new() -> Self {
        Self::default()
    }

    /// Simulates at most `budget` cycles of the current piece, handing each reply a Run would
    /// post to `reply` (the worker encodes them and drops them); `false` once every piece has
    /// run.
    pub fn step(&mut self, budget: u64, reply: &mut impl FnMut(Reply)) -> bool {
        loop {
            let Some(runner) = self.running.as_mut() else {
                let Some(id) = PIECES.get(self.next) else { return false };
                self.next += 1;
                self.running = piece(id);
                continue;
            };
            let advance = runner.advance(budget, reply);
            if let Some(snapshots) = runner.take_snapshots() {
                reply(snapshots);
            }
            if advance != Advance::Running {
                reply(runner.done(0.0));
                self.running = None;
            }
            return true;
        }
    }
}

/// Piece `id` as the page would send it (`None` if it does not build, which a test rules out).
fn piece(id: &str) -> Option<JobRunner> {
    let entry = library::by_id(id)?;
    let job = SimulateJob {
        source: entry.source.into(),
        name: None,
        co_runners: Vec::new(),
        defines: vec![entry.size_define(entry.size.min)],
        config: (presets::by_id(PRESET)?.build)(),
        policies: Policies::default(),
        max_cycles: CYCLES_EACH,
        snapshot_every: SNAPSHOT_EVERY,
        heat_sm: 0,
        detail: ReportDetail::Shown,
    };
    JobRunner::new(JobId::MAX, Job::Simulate(Box::new(job)), 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::JobReport;

    #[test]
    fn every_piece_runs_to_its_end_and_then_the_warm_up_stops() {
        let mut warm = WarmUp::new();
        let (mut done, mut snapshot_batches, mut steps) = (Vec::new(), 0, 0);
        while warm.step(256, &mut |reply| match reply {
            Reply::Done { report: JobReport::Simulation(report), stopped_early, .. } => {
                done.push((report.cycles, stopped_early))
            }
            Reply::Snapshots { .. } => snapshot_batches += 1,
            Reply::Failed { error, .. } => panic!("a piece failed: {error:?}"),
            _ => {}
        }) {
            steps += 1;
            assert!(steps <= PIECES.len() as u64 * (CYCLES_EACH / 256 + 2), "the warm-up does not end");
        }
        // Each piece built and ran to the end of its kernels, inside its cycle bound, so the
        // warm-up went through a whole run's paths (block dispatch to the last exit).
        assert_eq!(done.len(), PIECES.len(), "a piece did not build");
        for (cycles, stopped_early) in &done {
            assert!(*cycles > 0 && *cycles < CYCLES_EACH && stopped_early.is_none(), "{done:?}");
        }
        assert!(snapshot_batches >= PIECES.len(), "each piece takes snapshots, as a Run does");
        assert!(!warm.step(256, &mut |_| panic!("a finished warm-up replies")));
    }
}
