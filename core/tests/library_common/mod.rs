//! Shared by the `library_*` tests: compile a library workload at a size, run it functionally
//! (and in the timing engine), and read buffers by name.
#![allow(dead_code)]

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::exec::reference;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// The machine the library tests compile for.
pub fn machine() -> GpuConfig {
    presets::fermi_gtx480()
}

/// Library workload `id` compiled with its size knob at `size`.
pub fn compile_at(id: &str, size: u32) -> Workload {
    compile_with(id, size, &[])
}

/// Library workload `id` compiled with its size knob at `size` and other `#define`s overridden.
pub fn compile_with(id: &str, size: u32, overrides: &[(&str, &str)]) -> Workload {
    let entry = library::by_id(id).unwrap_or_else(|| panic!("no library workload {id}"));
    let config = machine();
    let mut defines = vec![entry.size_define(size)];
    defines.extend(overrides.iter().map(|&(name, value)| (name.to_string(), value.to_string())));
    match compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: true }) {
        Ok(program) => program.workload,
        Err(errors) => {
            let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("{id} at size {size} does not compile:\n{}", text.join("\n"))
        }
    }
}

/// Library workload `id` compiled unoptimised (`CompileOptions::optimize` off): the code as
/// generated, for tests about the engine that compare two kernels' instruction streams.
pub fn compile_unoptimised_at(id: &str, size: u32) -> Workload {
    let entry = library::by_id(id).unwrap_or_else(|| panic!("no library workload {id}"));
    let config = machine();
    let defines = [entry.size_define(size)];
    compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: false })
        .unwrap_or_else(|e| panic!("{id} at size {size} does not compile: {}", e[0]))
        .workload
}

/// The workloads' bijective integer hash (a priority per vertex, a key per request).
pub fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846ca68b);
    x ^= x >> 16;
    x
}

/// Every buffer's initial contents.
pub fn initial(w: &Workload) -> Vec<Vec<u32>> {
    let (memory, regions) = w.materialize();
    regions.iter().map(|&r| memory.words(r).to_vec()).collect()
}

/// Every buffer's contents after a functional run of the whole workload.
pub fn run_reference(w: &Workload) -> Vec<Vec<u32>> {
    let run = reference::run_workload(w, 32, 1 << 32).unwrap_or_else(|e| panic!("reference run failed: {e:?}"));
    run.regions.iter().map(|&r| run.memory.words(r).to_vec()).collect()
}

/// Every buffer's contents after a run in the timing engine (GTO, round-robin).
pub fn run_engine(w: &Workload, config: GpuConfig) -> Vec<Vec<u32>> {
    let mut sim = Simulation::new(config, w.clone(), &Policies::default(), RunOptions::default())
        .unwrap_or_else(|e| panic!("invalid setup: {e}"));
    assert_eq!(sim.run(), StepOutcome::Finished);
    (0..w.buffers.len()).map(|i| sim.buffer(i).to_vec()).collect()
}

/// Index of the buffer called `name`.
pub fn index(w: &Workload, name: &str) -> usize {
    w.buffers.iter().position(|b| b.name == name).unwrap_or_else(|| panic!("no buffer {name}"))
}

/// Words as floats.
pub fn floats(words: &[u32]) -> Vec<f32> {
    words.iter().map(|&w| f32::from_bits(w)).collect()
}

/// Words as signed integers.
pub fn ints(words: &[u32]) -> Vec<i32> {
    words.iter().map(|&w| w as i32).collect()
}

/// Floats as words.
pub fn words(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// Every element within `tolerance` relative error (absolute near zero).
pub fn assert_close(what: &str, actual: &[f32], expected: &[f32], tolerance: f32) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        let scale = e.abs().max(1.0);
        assert!((a - e).abs() <= tolerance * scale, "{what}[{i}]: got {a}, expected {e}");
    }
}
