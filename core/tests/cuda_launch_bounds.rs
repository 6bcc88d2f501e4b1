//! `__launch_bounds__(max_threads, min_blocks)`: the compiler caps a thread's registers so that
//! `min_blocks` blocks of `max_threads` threads share an SM's registers (spilling what does not
//! fit), and a launch of larger blocks is refused. The machine is the GTX 480-like preset:
//! 32768 registers, 1536 threads and 8 blocks per SM.

mod language_common;
use language_common::*;
use warpscope_core::isa::Instr;
use warpscope_core::kernel::Severity;

/// 48 values alive at once, combined last to first (`s = s * 0.5 + v`, exact in one rounding
/// or two), written with the launch-bounds specifier `bounds`.
fn bounded(bounds: &str) -> String {
    let mut src = format!("__global__ void {bounds} keep(const float* input, float* out, int n) {{\n");
    src += "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n";
    for i in 0..48 {
        src += &format!("    float v{i} = input[{i} * n + t];\n");
    }
    src += "    float s = 0.0f;\n";
    for i in (0..48).rev() {
        src += &format!("    s = s * 0.5f + v{i};\n");
    }
    src += "    out[t] = s;\n}\n";
    src
}

fn expected(input: &[f32], n: usize, t: usize) -> f32 {
    (0..48).rev().fold(0.0f32, |s, i| s * 0.5 + input[i * n + t])
}

const HOST: &str = "host {\n    float input[48 * 256] = random(-2.0f, 2.0f, 9);\n    float out[256];\n    keep<<<1, 256>>>(input, out, 256);\n}\n";

#[test]
fn four_blocks_of_256_threads_leave_32_registers_and_the_rest_spills() {
    // 32768 / (4 × 256) = 32 registers; 48 live values do not fit.
    let src = bounded("__launch_bounds__(256, 4)") + HOST;
    let run = Run::new(&src);
    let kernel = &run.program.workload.kernels[0];
    assert!(kernel.regs_per_thread <= 32, "{}", kernel.regs_per_thread);
    assert!(kernel.spill_words > 0);
    assert_eq!(kernel.max_block_threads, 256);
    assert!(kernel.code.iter().any(|i| matches!(i, Instr::Fill { .. })));
    let warning = run.program.warnings.iter().find(|w| w.message.contains("local memory")).expect("warned");
    assert!(
        warning.message.contains("more than the 32 that its `__launch_bounds__` leaves on this machine"),
        "{}",
        warning.message
    );
    let (input, out) = (run.floats("input"), run.floats("out"));
    for (t, got) in out.iter().enumerate() {
        assert_eq!(got.to_bits(), expected(&input, 256, t).to_bits(), "thread {t}");
    }
    assert_timing_matches_reference(&src);

    // Without bounds the same kernel keeps every value in a register.
    let free = compiled(&(bounded("") + HOST));
    assert!(free.workload.kernels[0].regs_per_thread > 32);
    assert_eq!(free.workload.kernels[0].spill_words, 0);
    assert_eq!(free.workload.kernels[0].max_block_threads, 0);
}

#[test]
fn the_bounds_are_read_wherever_cuda_allows_them_and_from_template_arguments() {
    // 32768 / 1024 = 32 with one block (the minimum's default); 32768 / (2 × 512) = 32.
    for src in [
        bounded("__launch_bounds__(1024)") + HOST,
        bounded("__launch_bounds__(512, 2)") + HOST,
        bounded("").replace("__global__ void  keep", "__global__ __launch_bounds__(1024) void keep") + HOST,
        bounded("").replace("__global__ void  keep", "__launch_bounds__(16 * 64, 1) __global__ void keep") + HOST,
    ] {
        let program = compiled(&src);
        let kernel = &program.workload.kernels[0];
        assert!(kernel.regs_per_thread <= 32 && kernel.spill_words > 0, "{src}");
    }
    // dwt2d's form: the bound a template argument.
    let src = bounded("").replace(
        "__global__ void  keep(",
        "template <int WIN, int MIN>\n__launch_bounds__(WIN, MIN) __global__ void keep(",
    ) + &HOST.replace("keep<<<", "keep<256, 4><<<");
    let program = compiled(&src);
    let kernel = &program.workload.kernels[0];
    assert!(kernel.regs_per_thread <= 32 && kernel.max_block_threads == 256, "{}", kernel.regs_per_thread);
}

#[test]
fn a_block_larger_than_the_bounds_is_refused_where_it_is_launched() {
    let src = bounded("__launch_bounds__(128)") + HOST;
    let found = errors(&src);
    assert_eq!(
        found[0],
        (105, 15, "a block of 256 threads is more than the 128 that `keep`'s `__launch_bounds__` allows".to_string()),
        "{found:?}"
    );
}

#[test]
fn bounds_that_cannot_hold_are_named() {
    // Not a constant.
    let src = bounded("__launch_bounds__(n)") + HOST;
    assert_eq!(errors(&src)[0].2, "`__launch_bounds__` takes a constant, positive number of threads");
    let src = bounded("__launch_bounds__(256, 0)") + HOST;
    assert_eq!(errors(&src)[0].2, "`__launch_bounds__` takes a constant, positive number of blocks");
    let src = bounded("__launch_bounds__(2048)") + HOST;
    assert_eq!(errors(&src)[0].2, "`__launch_bounds__` of 2048 threads: an SM of this machine holds 1536 threads");
    // Two blocks of 1024 threads cannot share an SM of 1536: the minimum is dropped, as ptxas
    // does, leaving 32768 / 1024 = 32 registers.
    let program = compiled(&(bounded("__launch_bounds__(1024, 2)") + HOST));
    let warning = program.warnings.iter().find(|w| w.message.contains("cannot share")).expect("warned");
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!((warning.span.line, warning.span.column), (1, 17));
    assert_eq!(
        warning.message,
        "2 blocks of 1024 threads cannot share an SM of this machine (1536 threads and 8 blocks at most): the \
         minimum is ignored, as ptxas does"
    );
    assert!(program.workload.kernels[0].regs_per_thread <= 32);
    // On a device function the bounds mean nothing.
    let src = "__device__ __launch_bounds__(64) float twice(float x) { return 2.0f * x; }\n".to_string()
        + &bounded("")
        + HOST;
    let program = compiled(&src);
    assert!(program
        .warnings
        .iter()
        .any(|w| w.message == "`__launch_bounds__` applies to kernels only; it is ignored here"));
}

#[test]
fn bounds_may_name_file_constants_sizes_and_a_macro_choosing_between_them() {
    // dwt2d's form: the blocks are as many as fit the shared memory, at most 8. 16384 / 4096
    // is 4, so 32768 / (4 × 256) = 32 registers, as with `(256, 4)` written out. The file has
    // host code, which `SHM_SIZE` (a constant, its initializer a product) is not.
    let bounds = "__launch_bounds__(256, CTMIN(SHM_SIZE / sizeof(Tile), 8))";
    let prelude = "#define CTMIN(a, b) (((a) < (b)) ? (a) : (b))\nconst int SHM_SIZE = 16 * 1024;\n\
                   struct Tile { float v[1024]; };\nvoid report() {}\n";
    let src = format!("{prelude}{}{HOST}", bounded(bounds));
    let kernel = &compiled(&src).workload.kernels[0];
    assert_eq!(kernel.max_block_threads, 256);
    assert!(kernel.regs_per_thread <= 32, "{}", kernel.regs_per_thread);
    assert!(kernel.spill_words > 0);
    // With room for 2 blocks only, twice the registers.
    let roomy = format!("{}{}{HOST}", prelude.replace("16 * 1024", "8 * 1024"), bounded(bounds));
    let kernel = &compiled(&roomy).workload.kernels[0];
    assert!(kernel.regs_per_thread > 32 && kernel.regs_per_thread <= 64, "{}", kernel.regs_per_thread);
}
