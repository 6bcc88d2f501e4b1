//! Value types and C's conversion rules, shared by the code generator and the host
//! evaluator, and the evaluation of operators on constants (with the same results as the ALU).

use alloc::format;
use alloc::string::String;
use core::fmt;

use super::ast::{BaseType, BinOp, Scalar, TypeExpr, UnOp};
use crate::exec::alu;
use crate::isa::{AluOp, CmpOp, CmpType, SfuOp, UnaryOp, Width};

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
            Ty::Void => f.write_str("void"),
            Ty::Ptr { elem, readonly, shared } => {
                let space = if *shared { "__shared__ " } else { "" };
                write!(f, "{space}{}{}*", if *readonly { "const " } else { "" }, Ty::from_scalar(*elem))
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
            _ => return None,
        })
    }

    /// Whether it is a narrow integer (or `bool`): 1 or 2 bytes in memory.
    pub fn is_narrow(self) -> bool {
        matches!(self, Ty::Bool | Ty::Char | Ty::UChar | Ty::Short | Ty::UShort)
    }

    /// How a load or store of a value of this type moves it.
    pub fn width(self) -> Width {
        match self {
            Ty::Bool | Ty::UChar => Width::U8,
            Ty::Char => Width::S8,
            Ty::Short => Width::S16,
            Ty::UShort => Width::U16,
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
        Some(if t.pointer {
            Ty::Ptr { elem: scalar, readonly: t.pointee_const, shared: false }
        } else {
            Ty::from_scalar(scalar)
        })
    }

    pub fn is_arith(self) -> bool {
        self.is_integer() || self == Ty::Float
    }

    pub fn is_integer(self) -> bool {
        matches!(self, Ty::Int | Ty::Uint | Ty::Error) || self.is_narrow()
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Ty::Ptr { .. } | Ty::StructPtr { .. })
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
    } else if a == Ty::Float || b == Ty::Float {
        Ty::Float
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
        if left == Ty::Float || b == Ty::Float {
            return Err(format!(
                "operator `{}` needs integer operands, found {} and {}",
                op.symbol(),
                self::a(a),
                self::a(b)
            ));
        }
        let alu = match (op, left) {
            (BinOp::Shl, _) => AluOp::Shl,
            (_, Ty::Uint) => AluOp::ShrU,
            _ => AluOp::ShrS,
        };
        return Ok(BinaryTyping { operand: left, result: left, lowered: Lowered::Alu(alu) });
    }
    let t = common(a, b);
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
            let help = if op == BinOp::Rem { " (there is no `fmodf`)" } else { "" };
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

/// `a op b` on constants, exactly as the machine computes it.
pub(crate) fn eval_lowered(l: Lowered, a: u32, b: u32) -> u32 {
    match l {
        Lowered::Alu(op) => alu::alu(op, a, b),
        Lowered::Sfu(op) => alu::sfu(op, a, b),
        Lowered::Cmp(op, ty) => alu::compare(op, ty, a, b),
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
}

/// How an arithmetic value of type `from` becomes `to` (both arithmetic).
pub(crate) fn conversion(from: Ty, to: Ty) -> Conversion {
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
        (Ty::Struct(a), Ty::Struct(b)) if a == b => Ok(()),
        (Ty::Group(a), Ty::Group(b)) if a == b || b == Group::Any => Ok(()),
        (f, Ty::Ptr { .. } | Ty::StructPtr { .. }) if f.is_integer() && is_zero_const => Ok(()),
        (Ty::Ptr { .. } | Ty::StructPtr { .. }, Ty::Bool) => Ok(()),
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
