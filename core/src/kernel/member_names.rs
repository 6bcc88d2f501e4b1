//! Names inside member functions, after parsing: in C++ a member function's body names its
//! object's members unqualified (`count += 1`, `step(x)`), unless a parameter or a local
//! variable of the same name hides them. This pass makes each such name explicit — a data
//! member `m` becomes `this.m`, a member function call `f(…)` becomes `this.f(…)` (a `static`
//! one `Struct::f(…)`), and a member holding a function object, `op(…)`, becomes
//! `this.op(…)`'s `operator()` — so code generation knows a member function only as a device
//! function whose first parameter, `this`, is the object.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::ast::*;

/// What a struct's member functions can name unqualified: its members and those of the
/// structs it derives from.
struct Members {
    fields: Vec<String>,
    /// Member functions: name, whether `static`, and the struct that declares it.
    functions: Vec<(String, bool, String)>,
    /// Whether the function being rewritten has an object (`this`): not a `static` one.
    has_this: bool,
    /// Names declared in the body, innermost block last (parameters first).
    locals: Vec<Vec<String>>,
}

impl Members {
    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|scope| scope.iter().any(|n| n == name))
    }

    fn declare(&mut self, name: &str) {
        if let Some(scope) = self.locals.last_mut() {
            scope.push(name.to_string());
        }
    }
}

/// Rewrites every member function's body of `unit`.
pub(super) fn resolve(unit: &mut Unit) {
    for fi in 0..unit.functions.len() {
        let Some(owner) = unit.functions[fi].owner.clone() else { continue };
        let mut fields = Vec::new();
        let mut functions = Vec::new();
        let mut id = Some(owner.id);
        while let Some(s) = id {
            let def = &unit.structs[s as usize];
            fields.extend(def.fields.iter().map(|f| f.name.clone()));
            for f in &unit.functions {
                if let Some(o) = f.owner.as_ref().filter(|o| o.id == s && !o.constructor) {
                    functions.push((o.member.clone(), o.is_static, def.name.clone()));
                }
            }
            // Member templates, whose instances a call may deduce.
            for t in unit.templates.functions.iter().filter(|t| t.owner.as_ref() == Some(&def.name)) {
                functions.push((t.name.clone(), t.is_static, def.name.clone()));
            }
            id = def.base;
        }
        let f = &mut unit.functions[fi];
        let params = f.params.iter().filter(|p| p.name != "this").map(|p| p.name.clone()).collect();
        let mut members = Members { fields, functions, has_this: !owner.is_static, locals: vec![params] };
        stmts(&mut f.body, &mut members);
    }
}

fn stmts(body: &mut [Stmt], m: &mut Members) {
    m.locals.push(Vec::new());
    for s in body {
        stmt(s, m);
    }
    m.locals.pop();
}

fn stmt(s: &mut Stmt, m: &mut Members) {
    match &mut s.kind {
        StmtKind::Decl(decls) => {
            for d in decls {
                d.dims.iter_mut().flatten().for_each(|e| expr(e, m));
                match &mut d.init {
                    Some(Init::Expr(e)) => expr(e, m),
                    Some(Init::List(items, _) | Init::Construct(items, _)) => items.iter_mut().for_each(|e| expr(e, m)),
                    None => {}
                }
                m.declare(&d.name);
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr(e, m),
        StmtKind::If(c, t, e) => {
            expr(c, m);
            scoped(t, m);
            if let Some(e) = e {
                scoped(e, m);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            expr(c, m);
            scoped(b, m);
        }
        StmtKind::For { init, cond, step, body } => {
            m.locals.push(Vec::new());
            if let Some(i) = init {
                stmt(i, m);
            }
            cond.iter_mut().chain(step.iter_mut()).for_each(|e| expr(e, m));
            scoped(body, m);
            m.locals.pop();
        }
        StmtKind::Block(b) => stmts(b, m),
        StmtKind::Switch(value, arms) => {
            expr(value, m);
            m.locals.push(Vec::new());
            for arm in arms {
                arm.labels.iter_mut().filter_map(|(k, _)| k.as_mut()).for_each(|k| expr(k, m));
                arm.body.iter_mut().for_each(|s| stmt(s, m));
            }
            m.locals.pop();
        }
        StmtKind::Launch(l) => l.config.iter_mut().chain(l.args.iter_mut()).for_each(|e| expr(e, m)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Empty => {}
    }
}

/// A statement that is a scope of its own (a loop's or an `if`'s body).
fn scoped(s: &mut Stmt, m: &mut Members) {
    m.locals.push(Vec::new());
    stmt(s, m);
    m.locals.pop();
}

fn this(span: super::diag::Span) -> Box<Expr> {
    Box::new(Expr::new(ExprKind::Name("this".into()), span))
}

fn expr(e: &mut Expr, m: &mut Members) {
    match &mut e.kind {
        ExprKind::Int { .. } | ExprKind::Long { .. } | ExprKind::Float(_) | ExprKind::Double(_) | ExprKind::Bool(_) => {
        }
        ExprKind::Name(n) => {
            if m.has_this && !m.is_local(n) && m.fields.iter().any(|f| f == n) {
                let member = core::mem::take(n);
                e.kind = ExprKind::Member(this(e.span), member, e.span);
            }
        }
        ExprKind::Member(x, _, _) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => expr(x, m),
        ExprKind::IncDec { target, .. } => expr(target, m),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
            expr(a, m);
            expr(b, m);
        }
        ExprKind::Cond(a, b, c) => {
            expr(a, m);
            expr(b, m);
            expr(c, m);
        }
        ExprKind::Method(r, _, _, args) => {
            expr(r, m);
            args.iter_mut().for_each(|a| expr(a, m));
        }
        ExprKind::Call(name, nspan, args) => {
            args.iter_mut().for_each(|a| expr(a, m));
            if !m.is_local(name) {
                let nspan = *nspan;
                if let Some((_, is_static, owner)) = m.functions.iter().find(|(f, _, _)| f == name) {
                    if *is_static {
                        *name = format!("{owner}::{name}");
                    } else if m.has_this {
                        let (name, args) = (core::mem::take(name), core::mem::take(args));
                        e.kind = ExprKind::Method(this(nspan), name, nspan, args);
                    }
                } else if m.has_this && m.fields.iter().any(|f| f == name) {
                    // A member holding a function object: its `operator()`.
                    let (member, args) = (core::mem::take(name), core::mem::take(args));
                    let receiver = Box::new(Expr::new(ExprKind::Member(this(nspan), member, nspan), nspan));
                    e.kind = ExprKind::Method(receiver, "operator()".into(), nspan, args);
                }
            }
        }
    }
    // The tree grew by the `this` inserted below: the height the parser bounds, kept true.
    *e = Expr::new(core::mem::replace(&mut e.kind, ExprKind::Bool(false)), e.span);
}
