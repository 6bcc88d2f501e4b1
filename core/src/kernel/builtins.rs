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
    "atomicInc",
    "atomicDec",
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
    "log10f",
    "log10",
    "fmodf",
    "fmod",
    "tanf",
    "tan",
    "asinf",
    "asin",
    "acosf",
    "acos",
    "atanf",
    "atan",
    "atan2f",
    "atan2",
    "sinhf",
    "sinh",
    "coshf",
    "cosh",
    "cbrtf",
    "cbrt",
    "hypotf",
    "hypot",
    "erff",
    "erf",
    "erfcf",
    "erfc",
    "expm1f",
    "expm1",
    "log1pf",
    "log1p",
    "exp10f",
    "exp10",
    "isnan",
    "isinf",
    "isfinite",
    "__expf",
    "__logf",
    "__log2f",
    "__powf",
    "__sinf",
    "__cosf",
    "__tanf",
    "__exp10f",
    "__fdividef",
    "__popc",
    "__clz",
    "__mul24",
    "__umul24",
    "__int_as_float",
    "__uint_as_float",
    "__float_as_int",
    "__float_as_uint",
    "__longlong_as_double",
    "__double_as_longlong",
];
/// Warp shuffles and votes, and the calls that only order memory or lanes (compiled in
/// `warp_intrinsics`).
pub const WARP: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__all_sync",
    "__any_sync",
    "__ballot_sync",
    "__all",
    "__any",
    "__ballot",
    "__activemask",
    "__syncwarp",
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
];
/// Loads through the read-only data cache (`__ldg(&a[i])`): here a plain load.
pub const LOADS: &[&str] = &["__ldg"];
/// Functions of the `host { }` block only (buffer and graph initialisers, `swap`).
pub const HOST_ONLY: &[&str] = &["iota", "fill", "random", "powerlaw", "uniform", "mesh", "banded", "citation", "swap"];

/// CUDA functions the language does not have yet, with what to say when a kernel calls one:
/// a feature named, rather than "undefined function".
pub const NOT_SUPPORTED: &[(&str, &str)] = &[
    ("tex1Dfetch", "texture reads are not supported; read the buffer with an index (or `__ldg`)"),
    ("tex1D", "texture reads are not supported; read the buffer with an index"),
    ("tex2D", "texture reads are not supported; read the buffer with an index"),
    ("tex3D", "texture reads are not supported; read the buffer with an index"),
    ("surf2Dread", "surface memory is not supported"),
    ("surf2Dwrite", "surface memory is not supported"),
    ("malloc", "memory allocation in kernels is not supported; allocate a buffer in the host block"),
    ("free", "memory allocation in kernels is not supported; allocate a buffer in the host block"),
    (
        "this_thread_block",
        "a cooperative-groups function: write `cooperative_groups::this_thread_block`, or add `using namespace \
         cooperative_groups;`",
    ),
    (
        "tiled_partition",
        "a cooperative-groups function: write `cooperative_groups::tiled_partition`, or add `using namespace \
         cooperative_groups;`",
    ),
    (
        "coalesced_threads",
        "a cooperative-groups function: write `cooperative_groups::coalesced_threads`, or add `using namespace \
         cooperative_groups;`",
    ),
    ("load_matrix_sync", "warp-level matrix functions (`wmma`) are not supported"),
    ("mma_sync", "warp-level matrix functions (`wmma`) are not supported"),
    ("store_matrix_sync", "warp-level matrix functions (`wmma`) are not supported"),
    ("fill_fragment", "warp-level matrix functions (`wmma`) are not supported"),
];

/// What to say of a call of `name` if it is a CUDA function the language does not have.
pub fn not_supported(name: &str) -> Option<&'static str> {
    NOT_SUPPORTED.iter().find(|(n, _)| *n == name).map(|(_, why)| *why)
}

/// Whether `name` is any built-in.
pub fn is_builtin(name: &str) -> bool {
    name == BARRIER || [VECTORS, SCALARS, ATOMICS, MATH, WARP, LOADS, HOST_ONLY].iter().any(|list| list.contains(&name))
}
