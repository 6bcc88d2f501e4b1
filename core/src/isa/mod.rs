//! The per-thread instruction set that kernels compile to and warps execute SIMT.
//!
//! Every register holds a 32-bit word: `int`, `unsigned`, `float` (IEEE bits) and `bool`
//! (0 or 1) alike, `char` and `short` values extended to 32 bits as GPU registers hold them,
//! and pointers as 32-bit byte addresses. Loads and stores move 1, 2 or 4 bytes ([`Width`]).
//! Instructions name registers of the executing thread ([`Reg`]); a warp runs one instruction
//! for all its active lanes at once.
//! Branches carry their reconvergence point (the immediate post-dominator, computed by the
//! compiler), which the SIMT stack uses to bring diverged lanes back together.

pub mod builder;

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A register of the executing thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Reg(pub u8);

/// An instruction input: a register or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operand {
    /// The value of a register.
    Reg(Reg),
    /// A constant word (an integer, or the bits of a float).
    Imm(u32),
}

impl From<Reg> for Operand {
    fn from(r: Reg) -> Self {
        Operand::Reg(r)
    }
}

/// Values that differ per thread or per launch but are not computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Special {
    /// `threadIdx.{x,y,z}`.
    ThreadIdx(Axis),
    /// `blockIdx.{x,y,z}`.
    BlockIdx(Axis),
    /// `blockDim.{x,y,z}`.
    BlockDim(Axis),
    /// `gridDim.{x,y,z}`.
    GridDim(Axis),
    /// The lane within the warp, `0..warpSize`.
    LaneId,
    /// `warpSize`.
    WarpSize,
}

/// A dimension of a grid or block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Axis {
    /// Fastest-varying.
    X,
    /// Middle.
    Y,
    /// Slowest-varying.
    Z,
}

/// Two-input operations of the ALU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AluOp {
    /// Wrapping integer addition (signed and unsigned alike).
    Add,
    /// Wrapping integer subtraction.
    Sub,
    /// Wrapping integer multiplication (low 32 bits).
    Mul,
    /// Signed division, rounding toward zero; `x / 0` is -1 (defined, unlike C).
    DivS,
    /// Unsigned division; `x / 0` is `u32::MAX`.
    DivU,
    /// Signed remainder with the dividend's sign; `x % 0` is `x`.
    RemS,
    /// Unsigned remainder; `x % 0` is `x`.
    RemU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left by `b`; a count past 31 gives 0 (as PTX's `shl` clamps it).
    Shl,
    /// Logical shift right by `b`; a count past 31 gives 0.
    ShrU,
    /// Arithmetic shift right by `b`; a count past 31 fills with the sign.
    ShrS,
    /// Signed minimum.
    MinS,
    /// Signed maximum.
    MaxS,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// Float addition.
    FAdd,
    /// Float subtraction.
    FSub,
    /// Float multiplication.
    FMul,
    /// Float minimum (`fminf`: a NaN operand yields the other).
    FMin,
    /// Float maximum (`fmaxf`).
    FMax,
}

/// One-input operations of the ALU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    /// Integer negation (wrapping).
    Neg,
    /// Bitwise not.
    Not,
    /// Logical not of a bool (0 → 1, anything else → 0).
    LogicalNot,
    /// Signed absolute value (wrapping at `i32::MIN`).
    Abs,
    /// Float negation.
    FNeg,
    /// Float absolute value.
    FAbs,
    /// Signed integer to float.
    IntToFloat,
    /// Unsigned integer to float.
    UintToFloat,
    /// Float to signed integer, truncating; NaN → 0, saturating at the range ends.
    FloatToInt,
    /// Float to unsigned integer, truncating; NaN and negatives → 0, saturating.
    FloatToUint,
    /// `floorf(a)`.
    Floor,
    /// `ceilf(a)`.
    Ceil,
    /// `truncf(a)`.
    Trunc,
    /// `roundf(a)`: halves away from zero.
    Round,
    /// `__popc(a)`: the bits set.
    Popc,
    /// `__clz(a)`: the leading zero bits.
    Clz,
    /// The low byte, sign-extended (conversion to `char`).
    Sext8,
    /// The low byte, zero-extended (conversion to `unsigned char`).
    Zext8,
    /// The low two bytes, sign-extended (conversion to `short`).
    Sext16,
    /// The low two bytes, zero-extended (conversion to `unsigned short`).
    Zext16,
}

/// Operations of the special-function unit (longer latency).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SfuOp {
    /// Float division `a / b`.
    FDiv,
    /// `sqrtf(a)`.
    Sqrt,
    /// `rsqrtf(a)`.
    Rsqrt,
    /// `expf(a)`.
    Exp,
    /// `logf(a)`.
    Log,
    /// `sinf(a)`.
    Sin,
    /// `cosf(a)`.
    Cos,
    /// `exp2f(a)`.
    Exp2,
    /// `log2f(a)`.
    Log2,
    /// `tanhf(a)`.
    Tanh,
    /// `powf(a, b)`.
    Pow,
    /// `log10f(a)`.
    Log10,
    /// `fmodf(a, b)`: the remainder of `a / b` truncated, with `a`'s sign (software on a GPU,
    /// one SFU operation here).
    Fmod,
    // The rest of CUDA's single-precision math library. On a GPU each is a short software
    // sequence around the SFU's approximations; here each is one SFU operation, as `Pow` is.
    /// `tanf(a)`.
    Tan,
    /// `asinf(a)`.
    Asin,
    /// `acosf(a)`.
    Acos,
    /// `atanf(a)`.
    Atan,
    /// `atan2f(a, b)`: the angle of the point (b, a).
    Atan2,
    /// `sinhf(a)`.
    Sinh,
    /// `coshf(a)`.
    Cosh,
    /// `cbrtf(a)`.
    Cbrt,
    /// `hypotf(a, b)`.
    Hypot,
    /// `erff(a)`.
    Erf,
    /// `erfcf(a)`.
    Erfc,
    /// `expm1f(a)`.
    Expm1,
    /// `log1pf(a)`.
    Log1p,
    /// `exp10f(a)`.
    Exp10,
}

/// How two words are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpOp {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater or equal.
    Ge,
}

/// The type under which two words are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpType {
    /// Signed integers.
    Int,
    /// Unsigned integers.
    Uint,
    /// Floats (any comparison with NaN is false, except `Ne`).
    Float,
}

/// Where local memory's addresses start ([`Instr::Spill`], [`Instr::Fill`]): above every
/// buffer (device memory holds at most [`MAX_GLOBAL_BYTES`](crate::exec::memory::MAX_GLOBAL_BYTES)),
/// so a spilled register never shares a cache line with data. The window holds one frame per
/// warp slot of the GPU, each `spill words × 128` bytes: word `w` of lane `l` at `128 w + 4 l`,
/// the interleaving that makes a warp's spill or fill one coalesced access, as on NVIDIA GPUs.
pub const LOCAL_WINDOW_BASE: u32 = 1 << 30;
/// Bytes the local window may span: the rest of the 32-bit address space.
pub const LOCAL_WINDOW_BYTES: u64 = (1 << 32) - LOCAL_WINDOW_BASE as u64;

/// Whether `addr` is in the local window: a spill or fill's, never a buffer's.
pub fn is_local_address(addr: u32) -> bool {
    addr >= LOCAL_WINDOW_BASE
}

/// Which memory an access goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Space {
    /// Device memory, through L1, L2 and DRAM.
    Global,
    /// The thread block's scratchpad.
    Shared,
}

/// Two-input operations on 64-bit values held in register pairs ([`Instr::Wide`]): integers
/// (`long long`, `unsigned long long`) on the ALU, doubles on the FP64 unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WideOp {
    /// Wrapping 64-bit addition.
    Add,
    /// Wrapping 64-bit subtraction.
    Sub,
    /// Wrapping 64-bit multiplication (low 64 bits).
    Mul,
    /// Signed division toward zero; `x / 0` is -1, as [`AluOp::DivS`].
    DivS,
    /// Unsigned division; `x / 0` is all ones.
    DivU,
    /// Signed remainder; `x % 0` is `x`.
    RemS,
    /// Unsigned remainder; `x % 0` is `x`.
    RemU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left by `b`; a count past 63 gives 0.
    Shl,
    /// Logical shift right by `b`; a count past 63 gives 0.
    ShrU,
    /// Arithmetic shift right by `b`; a count past 63 fills with the sign.
    ShrS,
    /// Signed minimum.
    MinS,
    /// Signed maximum.
    MaxS,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// Double addition.
    DAdd,
    /// Double subtraction.
    DSub,
    /// Double multiplication.
    DMul,
    /// Double division.
    DDiv,
    /// `fmin` (a NaN operand yields the other).
    DMin,
    /// `fmax`.
    DMax,
    /// `pow(a, b)`.
    DPow,
    /// `fmod(a, b)` (software on a GPU, one FP64 operation here).
    DFmod,
    /// `atan2(a, b)` (software on a GPU, one FP64 operation here, as the functions below).
    DAtan2,
    /// `hypot(a, b)`.
    DHypot,
}

impl WideOp {
    /// Whether it computes on doubles (the FP64 unit) rather than integers (the ALU).
    pub fn is_double(self) -> bool {
        matches!(
            self,
            WideOp::DAdd
                | WideOp::DSub
                | WideOp::DMul
                | WideOp::DDiv
                | WideOp::DMin
                | WideOp::DMax
                | WideOp::DPow
                | WideOp::DFmod
                | WideOp::DAtan2
                | WideOp::DHypot
        )
    }
}

/// One-input operations with a 64-bit side ([`Instr::WideUnary`]): 64-bit arithmetic, double
/// functions, and the conversions between 32- and 64-bit types. Which side is a register
/// pair is the operation's ([`WideUnaryOp::reads_pair`], [`WideUnaryOp::writes_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WideUnaryOp {
    /// 64-bit negation (wrapping).
    Neg,
    /// 64-bit bitwise not.
    Not,
    /// 64-bit absolute value (wrapping at the minimum).
    Abs,
    /// Double negation.
    DNeg,
    /// `fabs`.
    DAbs,
    /// `sqrt`.
    DSqrt,
    /// `rsqrt`.
    DRsqrt,
    /// `exp`.
    DExp,
    /// `log`.
    DLog,
    /// `exp2`.
    DExp2,
    /// `log2`.
    DLog2,
    /// `sin`.
    DSin,
    /// `cos`.
    DCos,
    /// `tanh`.
    DTanh,
    /// `log10`.
    DLog10,
    /// `tan`.
    DTan,
    /// `asin`.
    DAsin,
    /// `acos`.
    DAcos,
    /// `atan`.
    DAtan,
    /// `sinh`.
    DSinh,
    /// `cosh`.
    DCosh,
    /// `cbrt`.
    DCbrt,
    /// `erf`.
    DErf,
    /// `erfc`.
    DErfc,
    /// `expm1`.
    DExpm1,
    /// `log1p`.
    DLog1p,
    /// `exp10`.
    DExp10,
    /// `floor`.
    DFloor,
    /// `ceil`.
    DCeil,
    /// `trunc`.
    DTrunc,
    /// `round` (halves away from zero).
    DRound,
    /// `int` to `long long` (sign-extended).
    IntToLong,
    /// `unsigned` to a 64-bit integer (zero-extended).
    UintToLong,
    /// `float` to `long long` (truncating, saturating, NaN to 0).
    FloatToLong,
    /// `float` to `unsigned long long` (truncating, saturating, NaN and negatives to 0).
    FloatToUlong,
    /// `int` to `double`.
    IntToDouble,
    /// `unsigned` to `double`.
    UintToDouble,
    /// `float` to `double`.
    FloatToDouble,
    /// `double` to `int` (truncating, saturating, NaN to 0).
    DoubleToInt,
    /// `double` to `unsigned` (truncating, saturating, NaN and negatives to 0).
    DoubleToUint,
    /// `double` to `float` (rounded to nearest).
    DoubleToFloat,
    /// `long long` to `float`.
    LongToFloat,
    /// `unsigned long long` to `float`.
    UlongToFloat,
    /// `long long` to `double`.
    LongToDouble,
    /// `unsigned long long` to `double`.
    UlongToDouble,
    /// `double` to `long long` (truncating, saturating, NaN to 0).
    DoubleToLong,
    /// `double` to `unsigned long long` (truncating, saturating, NaN and negatives to 0).
    DoubleToUlong,
}

impl WideUnaryOp {
    /// Whether its input is a register pair (else one register).
    pub fn reads_pair(self) -> bool {
        !matches!(
            self,
            WideUnaryOp::IntToLong
                | WideUnaryOp::UintToLong
                | WideUnaryOp::FloatToLong
                | WideUnaryOp::FloatToUlong
                | WideUnaryOp::IntToDouble
                | WideUnaryOp::UintToDouble
                | WideUnaryOp::FloatToDouble
        )
    }

    /// Whether its result is a register pair (else one register).
    pub fn writes_pair(self) -> bool {
        !matches!(
            self,
            WideUnaryOp::DoubleToInt
                | WideUnaryOp::DoubleToUint
                | WideUnaryOp::DoubleToFloat
                | WideUnaryOp::LongToFloat
                | WideUnaryOp::UlongToFloat
        )
    }

    /// Whether it involves a double (the FP64 unit) rather than only integers (the ALU).
    pub fn is_double(self) -> bool {
        !matches!(
            self,
            WideUnaryOp::Neg
                | WideUnaryOp::Not
                | WideUnaryOp::Abs
                | WideUnaryOp::IntToLong
                | WideUnaryOp::UintToLong
                | WideUnaryOp::FloatToLong
                | WideUnaryOp::FloatToUlong
                | WideUnaryOp::LongToFloat
                | WideUnaryOp::UlongToFloat
        )
    }
}

/// The type under which two register pairs are compared ([`Instr::WideCmp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WideCmpType {
    /// Signed 64-bit integers.
    Long,
    /// Unsigned 64-bit integers.
    Ulong,
    /// Doubles (any comparison with NaN is false, except `Ne`).
    Double,
}

/// How many bytes a load or store moves, and how a narrow load fills the 32-bit register.
///
/// Memory is little-endian, as on NVIDIA GPUs. A narrow access must be aligned to its size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Width {
    /// A 32-bit word (`int`, `unsigned`, `float`, pointers).
    #[default]
    Word,
    /// One byte, zero-extended when loaded (`unsigned char`, `bool`).
    U8,
    /// One byte, sign-extended when loaded (`char`, `signed char`).
    S8,
    /// Two bytes, zero-extended when loaded (`unsigned short`).
    U16,
    /// Two bytes, sign-extended when loaded (`short`).
    S16,
    /// Eight bytes (`long long`, `double`): a load fills a register pair, `dst` (the low word)
    /// and `dst + 1`; a store writes the pair its source register starts.
    Dword,
}

impl Width {
    /// The bytes moved, which is also the alignment required.
    pub const fn bytes(self) -> u32 {
        match self {
            Width::Word => 4,
            Width::U8 | Width::S8 => 1,
            Width::U16 | Width::S16 => 2,
            Width::Dword => 8,
        }
    }

    /// Whether it moves a whole word (the serialised default).
    pub fn is_word(&self) -> bool {
        *self == Width::Word
    }

    /// The value a load of byte address `addr` gives, from the aligned word holding it.
    pub fn extract(self, word: u32, addr: u32) -> u32 {
        let shifted = word >> (8 * (addr & 3));
        match self {
            // A double word's low word; the engine reads its high word apart.
            Width::Word | Width::Dword => word,
            Width::U8 => shifted & 0xFF,
            Width::S8 => shifted as u8 as i8 as i32 as u32,
            Width::U16 => shifted & 0xFFFF,
            Width::S16 => shifted as u16 as i16 as i32 as u32,
        }
    }

    /// The aligned word holding byte address `addr` once a store of `value` there changes it
    /// (the value's low bytes replace the ones addressed).
    pub fn insert(self, word: u32, addr: u32, value: u32) -> u32 {
        let field = match self {
            Width::Word | Width::Dword => return value,
            Width::U8 | Width::S8 => 0xFFu32,
            Width::U16 | Width::S16 => 0xFFFF,
        };
        let shift = 8 * (addr & 3);
        (word & !(field << shift)) | ((value & field) << shift)
    }
}

/// Read-modify-write operations; all return the old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AtomicOp {
    /// Wrapping integer add.
    Add,
    /// Float add.
    FAdd,
    /// Signed minimum.
    MinS,
    /// Signed maximum.
    MaxS,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Exchange.
    Exch,
    /// Compare and swap: store `src` if the old value equals `compare`.
    Cas,
    /// CUDA's `atomicInc`: 0 if the old value is at least `src`, else the old value + 1.
    Inc,
    /// CUDA's `atomicDec`: `src` if the old value is 0 or above `src`, else the old value - 1.
    Dec,
}

/// Which lane a [`Instr::Shuffle`] reads, as PTX's `shfl.sync` modes define it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShuffleMode {
    /// From lane `b` of the lane's segment (`__shfl_sync`).
    Idx,
    /// From `b` lanes below, or the lane's own value at the segment's start (`__shfl_up_sync`).
    Up,
    /// From `b` lanes above, or its own value past the segment's end (`__shfl_down_sync`).
    Down,
    /// From the lane whose number differs in the bits of `b` (`__shfl_xor_sync`).
    Xor,
}

/// What a [`Instr::Vote`] computes over the lanes that take part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VoteMode {
    /// 1 if the predicate holds in every lane (`__all_sync`), else 0.
    All,
    /// 1 if it holds in any lane (`__any_sync`), else 0.
    Any,
    /// The mask of the lanes where it holds (`__ballot_sync`).
    Ballot,
}

/// One instruction. Targets of branches are instruction indices within the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Instr {
    /// `dst = src`.
    Mov {
        /// Destination.
        dst: Reg,
        /// Source.
        src: Operand,
    },
    /// `dst = ` a built-in variable.
    Special {
        /// Destination.
        dst: Reg,
        /// Which variable.
        which: Special,
    },
    /// `dst = a op b` on the ALU.
    Alu {
        /// Operation.
        op: AluOp,
        /// Destination.
        dst: Reg,
        /// First input.
        a: Operand,
        /// Second input.
        b: Operand,
    },
    /// `dst = op a` on the ALU.
    Unary {
        /// Operation.
        op: UnaryOp,
        /// Destination.
        dst: Reg,
        /// Input.
        a: Operand,
    },
    /// `dst = a * b + c` in floats with a single rounding (`fmaf`).
    Fma {
        /// Destination.
        dst: Reg,
        /// Multiplicand.
        a: Operand,
        /// Multiplier.
        b: Operand,
        /// Addend.
        c: Operand,
    },
    /// `dst = op(a[, b])` on the special-function unit.
    Sfu {
        /// Operation.
        op: SfuOp,
        /// Destination.
        dst: Reg,
        /// First input.
        a: Operand,
        /// Second input (only [`SfuOp::FDiv`] and [`SfuOp::Pow`] read it).
        b: Operand,
    },
    /// `dst = (a op b) as bool`.
    Cmp {
        /// Comparison.
        op: CmpOp,
        /// Type of the operands.
        ty: CmpType,
        /// Destination (0 or 1).
        dst: Reg,
        /// Left side.
        a: Operand,
        /// Right side.
        b: Operand,
    },
    /// `dst = a op b` on 64-bit values: `dst`, `a` and `b` each name a register pair (the low
    /// word in the register named, the high word in the next).
    Wide {
        /// Operation.
        op: WideOp,
        /// Destination pair.
        dst: Reg,
        /// First input pair.
        a: Reg,
        /// Second input pair.
        b: Reg,
    },
    /// `dst = a * b + c` on doubles in register pairs, rounded once (DFMA): `fma()` on
    /// doubles, and a double product added to something, as nvcc contracts it.
    WideFma {
        /// Destination pair.
        dst: Reg,
        /// First factor's pair.
        a: Reg,
        /// Second factor's pair.
        b: Reg,
        /// Addend's pair.
        c: Reg,
    },
    /// `dst = op a` where one side or both are 64-bit (register pairs, as the operation says).
    WideUnary {
        /// Operation.
        op: WideUnaryOp,
        /// Destination: a pair or one register.
        dst: Reg,
        /// Input: a pair or one register.
        a: Reg,
    },
    /// `dst = (a op b) as bool` on two register pairs.
    WideCmp {
        /// Comparison.
        op: CmpOp,
        /// Type of the operands.
        ty: WideCmpType,
        /// Destination (0 or 1), one register.
        dst: Reg,
        /// Left side (a pair).
        a: Reg,
        /// Right side (a pair).
        b: Reg,
    },
    /// `dst = cond != 0 ? a : b`.
    Select {
        /// Destination.
        dst: Reg,
        /// Condition.
        cond: Reg,
        /// Value when true.
        a: Operand,
        /// Value when false.
        b: Operand,
    },
    /// `dst = *(addr + offset)`: a word, or a narrow value extended to one.
    Load {
        /// Memory.
        space: Space,
        /// Bytes read, and how they are extended.
        #[serde(default, skip_serializing_if = "Width::is_word")]
        width: Width,
        /// Destination.
        dst: Reg,
        /// Register holding the base byte address.
        addr: Reg,
        /// Constant byte offset added to it.
        offset: i32,
    },
    /// `*(addr + offset) = src` (a narrow store writes the value's low bytes).
    Store {
        /// Memory.
        space: Space,
        /// Bytes written.
        #[serde(default, skip_serializing_if = "Width::is_word")]
        width: Width,
        /// Register holding the base byte address.
        addr: Reg,
        /// Constant byte offset.
        offset: i32,
        /// Value stored.
        src: Operand,
    },
    /// Saves `src` (a pair where `pair`) in the thread's local memory at word `slot`: a
    /// register the compiler spilled because the kernel needs more than fit. Local memory is
    /// the thread's own, lives in device memory and is cached in the L1 as global data is
    /// (its addresses are in a window of their own: [`LOCAL_WINDOW_BASE`]).
    Spill {
        /// The register saved (the low word of a pair where `pair`).
        src: Reg,
        /// The word of the thread's local memory (even for a pair).
        slot: u16,
        /// Whether it saves a register pair (8 bytes).
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        pair: bool,
    },
    /// `dst = ` the word (a pair where `pair`) at `slot` of the thread's local memory, where a
    /// [`Instr::Spill`] saved it.
    Fill {
        /// Destination (the low word of a pair where `pair`).
        dst: Reg,
        /// The word of the thread's local memory (even for a pair).
        slot: u16,
        /// Whether it loads a register pair (8 bytes).
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        pair: bool,
    },
    /// `dst = atomic_op(addr, src[, compare])`, returning the old value.
    Atomic {
        /// Operation.
        op: AtomicOp,
        /// Memory.
        space: Space,
        /// A word, or ([`Width::Dword`]) eight bytes: `dst`, `src` and `compare` are then
        /// register pairs, and the operation is the 64-bit one (`FAdd` adds doubles; `Inc` and
        /// `Dec` have none).
        #[serde(default, skip_serializing_if = "Width::is_word")]
        width: Width,
        /// Receives the old value.
        dst: Reg,
        /// Register holding the byte address.
        addr: Reg,
        /// Operand.
        src: Operand,
        /// Expected value for [`AtomicOp::Cas`]; ignored otherwise.
        compare: Operand,
    },
    /// `dst = value` of another lane of the warp, chosen by `mode`, `b` and the segment
    /// width `width` (`__shfl_*_sync`). Each active lane reads the source lane's register as
    /// it is, whether that lane is active or not (CUDA leaves that case undefined); a source
    /// outside the lane's segment gives the lane its own value.
    Shuffle {
        /// How the source lane is found.
        mode: ShuffleMode,
        /// Destination.
        dst: Reg,
        /// The value exchanged.
        value: Operand,
        /// Source lane, distance or xor mask.
        b: Operand,
        /// Segment width in lanes (a power of two up to 32).
        width: Operand,
    },
    /// `dst = ` a vote of `pred` over the active lanes that are also in the lane's `mask`
    /// (`__all_sync`, `__any_sync`, `__ballot_sync`; `__activemask()` is a ballot of 1).
    Vote {
        /// What is computed.
        mode: VoteMode,
        /// Destination.
        dst: Reg,
        /// The lanes whose predicates count (those that are active).
        mask: Operand,
        /// The predicate (non-zero: true).
        pred: Operand,
    },
    /// Jump to `target` for lanes whose `cond` (if any) is non-zero, or zero when `negate`;
    /// diverged lanes meet again at `reconverge`.
    Branch {
        /// Condition register; `None` for an unconditional jump.
        cond: Option<Reg>,
        /// Take the branch where the condition is false instead.
        negate: bool,
        /// Instruction index jumped to.
        target: u32,
        /// Instruction index where both paths meet (the immediate post-dominator).
        reconverge: u32,
    },
    /// A local array's bounds check: every active lane whose `index` is not below `len`
    /// (compared unsigned, so a negative index is out of range too) faults with
    /// [`FaultKind::LocalIndex`](crate::exec::FaultKind::LocalIndex); otherwise nothing
    /// happens. The compiler puts one before each run-time index of a local array.
    Bound {
        /// The index (one dimension's, for an array of several).
        index: Operand,
        /// The number of elements along that dimension.
        len: u32,
        /// Which entry of [`Kernel::local_arrays`] names the array.
        array: u16,
    },
    /// `__syncthreads()`: wait until every live warp of the thread block arrives.
    Barrier,
    /// The active lanes finish.
    Exit,
    /// Device-side launch (dynamic parallelism): every active lane launches one grid of
    /// kernel `kernel`. Six consecutive registers from `dims` hold grid x, y, z and block x, y,
    /// z; the child's parameters are in consecutive registers from `args`. The engine waits for
    /// every outstanding register write of the warp before issuing it, so the scoreboard need
    /// not list these registers.
    Launch {
        /// Index of the child kernel in the workload.
        kernel: u32,
        /// First of the six dimension registers.
        dims: Reg,
        /// First argument register (one per parameter of the child).
        args: Reg,
    },
}

/// The execution unit an instruction occupies, which sets its latency and issue interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unit {
    /// Integer and float arithmetic, compares, moves.
    #[default]
    Alu,
    /// Division, roots, transcendental functions.
    Sfu,
    /// Double-precision arithmetic and conversions to and from doubles.
    Fp64,
    /// Loads, stores, atomics: the load/store unit.
    Memory,
    /// Branches, barriers, exit.
    Control,
}

/// What an instruction does, as the issue gates of warp policies tell instructions apart
/// (throttling loads, balancing memory issue between kernels, limiting memory instructions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstrClass {
    /// Arithmetic, moves, branches, barriers, exit, launches: no memory access.
    #[default]
    Compute,
    /// A load from global memory (through the L1).
    GlobalLoad,
    /// A store to global memory (written through to L2).
    GlobalStore,
    /// An atomic on global memory (performed at L2).
    GlobalAtomic,
    /// A load, store or atomic on the block's shared memory.
    Shared,
}

impl InstrClass {
    /// Whether it goes through the L1 to global memory.
    pub fn is_global(self) -> bool {
        matches!(self, InstrClass::GlobalLoad | InstrClass::GlobalStore | InstrClass::GlobalAtomic)
    }
}

impl Instr {
    /// What this instruction does, for issue gates.
    pub fn class(&self) -> InstrClass {
        match self {
            Instr::Load { space: Space::Global, .. } => InstrClass::GlobalLoad,
            Instr::Store { space: Space::Global, .. } => InstrClass::GlobalStore,
            Instr::Atomic { space: Space::Global, .. } => InstrClass::GlobalAtomic,
            // Local memory goes through the L1 like global data.
            Instr::Fill { .. } => InstrClass::GlobalLoad,
            Instr::Spill { .. } => InstrClass::GlobalStore,
            Instr::Load { .. } | Instr::Store { .. } | Instr::Atomic { .. } => InstrClass::Shared,
            _ => InstrClass::Compute,
        }
    }

    /// The unit that executes this instruction.
    #[inline]
    pub fn unit(&self) -> Unit {
        match self {
            Instr::Mov { .. }
            | Instr::Special { .. }
            | Instr::Alu { .. }
            | Instr::Unary { .. }
            | Instr::Fma { .. }
            | Instr::Cmp { .. }
            | Instr::Select { .. }
            | Instr::Shuffle { .. }
            | Instr::Vote { .. }
            | Instr::Bound { .. } => Unit::Alu,
            Instr::Wide { op, .. } if op.is_double() => Unit::Fp64,
            Instr::WideFma { .. } => Unit::Fp64,
            Instr::WideUnary { op, .. } if op.is_double() => Unit::Fp64,
            Instr::WideCmp { ty: WideCmpType::Double, .. } => Unit::Fp64,
            Instr::Wide { .. } | Instr::WideUnary { .. } | Instr::WideCmp { .. } => Unit::Alu,
            Instr::Sfu { .. } => Unit::Sfu,
            Instr::Load { .. }
            | Instr::Store { .. }
            | Instr::Atomic { .. }
            | Instr::Spill { .. }
            | Instr::Fill { .. } => Unit::Memory,
            Instr::Branch { .. } | Instr::Barrier | Instr::Exit | Instr::Launch { .. } => Unit::Control,
        }
    }

    /// The register written, if any (the first of a pair: see [`Instr::writes_pair`]).
    #[inline]
    pub fn dst(&self) -> Option<Reg> {
        match *self {
            Instr::Wide { dst, .. }
            | Instr::WideFma { dst, .. }
            | Instr::WideUnary { dst, .. }
            | Instr::WideCmp { dst, .. } => Some(dst),
            Instr::Mov { dst, .. }
            | Instr::Special { dst, .. }
            | Instr::Alu { dst, .. }
            | Instr::Unary { dst, .. }
            | Instr::Fma { dst, .. }
            | Instr::Sfu { dst, .. }
            | Instr::Cmp { dst, .. }
            | Instr::Select { dst, .. }
            | Instr::Shuffle { dst, .. }
            | Instr::Vote { dst, .. }
            | Instr::Load { dst, .. }
            | Instr::Fill { dst, .. }
            | Instr::Atomic { dst, .. } => Some(dst),
            Instr::Store { .. }
            | Instr::Spill { .. }
            | Instr::Bound { .. }
            | Instr::Branch { .. }
            | Instr::Barrier
            | Instr::Exit
            | Instr::Launch { .. } => None,
        }
    }

    /// Whether the destination is a register pair: `dst()` and the register after it.
    #[inline]
    pub fn writes_pair(&self) -> bool {
        match *self {
            Instr::Wide { .. } | Instr::WideFma { .. } => true,
            Instr::WideUnary { op, .. } => op.writes_pair(),
            Instr::Load { width: Width::Dword, .. } | Instr::Atomic { width: Width::Dword, .. } => true,
            Instr::Fill { pair, .. } => pair,
            _ => false,
        }
    }

    /// The registers read (up to six, the two of each pair read), for the scoreboard.
    #[inline]
    pub fn srcs(&self) -> [Option<Reg>; 6] {
        fn r(op: Operand) -> Option<Reg> {
            match op {
                Operand::Reg(r) => Some(r),
                Operand::Imm(_) => None,
            }
        }
        fn next(r: Reg) -> Option<Reg> {
            Some(Reg(r.0.wrapping_add(1)))
        }
        match *self {
            Instr::Mov { src, .. } => [r(src), None, None, None, None, None],
            // A launch reads up to 6 + params registers; the engine drains the scoreboard instead.
            Instr::Special { .. } | Instr::Barrier | Instr::Exit | Instr::Launch { .. } => {
                [None, None, None, None, None, None]
            }
            Instr::Alu { a, b, .. } | Instr::Sfu { a, b, .. } | Instr::Cmp { a, b, .. } => {
                [r(a), r(b), None, None, None, None]
            }
            Instr::Unary { a, .. } | Instr::Bound { index: a, .. } => [r(a), None, None, None, None, None],
            Instr::Fma { a, b, c, .. } => [r(a), r(b), r(c), None, None, None],
            Instr::Wide { a, b, .. } | Instr::WideCmp { a, b, .. } => [Some(a), next(a), Some(b), next(b), None, None],
            Instr::WideFma { a, b, c, .. } => [Some(a), next(a), Some(b), next(b), Some(c), next(c)],
            Instr::WideUnary { op, a, .. } => {
                [Some(a), if op.reads_pair() { next(a) } else { None }, None, None, None, None]
            }
            Instr::Select { cond, a, b, .. } => [Some(cond), r(a), r(b), None, None, None],
            Instr::Shuffle { value, b, width, .. } => [r(value), r(b), r(width), None, None, None],
            Instr::Vote { mask, pred, .. } => [r(mask), r(pred), None, None, None, None],
            Instr::Load { addr, .. } => [Some(addr), None, None, None, None, None],
            Instr::Fill { .. } => [None, None, None, None, None, None],
            Instr::Spill { src, pair, .. } => [Some(src), if pair { next(src) } else { None }, None, None, None, None],
            Instr::Store { addr, src, width: Width::Dword, .. } => {
                [Some(addr), r(src), r(src).and_then(next), None, None, None]
            }
            Instr::Store { addr, src, .. } => [Some(addr), r(src), None, None, None, None],
            // A 64-bit compare-and-swap reads five registers; the compared value's high word,
            // written with its low one or just after, is not waited for.
            Instr::Atomic { addr, src, compare, width: Width::Dword, .. } => {
                [Some(addr), r(src), r(src).and_then(next), r(compare), None, None]
            }
            Instr::Atomic { addr, src, compare, .. } => [Some(addr), r(src), r(compare), None, None, None],
            Instr::Branch { cond, .. } => [cond, None, None, None, None, None],
        }
    }
}

/// A compiled kernel: its code and what each thread and block needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kernel {
    /// Name shown in reports.
    pub name: String,
    /// Instructions; execution starts at index 0.
    pub code: Vec<Instr>,
    /// Registers each thread uses (at least the number of parameters).
    pub regs_per_thread: u32,
    /// Shared memory each thread block uses, in bytes.
    pub shared_bytes: u32,
    /// Number of parameters; at launch they are copied into registers `r0..`.
    pub params: u32,
    /// Words of local memory each thread uses for the registers the compiler spilled
    /// ([`Instr::Spill`]); 0 for most kernels.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spill_words: u32,
    /// The most threads a block of it may have (`__launch_bounds__`); 0: as many as an SM holds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_block_threads: u32,
    /// Debug info: what the `array` of each [`Instr::Bound`] refers to, for fault messages,
    /// such as ``local array `x` `` or ``dimension 2 of local array `m` ``. May be empty (a
    /// hand-built kernel): faults then say "a local array".
    #[serde(default)]
    pub local_arrays: Vec<String>,
    /// Debug info: where in the source each instruction that may fault comes from (by
    /// instruction index; line 0 where it is not known). May be empty (a hand-built kernel).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<SourcePos>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A line and column of a kernel's source (from 1; line 0: unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcePos {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
}

impl Kernel {
    /// The shared memory one block takes: the kernel's own arrays and `dynamic` bytes of its
    /// launch's (`extern __shared__`).
    pub fn block_shared_bytes(&self, dynamic: u32) -> u32 {
        self.shared_bytes.saturating_add(dynamic)
    }

    /// Where instruction `pc` comes from in the source, if the debug info says.
    pub fn source_of(&self, pc: u32) -> Option<SourcePos> {
        self.source.get(pc as usize).copied().filter(|p| p.line > 0)
    }

    /// What [`Instr::Bound`]'s `array` refers to, if the kernel's debug info says.
    pub fn local_array(&self, array: u16) -> Option<&str> {
        self.local_arrays.get(array as usize).map(String::as_str)
    }
}

/// Grid or block dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dim3 {
    /// Extent along x.
    pub x: u32,
    /// Extent along y.
    pub y: u32,
    /// Extent along z.
    pub z: u32,
}

impl Dim3 {
    /// A one-dimensional extent.
    pub const fn linear(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }

    /// Number of elements, saturating (validation rejects what overflows).
    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The coordinates of linear index `i` (x fastest).
    pub fn unflatten(&self, i: u32) -> [u32; 3] {
        [i % self.x, (i / self.x) % self.y, i / (self.x * self.y)]
    }

    /// The coordinate along `axis`.
    pub fn get(&self, axis: Axis) -> u32 {
        match axis {
            Axis::X => self.x,
            Axis::Y => self.y,
            Axis::Z => self.z,
        }
    }
}
