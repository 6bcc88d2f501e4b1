//! What the kernel-language tests share: compiling a source with the default machine, its
//! errors as (line, column, message), and running every host launch, with the host's writes
//! between them, with the functional reference runner.
#![allow(dead_code)]

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::exec::memory::{GlobalMemory, Region};
use warpscope_core::exec::reference::{self, Launch};
use warpscope_core::kernel::{compile, CompileOptions, Diagnostic, Program, Severity};
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

pub fn config() -> GpuConfig {
    presets::fermi_gtx480()
}

pub fn try_compile(src: &str) -> Result<Program, Vec<Diagnostic>> {
    let config = config();
    compile(src, &CompileOptions { config: &config, defines: &[], optimize: true })
}

pub fn compiled(src: &str) -> Program {
    match try_compile(src) {
        Ok(p) => p,
        Err(d) => panic!("compile failed:\n{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

pub fn errors(src: &str) -> Vec<(u32, u32, String)> {
    match try_compile(src) {
        Ok(_) => panic!("expected errors:\n{src}"),
        Err(d) => d
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.span.line, d.span.column, d.message))
            .collect(),
    }
}

/// Checks that `src` fails to compile and that its first error is `message`.
pub fn expect_first_error(src: &str, message: &str) {
    let found = errors(src);
    assert_eq!(found[0].2, message, "{src}: {found:?}");
}

/// Checks that `src` fails to compile with `message` among its errors (an error that other
/// errors may precede, as where a template is instantiated).
pub fn expect_error(src: &str, message: &str) {
    let found = errors(src);
    assert!(found.iter().any(|e| e.2 == message), "{src}: {found:?}");
}

/// Runs every host launch in order with the reference runner.
pub struct Run {
    pub program: Program,
    pub memory: GlobalMemory,
    pub regions: Vec<Region>,
    pub executed: u64,
}

impl Run {
    pub fn new(src: &str) -> Run {
        let program = compiled(src);
        let (mut memory, regions) = program.workload.materialize();
        let mut executed = 0;
        let warp_size = config().core.warp_size;
        let workload = &program.workload;
        for (index, launch) in workload.launches.iter().enumerate() {
            workload.apply_copies_before(index as u32, &mut memory, &regions);
            let kernel = &program.workload.kernels[launch.kernel as usize];
            let args = Workload::arg_words(launch, &regions);
            let (grid, block, dynamic_shared) = (launch.grid, launch.block, launch.dynamic_shared);
            let l = Launch { kernel, grid, block, args: &args, warp_size, dynamic_shared };
            executed += reference::run(l, &mut memory, 50_000_000).unwrap_or_else(|e| panic!("{e:?}"));
        }
        workload.apply_copies_before(workload.launches.len() as u32, &mut memory, &regions);
        Run { program, memory, regions, executed }
    }

    pub fn words(&self, name: &str) -> Vec<u32> {
        let b = self.program.workload.buffers.iter().position(|b| b.name == name).expect("buffer");
        self.memory.words(self.regions[b]).to_vec()
    }

    pub fn ints(&self, name: &str) -> Vec<i32> {
        self.words(name).into_iter().map(|w| w as i32).collect()
    }

    pub fn floats(&self, name: &str) -> Vec<f32> {
        self.words(name).into_iter().map(f32::from_bits).collect()
    }
}

/// Runs `src` in the timing engine to the end and checks that every buffer ends as the
/// reference runner leaves it.
pub fn assert_timing_matches_reference(src: &str) {
    let program = compiled(src);
    let mut sim = Simulation::new(config(), program.workload.clone(), &Policies::default(), RunOptions::default())
        .expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let reference = Run::new(src);
    for (b, spec) in program.workload.buffers.iter().enumerate() {
        assert_eq!(sim.buffer(b), reference.words(&spec.name), "buffer {}", spec.name);
    }
}
