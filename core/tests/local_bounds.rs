//! Local arrays indexed at run time: an index out of range faults, naming the array, the
//! index and the length, in the timing engine and in the reference runner alike; an index in
//! range computes what C computes; constant indices cost nothing.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::exec::reference::{self, RunError};
use warpscope_core::exec::FaultKind;
use warpscope_core::isa::Instr;
use warpscope_core::kernel::{compile, CompileOptions, Program};
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn config() -> GpuConfig {
    presets::fermi_gtx480()
}

fn compiled_with(src: &str, optimize: bool) -> Program {
    let config = config();
    compile(src, &CompileOptions { config: &config, defines: &[], optimize }).unwrap_or_else(|d| {
        panic!("compile failed:\n{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))
    })
}

fn compiled(src: &str) -> Program {
    compiled_with(src, true)
}

fn bounds_checks(p: &Program) -> usize {
    p.workload.kernels.iter().flat_map(|k| &k.code).filter(|i| matches!(i, Instr::Bound { .. })).count()
}

/// The timing engine's outcome and, for a fault, its message.
fn engine(workload: Workload) -> (StepOutcome, String) {
    let mut sim = Simulation::new(config(), workload, &Policies::default(), RunOptions::default()).unwrap();
    let outcome = sim.run();
    let message = outcome.to_string();
    (outcome, message)
}

/// The reference runner's result and, for a fault, its message with the array's name.
fn reference_run(workload: &Workload) -> Result<Vec<Vec<u32>>, (RunError, String)> {
    match reference::run_workload(workload, config().core.warp_size, 10_000_000) {
        Ok(run) => Ok(run.regions.iter().map(|&r| run.memory.words(r).to_vec()).collect()),
        Err(e @ RunError::Fault { fault, .. }) => {
            // One host launch of one kernel in these tests.
            let kernel = &workload.kernels[0];
            let array = match fault.kind {
                FaultKind::LocalIndex { array, .. } => kernel.local_array(array),
                _ => None,
            };
            Err((e, fault.describe(array).to_string()))
        }
        Err(e) => Err((e, String::new())),
    }
}

/// Each thread writes `x[threadIdx.x + shift]` of an 8-element array, then reads it back.
fn writer(shift: i32) -> String {
    format!(
        r#"
__global__ void write_local(int* out, int shift) {{
    int x[8];
    for (int k = 0; k < 8; k++) x[k] = 10 * k;
    int i = threadIdx.x + shift;
    x[i] = -1;
    out[threadIdx.x] = x[threadIdx.x % 8];
}}
host {{ int out[32]; write_local<<<1, 32>>>(out, {shift}); }}
"#
    )
}

#[test]
fn a_write_past_the_end_faults_in_the_engine_naming_array_index_and_length() {
    let program = compiled(&writer(6));
    let (outcome, message) = engine(program.workload.clone());
    let StepOutcome::Fault { kernel, fault, array, .. } = outcome else { panic!("expected a fault, got {message}") };
    assert_eq!(kernel, "write_local");
    // Lanes 2.. index 8..: lane 2 is the first out of range.
    assert_eq!(fault.lane, 2);
    assert!(matches!(fault.kind, FaultKind::LocalIndex { index: 8, len: 8, .. }), "{fault:?}");
    assert_eq!(array.as_deref(), Some("local array `x`"));
    assert!(message.contains("lane 2 indexed local array `x` (8 elements) at 8 (instruction "), "{message}");
    assert!(message.starts_with("kernel write_local faulted on SM "), "{message}");
    // The instruction named is the check.
    let code = &program.workload.kernels[0].code;
    assert!(matches!(code[fault.pc as usize], Instr::Bound { len: 8, .. }));
}

#[test]
fn a_write_past_the_end_faults_in_the_reference_runner_too() {
    let program = compiled(&writer(6));
    let Err((RunError::Fault { block, warp, fault }, message)) = reference_run(&program.workload) else {
        panic!("expected a fault")
    };
    assert_eq!((block, warp, fault.lane), (0, 0, 2));
    assert!(matches!(fault.kind, FaultKind::LocalIndex { index: 8, len: 8, .. }), "{fault:?}");
    assert!(message.starts_with("lane 2 indexed local array `x` (8 elements) at 8 (instruction "), "{message}");
}

#[test]
fn a_negative_index_faults_and_reads_as_negative() {
    let program = compiled(&writer(-3));
    let (outcome, message) = engine(program.workload.clone());
    let StepOutcome::Fault { fault, .. } = outcome else { panic!("expected a fault, got {message}") };
    assert_eq!(fault.lane, 0);
    assert!(matches!(fault.kind, FaultKind::LocalIndex { index, len: 8, .. } if index as i32 == -3), "{fault:?}");
    assert!(message.contains("lane 0 indexed local array `x` (8 elements) at -3 "), "{message}");
    let Err((_, message)) = reference_run(&program.workload) else { panic!("expected a fault") };
    assert!(message.starts_with("lane 0 indexed local array `x` (8 elements) at -3 "), "{message}");
}

#[test]
fn a_read_out_of_range_faults_instead_of_yielding_the_first_element() {
    let src = r#"
__global__ void read_local(float* out, int n) {
    float x[4] = {1.0, 2.0, 3.0, 4.0};
    out[threadIdx.x] = x[threadIdx.x % n];
}
host { float out[32]; read_local<<<1, 32>>>(out, 5); }
"#;
    let program = compiled(src);
    let (_, message) = engine(program.workload.clone());
    assert!(message.contains("lane 4 indexed local array `x` (4 elements) at 4 "), "{message}");
    let Err((_, message)) = reference_run(&program.workload) else { panic!("expected a fault") };
    assert!(message.starts_with("lane 4 indexed local array `x` (4 elements) at 4 "), "{message}");
}

#[test]
fn indices_in_range_compute_what_c_computes() {
    // Every lane's indices stay in range: writes land and reads see them, as by hand below.
    let src = r#"
__global__ void shuffle(int* out) {
    int t = threadIdx.x;
    int x[6];
    for (int k = 0; k < 6; k++) x[k] = k * k;
    x[t % 6] += 100;
    x[(t + 2) % 6] = x[t % 6] - t;
    int m[2][3] = {1, 2, 3, 4, 5, 6};
    m[t % 2][t % 3] *= 10;
    out[t] = x[(t + 2) % 6] + x[(t + 5) % 6] + m[(t + 1) % 2][t % 3] + m[t % 2][(t + 1) % 3];
}
host { int out[64]; shuffle<<<1, 64>>>(out); }
"#;
    let program = compiled(src);
    assert!(bounds_checks(&program) > 0, "run-time indices are checked");
    let expected: Vec<u32> = (0..64i32)
        .map(|t| {
            let mut x: [i32; 6] = core::array::from_fn(|k| (k * k) as i32);
            x[(t % 6) as usize] += 100;
            x[((t + 2) % 6) as usize] = x[(t % 6) as usize] - t;
            let mut m = [[1, 2, 3], [4, 5, 6]];
            m[(t % 2) as usize][(t % 3) as usize] *= 10;
            let v = x[((t + 2) % 6) as usize]
                + x[((t + 5) % 6) as usize]
                + m[((t + 1) % 2) as usize][(t % 3) as usize]
                + m[(t % 2) as usize][((t + 1) % 3) as usize];
            v as u32
        })
        .collect();
    // Spot checks by hand: t = 0: x = [100, 1, 100, 9, 16, 25], m = [[10, 2, 3], [4, 5, 6]]:
    // x[2] + x[5] + m[1][0] + m[0][1] = 100 + 25 + 4 + 2.
    assert_eq!(expected[0], 131);
    // t = 7: x[1] += 100 -> 101; x[3] = 101 - 7 = 94; m[1][1] = 50:
    // x[3] + x[0] + m[0][1] + m[1][2] = 94 + 0 + 2 + 6.
    assert_eq!(expected[7], 102);
    for optimize in [false, true] {
        let program = compiled_with(src, optimize);
        let memory = reference_run(&program.workload).unwrap_or_else(|(e, m)| panic!("{e:?}: {m}"));
        assert_eq!(memory[0], expected, "reference, optimize {optimize}");
        let mut sim = Simulation::new(config(), program.workload, &Policies::default(), RunOptions::default()).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        assert_eq!(sim.buffer(0), &expected[..], "engine, optimize {optimize}");
    }
}

#[test]
fn each_dimension_of_a_two_dimensional_array_is_checked() {
    // m[0][j] with j = 3..: inside the array's 6 words but past its second dimension.
    let src = r#"
__global__ void two_d(int* out, int shift) {
    int m[2][3] = {1, 2, 3, 4, 5, 6};
    out[threadIdx.x] = m[0][threadIdx.x + shift];
}
host { int out[32]; two_d<<<1, 32>>>(out, 1); }
"#;
    let program = compiled(src);
    let (_, message) = engine(program.workload.clone());
    assert!(message.contains("lane 2 indexed dimension 2 of local array `m` (3 elements) at 3 "), "{message}");
}

#[test]
fn lanes_that_skip_the_access_do_not_fault() {
    // Lanes 8.. would index out of range, but only lanes below 8 reach the access, also
    // inside a loop where the check's index does not change (it must not move out of the `if`).
    let src = r#"
__global__ void guarded(int* out, int n) {
    int t = threadIdx.x;
    int x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int s = 0;
    for (int k = 0; k < n; k++) {
        if (t < 8) s += x[t];
    }
    out[t] = s;
}
host { int out[32]; guarded<<<1, 32>>>(out, 3); }
"#;
    let expected: Vec<u32> = (0..32).map(|t| if t < 8 { 3 * (t + 1) } else { 0 }).collect();
    for optimize in [false, true] {
        let program = compiled_with(src, optimize);
        assert_eq!(bounds_checks(&program), 1, "optimize {optimize}");
        let memory = reference_run(&program.workload).unwrap_or_else(|(e, m)| panic!("{e:?}: {m}"));
        assert_eq!(memory[0], expected, "optimize {optimize}");
    }
}

#[test]
fn constant_indices_and_unrolled_counters_compile_without_checks() {
    let src = r#"
__global__ void constants(float* out) {
    float acc[4] = {0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < 4; k++) acc[k] = k * 2.0f;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) acc[k] += out[threadIdx.x] * k;
    out[threadIdx.x] = acc[0] + acc[3];
}
host { float out[32]; constants<<<1, 32>>>(out); }
"#;
    let program = compiled(src);
    assert_eq!(bounds_checks(&program), 0);
    assert!(program.workload.kernels[0].local_arrays.is_empty(), "no debug entries for checks that folded away");
}

#[test]
fn a_constant_index_out_of_range_is_still_a_compile_error() {
    let config = config();
    let src =
        "__global__ void k(int* out) { int x[8]; x[8] = 1; out[0] = x[0]; }\nhost { int out[1]; k<<<1, 1>>>(out); }";
    let errors = compile(src, &CompileOptions { config: &config, defines: &[], optimize: true }).unwrap_err();
    assert!(errors.iter().any(|d| d.message == "index 8 is out of bounds for `x` (size 8)"), "{errors:?}");
}

#[test]
fn the_same_faulting_run_twice_gives_the_same_outcome_and_report() {
    let program = compiled(&writer(6));
    let run = || {
        let mut sim =
            Simulation::new(config(), program.workload.clone(), &Policies::default(), RunOptions::default()).unwrap();
        let outcome = sim.run();
        (outcome, serde_json::to_string(&sim.report()).unwrap())
    };
    assert_eq!(run(), run());
}
