//! 64-bit values in the code generator: `long long`, `unsigned long long` and `double`, each
//! held in one wide virtual register (a register pair once allocated). A 64-bit constant is
//! made by a [`VInstr::Pack`] of its two words; it is folded where it meets a conversion or an
//! operator with another constant, and the pack is then taken back. Part of
//! [`super::codegen::Gen`].

use alloc::format;

use super::codegen::Gen;
use super::diag::Span;
use super::expr::Val;
use super::types::{convert_bits, eval_wide, Conversion, Lowered, Ty};
use super::vcode::{VInstr, VOp, VReg};
use crate::exec::wide::split;
use crate::isa::{CmpOp, WideCmpType, WideOp, WideUnaryOp};

impl Gen<'_, '_> {
    /// The 64-bit constant `bits` of type `ty`, in a fresh wide register.
    pub(super) fn wide_const(&mut self, bits: u64, ty: Ty) -> Val {
        let (lo, hi) = split(bits);
        let dst = self.temp();
        self.emit(VInstr::Pack { dst, lo: VOp::Imm(lo), hi: VOp::Imm(hi) });
        self.packed.push((dst, bits));
        Val { op: VOp::Reg(dst), ty }
    }

    /// The bits of a 64-bit value known at compile time (a constant not yet copied anywhere).
    pub(super) fn wide_bits(&self, v: Val) -> Option<u64> {
        let VOp::Reg(r) = v.op else { return None };
        if !v.ty.is_wide() || !self.is_temp[r as usize] || self.writes[r as usize] != 1 {
            return None;
        }
        self.packed.iter().rev().find(|(p, _)| *p == r).map(|&(_, bits)| bits)
    }

    /// Takes back the pack of a constant that was folded, if nothing came after it.
    fn unpack(&mut self, v: Val) {
        let VOp::Reg(r) = v.op else { return };
        if matches!(self.code.last(), Some(VInstr::Pack { dst, .. }) if *dst == r) && self.writes[r as usize] == 1 {
            self.code.pop();
            self.writes[r as usize] = 0;
        }
    }

    /// A 64-bit value's register (the value of an error: a zero).
    pub(super) fn wide_reg(&mut self, v: Val) -> VReg {
        match v.op {
            VOp::Reg(r) if v.ty.is_wide() || self.wide.get(r as usize).copied().unwrap_or(false) => {
                self.wide[r as usize] = true;
                r
            }
            _ => match self.wide_const(0, Ty::Long).op {
                VOp::Reg(r) => r,
                VOp::Imm(_) => 0,
            },
        }
    }

    /// A constant of any arithmetic type: 32-bit values in the low word.
    fn const_bits(&self, v: Val) -> Option<u64> {
        match v.op {
            VOp::Imm(k) if !v.ty.is_wide() => Some(k as u64),
            _ => self.wide_bits(v),
        }
    }

    /// A constant of type `ty` from its bits.
    fn const_val(&mut self, bits: u64, ty: Ty) -> Val {
        if ty.is_wide() {
            self.wide_const(bits, ty)
        } else {
            Val::imm(bits as u32, ty)
        }
    }

    /// Carries out a conversion with a 64-bit side (`conversion(v.ty, to)`), folding constants.
    pub(super) fn convert_wide(&mut self, v: Val, to: Ty, how: Conversion) -> VOp {
        if let Some(bits) = self.const_bits(v) {
            self.unpack(v);
            return self.const_val(convert_bits(bits, v.ty, to), to).op;
        }
        match how {
            Conversion::Wide(op) => self.wide_unary(op, v),
            Conversion::WideThen(op, then) => {
                let word = self.wide_unary(op, v);
                self.unary_op(then, word)
            }
            Conversion::Low => self.half(v, false),
            Conversion::LowThen(then) => {
                let word = self.half(v, false);
                self.unary_op(then, word)
            }
            Conversion::WideNonZero(ty) => {
                let zero = self.wide_const(0, v.ty);
                self.wide_cmp(CmpOp::Ne, ty, v, zero)
            }
            // 64-bit integers to each other: the same bits.
            _ => v.op,
        }
    }

    /// `op v` into a fresh register (wide where the operation writes a pair).
    fn wide_unary(&mut self, op: WideUnaryOp, v: Val) -> VOp {
        let a = if op.reads_pair() { self.wide_reg(v) } else { self.in_reg(v.op) };
        let dst = self.temp();
        self.emit(VInstr::WideUnary { op, dst, a });
        VOp::Reg(dst)
    }

    /// One word of a 64-bit value.
    fn half(&mut self, v: Val, high: bool) -> VOp {
        let src = self.wide_reg(v);
        let dst = self.temp();
        self.emit(VInstr::Half { dst, src, high });
        VOp::Reg(dst)
    }

    fn wide_cmp(&mut self, op: CmpOp, ty: WideCmpType, a: Val, b: Val) -> VOp {
        let (a, b) = (self.wide_reg(a), self.wide_reg(b));
        let dst = self.temp();
        self.emit(VInstr::WideCmp { op, ty, dst, a, b });
        VOp::Reg(dst)
    }

    /// `x op y` for a 64-bit operator (`Lowered::Wide` or `Lowered::WideCmp`), the operands
    /// already converted to its operand type (a shift's count to `long long` here).
    pub(super) fn wide_binary(&mut self, lowered: Lowered, x: Val, y: Val, result: Ty) -> Val {
        let y = match lowered {
            Lowered::Wide(WideOp::Shl | WideOp::ShrS | WideOp::ShrU) => self.convert(y, Ty::Long),
            _ => y,
        };
        if let (Some(a), Some(b)) = (self.wide_bits(x), self.wide_bits(y)) {
            // The later pack first: each comes back only while it is the last instruction.
            self.unpack(y);
            self.unpack(x);
            return self.const_val(eval_wide(lowered, a, b), result);
        }
        let op = match lowered {
            Lowered::WideCmp(op, ty) => self.wide_cmp(op, ty, x, y),
            Lowered::Wide(op) => {
                let (a, b) = (self.wide_reg(x), self.wide_reg(y));
                let dst = self.temp();
                self.emit(VInstr::Wide { op, dst, a, b });
                VOp::Reg(dst)
            }
            _ => VOp::Imm(0),
        };
        Val { op, ty: result }
    }

    /// `-v`, `~v` on a 64-bit value.
    pub(super) fn wide_negate(&mut self, bitwise: bool, v: Val) -> Val {
        let op = match (bitwise, v.ty) {
            (true, _) => WideUnaryOp::Not,
            (false, Ty::Double) => WideUnaryOp::DNeg,
            (false, _) => WideUnaryOp::Neg,
        };
        if let Some(bits) = self.wide_bits(v) {
            self.unpack(v);
            return self.wide_const(crate::exec::wide::wide_unary(op, bits), v.ty);
        }
        Val { op: self.wide_unary(op, v), ty: v.ty }
    }

    /// `v != 0` for a 64-bit value (`!v` where `equal`).
    pub(super) fn wide_truth(&mut self, v: Val, equal: bool) -> VOp {
        let ty = if v.ty == Ty::Double { WideCmpType::Double } else { WideCmpType::Long };
        let zero = self.wide_const(0, v.ty);
        self.wide_cmp(if equal { CmpOp::Eq } else { CmpOp::Ne }, ty, v, zero)
    }

    /// A 64-bit value moved into `dst`, which becomes (or is) wide.
    pub(super) fn move_wide_into(&mut self, dst: VReg, src: VReg) {
        let fresh = self.is_temp[src as usize] && self.writes[src as usize] == 1;
        if fresh && matches!(self.code.last(), Some(last) if last.def() == Some(src)) {
            if let Some(last) = self.code.last_mut() {
                last.set_def(dst);
            }
            self.writes[src as usize] -= 1;
            self.writes[dst as usize] += 1;
            self.wide[dst as usize] = true;
            self.forget(src);
            self.forget(dst);
            return;
        }
        self.emit(VInstr::Mov64 { dst, src });
    }

    /// A math function given a 64-bit argument, if it has a 64-bit overload (as C++'s `<cmath>`
    /// and CUDA's `min` and `max`): computed in the arguments' common type.
    pub(super) fn wide_math(&mut self, name: &str, vals: &[Val]) -> Option<Val> {
        use WideUnaryOp as U;
        let unary = match name {
            "sqrt" => Some(U::DSqrt),
            "rsqrt" => Some(U::DRsqrt),
            "exp" => Some(U::DExp),
            "exp2" => Some(U::DExp2),
            "log" => Some(U::DLog),
            "log2" => Some(U::DLog2),
            "sin" => Some(U::DSin),
            "cos" => Some(U::DCos),
            "tanh" => Some(U::DTanh),
            "floor" => Some(U::DFloor),
            "ceil" => Some(U::DCeil),
            "trunc" => Some(U::DTrunc),
            "round" => Some(U::DRound),
            "fabs" => Some(U::DAbs),
            "log10" => Some(U::DLog10),
            "tan" => Some(U::DTan),
            "asin" => Some(U::DAsin),
            "acos" => Some(U::DAcos),
            "atan" => Some(U::DAtan),
            "sinh" => Some(U::DSinh),
            "cosh" => Some(U::DCosh),
            "cbrt" => Some(U::DCbrt),
            "erf" => Some(U::DErf),
            "erfc" => Some(U::DErfc),
            "expm1" => Some(U::DExpm1),
            "log1p" => Some(U::DLog1p),
            "exp10" => Some(U::DExp10),
            _ => None,
        };
        if let Some(op) = unary {
            let x = self.convert(vals[0], Ty::Double);
            if let Some(bits) = self.wide_bits(x) {
                self.unpack(x);
                return Some(self.wide_const(crate::exec::wide::wide_unary(op, bits), Ty::Double));
            }
            return Some(Val { op: self.wide_unary(op, x), ty: Ty::Double });
        }
        match name {
            "abs" => {
                let t = vals[0].ty;
                if t == Ty::Double {
                    return self.wide_math("fabs", vals);
                }
                Some(self.wide_negate_abs(vals[0]))
            }
            "pow" | "fmod" | "atan2" | "hypot" | "fmin" | "fmax" | "min" | "max" => {
                let floating = matches!(name, "pow" | "fmod" | "atan2" | "hypot" | "fmin" | "fmax");
                let t = if floating { Ty::Double } else { super::types::common(vals[0].ty, vals[1].ty) };
                let (x, y) = (self.convert(vals[0], t), self.convert(vals[1], t));
                let unsigned = t == Ty::ULong;
                let op = match (name, t) {
                    ("pow", _) => WideOp::DPow,
                    ("fmod", _) => WideOp::DFmod,
                    ("atan2", _) => WideOp::DAtan2,
                    ("hypot", _) => WideOp::DHypot,
                    ("fmin" | "min", Ty::Double) => WideOp::DMin,
                    ("fmax" | "max", Ty::Double) => WideOp::DMax,
                    ("min", _) if unsigned => WideOp::MinU,
                    ("min", _) => WideOp::MinS,
                    _ if unsigned => WideOp::MaxU,
                    _ => WideOp::MaxS,
                };
                Some(self.wide_binary(Lowered::Wide(op), x, y, t))
            }
            "fma" => {
                let [x, y, z] = [vals[0], vals[1], vals[2]].map(|v| self.convert(v, Ty::Double));
                if let (Some(a), Some(b), Some(c)) = (self.wide_bits(x), self.wide_bits(y), self.wide_bits(z)) {
                    // The later packs first, as in `wide_binary`.
                    self.unpack(z);
                    self.unpack(y);
                    self.unpack(x);
                    return Some(self.wide_const(crate::exec::wide::fma(a, b, c), Ty::Double));
                }
                let (a, b, c) = (self.wide_reg(x), self.wide_reg(y), self.wide_reg(z));
                let dst = self.temp();
                self.emit(VInstr::WideFma { dst, a, b, c });
                Some(Val { op: VOp::Reg(dst), ty: Ty::Double })
            }
            _ => None,
        }
    }

    /// `abs(v)`: the absolute value of a 64-bit integer (wrapping at the minimum).
    fn wide_negate_abs(&mut self, v: Val) -> Val {
        let t = if v.ty == Ty::ULong { Ty::ULong } else { Ty::Long };
        let v = self.convert(v, t);
        Val { op: self.wide_unary(WideUnaryOp::Abs, v), ty: t }
    }

    /// An error for a 64-bit value where the language does not take one yet (`what` names the
    /// feature).
    pub(super) fn wide_unsupported(&mut self, span: Span, what: &str) -> Val {
        self.diags.error(span, format!("{what} is not supported yet"));
        Val::error()
    }
}
