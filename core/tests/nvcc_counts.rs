//! Our optimised instruction counts against what nvcc -O3 emits for sm_90, hand-compiled.
//!
//! For each kernel the SASS that nvcc (CUDA 12, `-O3 -arch=sm_90`) emits is written out below,
//! one instruction a line, from public knowledge of how it compiles such code: special
//! registers by `S2R`, `blockDim` and parameters from the constant bank (`ULDC`/`LDC`),
//! `i = blockIdx * blockDim + threadIdx` as one `IMAD`, 64-bit addresses by `IMAD.WIDE`,
//! `LDG`/`LDS` with immediate offsets, `fma` contraction, the guard `ISETP` + `@P0 EXIT`,
//! small `if`s turned into predicated instructions, and loops with a runtime trip count
//! unrolled by four with a remainder loop (LLVM's runtime unrolling as NVPTX enables it).
//! Left out of every listing: the stack-pointer set-up `LDC R1, c[0x0][0x28]` that opens
//! every kernel, and the `BRA` to itself and `NOP`s that pad the end (never executed).
//!
//! Each line also says how many instructions of *our* ISA it stands for, since the machines
//! differ (our ISA: 32-bit registers and addresses, 32-bit immediates on every operand,
//! parameters already in registers, no predication, no integer multiply-add):
//! - `LDC`/`ULDC` of a parameter or of the memory descriptor: 0 (our parameters arrive in
//!   registers; there are no descriptors). `ULDC` of `blockDim`: 1 each (our `Special`).
//! - `IMAD a * b + c`: 2 (`Mul`, `Add`); `LEA`/`IMAD` by a power of two: 2 (`Shl`, `Add`).
//! - `IMAD.WIDE i, 4, base` (a 64-bit address): 2 (`Shl i, 2`, `Add`); 1 where the same index
//!   was already scaled for an earlier address (a compiler for our ISA shares the shift);
//!   1 where it steps a pointer by a register (`Add`).
//! - A comparison chained into a predicate (`ISETP … P0` with a predicate input): 2 (`Cmp`,
//!   `And`). `@P0 EXIT`: 1 (our branch to the final `Exit`).
//! - A run of predicated instructions: 1 more (our branch around it), plus 1 where it is the
//!   `else` of another run (the jump over it).
//! - `LDS.128` (four floats at once): 4 (our loads are one word). `LDS [RZ]`: 2 (we have no
//!   zero register: `Mov 0`, `Load`). Materialising a constant for an operand that our ISA
//!   takes as an immediate: 0. Signed division by a power of two (3 SASS): 1 (`DivS`).
//! - Everything else one to one.
//!
//! The test asserts that our static instruction count of each kernel, and of its hot loop
//! per turn of the source loop (nvcc's copy of a loop unrolled by four runs four), is within
//! 1.3× of the mapped count, and prints the table (`cargo test --release -p warpscope-core --test
//! nvcc_counts -- --nocapture`).

use warpscope_core::config::presets;
use warpscope_core::isa::Instr;
use warpscope_core::kernel::{compile, CompileOptions};

/// One SASS instruction (and why it is there), and how many of ours it stands for.
type Line = (&'static str, u32);

const VECADD: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("ULDC UR4, c[0x0][0x0]            blockDim.x", 1),
    ("IMAD R0, R3, UR4, R0             i = ctaid * ntid + tid", 2),
    ("ULDC UR4, c[0x0][0x228]          n", 0),
    ("ISETP.GE.AND P0, PT, R0, UR4, PT i >= n", 1),
    ("@P0 EXIT", 1),
    ("LDC.64 R2, c[0x0][0x210]         a", 0),
    ("ULDC.64 UR4, c[0x0][0x208]       memory descriptor", 0),
    ("LDC.64 R4, c[0x0][0x218]         b", 0),
    ("LDC.64 R6, c[0x0][0x220]         c", 0),
    ("IMAD.WIDE R2, R0, 0x4, R2        &a[i] (Shl i, Add)", 2),
    ("IMAD.WIDE R4, R0, 0x4, R4        &b[i] (Add)", 1),
    ("LDG.E R2, desc[UR4][R2.64]", 1),
    ("LDG.E R5, desc[UR4][R4.64]", 1),
    ("IMAD.WIDE R6, R0, 0x4, R6        &c[i] (Add)", 1),
    ("FADD R9, R2, R5", 1),
    ("STG.E desc[UR4][R6.64], R9", 1),
    ("EXIT", 1),
];

const GATHER: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("ULDC UR4, c[0x0][0x0]            blockDim.x", 1),
    ("IMAD R0, R3, UR4, R0             i", 2),
    ("ULDC UR4, c[0x0][0x228]          n", 0),
    ("ISETP.GE.AND P0, PT, R0, UR4, PT", 1),
    ("@P0 EXIT", 1),
    ("LDC.64 R2, c[0x0][0x218]         idx", 0),
    ("ULDC.64 UR4, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.WIDE R2, R0, 0x4, R2        &idx[i] (Shl, Add)", 2),
    ("LDG.E R2, desc[UR4][R2.64]       idx[i]", 1),
    ("LDC.64 R4, c[0x0][0x210]         in", 0),
    ("LDC.64 R6, c[0x0][0x220]         out", 0),
    ("IMAD.WIDE R4, R2, 0x4, R4        &in[idx[i]] (Shl, Add)", 2),
    ("LDG.E R5, desc[UR4][R4.64]", 1),
    ("IMAD.WIDE R6, R0, 0x4, R6        &out[i] (Add: i already scaled)", 1),
    ("STG.E desc[UR4][R6.64], R5", 1),
    ("EXIT", 1),
];

const HISTOGRAM: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("ULDC UR4, c[0x0][0x0]            blockDim.x", 1),
    ("IMAD R0, R3, UR4, R0             i", 2),
    ("ULDC UR4, c[0x0][0x220]          n", 0),
    ("ISETP.GE.AND P0, PT, R0, UR4, PT", 1),
    ("@P0 EXIT", 1),
    ("LDC.64 R2, c[0x0][0x210]         data", 0),
    ("ULDC.64 UR4, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.WIDE R2, R0, 0x4, R2        &data[i] (Shl, Add)", 2),
    ("LDG.E R2, desc[UR4][R2.64]", 1),
    ("LDC.64 R4, c[0x0][0x218]         hist", 0),
    ("HFMA2.MMA R7, -RZ, RZ, 0, 5.96e-08  the constant 1 (our atomics take an immediate)", 0),
    ("IMAD.WIDE R4, R2, 0x4, R4        &hist[v] (Shl, Add)", 2),
    ("RED.E.ADD.STRONG.GPU desc[UR4][R4.64], R7   atomicAdd, result unused", 1),
    ("EXIT", 1),
];

const STRIDED: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("ULDC UR4, c[0x0][0x0]            blockDim.x", 1),
    ("IMAD R0, R3, UR4, R0             i", 2),
    ("ULDC UR4, c[0x0][0x220]          n", 0),
    ("ISETP.GE.AND P0, PT, R0, UR4, PT", 1),
    ("@P0 EXIT", 1),
    ("LDC.64 R2, c[0x0][0x210]         in", 0),
    ("ULDC.64 UR4, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.SHL.U32 R5, R0, 0x20, RZ    i * 32 (with the next: our Shl by 7)", 1),
    ("IMAD.WIDE R2, R5, 0x4, R2        &in[i * 32] (Add)", 1),
    ("LDG.E R2, desc[UR4][R2.64]", 1),
    ("LDC.64 R4, c[0x0][0x218]         out", 0),
    ("IMAD.WIDE R4, R0, 0x4, R4        &out[i] (Shl, Add)", 2),
    ("STG.E desc[UR4][R4.64], R2", 1),
    ("EXIT", 1),
];

const STENCIL: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("S2R R5, SR_TID.Y", 1),
    ("S2R R2, SR_CTAID.Y", 1),
    ("ULDC.64 UR4, c[0x0][0x0]         blockDim.x and .y", 2),
    ("IMAD R0, R3, UR4, R0             x", 2),
    ("IMAD R5, R2, UR5, R5             y", 2),
    ("ULDC.64 UR6, c[0x0][0x220]       w, h", 0),
    ("ISETP.GE.AND P0, PT, R0, 0x1, PT x > 0", 1),
    ("UIADD3 UR8, UR6, -0x1, URZ       w - 1", 1),
    ("UIADD3 UR9, UR7, -0x1, URZ       h - 1", 1),
    ("ISETP.GE.OR P0, PT, R0, UR8, !P0 x < w - 1, chained", 2),
    ("ISETP.LT.OR P0, PT, R5, 0x1, P0  y > 0, chained", 2),
    ("ISETP.GE.OR P0, PT, R5, UR9, P0  y < h - 1, chained", 2),
    ("@P0 EXIT", 1),
    ("IMAD R7, R5, UR6, R0             i = y * w + x", 2),
    ("LDC.64 R2, c[0x0][0x210]         in", 0),
    ("ULDC.64 UR4, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.WIDE R2, R7, 0x4, R2        &in[i] (Shl, Add)", 2),
    ("LDG.E R8, desc[UR4][R2.64]       in[i]", 1),
    ("LDG.E R9, desc[UR4][R2.64+-0x4]  in[i - 1]", 1),
    ("LDG.E R10, desc[UR4][R2.64+0x4]  in[i + 1]", 1),
    ("IMAD.WIDE R4, R_w, 0x4, R2       &in[i + w], from &in[i] (straight-line strength reduction; Shl w, Add)", 2),
    ("IADD3 R_nw, -R_w, RZ, RZ          -w", 0),
    ("IMAD.WIDE R6, R_nw, 0x4, R2      &in[i - w] (Sub of the scaled w)", 1),
    ("LDG.E R11, desc[UR4][R6.64]", 1),
    ("LDG.E R12, desc[UR4][R4.64]", 1),
    ("FADD R8, R8, R9", 1),
    ("FADD R8, R8, R10", 1),
    ("FADD R8, R8, R11", 1),
    ("FADD R8, R8, R12", 1),
    ("FMUL R13, R8, 0.2", 1),
    ("LDC.64 R2, c[0x0][0x218]         out", 0),
    ("IMAD.WIDE R2, R7, 0x4, R2        &out[i] (Add)", 1),
    ("STG.E desc[UR4][R2.64], R13", 1),
    ("EXIT", 1),
];

const REDUCTION_HEAD: &[Line] = &[
    ("S2R R7, SR_TID.X", 1),
    ("S2R R0, SR_CTAID.X", 1),
    ("ULDC UR4, c[0x0][0x0]            blockDim.x", 1),
    ("IMAD R0, R0, UR4, R7             i", 2),
    ("ULDC UR5, c[0x0][0x220]          n", 0),
    ("ISETP.GE.AND P0, PT, R0, UR5, PT i >= n", 1),
    ("HFMA2.MMA R5, -RZ, RZ, 0, 0      0.0f for i >= n (our Mov in the else)", 1),
    ("@!P0 LDC.64 R2, c[0x0][0x210]    in", 0),
    ("@!P0 IMAD.WIDE R2, R0, 0x4, R2   &in[i] (Shl, Add); predicated run: our branch and jump", 4),
    ("@!P0 LDG.E R5, desc[UR4][R2.64]", 1),
    ("STS [R7.X4], R5                  s[tx] (the .X4 scaling: our Shl)", 2),
    ("BAR.SYNC.DEFER_BLOCKING 0x0", 1),
    ("USHF.R.U32.HI UR4, URZ, 0x1, UR4 step = blockDim.x / 2", 1),
    ("UISETP.NE.AND UP0, UPT, UR4, URZ, UPT  step > 0", 1),
    ("@!UP0 BRA after the loop", 1),
];

const REDUCTION_LOOP: &[Line] = &[
    ("ISETP.GE.AND P0, PT, R7, UR4, PT tx < step", 1),
    ("@!P0 LEA R3, R_step, R7, 0x2     &s[tx + step] (Add, Shl); predicated run: our branch", 3),
    ("@!P0 LDS R2, [R7.X4]", 1),
    ("@!P0 LDS R3, [R3]", 1),
    ("@!P0 FADD R2, R2, R3", 1),
    ("@!P0 STS [R7.X4], R2", 1),
    ("BAR.SYNC.DEFER_BLOCKING 0x0", 1),
    ("USHF.R.U32.HI UR4, URZ, 0x1, UR4 step /= 2 (positive here: a shift)", 1),
    ("UISETP.NE.AND UP0, UPT, UR4, URZ, UPT", 1),
    ("@UP0 BRA loop", 1),
];

const REDUCTION_TAIL: &[Line] = &[
    ("ISETP.NE.AND P0, PT, R7, RZ, PT  tx != 0", 1),
    ("@P0 EXIT", 1),
    ("LDS R5, [RZ]                     s[0] (Mov 0, Load)", 2),
    ("LDC.64 R2, c[0x0][0x218]         partial", 0),
    ("IMAD.WIDE.U32 R2, R0_ctaid, 0x4, R2  &partial[blockIdx.x] (Shl, Add)", 2),
    ("STG.E desc[UR4][R2.64], R5", 1),
    ("EXIT", 1),
];

const MATMUL_NAIVE_HEAD: &[Line] = &[
    ("S2R R0, SR_TID.Y", 1),
    ("S2R R3, SR_CTAID.Y", 1),
    ("S2R R2, SR_TID.X", 1),
    ("S2R R5, SR_CTAID.X", 1),
    ("ULDC.64 UR4, c[0x0][0x0]         blockDim.x and .y", 2),
    ("IMAD R0, R3, UR5, R0             row", 2),
    ("IMAD R2, R5, UR4, R2             col", 2),
    ("ULDC UR6, c[0x0][0x228]          n", 0),
    ("HFMA2.MMA R9, -RZ, RZ, 0, 0      sum = 0", 1),
    ("ISETP.GE.AND P0, PT, RZ_n, 0x1, PT  n < 1: no turn", 1),
    ("@!P0 BRA epilogue", 1),
    ("UIADD3 UR7, UR6, -0x1, URZ       n - 1", 1),
    ("ULOP3.LUT UR8, UR6, 0x3, URZ     remainder n & 3", 1),
    ("UISETP.GE.U32.AND UP0, UPT, UR7, 0x3, UPT  at least 4 turns", 1),
    ("MOV R4, RZ                       k = 0", 1),
    ("UIADD3 UR9, UR6, -UR8, URZ       turns of the main loop: n - (n & 3)", 1),
    ("IMAD R6, R0, UR6, RZ             row * n", 1),
    ("LDC.64 R10, c[0x0][0x210]        A", 0),
    ("LDC.64 R12, c[0x0][0x218]        B", 0),
    ("ULDC.64 UR10, c[0x0][0x208]      memory descriptor", 0),
    ("IMAD.WIDE R10, R6, 0x4, R10      &A[row * n] (Shl, Add)", 2),
    ("IMAD.WIDE R12, R2, 0x4, R12      &B[col] (Shl, Add)", 2),
    ("USHF.L.U32 UR12, UR6, 0x2, URZ   n * 4, B's step", 1),
    ("@!UP0 BRA remainder", 1),
];

/// The main loop: four turns.
const MATMUL_NAIVE_LOOP: &[Line] = &[
    ("LDG.E R14, desc[UR10][R10.64]    A[row][k]", 1),
    ("LDG.E R15, desc[UR10][R12.64]    B[k][col]", 1),
    ("IMAD.WIDE R16, R_n4, 0x1, R12    B + n (Add)", 1),
    ("LDG.E R17, desc[UR10][R10.64+0x4]", 1),
    ("LDG.E R18, desc[UR10][R16.64]", 1),
    ("IMAD.WIDE R20, R_n4, 0x1, R16    (Add)", 1),
    ("LDG.E R19, desc[UR10][R10.64+0x8]", 1),
    ("LDG.E R21, desc[UR10][R20.64]", 1),
    ("IMAD.WIDE R22, R_n4, 0x1, R20    (Add)", 1),
    ("LDG.E R23, desc[UR10][R10.64+0xc]", 1),
    ("LDG.E R24, desc[UR10][R22.64]", 1),
    ("IMAD.WIDE R12, R_n4, 0x1, R22    next B (Add)", 1),
    ("FFMA R9, R14, R15, R9", 1),
    ("FFMA R9, R17, R18, R9", 1),
    ("FFMA R9, R19, R21, R9", 1),
    ("FFMA R9, R23, R24, R9", 1),
    ("IADD3 R4, R4, 0x4, RZ            k += 4", 1),
    ("IADD3 R10, P1, R10, 0x10, RZ     A += 16 (the carry into the high word: 64-bit only)", 1),
    ("ISETP.NE.AND P0, PT, R4, UR9, PT", 1),
    ("@P0 BRA main loop", 1),
];

const MATMUL_NAIVE_TAIL: &[Line] = &[
    ("ISETP.NE.AND P0, PT, RZ_rem, UR8, PT  remainder = 0", 1),
    ("@!P0 BRA epilogue", 1),
    ("LDG.E R14, desc[UR10][R10.64]    remainder loop", 1),
    ("LDG.E R15, desc[UR10][R12.64]", 1),
    ("FFMA R9, R14, R15, R9", 1),
    ("IADD3 R10, R10, 0x4, RZ          A += 4", 1),
    ("IMAD.WIDE R12, R_n4, 0x1, R12    B += n (Add)", 1),
    ("IADD3 R8, R8, -0x1, RZ           remainder -= 1", 1),
    ("ISETP.NE.AND P0, PT, R8, RZ, PT", 1),
    ("@P0 BRA remainder loop", 1),
    ("IMAD R0, R0, UR6, R2             epilogue: row * n + col", 2),
    ("LDC.64 R2, c[0x0][0x220]         C", 0),
    ("IMAD.WIDE R2, R0, 0x4, R2        &C[row * n + col] (Shl, Add)", 2),
    ("STG.E desc[UR10][R2.64], R9", 1),
    ("EXIT", 1),
];

const MATMUL_TILED_HEAD: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_TID.Y", 1),
    ("S2R R2, SR_CTAID.X", 1),
    ("S2R R5, SR_CTAID.Y", 1),
    ("LEA R5, R5, R3, 0x4              row = ctaid.y * 16 + ty (Shl, Add)", 2),
    ("LEA R2, R2, R0, 0x4              col (Shl, Add)", 2),
    ("ULDC UR4, c[0x0][0x228]          n", 0),
    ("HFMA2.MMA R9, -RZ, RZ, 0, 0      sum = 0", 1),
    ("USHF.R.S32.HI UR5, URZ, 0x1f, UR4  n / 16, signed (our DivS)", 1),
    ("ULEA.HI UR5, UR5, UR4, URZ, 0x4", 0),
    ("USHF.R.S32.HI UR5, URZ, 0x4, UR5", 0),
    ("UISETP.GE.AND UP0, UPT, UR5, 0x1, UPT", 1),
    ("@!UP0 BRA epilogue", 1),
    ("IMAD.SHL.U32 R6, R3, 0x40, RZ    &As[ty][0] (Shl)", 1),
    ("IMAD.SHL.U32 R7, R0, 0x4, RZ     &Bs[0][tx] (Shl)", 1),
    ("IADD3 R8, R6, R7, RZ             &As[ty][tx] (Add)", 1),
    ("IMAD R10, R5, UR4, R0            row * n + tx", 2),
    ("IMAD R11, R3, UR4, R2            ty * n + col", 2),
    ("LDC.64 R12, c[0x0][0x210]        A", 0),
    ("LDC.64 R14, c[0x0][0x218]        B", 0),
    ("ULDC.64 UR6, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.WIDE R12, R10, 0x4, R12     &A[row * n + tx] (Shl, Add)", 2),
    ("IMAD.WIDE R14, R11, 0x4, R14     &B[ty * n + col] (Shl, Add)", 2),
    ("USHF.L.U32 UR8, UR4, 0x6, URZ    n * 16 * 4, B's step", 1),
    ("MOV R4, RZ                       t = 0", 1),
];

/// One turn over a tile: the inner 16 turns fully unrolled, As's row read four floats at once.
const MATMUL_TILED_LOOP: &[Line] = &[
    ("LDG.E R16, desc[UR6][R12.64]", 1),
    ("LDG.E R17, desc[UR6][R14.64]", 1),
    ("STS [R8], R16", 1),
    ("STS [R8+0x400], R17", 1),
    ("BAR.SYNC.DEFER_BLOCKING 0x0", 1),
    ("LDS.128 R20, [R6]                As[ty][0..4]", 4),
    ("LDS.128 R24, [R6+0x10]", 4),
    ("LDS.128 R28, [R6+0x20]", 4),
    ("LDS.128 R32, [R6+0x30]", 4),
    ("LDS R36, [R7+0x400]     Bs[0][tx]", 1),
    ("LDS R37, [R7+0x440]     Bs[1][tx]", 1),
    ("LDS R38, [R7+0x480]     Bs[2][tx]", 1),
    ("LDS R39, [R7+0x4c0]     Bs[3][tx]", 1),
    ("LDS R40, [R7+0x500]     Bs[4][tx]", 1),
    ("LDS R41, [R7+0x540]     Bs[5][tx]", 1),
    ("LDS R42, [R7+0x580]     Bs[6][tx]", 1),
    ("LDS R43, [R7+0x5c0]     Bs[7][tx]", 1),
    ("LDS R44, [R7+0x600]     Bs[8][tx]", 1),
    ("LDS R45, [R7+0x640]     Bs[9][tx]", 1),
    ("LDS R46, [R7+0x680]     Bs[10][tx]", 1),
    ("LDS R47, [R7+0x6c0]     Bs[11][tx]", 1),
    ("LDS R48, [R7+0x700]     Bs[12][tx]", 1),
    ("LDS R49, [R7+0x740]     Bs[13][tx]", 1),
    ("LDS R50, [R7+0x780]     Bs[14][tx]", 1),
    ("LDS R51, [R7+0x7c0]     Bs[15][tx]", 1),
    ("FFMA R9, R20, R36, R9", 1),
    ("FFMA R9, R21, R37, R9", 1),
    ("FFMA R9, R22, R38, R9", 1),
    ("FFMA R9, R23, R39, R9", 1),
    ("FFMA R9, R24, R40, R9", 1),
    ("FFMA R9, R25, R41, R9", 1),
    ("FFMA R9, R26, R42, R9", 1),
    ("FFMA R9, R27, R43, R9", 1),
    ("FFMA R9, R28, R44, R9", 1),
    ("FFMA R9, R29, R45, R9", 1),
    ("FFMA R9, R30, R46, R9", 1),
    ("FFMA R9, R31, R47, R9", 1),
    ("FFMA R9, R32, R48, R9", 1),
    ("FFMA R9, R33, R49, R9", 1),
    ("FFMA R9, R34, R50, R9", 1),
    ("FFMA R9, R35, R51, R9", 1),
    ("BAR.SYNC.DEFER_BLOCKING 0x0", 1),
    ("IADD3 R4, R4, 0x1, RZ            t += 1", 1),
    ("IADD3 R12, P0, R12, 0x40, RZ     A += 64 bytes", 1),
    ("IMAD.WIDE R14, R_step, 0x1, R14  B += n * 64 (Add)", 1),
    ("ISETP.GE.AND P0, PT, R4, UR5, PT", 1),
    ("@!P0 BRA loop", 1),
];

const MATMUL_TILED_TAIL: &[Line] = &[
    ("IMAD R5, R5, UR4, R2             row * n + col", 2),
    ("LDC.64 R2, c[0x0][0x220]         C", 0),
    ("IMAD.WIDE R2, R5, 0x4, R2        (Shl, Add)", 2),
    ("STG.E desc[UR6][R2.64], R9", 1),
    ("EXIT", 1),
];

const GEMM_HEAD: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_CTAID.X", 1),
    ("S2R R2, SR_TID.Y", 1),
    ("S2R R5, SR_CTAID.Y", 1),
    ("ULDC.64 UR4, c[0x0][0x0]         blockDim.x and .y", 2),
    ("IMAD R0, R3, UR4, R0             j", 2),
    ("IMAD R2, R5, UR5, R2             i", 2),
    ("ULDC.64 UR6, c[0x0][0x228]       ni, nj", 0),
    ("ISETP.GE.AND P0, PT, R2, UR6, PT i >= ni", 1),
    ("ISETP.GE.OR P0, PT, R0, UR7, P0  j >= nj, chained", 2),
    ("@P0 EXIT", 1),
    ("IMAD R7, R2, UR7, R0             i * nj + j", 2),
    ("LDC.64 R4, c[0x0][0x220]         c", 0),
    ("ULDC.64 UR10, c[0x0][0x208]      memory descriptor", 0),
    ("IMAD.WIDE R4, R7, 0x4, R4        &c[i * nj + j] (Shl, Add)", 2),
    ("LDG.E R9, desc[UR10][R4.64]", 1),
    ("FMUL R9, R9, 1.2                 * BETA (the literals as float, as our language reads them)", 1),
    ("ULDC UR8, c[0x0][0x230]          nk", 0),
    ("ISETP.GE.AND P0, PT, RZ_nk, 0x1, PT", 1),
    ("@!P0 BRA epilogue", 1),
    ("UIADD3 UR9, UR8, -0x1, URZ       runtime unrolling as in matmul-naive", 1),
    ("ULOP3.LUT UR12, UR8, 0x3, URZ", 1),
    ("UISETP.GE.U32.AND UP0, UPT, UR9, 0x3, UPT", 1),
    ("MOV R6, RZ                       k = 0", 1),
    ("UIADD3 UR13, UR8, -UR12, URZ", 1),
    ("IMAD R8, R2, UR8, RZ             i * nk", 1),
    ("LDC.64 R10, c[0x0][0x210]        a", 0),
    ("LDC.64 R12, c[0x0][0x218]        b", 0),
    ("IMAD.WIDE R10, R8, 0x4, R10      &a[i * nk] (Shl, Add)", 2),
    ("IMAD.WIDE R12, R0, 0x4, R12      &b[j] (Shl, Add)", 2),
    ("USHF.L.U32 UR14, UR7, 0x2, URZ   nj * 4", 1),
    ("@!UP0 BRA remainder", 1),
];

const GEMM_LOOP: &[Line] = &[
    ("LDG.E R14, desc[UR10][R10.64]", 1),
    ("LDG.E R15, desc[UR10][R12.64]", 1),
    ("IMAD.WIDE R16, R_nj4, 0x1, R12   (Add)", 1),
    ("LDG.E R17, desc[UR10][R10.64+0x4]", 1),
    ("LDG.E R18, desc[UR10][R16.64]", 1),
    ("IMAD.WIDE R20, R_nj4, 0x1, R16   (Add)", 1),
    ("LDG.E R19, desc[UR10][R10.64+0x8]", 1),
    ("LDG.E R21, desc[UR10][R20.64]", 1),
    ("IMAD.WIDE R22, R_nj4, 0x1, R20   (Add)", 1),
    ("LDG.E R23, desc[UR10][R10.64+0xc]", 1),
    ("LDG.E R24, desc[UR10][R22.64]", 1),
    ("IMAD.WIDE R12, R_nj4, 0x1, R22   (Add)", 1),
    ("FMUL R14, R14, 1.5               ALPHA * a[…]", 1),
    ("FFMA R9, R14, R15, R9", 1),
    ("FMUL R17, R17, 1.5", 1),
    ("FFMA R9, R17, R18, R9", 1),
    ("FMUL R19, R19, 1.5", 1),
    ("FFMA R9, R19, R21, R9", 1),
    ("FMUL R23, R23, 1.5", 1),
    ("FFMA R9, R23, R24, R9", 1),
    ("IADD3 R6, R6, 0x4, RZ", 1),
    ("IADD3 R10, P1, R10, 0x10, RZ", 1),
    ("ISETP.NE.AND P0, PT, R6, UR13, PT", 1),
    ("@P0 BRA main loop", 1),
];

const GEMM_TAIL: &[Line] = &[
    ("ISETP.NE.AND P0, PT, RZ_rem, UR12, PT", 1),
    ("@!P0 BRA epilogue", 1),
    ("LDG.E R14, desc[UR10][R10.64]    remainder loop", 1),
    ("LDG.E R15, desc[UR10][R12.64]", 1),
    ("FMUL R14, R14, 1.5", 1),
    ("FFMA R9, R14, R15, R9", 1),
    ("IADD3 R10, R10, 0x4, RZ", 1),
    ("IMAD.WIDE R12, R_nj4, 0x1, R12   (Add)", 1),
    ("IADD3 R8, R8, -0x1, RZ", 1),
    ("ISETP.NE.AND P0, PT, R8, RZ, PT", 1),
    ("@P0 BRA remainder loop", 1),
    ("STG.E desc[UR10][R4.64], R9      epilogue: the address of the read of c", 1),
    ("EXIT", 1),
];

/// Hotspot: the four neighbours' `if / else if` become predicated loads and selects.
const HOTSPOT: &[Line] = &[
    ("S2R R0, SR_TID.X", 1),
    ("S2R R3, SR_TID.Y", 1),
    ("S2R R2, SR_CTAID.X", 1),
    ("S2R R5, SR_CTAID.Y", 1),
    ("LEA R2, R2, R0, 0x4              col (Shl, Add)", 2),
    ("LEA R5, R5, R3, 0x4              row (Shl, Add)", 2),
    ("ULDC UR4, c[0x0][0x228]          n", 0),
    ("IMAD R7, R5, UR4, R2             i = row * n + col", 2),
    ("LDC.64 R8, c[0x0][0x218]         temp_in", 0),
    ("ULDC.64 UR6, c[0x0][0x208]       memory descriptor", 0),
    ("IMAD.WIDE R10, R7, 0x4, R8       &temp_in[i] (Shl, Add)", 2),
    ("LDG.E R4, desc[UR6][R10.64]      c", 1),
    ("LEA R6, R3, R0, 0x4              ty * 16 + tx, scaled by .X4 below (Shl, Add, Shl)", 3),
    ("STS [R6.X4], R4", 1),
    ("BAR.SYNC.DEFER_BLOCKING 0x0", 1),
    // north
    ("ISETP.GE.AND P0, PT, R3, 0x1, PT ty > 0", 1),
    ("MOV R12, R4                      north = c", 1),
    ("@P0 LDS R12, [R6.X4+-0x40]       tile[ty - 1][tx]; predicated run: our branch, jump", 3),
    ("ISETP.GE.AND P1, PT, R5, 0x1, !P0  else row > 0, chained (our Cmp and branch)", 2),
    ("@P1 IADD3 R13, R7, -UR4, RZ      i - n", 1),
    ("@P1 IMAD.WIDE R14, R13, 0x4, R8  (Shl, Add)", 2),
    ("@P1 LDG.E R12, desc[UR6][R14.64]", 1),
    // south
    ("ISETP.GE.AND P0, PT, R3, 0xf, PT ty < 15", 1),
    ("MOV R16, R4                      south = c", 1),
    ("@!P0 LDS R16, [R6.X4+0x40]       predicated run: our branch, jump", 3),
    ("UIADD3 UR5, UR4, -0x1, URZ       n - 1", 1),
    ("ISETP.LT.AND P1, PT, R5, UR5, P0 else row < n - 1 (Cmp, branch)", 2),
    ("@P1 IADD3 R13, R7, UR4, RZ       i + n", 1),
    ("@P1 IMAD.WIDE R14, R13, 0x4, R8  (Shl, Add)", 2),
    ("@P1 LDG.E R16, desc[UR6][R14.64]", 1),
    // west
    ("ISETP.GE.AND P0, PT, R0, 0x1, PT tx > 0", 1),
    ("MOV R17, R4                      west = c", 1),
    ("@P0 LDS R17, [R6.X4+-0x4]        predicated run: our branch, jump", 3),
    ("ISETP.GE.AND P1, PT, R2, 0x1, !P0  else col > 0 (Cmp, branch)", 2),
    ("@P1 LDG.E R17, desc[UR6][R10.64+-0x4]", 1),
    // east
    ("ISETP.GE.AND P0, PT, R0, 0xf, PT tx < 15", 1),
    ("MOV R18, R4                      east = c", 1),
    ("@!P0 LDS R18, [R6.X4+0x4]        predicated run: our branch, jump", 3),
    ("ISETP.LT.AND P1, PT, R2, UR5, P0 else col < n - 1 (Cmp, branch)", 2),
    ("@P1 LDG.E R18, desc[UR6][R10.64+0x4]", 1),
    // the update
    ("LDC.64 R14, c[0x0][0x210]        power", 0),
    ("IMAD.WIDE R14, R7, 0x4, R14      &power[i] (Add)", 1),
    ("LDG.E R19, desc[UR6][R14.64]", 1),
    ("FADD R12, R12, R16", 1),
    ("FADD R12, R12, R18", 1),
    ("FADD R12, R12, R17", 1),
    ("FFMA R12, R4, -4, R12            - 4 * c (contracted: our FMul, FSub)", 2),
    ("FFMA R12, R12, 0.1, R4", 1),
    ("FFMA R12, R19, 0.05, R12", 1),
    ("LDC.64 R14, c[0x0][0x220]        temp_out", 0),
    ("IMAD.WIDE R14, R7, 0x4, R14      (Add)", 1),
    ("STG.E desc[UR6][R14.64], R12", 1),
    ("EXIT", 1),
];

/// A kernel's hand count: its listing in regions, and which region is its loop.
struct Hand {
    name: &'static str,
    source: &'static str,
    regions: &'static [&'static [Line]],
    /// The hot loop: its region's index, how many turns of the source loop nvcc's copy of
    /// it runs (4 where it unrolls by four), and how many loads one source turn makes (to
    /// tell how many turns our copy runs, which is then compared per turn).
    hot: Option<(usize, u32, usize)>,
}

const HANDS: &[Hand] = &[
    Hand { name: "vecadd", source: include_str!("../../validation/vecadd.cu"), regions: &[VECADD], hot: None },
    Hand { name: "strided", source: include_str!("../../validation/strided.cu"), regions: &[STRIDED], hot: None },
    Hand { name: "stencil", source: include_str!("../../validation/stencil.cu"), regions: &[STENCIL], hot: None },
    Hand {
        name: "matmul-naive",
        source: include_str!("../../validation/matmul-naive.cu"),
        regions: &[MATMUL_NAIVE_HEAD, MATMUL_NAIVE_LOOP, MATMUL_NAIVE_TAIL],
        hot: Some((1, 4, 2)),
    },
    Hand {
        name: "matmul-tiled",
        source: include_str!("../../validation/matmul-tiled.cu"),
        regions: &[MATMUL_TILED_HEAD, MATMUL_TILED_LOOP, MATMUL_TILED_TAIL],
        hot: Some((1, 1, 34)),
    },
    Hand {
        name: "reduction",
        source: include_str!("../../validation/reduction.cu"),
        regions: &[REDUCTION_HEAD, REDUCTION_LOOP, REDUCTION_TAIL],
        hot: Some((1, 1, 2)),
    },
    Hand { name: "gather", source: include_str!("../../validation/gather.cu"), regions: &[GATHER], hot: None },
    Hand { name: "histogram", source: include_str!("../../validation/histogram.cu"), regions: &[HISTOGRAM], hot: None },
    Hand {
        name: "gemm (library)",
        source: include_str!("../src/library/gemm.cu"),
        regions: &[GEMM_HEAD, GEMM_LOOP, GEMM_TAIL],
        hot: Some((1, 4, 2)),
    },
    Hand {
        name: "hotspot (library)",
        source: include_str!("../src/library/hotspot.cu"),
        regions: &[HOTSPOT],
        hot: None,
    },
];

/// Most our count may be over the hand count.
const MAX_RATIO: f64 = 1.3;

fn compiled(source: &str) -> Vec<Instr> {
    let config = presets::fermi_gtx480();
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true })
        .unwrap_or_else(|e| panic!("does not compile: {}", e[0]));
    program.workload.kernels[0].code.clone()
}

/// Our hot loop: the longest span from a backward branch's target to the branch, as its
/// instructions and its loads.
fn hot_loop(code: &[Instr]) -> (usize, usize) {
    let span = code
        .iter()
        .enumerate()
        .filter_map(|(i, instr)| match *instr {
            Instr::Branch { target, .. } if (target as usize) <= i => Some(target as usize..i + 1),
            _ => None,
        })
        .max_by_key(|r| r.len())
        .unwrap_or(0..0);
    let loads = code[span.clone()].iter().filter(|i| matches!(i, Instr::Load { .. })).count();
    (span.len(), loads)
}

#[test]
fn optimised_kernels_are_within_1_3x_of_hand_compiled_nvcc_counts() {
    println!("| kernel | region | nvcc SASS | nvcc in our ISA | ours | ours / nvcc in our ISA |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut over = Vec::new();
    for hand in HANDS {
        let code = compiled(hand.source);
        let mapped = |lines: &[Line]| lines.iter().map(|l| l.1 as f64).sum::<f64>();
        let whole_sass: usize = hand.regions.iter().map(|r| r.len()).sum();
        let whole_mapped: f64 = hand.regions.iter().map(|r| mapped(r)).sum();
        let mut rows = vec![("kernel".to_string(), whole_sass as f64, whole_mapped, code.len() as f64)];
        if let Some((h, nvcc_turns, loads_per_turn)) = hand.hot {
            let (len, loads) = hot_loop(&code);
            let our_turns = (loads / loads_per_turn).max(1);
            let per = |x: f64, turns: usize| x / turns as f64;
            let region = &hand.regions[h];
            rows.push((
                "hot loop, per turn".to_string(),
                per(region.len() as f64, nvcc_turns as usize),
                per(mapped(region), nvcc_turns as usize),
                per(len as f64, our_turns),
            ));
        }
        for (region, sass, ours_isa, ours) in rows {
            let ratio = ours / ours_isa;
            println!("| {} | {region} | {sass} | {ours_isa} | {ours} | {ratio:.2} |", hand.name);
            if ratio > MAX_RATIO {
                over.push(format!("{} {region}: {ours} against {ours_isa}", hand.name));
            }
        }
    }
    assert!(over.is_empty(), "over {MAX_RATIO}x: {over:?}");
}
