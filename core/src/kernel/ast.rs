//! The syntax tree the parser builds: kernels, device functions and the host block.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::diag::Span;
pub(crate) use super::host_code::HostItem;

/// The value types that fit a register: 32-bit ones, and the narrow integers (and `bool`)
/// that registers hold extended and memory holds in 1 or 2 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Int,
    Uint,
    Float,
    Bool,
    /// `char` and `signed char` (nvcc's `char` is signed).
    Char,
    UChar,
    Short,
    UShort,
    /// `long`, `long long` and `int64_t` (64 bits, as nvcc's `long` on Linux).
    Long,
    /// `unsigned long`, `unsigned long long`, `uint64_t`, `size_t`.
    ULong,
    Double,
}

/// What a type name names, before pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BaseType {
    Void,
    Scalar(Scalar),
    /// Host only: grid or block dimensions.
    Dim3,
    /// Host only: a generated graph.
    Graph,
    /// Host only: a stream.
    Stream,
    /// A `struct` of the file, by its index in [`Unit::structs`].
    Struct(u16),
    /// A cooperative group (`thread_block`, `thread_group`, `thread_block_tile<N>`, …): a
    /// variable of one takes the kind of its initializer.
    Group,
    /// `auto`: a variable takes the type of its initializer.
    Auto,
}

/// A written type: `const float* __restrict__`, `unsigned int`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TypeExpr {
    pub base: BaseType,
    pub pointer: bool,
    /// `T**` (with `pointer`): a pointer to pointers in global memory.
    pub indirect: bool,
    /// `const` before the `*`: the pointee may not be written.
    pub pointee_const: bool,
    /// `const` on the variable itself (`const int n`, `float* const p`).
    pub is_const: bool,
    /// `float* __restrict__ p`: no other pointer reaches what `p` reaches (on a kernel's
    /// parameter, the optimiser relies on it: `opt/forward.rs`).
    pub restrict: bool,
    pub span: Span,
}

impl TypeExpr {
    /// `base` as such: no pointer, no `const`.
    pub fn plain(base: BaseType, span: Span) -> TypeExpr {
        TypeExpr { base, pointer: false, indirect: false, pointee_const: false, is_const: false, restrict: false, span }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Levels of the tree below and including this node. The parser bounds it, so that
    /// the passes that recurse over expressions (and dropping them) cannot overflow the stack.
    pub height: u32,
}

impl Expr {
    /// Whether it names a variable, an element or a member: something with a place, which a
    /// reference can bind to and a struct can be copied from.
    pub fn names_a_place(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Name(_) | ExprKind::Index(..) | ExprKind::Member(..) | ExprKind::Unary(UnOp::Deref, _)
        )
    }

    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let h = |e: &Expr| e.height;
        let below = match &kind {
            ExprKind::Int { .. }
            | ExprKind::Long { .. }
            | ExprKind::Float(_)
            | ExprKind::Double(_)
            | ExprKind::Bool(_)
            | ExprKind::Name(_) => 0,
            ExprKind::Member(e, _, _) | ExprKind::Unary(_, e) | ExprKind::Cast(_, e) => h(e),
            ExprKind::IncDec { target, .. } => h(target),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
                h(a).max(h(b))
            }
            ExprKind::Call(_, _, args) => args.iter().map(h).max().unwrap_or(0),
            ExprKind::Method(r, _, _, args) => args.iter().map(h).max().unwrap_or(0).max(h(r)),
            ExprKind::Cond(a, b, c) => h(a).max(h(b)).max(h(c)),
        };
        Expr { kind, span, height: below + 1 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    Int {
        value: u32,
        unsigned: bool,
    },
    /// A 64-bit integer literal (`long long`, or `unsigned long long`).
    Long {
        value: u64,
        unsigned: bool,
    },
    Float(f32),
    Double(f64),
    Bool(bool),
    Name(String),
    /// `base.member`, with the member's span.
    Member(Box<Expr>, String, Span),
    Index(Box<Expr>, Box<Expr>),
    /// `name(args)`, with the name's span.
    Call(String, Span, Vec<Expr>),
    /// `receiver.name(args)`, with the name's span: a cooperative group's functions.
    Method(Box<Expr>, String, Span, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    IncDec {
        pre: bool,
        increment: bool,
        target: Box<Expr>,
    },
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `target = value` or `target op= value`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(TypeExpr, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
}

/// A variable initializer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Init {
    Expr(Expr),
    List(Vec<Expr>, Span),
    /// `T name(args);`: a struct's constructor (a number's single value).
    Construct(Vec<Expr>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarDecl {
    pub shared: bool,
    /// `extern __shared__ T name[];`: an array in the launch's dynamic shared memory.
    pub dynamic: bool,
    pub ty: TypeExpr,
    pub name: String,
    pub name_span: Span,
    /// Array dimensions; `None` for `[]` (size from the initializer).
    pub dims: Vec<Option<Expr>>,
    pub init: Option<Init>,
    /// `T& name = place;`: the name is another name of the place.
    pub reference: bool,
}

/// `kernel<<<config>>>(args)`, in a kernel or the host block.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Launch {
    pub kernel: String,
    pub kernel_span: Span,
    /// Grid, block, and on the host optionally dynamic shared memory and stream.
    pub config: Vec<Expr>,
    pub args: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StmtKind {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
    Launch(Launch),
    /// `switch (value) { case 1: … default: … }`: the arms in order (control falls from one
    /// into the next unless it breaks).
    Switch(Expr, Vec<SwitchArm>),
    Empty,
}

/// One run of statements of a `switch`, after its labels.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SwitchArm {
    /// `case K:` (the constant) or `default:` (`None`), each with its span.
    pub labels: Vec<(Option<Expr>, Span)>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Param {
    pub ty: TypeExpr,
    pub name: String,
    pub span: Span,
    /// `float& x`: the parameter is the caller's variable or element itself.
    pub reference: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Function {
    /// `__global__` (a kernel) rather than `__device__`.
    pub global: bool,
    pub ret: TypeExpr,
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    /// The closing brace, where falling off the end happens.
    pub end: Span,
    /// `__launch_bounds__(…)` of a kernel.
    pub launch_bounds: Option<LaunchBounds>,
    /// A member function's struct (its name is `Struct::member`).
    pub owner: Option<Owner>,
    /// `T& f(…)`: a call names the place its `return` names (device functions are inlined).
    pub ret_reference: bool,
}

/// What a member function belongs to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Owner {
    /// The struct, by its index in [`Unit::structs`].
    pub id: u16,
    /// The member's own name: `norm`, `operator()`, `operator[]`, or the struct's name for a
    /// constructor.
    pub member: String,
    /// `static`: no object, no `this` parameter. Otherwise `this` is the first parameter, a
    /// reference to the object (`const` for a `const` member function).
    pub is_static: bool,
    pub constructor: bool,
}

/// `__launch_bounds__(max_threads, min_blocks)`: the kernel's blocks have at most
/// `max_threads` threads, and `min_blocks` of them (1 if absent) should fit on an SM at once,
/// which caps the registers a thread may use.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LaunchBounds {
    pub max_threads: Expr,
    pub min_blocks: Option<Expr>,
    /// The whole `__launch_bounds__(…)`.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HostBlock {
    pub body: Vec<Stmt>,
    /// The `host` keyword.
    pub span: Span,
}

/// A member of a `struct`, laid out at `offset` bytes from the start.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    pub name: String,
    pub span: Span,
    pub ty: TypeExpr,
    /// Array dimensions (`int nei[26];`), empty for a single value.
    pub dims: Vec<u32>,
    pub offset: u32,
}

/// `struct Name { … };` (or `typedef struct { … } Name;`): plain data, every scalar and
/// pointer 4 bytes, members one after another (4-byte alignment leaves no padding).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StructDef {
    pub name: String,
    pub span: Span,
    pub fields: Vec<Field>,
    /// Bytes, a multiple of `align`.
    pub size: u32,
    /// The alignment of its address: its most aligned member's (C's layout rule).
    pub align: u32,
    /// The struct it derives from (`struct B : A`): A's members come first, at the same
    /// offsets, so a B is viewed as an A by its prefix.
    pub base: Option<u16>,
}

impl StructDef {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A variable at file scope, in global memory: `__constant__ float c[16] = {…};` (read-only
/// in kernels) or `__device__ int count;`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GlobalVar {
    pub constant: bool,
    pub decl: VarDecl,
}

/// Calls `f` on `e` and every expression inside it, outer ones first.
pub(crate) fn for_each_subexpr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    use for_each_subexpr as expr;
    f(e);
    match &e.kind {
        ExprKind::Int { .. }
        | ExprKind::Long { .. }
        | ExprKind::Float(_)
        | ExprKind::Double(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_) => {}
        ExprKind::Member(x, _, _) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => expr(x, f),
        ExprKind::IncDec { target, .. } => expr(target, f),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
            expr(a, f);
            expr(b, f);
        }
        ExprKind::Cond(a, b, c) => {
            expr(a, f);
            expr(b, f);
            expr(c, f);
        }
        ExprKind::Call(_, _, args) => args.iter().for_each(|a| expr(a, f)),
        ExprKind::Method(r, _, _, args) => {
            expr(r, f);
            args.iter().for_each(|a| expr(a, f))
        }
    }
}

/// Calls `f` on every expression of `body`, outer ones before those inside them.
pub(crate) fn for_each_expr(body: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    use for_each_subexpr as expr;
    fn stmt(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr(e, f),
            StmtKind::Decl(ds) => {
                for d in ds {
                    d.dims.iter().flatten().for_each(|e| expr(e, f));
                    match &d.init {
                        Some(Init::Expr(e)) => expr(e, f),
                        Some(Init::List(items, _) | Init::Construct(items, _)) => items.iter().for_each(|e| expr(e, f)),
                        None => {}
                    }
                }
            }
            StmtKind::If(c, t, e) => {
                expr(c, f);
                stmt(t, f);
                if let Some(e) = e {
                    stmt(e, f);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                expr(c, f);
                stmt(b, f);
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    stmt(i, f);
                }
                cond.iter().chain(step).for_each(|e| expr(e, f));
                stmt(body, f);
            }
            StmtKind::Block(b) => b.iter().for_each(|s| stmt(s, f)),
            StmtKind::Switch(value, arms) => {
                expr(value, f);
                for arm in arms {
                    arm.labels.iter().filter_map(|(k, _)| k.as_ref()).for_each(|k| expr(k, f));
                    arm.body.iter().for_each(|s| stmt(s, f));
                }
            }
            StmtKind::Launch(l) => l.config.iter().chain(&l.args).for_each(|e| expr(e, f)),
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Empty => {}
        }
    }
    body.iter().for_each(|s| stmt(s, f));
}

/// A whole source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Unit {
    /// Variables at file scope, in definition order.
    pub globals: Vec<GlobalVar>,
    /// `const` scalars at file scope (`const int BLOCK = 256;`), in definition order: named
    /// constants every function sees.
    pub constants: Vec<VarDecl>,
    /// The file's structs, in definition order (a struct may use those before it).
    pub structs: Vec<StructDef>,
    pub functions: Vec<Function>,
    pub host: Option<HostBlock>,
    /// The host code of a pasted `.cu` file, set aside unread (`host_code.rs`): for the
    /// error where device code uses one of its names.
    pub host_code: Vec<HostItem>,
    /// The file's function templates and class instances, for calls whose template arguments
    /// are deduced, and the instances such calls ask for.
    pub templates: super::templates::TemplateInfo,
    /// The end of the file.
    pub end: Span,
    /// Whether device code declares anything `volatile`. Which accesses are volatile is not
    /// tracked, so no load in such a file is replaced by a value the thread already has.
    pub volatile: bool,
}
