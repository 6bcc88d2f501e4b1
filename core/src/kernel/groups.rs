//! Cooperative groups: `this_thread_block()`, `tiled_partition<N>(…)`, `coalesced_threads()`
//! and their functions (`thread_rank`, `size`, `sync`, `shfl_down`, `ballot`, …), and
//! `reduce`. Part of [`super::codegen::Gen`].
//!
//! A group is known when the kernel is compiled: a block or a tile holds nothing at run
//! time, and its functions are the built-ins they stand for (a tile's shuffles are shuffles
//! of its width; its votes take its lanes as their mask). A coalesced group holds the mask
//! of the lanes active where it was made. Only groups within a block exist: a grid-wide group
//! needs a cooperative launch, which is not modelled.

use alloc::format;

use super::ast::{Expr, ExprKind};
use super::codegen::Gen;
use super::diag::Span;
use super::expr::Val;
use super::qualified::CG;
use super::types::{a, Group, Ty};
use super::vcode::{VInstr, VOp};
use crate::isa::{AluOp, Axis, ShuffleMode, Special, UnaryOp, VoteMode};

impl Gen<'_, '_> {
    /// A call of `cooperative_groups::name` (the prefix removed).
    pub(super) fn group_call(&mut self, name: &str, args: &[Expr], span: Span) -> Val {
        match name {
            "this_thread_block" => {
                self.arity(&format!("{CG}{name}"), args, 0, span);
                Val { op: VOp::Imm(0), ty: Ty::Group(Group::Block) }
            }
            "coalesced_threads" => {
                self.arity(&format!("{CG}{name}"), args, 0, span);
                let mask = self.vote(VoteMode::Ballot, VOp::Imm(u32::MAX), VOp::Imm(1));
                Val { op: mask, ty: Ty::Group(Group::Coalesced) }
            }
            "tiled_partition" => self.tiled_partition(args, span),
            "sync" => {
                if !self.arity(&format!("{CG}{name}"), args, 1, span) {
                    return Val::error();
                }
                self.group_method(&args[0], "sync", span, &[], span)
            }
            "reduce" => self.reduce(args, span),
            "this_grid" | "this_multi_grid" => {
                self.diags.error(
                    span,
                    "grid-wide groups need a cooperative launch (`cudaLaunchCooperativeKernel`), which is not supported",
                );
                Val::error()
            }
            "plus" | "less" | "greater" | "bit_and" | "bit_or" | "bit_xor" => {
                self.diags.error(span, format!("`{CG}{name}` is only the operator of `{CG}reduce` here"));
                Val::error()
            }
            _ => {
                self.diags.error(span, format!("`{CG}{name}` is not supported"));
                for e in args {
                    self.expr(e);
                }
                Val::error()
            }
        }
    }

    /// `tiled_partition(parent, n)` (also `tiled_partition<n>(parent)`, rewritten so).
    fn tiled_partition(&mut self, args: &[Expr], span: Span) -> Val {
        if !self.arity(&format!("{CG}tiled_partition"), args, 2, span) {
            return Val::error();
        }
        let parent = self.expr(&args[0]);
        let size = match self.const_value(&args[1]) {
            Some((n, t)) if t.is_integer() => n,
            _ => {
                self.diags.error(args[1].span, "a tile's size must be a constant");
                return Val::error();
            }
        };
        let warp = self.config.core.warp_size;
        if !size.is_power_of_two() || size > 32 || size > warp {
            self.diags.error(
                args[1].span,
                format!("a tile's size must be a power of two up to the warp's {warp} threads, not {}", size as i32),
            );
            return Val::error();
        }
        match parent.ty {
            Ty::Group(Group::Block) => {}
            Ty::Group(Group::Tile(m)) if size <= m as u32 => {}
            Ty::Error => return Val::error(),
            other => {
                self.diags.error(args[0].span, format!("a tile of {size} threads cannot be made from {}", a(other)));
                return Val::error();
            }
        }
        Val { op: VOp::Imm(0), ty: Ty::Group(Group::Tile(size as u8)) }
    }

    /// `receiver.name(args)`.
    pub(super) fn group_method(&mut self, receiver: &Expr, name: &str, nspan: Span, args: &[Expr], span: Span) -> Val {
        let g = self.expr(receiver);
        let group = match g.ty {
            // A `thread_group` parameter, where a device function is checked on its own: the
            // functions every group has, computed as for a block (the code of a call is
            // compiled again with the group passed).
            Ty::Group(Group::Any) => Group::Block,
            Ty::Group(group) => group,
            Ty::Error => return Val::error(),
            other => {
                self.diags
                    .error(nspan, format!("{} has no functions; `.{name}(…)` is for cooperative groups", a(other)));
                return Val::error();
            }
        };
        let uint = |op: VOp| Val { op, ty: Ty::Uint };
        let none = || Val::imm(0, Ty::Void);
        let no_arguments =
            matches!(name, "thread_rank" | "size" | "num_threads" | "meta_group_rank" | "meta_group_size");
        if no_arguments && !self.arity(name, args, 0, span) {
            return Val::error();
        }
        match (group, name) {
            (_, "sync") => {
                self.arity(name, args, 0, span);
                // A tile's or a coalesced group's lanes already run together.
                if group == Group::Block {
                    let site = self.site(span);
                    self.code.push(VInstr::Barrier { site });
                } else {
                    // As `__syncwarp`: it orders the lanes' memory (`Gen::fences`).
                    self.fences = true;
                }
                none()
            }
            (Group::Block, "thread_rank") => uint(self.block_rank()),
            (Group::Block, "size" | "num_threads") => uint(self.block_size()),
            (Group::Tile(n), "thread_rank") => {
                let rank = self.block_rank();
                uint(self.alu(AluOp::And, rank, VOp::Imm(n as u32 - 1)))
            }
            (Group::Tile(n), "size" | "num_threads") => uint(VOp::Imm(n as u32)),
            (Group::Tile(n), "meta_group_rank") => {
                let rank = self.block_rank();
                uint(self.alu(AluOp::ShrU, rank, VOp::Imm(n.trailing_zeros())))
            }
            (Group::Tile(n), "meta_group_size") => {
                let size = self.block_size();
                let rounded = self.alu(AluOp::Add, size, VOp::Imm(n as u32 - 1));
                uint(self.alu(AluOp::ShrU, rounded, VOp::Imm(n.trailing_zeros())))
            }
            (Group::Tile(n), "shfl" | "shfl_up" | "shfl_down" | "shfl_xor") => {
                let mode = match name {
                    "shfl" => ShuffleMode::Idx,
                    "shfl_up" => ShuffleMode::Up,
                    "shfl_down" => ShuffleMode::Down,
                    _ => ShuffleMode::Xor,
                };
                if !self.arity(name, args, 2, span) {
                    return Val::error();
                }
                self.tile_shuffle(name, mode, n, &args[0], &args[1])
            }
            (Group::Tile(n), "any" | "all" | "ballot") => {
                if !self.arity(name, args, 1, span) {
                    return Val::error();
                }
                let mask = self.tile_mask(n);
                let pred = self.expr(&args[0]);
                let pred = self.truth(pred, args[0].span);
                let mode = match name {
                    "any" => VoteMode::Any,
                    "all" => VoteMode::All,
                    _ => VoteMode::Ballot,
                };
                let vote = self.vote(mode, mask, pred);
                if mode != VoteMode::Ballot {
                    return Val { op: vote, ty: Ty::Int };
                }
                // A tile's ballot numbers its own threads from 0.
                let first = self.tile_first_lane(n);
                uint(self.alu(AluOp::ShrU, vote, first))
            }
            (Group::Coalesced, "thread_rank") => {
                let lane = self.special(Special::LaneId);
                let bit = self.alu(AluOp::Shl, VOp::Imm(1), lane);
                let below = self.alu(AluOp::Sub, bit, VOp::Imm(1));
                let before = self.alu(AluOp::And, g.op, below);
                uint(self.unary_op(UnaryOp::Popc, before))
            }
            (Group::Coalesced, "size" | "num_threads") => uint(self.unary_op(UnaryOp::Popc, g.op)),
            (Group::Coalesced, "any" | "all") => {
                if !self.arity(name, args, 1, span) {
                    return Val::error();
                }
                let pred = self.expr(&args[0]);
                let pred = self.truth(pred, args[0].span);
                let mode = if name == "any" { VoteMode::Any } else { VoteMode::All };
                Val { op: self.vote(mode, g.op, pred), ty: Ty::Int }
            }
            (Group::Coalesced, "shfl") => {
                if !self.arity(name, args, 2, span) {
                    return Val::error();
                }
                if !matches!(self.const_value(&args[1]), Some((0, t)) if t.is_integer()) {
                    self.diags.error(args[1].span, "a coalesced group's `shfl` reads rank 0 only here");
                    return Val::error();
                }
                // Rank 0 is the lowest lane of the mask: the zeros below its lowest set bit.
                let negated = self.unary_op(UnaryOp::Neg, g.op);
                let lowest = self.alu(AluOp::And, g.op, negated);
                let below = self.alu(AluOp::Sub, lowest, VOp::Imm(1));
                let lane = self.unary_op(UnaryOp::Popc, below);
                let value = self.shuffle_value(name, &args[0], true);
                match value {
                    Some(v) => {
                        let op = self.shuffle_any(ShuffleMode::Idx, v, lane, VOp::Imm(32));
                        Val { op, ty: v.ty }
                    }
                    None => Val::error(),
                }
            }
            _ => {
                self.diags.error(nspan, format!("a `{group}` has no function `{name}` here"));
                for e in args {
                    self.expr(e);
                }
                Val::error()
            }
        }
    }

    /// `block.group_index().x` and its kin: the built-in vectors of a thread block.
    pub(super) fn group_vector(&mut self, call: &Expr, member: &str, mspan: Span) -> Option<Val> {
        let ExprKind::Method(receiver, name, nspan, args) = &call.kind else { return None };
        let which: fn(Axis) -> Special = match name.as_str() {
            "group_index" => Special::BlockIdx,
            "thread_index" => Special::ThreadIdx,
            "group_dim" | "dim_threads" => Special::BlockDim,
            _ => return None,
        };
        let g = self.expr(receiver);
        if g.ty != Ty::Group(Group::Block) {
            if g.ty != Ty::Error {
                self.diags.error(*nspan, format!("`{name}()` is a function of a `thread_block`, not of {}", a(g.ty)));
            }
            return Some(Val::error());
        }
        if !self.arity(name, args, 0, call.span) {
            return Some(Val::error());
        }
        let Some(axis) = self.axis(&format!("`{name}()`"), member, mspan) else { return Some(Val::error()) };
        Some(Val { op: self.special(which(axis)), ty: Ty::Uint })
    }

    /// `reduce(tile, value, op)`: a butterfly over the tile's lanes; every lane gets the result.
    fn reduce(&mut self, args: &[Expr], span: Span) -> Val {
        let name = format!("{CG}reduce");
        if !self.arity(&name, args, 3, span) {
            return Val::error();
        }
        let g = self.expr(&args[0]);
        let n = match g.ty {
            Ty::Group(Group::Tile(n)) => n,
            Ty::Error => return Val::error(),
            other => {
                self.diags.error(args[0].span, format!("`{name}` takes a tile (`tiled_partition`), not {}", a(other)));
                return Val::error();
            }
        };
        let op = match &args[2].kind {
            ExprKind::Call(f, _, a) if a.is_empty() => f.strip_prefix(CG).unwrap_or(""),
            _ => "",
        };
        let Some(mut v) = self.shuffle_value(&name, &args[1], false) else { return Val::error() };
        let float = v.ty == Ty::Float;
        let alu = match (op, v.ty) {
            ("plus", Ty::Float) => AluOp::FAdd,
            ("plus", _) => AluOp::Add,
            ("less", Ty::Float) => AluOp::FMin,
            ("less", Ty::Uint) => AluOp::MinU,
            ("less", _) => AluOp::MinS,
            ("greater", Ty::Float) => AluOp::FMax,
            ("greater", Ty::Uint) => AluOp::MaxU,
            ("greater", _) => AluOp::MaxS,
            ("bit_and", _) if !float => AluOp::And,
            ("bit_or", _) if !float => AluOp::Or,
            ("bit_xor", _) if !float => AluOp::Xor,
            _ => {
                self.diags.error(
                    args[2].span,
                    format!(
                        "the operator of `{name}` is `{CG}plus<T>()`, `less`, `greater`, or on integers `bit_and`, \
                         `bit_or` or `bit_xor`"
                    ),
                );
                return Val::error();
            }
        };
        let mut distance = n as u32 / 2;
        while distance > 0 {
            let other = self.emit_shuffle(ShuffleMode::Xor, v.op, VOp::Imm(distance), VOp::Imm(n as u32));
            v.op = self.alu(alu, v.op, other);
            distance /= 2;
        }
        v
    }

    fn tile_shuffle(&mut self, name: &str, mode: ShuffleMode, n: u8, value: &Expr, b: &Expr) -> Val {
        let Some(v) = self.shuffle_value(name, value, true) else { return Val::error() };
        let b = self.int_argument(name, b);
        let op = self.shuffle_any(mode, v, b, VOp::Imm(n as u32));
        Val { op, ty: v.ty }
    }

    /// The first lane of this thread's tile of `n`.
    fn tile_first_lane(&mut self, n: u8) -> VOp {
        let lane = self.special(Special::LaneId);
        self.alu(AluOp::And, lane, VOp::Imm(!(n as u32 - 1)))
    }

    /// The lanes of this thread's tile of `n`.
    fn tile_mask(&mut self, n: u8) -> VOp {
        if n == 32 {
            return VOp::Imm(u32::MAX);
        }
        let first = self.tile_first_lane(n);
        self.alu(AluOp::Shl, VOp::Imm((1u32 << n) - 1), first)
    }

    /// The thread's rank in its block: `threadIdx` linearised, x fastest.
    fn block_rank(&mut self) -> VOp {
        let [x, y, z] = [Axis::X, Axis::Y, Axis::Z].map(|a| self.special(Special::ThreadIdx(a)));
        let [dx, dy] = [Axis::X, Axis::Y].map(|a| self.special(Special::BlockDim(a)));
        let zy = self.alu(AluOp::Mul, z, dy);
        let row = self.alu(AluOp::Add, zy, y);
        let rows = self.alu(AluOp::Mul, row, dx);
        self.alu(AluOp::Add, rows, x)
    }

    /// The threads of the block.
    fn block_size(&mut self) -> VOp {
        let [dx, dy, dz] = [Axis::X, Axis::Y, Axis::Z].map(|a| self.special(Special::BlockDim(a)));
        let xy = self.alu(AluOp::Mul, dx, dy);
        self.alu(AluOp::Mul, xy, dz)
    }
}
