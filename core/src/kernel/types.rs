//! Value types and C's conversion rules, shared by the code generator and the host
//! evaluator, and the evaluation of operators on constants (with the same results as the ALU).

use alloc::format;
use alloc::string::String;
use core::fmt;

use super::ast::{BaseType, BinOp, Scalar, TypeExpr, UnOp};
use crate::exec::{alu, wide};
use crate::isa::{AluOp, CmpOp, CmpType, SfuOp, UnaryOp, WideCmpType, WideOp, WideUnaryOp, Width};

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Uint,
    Float,
    Bool,
    /// The narrow integers: held in a register extended to 32 bits (a value always in its
    /// type's range), 1 or 2 bytes in memory, and promoted to `int` by every operator.
    Char,
    UChar,
    Short,
    UShort,
    /// The 64-bit types: held in a register pair (a wide virtual register), 8 bytes in memory.
    Long,
    ULong,
    Double,
    Void,
    /// A byte address in global memory, or in the block's shared memory where `shared`.
    /// A pointer declaration names no space: a variable or parameter takes the space of the
    /// address it is given first (as nvcc infers it), and keeps it.
    Ptr {
        elem: Scalar,
        readonly: bool,
        shared: bool,
    },
    /// A struct of the file (by its index in the unit's structs). Only places (variables,
    /// memory) have this type: a struct is copied member by member.
    Struct(u16),
    /// `T**`: a byte address in global memory of an array of addresses of `elem`s, each in
    /// global memory too (an address read from memory has no space the compiler could know;
    /// CUDA's generic addressing would find it, this machine's separate loads cannot, so
    /// only global addresses are stored). `readonly` is the elements' `const`.
    PtrPtr {
        elem: Scalar,
        readonly: bool,
    },
    /// A byte address of a struct in global memory.
    StructPtr {
        id: u16,
        readonly: bool,
    },
    /// A cooperative group.
    Group(Group),
    /// The result of an expression that had an error (already reported): accepted anywhere,
    /// so one mistake gives one message.
    Error,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int => f.write_str("int"),
            Ty::Uint => f.write_str("unsigned"),
            Ty::Float => f.write_str("float"),
            Ty::Bool => f.write_str("bool"),
            Ty::Char => f.write_str("char"),
            Ty::UChar => f.write_str("unsigned char"),
            Ty::Short => f.write_str("short"),
            Ty::UShort => f.write_str("unsigned short"),
            Ty::Long => f.write_str("long long"),
            Ty::ULong => f.write_str("unsigned long long"),
            Ty::Double => f.write_str("double"),
            Ty::Void => f.write_str("void"),
            Ty::Ptr { elem, readonly, shared } => {
                let space = if *shared { "__shared__ " } else { "" };
                write!(f, "{space}{}{}*", if *readonly { "const " } else { "" }, Ty::from_scalar(*elem))
            }
            Ty::PtrPtr { elem, readonly } => {
                write!(f, "{}{}**", if *readonly { "const " } else { "" }, Ty::from_scalar(*elem))
            }
            // Messages that can name the struct do so through `Gen::type_name`.
            Ty::Struct(_) => f.write_str("struct"),
            Ty::StructPtr { readonly, .. } => write!(f, "{}struct*", if *readonly { "const " } else { "" }),
            Ty::Group(g) => g.fmt(f),
            Ty::Error => f.write_str("<error>"),
        }
    }
}

/// What a cooperative group is, which sets what its functions compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// Where a group is declared (`thread_group g`): any kind, taken from the initializer.
    Any,
    /// The thread block (`this_thread_block()`).
    Block,
    /// Consecutive threads of a warp, as many as given, a power of two up to 32
    /// (`tiled_partition<N>(…)`).
    Tile(u8),
    /// The lanes of a warp active where it was made (`coalesced_threads()`), whose mask its
    /// value holds.
    Coalesced,
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Group::Any => f.write_str("thread_group"),
            Group::Block => f.write_str("thread_block"),
            Group::Tile(n) => write!(f, "thread_block_tile<{n}>"),
            Group::Coalesced => f.write_str("coalesced_group"),
        }
    }
}

/// The type a variable or parameter declared `declared` takes from its first value, of type
/// `given` (already converted): a pointer keeps the memory space of the address it is given,
/// a group variable is the kind of group it is given; any other keeps its declared type.
pub(crate) fn declared_as(declared: Ty, given: Ty) -> Ty {
    match given {
        Ty::Ptr { .. } | Ty::Group(_) => given,
        _ => declared,
    }
}

/// "an `int`", "a `float*`": the article for messages.
pub(crate) fn a(ty: Ty) -> String {
    with_article(&format!("{ty}"))
}

/// "an `int`", "a `Node`": `text` in backticks after its article.
pub(crate) fn with_article(text: &str) -> String {
    let vowel =
        matches!(text.as_bytes().first(), Some(b'a' | b'e' | b'i' | b'o' | b'u' | b'A' | b'E' | b'I' | b'O' | b'U'));
    format!("{} `{text}`", if vowel { "an" } else { "a" })
}

impl Ty {
    pub fn from_scalar(s: Scalar) -> Ty {
        match s {
            Scalar::Int => Ty::Int,
            Scalar::Uint => Ty::Uint,
            Scalar::Float => Ty::Float,
            Scalar::Bool => Ty::Bool,
            Scalar::Char => Ty::Char,
            Scalar::UChar => Ty::UChar,
            Scalar::Short => Ty::Short,
            Scalar::UShort => Ty::UShort,
            Scalar::Long => Ty::Long,
            Scalar::ULong => Ty::ULong,
            Scalar::Double => Ty::Double,
        }
    }

    /// The scalar a value type is, if it is one.
    pub fn scalar(self) -> Option<Scalar> {
        Some(match self {
            Ty::Int => Scalar::Int,
            Ty::Uint => Scalar::Uint,
            Ty::Float => Scalar::Float,
            Ty::Bool => Scalar::Bool,
            Ty::Char => Scalar::Char,
            Ty::UChar => Scalar::UChar,
            Ty::Short => Scalar::Short,
            Ty::UShort => Scalar::UShort,
            Ty::Long => Scalar::Long,
            Ty::ULong => Scalar::ULong,
            Ty::Double => Scalar::Double,
            _ => return None,
        })
    }

    /// Whether it is a narrow integer (or `bool`): 1 or 2 bytes in memory.
    pub fn is_narrow(self) -> bool {
        matches!(self, Ty::Bool | Ty::Char | Ty::UChar | Ty::Short | Ty::UShort)
    }

    /// Whether it is a 64-bit type (a wide register).
    pub fn is_wide(self) -> bool {
        matches!(self, Ty::Long | Ty::ULong | Ty::Double)
    }

    /// Whether it is a floating-point type.
    pub fn is_floating(self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }

    /// How a load or store of a value of this type moves it.
    pub fn width(self) -> Width {
        match self {
            Ty::Bool | Ty::UChar => Width::U8,
            Ty::Char => Width::S8,
            Ty::Short => Width::S16,
            Ty::UShort => Width::U16,
            Ty::Long | Ty::ULong | Ty::Double => Width::Dword,
            _ => Width::Word,
        }
    }

    /// The value type a written type denotes (`None` for host-only types).
    pub fn from_type_expr(t: &TypeExpr) -> Option<Ty> {
        let scalar = match t.base {
            BaseType::Void if !t.pointer => return Some(Ty::Void),
            BaseType::Scalar(s) => s,
            BaseType::Struct(id) if t.pointer => return Some(Ty::StructPtr { id, readonly: t.pointee_const }),
            BaseType::Struct(id) => return Some(Ty::Struct(id)),
            BaseType::Group if !t.pointer => return Some(Ty::Group(Group::Any)),
            _ => return None,
        };
        Some(if t.indirect {
            Ty::PtrPtr { elem: scalar, readonly: t.pointee_const }
        } else if t.pointer {
            Ty::Ptr { elem: scalar, readonly: t.pointee_const, shared: false }
        } else {
            Ty::from_scalar(scalar)
        })
    }

    pub fn is_arith(self) -> bool {
        self.is_integer() || self.is_floating()
    }

    pub fn is_integer(self) -> bool {
        matches!(self, Ty::Int | Ty::Uint | Ty::Long | Ty::ULong | Ty::Error) || self.is_narrow()
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Ty::Ptr { .. } | Ty::PtrPtr { .. } | Ty::StructPtr { .. })
    }

    /// What a pointer addresses: the element's type, whether it is read-only, and whether it
    /// is in shared memory (else global). `None` for a value that is not a pointer.
    pub fn pointee(self) -> Option<(Ty, bool, bool)> {
        match self {
            Ty::Ptr { elem, readonly, shared } => Some((Ty::from_scalar(elem), readonly, shared)),
            Ty::PtrPtr { elem, readonly } => Some((Ty::Ptr { elem, readonly, shared: false }, false, false)),
            Ty::StructPtr { id, readonly } => Some((Ty::Struct(id), readonly, false)),
            _ => None,
        }
    }

    /// Integer promotion: `bool`, `char` and `short` compute as `int`.
    pub fn promote(self) -> Ty {
        if self.is_narrow() {
            Ty::Int
        } else {
            self
        }
    }

    /// The range of an integer type, for conversions between them.
    fn range(self) -> (i64, i64) {
        match self {
            Ty::Bool => (0, 1),
            Ty::Char => (i8::MIN as i64, i8::MAX as i64),
            Ty::UChar => (0, u8::MAX as i64),
            Ty::Short => (i16::MIN as i64, i16::MAX as i64),
            Ty::UShort => (0, u16::MAX as i64),
            Ty::Uint => (0, u32::MAX as i64),
            _ => (i32::MIN as i64, i32::MAX as i64),
        }
    }
}

/// C's usual arithmetic conversions for two arithmetic operands.
pub(crate) fn common(a: Ty, b: Ty) -> Ty {
    let (a, b) = (a.promote(), b.promote());
    if a == Ty::Error || b == Ty::Error {
        Ty::Error
    } else if a == Ty::Double || b == Ty::Double {
        Ty::Double
    } else if a == Ty::Float || b == Ty::Float {
        Ty::Float
    } else if a == Ty::ULong || b == Ty::ULong {
        Ty::ULong
    } else if a == Ty::Long || b == Ty::Long {
        // Every `unsigned` is a `long long`.
        Ty::Long
    } else if a == Ty::Uint || b == Ty::Uint {
        Ty::Uint
    } else {
        Ty::Int
    }
}

/// How a binary operator on non-pointer operands is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lowered {
    Alu(AluOp),
    Sfu(SfuOp),
    Cmp(CmpOp, CmpType),
    /// On 64-bit operands (a shift's right one converted to `long long` too).
    Wide(WideOp),
    WideCmp(CmpOp, WideCmpType),
    /// `&&` / `||` on booleans (both sides already evaluated).
    Logical(bool),
}

/// A binary operator's typing: operands are converted to `operand` (for shifts, only the
/// left one; the right stays an integer), and the result has type `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BinaryTyping {
    pub operand: Ty,
    pub result: Ty,
    pub lowered: Lowered,
}

/// Types `a op b` for arithmetic operands, or says why it is not allowed.
pub(crate) fn binary_typing(op: BinOp, a: Ty, b: Ty) -> Result<BinaryTyping, String> {
    if !a.is_arith() || !b.is_arith() {
        return Err(format!("operator `{}` cannot be applied to {} and {}", op.symbol(), self::a(a), self::a(b)));
    }
    if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
        return Ok(BinaryTyping {
            operand: Ty::Bool,
            result: Ty::Bool,
            lowered: Lowered::Logical(op == BinOp::LogAnd),
        });
    }
    if matches!(op, BinOp::Shl | BinOp::Shr) {
        let left = a.promote();
        if left.is_floating() || b.is_floating() {
            return Err(format!(
                "operator `{}` needs integer operands, found {} and {}",
                op.symbol(),
                self::a(a),
                self::a(b)
            ));
        }
        let lowered = match (op, left) {
            (BinOp::Shl, Ty::Long | Ty::ULong) => Lowered::Wide(WideOp::Shl),
            (_, Ty::ULong) => Lowered::Wide(WideOp::ShrU),
            (_, Ty::Long) => Lowered::Wide(WideOp::ShrS),
            (BinOp::Shl, _) => Lowered::Alu(AluOp::Shl),
            (_, Ty::Uint) => Lowered::Alu(AluOp::ShrU),
            _ => Lowered::Alu(AluOp::ShrS),
        };
        return Ok(BinaryTyping { operand: left, result: left, lowered });
    }
    let t = common(a, b);
    if t.is_wide() {
        return wide_binary_typing(op, t, a, b);
    }
    let float = t == Ty::Float;
    let unsigned = t == Ty::Uint;
    if op.is_comparison() {
        let cmp = match op {
            BinOp::Lt => CmpOp::Lt,
            BinOp::Le => CmpOp::Le,
            BinOp::Gt => CmpOp::Gt,
            BinOp::Ge => CmpOp::Ge,
            BinOp::Eq => CmpOp::Eq,
            _ => CmpOp::Ne,
        };
        let ty = if float {
            CmpType::Float
        } else if unsigned {
            CmpType::Uint
        } else {
            CmpType::Int
        };
        return Ok(BinaryTyping { operand: t, result: Ty::Bool, lowered: Lowered::Cmp(cmp, ty) });
    }
    let lowered = match op {
        BinOp::Add => Lowered::Alu(if float { AluOp::FAdd } else { AluOp::Add }),
        BinOp::Sub => Lowered::Alu(if float { AluOp::FSub } else { AluOp::Sub }),
        BinOp::Mul => Lowered::Alu(if float { AluOp::FMul } else { AluOp::Mul }),
        BinOp::Div if float => Lowered::Sfu(SfuOp::FDiv),
        BinOp::Div => Lowered::Alu(if unsigned { AluOp::DivU } else { AluOp::DivS }),
        _ if float => {
            let help = if op == BinOp::Rem { " (in a kernel, `fmodf(x, y)`)" } else { "" };
            return Err(format!(
                "operator `{}` needs integer operands, found {} and {}{help}",
                op.symbol(),
                self::a(a),
                self::a(b)
            ));
        }
        BinOp::Rem => Lowered::Alu(if unsigned { AluOp::RemU } else { AluOp::RemS }),
        BinOp::BitAnd => Lowered::Alu(AluOp::And),
        BinOp::BitOr => Lowered::Alu(AluOp::Or),
        _ => Lowered::Alu(AluOp::Xor),
    };
    Ok(BinaryTyping { operand: t, result: t, lowered })
}

/// The comparison an operator is, if it is one.
fn comparison(op: BinOp) -> Option<CmpOp> {
    Some(match op {
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        BinOp::Ge => CmpOp::Ge,
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        _ => return None,
    })
}

/// [`binary_typing`] where the operands' common type `t` is 64-bit.
fn wide_binary_typing(op: BinOp, t: Ty, a: Ty, b: Ty) -> Result<BinaryTyping, String> {
    let double = t == Ty::Double;
    if let Some(cmp) = comparison(op) {
        let ty = match t {
            Ty::Double => WideCmpType::Double,
            Ty::ULong => WideCmpType::Ulong,
            _ => WideCmpType::Long,
        };
        return Ok(BinaryTyping { operand: t, result: Ty::Bool, lowered: Lowered::WideCmp(cmp, ty) });
    }
    let unsigned = t == Ty::ULong;
    let wide = match op {
        BinOp::Add => {
            if double {
                WideOp::DAdd
            } else {
                WideOp::Add
            }
        }
        BinOp::Sub => {
            if double {
                WideOp::DSub
            } else {
                WideOp::Sub
            }
        }
        BinOp::Mul => {
            if double {
                WideOp::DMul
            } else {
                WideOp::Mul
            }
        }
        BinOp::Div if double => WideOp::DDiv,
        BinOp::Div => {
            if unsigned {
                WideOp::DivU
            } else {
                WideOp::DivS
            }
        }
        _ if double => {
            let help = if op == BinOp::Rem { " (in a kernel, `fmod(x, y)`)" } else { "" };
            return Err(format!(
                "operator `{}` needs integer operands, found {} and {}{help}",
                op.symbol(),
                self::a(a),
                self::a(b)
            ));
        }
        BinOp::Rem => {
            if unsigned {
                WideOp::RemU
            } else {
                WideOp::RemS
            }
        }
        BinOp::BitAnd => WideOp::And,
        BinOp::BitOr => WideOp::Or,
        _ => WideOp::Xor,
    };
    Ok(BinaryTyping { operand: t, result: t, lowered: Lowered::Wide(wide) })
}

/// `a op b` on constants, exactly as the machine computes it.
pub(crate) fn eval_lowered(l: Lowered, a: u32, b: u32) -> u32 {
    match l {
        Lowered::Alu(op) => alu::alu(op, a, b),
        Lowered::Sfu(op) => alu::sfu(op, a, b),
        Lowered::Cmp(op, ty) => alu::compare(op, ty, a, b),
        // 32-bit constants never meet a 64-bit operator: see `eval_wide`.
        Lowered::Wide(_) | Lowered::WideCmp(..) => 0,
        Lowered::Logical(true) => u32::from(a != 0 && b != 0),
        Lowered::Logical(false) => u32::from(a != 0 || b != 0),
    }
}

/// `x op y` on typed constants: the result and its type, or why the operator does not apply.
pub(crate) fn fold_binary(op: BinOp, x: u32, tx: Ty, y: u32, ty: Ty) -> Result<(u32, Ty), String> {
    let typing = binary_typing(op, tx, ty)?;
    let (x_to, y_to) = match typing.lowered {
        Lowered::Logical(_) => (Ty::Bool, Ty::Bool),
        _ if matches!(op, BinOp::Shl | BinOp::Shr) => (typing.operand, ty.promote()),
        _ => (typing.operand, typing.operand),
    };
    let (x, y) = (convert_const(x, tx, x_to), convert_const(y, ty, y_to));
    Ok((eval_lowered(typing.lowered, x, y), typing.result))
}

/// `op x` on a typed constant (`None` where the operator does not apply).
pub(crate) fn fold_unary(op: UnOp, x: u32, t: Ty) -> Option<(u32, Ty)> {
    if !t.is_arith() || t == Ty::Error {
        return None;
    }
    let p = t.promote();
    let v = convert_const(x, t, p);
    match op {
        UnOp::Plus => Some((v, p)),
        UnOp::Neg if p == Ty::Float => Some((alu::unary(UnaryOp::FNeg, v), p)),
        UnOp::Neg => Some((v.wrapping_neg(), p)),
        UnOp::BitNot if p != Ty::Float => Some((!v, p)),
        UnOp::Not => Some((convert_const(v, p, Ty::Bool) ^ 1, Ty::Bool)),
        _ => None,
    }
}

/// What converting a value between arithmetic types takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conversion {
    /// Same bits (`int` ↔ `unsigned`, `bool` → integer).
    Free,
    /// One ALU operation.
    Unary(UnaryOp),
    /// Two ALU operations in turn (a float to a narrow integer).
    Then(UnaryOp, UnaryOp),
    /// `!= 0` under this comparison type (to `bool`).
    NonZero(CmpType),
    /// One 64-bit conversion ([`WideUnaryOp`]).
    Wide(WideUnaryOp),
    /// A 64-bit conversion, then a narrowing (a `double` to a narrow integer).
    WideThen(WideUnaryOp, UnaryOp),
    /// The low word of a 64-bit integer (to `int` or `unsigned`).
    Low,
    /// The low word, then a narrowing.
    LowThen(UnaryOp),
    /// `!= 0` of a 64-bit value (to `bool`).
    WideNonZero(WideCmpType),
}

/// How an arithmetic value of type `from` becomes `to` (both arithmetic).
pub(crate) fn conversion(from: Ty, to: Ty) -> Conversion {
    if from.is_wide() || to.is_wide() {
        return wide_conversion(from, to);
    }
    match (from, to) {
        (f, t) if f == t => Conversion::Free,
        (Ty::Float, Ty::Bool) => Conversion::NonZero(CmpType::Float),
        (_, Ty::Bool) => Conversion::NonZero(CmpType::Int),
        (Ty::Uint, Ty::Float) => Conversion::Unary(UnaryOp::UintToFloat),
        (_, Ty::Float) => Conversion::Unary(UnaryOp::IntToFloat),
        (Ty::Float, Ty::Uint) => Conversion::Unary(UnaryOp::FloatToUint),
        // To a narrow type from a float: through `int`, then narrowed.
        (Ty::Float, t) if t.is_narrow() => Conversion::Then(UnaryOp::FloatToInt, narrowing(t)),
        (Ty::Float, _) => Conversion::Unary(UnaryOp::FloatToInt),
        // Between integers: the same bits where every value of `from` is one of `to`; C's
        // modular conversion (the low bytes, extended) where not.
        (f, t) if t.is_narrow() && !(t.range().0 <= f.range().0 && f.range().1 <= t.range().1) => {
            Conversion::Unary(narrowing(t))
        }
        _ => Conversion::Free,
    }
}

/// [`conversion`] where either side is 64-bit: C's rules, as nvcc's `cvt` instructions
/// carry them out (integers modulo 2^64 or 2^32, floats truncated toward zero).
fn wide_conversion(from: Ty, to: Ty) -> Conversion {
    use WideUnaryOp::*;
    let integer64 = |t: Ty| matches!(t, Ty::Long | Ty::ULong);
    match (from, to) {
        (f, t) if f == t => Conversion::Free,
        (f, t) if integer64(f) && integer64(t) => Conversion::Free,
        (Ty::Double, Ty::Bool) => Conversion::WideNonZero(WideCmpType::Double),
        (_, Ty::Bool) => Conversion::WideNonZero(WideCmpType::Long),
        (Ty::Double, Ty::Float) => Conversion::Wide(DoubleToFloat),
        (Ty::Double, Ty::Int) => Conversion::Wide(DoubleToInt),
        (Ty::Double, Ty::Uint) => Conversion::Wide(DoubleToUint),
        (Ty::Double, Ty::Long) => Conversion::Wide(DoubleToLong),
        (Ty::Double, Ty::ULong) => Conversion::Wide(DoubleToUlong),
        (Ty::Double, t) => Conversion::WideThen(DoubleToInt, narrowing(t)),
        (Ty::Long, Ty::Double) => Conversion::Wide(LongToDouble),
        (Ty::ULong, Ty::Double) => Conversion::Wide(UlongToDouble),
        (Ty::Long, Ty::Float) => Conversion::Wide(LongToFloat),
        (Ty::ULong, Ty::Float) => Conversion::Wide(UlongToFloat),
        (f, Ty::Int | Ty::Uint) if integer64(f) => Conversion::Low,
        (f, t) if integer64(f) => Conversion::LowThen(narrowing(t)),
        (Ty::Float, Ty::Double) => Conversion::Wide(FloatToDouble),
        (Ty::Uint, Ty::Double) => Conversion::Wide(UintToDouble),
        (_, Ty::Double) => Conversion::Wide(IntToDouble),
        (Ty::Float, Ty::Long) => Conversion::Wide(FloatToLong),
        (Ty::Float, _) => Conversion::Wide(FloatToUlong),
        // Narrow values are held extended, so their sign is right for either extension.
        (Ty::Uint | Ty::UChar | Ty::UShort | Ty::Bool, _) => Conversion::Wide(UintToLong),
        _ => Conversion::Wide(IntToLong),
    }
}

/// Converts a constant of any arithmetic type; a 32-bit value is in the low word.
pub(crate) fn convert_bits(bits: u64, from: Ty, to: Ty) -> u64 {
    let word = bits as u32;
    match conversion(from, to) {
        Conversion::Wide(op) => wide::wide_unary(op, bits),
        Conversion::WideThen(op, then) => alu::unary(then, wide::wide_unary(op, bits) as u32) as u64,
        Conversion::Low => word as u64,
        Conversion::LowThen(then) => alu::unary(then, word) as u64,
        Conversion::WideNonZero(ty) => wide::wide_compare(CmpOp::Ne, ty, bits, 0) as u64,
        _ if from.is_wide() && to.is_wide() => bits,
        _ => convert_const(word, from, to) as u64,
    }
}

/// `a op b` on 64-bit constants (both of the operator's operand type), as the machine
/// computes it; a comparison's result is in the low word.
pub(crate) fn eval_wide(l: Lowered, a: u64, b: u64) -> u64 {
    match l {
        Lowered::Wide(op) => wide::wide(op, a, b),
        Lowered::WideCmp(op, ty) => wide::wide_compare(op, ty, a, b) as u64,
        other => eval_lowered(other, a as u32, b as u32) as u64,
    }
}

/// The operation that brings a word into narrow type `t`'s range.
fn narrowing(t: Ty) -> UnaryOp {
    match t {
        Ty::Char => UnaryOp::Sext8,
        Ty::Short => UnaryOp::Sext16,
        Ty::UShort => UnaryOp::Zext16,
        _ => UnaryOp::Zext8,
    }
}

/// Converts a constant.
pub(crate) fn convert_const(bits: u32, from: Ty, to: Ty) -> u32 {
    match conversion(from, to) {
        Conversion::Free => bits,
        Conversion::Unary(op) => alu::unary(op, bits),
        Conversion::Then(first, then) => alu::unary(then, alu::unary(first, bits)),
        Conversion::NonZero(ty) => alu::compare(CmpOp::Ne, ty, bits, 0),
        // A 64-bit side: see `convert_bits`.
        _ => convert_bits(bits as u64, from, to) as u32,
    }
}

/// Whether a value of type `from` may be assigned (or passed) to `to`, and if not, why.
/// Arithmetic types convert into each other as in C; pointers need the same element type
/// and may not lose `const`; the constant 0 is a null pointer.
pub(crate) fn assignable(from: Ty, to: Ty, is_zero_const: bool) -> Result<(), AssignError> {
    match (from, to) {
        (Ty::Error, _) | (_, Ty::Error) => Ok(()),
        (f, t) if f.is_arith() && t.is_arith() => Ok(()),
        (Ty::Ptr { elem: a, readonly: ra, .. }, Ty::Ptr { elem: b, readonly: rb, .. }) => {
            pointer_to_pointer(a == b, ra, rb)
        }
        (Ty::StructPtr { id: a, readonly: ra }, Ty::StructPtr { id: b, readonly: rb }) => {
            pointer_to_pointer(a == b, ra, rb)
        }
        // As C++: `float**` does not become `const float**` either (it would let a `const
        // float*` be stored where a `float*` is read).
        (Ty::PtrPtr { elem: a, readonly: ra }, Ty::PtrPtr { elem: b, readonly: rb }) if a == b && ra == rb => Ok(()),
        (Ty::Struct(a), Ty::Struct(b)) if a == b => Ok(()),
        (Ty::Group(a), Ty::Group(b)) if a == b || b == Group::Any => Ok(()),
        (f, t) if t.is_ptr() && f.is_integer() && is_zero_const => Ok(()),
        (f, Ty::Bool) if f.is_ptr() => Ok(()),
        _ => Err(AssignError::Mismatch),
    }
}

/// A pointer to a pointer: the same pointee, and no `const` lost.
fn pointer_to_pointer(same_pointee: bool, from_readonly: bool, to_readonly: bool) -> Result<(), AssignError> {
    if !same_pointee {
        Err(AssignError::Mismatch)
    } else if from_readonly && !to_readonly {
        Err(AssignError::DropsConst)
    } else {
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AssignError {
    Mismatch,
    DropsConst,
    /// A pointer into shared memory where one into global memory must be, or the reverse.
    Space,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common(Ty::Int, Ty::Float), Ty::Float);
        assert_eq!(common(Ty::Int, Ty::Uint), Ty::Uint);
        assert_eq!(common(Ty::Bool, Ty::Bool), Ty::Int);
        let t = binary_typing(BinOp::Lt, Ty::Int, Ty::Uint).unwrap();
        assert_eq!(t.lowered, Lowered::Cmp(CmpOp::Lt, CmpType::Uint));
        let t = binary_typing(BinOp::Shr, Ty::Uint, Ty::Int).unwrap();
        assert_eq!((t.lowered, t.result), (Lowered::Alu(AluOp::ShrU), Ty::Uint));
        let t = binary_typing(BinOp::Div, Ty::Float, Ty::Int).unwrap();
        assert_eq!(t.lowered, Lowered::Sfu(SfuOp::FDiv));
        assert!(binary_typing(BinOp::Rem, Ty::Float, Ty::Int).is_err());
    }

    #[test]
    fn constants_evaluate_like_the_alu() {
        // -1 < 0u is false in C: -1 converts to 0xFFFFFFFF.
        let t = binary_typing(BinOp::Lt, Ty::Int, Ty::Uint).unwrap();
        assert_eq!(eval_lowered(t.lowered, u32::MAX, 0), 0);
        assert_eq!(eval_lowered(Lowered::Alu(AluOp::DivS), 7, 0), u32::MAX);
        assert_eq!(eval_lowered(Lowered::Alu(AluOp::Add), i32::MAX as u32, 1), i32::MIN as u32);
        assert_eq!(convert_const((-2.7f32).to_bits(), Ty::Float, Ty::Int), (-2i32) as u32);
        assert_eq!(convert_const(3, Ty::Uint, Ty::Float), 3.0f32.to_bits());
        assert_eq!(convert_const((-0.0f32).to_bits(), Ty::Float, Ty::Bool), 0);
    }

    #[test]
    fn messages_use_the_right_article() {
        assert_eq!(a(Ty::Int), "an `int`");
        assert_eq!(a(Ty::Ptr { elem: Scalar::Float, readonly: false, shared: false }), "a `float*`");
        assert_eq!(a(Ty::Uint), "an `unsigned`");
    }
}
