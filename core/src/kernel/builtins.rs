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
/// Math functions.
pub const MATH: &[&str] = &[
    "min",
    "max",
    "abs",
    "fabsf",
    "fminf",
    "fmaxf",
    "sqrtf",
    "rsqrtf",
    "expf",
    "logf",
    "sinf",
    "cosf",
    "fmaf",
    "__expf",
    "__logf",
    "__sinf",
    "__cosf",
    "__fdividef",
];
/// Functions of the `host { }` block only (buffer and graph initialisers, `swap`).
pub const HOST_ONLY: &[&str] = &["iota", "fill", "random", "powerlaw", "uniform", "mesh", "banded", "citation", "swap"];

/// Whether `name` is any built-in.
pub fn is_builtin(name: &str) -> bool {
    name == BARRIER || [VECTORS, SCALARS, ATOMICS, MATH, HOST_ONLY].iter().any(|list| list.contains(&name))
}
