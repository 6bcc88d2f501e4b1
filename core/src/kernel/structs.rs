//! Structs in kernels: members of structs in memory (`nodes[i].starting`, `p->x`, a
//! `__shared__` array of structs) are loads and stores at the member's offset; a struct
//! variable is one register per scalar member ("leaf"), so copying one (`Node n =
//! nodes[i];`, `a = b;`, passing it to a device function) moves each leaf. Part of
//! [`super::codegen::Gen`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Expr, ExprKind, StructDef};
use super::codegen::Gen;
use super::diag::{suggest, Span};
use super::expr::{Ctx, Place, Val};
use super::types::Ty;
use super::vcode::VOp;

/// The bytes a value of type `ty` takes in memory.
pub(super) fn size_of(structs: &[StructDef], ty: Ty) -> u32 {
    match ty {
        Ty::Struct(id) => structs[id as usize].size,
        t => t.width().bytes(),
    }
}

impl Gen<'_, '_> {
    /// The bytes a pointer of type `ptr` steps over: its element's size.
    pub(super) fn pointee_size(&self, ptr: Ty) -> u32 {
        match ptr {
            Ty::StructPtr { id, .. } => self.unit.structs[id as usize].size,
            Ty::Ptr { elem, .. } => Ty::from_scalar(elem).width().bytes(),
            _ => 4,
        }
    }
}

/// The type of a member (an array member: of its elements).
pub(super) fn member_ty(f: &super::ast::Field) -> Ty {
    Ty::from_type_expr(&f.ty).unwrap_or(Ty::Error)
}

/// The scalar leaves of struct `id` in layout order: (byte offset, type). `Err` names the
/// first array member, which a register copy cannot hold.
pub(super) fn leaves(structs: &[StructDef], id: u16) -> Result<Vec<(u32, Ty)>, String> {
    let mut out = Vec::new();
    collect_leaves(structs, id, 0, &mut out)?;
    Ok(out)
}

fn collect_leaves(structs: &[StructDef], id: u16, base: u32, out: &mut Vec<(u32, Ty)>) -> Result<(), String> {
    let s = &structs[id as usize];
    for f in &s.fields {
        if !f.dims.is_empty() {
            return Err(format!("`{}.{}`", s.name, f.name));
        }
        match member_ty(f) {
            Ty::Struct(inner) => collect_leaves(structs, inner, base + f.offset, out)?,
            t => out.push((base + f.offset, t)),
        }
    }
    Ok(())
}

/// How many registers a variable of struct `id` takes (0 if it has an array member, which
/// the declaration refuses).
pub(super) fn leaf_count(structs: &[StructDef], id: u16) -> usize {
    leaves(structs, id).map_or(0, |l| l.len())
}

/// Every scalar of struct `id` (array members element by element) as (byte offset, type),
/// in layout order: the values a host buffer's initializer list gives, struct by struct.
pub(crate) fn scalar_slots(structs: &[StructDef], id: u16) -> Vec<(u32, Ty)> {
    let mut out = Vec::new();
    collect_slots(structs, id, 0, &mut out);
    out
}

fn collect_slots(structs: &[StructDef], id: u16, base: u32, out: &mut Vec<(u32, Ty)>) {
    for f in &structs[id as usize].fields {
        let ty = member_ty(f);
        let size = size_of(structs, ty);
        let count: u32 = f.dims.iter().product();
        for k in 0..count {
            let at = base + f.offset + k * size;
            match ty {
                Ty::Struct(inner) => collect_slots(structs, inner, at, out),
                t => out.push((at, t)),
            }
        }
    }
}

impl Gen<'_, '_> {
    /// How messages name a type: a struct by its name.
    pub(super) fn type_name(&self, ty: Ty) -> String {
        match ty {
            Ty::Struct(id) => self.unit.structs[id as usize].name.clone(),
            Ty::StructPtr { id, readonly } => {
                format!("{}{}*", if readonly { "const " } else { "" }, self.unit.structs[id as usize].name)
            }
            t => format!("{t}"),
        }
    }

    /// "a `Node`", "an `int`": the article and the type, a struct by its name.
    pub(super) fn a_type(&self, ty: Ty) -> String {
        super::types::with_article(&self.type_name(ty))
    }

    /// `base.member`: a place inside the struct `base` is.
    pub(super) fn member_place(&mut self, base: &Expr, member: &str, mspan: Span) -> Place {
        let bp = self.struct_source(base);
        self.member_of(bp, member, mspan)
    }

    /// Member `member` of the struct at place `bp`.
    pub(super) fn member_of(&mut self, bp: Place, member: &str, mspan: Span) -> Place {
        let unit = self.unit;
        let id = match &bp {
            Place::Mem { ty: Ty::Struct(id), .. } => *id,
            Place::Regs { id, .. } => *id,
            Place::Error => return Place::Error,
            other => {
                let ty = other.ty();
                let hint = if matches!(ty, Ty::StructPtr { .. }) { "; use `->` through a pointer" } else { "" };
                self.diags.error(mspan, format!("{} has no member `{member}`{hint}", self.a_type(ty)));
                return Place::Error;
            }
        };
        let def = &unit.structs[id as usize];
        let Some(f) = def.field(member) else {
            let message = format!("struct `{}` has no member `{member}`", def.name);
            match suggest(member, def.fields.iter().map(|f| f.name.as_str())) {
                Some(s) => self.diags.error_help(mspan, message, format!("did you mean `{s}`?")),
                None => self.diags.error(mspan, message),
            }
            return Place::Error;
        };
        let fty = member_ty(f);
        match bp {
            Place::Mem { space, base, offset, readonly, .. } => {
                let offset = offset.wrapping_add(f.offset as i32);
                if f.dims.is_empty() {
                    Place::Mem { space, base, offset, ty: fty, readonly }
                } else {
                    Place::MemArray { space, base, offset, elem: fty, dims: f.dims.clone(), readonly }
                }
            }
            Place::Regs { regs, name, is_const, .. } => {
                // Local struct variables have no array members (refused at the declaration).
                let Ok(all) = leaves(&unit.structs, id) else { return Place::Error };
                let first = all.iter().position(|&(o, _)| o >= f.offset).unwrap_or(0);
                let name = format!("{name}.{member}");
                match fty {
                    Ty::Struct(inner) => {
                        let n = leaf_count(&unit.structs, inner);
                        Place::Regs { regs: regs[first..first + n].to_vec(), id: inner, name, is_const }
                    }
                    _ => Place::Var { reg: regs[first], ty: fty, name, is_const },
                }
            }
            _ => Place::Error,
        }
    }

    /// Copies the struct at place `from` into place `to` (both of struct `id`), leaf by leaf.
    pub(super) fn copy_struct(&mut self, id: u16, to: &Place, from: &Place, span: Span) {
        let Ok(all) = self.struct_leaves(id, span) else { return };
        self.access_at = span;
        for (k, &(offset, ty)) in all.iter().enumerate() {
            let v = self.load_place(&leaf_place(from, k, offset, ty));
            self.store_place(&leaf_place(to, k, offset, ty), v);
        }
    }

    /// The leaves of struct `id`, or an error at `span` if it has an array member.
    pub(super) fn struct_leaves(&mut self, id: u16, span: Span) -> Result<Vec<(u32, Ty)>, ()> {
        leaves(&self.unit.structs, id).map_err(|member| {
            self.diags.error(
                span,
                format!(
                    "struct `{}` has an array member ({member}): it can be used in memory, but not copied \
                     into a variable",
                    self.unit.structs[id as usize].name
                ),
            );
        })
    }

    /// The leaves of the struct `e` denotes, as values, for passing it to a device function.
    pub(super) fn struct_argument(&mut self, id: u16, e: &Expr, at: (&str, usize), out: &mut Vec<Val>) -> bool {
        let p = self.struct_source(e);
        if p.ty() == Ty::Error {
            return false;
        }
        if p.ty() != Ty::Struct(id) {
            let (want, found) = (self.a_type(Ty::Struct(id)), self.a_type(p.ty()));
            let (func, index) = at;
            self.diags.error(e.span, format!("argument {} of `{func}` must be {want}, found {found}", index + 1));
            return false;
        }
        let Ok(all) = self.struct_leaves(id, e.span) else { return false };
        self.access_at = e.span;
        for (k, &(offset, ty)) in all.iter().enumerate() {
            let v = self.load_place(&leaf_place(&p, k, offset, ty));
            // A copy: the callee may assign its parameter.
            out.push(Val { op: VOp::Reg(self.copied(v.op)), ty });
        }
        true
    }

    /// Where a struct value comes from: a place, or `make_float3(x, y, z)` and the other
    /// constructors of CUDA's vector types, made in registers of their own.
    /// Anything else is a value, whose type the caller names in its message.
    pub(super) fn struct_source(&mut self, e: &Expr) -> Place {
        if e.names_a_place() {
            return self.place(e);
        }
        if let ExprKind::Method(receiver, name, nspan, args) = &e.kind {
            // A member function returning an object (or a reference to one).
            self.returned_place = None;
            let v = self.method(receiver, name, *nspan, args, e.span);
            return self.returned_object(v, e.span);
        }
        let ExprKind::Call(name, nspan, args) = &e.kind else {
            let v = self.expr(e);
            return self.value_place(v);
        };
        if let Some(id) = self.struct_named(name) {
            return self.temporary(id, args, e.span);
        }
        // A function object's `operator()`, or a device function, returning a struct: its
        // leaves, once inlined (or the place a returned reference names).
        let callable = self.names_an_object(name) || {
            let resolved = self.resolve_call(name, args, e.span);
            if let Some(Err(())) = resolved {
                return Place::Error;
            }
            resolved.is_some()
        };
        if callable {
            self.returned_place = None;
            let v = self.call(name, *nspan, args, e.span);
            return self.returned_object(v, e.span);
        }
        let unit = self.unit;
        let made = name.strip_prefix("make_").and_then(|vector| unit.structs.iter().position(|s| s.name == vector));
        let Some(id) = made else {
            let v = self.expr(e);
            return self.value_place(v);
        };
        let fields = &unit.structs[id].fields;
        if args.len() != fields.len() {
            self.diags.error(e.span, format!("`{name}` takes {} arguments, got {}", fields.len(), args.len()));
            return Place::Error;
        }
        let mut regs = Vec::with_capacity(fields.len());
        for (k, (f, a)) in fields.iter().zip(args).enumerate() {
            let v = self.expr(a);
            let v = self.convert_checked(v, member_ty(f), Ctx::Arg { func: name, index: k }, a);
            regs.push(self.copied(v.op));
        }
        Place::Regs { regs, id: id as u16, name: String::new(), is_const: true }
    }

    /// What a call that returned `v` gives as a struct's place: the place a reference names,
    /// the registers of an object returned by value, or a value (for the caller's message).
    fn returned_object(&mut self, v: Val, span: Span) -> Place {
        if let Some(place) = self.returned_place.take() {
            if matches!(place.ty(), Ty::Struct(_)) {
                return place;
            }
            self.access_at = span;
            let v = self.load_place(&place);
            return self.value_place(v);
        }
        match v.ty {
            Ty::Struct(id) => {
                let regs = core::mem::take(&mut self.returned);
                Place::Regs { regs, id, name: String::new(), is_const: true }
            }
            _ => self.value_place(v),
        }
    }

    /// A struct where a number is wanted: an error at `span`.
    pub(super) fn struct_place_error(&mut self, span: Span, ty: Ty) {
        let name = self.type_name(ty);
        self.diags.error(span, format!("a `{name}` is not a value: use one of its members"));
    }
}

/// Leaf `k` (at byte `offset`, of type `ty`) of the struct at `p`.
fn leaf_place(p: &Place, k: usize, offset: u32, ty: Ty) -> Place {
    match p {
        Place::Regs { regs, name, is_const, .. } => {
            Place::Var { reg: regs[k], ty, name: name.clone(), is_const: *is_const }
        }
        Place::Mem { space, base, offset: at, readonly, .. } => {
            Place::Mem { space: *space, base: *base, offset: at.wrapping_add(offset as i32), ty, readonly: *readonly }
        }
        _ => Place::Error,
    }
}
