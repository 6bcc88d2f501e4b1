//! Member functions at their calls: `object.f(…)`, `object(…)` (its `operator()`),
//! `object[i]` (its `operator[]`), and objects made by constructors (`S s(1, 2);`, `S(1, 2)`
//! as a value). A member function is a device function whose first parameter, `this`, is a
//! reference to the object; being inlined, `this` is the object's very place — its
//! registers, or its words in shared or global memory. A function returning a reference
//! (`T& operator[](int i)`) names a place too, which the call stands for. Part of
//! [`super::codegen::Gen`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Expr, ExprKind};
use super::codegen::{Gen, Sym};
use super::diag::{suggest, Span};
use super::expr::{Place, Val};
use super::types::Ty;

impl Gen<'_, '_> {
    /// The struct a place expression has as its type, known without generating code: a
    /// struct variable, reference, or `__shared__` object, or a struct member of one.
    pub(super) fn struct_type_of(&self, e: &Expr) -> Option<u16> {
        match &e.kind {
            ExprKind::Name(n) => self.object_named(n),
            ExprKind::Member(b, m, _) => {
                let id = self.struct_type_of(b)?;
                let f = self.unit.structs[id as usize].field(m)?;
                match super::structs::member_ty(f) {
                    Ty::Struct(inner) if f.dims.is_empty() => Some(inner),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The struct of the object `name` names, if it names one (whose call is its
    /// `operator()`).
    fn object_named(&self, name: &str) -> Option<u16> {
        match self.lookup(name)? {
            Sym::Struct { id, .. } => Some(*id),
            Sym::MemRef { ty: Ty::Struct(id), .. } => Some(*id),
            Sym::Shared { elem: Ty::Struct(id), dims, .. } if dims.is_empty() => Some(*id),
            Sym::Global { elem: Ty::Struct(id), dims, .. } if dims.is_empty() => Some(*id),
            _ => None,
        }
    }

    /// Whether `name` is an object, whose call is its `operator()`.
    pub(super) fn names_an_object(&self, name: &str) -> bool {
        self.object_named(name).is_some()
    }

    /// The struct named `name` (for a constructor call `S(…)`), unless a variable or a
    /// function hides it.
    pub(super) fn struct_named(&self, name: &str) -> Option<u16> {
        if self.lookup(name).is_some() || self.sigs.iter().any(|s| s.name == name) {
            return None;
        }
        let id = self.unit.structs.iter().position(|s| s.name == name)?;
        Some(id as u16)
    }

    /// `receiver.name(args)`: a member function of a struct, or a function of a cooperative
    /// group.
    pub(super) fn method(&mut self, receiver: &Expr, name: &str, nspan: Span, args: &[Expr], span: Span) -> Val {
        if self.is_group(receiver) {
            return self.group_method(receiver, name, nspan, args, span);
        }
        let this = self.struct_source(receiver);
        match this.ty() {
            Ty::Struct(id) => self.member_call(this, id, name, nspan, args, span),
            Ty::Error => {
                args.iter().for_each(|a| {
                    self.expr(a);
                });
                Val::error()
            }
            // Not an object: what `.f(…)` would be on a cooperative group, said there.
            _ => self.group_method(receiver, name, nspan, args, span),
        }
    }

    /// Whether `e` is a cooperative group (whose functions `groups.rs` knows).
    fn is_group(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => matches!(self.lookup(n), Some(Sym::Var { ty: Ty::Group(_), .. })),
            ExprKind::Call(n, _, _) => n.starts_with(super::qualified::CG),
            _ => false,
        }
    }

    /// Member function `member` of struct `id` called on `this`.
    pub(super) fn member_call(
        &mut self,
        this: Place,
        id: u16,
        member: &str,
        nspan: Span,
        args: &[Expr],
        span: Span,
    ) -> Val {
        let unit = self.unit;
        let candidates = self.member_functions(id, member);
        let struct_name = &unit.structs[id as usize].name;
        if candidates.is_empty() {
            // A member function template whose arguments the call leaves to be deduced.
            let mut at = Some(id);
            while let Some(s) = at {
                let exists = |g: &Self, instance: &str| !g.member_functions(s, instance).is_empty();
                let owner = unit.structs[s as usize].name.as_str();
                if let Some(found) = self.deduced_instance(Some(owner), member, args, span, exists) {
                    let Ok(instance) = found else {
                        args.iter().for_each(|a| {
                            self.expr(a);
                        });
                        return Val::error();
                    };
                    return self.member_call(this, s, &instance, nspan, args, span);
                }
                at = unit.structs[s as usize].base;
            }
            let field = unit.structs[id as usize].field(member);
            if let Some(Ty::Struct(inner)) = field.filter(|f| f.dims.is_empty()).map(super::structs::member_ty) {
                // `this->op(x)`: a member holding a function object.
                let place = self.member_of(this, member, nspan);
                return self.member_call(place, inner, "operator()", nspan, args, span);
            }
            let full = format!("{struct_name}::{member}");
            if let Some(item) = unit.host_code.iter().find(|h| h.name == full) {
                let (message, help) = item.misuse();
                self.diags.error_help(nspan, message, help);
                return Val::error();
            }
            let message = match member {
                "operator()" => format!("struct `{struct_name}` has no `operator()`: it cannot be called"),
                "operator[]" => format!("struct `{struct_name}` has no `operator[]`: it cannot be indexed"),
                _ => format!("struct `{struct_name}` has no member function `{member}`"),
            };
            let names = unit.functions.iter().filter_map(|f| f.owner.as_ref()).filter(|o| o.id == id);
            match suggest(member, names.map(|o| o.member.as_str())) {
                Some(s) => self.diags.error_help(nspan, message, format!("did you mean `{s}`?")),
                None => self.diags.error(nspan, message),
            }
            return Val::error();
        }
        let Some(fi) = self.choose_overload(&candidates, args.len(), span) else { return Val::error() };
        let f = &unit.functions[fi];
        let name = f.name.clone();
        let owner = f.owner.as_ref().map_or(id, |o| o.id);
        let is_static = f.owner.as_ref().is_some_and(|o| o.is_static);
        let this_const = f.params.first().is_some_and(|p| p.name == "this" && p.ty.is_const);
        if !is_static && !this_const && !matches!(this, Place::Error) && is_const_place(&this) {
            self.diags.error_help(
                nspan,
                format!("`{name}` may change its object, which is `const` here"),
                format!("mark it `const` (`… {member}(…) const {{`) if it does not"),
            );
            return Val::error();
        }
        let this = view_as(&self.unit.structs, this, owner);
        self.call_function(fi, &name, args, Some(this), span)
    }

    /// The functions named `member` of struct `id`, or else of the struct it derives from
    /// (a derived struct's own hide its base's, as in C++).
    fn member_functions(&self, id: u16, member: &str) -> Vec<usize> {
        let unit = self.unit;
        let mut at = Some(id);
        while let Some(s) = at {
            let found: Vec<usize> = (0..unit.functions.len())
                .filter(|&k| {
                    unit.functions[k].owner.as_ref().is_some_and(|o| o.id == s && o.member == member && !o.constructor)
                })
                .collect();
            if !found.is_empty() {
                return found;
            }
            at = unit.structs[s as usize].base;
        }
        Vec::new()
    }

    /// The one of `candidates` taking `count` arguments (beyond the object).
    fn choose_overload(&mut self, candidates: &[usize], count: usize, span: Span) -> Option<usize> {
        let unit = self.unit;
        let explicit = |k: usize| {
            let f = &unit.functions[k];
            f.params.len() - usize::from(f.params.first().is_some_and(|p| p.name == "this"))
        };
        let fitting: Vec<usize> = candidates.iter().copied().filter(|&k| explicit(k) == count).collect();
        match fitting.as_slice() {
            [one] => Some(*one),
            [] if candidates.len() == 1 => Some(candidates[0]),
            [] => {
                let name = &unit.functions[candidates[0]].name;
                self.diags.error(span, format!("no `{name}` takes {count} arguments"));
                None
            }
            _ => {
                let name = &unit.functions[fitting[0]].name;
                self.diags.error_help(
                    span,
                    format!("`{name}` is overloaded with {count} parameters more than once"),
                    "member functions overload on their number of parameters only: rename one",
                );
                None
            }
        }
    }

    /// `receiver[index]` on an object: the place its `operator[]` returns.
    pub(super) fn subscript_place(&mut self, receiver: &Expr, index: &Expr, span: Span) -> Place {
        let this = self.struct_source(receiver);
        let Ty::Struct(id) = this.ty() else {
            self.expr(index);
            return Place::Error;
        };
        self.returned_place = None;
        let v = self.member_call(this, id, "operator[]", span, core::slice::from_ref(index), span);
        self.reference_result(v, span)
    }

    /// The place the call just generated (with value `v`) named, if it returns a reference.
    pub(super) fn reference_result(&mut self, v: Val, span: Span) -> Place {
        match self.returned_place.take() {
            Some(place) => place,
            None if v.ty == Ty::Error => Place::Error,
            None => {
                self.diags.error(span, "this call returns a value, which cannot be assigned to");
                Place::Error
            }
        }
    }

    /// A temporary object of struct `id`, made by the constructor that takes `args` (none:
    /// its members start undefined, as C++ leaves them).
    pub(super) fn temporary(&mut self, id: u16, args: &[Expr], span: Span) -> Place {
        let Ok(leaves) = self.struct_leaves(id, span) else { return Place::Error };
        let regs: Vec<_> = leaves.iter().map(|_| self.var()).collect();
        for (&r, (_, ty)) in regs.iter().zip(&leaves) {
            self.wide[r as usize] |= ty.is_wide();
        }
        let place = Place::Regs { regs, id, name: String::new(), is_const: false };
        if !self.construct(&place, id, args, span) {
            return Place::Error;
        }
        place
    }

    /// Runs the constructor of struct `id` that takes `args` on the object at `place`;
    /// without constructors, only `S()` (nothing to run) is allowed.
    pub(super) fn construct(&mut self, place: &Place, id: u16, args: &[Expr], span: Span) -> bool {
        let unit = self.unit;
        let ctors = self.constructors(id);
        let name = &unit.structs[id as usize].name;
        if ctors.is_empty() {
            if args.is_empty() {
                return true;
            }
            self.diags.error_help(
                span,
                format!("struct `{name}` has no constructor to take these arguments"),
                format!("give `{name}` one, or initialize it with a list, `{name} s = {{…}};`"),
            );
            return false;
        }
        let Some(fi) = self.choose_overload(&ctors, args.len(), span) else { return false };
        let full = unit.functions[fi].name.clone();
        let v = self.call_function(fi, &full, args, Some(place.clone()), span);
        v.ty != Ty::Error
    }

    /// Whether struct `id` has a constructor (a declaration without arguments runs the one
    /// taking none).
    pub(super) fn has_constructor(&self, id: u16) -> bool {
        !self.constructors(id).is_empty()
    }

    /// The constructors of struct `id`, by function index.
    fn constructors(&self, id: u16) -> Vec<usize> {
        let unit = self.unit;
        (0..unit.functions.len())
            .filter(|&k| unit.functions[k].owner.as_ref().is_some_and(|o| o.id == id && o.constructor))
            .collect()
    }
}

/// Whether the object at `p` may not be changed.
fn is_const_place(p: &Place) -> bool {
    match p {
        Place::Regs { is_const, .. } | Place::Var { is_const, .. } => *is_const,
        Place::Mem { readonly, .. } => *readonly,
        _ => false,
    }
}

/// The object at `p` seen as its base struct `to` (or as itself): a base's members are the
/// first of its derived struct's, at the same offsets, so the place's prefix.
fn view_as(structs: &[super::ast::StructDef], p: Place, to: u16) -> Place {
    match p {
        Place::Regs { regs, id, name, is_const } if id != to => {
            let n = super::structs::leaf_count(structs, to).min(regs.len());
            Place::Regs { regs: regs[..n].to_vec(), id: to, name, is_const }
        }
        Place::Mem { space, base, offset, ty: Ty::Struct(id), readonly } if id != to => {
            Place::Mem { space, base, offset, ty: Ty::Struct(to), readonly }
        }
        p => p,
    }
}
