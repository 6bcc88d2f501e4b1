//! Warp-level intrinsics: shuffles (`__shfl_*_sync`), votes (`__all_sync`, `__any_sync`,
//! `__ballot_sync`, `__activemask`), and the calls that only order things (`__syncwarp`,
//! `__threadfence*`). Part of [`super::codegen::Gen`].
//!
//! The `mask` of a `_sync` call chooses the lanes of a vote; a shuffle's mask is evaluated
//! and otherwise unused, since the lanes that run an instruction together are the warp's
//! active lanes (the SIMT stack keeps diverged lanes apart, as GPUs before Volta did).
//! The pre-CUDA 9 names without `_sync` are the same calls over the whole warp.

use alloc::format;

use super::ast::Expr;
use super::codegen::Gen;
use super::diag::Span;
use super::expr::Val;
use super::types::{a, Ty};
use super::vcode::{VInstr, VOp};
use crate::isa::{ShuffleMode, Special, VoteMode};

impl Gen<'_, '_> {
    /// Compiles a call of one of [`WARP`](super::builtins::WARP).
    pub(super) fn warp_intrinsic(&mut self, name: &str, args: &[Expr], span: Span) -> Val {
        let base = name.trim_end_matches("_sync");
        let with_mask = base.len() != name.len();
        match base {
            "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" => {
                let mode = match base {
                    "__shfl" => ShuffleMode::Idx,
                    "__shfl_up" => ShuffleMode::Up,
                    "__shfl_down" => ShuffleMode::Down,
                    _ => ShuffleMode::Xor,
                };
                self.shuffle(name, mode, with_mask, args, span)
            }
            "__all" | "__any" | "__ballot" => {
                let mode = match base {
                    "__all" => VoteMode::All,
                    "__any" => VoteMode::Any,
                    _ => VoteMode::Ballot,
                };
                let n = with_mask as usize + 1;
                if !self.arity(name, args, n, span) {
                    return Val::error();
                }
                let mask = if with_mask { self.int_argument(name, &args[0]) } else { VOp::Imm(u32::MAX) };
                let pred = self.expr(&args[n - 1]);
                let pred = self.truth(pred, args[n - 1].span);
                let ty = if mode == VoteMode::Ballot { Ty::Uint } else { Ty::Int };
                Val { op: self.vote(mode, mask, pred), ty }
            }
            "__activemask" => {
                if !self.arity(name, args, 0, span) {
                    return Val::error();
                }
                Val { op: self.vote(VoteMode::Ballot, VOp::Imm(u32::MAX), VOp::Imm(1)), ty: Ty::Uint }
            }
            // `__syncwarp`: the lanes that run it are already together. Fences: a store
            // changes memory when it executes, so every later access of any thread sees it;
            // what a fence costs in time on a GPU is not modelled. Both keep the kernel's
            // loads from being forwarded (`Gen::fences`).
            _ => {
                self.fences = true;
                if name == "__syncwarp" && args.len() == 1 {
                    self.int_argument(name, &args[0]);
                } else {
                    self.arity(name, args, 0, span);
                }
                Val::imm(0, Ty::Void)
            }
        }
    }

    fn shuffle(&mut self, name: &str, mode: ShuffleMode, with_mask: bool, args: &[Expr], span: Span) -> Val {
        let first = with_mask as usize;
        if args.len() < first + 2 || args.len() > first + 3 {
            let (least, most) = (first + 2, first + 3);
            self.diags.error(span, format!("`{name}` takes {least} or {most} arguments, got {}", args.len()));
            for e in args {
                self.expr(e);
            }
            return Val::error();
        }
        if with_mask {
            self.int_argument(name, &args[0]);
        }
        let Some(value) = self.shuffle_value(name, &args[first], true) else { return Val::error() };
        let b = self.int_argument(name, &args[first + 1]);
        let width = match args.get(first + 2) {
            Some(e) => self.int_argument(name, e),
            None => self.special(Special::WarpSize),
        };
        if let VOp::Imm(w) = width {
            if !(1..=32).contains(&w) || !w.is_power_of_two() {
                self.diags.error(
                    args[first + 2].span,
                    format!("the width of `{name}` must be a power of two from 1 to 32, not {}", w as i32),
                );
                return Val::error();
            }
        }
        Val { op: self.shuffle_any(mode, value, b, width), ty: value.ty }
    }

    /// The value a shuffle (or, without `wide`, a reduction) exchanges: an `int`, `unsigned`
    /// or `float`, or with `wide` a `long long`, `unsigned long long` or `double` too.
    pub(super) fn shuffle_value(&mut self, name: &str, e: &Expr, wide: bool) -> Option<Val> {
        let value = self.expr(e);
        let ty = match value.ty {
            Ty::Int | Ty::Uint | Ty::Float | Ty::Bool => value.ty.promote(),
            Ty::Long | Ty::ULong | Ty::Double if wide => value.ty,
            Ty::Error => return None,
            other => {
                let what = a(other);
                let types = if wide { "a 32- or 64-bit number" } else { "an `int`, `unsigned` or `float`" };
                self.diags.error(e.span, format!("`{name}` exchanges {types}, not {what}"));
                return None;
            }
        };
        Some(self.convert(value, ty))
    }

    /// A shuffle of `value`; a 64-bit one as two, a word each, as nvcc compiles it.
    pub(super) fn shuffle_any(&mut self, mode: ShuffleMode, value: Val, b: VOp, width: VOp) -> VOp {
        if !value.ty.is_wide() {
            return self.emit_shuffle(mode, value.op, b, width);
        }
        let pair = self.wide_reg(value);
        let mut words = [VOp::Imm(0); 2];
        for (k, word) in words.iter_mut().enumerate() {
            let half = self.temp();
            self.emit(VInstr::Half { dst: half, src: pair, high: k == 1 });
            *word = self.emit_shuffle(mode, VOp::Reg(half), b, width);
        }
        let dst = self.temp();
        self.emit(VInstr::Pack { dst, lo: words[0], hi: words[1] });
        VOp::Reg(dst)
    }

    pub(super) fn emit_shuffle(&mut self, mode: ShuffleMode, value: VOp, b: VOp, width: VOp) -> VOp {
        let dst = self.temp();
        self.emit(VInstr::Shuffle { mode, dst, value, b, width });
        VOp::Reg(dst)
    }

    pub(super) fn vote(&mut self, mode: VoteMode, mask: VOp, pred: VOp) -> VOp {
        let dst = self.temp();
        self.emit(VInstr::Vote { mode, dst, mask, pred });
        VOp::Reg(dst)
    }

    /// An integer argument, converted to `unsigned` (an error if it is not an integer).
    pub(super) fn int_argument(&mut self, name: &str, e: &Expr) -> VOp {
        let v = self.expr(e);
        match v.ty {
            Ty::Int | Ty::Uint | Ty::Bool => self.convert(v, Ty::Uint).op,
            Ty::Error => VOp::Imm(0),
            other => {
                self.diags.error(e.span, format!("`{name}` needs an integer here, found {}", a(other)));
                VOp::Imm(0)
            }
        }
    }
}
