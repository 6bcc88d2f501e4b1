//! The names the language gives meaning to without a declaration. One list for the compiler
//! (which checks and lowers them) and the app's editor (which colours them), so a new built-in
//! is highlighted the day it compiles.

/// Per-thread coordinates and shapes (`threadIdx.x`, …).
pub const VECTORS: &[&str] = &["threadIdx", "blockIdx", "blockDim", "gridDim"];
/// Scalar built-in values.
pub const SCALARS: &[&str] = &["warpSize"];
/// The block barrier.
pub const BARRIER: &str = "__syncthreads";
/// Atomic read-modify-write functions on global or shared memory.
pub const ATOMICS: &[&str] = &[
    "atomicAdd",
    "atomicSub",
    "atomicMin",
    "atomicMax",
    "atomicExch",
    "atomicCAS",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
];
/// Math functions: CUDA's single-precision ones, their C++ overloads on `float` (`exp`,
/// `sqrt`, `pow`, …, as CUDA's math headers declare them), the fast intrinsics (computed
/// exactly here), and the integer bit counts.
pub const MATH: &[&str] = &[
    "min",
    "max",
    "abs",
    "fabsf",
    "fabs",
    "fminf",
    "fmin",
    "fmaxf",
    "fmax",
    "sqrtf",
    "sqrt",
    "rsqrtf",
    "rsqrt",
    "expf",
    "exp",
    "exp2f",
    "exp2",
    "logf",
    "log",
    "log2f",
    "log2",
    "sinf",
    "sin",
    "cosf",
    "cos",
    "tanhf",
    "tanh",
    "powf",
    "pow",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "truncf",
    "trunc",
    "roundf",
    "round",
    "fmaf",
    "fma",
    "__expf",
    "__logf",
    "__log2f",
    "__powf",
    "__sinf",
    "__cosf",
    "__fdividef",
    "__popc",
    "__clz",
];
/// Loads through the read-only data cache (`__ldg(&a[i])`): here a plain load.
pub const LOADS: &[&str] = &["__ldg"];
/// Functions of the `host { }` block only (buffer and graph initialisers, `swap`).
pub const HOST_ONLY: &[&str] = &["iota", "fill", "random", "powerlaw", "uniform", "mesh", "banded", "citation", "swap"];

/// Whether `name` is any built-in.
pub fn is_builtin(name: &str) -> bool {
    name == BARRIER || [VECTORS, SCALARS, ATOMICS, MATH, LOADS, HOST_ONLY].iter().any(|list| list.contains(&name))
}
