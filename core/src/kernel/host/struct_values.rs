//! Struct values in the host block (`Params p = {0.5f, 64};`, `p.n = n * 2;`), for kernels that
//! take a struct by value: each is its leaves' values, computed in the host block's 32 bits
//! (a 64-bit member holds an `int`, `unsigned` or `float` until the launch widens it), and a
//! launch passes the leaves as argument words in layout order, as a kernel reads them.

use alloc::format;
use alloc::vec::Vec;

use super::super::ast::{BinOp, Expr, ExprKind, Init, VarDecl};
use super::super::diag::Span;
use super::super::structs::{leaves, member_ty};
use super::super::types::{convert_bits, convert_const, Ty};
use super::{describe, HVal, Host};
use crate::workload::Arg;

/// One struct value: its type and each leaf's (bits, host type).
pub(super) struct StructValue {
    pub id: u16,
    pub leaves: Vec<(u32, Ty)>,
}

/// The type the host block holds a leaf of type `t` in: its own, or the 32-bit type of a
/// 64-bit one.
pub(super) fn host_ty(t: Ty) -> Ty {
    match t {
        Ty::Long => Ty::Int,
        Ty::ULong => Ty::Uint,
        Ty::Double => Ty::Float,
        t => t,
    }
}

impl Host<'_, '_> {
    /// `S name;` (zeros), `S name = {…};` (leaves in layout order) or `S name = other;`.
    pub(super) fn struct_value(&mut self, d: &VarDecl, id: u16) {
        let kinds = match leaves(self.structs, id) {
            Ok(l) => l,
            Err(member) => {
                let name = &self.structs[id as usize].name;
                self.diags.error_help(
                    d.name_span,
                    format!("a `{name}` value in the host block holds numbers only, and {member} is an array"),
                    format!("declare a buffer, `{name} {}[N];`, and pass it as a pointer", d.name),
                );
                return;
            }
        };
        let mut value: Vec<(u32, Ty)> = kinds.iter().map(|&(_, t)| (0, host_ty(t))).collect();
        match &d.init {
            None => {}
            Some(Init::List(items, _) | Init::Construct(items, _)) => {
                if let Some(extra) = items.get(value.len()) {
                    self.diags
                        .error(extra.span, format!("too many initializers for `{}` ({} members)", d.name, value.len()));
                    return;
                }
                for (k, e) in items.iter().enumerate() {
                    let what = format!("member {} of `{}`", k + 1, d.name);
                    let Some(bits) = self.number(e, value[k].1, &what) else { return };
                    value[k].0 = bits;
                }
            }
            Some(Init::Expr(e)) => match self.eval(e) {
                Some(HVal::Struct(j)) if self.struct_values[j as usize].id == id => {
                    value.clone_from(&self.struct_values[j as usize].leaves);
                }
                Some(other) => {
                    let name = &self.structs[id as usize].name;
                    self.diags.error(e.span, format!("cannot initialize a `{name}` with {}", self.describe(&other)));
                    return;
                }
                None => return,
            },
        }
        let index = self.struct_values.len() as u32;
        self.struct_values.push(StructValue { id, leaves: value });
        self.declare(&d.name, d.name_span, HVal::Struct(index), d.ty.is_const);
    }

    /// Whether `e` is a member of a struct value (`p.n`, `p.inner.x`).
    pub(super) fn is_struct_path(&self, e: &Expr) -> bool {
        let mut at = e;
        while let ExprKind::Member(base, ..) = &at.kind {
            at = base;
        }
        let ExprKind::Name(n) = &at.kind else { return false };
        !core::ptr::eq(at, e) && matches!(self.lookup(n).map(|s| s.val), Some(HVal::Struct(_)))
    }

    /// Where `e`, a struct value or a member of one, lands: (the value, the struct type if it
    /// is a struct, its first leaf, whether the variable is `const`); `None` once said that
    /// it names no member.
    fn member_leaf(&mut self, e: &Expr) -> Option<(u32, Option<u16>, usize, bool)> {
        match &e.kind {
            ExprKind::Name(n) => match self.lookup(n).map(|s| (s.val, s.is_const)) {
                Some((HVal::Struct(j), is_const)) => Some((j, Some(self.struct_values[j as usize].id), 0, is_const)),
                _ => None,
            },
            ExprKind::Member(base, m, mspan) => {
                let (j, id, first, is_const) = self.member_leaf(base)?;
                let Some(id) = id else {
                    self.diags.error(*mspan, format!("a number has no member `{m}`"));
                    return None;
                };
                let mut at = first;
                for f in &self.structs[id as usize].fields {
                    let ty = member_ty(f);
                    let inner = if let Ty::Struct(inner) = ty { Some(inner) } else { None };
                    if f.name == *m {
                        return Some((j, inner, at, is_const));
                    }
                    at += inner.map_or(1, |i| leaves(self.structs, i).map_or(0, |l| l.len()));
                }
                let name = &self.structs[id as usize].name;
                self.diags.error(*mspan, format!("struct `{name}` has no member `{m}`"));
                None
            }
            _ => None,
        }
    }

    /// The value of member `e` of a struct value.
    pub(super) fn member_value(&mut self, e: &Expr) -> Option<HVal> {
        let (j, inner, leaf, _) = self.member_leaf(e)?;
        if inner.is_some() {
            self.diags.error(e.span, "the host block reads a struct value's numbers, one member at a time");
            return None;
        }
        let (bits, ty) = self.struct_values[j as usize].leaves[leaf];
        Some(HVal::Num(bits, ty))
    }

    /// `p.n = v;` or `p.n += v;` on a member of a struct value.
    pub(super) fn assign_member(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, span: Span) -> Option<HVal> {
        let (j, inner, leaf, is_const) = self.member_leaf(l)?;
        if inner.is_some() {
            self.diags.error(l.span, "assign a struct value's numbers one member at a time");
            return None;
        }
        if is_const {
            self.diags.error(l.span, "cannot assign to a member of a `const` struct value");
            return None;
        }
        let value = self.eval(r)?;
        let HVal::Num(v, t) = value else {
            self.diags.error(r.span, format!("cannot assign {} to a member", self.describe(&value)));
            return None;
        };
        let current = self.struct_values[j as usize].leaves[leaf];
        let ct = current.1;
        let stored = self.assigned(op, current, (v, t), span)?;
        self.struct_values[j as usize].leaves[leaf].0 = stored;
        Some(HVal::Num(stored, ct))
    }

    /// The argument words of struct value `j` for a parameter of struct type `id`: each leaf
    /// converted to its member's type (a 64-bit one as two words, low first).
    pub(super) fn struct_words(&self, j: u32, id: u16, out: &mut Vec<Arg>) -> bool {
        let value = &self.struct_values[j as usize];
        if value.id != id {
            return false;
        }
        let kinds = leaves(self.structs, id).unwrap_or_default();
        for (&(bits, held), &(_, ty)) in value.leaves.iter().zip(&kinds) {
            if ty.is_wide() {
                let wide = convert_bits(bits as u64, held, ty);
                out.push(Arg::Value(wide as u32));
                out.push(Arg::Value((wide >> 32) as u32));
            } else {
                out.push(Arg::Value(convert_const(bits, held, ty)));
            }
        }
        true
    }

    pub(super) fn describe(&self, v: &HVal) -> alloc::string::String {
        match v {
            HVal::Struct(j) => format!("a `{}`", self.structs[self.struct_values[*j as usize].id as usize].name),
            other => describe(other),
        }
    }
}
