//! The optimiser never changes what a program computes: every library workload, compiled
//! with and without optimisation, leaves every buffer bit-identical in the reference runner
//! (`fma` contraction happens at both levels; it is part of the language). And optimisation
//! pays: the library runs fewer warp instructions optimised, and no workload more than 1 % more
//! (unrolling by four does not pay on every loop: `sssp`'s edge loop, a handful of turns that
//! differ from lane to lane, runs 3 % more in its relax kernel and 0.03 % more over the
//! workload, as the instruction table in BENCHMARKS.md shows).

use warpscope_core::config::presets;
use warpscope_core::exec::reference;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::workload::Workload;

fn compile_library(id: &str, source: &str, defines: &[(String, String)], optimize: bool) -> Workload {
    let config = presets::fermi_gtx480();
    match compile(source, &CompileOptions { config: &config, defines, optimize }) {
        Ok(program) => program.workload,
        Err(errors) => panic!("{id} (optimize: {optimize}) does not compile: {}", errors[0]),
    }
}

#[test]
fn every_library_workload_computes_the_same_bits_optimised() {
    let (mut plain_total, mut optimised_total) = (0u64, 0u64);
    for entry in library::all() {
        let defines = [entry.size_define(entry.size.min)];
        let plain = compile_library(entry.id, entry.source, &defines, false);
        let optimised = compile_library(entry.id, entry.source, &defines, true);
        let run = |w: &Workload| {
            reference::run_workload(w, 32, 1 << 34)
                .unwrap_or_else(|e| panic!("{}: reference run failed: {e:?}", entry.id))
        };
        let (a, b) = (run(&plain), run(&optimised));
        for (k, (ra, rb)) in a.regions.iter().zip(&b.regions).enumerate() {
            let (wa, wb) = (a.memory.words(*ra), b.memory.words(*rb));
            if let Some(i) = wa.iter().zip(wb).position(|(x, y)| x != y) {
                panic!(
                    "{}: buffer {} word {i}: {:#010x} unoptimised, {:#010x} optimised",
                    entry.id, plain.buffers[k].name, wa[i], wb[i]
                );
            }
        }
        assert_eq!(a.device_launches, b.device_launches, "{}", entry.id);
        assert!(
            b.warp_instructions * 100 <= a.warp_instructions * 101,
            "{}: {} warp instructions optimised, {} unoptimised",
            entry.id,
            b.warp_instructions,
            a.warp_instructions
        );
        plain_total += a.warp_instructions;
        optimised_total += b.warp_instructions;
    }
    assert!(optimised_total < plain_total, "{optimised_total} optimised, {plain_total} unoptimised");
}
