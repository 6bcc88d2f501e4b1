//! Expressions: typing, C's conversions, constant folding, memory addressing, built-ins and
//! short-circuit evaluation. Part of [`super::codegen::Gen`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::*;
use super::builtins::{ATOMICS, HOST_ONLY, MATH, VECTORS as BUILTIN_VECTORS};
use super::codegen::{Gen, Label, Pure, Sym};
use super::diag::{suggest, Span};
use super::types::{
    a, assignable, binary_typing, common, conversion, convert_const, fold_binary, fold_unary, AssignError, Conversion,
    Lowered, Ty,
};
use super::vcode::{VInstr, VOp, VReg};
use crate::exec::alu;
use crate::isa::{AluOp, AtomicOp, Axis, CmpOp, CmpType, SfuOp, Space, Special, UnaryOp, WideCmpType, Width};

/// A computed value: where it is and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Val {
    pub op: VOp,
    pub ty: Ty,
}

impl Val {
    pub fn error() -> Val {
        Val { op: VOp::Imm(0), ty: Ty::Error }
    }

    /// The value of an expression that has none to give but is not an error (a struct
    /// assignment): used as an operand, its type says what is wrong.
    pub fn error_free(ty: Ty) -> Val {
        Val { op: VOp::Imm(0), ty }
    }

    pub(super) fn imm(bits: u32, ty: Ty) -> Val {
        Val { op: VOp::Imm(bits), ty }
    }
}

/// Where a value is being converted to, for the wording of a mismatch.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ctx<'s> {
    Assign,
    Store,
    Init,
    /// An argument of a device function or a built-in.
    Arg {
        func: &'s str,
        index: usize,
    },
    /// An argument of a device-side launch.
    Launch {
        kernel: &'s str,
        index: usize,
    },
    Return(&'s str),
}

/// Where a reference is bound, for the wording of a mistake: an argument of a device function,
/// or a reference variable (`T& name = …;`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Binding<'s> {
    Arg { func: &'s str, index: usize },
    Var(&'s str),
}

impl<'s> Binding<'s> {
    fn ctx(self) -> Ctx<'s> {
        match self {
            Binding::Arg { func, index } => Ctx::Arg { func, index },
            Binding::Var(_) => Ctx::Init,
        }
    }

    /// Bound to a temporary object of the wrong struct.
    fn not_that_object(self, want: &str, got: &str) -> String {
        match self {
            Binding::Arg { func, index } => {
                format!("argument {} of `{func}` is a reference to {want}, not {got}", index + 1)
            }
            Binding::Var(name) => format!("`{name}` is a reference to {want}, not to {got}"),
        }
    }

    /// Bound to a place of the wrong type (`what`).
    fn not_that_place(self, want: &str, what: &str) -> String {
        match self {
            Binding::Arg { func, index } => {
                format!("argument {} of `{func}` is a reference to {want}: pass one, not {what}", index + 1)
            }
            Binding::Var(name) => format!("`{name}` is a reference to {want}: bind it to one, not to {what}"),
        }
    }

    /// A non-`const` reference bound to a value.
    fn not_a_value(self, want: &str) -> String {
        match self {
            Binding::Arg { func, index } => format!(
                "argument {} of `{func}` is a reference to {want}: pass a variable or an element, not a value",
                index + 1
            ),
            Binding::Var(name) => {
                format!("`{name}` is a reference: bind it to a variable, an element or a member, not a value")
            }
        }
    }
}

/// Something that can be written: a variable, a local-array element or a memory word (or a
/// struct: a struct variable's registers, a struct in memory).
#[derive(Clone, Debug)]
pub(super) enum Place {
    Var {
        reg: VReg,
        ty: Ty,
        name: String,
        is_const: bool,
    },
    /// A local-array element: a constant index, or a register holding the flat index.
    Local {
        regs: Vec<VReg>,
        ty: Ty,
        index: Result<usize, VReg>,
    },
    /// `base + offset` (just `offset` without a base) in `space`; of type `Ty::Struct` for a
    /// whole struct there.
    Mem {
        space: Space,
        base: Option<VReg>,
        offset: i32,
        ty: Ty,
        readonly: bool,
    },
    /// A struct variable: one register per leaf (`structs::leaves`).
    Regs {
        regs: Vec<VReg>,
        id: u16,
        name: String,
        is_const: bool,
    },
    /// An array member of a struct in memory, to be indexed.
    MemArray {
        space: Space,
        base: Option<VReg>,
        offset: i32,
        elem: Ty,
        dims: Vec<u32>,
        readonly: bool,
    },
    Error,
}

impl Place {
    pub(super) fn ty(&self) -> Ty {
        match self {
            Place::Var { ty, .. } | Place::Local { ty, .. } | Place::Mem { ty, .. } => *ty,
            Place::Regs { id, .. } => Ty::Struct(*id),
            Place::MemArray { .. } | Place::Error => Ty::Error,
        }
    }
}

/// Where an array in memory starts, for [`Gen::array_index`].
#[derive(Clone, Copy)]
struct ArrayAt {
    space: Space,
    base: Option<VReg>,
    offset: i32,
    readonly: bool,
}

const FLOAT_ONE: u32 = 0x3F80_0000;

/// The memory a pointer's address is in.
/// CUDA's bit casts: (the type the argument is taken as, the type its bits are read as).
fn reinterpretation(name: &str) -> Option<(Ty, Ty)> {
    Some(match name {
        "__int_as_float" => (Ty::Int, Ty::Float),
        "__uint_as_float" => (Ty::Uint, Ty::Float),
        "__float_as_int" => (Ty::Float, Ty::Int),
        "__float_as_uint" => (Ty::Float, Ty::Uint),
        "__longlong_as_double" => (Ty::Long, Ty::Double),
        "__double_as_longlong" => (Ty::Double, Ty::Long),
        _ => return None,
    })
}

fn space_of(shared: bool) -> Space {
    if shared {
        Space::Shared
    } else {
        Space::Global
    }
}

impl Gen<'_, '_> {
    // ---- instructions with folding ------------------------------------------------------

    pub(super) fn alu(&mut self, op: AluOp, a: VOp, b: VOp) -> VOp {
        use AluOp::*;
        use VOp::Imm;
        if let (Imm(x), Imm(y)) = (a, b) {
            return Imm(alu::alu(op, x, y));
        }
        match (op, a, b) {
            (Add | Sub | Or | Xor | Shl | ShrU | ShrS, x, Imm(0)) | (Add | Or | Xor, Imm(0), x) => return x,
            (Mul, x, Imm(1)) | (Mul, Imm(1), x) | (DivS | DivU, x, Imm(1)) => return x,
            (Mul | And, _, Imm(0)) | (Mul | And, Imm(0), _) => return Imm(0),
            (FMul, x, Imm(FLOAT_ONE)) | (FMul, Imm(FLOAT_ONE), x) => return x,
            _ => {}
        }
        let (op, a, b) = match (op, a, b) {
            (Mul, x, Imm(c)) | (Mul, Imm(c), x) if c.is_power_of_two() => (Shl, x, Imm(c.trailing_zeros())),
            (DivU, x, Imm(c)) if c.is_power_of_two() => (ShrU, x, Imm(c.trailing_zeros())),
            (RemU, x, Imm(c)) if c.is_power_of_two() => (And, x, Imm(c - 1)),
            // Constants second reads better in listings; these operations commute.
            (Add | Mul | And | Or | Xor | MinS | MaxS | MinU | MaxU | FAdd | FMul | FMin | FMax, Imm(c), x) => {
                (op, x, Imm(c))
            }
            other => other,
        };
        self.pure_op(Pure::Alu(op, a, b), |dst| VInstr::Alu { op, dst, a, b })
    }

    pub(super) fn unary_op(&mut self, op: UnaryOp, a: VOp) -> VOp {
        if let VOp::Imm(x) = a {
            return VOp::Imm(alu::unary(op, x));
        }
        self.pure_op(Pure::Unary(op, a), |dst| VInstr::Unary { op, dst, a })
    }

    /// `reg == k` in a register (for `switch`).
    pub(super) fn cmp_eq(&mut self, reg: VReg, k: u32) -> VReg {
        let hit = self.cmp(CmpOp::Eq, CmpType::Int, VOp::Reg(reg), VOp::Imm(k));
        self.in_reg(hit)
    }

    fn cmp(&mut self, op: CmpOp, ty: CmpType, a: VOp, b: VOp) -> VOp {
        if let (VOp::Imm(x), VOp::Imm(y)) = (a, b) {
            return VOp::Imm(alu::compare(op, ty, x, y));
        }
        self.pure_op(Pure::Cmp(op, ty, a, b), |dst| VInstr::Cmp { op, ty, dst, a, b })
    }

    fn sfu(&mut self, op: SfuOp, a: VOp, b: VOp) -> VOp {
        if let (VOp::Imm(x), VOp::Imm(y)) = (a, b) {
            return VOp::Imm(alu::sfu(op, x, y));
        }
        self.pure_op(Pure::Sfu(op, a, b), |dst| VInstr::Sfu { op, dst, a, b })
    }

    pub(super) fn special(&mut self, which: Special) -> VOp {
        self.pure_op(Pure::Special(which), |dst| VInstr::Special { dst, which })
    }

    pub(super) fn in_reg(&mut self, v: VOp) -> VReg {
        match v {
            VOp::Reg(r) => r,
            VOp::Imm(_) => {
                let dst = self.temp();
                self.emit(VInstr::Mov { dst, src: v });
                dst
            }
        }
    }

    // ---- conversions ---------------------------------------------------------------------

    /// Converts between arithmetic types (and pointer to `bool`); anything else is returned
    /// unchanged (the caller checked it).
    pub(super) fn convert(&mut self, v: Val, to: Ty) -> Val {
        if v.ty == to || v.ty == Ty::Error || to == Ty::Error {
            return Val { op: v.op, ty: if v.ty == Ty::Error { Ty::Error } else { to } };
        }
        if v.ty.is_ptr() && to == Ty::Bool {
            return Val { op: self.cmp(CmpOp::Ne, CmpType::Uint, v.op, VOp::Imm(0)), ty: Ty::Bool };
        }
        if !v.ty.is_arith() || !to.is_arith() {
            return v;
        }
        let op = match conversion(v.ty, to) {
            Conversion::Free => v.op,
            Conversion::Unary(u) => self.unary_op(u, v.op),
            Conversion::Then(first, then) => {
                let x = self.unary_op(first, v.op);
                self.unary_op(then, x)
            }
            Conversion::NonZero(ct) => self.cmp(CmpOp::Ne, ct, v.op, VOp::Imm(0)),
            how => self.convert_wide(v, to, how),
        };
        Val { op, ty: to }
    }

    /// Converts `v` (the value of `e`) for assignment to type `to`, reporting a mismatch in
    /// the words of `ctx`.
    pub(super) fn convert_checked(&mut self, v: Val, to: Ty, ctx: Ctx<'_>, e: &Expr) -> Val {
        if v.ty == Ty::Void {
            self.diags.error(e.span, "this expression has no value (it is `void`)");
            return Val::error();
        }
        let zero = matches!(self.const_value(e), Some((0, t)) if t.is_integer());
        // A declared pointer takes the space of the address it is first given.
        let space_kept = match (v.ty, to) {
            (Ty::Ptr { shared: from, .. }, Ty::Ptr { shared: into, .. }) if from != into => {
                from && matches!(ctx, Ctx::Init | Ctx::Arg { .. })
            }
            _ => true,
        };
        let result = assignable(v.ty, to, zero).and(if space_kept { Ok(()) } else { Err(AssignError::Space) });
        match result {
            Ok(()) if to.is_ptr() && !v.ty.is_ptr() => Val::imm(0, to),
            Ok(()) => match (v.ty, to) {
                (Ty::Ptr { shared, .. }, Ty::Ptr { elem, readonly, .. }) => {
                    Val { op: v.op, ty: Ty::Ptr { elem, readonly, shared } }
                }
                (Ty::Group(_), Ty::Group(_)) => v,
                (_, to) if to.is_ptr() => Val { op: v.op, ty: to },
                _ => self.convert(v, to),
            },
            Err(why) => {
                let (from, to_s) = (self.a_type(v.ty), self.a_type(to));
                let mut message = match ctx {
                    Ctx::Assign => format!("cannot assign {from} to {to_s} variable"),
                    Ctx::Store => format!("cannot store {from} in {to_s} element"),
                    Ctx::Init => format!("cannot initialize {to_s} variable with {from}"),
                    Ctx::Arg { func, index } => {
                        format!("argument {} of `{func}` must be {to_s}, found {from}", index + 1)
                    }
                    Ctx::Launch { kernel, index } => {
                        format!("argument {} of `{kernel}` must be {to_s}, found {from}", index + 1)
                    }
                    Ctx::Return(f) => format!("`{f}` returns {to_s}, not {from}"),
                };
                match (why, ctx) {
                    (AssignError::DropsConst, _) => {
                        message.push_str(" (it would allow writing through a `const` pointer)")
                    }
                    (AssignError::Space, Ctx::Assign) => message
                        .push_str(": a pointer variable keeps the memory space of the address it was initialised with"),
                    (AssignError::Space, Ctx::Launch { .. }) => {
                        message.push_str(": a kernel's pointers are addresses in global memory")
                    }
                    (AssignError::Space, _) => {
                        message.push_str(": only addresses in global memory can be stored or returned")
                    }
                    (AssignError::Mismatch, _) => {}
                }
                self.diags.error(e.span, message);
                Val::error()
            }
        }
    }

    pub(super) fn truth(&mut self, v: Val, span: Span) -> VOp {
        match v.ty {
            Ty::Bool | Ty::Error => v.op,
            Ty::Int | Ty::Uint | Ty::Char | Ty::UChar | Ty::Short | Ty::UShort => {
                self.cmp(CmpOp::Ne, CmpType::Int, v.op, VOp::Imm(0))
            }
            Ty::Float => self.cmp(CmpOp::Ne, CmpType::Float, v.op, VOp::Imm(0)),
            Ty::Long | Ty::ULong | Ty::Double => self.convert(v, Ty::Bool).op,
            Ty::Ptr { .. } | Ty::PtrPtr { .. } | Ty::StructPtr { .. } => {
                self.cmp(CmpOp::Ne, CmpType::Uint, v.op, VOp::Imm(0))
            }
            Ty::Void => {
                self.diags.error(span, "a `void` value cannot be used as a condition");
                VOp::Imm(0)
            }
            Ty::Struct(_) => {
                self.struct_place_error(span, v.ty);
                VOp::Imm(0)
            }
            Ty::Group(g) => {
                self.diags.error(span, format!("a `{g}` cannot be used as a condition"));
                VOp::Imm(0)
            }
        }
    }

    // ---- constants ----------------------------------------------------------------------

    /// The value of an expression made only of literals and operators.
    pub(super) fn const_value(&self, e: &Expr) -> Option<(u32, Ty)> {
        const_value(e)
    }

    /// `e` as `dynamic + constant` (either part may be absent), for address offsets.
    fn split_offset<'e>(&self, e: &'e Expr) -> (Option<&'e Expr>, i32) {
        let int_const = |x: &Expr| match const_value(x) {
            Some((v, t)) if t.is_integer() => Some(v as i32),
            _ => None,
        };
        if let Some(k) = int_const(e) {
            return (None, k);
        }
        match &e.kind {
            ExprKind::Binary(BinOp::Add, l, r) => {
                if let Some(k) = int_const(r) {
                    let (d, kl) = self.split_offset(l);
                    return (d, kl.wrapping_add(k));
                }
                if let Some(k) = int_const(l) {
                    let (d, kr) = self.split_offset(r);
                    return (d, kr.wrapping_add(k));
                }
            }
            ExprKind::Binary(BinOp::Sub, l, r) => {
                if let Some(k) = int_const(r) {
                    let (d, kl) = self.split_offset(l);
                    return (d, kl.wrapping_sub(k));
                }
            }
            _ => {}
        }
        (Some(e), 0)
    }

    // ---- expressions --------------------------------------------------------------------

    pub(super) fn expr(&mut self, e: &Expr) -> Val {
        match &e.kind {
            ExprKind::Int { value, unsigned } => Val::imm(*value, if *unsigned { Ty::Uint } else { Ty::Int }),
            ExprKind::Long { value, unsigned } => self.wide_const(*value, if *unsigned { Ty::ULong } else { Ty::Long }),
            ExprKind::Float(f) => Val::imm(f.to_bits(), Ty::Float),
            ExprKind::Double(d) => self.wide_const(crate::exec::wide::bits(*d), Ty::Double),
            ExprKind::Bool(b) => Val::imm(u32::from(*b), Ty::Bool),
            ExprKind::Name(n) => self.name_value(n, e.span),
            ExprKind::Member(base, member, mspan) => self.member(base, member, *mspan),
            ExprKind::Index(..) | ExprKind::Unary(UnOp::Deref, _) => {
                let p = self.place(e);
                self.access_at = e.span;
                self.load_place(&p)
            }
            ExprKind::Call(name, nspan, args) => {
                let v = self.call(name, *nspan, args, e.span);
                self.call_value(v, e.span)
            }
            ExprKind::Method(receiver, name, nspan, args) => {
                let v = self.method(receiver, name, *nspan, args, e.span);
                self.call_value(v, e.span)
            }
            ExprKind::Unary(op, x) => self.unary(*op, x, e.span),
            ExprKind::IncDec { pre, increment, target } => self.incdec(*pre, *increment, target, true),
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), l, r) => self.logical(*op == BinOp::LogAnd, l, r),
            ExprKind::Binary(op, l, r) => {
                let (x, y) = (self.expr(l), self.expr(r));
                self.binary_vals(*op, x, y, e.span, r)
            }
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e.span),
            ExprKind::Cond(c, x, y) => self.conditional(c, x, y, e.span),
            ExprKind::Cast(t, x) => self.cast(t, x, e.span),
            ExprKind::Comma(x, y) => {
                self.effect(x);
                self.expr(y)
            }
        }
    }

    /// An expression evaluated for its effects only (an expression statement).
    pub(super) fn effect(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::IncDec { pre, increment, target } => {
                self.incdec(*pre, *increment, target, false);
            }
            ExprKind::Comma(x, y) => {
                self.effect(x);
                self.effect(y);
            }
            ExprKind::Assign(..) | ExprKind::Call(..) | ExprKind::Method(..) | ExprKind::Cond(..) => {
                self.expr(e);
            }
            _ => {
                let v = self.expr(e);
                if v.ty != Ty::Error {
                    self.diags.warning(e.span, "this expression computes a value that is never used");
                }
            }
        }
    }

    /// Every name that could be meant where `name` is unknown.
    fn undefined(&mut self, what: &str, name: &str, span: Span, functions: bool) {
        if let Some(item) = self.unit.host_code.iter().find(|h| h.name == name) {
            let (message, help) = item.misuse();
            self.diags.error_help(span, message, help);
            return;
        }
        let mut candidates: Vec<&str> = self.visible_names();
        candidates.extend_from_slice(BUILTIN_VECTORS);
        candidates.push("warpSize");
        if functions {
            candidates.extend(self.sigs.iter().map(|s| s.name.as_str()));
            candidates.extend_from_slice(ATOMICS);
            candidates.extend_from_slice(MATH);
            candidates.push("__syncthreads");
        }
        let message = format!("undefined {what} `{name}`");
        match suggest(name, candidates) {
            Some(s) => {
                let help = format!("did you mean `{s}`?");
                self.diags.error_help(span, message, help)
            }
            None => self.diags.error(span, message),
        }
    }

    fn name_value(&mut self, name: &str, span: Span) -> Val {
        match self.lookup(name).cloned() {
            Some(Sym::Var { reg, ty, .. }) => Val { op: VOp::Reg(reg), ty },
            Some(Sym::Const { bits, ty, .. }) => Val::imm(bits, ty),
            Some(Sym::MemRef { space, base, offset, ty, readonly }) => {
                let p = Place::Mem { space, base, offset, ty, readonly };
                self.access_at = span;
                self.load_place(&p)
            }
            Some(Sym::Shared { offset, elem, dims }) if dims.is_empty() => {
                let p =
                    Place::Mem { space: Space::Shared, base: None, offset: offset as i32, ty: elem, readonly: false };
                self.access_at = span;
                self.load_place(&p)
            }
            // A one-dimensional array is the address of its first element.
            Some(Sym::Shared { offset, elem, dims }) if dims.len() == 1 => match elem.scalar() {
                Some(elem) => Val::imm(offset, Ty::Ptr { elem, readonly: false, shared: true }),
                None => {
                    self.diags.error_help(
                        span,
                        "pointers to `__shared__` arrays of structs are not supported",
                        format!("index `{name}` directly"),
                    );
                    Val::error()
                }
            },
            Some(Sym::Shared { .. }) => {
                self.diags.error_help(
                    span,
                    format!("a pointer to a row of `{name}` is not supported"),
                    format!("take the address of an element, `&{name}[i][0]`"),
                );
                Val::error()
            }
            Some(Sym::Local { .. }) => {
                self.diags.error(span, format!("`{name}` is an array; use one element, such as `{name}[0]`"));
                Val::error()
            }
            Some(Sym::Struct { id, .. }) => {
                self.struct_place_error(span, Ty::Struct(id));
                Val::error()
            }
            Some(Sym::Global { reg, elem, dims, readonly }) => match (dims.len(), elem) {
                (0, _) => {
                    let p = Place::Mem { space: Space::Global, base: Some(reg), offset: 0, ty: elem, readonly };
                    self.access_at = span;
                    self.load_place(&p)
                }
                // An array is the address of its first element.
                (1, Ty::Struct(id)) => Val { op: VOp::Reg(reg), ty: Ty::StructPtr { id, readonly } },
                (1, t) => match t.scalar() {
                    Some(elem) => Val { op: VOp::Reg(reg), ty: Ty::Ptr { elem, readonly, shared: false } },
                    None => Val::error(),
                },
                _ => {
                    self.diags.error(span, format!("`{name}` has {} dimensions; index every one", dims.len()));
                    Val::error()
                }
            },
            None if name == "warpSize" => Val { op: self.special(Special::WarpSize), ty: Ty::Int },
            None if BUILTIN_VECTORS.contains(&name) => {
                self.diags.error(span, format!("`{name}` has three parts: use `{name}.x`, `{name}.y` or `{name}.z`"));
                Val::error()
            }
            None if self.sigs.iter().any(|s| s.name == name) => {
                self.diags.error(span, format!("`{name}` is a function; call it with `{name}(…)`"));
                Val::error()
            }
            None if name == "this" => {
                self.diags.error(span, "`this` is the object of a member function, and this is not one");
                Val::error()
            }
            None => {
                self.undefined("name", name, span, false);
                Val::error()
            }
        }
    }

    /// The axis a built-in vector's member names (`.x`, `.y`, `.z`); an error naming `what`
    /// for any other.
    pub(super) fn axis(&mut self, what: &str, member: &str, mspan: Span) -> Option<Axis> {
        match member {
            "x" => Some(Axis::X),
            "y" => Some(Axis::Y),
            "z" => Some(Axis::Z),
            _ => {
                self.diags.error(mspan, format!("{what} has no member `{member}`; use `.x`, `.y` or `.z`"));
                None
            }
        }
    }

    fn member(&mut self, base: &Expr, member: &str, mspan: Span) -> Val {
        if let Some(v) = self.group_vector(base, member, mspan) {
            return v;
        }
        if let ExprKind::Name(n) = &base.kind {
            if self.lookup(n).is_none() && BUILTIN_VECTORS.contains(&n.as_str()) {
                let Some(axis) = self.axis(&format!("`{n}`"), member, mspan) else { return Val::error() };
                let which = match n.as_str() {
                    "threadIdx" => Special::ThreadIdx(axis),
                    "blockIdx" => Special::BlockIdx(axis),
                    "blockDim" => Special::BlockDim(axis),
                    _ => Special::GridDim(axis),
                };
                // As in CUDA, the built-in indices are `unsigned`.
                return Val { op: self.special(which), ty: Ty::Uint };
            }
        }
        let p = self.member_place(base, member, mspan);
        self.access_at = base.span.to(mspan);
        self.load_place(&p)
    }

    fn unary(&mut self, op: UnOp, x: &Expr, span: Span) -> Val {
        if op == UnOp::AddrOf {
            return self.address_of(x, span);
        }
        let v = self.expr(x);
        if v.ty == Ty::Error {
            return v;
        }
        match op {
            UnOp::Not => {
                let op = match v.ty {
                    Ty::Float => self.cmp(CmpOp::Eq, CmpType::Float, v.op, VOp::Imm(0)),
                    Ty::Long | Ty::ULong | Ty::Double => self.wide_truth(v, true),
                    t if t.is_ptr() => self.cmp(CmpOp::Eq, CmpType::Uint, v.op, VOp::Imm(0)),
                    Ty::Void => {
                        self.diags.error(span, "operator `!` cannot be applied to a `void` value");
                        return Val::error();
                    }
                    _ => self.unary_op(UnaryOp::LogicalNot, v.op),
                };
                Val { op, ty: Ty::Bool }
            }
            UnOp::Neg | UnOp::Plus | UnOp::BitNot => {
                let symbol = match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    _ => "~",
                };
                let ok = if op == UnOp::BitNot { v.ty.is_integer() } else { v.ty.is_arith() };
                if !ok {
                    self.diags.error(span, format!("operator `{symbol}` cannot be applied to {}", a(v.ty)));
                    return Val::error();
                }
                let t = v.ty.promote();
                let v = self.convert(v, t);
                if t.is_wide() {
                    return if op == UnOp::Plus { v } else { self.wide_negate(op == UnOp::BitNot, v) };
                }
                let op = match (op, t) {
                    (UnOp::Plus, _) => v.op,
                    (UnOp::Neg, Ty::Float) => self.unary_op(UnaryOp::FNeg, v.op),
                    (UnOp::Neg, _) => self.unary_op(UnaryOp::Neg, v.op),
                    _ => self.unary_op(UnaryOp::Not, v.op),
                };
                Val { op, ty: t }
            }
            UnOp::Deref | UnOp::AddrOf => Val::error(), // handled by the callers
        }
    }

    fn address_of(&mut self, x: &Expr, span: Span) -> Val {
        match self.place(x) {
            Place::Mem { space: Space::Global, base, offset, ty: Ty::Struct(id), readonly } => {
                let op = self.mem_address(base, offset);
                Val { op, ty: Ty::StructPtr { id, readonly } }
            }
            Place::Mem { space, base, offset, ty, readonly } => {
                let Some(elem) = ty.scalar() else {
                    if ty != Ty::Error {
                        self.diags.error(span, "pointers to `__shared__` structs are not supported");
                    }
                    return Val::error();
                };
                let op = self.mem_address(base, offset);
                Val { op, ty: Ty::Ptr { elem, readonly, shared: space == Space::Shared } }
            }
            Place::Var { .. } | Place::Local { .. } | Place::Regs { .. } => {
                self.diags.error(span, "taking the address of a local variable is not supported");
                Val::error()
            }
            Place::MemArray { .. } => {
                self.diags.error_help(
                    span,
                    "pointers to array members are not supported",
                    "take the address of an element: `&s.a[0]`",
                );
                Val::error()
            }
            Place::Error => Val::error(),
        }
    }

    fn mem_address(&mut self, base: Option<VReg>, offset: i32) -> VOp {
        match base {
            None => VOp::Imm(offset as u32),
            Some(r) => self.alu(AluOp::Add, VOp::Reg(r), VOp::Imm(offset as u32)),
        }
    }

    fn cast(&mut self, t: &TypeExpr, x: &Expr, span: Span) -> Val {
        let v = self.expr(x);
        let Some(to) = Ty::from_type_expr(t) else {
            self.diags.error(t.span, "a cast converts to a number, a `bool` or a pointer");
            return Val::error();
        };
        if v.ty == Ty::Error {
            return Val { op: v.op, ty: Ty::Error };
        }
        match (v.ty, to) {
            (_, Ty::Void) => Val::imm(0, Ty::Void),
            (f, t) if f.is_arith() && t.is_arith() => self.convert(v, to),
            // A pointer cast keeps the memory the address is in: `(float*)shared_bytes` still
            // points into shared memory.
            (Ty::Ptr { shared, .. }, Ty::Ptr { elem, readonly, .. }) => {
                Val { op: v.op, ty: Ty::Ptr { elem, readonly, shared } }
            }
            (Ty::PtrPtr { .. }, Ty::PtrPtr { .. }) => Val { op: v.op, ty: to },
            (f, Ty::Int | Ty::Uint) if f.is_ptr() && !matches!(f, Ty::StructPtr { .. }) => Val { op: v.op, ty: to },
            (f, Ty::Bool) if f.is_ptr() && !matches!(f, Ty::StructPtr { .. }) => self.convert(v, Ty::Bool),
            (f, Ty::Ptr { .. } | Ty::PtrPtr { .. })
                if f.is_integer() && matches!(self.const_value(x), Some((0, _))) =>
            {
                Val::imm(0, to)
            }
            (f, Ty::Ptr { .. } | Ty::PtrPtr { .. }) if f.is_integer() => {
                self.diags.error(span, "casting an integer to a pointer is not supported");
                Val::error()
            }
            _ => {
                self.diags.error(span, format!("cannot cast {} to `{to}`", a(v.ty)));
                Val::error()
            }
        }
    }

    /// `x op y` for evaluated operands (`rhs` is the right operand's expression, for the
    /// null-pointer check).
    fn binary_vals(&mut self, op: BinOp, x: Val, y: Val, span: Span, rhs: &Expr) -> Val {
        if x.ty == Ty::Error || y.ty == Ty::Error {
            return Val::error();
        }
        if x.ty.is_ptr() || y.ty.is_ptr() {
            return self.pointer_binary(op, x, y, span, rhs);
        }
        let typing = match binary_typing(op, x.ty, y.ty) {
            Ok(t) => t,
            Err(message) => {
                self.diags.error(span, message);
                return Val::error();
            }
        };
        let (x, y) = if matches!(op, BinOp::Shl | BinOp::Shr) {
            let yt = y.ty.promote();
            (self.convert(x, typing.operand), self.convert(y, yt))
        } else {
            (self.convert(x, typing.operand), self.convert(y, typing.operand))
        };
        if matches!(typing.lowered, Lowered::Wide(_) | Lowered::WideCmp(..)) {
            return self.wide_binary(typing.lowered, x, y, typing.result);
        }
        let op = match typing.lowered {
            Lowered::Alu(o) => self.alu(o, x.op, y.op),
            Lowered::Sfu(o) => self.sfu(o, x.op, y.op),
            Lowered::Cmp(c, t) => self.cmp(c, t, x.op, y.op),
            Lowered::Logical(and) => self.alu(if and { AluOp::And } else { AluOp::Or }, x.op, y.op),
            Lowered::Wide(_) | Lowered::WideCmp(..) => VOp::Imm(0),
        };
        Val { op, ty: typing.result }
    }

    fn pointer_binary(&mut self, op: BinOp, x: Val, y: Val, span: Span, rhs: &Expr) -> Val {
        let step = |g: &Self, t: Ty| g.pointee_size(t);
        let pointee = if x.ty.is_ptr() { step(self, x.ty) } else { step(self, y.ty) };
        let scaled = |g: &mut Self, v: Val| {
            let v = g.convert(v, v.ty.promote());
            g.scale(v.op, pointee)
        };
        match (op, x.ty, y.ty) {
            (BinOp::Sub, Ty::StructPtr { id: a, .. }, Ty::StructPtr { id: b, .. }) if a == b => {
                let bytes = self.alu(AluOp::Sub, x.op, y.op);
                Val { op: self.alu(AluOp::DivS, bytes, VOp::Imm(pointee)), ty: Ty::Int }
            }
            (BinOp::Add, p, t) if p.is_ptr() && t.is_integer() => {
                let s = scaled(self, y);
                Val { op: self.alu(AluOp::Add, x.op, s), ty: x.ty }
            }
            (BinOp::Add, t, p) if p.is_ptr() && t.is_integer() => {
                let s = scaled(self, x);
                Val { op: self.alu(AluOp::Add, y.op, s), ty: y.ty }
            }
            (BinOp::Sub, p, t) if p.is_ptr() && t.is_integer() => {
                let s = scaled(self, y);
                Val { op: self.alu(AluOp::Sub, x.op, s), ty: x.ty }
            }
            (BinOp::Sub, Ty::Ptr { elem: e1, .. }, Ty::Ptr { elem: e2, .. })
            | (BinOp::Sub, Ty::PtrPtr { elem: e1, .. }, Ty::PtrPtr { elem: e2, .. })
                if e1 == e2 =>
            {
                let bytes = self.alu(AluOp::Sub, x.op, y.op);
                Val { op: self.alu(AluOp::ShrS, bytes, VOp::Imm(pointee.trailing_zeros())), ty: Ty::Int }
            }
            (c, tx, ty) if c.is_comparison() && (tx.is_ptr() || ty.is_ptr()) => {
                let comparable = match (tx, ty) {
                    (Ty::Ptr { elem: e1, .. }, Ty::Ptr { elem: e2, .. }) => e1 == e2,
                    (Ty::PtrPtr { elem: e1, .. }, Ty::PtrPtr { elem: e2, .. }) => e1 == e2,
                    (Ty::StructPtr { id: a, .. }, Ty::StructPtr { id: b, .. }) => a == b,
                    (p, t) if p.is_ptr() && !t.is_ptr() => t.is_integer() && matches!(const_value(rhs), Some((0, _))),
                    (t, p) if p.is_ptr() && !t.is_ptr() => t.is_integer() && x.op == VOp::Imm(0),
                    _ => false,
                };
                if !comparable {
                    self.diags.error(span, format!("cannot compare {} with {}", a(tx), a(ty)));
                    return Val::error();
                }
                let Ok(t) = binary_typing(c, Ty::Uint, Ty::Uint) else { return Val::error() };
                let Lowered::Cmp(cop, cty) = t.lowered else { return Val::error() };
                Val { op: self.cmp(cop, cty, x.op, y.op), ty: Ty::Bool }
            }
            _ => {
                self.diags.error(
                    span,
                    format!("operator `{}` cannot be applied to {} and {}", op.symbol(), a(x.ty), a(y.ty)),
                );
                Val::error()
            }
        }
    }

    // ---- short-circuit and conditions ---------------------------------------------------

    /// Cheap, with no effects and no memory access: evaluating it when C would not is
    /// invisible, and cheaper than a branch.
    fn is_simple(&self, e: &Expr) -> bool {
        let mut budget = 8;
        self.pure(e, &mut budget)
    }

    fn pure(&self, e: &Expr, budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match &e.kind {
            ExprKind::Int { .. } | ExprKind::Float(_) | ExprKind::Bool(_) => true,
            ExprKind::Name(n) => {
                matches!(self.lookup(n), Some(Sym::Var { .. })) || (self.lookup(n).is_none() && n == "warpSize")
            }
            ExprKind::Member(b, _, _) => {
                matches!(&b.kind, ExprKind::Name(n) if BUILTIN_VECTORS.contains(&n.as_str()) && self.lookup(n).is_none())
            }
            ExprKind::Index(b, i) => {
                matches!(&b.kind, ExprKind::Name(n) if matches!(self.lookup(n), Some(Sym::Local { .. })))
                    && self.pure(i, budget)
            }
            ExprKind::Unary(UnOp::Deref | UnOp::AddrOf, _) => false,
            ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => self.pure(x, budget),
            ExprKind::Binary(_, l, r) => self.pure(l, budget) && self.pure(r, budget),
            ExprKind::Cond(c, x, y) => self.pure(c, budget) && self.pure(x, budget) && self.pure(y, budget),
            ExprKind::Call(name, _, args) => {
                MATH.contains(&name.as_str())
                    && !self.sigs.iter().any(|s| &s.name == name)
                    && args.iter().all(|x| self.pure(x, budget))
            }
            _ => false,
        }
    }

    fn logical(&mut self, and: bool, l: &Expr, r: &Expr) -> Val {
        if self.is_simple(r) {
            let x = self.expr(l);
            let x = self.truth(x, l.span);
            let y = self.expr(r);
            let y = self.truth(y, r.span);
            let op = self.alu(if and { AluOp::And } else { AluOp::Or }, x, y);
            return Val { op, ty: Ty::Bool };
        }
        let result = self.var();
        let x = self.expr(l);
        let x = self.truth(x, l.span);
        let end = self.new_label();
        match x {
            // The left side decides: the right side is never evaluated.
            VOp::Imm(k) if (k != 0) != and => {
                self.move_into(result, x);
                self.jump(end);
            }
            VOp::Imm(_) => {}
            VOp::Reg(_) => {
                self.move_into(result, x);
                // `&&` skips the right side where the left is false, `||` where it is true.
                self.branch(result, and, end, end);
            }
        }
        let y = self.expr(r);
        let y = self.truth(y, r.span);
        self.move_into(result, y);
        self.place_label(end);
        Val { op: VOp::Reg(result), ty: Ty::Bool }
    }

    /// Jumps to `target` when `e` is `sense` (true or false); otherwise falls through.
    pub(super) fn cond_branch(&mut self, e: &Expr, sense: bool, target: Label, hint: Label) {
        match &e.kind {
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), l, r) if !self.is_simple(r) => {
                let and = *op == BinOp::LogAnd;
                if and != sense {
                    // `a && b` false (or `a || b` true) as soon as either side is.
                    self.cond_branch(l, sense, target, hint);
                    self.cond_branch(r, sense, target, hint);
                } else {
                    let skip = self.new_label();
                    self.cond_branch(l, !sense, skip, hint);
                    self.cond_branch(r, sense, target, hint);
                    self.place_label(skip);
                }
            }
            ExprKind::Unary(UnOp::Not, x) => self.cond_branch(x, !sense, target, hint),
            _ => {
                let v = self.expr(e);
                let op = match v.ty {
                    Ty::Float | Ty::Void => self.truth(v, e.span),
                    _ => v.op,
                };
                match op {
                    VOp::Imm(k) => {
                        if (k != 0) == sense {
                            self.jump(target);
                        }
                    }
                    VOp::Reg(r) => self.branch(r, !sense, target, hint),
                }
            }
        }
    }

    /// Whether condition `c` holds, if that is known when compiling (its code is left for
    /// the caller to drop).
    fn constant_truth(&mut self, c: &Expr) -> Option<bool> {
        let mut constant = true;
        super::ast::for_each_subexpr(c, &mut |x| {
            constant &= match &x.kind {
                ExprKind::Int { .. } | ExprKind::Float(_) | ExprKind::Bool(_) => true,
                ExprKind::Name(n) => matches!(self.lookup(n), Some(Sym::Const { .. })),
                ExprKind::Unary(op, _) => !matches!(op, UnOp::Deref | UnOp::AddrOf),
                ExprKind::Binary(..) | ExprKind::Cond(..) | ExprKind::Cast(..) => true,
                _ => false,
            };
        });
        if !constant {
            return None;
        }
        let v = self.expr(c);
        match self.truth(v, c.span) {
            VOp::Imm(k) => Some(k != 0),
            VOp::Reg(_) => None,
        }
    }

    fn conditional(&mut self, c: &Expr, x: &Expr, y: &Expr, span: Span) -> Val {
        if self.is_simple(x) && self.is_simple(y) {
            let cv = self.expr(c);
            let cv = self.truth(cv, c.span);
            let (vx, vy) = (self.expr(x), self.expr(y));
            let ty = self.branch_type(vx.ty, vy.ty, x, y, span);
            let (vx, vy) = (self.convert(vx, ty), self.convert(vy, ty));
            return match cv {
                VOp::Imm(k) => {
                    if k != 0 {
                        Val { op: vx.op, ty }
                    } else {
                        Val { op: vy.op, ty }
                    }
                }
                VOp::Reg(cond) if ty.is_wide() => {
                    let (a, b) = (self.wide_reg(vx), self.wide_reg(vy));
                    let dst = self.temp();
                    self.emit(VInstr::Select64 { dst, cond, a, b });
                    Val { op: VOp::Reg(dst), ty }
                }
                VOp::Reg(cond) => {
                    let dst = self.temp();
                    self.emit(VInstr::Select { dst, cond, a: vx.op, b: vy.op });
                    Val { op: VOp::Reg(dst), ty }
                }
            };
        }
        // A condition known when compiling (`N < 8 ? N : 8` of named constants) computes
        // only the branch it takes, so a constant stays one.
        let mark = self.code.len();
        let known = self.constant_truth(c);
        self.code.truncate(mark);
        self.available.clear();
        if let Some(k) = known {
            let (taken, other) = if k { (x, y) } else { (y, x) };
            let other_ty = self.expr(other).ty;
            self.code.truncate(mark);
            self.available.clear();
            let v = self.expr(taken);
            let ty = if k {
                self.branch_type(v.ty, other_ty, x, y, span)
            } else {
                self.branch_type(other_ty, v.ty, x, y, span)
            };
            return self.convert(v, ty);
        }
        // The type of the second branch decides the first's conversion: look at it first.
        let y_ty = self.expr(y).ty;
        self.code.truncate(mark);
        // What the dry run computed is gone with its code.
        self.available.clear();
        let result = self.var();
        let (otherwise, end) = (self.new_label(), self.new_label());
        self.cond_branch(c, false, otherwise, end);
        let vx = self.expr(x);
        let ty = self.branch_type(vx.ty, y_ty, x, y, span);
        let vx = self.convert(vx, ty);
        self.move_into(result, vx.op);
        self.jump(end);
        self.place_label(otherwise);
        let vy = self.expr(y);
        let vy = self.convert(vy, ty);
        self.move_into(result, vy.op);
        self.place_label(end);
        Val { op: VOp::Reg(result), ty }
    }

    fn branch_type(&mut self, tx: Ty, ty: Ty, x: &Expr, y: &Expr, span: Span) -> Ty {
        let zero = |e: &Expr| matches!(const_value(e), Some((0, t)) if t.is_integer());
        match (tx, ty) {
            (Ty::Error, _) | (_, Ty::Error) => Ty::Error,
            (a, b) if a == b => a,
            (a, b) if a.is_arith() && b.is_arith() => common(a, b),
            (Ty::Ptr { elem: e1, readonly: r1, shared: s1 }, Ty::Ptr { elem: e2, readonly: r2, shared: s2 })
                if e1 == e2 && s1 == s2 =>
            {
                Ty::Ptr { elem: e1, readonly: r1 || r2, shared: s1 }
            }
            (Ty::PtrPtr { elem: e1, readonly: r1 }, Ty::PtrPtr { elem: e2, readonly: r2 }) if e1 == e2 && r1 == r2 => {
                tx
            }
            (p @ (Ty::Ptr { .. } | Ty::PtrPtr { .. }), _) if zero(y) => p,
            (_, p @ (Ty::Ptr { .. } | Ty::PtrPtr { .. })) if zero(x) => p,
            _ => {
                self.diags.error(span, format!("the branches of `?:` have different types: {} and {}", a(tx), a(ty)));
                Ty::Error
            }
        }
    }

    // ---- places -------------------------------------------------------------------------

    pub(super) fn place(&mut self, e: &Expr) -> Place {
        match &e.kind {
            ExprKind::Name(n) => match self.lookup(n).cloned() {
                Some(Sym::Var { reg, ty, is_const }) => Place::Var { reg, ty, name: n.clone(), is_const },
                Some(Sym::Const { .. }) => {
                    // Only `&x` gets here: a constant is never assigned.
                    self.diags.error(e.span, "taking the address of a local variable is not supported");
                    Place::Error
                }
                Some(Sym::Shared { offset, elem, dims }) if dims.is_empty() => {
                    Place::Mem { space: Space::Shared, base: None, offset: offset as i32, ty: elem, readonly: false }
                }
                Some(Sym::Struct { regs, id, is_const }) => Place::Regs { regs, id, name: n.clone(), is_const },
                Some(Sym::MemRef { space, base, offset, ty, readonly }) => {
                    Place::Mem { space, base, offset, ty, readonly }
                }
                Some(Sym::Global { reg, elem, dims, readonly }) if dims.is_empty() => {
                    Place::Mem { space: Space::Global, base: Some(reg), offset: 0, ty: elem, readonly }
                }
                None if BUILTIN_VECTORS.contains(&n.as_str()) || n == "warpSize" => {
                    self.diags.error(e.span, format!("`{n}` cannot be assigned"));
                    Place::Error
                }
                _ => {
                    self.name_value(n, e.span);
                    Place::Error
                }
            },
            ExprKind::Index(..) => self.index_place(e),
            ExprKind::Call(name, nspan, args) => {
                self.returned_place = None;
                let v = self.call(name, *nspan, args, e.span);
                self.reference_result(v, e.span)
            }
            ExprKind::Method(receiver, name, nspan, args) => {
                self.returned_place = None;
                let v = self.method(receiver, name, *nspan, args, e.span);
                self.reference_result(v, e.span)
            }
            ExprKind::Unary(UnOp::Deref, p) => {
                let v = self.expr(p);
                match v.ty.pointee() {
                    Some((ty, readonly, shared)) => {
                        let (base, offset) = match v.op {
                            VOp::Imm(c) => (None, c as i32),
                            VOp::Reg(r) => (Some(r), 0),
                        };
                        Place::Mem { space: space_of(shared), base, offset, ty, readonly }
                    }
                    None if v.ty == Ty::Error => Place::Error,
                    None => {
                        self.diags.error(e.span, format!("cannot dereference {}", a(v.ty)));
                        Place::Error
                    }
                }
            }
            ExprKind::Member(b, m, mspan) => {
                if let ExprKind::Name(n) = &b.kind {
                    if BUILTIN_VECTORS.contains(&n.as_str()) && self.lookup(n).is_none() {
                        self.diags.error(e.span, format!("`{n}.{m}` cannot be assigned"));
                        return Place::Error;
                    }
                }
                self.member_place(b, m, *mspan)
            }
            _ => {
                let v = self.expr(e);
                if v.ty != Ty::Error {
                    self.diags.error(e.span, "this expression cannot be assigned to");
                }
                Place::Error
            }
        }
    }

    fn index_value(&mut self, e: &Expr) -> VOp {
        let v = self.expr(e);
        if !v.ty.is_integer() {
            self.diags.error(e.span, format!("an index must be an integer, found {}", a(v.ty)));
            return VOp::Imm(0);
        }
        v.op
    }

    fn index_place(&mut self, e: &Expr) -> Place {
        if let ExprKind::Index(b, i) = &e.kind {
            if self.struct_type_of(b).is_some() {
                return self.subscript_place(b, i, e.span);
            }
        }
        let mut indices = Vec::new();
        let mut base = e;
        while let ExprKind::Index(b, i) = &base.kind {
            indices.push(&**i);
            base = b;
        }
        indices.reverse();
        if let ExprKind::Name(n) = &base.kind {
            match self.lookup(n).cloned() {
                Some(Sym::Local { regs, elem, dims }) => {
                    return self.local_index(n, regs, elem, &dims, &indices, e.span)
                }
                Some(Sym::Shared { offset, elem, dims }) if !dims.is_empty() => {
                    let at = ArrayAt { space: Space::Shared, base: None, offset: offset as i32, readonly: false };
                    return self.array_index(n, at, elem, &dims, &indices, e.span);
                }
                Some(Sym::Global { reg, elem, dims, readonly }) if !dims.is_empty() => {
                    let at = ArrayAt { space: Space::Global, base: Some(reg), offset: 0, readonly };
                    return self.array_index(n, at, elem, &dims, &indices, e.span);
                }
                _ => {}
            }
        }
        if let ExprKind::Member(b, m, mspan) = &base.kind {
            match self.member_place(b, m, *mspan) {
                Place::MemArray { space, base, offset, elem, dims, readonly } => {
                    let at = ArrayAt { space, base, offset, readonly };
                    return self.array_index(m, at, elem, &dims, &indices, e.span);
                }
                Place::Error => {
                    for i in &indices {
                        self.expr(i);
                    }
                    return Place::Error;
                }
                _ => {}
            }
        }
        let ExprKind::Index(b, i) = &e.kind else { return Place::Error };
        let p = self.expr(b);
        // The element's type and size: a number's 1, 2 or 4 bytes, a struct's own.
        let size = self.pointee_size(p.ty);
        let (elem, readonly, space) = match p.ty.pointee() {
            Some((elem, readonly, shared)) => (elem, readonly, space_of(shared)),
            None if p.ty == Ty::Error => {
                self.expr(i);
                return Place::Error;
            }
            None => {
                let t = p.ty;
                self.diags.error(b.span, format!("cannot index {}", a(t)));
                self.expr(i);
                return Place::Error;
            }
        };
        let (dynamic, k) = self.split_offset(i);
        let base_op = match dynamic {
            Some(d) => {
                let v = self.index_value(d);
                let scaled = self.scale(v, size);
                self.alu(AluOp::Add, p.op, scaled)
            }
            None => p.op,
        };
        let offset = k.wrapping_mul(size as i32);
        let (base, offset) = match base_op {
            VOp::Imm(c) => (None, (c as i32).wrapping_add(offset)),
            VOp::Reg(r) => (Some(r), offset),
        };
        Place::Mem { space, base, offset, ty: elem, readonly }
    }

    fn check_rank(&mut self, name: &str, dims: &[u32], given: usize, span: Span, shared: bool) -> bool {
        if given == dims.len() {
            return true;
        }
        if given < dims.len() && shared {
            self.diags.error_help(
                span,
                format!("a pointer to a row of `{name}` is not supported"),
                format!("index every dimension of `{name}` ({} of them), or take `&{name}[i][0]`", dims.len()),
            );
        } else {
            self.diags.error(span, format!("`{name}` has {} dimension(s) but {given} indices are given", dims.len()));
        }
        false
    }

    fn out_of_bounds(&mut self, name: &str, k: i64, size: u32, span: Span) {
        self.diags.error(span, format!("index {k} is out of bounds for `{name}` (size {size})"));
    }

    fn local_index(
        &mut self,
        name: &str,
        regs: Vec<VReg>,
        elem: Ty,
        dims: &[u32],
        indices: &[&Expr],
        span: Span,
    ) -> Place {
        if !self.check_rank(name, dims, indices.len(), span, false) {
            return Place::Error;
        }
        let mut flat = VOp::Imm(0);
        let mut in_bounds = true;
        for (j, idx) in indices.iter().enumerate() {
            let stride: u32 = dims[j + 1..].iter().product();
            let v = self.index_value(idx);
            match v {
                VOp::Imm(k) if k >= dims[j] => {
                    self.out_of_bounds(name, k as i32 as i64, dims[j], idx.span);
                    in_bounds = false;
                }
                VOp::Imm(_) => {}
                // Known only at run time: checked then (lanes out of range fault).
                VOp::Reg(_) => {
                    let array = self.local_array_id(name, j, dims.len());
                    let site = self.site(idx.span);
                    self.emit(VInstr::Bound { index: v, len: dims[j], array, site });
                }
            }
            let term = self.alu(AluOp::Mul, v, VOp::Imm(stride));
            flat = self.alu(AluOp::Add, flat, term);
        }
        let index = match flat {
            _ if !in_bounds => return Place::Error,
            VOp::Imm(k) => Ok(k as usize),
            VOp::Reg(r) => Err(r),
        };
        Place::Local { regs, ty: elem, index }
    }

    /// The entry of the kernel's debug table that names dimension `j` (of `rank`) of local
    /// array `name`, added on first use.
    fn local_array_id(&mut self, name: &str, j: usize, rank: usize) -> u16 {
        let what = if rank == 1 {
            format!("local array `{name}`")
        } else {
            format!("dimension {} of local array `{name}`", j + 1)
        };
        let at = match self.local_arrays.iter().position(|w| *w == what) {
            Some(at) => at,
            None => {
                self.local_arrays.push(what);
                self.local_arrays.len() - 1
            }
        };
        // The kernel's length limit keeps this far below; saturate rather than wrap.
        u16::try_from(at).unwrap_or(u16::MAX)
    }

    /// An element of an array in memory: a `__shared__` array, or an array member of a
    /// struct (in either memory), its elements `elem` (a struct's are its size apart).
    fn array_index(&mut self, name: &str, at: ArrayAt, elem: Ty, dims: &[u32], indices: &[&Expr], span: Span) -> Place {
        if !self.check_rank(name, dims, indices.len(), span, at.space == Space::Shared) {
            return Place::Error;
        }
        let size = super::structs::size_of(&self.unit.structs, elem);
        let mut const_elems: i64 = 0;
        let mut dynamic: Option<VOp> = None;
        for (j, idx) in indices.iter().enumerate() {
            let stride: u32 = dims[j + 1..].iter().product();
            let (d, k) = self.split_offset(idx);
            if d.is_none() && (k < 0 || k as u32 >= dims[j]) {
                self.out_of_bounds(name, k as i64, dims[j], idx.span);
                return Place::Error;
            }
            const_elems += k as i64 * stride as i64;
            if let Some(d) = d {
                let v = self.index_value(d);
                let bytes = self.alu(AluOp::Mul, v, VOp::Imm(stride.wrapping_mul(size)));
                dynamic = Some(match dynamic {
                    None => bytes,
                    Some(sum) => self.alu(AluOp::Add, sum, bytes),
                });
            }
        }
        let mut offset = (at.offset as i64 + size as i64 * const_elems) as i32;
        let base = match (dynamic, at.base) {
            (None, base) => base,
            (Some(VOp::Imm(c)), base) => {
                offset = offset.wrapping_add(c as i32);
                base
            }
            (Some(d), None) => Some(self.in_reg(d)),
            (Some(d), Some(b)) => Some(self.in_reg_add(b, d)),
        };
        Place::Mem { space: at.space, base, offset, ty: elem, readonly: at.readonly }
    }

    /// `v` times `bytes`, a shift where `bytes` is a power of two (a pointer's 4-byte step is
    /// `<< 2`, a `char*`'s step nothing at all).
    fn scale(&mut self, v: VOp, bytes: u32) -> VOp {
        if bytes.is_power_of_two() {
            self.alu(AluOp::Shl, v, VOp::Imm(bytes.trailing_zeros()))
        } else {
            self.alu(AluOp::Mul, v, VOp::Imm(bytes))
        }
    }

    /// `b + d` in a register.
    fn in_reg_add(&mut self, b: VReg, d: VOp) -> VReg {
        let sum = self.alu(AluOp::Add, VOp::Reg(b), d);
        self.in_reg(sum)
    }

    fn writable(&mut self, p: &Place, span: Span) -> bool {
        match p {
            Place::Var { name, is_const: true, .. } => {
                self.diags.error(span, format!("cannot assign to `{name}`: it is declared `const`"));
                false
            }
            Place::Regs { name, is_const: true, .. } => {
                self.diags.error(span, format!("cannot assign to `{name}`: it is declared `const`"));
                false
            }
            Place::Mem { readonly: true, ty, .. } => {
                let ty = self.type_name(*ty);
                self.diags.error(span, format!("cannot write through a pointer to `const {ty}`"));
                false
            }
            Place::MemArray { .. } => {
                self.diags.error(span, "an array cannot be assigned; assign its elements");
                false
            }
            Place::Error => false,
            _ => true,
        }
    }

    pub(super) fn load_place(&mut self, p: &Place) -> Val {
        match p {
            Place::Var { reg, ty, .. } => Val { op: VOp::Reg(*reg), ty: *ty },
            Place::Local { regs, ty, index: Ok(i) } => Val { op: VOp::Reg(regs[*i]), ty: *ty },
            Place::Local { regs, ty, index: Err(idx) } => {
                // A select per element: registers cannot be indexed.
                let mut acc = VOp::Reg(regs[0]);
                for (j, &r) in regs.iter().enumerate().skip(1) {
                    let hit = self.cmp(CmpOp::Eq, CmpType::Int, VOp::Reg(*idx), VOp::Imm(j as u32));
                    let cond = self.in_reg(hit);
                    let dst = self.temp();
                    match acc {
                        VOp::Reg(b) if ty.is_wide() => self.emit(VInstr::Select64 { dst, cond, a: r, b }),
                        b => self.emit(VInstr::Select { dst, cond, a: VOp::Reg(r), b }),
                    }
                    acc = VOp::Reg(dst);
                }
                Val { op: acc, ty: *ty }
            }
            Place::Mem { ty: Ty::Struct(_), .. } | Place::Regs { .. } => {
                // Struct values are copied where a struct is expected (`copy_struct`); as an
                // operand, its type makes the operator or conversion say what is wrong.
                Val { op: VOp::Imm(0), ty: p.ty() }
            }
            Place::Mem { space, base, offset, ty, .. } => {
                let (addr, offset) = self.address_reg(*base, *offset);
                let dst = self.temp();
                let site = self.site(self.access_at);
                self.emit(VInstr::Load { space: *space, width: ty.width(), dst, addr, offset, site });
                Val { op: VOp::Reg(dst), ty: *ty }
            }
            Place::MemArray { .. } | Place::Error => Val::error(),
        }
    }

    /// A base register and offset for a memory access (a constant address needs a register).
    fn address_reg(&mut self, base: Option<VReg>, offset: i32) -> (VReg, i32) {
        match base {
            Some(r) => (r, offset),
            None => (self.in_reg(VOp::Imm(offset as u32)), 0),
        }
    }

    pub(super) fn store_place(&mut self, p: &Place, v: Val) {
        match p {
            Place::Var { reg, .. } => self.move_into(*reg, v.op),
            Place::Local { regs, index: Ok(i), .. } => self.move_into(regs[*i], v.op),
            Place::Local { regs, index: Err(idx), ty } => {
                for (j, &r) in regs.iter().enumerate() {
                    let hit = self.cmp(CmpOp::Eq, CmpType::Int, VOp::Reg(*idx), VOp::Imm(j as u32));
                    let cond = self.in_reg(hit);
                    if ty.is_wide() {
                        let a = self.wide_reg(v);
                        self.emit(VInstr::Select64 { dst: r, cond, a, b: r });
                    } else {
                        self.emit(VInstr::Select { dst: r, cond, a: v.op, b: VOp::Reg(r) });
                    }
                }
            }
            Place::Mem { ty: Ty::Struct(_), .. } => {}
            Place::Mem { space, base, offset, ty, .. } => {
                let (addr, offset) = self.address_reg(*base, *offset);
                let site = self.site(self.access_at);
                self.emit(VInstr::Store { space: *space, width: ty.width(), addr, offset, src: v.op, site });
            }
            Place::Regs { .. } | Place::MemArray { .. } | Place::Error => {}
        }
    }

    fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, span: Span) -> Val {
        let p = self.place(l);
        if !self.writable(&p, l.span) {
            self.expr(r);
            return Val::error();
        }
        let ty = p.ty();
        if let Ty::Struct(id) = ty {
            if let Some(bop) = op {
                self.diags
                    .error(span, format!("operator `{}=` cannot be applied to {}", bop.symbol(), self.a_type(ty)));
                self.expr(r);
                return Val::error();
            }
            let from = self.struct_source(r);
            match from.ty() {
                Ty::Error => {}
                t if t == ty => self.copy_struct(id, &p, &from, span),
                t => {
                    let (to_s, from_s) = (self.a_type(ty), self.a_type(t));
                    self.diags.error(r.span, format!("cannot assign {from_s} to {to_s}"));
                }
            }
            return Val::error_free(ty);
        }
        let ctx = if matches!(p, Place::Mem { .. }) { Ctx::Store } else { Ctx::Assign };
        let v = match op {
            None => {
                let v = self.expr(r);
                self.convert_checked(v, ty, ctx, r)
            }
            Some(bop) => {
                self.access_at = l.span;
                let current = self.load_place(&p);
                let v = self.expr(r);
                let result = self.binary_vals(bop, current, v, span, r);
                if result.ty == Ty::Error {
                    return result;
                }
                self.convert_checked(result, ty, ctx, l)
            }
        };
        if v.ty == Ty::Error {
            return v;
        }
        self.access_at = l.span;
        self.store_place(&p, v);
        match p {
            Place::Var { reg, ty, .. } => Val { op: VOp::Reg(reg), ty },
            _ => v,
        }
    }

    fn incdec(&mut self, pre: bool, increment: bool, target: &Expr, want_value: bool) -> Val {
        let p = self.place(target);
        if !self.writable(&p, target.span) {
            return Val::error();
        }
        let ty = p.ty();
        if !(ty.is_arith() || ty.is_ptr()) || ty == Ty::Bool {
            let symbol = if increment { "++" } else { "--" };
            self.diags.error(target.span, format!("`{symbol}` needs a number or a pointer, found {}", a(ty)));
            return Val::error();
        }
        self.access_at = target.span;
        let current = self.load_place(&p);
        // The old value must survive the update when it is the result (`x++` in an expression).
        let old = if want_value && !pre && matches!(p, Place::Var { .. } | Place::Local { .. }) {
            let copy = self.temp();
            match current.op {
                VOp::Reg(src) if ty.is_wide() => self.emit(VInstr::Mov64 { dst: copy, src }),
                src => self.emit(VInstr::Mov { dst: copy, src }),
            }
            Val { op: VOp::Reg(copy), ty }
        } else {
            current
        };
        if ty.is_wide() {
            let one = self.wide_const(if ty == Ty::Double { 1f64.to_bits() } else { 1 }, ty);
            let op = if increment { BinOp::Add } else { BinOp::Sub };
            let typing = binary_typing(op, ty, ty).map(|t| t.lowered).unwrap_or(Lowered::Logical(false));
            let new = self.wide_binary(typing, current, one, ty);
            self.access_at = target.span;
            self.store_place(&p, new);
            if !pre {
                return old;
            }
            return match p {
                Place::Var { reg, .. } => Val { op: VOp::Reg(reg), ty },
                _ => new,
            };
        }
        let (add, sub, step) = match ty {
            Ty::Float => (AluOp::FAdd, AluOp::FSub, FLOAT_ONE),
            Ty::Ptr { .. } | Ty::PtrPtr { .. } | Ty::StructPtr { .. } => {
                (AluOp::Add, AluOp::Sub, self.pointee_size(ty))
            }
            _ => (AluOp::Add, AluOp::Sub, 1),
        };
        let new = self.alu(if increment { add } else { sub }, current.op, VOp::Imm(step));
        // A narrow variable wraps as C's conversion back from `int` does.
        let new = self.convert(Val { op: new, ty: ty.promote() }, ty).op;
        self.access_at = target.span;
        self.store_place(&p, Val { op: new, ty });
        if !pre {
            return old;
        }
        match p {
            Place::Var { reg, .. } => Val { op: VOp::Reg(reg), ty },
            _ => Val { op: new, ty },
        }
    }

    // ---- calls --------------------------------------------------------------------------

    pub(super) fn call(&mut self, name: &str, nspan: Span, args: &[Expr], span: Span) -> Val {
        if self.names_an_object(name) {
            // `f(x)` where `f` is an object: its `operator()`.
            let receiver = Expr::new(ExprKind::Name(name.into()), nspan);
            return self.method(&receiver, "operator()", nspan, args, span);
        }
        if let Some(id) = self.struct_named(name) {
            // `S(a, b)`: a temporary object, made by its constructor.
            let made = self.temporary(id, args, span);
            let Place::Regs { regs, .. } = made else { return Val::error() };
            self.returned = regs;
            return Val::error_free(Ty::Struct(id));
        }
        if let Some(resolved) = self.resolve_call(name, args, span) {
            let Ok(fi) = resolved else {
                for e in args {
                    self.expr(e);
                }
                return Val::error();
            };
            return self.call_function(fi, name, args, None, span);
        }
        // A function template whose arguments the call leaves to be deduced, at file scope or
        // a static member (`S::f(…)`).
        let (owner, member) = match name.rsplit_once("::") {
            Some((owner, member)) => (Some(owner), member),
            None => (None, name),
        };
        let full = |instance: &str| owner.map_or(String::from(instance), |o| format!("{o}::{instance}"));
        let exists = |g: &Self, instance: &str| g.sigs.iter().any(|s| s.name == full(instance));
        if let Some(found) = self.deduced_instance(owner, member, args, span, exists) {
            let Ok(instance) = found else {
                args.iter().for_each(|e| {
                    self.expr(e);
                });
                return Val::error();
            };
            return self.call(&full(&instance), nspan, args, span);
        }
        if ATOMICS.contains(&name) {
            return self.atomic(name, args, span);
        }
        if name == "__syncthreads" {
            if self.arity(name, args, 0, span) {
                let site = self.site(span);
                self.code.push(VInstr::Barrier { site });
            }
            return Val::imm(0, Ty::Void);
        }
        if let Some(group_function) = name.strip_prefix(super::qualified::CG) {
            return self.group_call(group_function, args, span);
        }
        if super::builtins::WARP.contains(&name) {
            return self.warp_intrinsic(name, args, span);
        }
        if MATH.contains(&name) {
            return self.math(name, args, span);
        }
        if name == "__ldg" {
            // A load through the read-only data cache: here the load `*p` itself.
            if !self.arity(name, args, 1, span) {
                return Val::error();
            }
            let p = &args[0];
            let load = Expr {
                kind: ExprKind::Unary(UnOp::Deref, alloc::boxed::Box::new(p.clone())),
                span: p.span,
                height: p.height + 1,
            };
            return self.expr(&load);
        }
        if name == "dim3" {
            self.diags.error(span, "`dim3(…)` can only be the grid or block of a launch");
            return Val::error();
        }
        if HOST_ONLY.contains(&name) {
            self.diags.error(nspan, format!("`{name}` is only available in the host block"));
            return Val::error();
        }
        if let Some(why) = super::builtins::not_supported(name) {
            self.diags.error(nspan, format!("`{name}`: {why}"));
            return Val::error();
        }
        self.undefined("function", name, nspan, true);
        for e in args {
            self.expr(e);
        }
        Val::error()
    }

    /// Calls device function `fi` (named `name` in messages) with `args`, and a member
    /// function's object `this` (its first parameter). A function returning a reference
    /// leaves the place it names in [`Gen::returned_place`].
    pub(super) fn call_function(
        &mut self,
        fi: usize,
        name: &str,
        args: &[Expr],
        this: Option<Place>,
        span: Span,
    ) -> Val {
        let sig = &self.sigs[fi];
        if sig.global {
            self.diags
                .error(span, format!("kernel `{name}` is launched with `{name}<<<grid, block>>>(…)`, not called"));
            return Val::error();
        }
        let f = &self.unit.functions[fi];
        let needs_this = f.owner.as_ref().is_some_and(|o| !o.is_static);
        if needs_this && this.is_none() {
            self.diags.error_help(
                span,
                format!("`{name}` is a member function: it is called on an object"),
                "call it as `object.f(…)`, or make it `static`",
            );
            return Val::error();
        }
        let skip = usize::from(needs_this);
        let params = sig.params[skip..].to_vec();
        if args.len() != params.len() {
            self.diags.error(span, format!("`{name}` takes {} arguments, got {}", params.len(), args.len()));
            for e in args {
                self.expr(e);
            }
            return Val::error();
        }
        let mut vals = Vec::with_capacity(args.len());
        let mut refs = Vec::with_capacity(args.len() + 1);
        if let Some(this) = this.filter(|_| needs_this) {
            refs.push(Some(this));
        }
        let mut ok = true;
        for (k, (e, &t)) in args.iter().zip(&params).enumerate() {
            let param = &self.unit.functions[fi].params[k + skip];
            if param.reference {
                let place = self.bound_place(Binding::Arg { func: name, index: k }, t, param.ty.is_const, e);
                ok &= !matches!(place, Place::Error);
                refs.push(Some(place));
                continue;
            }
            refs.push(None);
            if let Ty::Struct(id) = t {
                // A struct argument is its leaves, one value each, in order.
                ok &= self.struct_argument(id, e, (name, k), &mut vals);
                continue;
            }
            let v = self.expr(e);
            vals.push(self.convert_checked(v, t, Ctx::Arg { func: name, index: k }, e));
        }
        if !ok {
            return Val::error();
        }
        self.inline_call(fi, vals, refs, span)
    }

    /// The value of a call just generated: for a function returning a reference, what is at
    /// the place it names.
    fn call_value(&mut self, v: Val, span: Span) -> Val {
        match self.returned_place.take() {
            Some(place) if !matches!(place.ty(), Ty::Struct(_)) => {
                self.access_at = span;
                self.load_place(&place)
            }
            _ => v,
        }
    }

    /// What a reference to a `ty` bound by `e` names (`at` says where, for the messages):
    /// the argument's place when it is a variable, element or member of that type; for a
    /// `const` reference, a value (a copy in a register of its own) or a temporary object
    /// also does, as C++ binds a temporary.
    pub(super) fn bound_place(&mut self, at: Binding<'_>, ty: Ty, is_const: bool, e: &Expr) -> Place {
        let lvalue = e.names_a_place();
        let is_local_value = |p: &Place| matches!(p, Place::Local { .. } | Place::MemArray { .. });
        if let (false, true, Ty::Struct(_)) = (lvalue, is_const, ty) {
            // A `const` reference to a temporary object (`f(S(1))`, a call returning one).
            let place = self.struct_source(e);
            if place.ty() == ty || place.ty() == Ty::Error {
                return place;
            }
            let (want, got) = (self.a_type(ty), self.a_type(place.ty()));
            self.diags.error(e.span, at.not_that_object(&want, &got));
            return Place::Error;
        }
        if lvalue {
            let place = self.place(e);
            let found = place.ty();
            if found == ty && !is_local_value(&place) {
                return place;
            }
            if found == Ty::Error {
                return Place::Error;
            }
            if !is_const || is_local_value(&place) || matches!(ty, Ty::Struct(_)) {
                let (want, got) = (self.a_type(ty), self.a_type(found));
                let what = if is_local_value(&place) { "an element of a local array".into() } else { got };
                self.diags.error(e.span, at.not_that_place(&want, &what));
                return Place::Error;
            }
        } else if !is_const {
            let want = self.a_type(ty);
            self.diags.error(e.span, at.not_a_value(&want));
            return Place::Error;
        }
        // A `const` reference to a value: the value, converted, in a register of its own.
        let v = self.expr(e);
        let v = self.convert_checked(v, ty, at.ctx(), e);
        self.value_place(v)
    }

    /// Value `v` as a place: a register of its own, read-only (an error, already reported,
    /// stays one).
    pub(super) fn value_place(&mut self, v: Val) -> Place {
        if v.ty == Ty::Error {
            return Place::Error;
        }
        Place::Var { reg: self.copied(v.op), ty: v.ty, name: String::new(), is_const: true }
    }

    /// Checks the argument count of a built-in (evaluating the arguments if it is wrong).
    pub(super) fn arity(&mut self, name: &str, args: &[Expr], n: usize, span: Span) -> bool {
        if args.len() == n {
            return true;
        }
        let plural = if n == 1 { "" } else { "s" };
        self.diags.error(span, format!("`{name}` takes {n} argument{plural}, got {}", args.len()));
        for e in args {
            self.expr(e);
        }
        false
    }

    fn arith_arg(&mut self, name: &str, e: &Expr) -> Val {
        let v = self.expr(e);
        if !v.ty.is_arith() {
            self.diags.error(e.span, format!("`{name}` needs a number, found {}", a(v.ty)));
            return Val::error();
        }
        v
    }

    fn math(&mut self, name: &str, args: &[Expr], span: Span) -> Val {
        let written = name;
        // C++'s float overloads (`exp`, `pow`, …) and the fast intrinsics (`__expf`) are the
        // single-precision functions; given a 64-bit argument, the overloads are the
        // double-precision ones (`super::wide`).
        let name = match name {
            "fabs" => "fabsf",
            "fmin" => "fminf",
            "fmax" => "fmaxf",
            "fma" => "fmaf",
            "rsqrt" => "rsqrtf",
            "__popc" | "__clz" | "__fdividef" | "__mul24" | "__umul24" => name,
            n if n.contains("_as_") => name,
            other => {
                let plain = other.trim_start_matches("__");
                match plain {
                    "sqrt" | "exp" | "exp2" | "log" | "log2" | "sin" | "cos" | "tanh" | "pow" | "floor" | "ceil"
                    | "trunc" | "round" | "log10" | "fmod" | "tan" | "asin" | "acos" | "atan" | "atan2" | "sinh"
                    | "cosh" | "cbrt" | "hypot" | "erf" | "erfc" | "expm1" | "log1p" | "exp10" => match plain {
                        "tan" => "tanf",
                        "asin" => "asinf",
                        "acos" => "acosf",
                        "atan" => "atanf",
                        "atan2" => "atan2f",
                        "sinh" => "sinhf",
                        "cosh" => "coshf",
                        "cbrt" => "cbrtf",
                        "hypot" => "hypotf",
                        "erf" => "erff",
                        "erfc" => "erfcf",
                        "expm1" => "expm1f",
                        "log1p" => "log1pf",
                        "exp10" => "exp10f",
                        "log10" => "log10f",
                        "fmod" => "fmodf",
                        "sqrt" => "sqrtf",
                        "exp" => "expf",
                        "exp2" => "exp2f",
                        "log" => "logf",
                        "log2" => "log2f",
                        "sin" => "sinf",
                        "cos" => "cosf",
                        "tanh" => "tanhf",
                        "pow" => "powf",
                        "floor" => "floorf",
                        "ceil" => "ceilf",
                        "trunc" => "truncf",
                        _ => "roundf",
                    },
                    _ => plain,
                }
            }
        };
        let n = match name {
            "min" | "max" | "fminf" | "fmaxf" | "__fdividef" | "powf" | "fmodf" | "atan2f" | "hypotf" | "__mul24"
            | "__umul24" => 2,
            "fmaf" => 3,
            _ => 1,
        };
        if !self.arity(name, args, n, span) {
            return Val::error();
        }
        let vals: Vec<Val> = args.iter().map(|e| self.arith_arg(name, e)).collect();
        if vals.iter().any(|v| v.ty == Ty::Error) {
            return Val::error();
        }
        if let Some((from, to)) = reinterpretation(name) {
            // The bits as they are, read as the other type (the argument converted to the
            // one the function takes first, as C++ would).
            let v = self.convert(vals[0], from);
            return Val { op: v.op, ty: to };
        }
        if vals.iter().any(|v| v.ty.is_wide()) {
            if let Some(v) = self.wide_math(written, &vals) {
                return v;
            }
        }
        let float = |g: &mut Self, v: Val| g.convert(v, Ty::Float).op;
        match name {
            "min" | "max" => {
                let t = common(vals[0].ty, vals[1].ty);
                let (x, y) = (self.convert(vals[0], t), self.convert(vals[1], t));
                let op = match (name, t) {
                    ("min", Ty::Float) => AluOp::FMin,
                    ("max", Ty::Float) => AluOp::FMax,
                    ("min", Ty::Uint) => AluOp::MinU,
                    ("max", Ty::Uint) => AluOp::MaxU,
                    ("min", _) => AluOp::MinS,
                    _ => AluOp::MaxS,
                };
                Val { op: self.alu(op, x.op, y.op), ty: t }
            }
            "abs" => {
                let t = vals[0].ty.promote();
                let v = self.convert(vals[0], t);
                let op = if t == Ty::Float { UnaryOp::FAbs } else { UnaryOp::Abs };
                Val { op: self.unary_op(op, v.op), ty: t }
            }
            "fabsf" | "floorf" | "ceilf" | "truncf" | "roundf" => {
                let op = match name {
                    "fabsf" => UnaryOp::FAbs,
                    "floorf" => UnaryOp::Floor,
                    "ceilf" => UnaryOp::Ceil,
                    "truncf" => UnaryOp::Trunc,
                    _ => UnaryOp::Round,
                };
                let x = float(self, vals[0]);
                Val { op: self.unary_op(op, x), ty: Ty::Float }
            }
            "__popc" | "__clz" => {
                let x = self.convert(vals[0], Ty::Uint);
                let op = if name == "__popc" { UnaryOp::Popc } else { UnaryOp::Clz };
                Val { op: self.unary_op(op, x.op), ty: Ty::Int }
            }
            "__mul24" | "__umul24" => {
                // The low 24 bits of each operand (sign-extended for `__mul24`), multiplied;
                // the low 32 bits of the product.
                let unsigned = name == "__umul24";
                let ty = if unsigned { Ty::Uint } else { Ty::Int };
                let low24 = |g: &mut Self, v: Val| {
                    let v = g.convert(v, ty).op;
                    if unsigned {
                        g.alu(AluOp::And, v, VOp::Imm(0x00FF_FFFF))
                    } else {
                        let up = g.alu(AluOp::Shl, v, VOp::Imm(8));
                        g.alu(AluOp::ShrS, up, VOp::Imm(8))
                    }
                };
                let (x, y) = (low24(self, vals[0]), low24(self, vals[1]));
                Val { op: self.alu(AluOp::Mul, x, y), ty }
            }
            "powf" | "fmodf" | "atan2f" | "hypotf" => {
                let (x, y) = (float(self, vals[0]), float(self, vals[1]));
                let op = match name {
                    "powf" => SfuOp::Pow,
                    "fmodf" => SfuOp::Fmod,
                    "atan2f" => SfuOp::Atan2,
                    _ => SfuOp::Hypot,
                };
                Val { op: self.sfu(op, x, y), ty: Ty::Float }
            }
            // C's classification macros: `x != x`, and `|x|` against infinity.
            "isnan" | "isinf" | "isfinite" => {
                let ty = if vals[0].ty == Ty::Double { Ty::Double } else { Ty::Float };
                let x = self.convert(vals[0], ty);
                Val { op: self.classify(name, x), ty: Ty::Bool }
            }
            "fminf" | "fmaxf" | "__fdividef" => {
                let (x, y) = (float(self, vals[0]), float(self, vals[1]));
                let op = match name {
                    "fminf" => self.alu(AluOp::FMin, x, y),
                    "fmaxf" => self.alu(AluOp::FMax, x, y),
                    _ => self.sfu(SfuOp::FDiv, x, y),
                };
                Val { op, ty: Ty::Float }
            }
            "fmaf" => {
                let (x, y, z) = (float(self, vals[0]), float(self, vals[1]), float(self, vals[2]));
                if let (VOp::Imm(p), VOp::Imm(q), VOp::Imm(r)) = (x, y, z) {
                    return Val::imm(alu::fma(p, q, r), Ty::Float);
                }
                let dst = self.temp();
                self.emit(VInstr::Fma { dst, a: x, b: y, c: z });
                Val { op: VOp::Reg(dst), ty: Ty::Float }
            }
            _ => {
                let op = match name.trim_start_matches("__") {
                    "sqrtf" => SfuOp::Sqrt,
                    "rsqrtf" => SfuOp::Rsqrt,
                    "expf" => SfuOp::Exp,
                    "logf" => SfuOp::Log,
                    "sinf" => SfuOp::Sin,
                    "exp2f" => SfuOp::Exp2,
                    "log2f" => SfuOp::Log2,
                    "tanhf" => SfuOp::Tanh,
                    "log10f" => SfuOp::Log10,
                    "tanf" => SfuOp::Tan,
                    "asinf" => SfuOp::Asin,
                    "acosf" => SfuOp::Acos,
                    "atanf" => SfuOp::Atan,
                    "sinhf" => SfuOp::Sinh,
                    "coshf" => SfuOp::Cosh,
                    "cbrtf" => SfuOp::Cbrt,
                    "erff" => SfuOp::Erf,
                    "erfcf" => SfuOp::Erfc,
                    "expm1f" => SfuOp::Expm1,
                    "log1pf" => SfuOp::Log1p,
                    "exp10f" => SfuOp::Exp10,
                    _ => SfuOp::Cos,
                };
                let x = float(self, vals[0]);
                Val { op: self.sfu(op, x, VOp::Imm(0)), ty: Ty::Float }
            }
        }
    }

    /// `isnan(x)`, `isinf(x)` or `isfinite(x)` of a `float` or `double`: `x != x`, or `|x|`
    /// against infinity (`|x| < inf` is false for a NaN, as `isfinite` must be).
    fn classify(&mut self, name: &str, x: Val) -> VOp {
        let op = match name {
            "isnan" => CmpOp::Ne,
            "isinf" => CmpOp::Eq,
            _ => CmpOp::Lt,
        };
        if x.ty == Ty::Double {
            if name == "isnan" {
                return self.wide_binary(Lowered::WideCmp(op, WideCmpType::Double), x, x, Ty::Bool).op;
            }
            let magnitude = self.wide_math("fabs", &[x]).unwrap_or(Val::error());
            let infinity = self.wide_const(f64::INFINITY.to_bits(), Ty::Double);
            return self.wide_binary(Lowered::WideCmp(op, WideCmpType::Double), magnitude, infinity, Ty::Bool).op;
        }
        if name == "isnan" {
            return self.cmp(op, CmpType::Float, x.op, x.op);
        }
        let magnitude = self.unary_op(UnaryOp::FAbs, x.op);
        self.cmp(op, CmpType::Float, magnitude, VOp::Imm(f32::INFINITY.to_bits()))
    }

    /// The address an atomic works on: `&place` in global or shared memory, or a pointer.
    fn atomic_target(&mut self, name: &str, e: &Expr) -> Option<(Space, VReg, Ty)> {
        if let ExprKind::Unary(UnOp::AddrOf, x) = &e.kind {
            return match self.place(x) {
                Place::Mem { space, base, offset, ty, readonly } => {
                    if readonly {
                        self.diags.error(e.span, format!("`{name}` cannot write through a pointer to `const {ty}`"));
                        return None;
                    }
                    let addr = self.mem_address(base, offset);
                    Some((space, self.in_reg(addr), ty))
                }
                Place::Var { .. } | Place::Local { .. } | Place::Regs { .. } | Place::MemArray { .. } => {
                    self.diags.error(
                        e.span,
                        format!("`{name}` needs an address in global or shared memory, such as `&a[i]`"),
                    );
                    None
                }
                Place::Error => None,
            };
        }
        let v = self.expr(e);
        match v.ty {
            Ty::Ptr { readonly: true, elem, .. } => {
                self.diags.error(
                    e.span,
                    format!("`{name}` cannot write through a pointer to `const {}`", Ty::from_scalar(elem)),
                );
                None
            }
            Ty::Ptr { elem, shared, .. } => Some((space_of(shared), self.in_reg(v.op), Ty::from_scalar(elem))),
            Ty::Error => None,
            t => {
                self.diags.error(
                    e.span,
                    format!("the first argument of `{name}` must be an address such as `&a[i]`, found {}", a(t)),
                );
                None
            }
        }
    }

    fn atomic(&mut self, name: &str, args: &[Expr], span: Span) -> Val {
        let n = if name == "atomicCAS" { 3 } else { 2 };
        if !self.arity(name, args, n, span) {
            return Val::error();
        }
        let target = self.atomic_target(name, &args[0]);
        let mut vals = Vec::new();
        for (k, e) in args.iter().enumerate().skip(1) {
            let v = self.expr(e);
            let v = match target {
                Some((_, _, elem)) => self.convert_checked(v, elem, Ctx::Arg { func: name, index: k }, e),
                None => v,
            };
            vals.push(v);
        }
        let Some((space, addr, elem)) = target else { return Val::error() };
        if vals.iter().any(|v| v.ty == Ty::Error) {
            return Val::error();
        }
        if elem.is_wide() {
            return self.atomic64(name, space, addr, elem, &vals, span);
        }
        let float = elem == Ty::Float;
        let unsigned = elem == Ty::Uint;
        let op = match name {
            "atomicAdd" if float => AtomicOp::FAdd,
            "atomicAdd" | "atomicSub" => AtomicOp::Add,
            "atomicExch" => AtomicOp::Exch,
            "atomicCAS" => AtomicOp::Cas,
            _ if float => {
                self.diags.error(span, format!("`{name}` does not support `float`"));
                return Val::error();
            }
            "atomicMin" if unsigned => AtomicOp::MinU,
            "atomicMin" => AtomicOp::MinS,
            "atomicMax" if unsigned => AtomicOp::MaxU,
            "atomicMax" => AtomicOp::MaxS,
            "atomicAnd" => AtomicOp::And,
            "atomicOr" => AtomicOp::Or,
            "atomicInc" | "atomicDec" if !unsigned => {
                self.diags.error(span, format!("`{name}` works on `unsigned` values"));
                return Val::error();
            }
            "atomicInc" => AtomicOp::Inc,
            "atomicDec" => AtomicOp::Dec,
            _ => AtomicOp::Xor,
        };
        if name == "atomicSub" && float {
            self.diags.error(span, "`atomicSub` does not support `float`; use `atomicAdd` with the negated value");
            return Val::error();
        }
        let (src, compare) = match name {
            "atomicCAS" => (vals[1].op, vals[0].op),
            "atomicSub" => (self.unary_op(UnaryOp::Neg, vals[0].op), VOp::Imm(0)),
            _ => (vals[0].op, VOp::Imm(0)),
        };
        let dst = self.temp();
        let site = self.site(span);
        self.emit(VInstr::Atomic { op, space, width: Width::Word, dst, addr, src, compare, site });
        Val { op: VOp::Reg(dst), ty: elem }
    }

    /// An atomic on 8 bytes: `atomicAdd` on `double` (as sm_60 has it), and on 64-bit
    /// integers `atomicAdd`, `atomicExch`, `atomicCAS`, `atomicMin`, `atomicMax` (signed for
    /// `long long`), `atomicAnd`, `atomicOr` and `atomicXor`. One instruction on register pairs.
    fn atomic64(&mut self, name: &str, space: Space, addr: VReg, elem: Ty, vals: &[Val], span: Span) -> Val {
        let signed = elem == Ty::Long;
        let op = match name {
            "atomicAdd" if elem == Ty::Double => AtomicOp::FAdd,
            _ if elem == Ty::Double => {
                self.diags.error(span, format!("`{name}` does not support `double`; CUDA has `atomicAdd` on it"));
                return Val::error();
            }
            "atomicAdd" => AtomicOp::Add,
            "atomicExch" => AtomicOp::Exch,
            "atomicCAS" => AtomicOp::Cas,
            "atomicMin" if signed => AtomicOp::MinS,
            "atomicMin" => AtomicOp::MinU,
            "atomicMax" if signed => AtomicOp::MaxS,
            "atomicMax" => AtomicOp::MaxU,
            "atomicAnd" => AtomicOp::And,
            "atomicOr" => AtomicOp::Or,
            "atomicXor" => AtomicOp::Xor,
            _ => {
                self.diags.error(span, format!("`{name}` has no 64-bit form; it works on `int` and `unsigned`"));
                return Val::error();
            }
        };
        // Operands in registers: a 64-bit value is a pair, never an immediate.
        let pair = |g: &mut Self, v: Val| VOp::Reg(g.wide_reg(v));
        let (src, compare) = match name {
            "atomicCAS" => (pair(self, vals[1]), pair(self, vals[0])),
            _ => (pair(self, vals[0]), VOp::Imm(0)),
        };
        let dst = self.temp();
        let site = self.site(span);
        self.emit(VInstr::Atomic { op, space, width: Width::Dword, dst, addr, src, compare, site });
        Val { op: VOp::Reg(dst), ty: elem }
    }
}

/// The value of an expression made only of literals and operators, if it is one.
pub(crate) fn const_value(e: &Expr) -> Option<(u32, Ty)> {
    match &e.kind {
        ExprKind::Int { value, unsigned } => Some((*value, if *unsigned { Ty::Uint } else { Ty::Int })),
        ExprKind::Float(f) => Some((f.to_bits(), Ty::Float)),
        ExprKind::Bool(b) => Some((u32::from(*b), Ty::Bool)),
        ExprKind::Unary(op, x) => {
            let (v, t) = const_value(x)?;
            fold_unary(*op, v, t)
        }
        ExprKind::Binary(op, l, r) => {
            let (x, tx) = const_value(l)?;
            let (y, ty) = const_value(r)?;
            fold_binary(*op, x, tx, y, ty).ok()
        }
        ExprKind::Cond(c, x, y) => {
            let (cv, ct) = const_value(c)?;
            let (xv, xt) = const_value(x)?;
            let (yv, yt) = const_value(y)?;
            let t = common(xt, yt);
            let t = if xt == Ty::Bool && yt == Ty::Bool { Ty::Bool } else { t };
            let pick = convert_const(cv, ct, Ty::Bool) != 0;
            Some(if pick { (convert_const(xv, xt, t), t) } else { (convert_const(yv, yt, t), t) })
        }
        ExprKind::Cast(t, x) => {
            let (v, from) = const_value(x)?;
            let to = Ty::from_type_expr(t)?;
            (to.is_arith() && to != Ty::Void).then(|| (convert_const(v, from, to), to))
        }
        _ => None,
    }
}
