//! Recursive-descent parser. After a syntax error it skips to the next `;` or `}` and goes on,
//! so one compile reports several mistakes. Nesting is bounded (statements and expressions
//! alike) so that no input can exhaust the stack.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::*;
use super::diag::{Diags, Span};
use super::lexer::{Tok, Token};

mod members;

/// Most statements or parentheses nested inside one another.
pub(crate) const MAX_NESTING: u32 = 200;
/// Tallest expression tree (a long chain `a + b + c + …` counts one level per operator).
pub(crate) const MAX_EXPR_HEIGHT: u32 = 400;

/// The error was reported; the caller recovers.
struct Reported;
type PResult<T> = Result<T, Reported>;

/// Words that can start a declaration (some only to explain that they are not supported).
/// Whether `word` names a cooperative group's type (as the qualified-names pass writes it).
fn is_group_type(word: &str) -> bool {
    word.strip_prefix(super::qualified::CG).is_some_and(|name| {
        matches!(name, "thread_block" | "thread_group" | "thread_block_tile" | "coalesced_group" | "grid_group")
    })
}

/// CUDA's vector types: name, element and members (`x`, `y`, `z`, `w` in order).
const VECTOR_TYPES: &[(&str, Scalar, u32)] = &[
    ("float2", Scalar::Float, 2),
    ("float3", Scalar::Float, 3),
    ("float4", Scalar::Float, 4),
    ("int2", Scalar::Int, 2),
    ("int3", Scalar::Int, 3),
    ("int4", Scalar::Int, 4),
    ("uint2", Scalar::Uint, 2),
    ("uint3", Scalar::Uint, 3),
    ("uint4", Scalar::Uint, 4),
];

fn is_vector_type(word: &str) -> bool {
    VECTOR_TYPES.iter().any(|(n, _, _)| *n == word)
}

const TYPE_WORDS: &[&str] = &[
    "const",
    "constexpr",
    "unsigned",
    "signed",
    "int",
    "float",
    "bool",
    "void",
    "volatile",
    "__restrict__",
    "double",
    "char",
    "short",
    "long",
    "size_t",
    "half",
    "uint32_t",
    "int32_t",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int64_t",
    "uint64_t",
    "uint",
    "auto",
    "register",
];
/// Words that cannot be used as a value.
const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "return",
    "switch",
    "case",
    "default",
    "goto",
    "__shared__",
    "__global__",
    "__device__",
    "struct",
    "sizeof",
    "typedef",
];

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    diags: &'a mut Diags,
    depth: u32,
    /// Nesting went too deep: everything after is skipped.
    fatal: bool,
    in_host: bool,
    /// The structs defined so far (a type name is known from its definition on).
    structs: Vec<StructDef>,
    /// An unclosed `{` was reported for the current item (the enclosing ones stay quiet).
    unclosed_reported: bool,
    /// The first block of the current item closed by a `}` indented less than its `{` line.
    misindented: Option<Span>,
    /// `size_t`'s width was noted (once per file).
    size_t_noted: bool,
    /// `volatile` appeared in device code ([`Unit::volatile`]).
    volatile_seen: bool,
    /// The `__launch_bounds__(…)` read among the current function's specifiers.
    launch_bounds: Option<LaunchBounds>,
    /// Member functions to read at the end (`members.rs`): their struct and where each starts.
    pending_members: Vec<(u16, usize)>,
    /// Member functions that are host code, set aside.
    host_members: Vec<super::host_code::HostItem>,
}

/// Parses a preprocessed token stream (ending in `Eof`).
/// What the specifiers before (or after) a function's or variable's type say.
#[derive(Clone, Copy, Default, PartialEq)]
struct Qualifiers {
    global: bool,
    device: bool,
    /// `__host__`, where it is: only with `__device__` (the device's code is the one used).
    host: Option<Span>,
    /// `__constant__`, where it is.
    constant: Option<Span>,
}

pub(crate) fn parse(toks: &[Token], diags: &mut Diags) -> Unit {
    if toks.is_empty() {
        return Unit::default();
    }
    let mut p = Parser {
        toks,
        pos: 0,
        diags,
        depth: 0,
        fatal: false,
        in_host: false,
        structs: Vec::new(),
        unclosed_reported: false,
        misindented: None,
        size_t_noted: false,
        volatile_seen: false,
        launch_bounds: None,
        pending_members: Vec::new(),
        host_members: Vec::new(),
    };
    p.unit()
}

impl<'a> Parser<'a> {
    // ---- token access -------------------------------------------------------------------

    fn peek(&self) -> &'a Token {
        if self.fatal {
            return &self.toks[self.toks.len() - 1];
        }
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, ahead: usize) -> &'a Token {
        &self.toks[(self.pos + ahead).min(self.toks.len() - 1)]
    }

    fn at_eof(&self) -> bool {
        self.peek().tok == Tok::Eof
    }

    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn at(&self, p: &str) -> bool {
        self.peek().is_punct(p)
    }

    fn at_word(&self, w: &str) -> bool {
        self.peek().is_ident(w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) -> Reported {
        if !self.fatal {
            self.diags.error(span, message);
        }
        Reported
    }

    fn error_help(&mut self, span: Span, message: impl Into<String>, help: impl Into<String>) -> Reported {
        if !self.fatal {
            self.diags.error_help(span, message, help);
        }
        Reported
    }

    /// Consumes `p` or reports "expected `p` {context}, found …".
    fn expect(&mut self, p: &str, context: &str) -> PResult<Span> {
        if self.at(p) {
            return Ok(self.bump().span);
        }
        let found = self.peek();
        Err(self.error(found.span, format!("expected `{p}` {context}, found {}", found.describe())))
    }

    /// A statement's `;`. When it is missing at the end of a line, the statement still counts
    /// (no tokens are skipped), which keeps the next line's errors meaningful.
    fn expect_semicolon(&mut self, context: &str) -> PResult<()> {
        if self.eat(";") {
            return Ok(());
        }
        let found = self.peek();
        if found.span.line > self.prev_span().line {
            // The statement ended with its line: say so there, not at the next line's start.
            self.error(self.prev_span().after(), format!("expected `;` {context}, at the end of the line"));
            return Ok(());
        }
        let message = format!("expected `;` {context}, found {}", found.describe());
        let r = self.error(found.span, message);
        if found.span.line > self.prev_span().line || found.is_punct("}") {
            Ok(())
        } else {
            Err(r)
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let t = self.peek();
        if let Tok::Ident(name) = &t.tok {
            if KEYWORDS.contains(&name.as_str()) || TYPE_WORDS.contains(&name.as_str()) {
                return Err(self.error(t.span, format!("expected {what}, found the keyword `{name}`")));
            }
            self.bump();
            return Ok((name.clone(), t.span));
        }
        Err(self.error(t.span, format!("expected {what}, found {}", t.describe())))
    }

    /// Runs `f` one nesting level deeper, failing (for good) past [`MAX_NESTING`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            let span = self.peek().span;
            let r = self.error(span, format!("code nests more than {MAX_NESTING} levels deep"));
            self.fatal = true;
            return Err(r);
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn mk(&mut self, kind: ExprKind, span: Span) -> PResult<Expr> {
        let e = Expr::new(kind, span);
        if e.height > MAX_EXPR_HEIGHT {
            let r = self.error(
                span,
                format!(
                    "expression is too long or too deeply nested (more than {MAX_EXPR_HEIGHT} operators one inside \
                     another; a chain `a + b + c + …` counts one per operator): split it across statements"
                ),
            );
            self.fatal = true;
            return Err(r);
        }
        Ok(e)
    }

    // ---- recovery -----------------------------------------------------------------------

    /// Skips to just after the next `;`, or to the next `}` that closes the current block.
    fn recover_statement(&mut self) {
        let mut depth = 0u32;
        while !self.at_eof() {
            if self.at("{") {
                depth += 1;
            } else if self.at("}") {
                if depth == 0 {
                    return;
                }
                depth -= 1;
                if depth == 0 {
                    self.bump();
                    return;
                }
            } else if self.at(";") && depth == 0 {
                self.bump();
                return;
            }
            self.bump();
        }
    }

    /// Skips to something that can start a top-level item.
    fn recover_top(&mut self) {
        let mut depth = 0u32;
        let start = self.pos;
        while !self.at_eof() {
            if depth == 0 && self.pos > start {
                let t = self.peek();
                if t.is_ident("__global__")
                    || t.is_ident("__device__")
                    || (t.is_ident("host") && self.peek_at(1).is_punct("{"))
                {
                    return;
                }
            }
            if self.at("{") {
                depth += 1;
            } else if self.at("}") {
                depth = depth.saturating_sub(1);
            }
            self.bump();
        }
    }

    // ---- items --------------------------------------------------------------------------

    fn unit(&mut self) -> Unit {
        let mut unit = Unit::default();
        while !self.at_eof() {
            let before = self.pos;
            self.unclosed_reported = false;
            self.misindented = None;
            if self.at_word("host") && self.peek_at(1).is_punct("{") {
                let span = self.bump().span;
                self.in_host = true;
                let body = self.block_body();
                self.in_host = false;
                if unit.host.is_some() {
                    self.error(span, "a file has one `host` block");
                } else {
                    unit.host = Some(HostBlock { body, span });
                }
            } else if self.eat(";") {
            } else if (self.at_word("struct") || self.at_word("class"))
                && matches!(self.peek_at(1).tok, Tok::Ident(_))
                && {
                    let after = self.peek_at(2);
                    after.is_punct("{")
                        || after.is_punct(";")
                        || after.is_punct(":")
                        || self.peek_at(1).is_ident("__align__")
                }
            {
                let start = self.pos;
                if self.struct_definition().is_err() {
                    // Skip the whole definition, braces and all, so its members do not
                    // read as stray top-level text.
                    self.pos = start;
                    while !self.at_eof() && !self.at("{") && !self.at(";") {
                        self.bump();
                    }
                    self.recover_statement();
                    self.eat(";");
                }
            } else if self.function(&mut unit).is_err() {
                self.recover_top();
            }
            if self.pos == before && !self.at_eof() {
                self.bump();
            }
        }
        unit.end = self.peek().span;
        unit.volatile = self.volatile_seen;
        self.read_member_functions(&mut unit);
        unit.structs = core::mem::take(&mut self.structs);
        unit.host_code = core::mem::take(&mut self.host_members);
        unit
    }

    /// The struct named `name`, if one is defined.
    fn struct_id(&self, name: &str) -> Option<u16> {
        self.structs.iter().position(|s| s.name == name).map(|i| i as u16)
    }

    /// Whether `name` is a struct type: one of the file's or one of CUDA's vector types.
    fn names_struct(&self, name: &str) -> bool {
        self.struct_id(name).is_some() || is_vector_type(name)
    }

    /// The struct `name` names: one of the file's, or one of CUDA's vector types, defined
    /// here the first time it is used (so a file may still define its own first).
    fn struct_or_vector(&mut self, name: &str, at: Span) -> Option<u16> {
        if let Some(id) = self.struct_id(name) {
            return Some(id);
        }
        let &(_, elem, lanes) = VECTOR_TYPES.iter().find(|(n, _, _)| *n == name)?;
        let scalar = TypeExpr::plain(BaseType::Scalar(elem), at);
        let fields = ["x", "y", "z", "w"][..lanes as usize]
            .iter()
            .enumerate()
            .map(|(k, m)| Field { name: m.to_string(), span: at, ty: scalar, dims: Vec::new(), offset: 4 * k as u32 })
            .collect();
        // CUDA aligns two- and four-element vectors to their size (`float3` only to 4).
        let align = if lanes == 3 { 4 } else { 4 * lanes };
        self.structs.push(StructDef { name: name.to_string(), span: at, fields, size: 4 * lanes, align, base: None });
        Some(self.structs.len() as u16 - 1)
    }

    /// The specifiers of a function or file-scope variable (`__global__`, `__device__`,
    /// `__host__`, `__constant__`, `static`, `inline`, `__launch_bounds__(…)`), into `q`.
    fn qualifiers(&mut self, q: &mut Qualifiers) -> PResult<()> {
        loop {
            let t = self.peek();
            match &t.tok {
                Tok::Ident(w) if w == "__global__" => q.global = true,
                Tok::Ident(w) if w == "__device__" => q.device = true,
                Tok::Ident(w)
                    if matches!(
                        w.as_str(),
                        "__forceinline__" | "__noinline__" | "__inline__" | "inline" | "static"
                    ) => {}
                Tok::Ident(w) if w == "__host__" => q.host = Some(t.span),
                Tok::Ident(w) if w == "__launch_bounds__" && self.peek_at(1).is_punct("(") => {
                    self.launch_bounds()?;
                    continue;
                }
                Tok::Ident(w) if w == "__constant__" => q.constant = Some(t.span),
                Tok::Ident(w)
                    if matches!(
                        w.as_str(),
                        "class" | "typedef" | "template" | "union" | "enum" | "namespace" | "using"
                    ) =>
                {
                    return Err(self.error(t.span, format!("`{w}` is not supported")))
                }
                Tok::Ident(w) if matches!(w.as_str(), "texture" | "surface") => {
                    return Err(self.error_help(
                        t.span,
                        format!("`{w}` references are not supported"),
                        "pass the data to the kernel as a buffer",
                    ))
                }
                _ => return Ok(()),
            }
            self.bump();
        }
    }

    fn function(&mut self, unit: &mut Unit) -> PResult<()> {
        let start = self.peek().span;
        if self.at_word("using") && self.peek_at(1).is_ident("namespace") {
            // `using namespace std;`: names are not qualified here, so it changes nothing.
            let at = self.bump().span;
            self.bump();
            let (name, span) = self.ident("a namespace name")?;
            self.expect_semicolon("after `using namespace …`")?;
            self.diags.warning(at.to(span), format!("`using namespace {name};` is ignored"));
            return Ok(());
        }
        let mut q = Qualifiers::default();
        self.launch_bounds = None;
        self.qualifiers(&mut q)?;
        if !self.starts_type() {
            let t = self.peek();
            return Err(self.error(
                t.span,
                format!(
                    "expected a `__global__` kernel, a `__device__` function or the `host` block, found {}",
                    t.describe()
                ),
            ));
        }
        let after_qualifiers = self.pos;
        let mut ret = self.base_type()?;
        // C++ takes specifiers in any order: `void __device__ f()`, `int static g()`.
        let before = q;
        self.qualifiers(&mut q)?;
        if q != before && !self.peek_at(1).is_punct("(") {
            // A variable: its declaration is read again from the type on.
            return Err(self.error(self.prev_span(), "write a variable's qualifiers before its type"));
        }
        let Qualifiers { global, device, host, constant } = q;
        if global && device {
            return Err(self.error(start, "a function is either `__global__` (a kernel) or `__device__`, not both"));
        }
        if let (Some(span), false) = (host, device) {
            return Err(self.error_help(
                span,
                "`__host__` functions are not supported, unless also `__device__`",
                "host code goes in the `host { … }` block",
            ));
        }
        self.pointer_suffix(&mut ret)?;
        let ret_reference = self.at("&") && self.peek_at(2).is_punct("(") && self.peek_at(1).tok != Tok::Eof && {
            self.bump();
            true
        };
        // `void __launch_bounds__(256) k(…)`: where nvcc's samples put it.
        self.launch_bounds()?;
        let (name, name_span) = self.ident("a function name")?;
        if !self.at("(") && (constant.is_some() || (device && !global)) {
            // `__constant__ float c[16] = {…};`, `__device__ int count;`: memory at file scope.
            self.pos = after_qualifiers;
            let Stmt { kind: StmtKind::Decl(decls), .. } = self.declaration()? else { return Ok(()) };
            self.expect_semicolon("after the declaration")?;
            for decl in decls {
                unit.globals.push(GlobalVar { constant: constant.is_some(), decl });
            }
            return Ok(());
        }
        if let Some(span) = constant {
            return Err(self.error(span, "a function cannot be `__constant__`; only variables are"));
        }
        if !self.at("(") && ret.is_const && !ret.pointer && self.at("=") {
            // `const float PI = 3.14159f;`: a named constant of the file.
            self.pos = after_qualifiers;
            let Stmt { kind: StmtKind::Decl(decls), .. } = self.declaration()? else { return Ok(()) };
            self.expect_semicolon("after the declaration")?;
            unit.constants.extend(decls);
            return Ok(());
        }
        if !self.at("(") {
            return Err(self.error_help(
                name_span,
                "variables outside functions are not supported",
                "make it `const` with a constant value, `__device__` or `__constant__` memory, or pass it to the kernel",
            ));
        }
        if !global && !device {
            self.error_help(
                start,
                format!("function `{name}` must be marked `__global__` (a kernel) or `__device__`"),
                "host code goes in the `host { … }` block",
            );
        }
        let params = self.parameter_list()?;
        if self.eat(";") {
            // A prototype: every function is visible everywhere, so it adds nothing.
            return Ok(());
        }
        if !self.at("{") {
            let t = self.peek();
            return Err(
                self.error(t.span, format!("expected `{{` to start the body of `{name}`, found {}", t.describe()))
            );
        }
        let body = self.block_body();
        let end = self.prev_span();
        let launch_bounds = self.launch_bounds.take().filter(|bounds| {
            if !global {
                self.diags.warning(bounds.span, "`__launch_bounds__` applies to kernels only; it is ignored here");
            }
            global
        });
        unit.functions.push(Function {
            global,
            ret,
            name,
            name_span,
            params,
            body,
            end,
            launch_bounds,
            owner: None,
            ret_reference,
        });
        Ok(())
    }

    /// `(T a, const U& b, float x[])`, the `(` being next, through its `)`.
    fn parameter_list(&mut self) -> PResult<Vec<Param>> {
        self.expect("(", "to start the parameter list")?;
        let mut params = Vec::new();
        if !(self.at_word("void") && self.peek_at(1).is_punct(")")) {
            while !self.at(")") {
                let mut ty = self.base_type()?;
                self.pointer_suffix(&mut ty)?;
                let reference = self.eat("&");
                let (pname, pspan) = self.ident("a parameter name")?;
                if self.eat("[") {
                    // `float x[]` is a pointer parameter, as in C.
                    self.expect("]", "in the array parameter (its size cannot be given)")?;
                    if ty.pointer {
                        self.indirect(&mut ty, pspan)?;
                    } else {
                        ty.pointer = true;
                        ty.pointee_const = ty.is_const;
                        ty.is_const = false;
                    }
                }
                params.push(Param { ty, name: pname, span: pspan, reference });
                if !self.eat(",") {
                    break;
                }
            }
        } else {
            self.bump();
        }
        self.expect(")", "to close the parameter list")?;
        Ok(params)
    }

    // ---- types --------------------------------------------------------------------------

    fn starts_type(&self) -> bool {
        let t = self.peek();
        match &t.tok {
            Tok::Ident(w) => {
                TYPE_WORDS.contains(&w.as_str())
                    || (w == "struct" && matches!(self.peek_at(1).tok, Tok::Ident(_)))
                    || (self.names_struct(w) && !self.peek_at(1).is_punct("(") && !self.peek_at(1).is_punct("::"))
                    || w == "auto"
                    || is_group_type(w)
                    || (self.in_host && matches!(w.as_str(), "graph" | "stream" | "dim3"))
                    || (!self.in_host && w == "dim3" && matches!(self.peek_at(1).tok, Tok::Ident(_)))
            }
            _ => false,
        }
    }

    /// `const unsigned int`, `float`, … (no `*`).
    fn base_type(&mut self) -> PResult<TypeExpr> {
        let start = self.peek().span;
        let mut is_const = false;
        let mut base = None;
        let mut unsigned = None;
        loop {
            let t = self.peek();
            let Tok::Ident(w) = &t.tok else { break };
            match w.as_str() {
                "const" | "constexpr" => is_const = true,
                "__restrict__" | "register" => {}
                "volatile" => self.volatile_seen = true,
                "unsigned" | "signed" if base.is_none() && unsigned.is_none() => unsigned = Some(w == "unsigned"),
                "int" if base.is_none() => base = Some(BaseType::Scalar(Scalar::Int)),
                "float" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Float)),
                "bool" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Bool)),
                "void" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Void),
                "graph" | "stream" | "dim3" if base.is_none() && unsigned.is_none() => {
                    if !self.in_host {
                        let why = if w == "dim3" {
                            "`dim3` variables are not supported in kernels; write `dim3(x, y)` in the launch"
                        } else {
                            "only exists in the host block"
                        };
                        let message = if w == "dim3" { why.to_string() } else { format!("`{w}` {why}") };
                        return Err(self.error(t.span, message));
                    }
                    base = Some(match w.as_str() {
                        "graph" => BaseType::Graph,
                        "stream" => BaseType::Stream,
                        _ => BaseType::Dim3,
                    });
                }
                "double" if base == Some(BaseType::Scalar(Scalar::Long)) => {
                    self.error_help(t.span, "`long double` is not supported", "use `double`");
                    base = Some(BaseType::Scalar(Scalar::Double));
                }
                "double" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Double)),
                // `long`, `long long`, `long int`, `long long int`: 64 bits, as nvcc's on Linux.
                "long" if base.is_none() || base == Some(BaseType::Scalar(Scalar::Long)) => {
                    base = Some(BaseType::Scalar(Scalar::Long))
                }
                "int" if base == Some(BaseType::Scalar(Scalar::Long)) => {}
                "int64_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Long)),
                "uint64_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::ULong)),
                "auto" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Auto),
                w if base.is_none() && unsigned.is_none() && is_group_type(w) => base = Some(BaseType::Group),
                "char" if base.is_none() => base = Some(BaseType::Scalar(Scalar::Char)),
                "short" if base.is_none() => base = Some(BaseType::Scalar(Scalar::Short)),
                // `short int`, `unsigned short int`.
                "int" if base == Some(BaseType::Scalar(Scalar::Short)) => {}
                "int8_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Char)),
                "uint8_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::UChar)),
                "int16_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Short)),
                "uint16_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::UShort)),
                "half" => {
                    self.error_help(t.span, "`half` is not supported", "use `float`");
                    base = Some(BaseType::Scalar(Scalar::Float));
                }
                "uint32_t" | "uint" if base.is_none() && unsigned.is_none() => {
                    base = Some(BaseType::Scalar(Scalar::Uint));
                }
                "int32_t" if base.is_none() && unsigned.is_none() => base = Some(BaseType::Scalar(Scalar::Int)),
                "size_t" if base.is_none() && unsigned.is_none() => {
                    if !self.size_t_noted {
                        self.size_t_noted = true;
                        self.diags.warning(t.span, "`size_t` is 32 bits here, as pointers are (an `unsigned`)");
                    }
                    base = Some(BaseType::Scalar(Scalar::Uint));
                }
                "struct" if base.is_none() && unsigned.is_none() => {
                    self.bump();
                    let (name, span) = self.ident("a struct name after `struct`")?;
                    match self.struct_id(&name) {
                        Some(id) => base = Some(BaseType::Struct(id)),
                        None => {
                            return Err(self.error(span, format!("struct `{name}` is not defined (before this line)")))
                        }
                    }
                    continue;
                }
                name if base.is_none() && unsigned.is_none() && self.names_struct(name) => {
                    let (name, at) = (name.to_string(), t.span);
                    base = self.struct_or_vector(&name, at).map(BaseType::Struct);
                }
                _ => break,
            }
            self.bump();
        }
        let base = match (base, unsigned) {
            (Some(b), None) => b,
            (Some(BaseType::Scalar(Scalar::Char)), Some(true)) => BaseType::Scalar(Scalar::UChar),
            (Some(BaseType::Scalar(Scalar::Short)), Some(true)) => BaseType::Scalar(Scalar::UShort),
            (Some(BaseType::Scalar(Scalar::Long)), Some(true)) => BaseType::Scalar(Scalar::ULong),
            (Some(b @ BaseType::Scalar(Scalar::Char | Scalar::Short | Scalar::Long)), Some(false)) => b,
            (Some(_), Some(true)) | (None, Some(true)) => BaseType::Scalar(Scalar::Uint),
            (Some(_), Some(false)) | (None, Some(false)) => BaseType::Scalar(Scalar::Int),
            (None, None) => {
                let t = self.peek();
                return Err(self.error(t.span, format!("expected a type, found {}", t.describe())));
            }
        };
        Ok(TypeExpr {
            base,
            pointer: false,
            indirect: false,
            pointee_const: false,
            is_const,
            restrict: false,
            span: start.to(self.prev_span()),
        })
    }

    /// A second `*` (or `[]` after a pointer parameter): pointers to numbers only. A `const`
    /// between the two stars is not kept: the pointers themselves are always writable.
    fn indirect(&mut self, ty: &mut TypeExpr, at: Span) -> PResult<()> {
        if ty.indirect {
            return Err(self.error(at, "pointers to pointers to pointers are not supported"));
        }
        if !matches!(ty.base, BaseType::Scalar(_)) {
            return Err(self.error(at, "pointers to pointers are supported to numbers only (as `float**`)"));
        }
        ty.indirect = true;
        ty.is_const = false;
        Ok(())
    }

    /// `* const __restrict__` after a base type (and a second `*`).
    fn pointer_suffix(&mut self, ty: &mut TypeExpr) -> PResult<()> {
        if !self.at("*") {
            return Ok(());
        }
        self.bump();
        ty.pointer = true;
        ty.pointee_const = ty.is_const;
        ty.is_const = false;
        loop {
            if self.eat_word("const") {
                ty.is_const = true;
            } else if self.eat_word("__restrict__") || self.eat_word("__restrict") {
                ty.restrict = true;
            } else {
                break;
            }
        }
        while self.at("*") {
            let star = self.peek().span;
            self.bump();
            self.indirect(ty, star)?;
            ty.restrict = false;
            while self.eat_word("const") || self.eat_word("__restrict__") || self.eat_word("__restrict") {}
        }
        if self.at("&") {
            return Err(self.error(self.peek().span, "references are not supported"));
        }
        ty.span = ty.span.to(self.prev_span());
        Ok(())
    }

    // ---- statements ---------------------------------------------------------------------

    /// `{ statements }`, the opening brace being next. Always returns (errors recovered).
    fn block_body(&mut self) -> Vec<Stmt> {
        let mut body = Vec::new();
        let open = self.peek().span;
        let open_indent = self.indent_of(self.pos);
        if self.expect("{", "to start a block").is_err() {
            return body;
        }
        while !self.at("}") && !self.at_eof() && !self.at_top_level_item() {
            let before = self.pos;
            body.push(self.statement());
            if self.pos == before {
                self.bump();
            }
        }
        if !self.at("}") && !self.fatal && !self.unclosed_reported {
            // Said once, at the innermost `{`: the blocks around it end here too.
            self.unclosed_reported = true;
            let t = self.peek();
            let next = if t.tok == Tok::Eof {
                "the file ends first".to_string()
            } else {
                format!("{} at line {} starts a new item first", t.describe(), t.span.line)
            };
            let message = format!("this `{{` has no matching `}}`: {next}");
            match self.misindented.take() {
                Some(inner) => self.error_help(
                    open,
                    message,
                    format!("judging by the indentation, the `{{` left open is the one at line {}", inner.line),
                ),
                None => self.error(open, message),
            };
        }
        let close = self.peek();
        if close.is_punct("}") && self.misindented.is_none() && close.line_start_column() < open_indent {
            // Closed by a `}` indented like an outer block's: likely that block's `}`.
            self.misindented = Some(open);
        }
        self.eat("}");
        body
    }

    /// The column of the first token on the line of token `at`.
    fn indent_of(&self, at: usize) -> u32 {
        let line = self.toks.get(at).map_or(0, |t| t.span.line);
        let mut k = at.min(self.toks.len() - 1);
        while k > 0 && self.toks[k - 1].span.line == line {
            k -= 1;
        }
        self.toks[k].span.column
    }

    /// Whether the next token starts a top-level item, which no block can hold, at the start
    /// of its line: a function or the host block (a block that reaches one lacks its `}`).
    fn at_top_level_item(&self) -> bool {
        if !self.peek().line_start {
            return false;
        }
        self.at_word("__global__")
            || (self.at_word("__device__") && !self.in_host)
            || (self.at_word("host") && self.peek_at(1).is_punct("{") && !self.in_host)
    }

    fn statement(&mut self) -> Stmt {
        let start = self.peek().span;
        match self.nested(|p| p.statement_inner()) {
            Ok(s) => s,
            Err(Reported) => {
                self.recover_statement();
                Stmt { kind: StmtKind::Empty, span: start }
            }
        }
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let t = self.peek();
        let start = t.span;
        let kind = match &t.tok {
            Tok::Punct("{") => StmtKind::Block(self.block_body()),
            Tok::Punct(";") => {
                self.bump();
                StmtKind::Empty
            }
            Tok::Ident(w) => match w.as_str() {
                "if" => {
                    self.bump();
                    self.expect("(", "after `if`")?;
                    let cond = self.expr()?;
                    self.expect(")", "to close the `if` condition")?;
                    let then = Box::new(self.statement());
                    let els = if self.eat_word("else") { Some(Box::new(self.statement())) } else { None };
                    StmtKind::If(cond, then, els)
                }
                "while" => {
                    self.bump();
                    self.expect("(", "after `while`")?;
                    let cond = self.expr()?;
                    self.expect(")", "to close the `while` condition")?;
                    StmtKind::While(cond, Box::new(self.statement()))
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.statement());
                    if !self.eat_word("while") {
                        let t = self.peek();
                        return Err(self.error(
                            t.span,
                            format!("expected `while` after the body of `do`, found {}", t.describe()),
                        ));
                    }
                    self.expect("(", "after `while`")?;
                    let cond = self.expr()?;
                    self.expect(")", "to close the `while` condition")?;
                    self.expect_semicolon("after `do … while (…)`")?;
                    StmtKind::DoWhile(body, cond)
                }
                "for" => {
                    self.bump();
                    self.expect("(", "after `for`")?;
                    let init = if self.eat(";") {
                        None
                    } else if self.starts_type() {
                        let d = self.declaration()?;
                        self.expect(";", "after the loop's declaration")?;
                        Some(Box::new(d))
                    } else {
                        let e = self.expr()?;
                        let span = e.span;
                        self.expect(";", "after the loop's first clause")?;
                        Some(Box::new(Stmt { kind: StmtKind::Expr(e), span }))
                    };
                    let cond = if self.at(";") { None } else { Some(self.expr()?) };
                    self.expect(";", "after the loop condition")?;
                    let step = if self.at(")") { None } else { Some(self.expr()?) };
                    self.expect(")", "to close the `for` clauses")?;
                    StmtKind::For { init, cond, step, body: Box::new(self.statement()) }
                }
                "break" | "continue" => {
                    let is_break = w == "break";
                    self.bump();
                    self.expect_semicolon(if is_break { "after `break`" } else { "after `continue`" })?;
                    if is_break {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    }
                }
                "return" => {
                    self.bump();
                    let value = if self.at(";") { None } else { Some(self.expr()?) };
                    self.expect_semicolon("after the return value")?;
                    StmtKind::Return(value)
                }
                "else" => return Err(self.error(start, "`else` without a matching `if`")),
                "switch" => {
                    self.bump();
                    self.expect("(", "after `switch`")?;
                    let value = self.expr()?;
                    self.expect(")", "to close the `switch` value")?;
                    StmtKind::Switch(value, self.switch_body()?)
                }
                "case" | "default" => {
                    return Err(self.error(start, format!("`{w}` outside a `switch`")));
                }
                "goto" => return Err(self.error(start, "`goto` is not supported")),
                "printf" if self.peek_at(1).is_punct("(") && !self.in_host => {
                    self.skip_call();
                    self.expect_semicolon("after `printf(…)`")?;
                    self.diags
                        .warning(start.to(self.prev_span()), "`printf` is ignored: the simulated GPU has no console");
                    StmtKind::Empty
                }
                "__shared__" | "static" | "volatile" | "extern" if !self.peek_at(1).is_punct("(") => {
                    let d = self.declaration()?;
                    self.expect_semicolon("after the declaration")?;
                    return Ok(d);
                }
                _ if self.starts_type() => {
                    let d = self.declaration()?;
                    self.expect_semicolon("after the declaration")?;
                    return Ok(d);
                }
                _ if self.peek_at(1).is_punct("<<<") => {
                    let launch = self.launch()?;
                    self.expect_semicolon("after the launch")?;
                    StmtKind::Launch(launch)
                }
                _ => self.expression_statement()?,
            },
            _ => self.expression_statement()?,
        };
        Ok(Stmt { kind, span: start.to(self.prev_span()) })
    }

    /// Skips `__launch_bounds__(…)` if it is next, with a note: a hint to nvcc's register
    /// allocator, which this compiler's allocation does not need.
    /// `__launch_bounds__(max_threads[, min_blocks[, max_blocks_per_cluster]])`, if next: the
    /// values, numbers once macros and template arguments are substituted, are kept for the
    /// function; a cluster bound (Hopper's third) is read past, as clusters are not simulated.
    fn launch_bounds(&mut self) -> PResult<()> {
        if !(self.at_word("__launch_bounds__") && self.peek_at(1).is_punct("(")) {
            return Ok(());
        }
        let at = self.bump().span;
        self.bump();
        let max_threads = self.assign()?;
        let mut min_blocks = None;
        if self.eat(",") {
            min_blocks = Some(self.assign()?);
            if self.eat(",") {
                self.assign()?;
            }
        }
        self.expect(")", "to close `__launch_bounds__(…)`")?;
        self.launch_bounds = Some(LaunchBounds { max_threads, min_blocks, span: at.to(self.prev_span()) });
        Ok(())
    }

    /// Skips `( … )`, the `(` being next, balancing brackets.
    fn skip_parenthesised(&mut self) {
        let mut depth = 0u32;
        while !self.at_eof() {
            let t = self.bump();
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
        }
    }

    /// Skips a name and its parenthesised arguments, balancing brackets, up to the closing
    /// `)` or the end of the file.
    fn skip_call(&mut self) {
        self.bump();
        self.skip_parenthesised();
    }

    /// `{ case 1: … default: … }` after `switch (…)`: statements gathered into arms at
    /// their labels.
    fn switch_body(&mut self) -> PResult<Vec<SwitchArm>> {
        self.expect("{", "to start the body of the `switch`")?;
        let mut arms: Vec<SwitchArm> = Vec::new();
        while !self.at("}") && !self.at_eof() {
            let t = self.peek();
            if t.is_ident("case") || t.is_ident("default") {
                self.bump();
                let value = if t.is_ident("case") { Some(self.assign()?) } else { None };
                // A missing `:` is said; the label still counts, so the arms parse on.
                let _ = self.expect(":", if value.is_some() { "after the `case` value" } else { "after `default`" });
                let label = (value, t.span);
                // Labels with no statement between them share an arm.
                match arms.last_mut() {
                    Some(arm) if arm.body.is_empty() => arm.labels.push(label),
                    _ => arms.push(SwitchArm { labels: alloc::vec![label], body: Vec::new() }),
                }
                continue;
            }
            let before = self.pos;
            let s = self.statement();
            match arms.last_mut() {
                Some(arm) => arm.body.push(s),
                None => {
                    self.error(s.span, "a statement in a `switch` before its first `case` never runs");
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
        self.expect("}", "to close the `switch`")?;
        Ok(arms)
    }

    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect_semicolon("after the expression")?;
        Ok(StmtKind::Expr(e))
    }

    fn declaration(&mut self) -> PResult<Stmt> {
        let start = self.peek().span;
        // `static`, `volatile` and `__shared__` in any order (`volatile __shared__ int s[8];`).
        let mut shared = false;
        let mut external = None;
        loop {
            if self.at_word("extern") {
                external = Some(self.bump().span);
            } else if self.eat_word("static") {
            } else if self.at_word("volatile") && self.peek_at(1).is_ident("__shared__") {
                self.volatile_seen = true;
                self.bump();
            } else if self.eat_word("__shared__") {
                shared = true;
            } else {
                break;
            }
        }
        if shared && self.in_host {
            return Err(self.error(start, "`__shared__` variables belong in kernels, not in the host block"));
        }
        if let (Some(at), false) = (external, shared) {
            return Err(
                self.error(at, "`extern` declares only dynamic shared memory here: `extern __shared__ T name[];`")
            );
        }
        let base = self.base_type()?;
        let mut decls = Vec::new();
        loop {
            let mut ty = base;
            self.pointer_suffix(&mut ty)?;
            let reference = !self.in_host && self.eat("&");
            let (name, name_span) = self.ident("a variable name")?;
            if reference && !self.at("=") {
                return Err(self.error(
                    name_span.after(),
                    format!("reference `{name}` must be bound where it is declared: `T& {name} = place;`"),
                ));
            }
            let mut dims = Vec::new();
            while self.eat("[") {
                if self.eat("]") {
                    dims.push(None);
                } else {
                    dims.push(Some(self.assign()?));
                    self.expect("]", "to close the array size")?;
                }
            }
            let init = if self.eat("=") {
                if self.at("{") {
                    let open = self.bump().span;
                    let mut items = Vec::new();
                    while !self.at("}") {
                        if self.at("{") {
                            self.error_help(
                                self.peek().span,
                                "nested initializer lists are not supported",
                                "list the elements flat, row after row",
                            );
                            // Skip to the end of the outer list so the statement still parses.
                            let mut depth = 1u32;
                            while !self.at_eof() {
                                if self.at("{") {
                                    depth += 1;
                                } else if self.at("}") {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                self.bump();
                            }
                            break;
                        }
                        items.push(self.assign()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    let close = self.expect("}", "to close the initializer list")?;
                    Some(Init::List(items, open.to(close)))
                } else {
                    Some(Init::Expr(self.assign()?))
                }
            } else if !self.in_host && self.at("(") && matches!(ty.base, BaseType::Struct(_)) && !ty.pointer {
                // `S s(a, b);`: a constructor's arguments.
                let args_start = self.peek().span;
                let args = self.call_args()?;
                Some(Init::Construct(args, args_start.to(self.prev_span())))
            } else if !self.in_host && self.at("(") && matches!(ty.base, BaseType::Scalar(_)) && dims.is_empty() {
                // `int n(5);`: C++'s direct initialization, one value.
                let args_start = self.peek().span;
                let mut args = self.call_args()?;
                if args.len() != 1 {
                    return Err(self.error(args_start, format!("`{name}` is initialized with one value")));
                }
                args.pop().map(Init::Expr)
            } else if ty.base == BaseType::Dim3 && self.at("(") {
                // `dim3 grid(16, 16);`
                let args_start = self.peek().span;
                let args = self.call_args()?;
                let span = args_start.to(self.prev_span());
                Some(Init::Expr(self.mk(ExprKind::Call("dim3".into(), name_span, args), span)?))
            } else {
                None
            };
            let dynamic = external.is_some();
            if dynamic && (dims.len() != 1 || dims[0].is_some() || init.is_some()) {
                return Err(self.error(
                    name_span,
                    format!("`extern __shared__` declares an array without a size, sized by the launch: `{name}[]`"),
                ));
            }
            decls.push(VarDecl { shared, dynamic, ty, name, name_span, dims, init, reference });
            if !self.eat(",") {
                break;
            }
        }
        Ok(Stmt { kind: StmtKind::Decl(decls), span: start.to(self.prev_span()) })
    }

    fn launch(&mut self) -> PResult<Launch> {
        let (kernel, kernel_span) = self.ident("a kernel name")?;
        self.expect("<<<", "to start the launch configuration")?;
        let mut config = Vec::new();
        loop {
            config.push(self.assign()?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(">>>", "to close the launch configuration")?;
        if !self.at("(") {
            let t = self.peek();
            return Err(self.error(t.span, format!("expected `(` and the kernel's arguments, found {}", t.describe())));
        }
        let args = self.call_args()?;
        Ok(Launch { kernel, kernel_span, config, args })
    }

    /// `( a, b, c )`, the `(` being next.
    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect("(", "to start the arguments")?;
        let mut args = Vec::new();
        while !self.at(")") {
            args.push(self.assign()?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")", "to close the arguments")?;
        Ok(args)
    }

    // ---- expressions --------------------------------------------------------------------

    /// A full expression, comma operator included.
    fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign()?;
        while self.at(",") {
            self.bump();
            let rhs = self.assign()?;
            let span = e.span.to(rhs.span);
            e = self.mk(ExprKind::Comma(Box::new(e), Box::new(rhs)), span)?;
        }
        Ok(e)
    }

    fn assign(&mut self) -> PResult<Expr> {
        let lhs = self.conditional()?;
        let op = match &self.peek().tok {
            Tok::Punct("=") => None,
            Tok::Punct("+=") => Some(BinOp::Add),
            Tok::Punct("-=") => Some(BinOp::Sub),
            Tok::Punct("*=") => Some(BinOp::Mul),
            Tok::Punct("/=") => Some(BinOp::Div),
            Tok::Punct("%=") => Some(BinOp::Rem),
            Tok::Punct("&=") => Some(BinOp::BitAnd),
            Tok::Punct("|=") => Some(BinOp::BitOr),
            Tok::Punct("^=") => Some(BinOp::BitXor),
            Tok::Punct("<<=") => Some(BinOp::Shl),
            Tok::Punct(">>=") => Some(BinOp::Shr),
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.nested(|p| p.assign())?;
        let span = lhs.span.to(rhs.span);
        self.mk(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span)
    }

    fn conditional(&mut self) -> PResult<Expr> {
        let cond = self.binary(1)?;
        if !self.eat("?") {
            return Ok(cond);
        }
        let yes = self.nested(|p| p.expr())?;
        self.expect(":", "in the conditional expression")?;
        let no = self.nested(|p| p.conditional())?;
        let span = cond.span.to(no.span);
        self.mk(ExprKind::Cond(Box::new(cond), Box::new(yes), Box::new(no)), span)
    }

    fn binary_op(&self) -> Option<(u8, BinOp)> {
        let Tok::Punct(p) = self.peek().tok else { return None };
        Some(match p {
            "||" => (1, BinOp::LogOr),
            "&&" => (2, BinOp::LogAnd),
            "|" => (3, BinOp::BitOr),
            "^" => (4, BinOp::BitXor),
            "&" => (5, BinOp::BitAnd),
            "==" => (6, BinOp::Eq),
            "!=" => (6, BinOp::Ne),
            "<" => (7, BinOp::Lt),
            "<=" => (7, BinOp::Le),
            ">" => (7, BinOp::Gt),
            ">=" => (7, BinOp::Ge),
            "<<" => (8, BinOp::Shl),
            ">>" => (8, BinOp::Shr),
            "+" => (9, BinOp::Add),
            "-" => (9, BinOp::Sub),
            "*" => (10, BinOp::Mul),
            "/" => (10, BinOp::Div),
            "%" => (10, BinOp::Rem),
            _ => return None,
        })
    }

    /// Precedence climbing over the binary operators of at least `min` precedence.
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((prec, op)) = self.binary_op() {
            if prec < min {
                break;
            }
            self.bump();
            let rhs = if prec < 10 { self.binary(prec + 1)? } else { self.unary()? };
            let span = lhs.span.to(rhs.span);
            lhs = self.mk(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let op = match &t.tok {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("+") => Some(UnOp::Plus),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("~") => Some(UnOp::BitNot),
            Tok::Punct("*") => Some(UnOp::Deref),
            Tok::Punct("&") => Some(UnOp::AddrOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let operand = self.nested(|p| p.unary())?;
            if op == UnOp::Deref && matches!(&operand.kind, ExprKind::Name(n) if n == "this") {
                // `*this`: the object, which `this` already names.
                return Ok(operand);
            }
            let span = t.span.to(operand.span);
            return self.mk(ExprKind::Unary(op, Box::new(operand)), span);
        }
        if t.is_punct("++") || t.is_punct("--") {
            self.bump();
            let operand = self.nested(|p| p.unary())?;
            let span = t.span.to(operand.span);
            return self
                .mk(ExprKind::IncDec { pre: true, increment: t.is_punct("++"), target: Box::new(operand) }, span);
        }
        if t.is_ident("sizeof") {
            // `sizeof(type)`: a scalar's bytes in memory; a pointer is 4 bytes, as addresses are
            // 32 bits here. Of an expression (an array's size among them) it is refused rather
            // than guessed.
            self.bump();
            let open = self.peek();
            if !(open.is_punct("(") && self.is_cast()) {
                return Err(self.error_help(
                    open.span,
                    "`sizeof` of an expression is not supported",
                    "write the type, as `sizeof(float)`",
                ));
            }
            self.bump();
            let mut ty = self.base_type()?;
            self.pointer_suffix(&mut ty)?;
            let close = self.peek().span;
            self.expect(")", "to close `sizeof(`")?;
            if matches!(ty.base, BaseType::Void) && !ty.pointer {
                return Err(self.error(ty.span, "`sizeof(void)` has no size"));
            }
            let size = match ty.base {
                _ if ty.pointer => 4,
                BaseType::Struct(id) => self.structs[id as usize].size,
                BaseType::Scalar(s) => super::types::Ty::from_scalar(s).width().bytes(),
                _ => 4,
            };
            return self.mk(ExprKind::Int { value: size, unsigned: true }, t.span.to(close));
        }
        if t.is_punct("(") && self.is_cast() {
            self.bump();
            let mut ty = self.base_type()?;
            self.pointer_suffix(&mut ty)?;
            self.expect(")", "to close the cast")?;
            let operand = self.nested(|p| p.unary())?;
            let span = t.span.to(operand.span);
            return self.mk(ExprKind::Cast(ty, Box::new(operand)), span);
        }
        self.postfix()
    }

    fn is_cast(&self) -> bool {
        // `(float(x) - 1.0f)`: a functional cast in parentheses, not a C cast.
        if self.peek_at(2).is_punct("(") {
            return false;
        }
        match &self.peek_at(1).tok {
            Tok::Ident(w) => TYPE_WORDS.contains(&w.as_str()) || w == "struct" || self.names_struct(w),
            _ => false,
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            let t = self.peek();
            match &t.tok {
                Tok::Punct("[") => {
                    self.bump();
                    let index = self.nested(|p| p.expr())?;
                    let close = self.expect("]", "to close the index")?;
                    let span = e.span.to(close);
                    e = self.mk(ExprKind::Index(Box::new(e), Box::new(index)), span)?;
                }
                Tok::Punct("(") => {
                    let start = e.span;
                    e = match e.kind {
                        ExprKind::Name(name) => {
                            let args = self.nested(|p| p.call_args())?;
                            let span = start.to(self.prev_span());
                            self.mk(ExprKind::Call(name, start, args), span)?
                        }
                        // `g.sync()`: a function of a cooperative group.
                        ExprKind::Member(receiver, name, nspan) => {
                            let args = self.nested(|p| p.call_args())?;
                            let span = start.to(self.prev_span());
                            self.mk(ExprKind::Method(receiver, name, nspan, args), span)?
                        }
                        _ => return Err(self.error(t.span, "only functions can be called, by name")),
                    };
                }
                Tok::Punct(".") => {
                    self.bump();
                    // `object.template f<N>()`: the word only tells C++ that a template follows.
                    self.eat_word("template");
                    let (member, mspan) = self.ident("a member name after `.`")?;
                    let span = e.span.to(mspan);
                    e = self.mk(ExprKind::Member(Box::new(e), member, mspan), span)?;
                }
                Tok::Punct("->") => {
                    // `p->m` is `(*p).m`; `this` names the object itself (a reference here).
                    self.bump();
                    self.eat_word("template");
                    let (member, mspan) = self.ident("a member name after `->`")?;
                    let span = e.span.to(mspan);
                    if matches!(&e.kind, ExprKind::Name(n) if n == "this") {
                        e = self.mk(ExprKind::Member(Box::new(e), member, mspan), span)?;
                        continue;
                    }
                    let deref = self.mk(ExprKind::Unary(UnOp::Deref, Box::new(e)), span)?;
                    e = self.mk(ExprKind::Member(Box::new(deref), member, mspan), span)?;
                }
                Tok::Punct("++") | Tok::Punct("--") => {
                    self.bump();
                    let span = e.span.to(t.span);
                    e = self
                        .mk(ExprKind::IncDec { pre: false, increment: t.is_punct("++"), target: Box::new(e) }, span)?;
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let kind = match &t.tok {
            Tok::Int { value, unsigned } => ExprKind::Int { value: *value, unsigned: *unsigned },
            Tok::Long { value, unsigned } => ExprKind::Long { value: *value, unsigned: *unsigned },
            Tok::Float(f) => ExprKind::Float(*f),
            Tok::Double(d) => ExprKind::Double(*d),
            Tok::Str(_) => {
                return Err(self.error(
                    t.span,
                    "string literals are not supported here (only `printf`, which is ignored, takes one)",
                ))
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "int" | "float" | "double" | "unsigned" | "bool")
                    && self.peek_at(1).is_punct("(") =>
            {
                // `float(x)`: C++'s functional cast, the same as `(float)x`.
                let ty = self.base_type()?;
                self.expect("(", "after the type of the cast")?;
                let inner = self.nested(|p| p.expr())?;
                let close = self.expect(")", "to close the cast")?;
                return self.mk(ExprKind::Cast(ty, Box::new(inner)), t.span.to(close));
            }
            Tok::Ident(w) => match w.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                "nullptr" | "NULL" => ExprKind::Int { value: 0, unsigned: false },
                w if KEYWORDS.contains(&w) || TYPE_WORDS.contains(&w) => {
                    return Err(self.error(t.span, format!("expected an expression, found the keyword `{w}`")))
                }
                w if self.names_struct(w) && self.peek_at(1).is_punct("::") => {
                    // `Struct::member`: a static member function, by its full name.
                    self.bump();
                    self.bump();
                    let (member, at) = self.ident("a member name after `::`")?;
                    return self.mk(ExprKind::Name(format!("{w}::{member}")), t.span.to(at));
                }
                w => {
                    // `make_float3(…)` makes a `float3`: the type exists from here on.
                    if let Some(vector) = w.strip_prefix("make_").filter(|v| is_vector_type(v)) {
                        let vector = vector.to_string();
                        self.struct_or_vector(&vector, t.span);
                    }
                    ExprKind::Name(w.to_string())
                }
            },
            Tok::Punct("(") => {
                self.bump();
                let inner = self.nested(|p| p.expr())?;
                let close = self.expect(")", "to close the parenthesis")?;
                return self.mk(inner.kind, t.span.to(close));
            }
            _ => return Err(self.error(t.span, format!("expected an expression, found {}", t.describe()))),
        };
        self.bump();
        self.mk(kind, t.span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::lexer::lex;
    use alloc::vec;

    fn parse_src(src: &str) -> (Unit, Vec<crate::kernel::Diagnostic>) {
        let mut d = Diags::default();
        let toks = lex(src, &mut d);
        let unit = parse(&toks, &mut d);
        (unit, d.finish())
    }

    fn body_of(src: &str) -> Vec<Stmt> {
        let (unit, d) = parse_src(src);
        assert!(d.is_empty(), "{d:?}");
        unit.functions[0].body.clone()
    }

    #[test]
    fn precedence_follows_c() {
        let body = body_of("__device__ int f(int a, int b) { return a + b * 2 << 1 == 4 && !a || b; }");
        let StmtKind::Return(Some(e)) = &body[0].kind else { panic!() };
        // ((((a + (b*2)) << 1) == 4) && !a) || b
        let ExprKind::Binary(BinOp::LogOr, l, _) = &e.kind else { panic!("{e:?}") };
        let ExprKind::Binary(BinOp::LogAnd, l, _) = &l.kind else { panic!() };
        let ExprKind::Binary(BinOp::Eq, l, _) = &l.kind else { panic!() };
        let ExprKind::Binary(BinOp::Shl, l, _) = &l.kind else { panic!() };
        let ExprKind::Binary(BinOp::Add, _, r) = &l.kind else { panic!() };
        assert!(matches!(r.kind, ExprKind::Binary(BinOp::Mul, _, _)));
    }

    #[test]
    fn statements_declarations_and_launches_parse() {
        let src = "__global__ void k(const float* __restrict__ x, unsigned int n) {\n\
                   __shared__ float tile[16][17];\n\
                   int a = 1, *p = 0, c[4] = {1, 2};\n\
                   for (int i = 0; i < n; i++) { if (i) continue; else break; }\n\
                   do { a += (int)x[0]; } while (a < 10);\n\
                   k<<<dim3(2, 2), 64>>>(x, n);\n\
                   a = a > 1 ? 2 : 3, a++;\n}\n\
                   host { stream s1, s2; graph g = mesh(4, 4, 1); dim3 b(8, 8); float v[] = {1.0, 2.5}; k<<<1, b, 0, s1>>>(v, 2); }";
        let (unit, d) = parse_src(src);
        assert!(d.is_empty(), "{d:?}");
        let k = &unit.functions[0];
        assert!(k.global);
        assert!(k.params[0].ty.pointer && k.params[0].ty.pointee_const);
        assert_eq!(k.params[1].ty.base, BaseType::Scalar(Scalar::Uint));
        assert_eq!(k.body.len(), 6);
        let StmtKind::Decl(d) = &k.body[1].kind else { panic!() };
        assert_eq!(d.len(), 3);
        assert!(d[1].ty.pointer && !d[2].ty.pointer);
        assert!(matches!(k.body[4].kind, StmtKind::Launch(_)));
        let host = unit.host.unwrap();
        assert_eq!(host.body.len(), 5);
    }

    /// Each case: source, the expected errors as (line, column, message).
    fn assert_errors(src: &str, expected: &[(u32, u32, &str)]) {
        let (_, d) = parse_src(src);
        let got: Vec<(u32, u32, &str)> = d.iter().map(|d| (d.span.line, d.span.column, d.message.as_str())).collect();
        assert_eq!(got, expected, "{src}");
    }

    #[test]
    fn syntax_errors_have_positions() {
        assert_errors(
            "__global__ void k(int* y) {\n    int i = 0;\n    y[i] = 1\n}\nhost {}",
            &[(3, 13, "expected `;` after the expression, at the end of the line")],
        );
        assert_errors(
            "__global__ void k() {\n    int x = (1 + 2;\n}",
            &[(2, 19, "expected `)` to close the parenthesis, found `;`")],
        );
        assert_errors("__global__ void k() { x = ; }", &[(1, 27, "expected an expression, found `;`")]);
        assert_errors("__global__ void k() { long double d = 1.0; }", &[(1, 28, "`long double` is not supported")]);

        assert_errors(
            "__global__ void k() { switch (x) { case 1 break; } }",
            &[(1, 43, "expected `:` after the `case` value, found `break`")],
        );
        assert_errors("__global__ void k() { goto end; }", &[(1, 23, "`goto` is not supported")]);
        assert_errors(
            "__global__ void k() { int*** p; }",
            &[(1, 28, "pointers to pointers to pointers are not supported")],
        );
        assert_errors(
            "struct S { int v; };\n__global__ void k(S** p) { }",
            &[(2, 21, "pointers to pointers are supported to numbers only (as `float**`)")],
        );
        assert_errors(
            "__global__ void k(int* a) { int n = sizeof a; }",
            &[(1, 44, "`sizeof` of an expression is not supported")],
        );
        assert_errors("__global__ void k() { int n = sizeof(void); }", &[(1, 38, "`sizeof(void)` has no size")]);
        assert_errors("__global__ void k() { else x = 1; }", &[(1, 23, "`else` without a matching `if`")]);
        assert_errors("struct S { int a; int a; };", &[(1, 23, "struct `S` has two members named `a`")]);
        assert_errors("struct S { int a[0]; };", &[(1, 18, "an array member's size must be a positive constant")]);
        assert_errors("struct S { };", &[(1, 8, "struct `S` has no members")]);
        assert_errors("__global__ void k(struct T* t) { }", &[(1, 26, "struct `T` is not defined (before this line)")]);
        assert_errors("int g;\n", &[(1, 5, "variables outside functions are not supported")]);
        assert_errors(
            "void f() {}\n",
            &[(1, 1, "function `f` must be marked `__global__` (a kernel) or `__device__`")],
        );
        assert_errors(
            "__host__ void f() {}",
            &[(1, 1, "`__host__` functions are not supported, unless also `__device__`")],
        );
        assert_errors("union U { int a; };", &[(1, 1, "`union` is not supported")]);
        assert_errors("__global__ void k() { int x = 1 }", &[(1, 33, "expected `;` after the declaration, found `}`")]);
        assert_errors(
            "__global__ void k() { k<<<1, 2>>>; }",
            &[(1, 34, "expected `(` and the kernel's arguments, found `;`")],
        );
        assert_errors(
            "__global__ void k() {\n  int x = 1;",
            &[(1, 21, "this `{` has no matching `}`: the file ends first")],
        );
        assert_errors(
            "__global__ void k() { dim3 d; }",
            &[(1, 23, "`dim3` variables are not supported in kernels; write `dim3(x, y)` in the launch")],
        );
        assert_errors(
            "host { __shared__ int x; }",
            &[(1, 8, "`__shared__` variables belong in kernels, not in the host block")],
        );
        assert_errors("host { } host { }", &[(1, 10, "a file has one `host` block")]);
        assert_errors(
            "__global__ void k() { int m[2][2] = {{1, 2}, {3}}; int x = 1; }",
            &[(1, 38, "nested initializer lists are not supported")],
        );
        assert_errors(
            "__global__ void k() { int if = 2; }",
            &[(1, 27, "expected a variable name, found the keyword `if`")],
        );
    }

    #[test]
    fn several_errors_are_reported_at_once() {
        let src = "__global__ void k() {\n  int a = ;\n  int b = 2 +;\n  a = (b;\n}\n__global__ void j() { x = }\n";
        let (_, d) = parse_src(src);
        let lines: Vec<u32> = d.iter().map(|d| d.span.line).collect();
        assert_eq!(lines, vec![2, 3, 4, 6], "{d:?}");
    }

    #[test]
    fn nesting_is_bounded_without_overflowing_the_stack() {
        let deep = format!("__global__ void k() {{ int x = {}1{}; }}", "(".repeat(5000), ")".repeat(5000));
        let (_, d) = parse_src(&deep);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("nests more than 200 levels"), "{d:?}");

        let blocks = format!("__global__ void k() {{ {} }}", "{".repeat(1000));
        let (_, d) = parse_src(&blocks);
        assert!(d[0].message.contains("nests more than 200 levels"), "{d:?}");

        let chain = format!("__global__ void k() {{ int x = 1{}; }}", " + 1".repeat(5000));
        let (_, d) = parse_src(&chain);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("too deeply nested"), "{d:?}");

        let unary = format!("__global__ void k() {{ int x = {}1; }}", "-".repeat(5000));
        let (_, d) = parse_src(&unary);
        assert_eq!(d.len(), 1, "{d:?}");
    }
}
