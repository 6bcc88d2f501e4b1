//! A cache sweep: one cache, one synthetic address stream, advanced in bounded steps.
//!
//! This is the smallest complete job the engine runs: it is what the browser worker streams
//! progress for today, and what the cycle-level simulation will be measured against (its L1
//! must give the same hits for the same stream). One access is simulated per step unit, so
//! `step(n)` does exactly `n` accesses' worth of work.

use alloc::format;
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::mem::cache::{CacheGeometry, Lookup, Replacement, TagArray};
use crate::rng::SplitMix64;

/// Most accesses one sweep may ask for: about an hour of browser time. Larger requests are
/// rejected up front rather than left to run "forever".
pub const MAX_ACCESSES: u64 = 100_000_000_000;

/// Which addresses the sweep touches, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum AccessPattern {
    /// Addresses `0, stride, 2*stride, ...` below `footprint_bytes`, once per pass: a kernel
    /// streaming through an array.
    Strided {
        /// Bytes of the array swept each pass.
        footprint_bytes: u64,
        /// Distance between consecutive accesses in bytes.
        stride_bytes: u64,
    },
    /// `accesses_per_pass` uniformly random 4-byte-aligned addresses below `footprint_bytes`:
    /// a hash-table lookup with no locality beyond what the cache captures.
    Random {
        /// Bytes of the table addressed.
        footprint_bytes: u64,
        /// Lookups per pass.
        accesses_per_pass: u64,
        /// Seed of the address stream (32 bits, so that it survives a trip through JavaScript
        /// numbers and URLs unchanged).
        seed: u32,
    },
}

impl AccessPattern {
    fn footprint_bytes(&self) -> u64 {
        match *self {
            AccessPattern::Strided { footprint_bytes, .. } | AccessPattern::Random { footprint_bytes, .. } => {
                footprint_bytes
            }
        }
    }

    /// Accesses made in one pass.
    pub fn accesses_per_pass(&self) -> u64 {
        match *self {
            AccessPattern::Strided { footprint_bytes, stride_bytes } => footprint_bytes.div_ceil(stride_bytes.max(1)),
            AccessPattern::Random { accesses_per_pass, .. } => accesses_per_pass,
        }
    }
}

/// Everything that defines a sweep. Plain data: serialisable, comparable, shareable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSweepSpec {
    /// The cache under test.
    pub cache: CacheGeometry,
    /// Its replacement policy.
    pub replacement: Replacement,
    /// The address stream of one pass.
    pub pattern: AccessPattern,
    /// How many times the pass is repeated.
    pub passes: u32,
}

impl Default for CacheSweepSpec {
    /// The sweep the app opens with: random lookups into a table four times the size of a
    /// 16 KiB L1, long enough (16 M accesses) to watch the progress bar move.
    fn default() -> Self {
        CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 16 * 1024, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Random { footprint_bytes: 64 * 1024, accesses_per_pass: 4_000_000, seed: 1 },
            passes: 4,
        }
    }
}

impl CacheSweepSpec {
    /// Total accesses the sweep will make.
    pub fn total_accesses(&self) -> u64 {
        self.pattern.accesses_per_pass().saturating_mul(self.passes as u64)
    }

    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.cache.validate("cache")?;
        if self.replacement == Replacement::Belady {
            return Err(ConfigError::new(
                "replacement",
                "Belady (an oracle replayed after a simulation) is for the simulated L1 only; choose Lru or Fifo",
            ));
        }
        if self.pattern.footprint_bytes() == 0 {
            return Err(ConfigError::new("pattern.footprint_bytes", "must be at least 1 byte"));
        }
        match self.pattern {
            AccessPattern::Strided { stride_bytes: 0, .. } => {
                return Err(ConfigError::new("pattern.stride_bytes", "must be at least 1 byte"));
            }
            AccessPattern::Random { footprint_bytes: 1..=3, .. } => {
                return Err(ConfigError::new(
                    "pattern.footprint_bytes",
                    "must hold at least one 4-byte word for random lookups",
                ));
            }
            AccessPattern::Random { accesses_per_pass: 0, .. } => {
                return Err(ConfigError::new("pattern.accesses_per_pass", "must be at least 1"));
            }
            _ => {}
        }
        if self.passes == 0 {
            return Err(ConfigError::new("passes", "must be at least 1"));
        }
        let total = self.pattern.accesses_per_pass() as u128 * self.passes as u128;
        if total > MAX_ACCESSES as u128 {
            return Err(ConfigError::new(
                "passes",
                format!("the sweep would make {total} accesses; the limit is {MAX_ACCESSES}"),
            ));
        }
        Ok(())
    }
}

/// What a sweep counted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSweepReport {
    /// Accesses simulated.
    pub accesses: u64,
    /// Accesses that found their line.
    pub hits: u64,
    /// Accesses that did not (each one fills a line).
    pub misses: u64,
    /// Fills that displaced a valid line.
    pub evictions: u64,
}

impl CacheSweepReport {
    /// Counts accumulated since `earlier`, a report from the same sweep.
    pub fn since(&self, earlier: &CacheSweepReport) -> CacheSweepReport {
        CacheSweepReport {
            accesses: self.accesses - earlier.accesses,
            hits: self.hits - earlier.hits,
            misses: self.misses - earlier.misses,
            evictions: self.evictions - earlier.evictions,
        }
    }
}

/// Whether a bounded step reached the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepOutcome {
    /// All work is done; further steps do nothing.
    Finished,
    /// The step's budget ran out first; call `step` again to continue.
    BudgetSpent,
}

/// A sweep in progress.
#[derive(Clone, Debug)]
pub struct CacheSweep {
    spec: CacheSweepSpec,
    tags: TagArray,
    rng: SplitMix64,
    per_pass: u64,
    total: u64,
    /// Index of the next access, `0..total`.
    position: u64,
    report: CacheSweepReport,
}

impl CacheSweep {
    /// Validates `spec` and prepares an empty cache.
    pub fn new(spec: CacheSweepSpec) -> Result<Self, ConfigError> {
        spec.validate()?;
        let seed = match spec.pattern {
            AccessPattern::Random { seed, .. } => seed as u64,
            AccessPattern::Strided { .. } => 0,
        };
        Ok(CacheSweep {
            tags: TagArray::new(spec.cache, spec.replacement),
            rng: SplitMix64::new(seed),
            per_pass: spec.pattern.accesses_per_pass(),
            total: spec.total_accesses(),
            position: 0,
            report: CacheSweepReport::default(),
            spec,
        })
    }

    /// The spec this sweep runs.
    pub fn spec(&self) -> &CacheSweepSpec {
        &self.spec
    }

    /// Accesses done so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Accesses the whole sweep makes.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Counts so far (final once [`StepOutcome::Finished`] was returned).
    pub fn report(&self) -> CacheSweepReport {
        self.report
    }

    /// The tag array, for inspection (heat maps, tests).
    pub fn tags(&self) -> &TagArray {
        &self.tags
    }

    /// Simulates at most `budget` accesses.
    pub fn step(&mut self, budget: u64) -> StepOutcome {
        let end = self.total.min(self.position.saturating_add(budget));
        while self.position < end {
            let pass = self.position / self.per_pass;
            let addr = match self.spec.pattern {
                AccessPattern::Strided { stride_bytes, .. } => (self.position % self.per_pass) * stride_bytes,
                AccessPattern::Random { footprint_bytes, .. } => self.rng.below(footprint_bytes / 4) * 4,
            };
            match self.tags.access(addr, pass as u32) {
                Lookup::Hit => self.report.hits += 1,
                Lookup::Miss { evicted } => {
                    self.report.misses += 1;
                    self.report.evictions += evicted.is_some() as u64;
                }
            }
            self.position += 1;
        }
        self.report.accesses = self.position;
        if self.position == self.total {
            StepOutcome::Finished
        } else {
            StepOutcome::BudgetSpent
        }
    }

    /// Runs to the end and returns the final report.
    pub fn run_to_end(&mut self) -> CacheSweepReport {
        while self.step(u64::MAX) == StepOutcome::BudgetSpent {}
        self.report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: u32 = 1024;

    fn strided(size_bytes: u32, ways: u32, footprint_bytes: u64, stride_bytes: u64, passes: u32) -> CacheSweepSpec {
        CacheSweepSpec {
            cache: CacheGeometry { size_bytes, line_bytes: 128, ways },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Strided { footprint_bytes, stride_bytes },
            passes,
        }
    }

    #[test]
    fn a_footprint_that_fits_misses_once_per_line() {
        // 16 KiB cache, 8 KiB array read word by word (4 B) four times: 64 cold misses, the
        // other 31 words of each line hit, and passes 2..4 hit entirely.
        let report = CacheSweep::new(strided(16 * KIB, 4, 8 * 1024, 4, 4)).unwrap().run_to_end();
        let accesses = 4 * 8 * 1024 / 4;
        assert_eq!(report, CacheSweepReport { accesses, hits: accesses - 64, misses: 64, evictions: 0 });
    }

    #[test]
    fn overflowing_sets_thrash_and_the_others_keep_hitting() {
        // 4 KiB, 4 ways, 128 B lines: 8 sets. A 33-line footprint read line by line puts 5 lines
        // in set 0 and 4 in each other set. Under LRU set 0 misses every time (5 > 4 ways), the
        // other 7 sets hit after the first pass: hits = (passes - 1) * 28.
        let passes = 6;
        let report = CacheSweep::new(strided(4 * KIB, 4, 33 * 128, 128, passes)).unwrap().run_to_end();
        assert_eq!(report.accesses, 33 * passes as u64);
        assert_eq!(report.hits, (passes as u64 - 1) * 28);
        assert_eq!(report.misses, 33 + (passes as u64 - 1) * 5);
        // Set 0 evicts on every miss after its first 4 fills.
        assert_eq!(report.evictions, report.misses - 32);
    }

    #[test]
    fn uniform_random_lookups_hit_at_capacity_over_footprint() {
        // Under independent uniform references every line is equally likely, so the steady-state
        // hit rate of any replacement policy is capacity / footprint = 1/4 here.
        let spec = CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 16 * KIB, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Random { footprint_bytes: 64 * 1024, accesses_per_pass: 200_000, seed: 42 },
            passes: 1,
        };
        let report = CacheSweep::new(spec).unwrap().run_to_end();
        let rate = report.hits as f64 / report.accesses as f64;
        assert!((rate - 0.25).abs() < 0.01, "hit rate {rate}");
    }

    #[test]
    fn stepping_in_chunks_gives_the_same_report_as_one_go() {
        let spec = CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 8 * KIB, line_bytes: 128, ways: 2 },
            replacement: Replacement::Fifo,
            pattern: AccessPattern::Random { footprint_bytes: 40_000, accesses_per_pass: 5_000, seed: 9 },
            passes: 3,
        };
        let whole = CacheSweep::new(spec).unwrap().run_to_end();
        let mut chunked = CacheSweep::new(spec).unwrap();
        let mut steps = 0;
        while chunked.step(777) == StepOutcome::BudgetSpent {
            steps += 1;
        }
        assert_eq!(steps, 15_000 / 777);
        assert_eq!(chunked.report(), whole);
        assert_eq!(chunked.step(10), StepOutcome::Finished);
        assert_eq!(chunked.report(), whole);
    }

    #[test]
    fn bad_specs_name_the_field() {
        let field = |spec: CacheSweepSpec| CacheSweep::new(spec).unwrap_err().field;
        assert_eq!(field(strided(16 * KIB, 4, 0, 4, 1)), "pattern.footprint_bytes");
        assert_eq!(field(strided(16 * KIB, 4, 64, 0, 1)), "pattern.stride_bytes");
        assert_eq!(field(strided(16 * KIB, 4, 64, 4, 0)), "passes");
        assert_eq!(field(strided(16 * KIB, 3, 64, 4, 1)), "cache.size_bytes");
        assert_eq!(field(strided(16 * KIB, 4, 1 << 40, 1, 1000)), "passes");
    }
}
