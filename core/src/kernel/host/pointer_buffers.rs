//! Buffers of pointers in the host block, for kernels that take a `float**`: `float* rows[3] =
//! {a, a + 64, &b[8]};` is a buffer of three addresses, each into another buffer of `float`s.
//! The compiler cannot know where buffers will be placed, so the buffer records which
//! buffer and byte offset each element names ([`BufferInit::Pointers`]), and the workload
//! writes the addresses once every buffer has its place.

use alloc::format;
use alloc::vec::Vec;

use super::super::ast::{BinOp, Expr, ExprKind, Init, Scalar, UnOp, VarDecl};
use super::super::types::Ty;
use super::{describe, elem_name, elem_type, HVal, Host};
use crate::workload::{BufferInit, BufferSpec, ElemType, PointerInit};

impl Host<'_, '_> {
    /// `T* name[N];` (null pointers) or `T* name[N] = {p, q, …};`.
    pub(super) fn pointer_buffer(&mut self, d: &VarDecl, elem: Scalar) {
        if d.dims.len() > 1 {
            self.diags.error(d.name_span, "a buffer of pointers has one dimension");
            return;
        }
        let items = match &d.init {
            None => &[][..],
            Some(Init::List(items, _) | Init::Construct(items, _)) => &items[..],
            Some(Init::Expr(e)) => {
                self.diags.error_help(
                    e.span,
                    format!("`{}` is a buffer of pointers: give its addresses as a list", d.name),
                    format!("as `{}* {}[2] = {{a, a + 64}};`", elem_name(elem_type(elem)), d.name),
                );
                return;
            }
        };
        let Some(elements) = self.buffer_length(d, Some(items.len())) else { return };
        if items.len() as u64 > elements {
            self.diags.error(d.name_span, format!("{} addresses for `{}`, which has {elements}", items.len(), d.name));
            return;
        }
        let pointers: Option<Vec<_>> = items.iter().map(|item| self.address(item, elem)).collect();
        let Some(pointers) = pointers else { return };
        let spec = BufferSpec {
            name: d.name.clone(),
            words: elements as u32,
            init: BufferInit::Pointers(pointers),
            elem: ElemType::Uint,
        };
        if let Some(b) = self.add_buffer(d.name_span, spec) {
            self.pointer_buffers.push((b, elem));
            self.declare(&d.name, d.name_span, HVal::Buffer(b), false);
        }
    }

    /// Whether `e` names a buffer (which side of `a + 64` is the buffer).
    fn is_buffer_name(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Name(n) if matches!(self.lookup(n).map(|s| &s.val), Some(HVal::Buffer(_))))
    }

    /// The element type of the pointers buffer `b` holds, if it holds pointers.
    pub(super) fn pointee_of(&self, b: u32) -> Option<Scalar> {
        self.pointer_buffers.iter().find(|(x, _)| *x == b).map(|&(_, s)| s)
    }

    /// The buffer an address names and the count added to it: `&a[i]` and `a + i` name `a`
    /// and `i`, `a - i` names `a` and `-i` (the `bool`), anything else itself and no count.
    pub(super) fn address_form<'e>(&self, e: &'e Expr) -> (&'e Expr, Option<(&'e Expr, bool)>) {
        match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, x) => match &x.kind {
                ExprKind::Index(b, i) => (&**b, Some((&**i, false))),
                _ => (&**x, None),
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => {
                let buffer_left = self.is_buffer_name(l);
                match (buffer_left, op) {
                    (true, _) => (&**l, Some((&**r, *op == BinOp::Sub))),
                    (false, BinOp::Add) => (&**r, Some((&**l, false))),
                    _ => (e, None),
                }
            }
            _ => (e, None),
        }
    }

    /// One address of a pointer buffer: a buffer of `elem`s (`a`), an element of one (`&a[i]`),
    /// a buffer plus or minus a count (`a + 64`), or a null pointer (`0`, `NULL`, `nullptr`).
    /// `Err` once the error is reported.
    fn address(&mut self, e: &Expr, elem: Scalar) -> Option<Option<PointerInit>> {
        let slot = format!("an element of a `{}*` buffer", elem_name(elem_type(elem)));
        self.pointer_value(e, Ty::Ptr { elem, readonly: false, shared: false }, &slot)
    }

    /// An address for a pointer of type `want` (`float*`, `Node*`), as [`Host::address`]
    /// reads one; `slot` names where it goes, for the error that it is no address.
    pub(super) fn pointer_value(&mut self, e: &Expr, want: Ty, slot: &str) -> Option<Option<PointerInit>> {
        let (base, count) = self.address_form(e);
        let b = match self.eval(base)? {
            HVal::Num(0, t) if t.is_integer() && count.is_none() => return Some(None),
            HVal::Buffer(b) => b,
            other => {
                self.diags
                    .error(e.span, format!("{slot} is the address of a buffer's element, found {}", describe(&other)));
                return None;
            }
        };
        if !self.buffer_fits(b, want) {
            let (buffer, held) = (&self.buffers[b as usize].name, self.contents(b));
            let want = match want {
                Ty::StructPtr { id, .. } => format!("{}*", self.structs[id as usize].name),
                want => format!("{want}"),
            };
            self.diags.error(base.span, format!("buffer `{buffer}` holds {held}, so its address is no `{want}`"));
            return None;
        }
        let offset = self.element_offset(e, b, count)?;
        Some(Some(PointerInit { buffer: b, offset }))
    }

    /// The byte offset of element `count` (negated where its `bool` says) of buffer `b`, which
    /// may be one past its last; `e`, the whole address, is where an error points.
    pub(super) fn element_offset(&mut self, e: &Expr, b: u32, count: Option<(&Expr, bool)>) -> Option<u32> {
        let (size, elements) = self.element_shape(b);
        let name = self.buffers[b as usize].name.clone();
        let index = match count {
            None => 0,
            Some((n, negative)) => {
                let v = self.number(n, Ty::Int, "an element's index")? as i32 as i64;
                if negative {
                    -v
                } else {
                    v
                }
            }
        };
        if !(0..=elements).contains(&index) {
            self.diags.error(e.span, format!("element {index} is outside `{name}`, which has {elements}"));
            return None;
        }
        Some((index * size as i64) as u32)
    }
}
