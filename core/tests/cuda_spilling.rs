//! Register spilling: a kernel that keeps more values alive than a thread's 255 registers
//! compiles, as with nvcc, with some values in the thread's local memory; it computes what it
//! would with unlimited registers, in the reference runner and the timing engine alike.

mod language_common;
use language_common::*;
use warpscope_core::isa::Instr;
use warpscope_core::workload::MAX_REGS_PER_THREAD;

/// `count` values of type `ty`, each loaded from `input` and all alive at once: they are
/// combined last to first as `s = s * 0.5 + v` (a multiplication by a half is exact, so a fused
/// multiply-add gives the same bits). Where `t % 3 == 0`, three of them are changed first
/// (inside a branch, so only some lanes write them), and the combination runs twice in a loop.
fn many_values(ty: &str, count: usize) -> String {
    let mut src = format!("__global__ void keep(const {ty}* input, {ty}* out, int n) {{\n");
    src += "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= n) return;\n";
    for i in 0..count {
        src += &format!("    {ty} v{i} = input[{i} * n + t];\n");
    }
    let (a, b, c) = (7, count / 2, count - 1);
    src += &format!("    if (t % 3 == 0) {{ v{a} = v{a} * 2; v{b} = v{b} + 1; v{c} = -v{c}; }}\n");
    src += &format!("    {ty} s = 0;\n    for (int k = 0; k < 2; k++) {{\n");
    for i in (0..count).rev() {
        src += &format!("        s = s * ({ty})0.5 + v{i};\n");
    }
    src += "    }\n    out[t] = s;\n}\n";
    src
}

/// What [`many_values`] leaves in `out[t]`, worked out here in the same order.
fn many_values_expected<T>(input: &[T], count: usize, n: usize, t: usize, half: T, changes: [fn(T) -> T; 3]) -> T
where
    T: Copy + core::ops::Mul<Output = T> + core::ops::Add<Output = T> + Default,
{
    let mut v: Vec<T> = (0..count).map(|i| input[i * n + t]).collect();
    if t % 3 == 0 {
        for (k, at) in [7, count / 2, count - 1].into_iter().enumerate() {
            v[at] = changes[k](v[at]);
        }
    }
    let mut s = T::default();
    for _ in 0..2 {
        for i in (0..count).rev() {
            s = s * half + v[i];
        }
    }
    s
}

fn spill_instructions(program: &warpscope_core::kernel::Program) -> (usize, usize) {
    let code = &program.workload.kernels[0].code;
    let spills = code.iter().filter(|i| matches!(i, Instr::Spill { .. })).count();
    let fills = code.iter().filter(|i| matches!(i, Instr::Fill { .. })).count();
    (spills, fills)
}

#[test]
fn three_hundred_live_floats_spill_and_compute_what_they_would_in_registers() {
    const COUNT: usize = 300;
    const N: usize = 40;
    let src = many_values("float", COUNT)
        + &format!(
            "host {{\n    float input[{}] = random(-4.0f, 4.0f, 3);\n    float out[{N}];\n    keep<<<2, 32>>>(input, out, {N});\n}}\n",
            COUNT * N
        );
    let run = Run::new(&src);
    let kernel = &run.program.workload.kernels[0];
    assert!(kernel.regs_per_thread <= MAX_REGS_PER_THREAD);
    assert!(kernel.spill_words > 0 && kernel.spill_words <= COUNT as u32, "{}", kernel.spill_words);
    let (spills, fills) = spill_instructions(&run.program);
    assert!(spills > 0 && fills > 0, "{spills} spills, {fills} fills");
    let warning = run.program.warnings.iter().find(|w| w.message.contains("local memory")).expect("a warning says so");
    assert!(warning.message.starts_with("kernel `keep` needs "), "{}", warning.message);
    assert_eq!((warning.span.line, warning.span.column), (1, 17));

    let input = run.floats("input");
    let out = run.floats("out");
    for (t, got) in out.iter().enumerate() {
        let expected = many_values_expected(&input, COUNT, N, t, 0.5f32, [|x| x * 2.0, |x| x + 1.0, |x| -x]);
        assert_eq!(got.to_bits(), expected.to_bits(), "thread {t}: {got} against {expected}");
    }
    assert_timing_matches_reference(&src);
}

#[test]
fn doubles_spill_as_pairs() {
    // 140 doubles are 280 registers.
    const COUNT: usize = 140;
    const N: usize = 33;
    let src = many_values("double", COUNT)
        + &format!(
            "host {{\n    double input[{}] = random(-4.0, 4.0, 5);\n    double out[{N}];\n    keep<<<2, 32>>>(input, out, {N});\n}}\n",
            COUNT * N
        );
    let run = Run::new(&src);
    let kernel = &run.program.workload.kernels[0];
    assert!(kernel.regs_per_thread <= MAX_REGS_PER_THREAD);
    let pairs = kernel.code.iter().filter(|i| matches!(i, Instr::Spill { pair: true, .. })).count();
    assert!(pairs > 0, "doubles are saved as pairs");
    let words = run.words("input");
    let input: Vec<f64> = words.chunks(2).map(|w| f64::from_bits(w[0] as u64 | (w[1] as u64) << 32)).collect();
    let out_words = run.words("out");
    for t in 0..N {
        let got = f64::from_bits(out_words[2 * t] as u64 | (out_words[2 * t + 1] as u64) << 32);
        let expected = many_values_expected(&input, COUNT, N, t, 0.5f64, [|x| x * 2.0, |x| x + 1.0, |x| -x]);
        assert_eq!(got.to_bits(), expected.to_bits(), "thread {t}: {got} against {expected}");
    }
    assert_timing_matches_reference(&src);
}

#[test]
fn a_kernel_that_fits_does_not_spill() {
    let src = many_values("float", 100)
        + "host {\n    float input[400] = random(-4.0f, 4.0f, 3);\n    float out[4];\n    keep<<<1, 32>>>(input, out, 4);\n}\n";
    let program = compiled(&src);
    assert_eq!(program.workload.kernels[0].spill_words, 0);
    assert_eq!(spill_instructions(&program), (0, 0));
    assert!(program.warnings.iter().all(|w| !w.message.contains("local memory")));
}

#[test]
fn more_than_local_memory_holds_is_an_error_naming_the_limit() {
    // 1300 live floats: 1045 or more would have to be spilled, past the 1024 words allowed.
    let src = many_values("float", 1300)
        + "host {\n    float input[1300] = random(-4.0f, 4.0f, 3);\n    float out[1];\n    keep<<<1, 1>>>(input, out, 1);\n}\n";
    let found = errors(&src);
    assert_eq!((found[0].0, found[0].1), (1, 17), "{found:?}");
    assert!(
        found[0].2.starts_with("kernel `keep` needs ")
            && found[0].2.ends_with(
                "registers per thread, more than the 255 that fit, and spilling the rest would take more than the \
                 4096 bytes of local memory a thread may use"
            ),
        "{found:?}"
    );
}

/// Two phases one after the other, each with `count` values alive at once (`v…` then `w…`),
/// summed into `out[2t]` and `out[2t + 1]`.
fn two_phases(count: usize) -> String {
    let mut src = String::from("__global__ void phases(const float* input, float* out, int n) {\n");
    src += "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n";
    for (phase, name) in ["v", "w"].into_iter().enumerate() {
        for i in 0..count {
            src += &format!("    float {name}{i} = input[{} * n + t];\n", phase * count + i);
        }
        src += &format!("    float s{name} = 0.0f;\n");
        for i in (0..count).rev() {
            src += &format!("    s{name} = s{name} * 0.5f + {name}{i};\n");
        }
        src += &format!("    out[2 * t + {phase}] = s{name};\n");
    }
    src + "}\n"
}

#[test]
fn values_never_alive_together_share_local_memory() {
    const COUNT: usize = 300;
    let one = compiled(
        &(many_values("float", COUNT)
            + "host {\n    float input[300 * 32];\n    float out[32];\n    keep<<<1, 32>>>(input, out, 32);\n}\n"),
    );
    let src = two_phases(COUNT)
        + "host {\n    float input[600 * 32] = random(-2.0f, 2.0f, 4);\n    float out[64];\n    phases<<<1, 32>>>(input, out, 32);\n}\n";
    let run = Run::new(&src);
    let (single, double) = (one.workload.kernels[0].spill_words, run.program.workload.kernels[0].spill_words);
    // The second phase's spilled values take the words the first phase's leave: about one
    // phase's worth, not two.
    assert!(single > 0 && double < single + single / 4, "one phase {single} words, two phases {double}");
    let (input, out) = (run.floats("input"), run.floats("out"));
    for t in 0..32 {
        for phase in 0..2 {
            let s = (0..COUNT).rev().fold(0.0f32, |s, i| s * 0.5 + input[(phase * COUNT + i) * 32 + t]);
            assert_eq!(out[2 * t + phase].to_bits(), s.to_bits(), "thread {t}, phase {phase}");
        }
    }
    assert_timing_matches_reference(&src);
}
