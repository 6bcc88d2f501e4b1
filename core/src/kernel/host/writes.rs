//! Writes into buffers in the host block, as a program's `cudaMemcpy` or `cudaMemcpyToSymbol`
//! of what it computed: `a[3] = 1.5;`, `cells[2].next = &cells[5];`, `params.rows = rows;` (a
//! file-scope `__constant__` struct). Before the first launch the buffer keeps its initializer
//! and gains the writes ([`BufferInit::Patched`]); after it each write is a [`HostCopy`] before
//! the next launch, or after the last. An address is written once the run places the buffers.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::super::ast::{BinOp, Expr, ExprKind};
use super::super::diag::Span;
use super::super::structs::member_ty;
use super::super::types::Ty;
use super::{init_type, scalar_type, HVal, Host};
use crate::isa::Width;
use crate::workload::{BufferInit, HostCopy, HostWrite, WriteValue};

impl Host<'_, '_> {
    /// The buffer an assignment's target writes into: `a[i]`, `s[i].m`, `s.m` (a one-element
    /// buffer such as a file-scope struct), if its name is a buffer.
    pub(super) fn written_buffer(&self, target: &Expr) -> Option<u32> {
        let mut at = target;
        loop {
            match &at.kind {
                ExprKind::Member(base, ..) => at = base,
                ExprKind::Index(base, _) if matches!(base.kind, ExprKind::Name(_)) => at = base,
                ExprKind::Name(n) if !core::ptr::eq(at, target) => {
                    return match self.lookup(n).map(|s| s.val) {
                        Some(HVal::Buffer(b)) => Some(b),
                        _ => None,
                    }
                }
                _ => return None,
            }
        }
    }

    /// `target = value;` into buffer `b` (see [`Host::written_buffer`]).
    pub(super) fn write_into(&mut self, b: u32, op: Option<BinOp>, target: &Expr, value: &Expr) -> Option<HVal> {
        let name = self.buffers[b as usize].name.clone();
        if op.is_some() {
            self.diags.error_help(
                target.span,
                format!("an element of `{name}` can only be set"),
                "the host block does not read buffers: write the new value with `=`",
            );
            return None;
        }
        // The element's index and the members named after it, outermost last.
        let mut members = Vec::new();
        let mut at = target;
        while let ExprKind::Member(base, m, span) = &at.kind {
            members.push((m.clone(), *span));
            at = base;
        }
        members.reverse();
        let index = match &at.kind {
            ExprKind::Index(_, i) => self.number(i, Ty::Int, "an element's index")? as i32 as i64,
            _ => 0,
        };
        let (element_bytes, elements) = self.element_shape(b);
        if !(0..elements).contains(&index) {
            self.diags.error(at.span, format!("element {index} is outside `{name}`, which has {elements}"));
            return None;
        }
        let start = (index * element_bytes as i64) as u32;
        let write = match self.struct_of(b) {
            Some(id) => {
                let (offset, ty) = self.member_slot(id, &members, target)?;
                self.written_value(value, ty, start + offset, &name, "a member")?
            }
            None => {
                if let Some((m, span)) = members.first() {
                    self.diags.error(*span, format!("`{name}` holds numbers, which have no member `{m}`"));
                    return None;
                }
                let ty = match self.pointee_of(b) {
                    Some(elem) => Ty::Ptr { elem, readonly: false, shared: false },
                    None => Ty::from_scalar(scalar_type(self.buffers[b as usize].elem)),
                };
                self.written_value(value, ty, start, &name, "an element")?
            }
        };
        self.patch(b, write);
        Some(HVal::Num(0, Ty::Void))
    }

    /// The byte offset and type of member path `members` in struct `id`; `None` once said
    /// what is wrong with it.
    fn member_slot(&mut self, id: u16, members: &[(String, Span)], target: &Expr) -> Option<(u32, Ty)> {
        let mut ty = Ty::Struct(id);
        let mut offset = 0;
        for (m, span) in members {
            let Ty::Struct(id) = ty else {
                self.diags.error(*span, format!("a number has no member `{m}`"));
                return None;
            };
            let def = &self.structs[id as usize];
            let Some(f) = def.fields.iter().find(|f| f.name == *m) else {
                self.diags.error(*span, format!("struct `{}` has no member `{m}`", def.name));
                return None;
            };
            if !f.dims.is_empty() {
                self.diags.error(*span, format!("member `{m}` is an array: the host block cannot write its elements"));
                return None;
            }
            offset += f.offset;
            ty = member_ty(f);
        }
        if let Ty::Struct(id) = ty {
            let what = if members.is_empty() { "an element" } else { "a member" };
            let s = &self.structs[id as usize].name;
            self.diags.error_help(
                target.span,
                format!("{what} of struct type `{s}` is written one member at a time"),
                format!("as `{}.member = value;`", target_text(target)),
            );
            return None;
        }
        Some((offset, ty))
    }

    /// The write of `value`, converted to `ty`, at byte `offset` of buffer `name`; `what` it
    /// fills, for messages.
    fn written_value(&mut self, value: &Expr, ty: Ty, offset: u32, name: &str, what: &str) -> Option<HostWrite> {
        if ty.is_ptr() {
            let slot = format!("a `{ty}` in `{name}`");
            let value = match self.pointer_value(value, ty, &slot)? {
                Some(p) => WriteValue::Address(p),
                None => WriteValue::Bits(0),
            };
            return Some(HostWrite { offset, width: Width::Word, value });
        }
        let scalar = ty.scalar()?;
        // Host values are 32 bits; a 64-bit element takes one widened.
        let held = init_type(scalar);
        let bits = self.number(value, held, what)?;
        let bits = if ty.is_wide() { super::super::types::convert_bits(bits as u64, held, ty) } else { bits as u64 };
        Some(HostWrite { offset, width: ty.width(), value: WriteValue::Bits(bits) })
    }

    /// Adds `write` to buffer `b`: to its initial contents, after its initializer and earlier
    /// writes, or, once a kernel is launched, before the next launch.
    fn patch(&mut self, b: u32, write: HostWrite) {
        if !self.launches.is_empty() {
            let before = self.launches.len() as u32;
            self.copies.push(HostCopy { before, buffer: b, write });
            return;
        }
        let init = &mut self.buffers[b as usize].init;
        match init {
            BufferInit::Patched { writes, .. } => writes.push(write),
            _ => {
                let base = core::mem::replace(init, BufferInit::Zeros);
                *init = BufferInit::Patched { base: Box::new(base), writes: vec![write] };
            }
        }
    }
}

/// How the help names a write's target: `cells[2]`, `params`.
fn target_text(target: &Expr) -> String {
    match &target.kind {
        ExprKind::Name(n) => n.clone(),
        ExprKind::Index(base, _) => format!("{}[…]", target_text(base)),
        ExprKind::Member(base, m, _) => format!("{}.{m}", target_text(base)),
        _ => String::from("…"),
    }
}
