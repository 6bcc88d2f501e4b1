//! Overloaded device functions (`store(float*, float)` beside `store(int*, int)`, as ported
//! kernels write them): which one a call means, chosen from the arguments' types as C++ does
//! for the cases kernels write. Candidates of the call's arity are ranked by how many
//! arguments need a conversion (none for the same type, or a pointer to the same element);
//! a pointer or struct of another type rules a candidate out; the one best is chosen, and a
//! tie is an error that names the candidates. Argument types are worked out from the syntax
//! and the names in scope, without generating code.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{BinOp, Expr, ExprKind, UnOp};
use super::codegen::{Gen, Sym};
use super::diag::Span;
use super::types::{common, Ty};

impl Gen<'_, '_> {
    /// The function (index into `sigs`) a call of `name` means: `None` if no function has
    /// that name, `Some(Err(()))` once said that none or several fit.
    pub(super) fn resolve_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Result<usize, ()>> {
        let named: Vec<usize> = (0..self.sigs.len()).filter(|&i| self.sigs[i].name == name).collect();
        if named.len() <= 1 {
            return named.first().map(|&i| Ok(i));
        }
        let fitting: Vec<usize> = named.iter().copied().filter(|&i| self.sigs[i].params.len() == args.len()).collect();
        match fitting.len() {
            // The arity error names the first.
            0 => return Some(Ok(named[0])),
            1 => return Some(Ok(fitting[0])),
            _ => {}
        }
        let types: Option<Vec<Ty>> = args.iter().map(|a| self.static_type(a)).collect();
        let Some(types) = types else {
            self.diags.error_help(
                span,
                format!("cannot tell which overload of `{name}` is meant from these arguments"),
                "cast the arguments to the parameter types of the one you mean",
            );
            return Some(Err(()));
        };
        let costs: Vec<(usize, u32)> = fitting
            .iter()
            .filter_map(|&i| {
                let params = &self.sigs[i].params;
                types.iter().zip(params).try_fold(0, |sum, (&a, &p)| Some(sum + cost(a, p)?)).map(|c| (i, c))
            })
            .collect();
        let Some(best) = costs.iter().map(|&(_, c)| c).min() else {
            let found: Vec<String> = types.iter().map(|t| format!("{t}")).collect();
            self.diags.error(span, format!("no overload of `{name}` takes ({})", found.join(", ")));
            return Some(Err(()));
        };
        let tied: Vec<usize> = costs.iter().filter(|&&(_, c)| c == best).map(|&(i, _)| i).collect();
        if tied.len() > 1 {
            let lines: Vec<String> =
                tied.iter().map(|&i| format!("line {}", self.unit.functions[i].name_span.line)).collect();
            self.diags
                .error(span, format!("the call of `{name}` fits several overloads equally ({})", lines.join(", ")));
            return Some(Err(()));
        }
        Some(Ok(tied[0]))
    }

    /// The type of `e` as C gives it, if it can be told without generating code.
    pub(super) fn static_type(&self, e: &Expr) -> Option<Ty> {
        Some(match &e.kind {
            ExprKind::Int { unsigned, .. } => {
                if *unsigned {
                    Ty::Uint
                } else {
                    Ty::Int
                }
            }
            ExprKind::Long { unsigned, .. } => {
                if *unsigned {
                    Ty::ULong
                } else {
                    Ty::Long
                }
            }
            ExprKind::Float(_) => Ty::Float,
            ExprKind::Double(_) => Ty::Double,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Name(n) => match self.lookup(n)? {
                Sym::Var { ty, .. } | Sym::Const { ty, .. } | Sym::MemRef { ty, .. } => *ty,
                Sym::Struct { id, .. } => Ty::Struct(*id),
                // An array's name is the address of its first element.
                Sym::Shared { elem, dims, .. } if !dims.is_empty() => pointer_to(*elem, true)?,
                Sym::Global { elem, dims, readonly, .. } if !dims.is_empty() => {
                    Ty::Ptr { elem: elem.scalar()?, readonly: *readonly, shared: false }
                }
                Sym::Shared { elem, .. } | Sym::Global { elem, .. } => *elem,
                Sym::Local { .. } => return None,
            },
            ExprKind::Member(base, m, _) => match &base.kind {
                ExprKind::Name(n) if matches!(n.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim") => {
                    Ty::Uint
                }
                _ => {
                    let id = match self.static_type(base)? {
                        Ty::Struct(id) => id,
                        _ => return None,
                    };
                    let f = self.unit.structs[id as usize].fields.iter().find(|f| f.name == *m)?;
                    if !f.dims.is_empty() {
                        return None;
                    }
                    super::structs::member_ty(f)
                }
            },
            ExprKind::Index(b, _) => pointee(self.static_type(b)?)?,
            ExprKind::Unary(UnOp::Deref, x) => pointee(self.static_type(x)?)?,
            ExprKind::Unary(UnOp::AddrOf, x) => match self.static_type(x)? {
                Ty::Struct(id) => Ty::StructPtr { id, readonly: false },
                t => pointer_to(t, false)?,
            },
            ExprKind::Unary(UnOp::Not, _) => Ty::Bool,
            ExprKind::Unary(_, x) => self.static_type(x)?.promote(),
            ExprKind::Cast(t, _) => Ty::from_type_expr(t)?,
            ExprKind::Binary(op, l, r) => {
                let (a, b) = (self.static_type(l)?, self.static_type(r)?);
                match op {
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => Ty::Bool,
                    BinOp::LogAnd | BinOp::LogOr => Ty::Bool,
                    BinOp::Shl | BinOp::Shr => a.promote(),
                    _ if a.is_ptr() => a,
                    _ if b.is_ptr() => b,
                    _ => common(a, b),
                }
            }
            ExprKind::Cond(_, x, y) => common(self.static_type(x)?, self.static_type(y)?),
            ExprKind::Assign(_, l, _) => self.static_type(l)?,
            ExprKind::Comma(_, r) => self.static_type(r)?,
            ExprKind::Call(name, _, _) => {
                // `S(…)`: a temporary object.
                if let Some(id) = self.struct_named(name) {
                    return Some(Ty::Struct(id));
                }
                let mut named = self.sigs.iter().filter(|s| s.name == *name);
                let sig = named.next()?;
                if named.next().is_some() {
                    return None;
                }
                sig.ret
            }
            _ => return None,
        })
    }
}

/// A pointer to `t` (its space as given; a pointer parameter takes any).
fn pointer_to(t: Ty, shared: bool) -> Option<Ty> {
    Some(Ty::Ptr { elem: t.scalar()?, readonly: false, shared })
}

/// What a pointer points to.
fn pointee(t: Ty) -> Option<Ty> {
    t.pointee().map(|(elem, _, _)| elem)
}

/// How far argument type `a` is from parameter type `p`: 0 the same (a pointer to the same
/// element, in any space), 1 an arithmetic conversion, `None` no implicit conversion.
fn cost(a: Ty, p: Ty) -> Option<u32> {
    match (a, p) {
        (Ty::Error, _) | (_, Ty::Error) => Some(0),
        (Ty::Ptr { elem: x, readonly: rx, .. }, Ty::Ptr { elem: y, readonly: ry, .. }) => {
            // `T*` converts to `const T*`, not back.
            (x == y && (!rx || ry)).then_some(0)
        }
        (Ty::StructPtr { id: x, readonly: rx }, Ty::StructPtr { id: y, readonly: ry }) => {
            (x == y && (!rx || ry)).then_some(0)
        }
        (Ty::Struct(x), Ty::Struct(y)) => (x == y).then_some(0),
        (a, p) if a == p => Some(0),
        (a, p) if a.is_arith() && p.is_arith() => Some(1),
        _ => None,
    }
}
