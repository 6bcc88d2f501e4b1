//! `struct` and `class` definitions: data members laid out as C lays them out, a base
//! struct's members first; and member functions — methods, `static` functions,
//! constructors with their initializer lists, `operator()` and `operator[]` — read as device
//! functions named `Struct::member` whose first parameter, `this`, is a reference to the
//! object (`classes.rs` then makes the members a body names `this.member`). A member
//! function that is not `__device__` is host code: it is set aside, as nvcc compiles it for
//! the host only.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::super::ast::*;
use super::super::diag::Span;
use super::super::host_code::HostItem;
use super::super::lexer::Tok;
use super::{PResult, Parser};

/// Words that may come before a member function's return type.
const FUNCTION_WORDS: &[&str] = &[
    "__device__",
    "__host__",
    "__forceinline__",
    "__inline__",
    "__noinline__",
    "inline",
    "static",
    "explicit",
    "constexpr",
];

impl Parser<'_> {
    /// `struct Name { members };` or `class Name : public Base { … };` (or a declaration
    /// `struct Name;`, which adds nothing). The `struct` or `class` keyword is next.
    pub(super) fn struct_definition(&mut self) -> PResult<()> {
        let keyword = self.bump();
        let class = keyword.is_ident("class");
        if self.at_word("__align__") && self.peek_at(1).is_punct("(") {
            // Every member is 4-byte aligned here; a larger alignment changes no layout.
            let at = self.bump().span;
            self.skip_parenthesised();
            self.diags.warning(at.to(self.prev_span()), "`__align__` is ignored: members are 4 bytes apart here");
        }
        let what = if class { "class" } else { "struct" };
        let (name, span) = self.ident(&format!("a {what} name"))?;
        if self.eat(";") {
            return Ok(());
        }
        if let Some(prev) = self.struct_id(&name) {
            let line = self.structs[prev as usize].span.line;
            return Err(self.error(span, format!("{what} `{name}` is already defined at line {line}")));
        }
        let base = if self.eat(":") { Some(self.base_clause(&name)?) } else { None };
        self.expect("{", &format!("to start the members of the {what}"))?;
        let mut fields: Vec<Field> = Vec::new();
        let (mut size, mut align) = (0u32, 1u32);
        if let Some(b) = base {
            let b = &self.structs[b as usize];
            fields.extend(b.fields.iter().cloned());
            (size, align) = (b.size, b.align);
        }
        // Member functions are read once every type is complete (their bodies may use the
        // struct, and members declared after them): where each starts.
        let mut functions: Vec<usize> = Vec::new();
        while !self.at("}") && !self.at_eof() {
            let t = self.peek();
            if let Tok::Ident(w) = &t.tok {
                if matches!(w.as_str(), "public" | "private" | "protected") && self.peek_at(1).is_punct(":") {
                    // Access is not checked: every member is reachable here.
                    self.bump();
                    self.bump();
                    continue;
                }
            }
            if self.eat(";") {
                continue;
            }
            if (t.is_ident("struct") || t.is_ident("class"))
                && matches!(self.peek_at(1).tok, Tok::Ident(_))
                && (self.peek_at(2).is_punct("{") || self.peek_at(2).is_punct(":"))
            {
                // A nested type: a struct of the file like any other, under its own name.
                self.struct_definition()?;
                continue;
            }
            if t.is_ident("template") {
                return Err(self.error_help(
                    t.span,
                    "member templates are not supported",
                    "make it a `__device__` function template outside the struct, taking the object by reference",
                ));
            }
            if t.is_ident("virtual") {
                return Err(
                    self.error(t.span, "virtual functions are not supported: calls are resolved when compiling")
                );
            }
            if t.is_punct("~") {
                return Err(self.error(t.span, "destructors are not supported"));
            }
            if self.member_is_function() {
                functions.push(self.pos);
                self.skip_member_function()?;
                continue;
            }
            if t.is_ident("static") {
                return Err(self.error_help(
                    t.span,
                    "static data members are not supported",
                    "use a `__constant__` or `__device__` variable at file scope",
                ));
            }
            if !self.starts_type() {
                return Err(self.error(t.span, format!("expected a member of {what} `{name}`, found {}", t.describe())));
            }
            let base_ty = self.base_type()?;
            loop {
                let mut ty = base_ty;
                self.pointer_suffix(&mut ty)?;
                let (fname, fspan) = self.ident("a member name")?;
                if fields.iter().any(|f| f.name == fname) {
                    return Err(self.error(fspan, format!("{what} `{name}` has two members named `{fname}`")));
                }
                let mut dims = Vec::new();
                while self.eat("[") {
                    let e = self.assign()?;
                    match super::super::expr::const_value(&e) {
                        Some((n, t)) if t.is_integer() && n > 0 && (n as i32) > 0 => dims.push(n),
                        _ => {
                            return Err(self.error(e.span, "an array member's size must be a positive constant"));
                        }
                    }
                    self.expect("]", "to close the array size")?;
                }
                if self.at("=") || self.at("{") {
                    return Err(self.error_help(
                        self.peek().span,
                        "default member initializers are not supported",
                        "set the member in a constructor",
                    ));
                }
                // Each member at the next multiple of its alignment, as C lays structs out.
                let (elem, elem_align) = match (ty.base, ty.pointer) {
                    (_, true) => (4, 4),
                    (BaseType::Scalar(s), false) => {
                        let bytes = super::super::types::Ty::from_scalar(s).width().bytes();
                        (bytes, bytes)
                    }
                    (BaseType::Struct(id), false) => {
                        let inner = &self.structs[id as usize];
                        (inner.size, inner.align)
                    }
                    _ => {
                        return Err(self.error(ty.span, "a struct member is a number, a `bool`, a pointer or a struct"))
                    }
                };
                size = size.next_multiple_of(elem_align);
                align = align.max(elem_align);
                let count = dims.iter().try_fold(1u32, |n, &d| n.checked_mul(d));
                let bytes = count
                    .and_then(|n| n.checked_mul(elem))
                    .filter(|b| size.checked_add(*b).is_some_and(|t| t <= 1 << 24));
                let Some(bytes) = bytes else {
                    return Err(self.error(fspan, format!("{what} `{name}` is too large (more than 16 MiB)")));
                };
                fields.push(Field { name: fname, span: fspan, ty, dims, offset: size });
                size += bytes;
                if !self.eat(",") {
                    break;
                }
            }
            self.expect_semicolon("after the member")?;
        }
        self.expect("}", &format!("to close the {what}"))?;
        self.expect_semicolon(&format!("after the {what}'s `}}`"))?;
        if fields.is_empty() && functions.is_empty() {
            return Err(self.error(span, format!("{what} `{name}` has no members")));
        }
        if self.structs.len() >= u16::MAX as usize {
            return Err(self.error(span, "too many structs"));
        }
        let size = size.next_multiple_of(align);
        self.structs.push(StructDef { name, span, fields, size, align, base });
        let id = self.structs.len() as u16 - 1;
        self.pending_members.extend(functions.into_iter().map(|at| (id, at)));
        Ok(())
    }

    /// The member functions whose reading was put off: at the end of the file, when every
    /// type is defined (an instance of a member template, placed inside its struct, may take
    /// a struct defined after it). Each becomes a function of `unit`.
    pub(super) fn read_member_functions(&mut self, unit: &mut Unit) {
        let after = self.pos;
        for (id, start) in core::mem::take(&mut self.pending_members) {
            self.pos = start;
            self.unclosed_reported = false;
            // An error skips that member only: the struct and the other members stand.
            if let Ok(Some(f)) = self.member_function(id) {
                unit.functions.push(f);
            }
        }
        self.pos = after;
    }

    /// After `:` in a struct's head: the one struct it derives from.
    fn base_clause(&mut self, name: &str) -> PResult<u16> {
        while self.eat_word("public") || self.eat_word("protected") || self.eat_word("private") {}
        if self.at_word("virtual") {
            return Err(self.error(self.peek().span, "virtual base classes are not supported"));
        }
        let (base, at) = self.ident("the name of the struct it derives from")?;
        let Some(id) = self.struct_id(&base) else {
            return Err(self.error(at, format!("`{base}` is not a struct defined before `{name}`")));
        };
        if self.at(",") {
            return Err(self.error(self.peek().span, "deriving from more than one struct is not supported"));
        }
        Ok(id)
    }

    /// Whether the member that starts here is a function: a `(` before its end, outside
    /// brackets (`int f(int)`, `S(float s) : s(s) {}`, `T& operator[](int)`).
    fn member_is_function(&self) -> bool {
        let mut k = 0;
        let mut depth = 0i32;
        loop {
            let t = self.peek_at(k);
            match &t.tok {
                Tok::Eof => return false,
                Tok::Ident(w) if depth == 0 && w == "operator" => return true,
                Tok::Punct("(") if depth == 0 => return true,
                Tok::Punct("[" | "<") => depth += 1,
                Tok::Punct("]" | ">") => depth -= 1,
                Tok::Punct(";" | "{" | "}" | "=") if depth <= 0 => return false,
                _ => {}
            }
            k += 1;
        }
    }

    /// Moves past a member function: its head, then its body `{ … }` (or a `;`).
    fn skip_member_function(&mut self) -> PResult<()> {
        let mut parens = 0i32;
        while !self.at_eof() {
            if self.at("(") {
                parens += 1;
            } else if self.at(")") {
                parens -= 1;
            } else if parens == 0 && self.at(";") {
                self.bump();
                return Ok(());
            } else if parens == 0 && self.at("{") {
                // The body (through its `}`), unless a `{` of an initializer (`: a{x}`), which
                // C++11 allows.
                self.recover_statement();
                if !self.at(",") {
                    return Ok(());
                }
            }
            self.bump();
        }
        let at = self.peek().span;
        Err(self.error(at, "the member function has no end: the file ends first"))
    }

    /// The member function of struct `id` that starts here; `None` for host code (not
    /// `__device__`), which is set aside.
    fn member_function(&mut self, id: u16) -> PResult<Option<Function>> {
        let struct_name = self.structs[id as usize].name.clone();
        let (mut device, mut is_static) = (false, false);
        loop {
            let t = self.peek();
            let Tok::Ident(w) = &t.tok else { break };
            if !FUNCTION_WORDS.contains(&w.as_str()) {
                break;
            }
            // `__host__` alongside `__device__` keeps the device's code, as for other functions.
            match w.as_str() {
                "__device__" => device = true,
                "static" => is_static = true,
                _ => {}
            }
            self.bump();
        }
        if self.at_word("__global__") {
            return Err(self.error(self.peek().span, "a kernel cannot be a member function; define it outside"));
        }
        let constructor = self.at_word(&struct_name) && self.peek_at(1).is_punct("(");
        let (ret, ret_reference, member, name_span) = if constructor {
            let t = self.bump();
            (TypeExpr::plain(BaseType::Void, t.span), false, struct_name.clone(), t.span)
        } else {
            let mut ret = self.base_type()?;
            self.pointer_suffix(&mut ret)?;
            let by_reference = self.eat("&");
            let (member, at) =
                if self.at_word("operator") { self.operator_name()? } else { self.ident("a member function name")? };
            (ret, by_reference, member, at)
        };
        let name = format!("{struct_name}::{member}");
        if !device {
            // Host code, which device code cannot call: skipped, remembered for the error.
            self.skip_member_function()?;
            self.host_members.push(HostItem { name, span: name_span, function: true });
            return Ok(None);
        }
        let mut params = self.parameter_list()?;
        let is_const = self.eat_word("const");
        let mut body = Vec::new();
        if constructor && self.eat(":") {
            body = self.initializer_list(id)?;
        }
        if self.at(";") {
            return Err(self.error_help(
                name_span,
                format!("`{name}` is declared but not defined here"),
                "define member functions inside the struct; definitions outside it (`S::f(…) {…}`) are not supported",
            ));
        }
        if !self.at("{") {
            let t = self.peek();
            return Err(
                self.error(t.span, format!("expected `{{` to start the body of `{name}`, found {}", t.describe()))
            );
        }
        body.extend(self.block_body());
        let end = self.prev_span();
        if !is_static {
            let ty = TypeExpr { is_const, ..TypeExpr::plain(BaseType::Struct(id), name_span) };
            params.insert(0, Param { ty, name: "this".to_string(), span: name_span, reference: true });
        }
        let owner = Owner { id, member, is_static, constructor };
        Ok(Some(Function {
            global: false,
            ret,
            name,
            name_span,
            params,
            body,
            end,
            launch_bounds: None,
            owner: Some(owner),
            ret_reference,
        }))
    }

    /// `operator()` or `operator[]` (the word `operator` next): its name and span.
    fn operator_name(&mut self) -> PResult<(String, Span)> {
        let at = self.bump().span;
        let (open, close) = (self.peek(), self.peek_at(1));
        let name = match (&open.tok, &close.tok) {
            (Tok::Punct("("), Tok::Punct(")")) => "operator()",
            (Tok::Punct("["), Tok::Punct("]")) => "operator[]",
            _ => {
                return Err(self.error_help(
                    at.to(open.span),
                    match &open.tok {
                        Tok::Punct(p) => format!("`operator{p}` is not supported"),
                        _ => format!("`operator` followed by {} is not supported", open.describe()),
                    },
                    "`operator()` and `operator[]` are; write a named member function for the others",
                ))
            }
        };
        self.bump();
        let end = self.bump().span;
        Ok((name.to_string(), at.to(end)))
    }

    /// A constructor's `: member(value), …` (after the `:`): assignments to `this`'s
    /// members, run before its body.
    fn initializer_list(&mut self, id: u16) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            let (member, at) = self.ident("a member to initialize")?;
            if self.structs[id as usize].base.is_some_and(|b| self.structs[b as usize].name == member) {
                return Err(self.error_help(
                    at,
                    "calling a base struct's constructor is not supported",
                    "set the base's members in this constructor's body",
                ));
            }
            if self.at("{") {
                return Err(self.error(self.peek().span, "write a member's initial value in parentheses, `m(value)`"));
            }
            self.expect("(", "after the member to initialize")?;
            let value = self.assign()?;
            let close = self.expect(")", "to close the member's initial value")?;
            let this = self.mk(ExprKind::Name("this".into()), at)?;
            let target = self.mk(ExprKind::Member(Box::new(this), member, at), at)?;
            let span = at.to(close);
            let assign = self.mk(ExprKind::Assign(None, Box::new(target), Box::new(value)), span)?;
            out.push(Stmt { kind: StmtKind::Expr(assign), span });
            if !self.eat(",") {
                return Ok(out);
            }
        }
    }
}
