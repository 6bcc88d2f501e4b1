//! One job, advanced in bounded slices, producing the replies the page sees.
//!
//! The worker decides *when* to run a slice (by wall time); the runner decides *what* a slice
//! does and what it reports. Frames cover fixed windows of `frame_every` cycles, so the
//! recorded frames are the same on a fast machine and a slow one.

use warpscope_core::sweep::StepOutcome;
use warpscope_core::{CacheSweep, CacheSweepReport, ConfigError};

use crate::protocol::{Failure, Job, JobId, JobReport, Reply};

/// Most frames one job may record; the page keeps them all for playback.
pub const MAX_FRAMES: u64 = 100_000;

/// A job that has been validated and is ready to advance.
pub struct JobRunner {
    id: JobId,
    sweep: CacheSweep,
    frame_every: u64,
    /// Counts at the start of the current frame window.
    frame_base: CacheSweepReport,
}

impl JobRunner {
    /// Validates `job`; a bad configuration becomes [`Failure::InvalidConfig`].
    pub fn new(id: JobId, job: Job, frame_every: u64) -> Result<Self, Failure> {
        let Job::CacheSweep(spec) = job;
        let sweep = CacheSweep::new(spec).map_err(Failure::InvalidConfig)?;
        if frame_every > 0 && sweep.total().div_ceil(frame_every) > MAX_FRAMES {
            return Err(Failure::InvalidConfig(ConfigError::new(
                "frame_every",
                format!(
                    "{frame_every} cycles per frame would record {} frames; at most {MAX_FRAMES} are kept, \
                     so use at least {} cycles per frame",
                    sweep.total().div_ceil(frame_every),
                    sweep.total().div_ceil(MAX_FRAMES)
                ),
            )));
        }
        Ok(JobRunner { id, sweep, frame_every, frame_base: CacheSweepReport::default() })
    }

    /// The job's id.
    pub fn id(&self) -> JobId {
        self.id
    }

    /// Runs at most `budget` cycles, passing each completed frame to `emit`.
    /// Returns `true` once the job has finished.
    pub fn advance(&mut self, budget: u64, emit: &mut impl FnMut(Reply)) -> bool {
        let mut left = budget;
        loop {
            let before = self.sweep.position();
            let to_frame_end = match self.frame_every {
                0 => u64::MAX,
                every => every - before % every,
            };
            let outcome = self.sweep.step(left.min(to_frame_end));
            let now = self.sweep.position();
            left -= now - before;
            let finished = outcome == StepOutcome::Finished;
            let window_closed = self.frame_every > 0 && (now % self.frame_every == 0 || finished);
            if window_closed && now > self.frame_base.accesses {
                let report = self.sweep.report();
                let window = report.since(&self.frame_base);
                emit(Reply::Frame {
                    id: self.id,
                    start: self.frame_base.accesses,
                    end: now,
                    hits: window.hits,
                    misses: window.misses,
                });
                self.frame_base = report;
            }
            if finished {
                return true;
            }
            if left == 0 {
                return false;
            }
        }
    }

    /// Where the job stands.
    pub fn progress(&self) -> Reply {
        let (cycle, total) = (self.sweep.position(), self.sweep.total());
        Reply::Progress { id: self.id, cycle, total, fraction: cycle as f64 / total as f64 }
    }

    /// The final reply of a finished job.
    pub fn done(&self) -> Reply {
        Reply::Done { id: self.id, report: JobReport::CacheSweep(self.sweep.report()) }
    }

    /// The final reply of a cancelled job.
    pub fn cancelled(&self) -> Reply {
        Reply::Cancelled { id: self.id, cycle: self.sweep.position() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::sweep::AccessPattern;
    use warpscope_core::CacheSweepSpec;

    fn spec(passes: u32) -> CacheSweepSpec {
        CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 4096, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Random { footprint_bytes: 16384, accesses_per_pass: 1000, seed: 5 },
            passes,
        }
    }

    fn frames(budget: u64, frame_every: u64) -> (Vec<Reply>, Reply) {
        let mut runner = JobRunner::new(1, Job::CacheSweep(spec(3)), frame_every).unwrap();
        let mut out = Vec::new();
        while !runner.advance(budget, &mut |r| out.push(r)) {}
        (out, runner.done())
    }

    #[test]
    fn frames_tile_the_run_and_do_not_depend_on_slice_size() {
        let (small_slices, done) = frames(7, 400);
        let (one_slice, _) = frames(u64::MAX, 400);
        assert_eq!(small_slices, one_slice);
        // 3000 cycles in windows of 400: seven full windows and a last one of 200.
        let windows: Vec<(u64, u64)> = small_slices
            .iter()
            .map(|f| match f {
                Reply::Frame { start, end, .. } => (*start, *end),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(windows.len(), 8);
        assert_eq!(windows[0], (0, 400));
        assert_eq!(windows[7], (2800, 3000));
        assert!(windows.windows(2).all(|w| w[0].1 == w[1].0));
        // The frames add up to the final report.
        let (hits, misses) = small_slices.iter().fold((0, 0), |(h, m), f| match f {
            Reply::Frame { hits, misses, .. } => (h + hits, m + misses),
            _ => (h, m),
        });
        let Reply::Done { report: JobReport::CacheSweep(report), .. } = done else { panic!() };
        assert_eq!((hits, misses), (report.hits, report.misses));
        assert_eq!(report, CacheSweep::new(spec(3)).unwrap().run_to_end());
    }

    #[test]
    fn too_many_frames_is_refused_with_the_smallest_workable_value() {
        let Err(Failure::InvalidConfig(err)) = JobRunner::new(1, Job::CacheSweep(spec(1000)), 1) else {
            panic!("expected a configuration error")
        };
        assert_eq!(err.field, "frame_every");
        assert!(err.reason.contains("at least 10 cycles per frame"), "{}", err.reason);
    }

    #[test]
    fn a_bad_spec_is_an_invalid_config_failure() {
        let mut bad = spec(1);
        bad.cache.ways = 0;
        assert!(matches!(
            JobRunner::new(1, Job::CacheSweep(bad), 0),
            Err(Failure::InvalidConfig(ConfigError { ref field, .. })) if field == "cache.ways"
        ));
    }
}
