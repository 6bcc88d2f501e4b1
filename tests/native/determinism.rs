//! The same inputs give the same report, every time, bit for bit.

use warpscope_core::{CacheSweep, CacheSweepSpec};
use warpscope_wasm::protocol::{Job, Reply};
use warpscope_wasm::runner::{Advance, JobRunner};

#[test]
fn the_worker_runner_reports_what_the_core_computes() {
    let spec = CacheSweepSpec::default();
    let expected = CacheSweep::new(spec).unwrap().run_to_end();
    let mut runner = JobRunner::new(1, Job::CacheSweep(spec), 0).unwrap();
    while runner.advance(1 << 14, &mut |_| {}) == Advance::Running {}
    let Reply::Done { report: warpscope_wasm::protocol::JobReport::CacheSweep(report), .. } = runner.done(0.0) else {
        panic!("a finished runner reports Done")
    };
    assert_eq!(report, expected);
}

#[test]
fn two_runs_of_a_seeded_random_sweep_are_identical() {
    let spec = CacheSweepSpec::default();
    let a = serde_json::to_string(&CacheSweep::new(spec).unwrap().run_to_end()).unwrap();
    let b = serde_json::to_string(&CacheSweep::new(spec).unwrap().run_to_end()).unwrap();
    assert_eq!(a, b);
}
