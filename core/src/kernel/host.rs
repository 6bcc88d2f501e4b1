//! The host block, evaluated at compile time: scalars, loops and `if`s run here and leave
//! behind the buffers and the launch sequence the simulation replays.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::*;
use super::builtins::HOST_ONLY;
use super::codegen::FnSig;
use super::diag::{suggest, Diags, Span};
use super::types::{a, convert_const, fold_binary, fold_unary, Ty};
use crate::config::GpuConfig;
use crate::exec::memory::MAX_GLOBAL_BYTES;
use crate::isa::{Dim3, Kernel};
use crate::rng::SplitMix64;
use crate::workload::graph::{self, GraphKind, GraphSpec};
use crate::workload::{Arg, BufferInit, BufferSpec, ElemType, HostCopy, LaunchSpec};

use super::LaunchSite;

mod pointer_buffers;
mod struct_values;
mod writes;

/// Most kernels a host program may launch.
pub(crate) const MAX_LAUNCHES: usize = 10_000;
/// Most loop iterations the host program may run (an endless loop stops here).
const MAX_HOST_STEPS: u64 = 1_000_000;
/// Largest buffer whose contents are computed here word by word (`float` iota, negative
/// random ranges); beyond 2^24 consecutive integers are not exact floats anyway.
const MAX_COMPUTED_WORDS: u64 = 1 << 24;

/// A value of the host program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HVal {
    Num(u32, Ty),
    Buffer(u32),
    Graph(GraphInfo),
    Stream(u32),
    Dim3(Dim3),
    /// A struct value: its index in `Host::struct_values` (`host/struct_values.rs`).
    Struct(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GraphInfo {
    offsets: u32,
    columns: u32,
    weights: u32,
    vertices: u32,
    edges: u32,
}

struct HSym {
    name: String,
    val: HVal,
    is_const: bool,
}

enum Flow {
    Normal,
    Break,
    Continue,
    /// Evaluation cannot go on (too many launches or steps, or too many errors).
    Stop,
}

/// What the host program produced.
pub(crate) struct HostOutput {
    pub buffers: Vec<BufferSpec>,
    pub launches: Vec<LaunchSpec>,
    /// The host's writes between launches.
    pub copies: Vec<HostCopy>,
    /// Where each launch is in the source, in the same order.
    pub sites: Vec<LaunchSite>,
}

struct Host<'a, 'd> {
    structs: &'a [StructDef],
    /// The file's host code, set aside: named in the error where the host block calls it.
    host_code: &'a [HostItem],
    /// The struct values of the host block, by `HVal::Struct` index.
    struct_values: Vec<struct_values::StructValue>,
    /// The buffers that hold structs: (buffer, struct).
    buffer_structs: Vec<(u32, u16)>,
    /// The buffers that hold pointers: (buffer, the pointers' element type).
    pointer_buffers: Vec<(u32, Scalar)>,
    /// The buffer of each file-scope variable (`None` where its declaration failed).
    global_buffers: Vec<Option<u32>>,
    sigs: &'a [FnSig],
    kernels: &'a [Option<Kernel>],
    config: &'a GpuConfig,
    diags: &'d mut Diags,
    scopes: Vec<Vec<HSym>>,
    buffers: Vec<BufferSpec>,
    launches: Vec<LaunchSpec>,
    copies: Vec<HostCopy>,
    sites: Vec<LaunchSite>,
    streams: u32,
    steps: u64,
    loops: u32,
}

/// Runs the host block. `kernels` are the compiled kernels (`None` where compilation failed;
/// their launches are still checked against the signatures).
pub(crate) fn run(
    host: &HostBlock,
    unit: &Unit,
    sigs: &[FnSig],
    kernels: &[Option<Kernel>],
    config: &GpuConfig,
    diags: &mut Diags,
) -> HostOutput {
    let (globals, structs) = (&unit.globals, &unit.structs);
    let mut h = Host {
        structs,
        host_code: &unit.host_code,
        struct_values: Vec::new(),
        buffer_structs: Vec::new(),
        pointer_buffers: Vec::new(),
        global_buffers: Vec::new(),
        sigs,
        kernels,
        config,
        diags,
        scopes: alloc::vec![Vec::new()],
        buffers: Vec::new(),
        launches: Vec::new(),
        copies: Vec::new(),
        sites: Vec::new(),
        streams: 0,
        steps: 0,
        loops: 0,
    };
    // File-scope variables are buffers like those of the host block, declared before it (so
    // the host block may name them too): a scalar is a buffer of one element.
    for g in globals {
        let mut decl = g.decl.clone();
        if decl.dims.is_empty() {
            decl.dims.push(Some(Expr::new(ExprKind::Int { value: 1, unsigned: false }, decl.name_span)));
        }
        h.declaration(&decl, true);
        let buffer = match h.lookup(&decl.name).map(|s| &s.val) {
            Some(HVal::Buffer(b)) => Some(*b),
            _ => None,
        };
        h.global_buffers.push(buffer);
    }
    // The file's named constants, as constants of the host block (a 64-bit one is for kernels:
    // the host block computes in 32 bits).
    for d in &unit.constants {
        if !matches!(d.ty.base, BaseType::Scalar(Scalar::Long | Scalar::ULong | Scalar::Double)) {
            h.declaration(d, true);
        }
    }
    for s in &host.body {
        if matches!(h.exec(s, true), Flow::Stop) {
            break;
        }
    }
    if h.launches.is_empty() && !h.diags.has_errors() {
        h.diags.error(host.span, "the host block launches no kernel");
    }
    HostOutput { buffers: h.buffers, launches: h.launches, copies: h.copies, sites: h.sites }
}

fn describe(v: &HVal) -> String {
    match v {
        HVal::Num(_, t) => a(*t),
        HVal::Buffer(_) => "a buffer".into(),
        HVal::Graph(_) => "a graph".into(),
        HVal::Stream(_) => "a stream".into(),
        HVal::Dim3(_) => "a `dim3`".into(),
        HVal::Struct(_) => "a struct value".into(),
    }
}

impl Host<'_, '_> {
    fn lookup(&self, name: &str) -> Option<&HSym> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|s| s.name == name)
    }

    fn lookup_mut(&mut self, name: &str) -> Option<&mut HSym> {
        self.scopes.iter_mut().rev().flat_map(|s| s.iter_mut().rev()).find(|s| s.name == name)
    }

    fn declare(&mut self, name: &str, span: Span, val: HVal, is_const: bool) {
        let scope = self.scopes.last_mut().expect("the host block has a scope");
        if scope.iter().any(|s| s.name == name) {
            self.diags.error(span, format!("`{name}` is already declared in this block"));
            return;
        }
        scope.push(HSym { name: name.into(), val, is_const });
    }

    fn tick(&mut self, span: Span) -> bool {
        self.steps += 1;
        if self.steps > MAX_HOST_STEPS {
            self.diags.error(
                span,
                format!("the host program runs more than {MAX_HOST_STEPS} loop iterations; is this loop endless?"),
            );
            return false;
        }
        !self.diags.full()
    }

    // ---- statements ---------------------------------------------------------------------

    fn exec_block(&mut self, body: &[Stmt]) -> Flow {
        self.scopes.push(Vec::new());
        let mut flow = Flow::Normal;
        for s in body {
            flow = self.exec(s, false);
            if !matches!(flow, Flow::Normal) {
                break;
            }
        }
        self.scopes.pop();
        flow
    }

    fn exec_scoped(&mut self, s: &Stmt) -> Flow {
        self.exec_block(core::slice::from_ref(s))
    }

    fn exec(&mut self, s: &Stmt, top: bool) -> Flow {
        if self.diags.full() {
            return Flow::Stop;
        }
        match &s.kind {
            StmtKind::Empty => Flow::Normal,
            StmtKind::Expr(e) => {
                self.eval(e);
                Flow::Normal
            }
            StmtKind::Decl(decls) => {
                for d in decls {
                    self.declaration(d, top);
                }
                Flow::Normal
            }
            StmtKind::Block(body) => self.exec_block(body),
            StmtKind::If(c, then, els) => match self.truth(c) {
                Some(true) => self.exec_scoped(then),
                Some(false) => els.as_ref().map_or(Flow::Normal, |e| self.exec_scoped(e)),
                None => Flow::Normal,
            },
            StmtKind::While(c, body) => self.run_loop(s.span, None, Some(c), None, body, false),
            StmtKind::DoWhile(body, c) => self.run_loop(s.span, None, Some(c), None, body, true),
            StmtKind::For { init, cond, step, body } => {
                self.scopes.push(Vec::new());
                let flow = self.run_loop(s.span, init.as_deref(), cond.as_ref(), step.as_ref(), body, false);
                self.scopes.pop();
                flow
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.loops == 0 {
                    let what = if matches!(s.kind, StmtKind::Break) { "break" } else { "continue" };
                    self.diags.error(s.span, format!("`{what}` outside a loop"));
                    return Flow::Normal;
                }
                if matches!(s.kind, StmtKind::Break) {
                    Flow::Break
                } else {
                    Flow::Continue
                }
            }
            StmtKind::Return(_) => {
                self.diags.error(s.span, "`return` is not allowed in the host block");
                Flow::Normal
            }
            StmtKind::Launch(l) => self.launch(l, s.span),
            StmtKind::Switch(..) => {
                self.diags.error_help(s.span, "`switch` is not supported in the host block", "use `if` / `else if`");
                Flow::Normal
            }
        }
    }

    fn run_loop(
        &mut self,
        span: Span,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        body_first: bool,
    ) -> Flow {
        if let Some(init) = init {
            self.exec(init, false);
        }
        self.loops += 1;
        let mut first = true;
        let flow = loop {
            if !self.tick(span) {
                break Flow::Stop;
            }
            if !(first && body_first) {
                if let Some(c) = cond {
                    match self.truth(c) {
                        Some(true) => {}
                        _ => break Flow::Normal,
                    }
                }
            }
            first = false;
            match self.exec_scoped(body) {
                Flow::Break => break Flow::Normal,
                Flow::Stop => break Flow::Stop,
                Flow::Normal | Flow::Continue => {}
            }
            if let Some(step) = step {
                self.eval(step);
            }
        };
        self.loops -= 1;
        flow
    }

    // ---- declarations -------------------------------------------------------------------

    fn declaration(&mut self, d: &VarDecl, top: bool) {
        if let (true, false, false, BaseType::Scalar(elem)) =
            (d.ty.pointer, d.ty.indirect, d.dims.is_empty(), d.ty.base)
        {
            if top {
                self.pointer_buffer(d, elem);
            } else {
                self.diags
                    .error(d.name_span, "buffers, graphs and streams are declared at the top level of the host block");
            }
            return;
        }
        if d.ty.pointer {
            self.diags.error_help(
                d.ty.span,
                "pointers are not supported in the host block",
                format!(
                    "declare a buffer such as `int {}[N];`, or a buffer of pointers, `float* {}[N] = {{a, b}};`",
                    d.name, d.name
                ),
            );
            return;
        }
        let resource = !d.dims.is_empty() || matches!(d.ty.base, BaseType::Graph | BaseType::Stream);
        if resource && !top {
            self.diags
                .error(d.name_span, "buffers, graphs and streams are declared at the top level of the host block");
            return;
        }
        match d.ty.base {
            BaseType::Stream => {
                if let Some(init) = &d.init {
                    self.diags.error(init_span(init), "a stream takes no initializer");
                }
                self.streams += 1;
                let id = self.streams;
                self.declare(&d.name, d.name_span, HVal::Stream(id), true);
            }
            BaseType::Graph => self.graph(d),
            BaseType::Dim3 => {
                let v = match &d.init {
                    None => Some(HVal::Dim3(Dim3 { x: 1, y: 1, z: 1 })),
                    Some(Init::Expr(e)) => self.dims(e).map(HVal::Dim3),
                    Some(Init::List(_, s) | Init::Construct(_, s)) => {
                        self.diags.error(*s, "write `dim3(x, y, z)`");
                        None
                    }
                };
                if let Some(v) = v {
                    self.declare(&d.name, d.name_span, v, d.ty.is_const);
                }
            }
            BaseType::Void => self.diags.error(d.ty.span, format!("variable `{}` cannot be `void`", d.name)),
            BaseType::Group => self.diags.error(d.ty.span, "cooperative groups exist only in kernels"),
            BaseType::Auto => self.diags.error(d.ty.span, "`auto` is not supported in the host block; name the type"),
            BaseType::Scalar(s) if !d.dims.is_empty() => self.buffer(d, s),
            BaseType::Struct(id) if !d.dims.is_empty() => self.struct_buffer(d, id),
            BaseType::Struct(id) => self.struct_value(d, id),
            BaseType::Scalar(s @ (Scalar::Long | Scalar::ULong | Scalar::Double)) => self.diags.error_help(
                d.ty.span,
                format!("the host block computes in 32 bits: `{}` variables are for kernels", Ty::from_scalar(s)),
                "declare it `int`, `unsigned` or `float`; it converts when passed to a 64-bit parameter",
            ),
            BaseType::Scalar(s) => {
                let ty = Ty::from_scalar(s);
                let v = match &d.init {
                    None => Some(0),
                    Some(Init::Expr(e)) => self.number(e, ty, &format!("`{}`", d.name)),
                    Some(Init::List(_, span) | Init::Construct(_, span)) => {
                        self.diags.error(*span, format!("`{}` is not a buffer; initialize it with a value", d.name));
                        None
                    }
                };
                self.declare(&d.name, d.name_span, HVal::Num(v.unwrap_or(0), ty), d.ty.is_const);
            }
        }
    }

    /// An expression that must be a number, converted to `ty`.
    fn number(&mut self, e: &Expr, ty: Ty, what: &str) -> Option<u32> {
        match self.eval(e)? {
            HVal::Num(v, t) if t.is_arith() && t != Ty::Void => Some(convert_const(v, t, ty)),
            other => {
                self.diags.error(e.span, format!("{what} needs {}, found {}", a(ty), describe(&other)));
                None
            }
        }
    }

    fn total_bytes(&self) -> u64 {
        self.buffers.iter().map(|b| b.words as u64 * 4).sum()
    }

    fn add_buffer(&mut self, span: Span, spec: BufferSpec) -> Option<u32> {
        let total = self.total_bytes() + spec.words as u64 * 4;
        if total > MAX_GLOBAL_BYTES / 2 {
            self.diags
                .error(span, format!("the buffers need {total} bytes in all; at most {} fit", MAX_GLOBAL_BYTES / 2));
            return None;
        }
        self.buffers.push(spec);
        Some(self.buffers.len() as u32 - 1)
    }

    fn buffer(&mut self, d: &VarDecl, scalar: Scalar) {
        let ty = init_type(scalar);
        let elem = elem_type(scalar);
        let list = match &d.init {
            Some(Init::List(items, _) | Init::Construct(items, _)) => Some(items),
            _ => None,
        };
        let Some(elements) = self.buffer_length(d, list.map(|l| l.len())) else { return };
        // Narrow elements are packed into whole words (the last one padded with zeros).
        let bytes = elements.saturating_mul(elem.width().bytes() as u64);
        if bytes > MAX_GLOBAL_BYTES / 2 {
            self.diags.error(
                d.name_span,
                format!("buffer `{}` of {elements} elements is larger than the 512 MiB of buffers allowed", d.name),
            );
            return;
        }
        let init = match &d.init {
            None => Some(BufferInit::Zeros),
            Some(Init::List(items, span) | Init::Construct(items, span)) => {
                if items.len() as u64 > elements {
                    self.diags.error(
                        *span,
                        format!("{} values for `{}`, which has {elements} elements", items.len(), d.name),
                    );
                    return;
                }
                let values: Option<Vec<u32>> = items.iter().map(|e| self.number(e, ty, "an element")).collect();
                values.map(BufferInit::Words)
            }
            Some(Init::Expr(e)) => self.initializer(e, ty, elements, &d.name),
        };
        let Some(init) = init else { return };
        let spec = BufferSpec { name: d.name.clone(), words: bytes.div_ceil(4) as u32, init, elem };
        if let Some(idx) = self.add_buffer(d.name_span, spec) {
            self.declare(&d.name, d.name_span, HVal::Buffer(idx), false);
        }
    }

    /// `Node nodes[N];` (zeros) or `Node nodes[2] = {1, 2.5, 3, 4.5};`: a buffer of structs.
    /// A list gives the members of each struct in turn (array members element by element),
    /// each converted to its member's type. Its words are `int`s to the page.
    fn struct_buffer(&mut self, d: &VarDecl, id: u16) {
        let slots = super::structs::scalar_slots(self.structs, id);
        let per = slots.len() as u64;
        let size = self.structs[id as usize].size;
        let list = match &d.init {
            Some(Init::List(items, _) | Init::Construct(items, _)) => Some(items),
            _ => None,
        };
        let list_structs = list.map(|l| l.len().div_ceil(per as usize));
        let Some(count) = self.buffer_length(d, list_structs) else { return };
        let bytes = count.saturating_mul(size as u64);
        if bytes > MAX_GLOBAL_BYTES / 2 {
            self.diags.error(
                d.name_span,
                format!("buffer `{}` of {count} structs is larger than the 512 MiB of buffers allowed", d.name),
            );
            return;
        }
        let init = match &d.init {
            None => BufferInit::Zeros,
            Some(Init::List(items, span) | Init::Construct(items, span)) => {
                if items.len() as u64 > count.saturating_mul(per) {
                    self.diags.error(
                        *span,
                        format!("{} values for `{}`, which has {count} structs of {per} values", items.len(), d.name),
                    );
                    return;
                }
                // Each value at its member's offset, in its member's width.
                let mut words = alloc::vec![0u32; (items.len().div_ceil(slots.len()) * size as usize).div_ceil(4)];
                for (k, e) in items.iter().enumerate() {
                    let (offset, ty) = slots[k % slots.len()];
                    let addr = (k / slots.len()) as u32 * size + offset;
                    if ty.is_wide() {
                        // Held in 32 bits, as the host block computes, and widened to the
                        // member's 64, low word first (8-aligned, so both words are the member's).
                        let held = struct_values::host_ty(ty);
                        let Some(value) = self.number(e, held, "a member") else { return };
                        let wide = crate::kernel::types::convert_bits(value as u64, held, ty);
                        words[(addr / 4) as usize] = wide as u32;
                        words[(addr / 4) as usize + 1] = (wide >> 32) as u32;
                        continue;
                    }
                    let Some(value) = self.number(e, ty, "a member") else { return };
                    let word = &mut words[(addr / 4) as usize];
                    *word = ty.width().insert(*word, addr, value);
                }
                BufferInit::Words(words)
            }
            Some(Init::Expr(e)) => {
                self.diags.error_help(
                    e.span,
                    format!("buffer `{}` holds structs: it starts as zeros or as a list", d.name),
                    "list the members of each struct in turn, or fill it in a kernel",
                );
                return;
            }
        };
        let spec = BufferSpec { name: d.name.clone(), words: bytes.div_ceil(4) as u32, init, elem: ElemType::Int };
        if let Some(idx) = self.add_buffer(d.name_span, spec) {
            self.buffer_structs.push((idx, id));
            self.declare(&d.name, d.name_span, HVal::Buffer(idx), false);
        }
    }

    /// The element count of buffer `d` from its dimensions (the first may be left to the
    /// initializer list, of `list` elements); `None` once said why not.
    fn buffer_length(&mut self, d: &VarDecl, list: Option<usize>) -> Option<u64> {
        let mut words: u64 = 1;
        for (k, dim) in d.dims.iter().enumerate() {
            let n = match dim {
                Some(e) => match self.eval(e) {
                    Some(HVal::Num(v, t)) if t.is_integer() && t != Ty::Bool => {
                        if (t == Ty::Int && (v as i32) < 1) || v == 0 {
                            self.diags.error(
                                e.span,
                                format!("the size of `{}` must be at least 1, got {}", d.name, v as i32),
                            );
                            return None;
                        }
                        v as u64
                    }
                    Some(other) => {
                        self.diags.error(
                            e.span,
                            format!("the size of `{}` must be an integer, found {}", d.name, describe(&other)),
                        );
                        return None;
                    }
                    None => return None,
                },
                None if k == 0 && list.is_some() => list.map_or(1, |l| l.max(1) as u64),
                None => {
                    self.diags.error(d.name_span, format!("the size of `{}` must be given", d.name));
                    return None;
                }
            };
            words = words.saturating_mul(n);
        }
        Some(words)
    }

    /// `buffer = fill(v);` (or `iota()`, `random(lo, hi, seed)`): new starting contents for a
    /// buffer, as `cudaMemcpyToSymbol` or `cudaMemcpy` before the first launch would give it.
    /// Between launches the host writes single elements ([`Host::write_into`]).
    fn refill(&mut self, b: u32, name: &str, r: &Expr) -> Option<HVal> {
        if !self.launches.is_empty() {
            self.diags.error_help(
                r.span,
                format!("`{name}` can only be filled before the first launch"),
                format!("between launches the host block writes single elements (`{name}[i] = value;`), or a kernel fills it"),
            );
            return None;
        }
        if let Some(id) = self.struct_of(b) {
            let ty = &self.structs[id as usize].name;
            self.diags.error_help(
                r.span,
                format!("buffer `{name}` holds structs: it starts as zeros or as the list of its declaration"),
                format!(
                    "list the members in turn where it is declared (`{ty} {name} = {{…}};`), or set them before the \
                     first launch (`{name}{}.member = value;`)",
                    if self.element_shape(b).1 > 1 { "[i]" } else { "" }
                ),
            );
            return None;
        }
        if self.pointee_of(b).is_some() {
            self.diags.error(r.span, format!("buffer `{name}` holds pointers: it starts as its list of addresses"));
            return None;
        }
        let spec = &self.buffers[b as usize];
        let elem = spec.elem;
        let elements = spec.words as u64 * 4 / elem.width().bytes() as u64;
        let init = self.initializer(r, init_type(scalar_type(elem)), elements, name)?;
        self.buffers[b as usize].init = init;
        Some(HVal::Buffer(b))
    }

    /// `iota()`, `fill(v)` or `random(lo, hi, seed)` for a buffer of `words` elements.
    fn initializer(&mut self, e: &Expr, ty: Ty, words: u64, name: &str) -> Option<BufferInit> {
        let ExprKind::Call(f, fspan, args) = &e.kind else {
            self.diags.error_help(
                e.span,
                format!("buffer `{name}` cannot be initialized with an expression"),
                "use `iota()`, `fill(v)`, `random(lo, hi, seed)` or a list `{…}`",
            );
            return None;
        };
        let arity = match f.as_str() {
            "iota" => 0,
            "fill" => 1,
            "random" => 3,
            _ => {
                self.diags.error_help(
                    *fspan,
                    format!("`{f}` cannot initialize a buffer"),
                    "use `iota()`, `fill(v)`, `random(lo, hi, seed)` or a list `{…}`",
                );
                return None;
            }
        };
        if args.len() != arity {
            self.diags.error(
                e.span,
                format!("`{f}` takes {arity} argument{}, got {}", if arity == 1 { "" } else { "s" }, args.len()),
            );
            return None;
        }
        match f.as_str() {
            "iota" if ty == Ty::Float => {
                if words > MAX_COMPUTED_WORDS {
                    self.diags.error(
                        e.span,
                        format!("`iota()` on a float buffer is limited to {MAX_COMPUTED_WORDS} elements"),
                    );
                    return None;
                }
                Some(BufferInit::Words((0..words as u32).map(|i| (i as f32).to_bits()).collect()))
            }
            "iota" => Some(BufferInit::Iota),
            "fill" => Some(BufferInit::Constant(self.number(&args[0], ty, "`fill`")?)),
            _ => {
                let lo = self.number(&args[0], ty, "the low end of `random`")?;
                let hi = self.number(&args[1], ty, "the high end of `random`")?;
                let seed = self.number(&args[2], Ty::Uint, "the seed of `random`")?;
                if ty == Ty::Float {
                    return Some(BufferInit::RandomFloat { seed, min: lo, max: hi });
                }
                let (l, h) =
                    if ty.promote() == Ty::Int { (lo as i32 as i64, hi as i32 as i64) } else { (lo as i64, hi as i64) };
                if l > h {
                    self.diags.error(e.span, format!("`random({l}, {h}, …)` is an empty range"));
                    return None;
                }
                if l >= 0 {
                    return Some(BufferInit::Random { seed, min: lo, max: hi });
                }
                // Negative ranges: computed here with the engine's generator, as it would.
                if words > MAX_COMPUTED_WORDS {
                    self.diags.error(
                        e.span,
                        format!("`random` with a negative range is limited to {MAX_COMPUTED_WORDS} elements"),
                    );
                    return None;
                }
                let mut rng = SplitMix64::new(seed as u64);
                let span = (h - l) as u64 + 1;
                Some(BufferInit::Words((0..words).map(|_| (l + rng.below(span) as i64) as i32 as u32).collect()))
            }
        }
    }

    fn graph(&mut self, d: &VarDecl) {
        let Some(Init::Expr(e)) = &d.init else {
            self.diags.error_help(
                d.name_span,
                format!("graph `{}` needs a generator", d.name),
                "such as `powerlaw(4096, 32768, 1)`",
            );
            return;
        };
        let ExprKind::Call(f, fspan, args) = &e.kind else {
            self.diags.error_help(
                e.span,
                "a graph comes from a generator",
                "`powerlaw(v, e, seed)`, `uniform(v, e, seed)`, `mesh(w, h, seed)`, `banded(v, band, seed)` or \
                 `citation(v, window, seed)`",
            );
            return;
        };
        let kind = match f.as_str() {
            "powerlaw" => GraphKind::PowerLaw,
            "uniform" => GraphKind::Uniform,
            "mesh" => GraphKind::Mesh,
            "banded" => GraphKind::Banded,
            "citation" => GraphKind::Citation,
            _ => {
                self.diags.error_help(
                    *fspan,
                    format!("`{f}` is not a graph generator"),
                    "use `powerlaw`, `uniform`, `mesh`, `banded` or `citation`",
                );
                return;
            }
        };
        if args.len() != 3 {
            self.diags.error(e.span, format!("`{f}` takes 3 arguments, got {}", args.len()));
            return;
        }
        let mut vals = [0u32; 3];
        for (k, arg) in args.iter().enumerate() {
            let Some(v) = self.number(arg, Ty::Int, &format!("argument {} of `{f}`", k + 1)) else { return };
            if (v as i32) < 0 {
                self.diags.error(arg.span, format!("argument {} of `{f}` must not be negative", k + 1));
                return;
            }
            vals[k] = v;
        }
        let (vertices, edges_or_width, expected_edges) = match kind {
            GraphKind::Mesh => {
                let v = vals[0] as u64 * vals[1] as u64;
                (v, vals[0] as u64, 4 * v)
            }
            // Their edge counts are random: bound them by the generators' mean-degree bounds.
            GraphKind::Banded => {
                (vals[0] as u64, vals[1] as u64, u64::from(graph::BANDED_MEAN_DEGREE_BOUND) * vals[0] as u64)
            }
            GraphKind::Citation => {
                (vals[0] as u64, vals[1] as u64, u64::from(graph::CITATION_MEAN_DEGREE_BOUND) * vals[0] as u64)
            }
            GraphKind::Uniform | GraphKind::PowerLaw => (vals[0] as u64, vals[1] as u64, vals[1] as u64),
        };
        let bytes = (vertices + 1 + 2 * expected_edges) * 4;
        if vertices > u32::MAX as u64 - 1 || self.total_bytes() + bytes > MAX_GLOBAL_BYTES / 2 {
            self.diags.error(e.span, format!("graph `{}` is too large for the 512 MiB of buffers allowed", d.name));
            return;
        }
        let spec = GraphSpec { kind, vertices: vertices as u32, edges_or_width: edges_or_width as u32, seed: vals[2] };
        let csr = match graph::generate(&spec) {
            Ok(csr) => csr,
            Err(why) => {
                self.diags.error(e.span, format!("cannot generate graph `{}`: {why}", d.name));
                return;
            }
        };
        let vertices = csr.offsets.len().saturating_sub(1) as u32;
        let edges = csr.columns.len() as u32;
        let mut ids = [0u32; 3];
        for (k, (part, words)) in
            [("offsets", csr.offsets), ("columns", csr.columns), ("weights", csr.weights)].into_iter().enumerate()
        {
            let spec = BufferSpec {
                name: format!("{}.{part}", d.name),
                words: words.len() as u32,
                init: BufferInit::Words(words),
                elem: ElemType::Int,
            };
            let Some(id) = self.add_buffer(e.span, spec) else { return };
            ids[k] = id;
        }
        let info = GraphInfo { offsets: ids[0], columns: ids[1], weights: ids[2], vertices, edges };
        self.declare(&d.name, d.name_span, HVal::Graph(info), true);
    }

    // ---- expressions --------------------------------------------------------------------

    fn truth(&mut self, e: &Expr) -> Option<bool> {
        match self.eval(e)? {
            HVal::Num(v, t) if t.is_arith() && t != Ty::Void => Some(convert_const(v, t, Ty::Bool) != 0),
            other => {
                self.diags.error(e.span, format!("a condition must be a number, found {}", describe(&other)));
                None
            }
        }
    }

    fn host_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.scopes.iter().flat_map(|s| s.iter().map(|h| h.name.as_str())).collect();
        names.extend(self.sigs.iter().map(|s| s.name.as_str()));
        names
    }

    fn eval(&mut self, e: &Expr) -> Option<HVal> {
        match &e.kind {
            ExprKind::Int { value, unsigned } => Some(HVal::Num(*value, if *unsigned { Ty::Uint } else { Ty::Int })),
            ExprKind::Float(f) => Some(HVal::Num(f.to_bits(), Ty::Float)),
            // The host block computes in 32 bits: an unsuffixed literal is a `float` here.
            ExprKind::Double(d) => Some(HVal::Num((*d as f32).to_bits(), Ty::Float)),
            ExprKind::Long { value, unsigned } => match u32::try_from(*value) {
                Ok(v) if *unsigned || v <= i32::MAX as u32 => {
                    Some(HVal::Num(v, if *unsigned || v > i32::MAX as u32 { Ty::Uint } else { Ty::Int }))
                }
                _ => {
                    self.diags.error(e.span, "the host block computes in 32 bits; this value needs 64");
                    None
                }
            },
            ExprKind::Bool(b) => Some(HVal::Num(u32::from(*b), Ty::Bool)),
            ExprKind::Name(n) => match self.lookup(n) {
                Some(s) => Some(s.val),
                None => {
                    self.undefined_name(n, e.span);
                    None
                }
            },
            ExprKind::Member(..) if self.is_struct_path(e) => self.member_value(e),
            ExprKind::Member(base, m, mspan) => {
                let b = self.eval(base)?;
                let v = match (b, m.as_str()) {
                    (HVal::Graph(g), "offsets") => HVal::Buffer(g.offsets),
                    (HVal::Graph(g), "columns") => HVal::Buffer(g.columns),
                    (HVal::Graph(g), "weights") => HVal::Buffer(g.weights),
                    (HVal::Graph(g), "vertices") => HVal::Num(g.vertices, Ty::Int),
                    (HVal::Graph(g), "edges") => HVal::Num(g.edges, Ty::Int),
                    (HVal::Dim3(d), "x") => HVal::Num(d.x, Ty::Uint),
                    (HVal::Dim3(d), "y") => HVal::Num(d.y, Ty::Uint),
                    (HVal::Dim3(d), "z") => HVal::Num(d.z, Ty::Uint),
                    (HVal::Graph(_), _) => {
                        self.diags.error_help(
                            *mspan,
                            format!("a graph has no member `{m}`"),
                            "use `.offsets`, `.columns`, `.weights`, `.vertices` or `.edges`",
                        );
                        return None;
                    }
                    (other, _) => {
                        self.diags.error(*mspan, format!("{} has no member `{m}`", describe(&other)));
                        return None;
                    }
                };
                Some(v)
            }
            ExprKind::Index(b, _) => {
                self.eval(b)?;
                self.diags.error(
                    e.span,
                    "the host block cannot read buffer elements: buffers are filled when the run starts",
                );
                None
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                let HVal::Num(n, t) = v else {
                    self.diags.error(e.span, format!("this operator cannot be applied to {}", describe(&v)));
                    return None;
                };
                match fold_unary(*op, n, t) {
                    Some((r, rt)) => Some(HVal::Num(r, rt)),
                    None => {
                        self.diags.error(e.span, format!("this operator cannot be applied to {}", a(t)));
                        None
                    }
                }
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), l, r) => {
                let left = self.truth(l)?;
                if left != (*op == BinOp::LogAnd) {
                    return Some(HVal::Num(u32::from(left), Ty::Bool));
                }
                Some(HVal::Num(u32::from(self.truth(r)?), Ty::Bool))
            }
            ExprKind::Binary(op, l, r) => {
                let x = self.eval(l)?;
                let y = self.eval(r)?;
                match (x, y) {
                    (HVal::Num(xv, xt), HVal::Num(yv, yt)) => match fold_binary(*op, xv, xt, yv, yt) {
                        Ok((v, t)) => match signed_overflow(*op, xv, xt, yv, yt).filter(|_| t == Ty::Int) {
                            Some(exact) => {
                                self.diags.error(
                                    e.span,
                                    format!(
                                        "this overflows `int`: the exact result, {exact}, does not fit in 32 bits \
                                         (the host block computes as the kernels do, and C leaves signed overflow \
                                         undefined)"
                                    ),
                                );
                                None
                            }
                            None => Some(HVal::Num(v, t)),
                        },
                        Err(message) => {
                            self.diags.error(e.span, message);
                            None
                        }
                    },
                    (x, y) => {
                        self.diags.error(
                            e.span,
                            format!(
                                "operator `{}` cannot be applied to {} and {}",
                                op.symbol(),
                                describe(&x),
                                describe(&y)
                            ),
                        );
                        None
                    }
                }
            }
            ExprKind::Cond(c, x, y) => {
                if self.truth(c)? {
                    self.eval(x)
                } else {
                    self.eval(y)
                }
            }
            ExprKind::Cast(t, x) => {
                let v = self.eval(x)?;
                match (v, Ty::from_type_expr(t)) {
                    (HVal::Num(n, from), Some(to)) if to.is_arith() && from.is_arith() && !to.is_wide() => {
                        Some(HVal::Num(convert_const(n, from, to), to))
                    }
                    _ => {
                        self.diags.error(e.span, format!("cannot cast {}", describe(&v)));
                        None
                    }
                }
            }
            ExprKind::Comma(x, y) => {
                self.eval(x)?;
                self.eval(y)
            }
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e.span),
            ExprKind::IncDec { increment, pre, target } => {
                let one = Expr::new(ExprKind::Int { value: 1, unsigned: false }, target.span);
                let op = if *increment { BinOp::Add } else { BinOp::Sub };
                let old = self.eval(target)?;
                let new = self.assign(Some(op), target, &one, e.span)?;
                Some(if *pre { new } else { old })
            }
            ExprKind::Call(name, nspan, args) => self.call(name, *nspan, args, e.span),
            ExprKind::Method(_, name, nspan, _) => {
                self.diags.error(*nspan, format!("`.{name}(…)` is a function of a cooperative group, in kernels only"));
                None
            }
        }
    }

    fn undefined_name(&mut self, name: &str, span: Span) {
        if self.set_aside(name, span) {
            return;
        }
        let message = format!("undefined name `{name}`");
        let names = self.host_names();
        match suggest(name, names) {
            Some(s) => {
                let help = format!("did you mean `{s}`?");
                self.diags.error_help(span, message, help)
            }
            None => self.diags.error(span, message),
        }
    }

    /// Whether `name` is the file's host code, set aside; if so, the error says so.
    fn set_aside(&mut self, name: &str, span: Span) -> bool {
        let Some(item) = self.host_code.iter().find(|h| h.name == name) else { return false };
        let what = if item.function { "function" } else { "variable" };
        self.diags.error_help(
            span,
            format!("`{name}` is the file's host {what} (line {}), which is set aside, not run", item.span.line),
            "the host block is warpscope's own: declare the buffers and launch the kernels in it (docs/language.md)",
        );
        true
    }

    fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, span: Span) -> Option<HVal> {
        if self.is_struct_path(l) {
            return self.assign_member(op, l, r, span);
        }
        if let Some(b) = self.written_buffer(l) {
            return self.write_into(b, op, l, r);
        }
        let ExprKind::Name(name) = &l.kind else {
            self.diags.error(l.span, "only host variables can be assigned in the host block");
            return None;
        };
        let Some(sym) = self.lookup(name) else {
            self.undefined_name(name, l.span);
            return None;
        };
        let (current, is_const) = (sym.val, sym.is_const);
        if let (HVal::Buffer(b), None, ExprKind::Call(..)) = (current, op, &r.kind) {
            return self.refill(b, name, r);
        }
        let HVal::Num(cv, ct) = current else {
            let help = if matches!(current, HVal::Buffer(_)) {
                "exchange buffers with `swap(a, b)`"
            } else {
                "it is not a number"
            };
            self.diags.error_help(l.span, format!("`{name}` cannot be assigned"), help);
            return None;
        };
        if is_const {
            self.diags.error(l.span, format!("cannot assign to `{name}`: it is declared `const`"));
            return None;
        }
        let value = self.eval(r)?;
        let HVal::Num(v, t) = value else {
            self.diags.error(r.span, format!("cannot assign {} to {} variable", describe(&value), a(ct)));
            return None;
        };
        let new = HVal::Num(self.assigned(op, (cv, ct), (v, t), span)?, ct);
        if let Some(sym) = self.lookup_mut(name) {
            sym.val = new;
        }
        Some(new)
    }

    /// What `x = v` (`op` none) or `x op= v` stores in `x`, which holds `current` of its
    /// type: the bits in that type, or `None` once the fold's error is said.
    fn assigned(&mut self, op: Option<BinOp>, current: (u32, Ty), v: (u32, Ty), span: Span) -> Option<u32> {
        let (cv, ct) = current;
        let (v, t) = match op {
            None => v,
            Some(op) => match fold_binary(op, cv, ct, v.0, v.1) {
                Ok(r) => r,
                Err(message) => {
                    self.diags.error(span, message);
                    return None;
                }
            },
        };
        Some(convert_const(v, t, ct))
    }

    fn call(&mut self, name: &str, nspan: Span, args: &[Expr], span: Span) -> Option<HVal> {
        match name {
            "dim3" => self.dims(&Expr::new(ExprKind::Call(name.into(), nspan, args.to_vec()), span)).map(HVal::Dim3),
            "swap" => {
                if args.len() != 2 {
                    self.diags.error(span, format!("`swap` takes 2 buffers, got {} arguments", args.len()));
                    return None;
                }
                let names: Vec<&str> = args
                    .iter()
                    .filter_map(|e| match &e.kind {
                        ExprKind::Name(n) => Some(n.as_str()),
                        _ => None,
                    })
                    .collect();
                if names.len() != 2 {
                    self.diags.error(span, "`swap` exchanges two buffer names, such as `swap(a, b)`");
                    return None;
                }
                let (x, y) = (self.eval(&args[0])?, self.eval(&args[1])?);
                let (HVal::Buffer(bx), HVal::Buffer(by)) = (x, y) else {
                    let bad = if matches!(x, HVal::Buffer(_)) { &args[1] } else { &args[0] };
                    self.diags.error(bad.span, "`swap` exchanges two buffers");
                    return None;
                };
                let (ex, ey) = (self.buffers[bx as usize].elem, self.buffers[by as usize].elem);
                if ex != ey {
                    self.diags.error(
                        span,
                        format!(
                            "`swap` needs buffers of one element type: `{}` holds `{}`, `{}` holds `{}`",
                            names[0],
                            elem_name(ex),
                            names[1],
                            elem_name(ey)
                        ),
                    );
                    return None;
                }
                if let Some(s) = self.lookup_mut(names[0]) {
                    s.val = HVal::Buffer(by);
                }
                if let Some(s) = self.lookup_mut(names[1]) {
                    s.val = HVal::Buffer(bx);
                }
                Some(HVal::Num(0, Ty::Void))
            }
            "min" | "max" if args.len() == 2 => {
                let (x, y) = (self.eval(&args[0])?, self.eval(&args[1])?);
                let (HVal::Num(xv, xt), HVal::Num(yv, yt)) = (x, y) else {
                    self.diags.error(span, format!("`{name}` needs numbers"));
                    return None;
                };
                let (less, _) = fold_binary(BinOp::Lt, xv, xt, yv, yt).ok()?;
                let t = super::types::common(xt, yt);
                let (xv, yv) = (convert_const(xv, xt, t), convert_const(yv, yt, t));
                let pick_x = (less != 0) == (name == "min");
                Some(HVal::Num(if pick_x { xv } else { yv }, t))
            }
            // `swap`, the one host function called as a statement, is matched above: the rest
            // initialize declarations.
            _ if HOST_ONLY.contains(&name) => {
                self.diags.error(nspan, format!("`{name}(…)` only initializes a buffer or graph declaration"));
                None
            }
            _ => {
                if self.sigs.iter().any(|s| s.name == name && s.global) {
                    self.diags.error(span, format!("kernels are launched with `{name}<<<grid, block>>>(…)`"));
                } else if self.sigs.iter().any(|s| s.name == name) {
                    self.diags
                        .error(span, format!("`{name}` is a `__device__` function; the host block cannot call it"));
                } else if self.set_aside(name, nspan) {
                } else {
                    let mut candidates = alloc::vec!["swap", "dim3", "min", "max"];
                    candidates.extend(self.sigs.iter().filter(|s| s.global).map(|s| s.name.as_str()));
                    let message = format!("undefined function `{name}`");
                    match suggest(name, candidates) {
                        Some(s) => {
                            let help = format!("did you mean `{s}`?");
                            self.diags.error_help(nspan, message, help)
                        }
                        None => self.diags.error(nspan, message),
                    }
                }
                None
            }
        }
    }

    /// A grid or block: `dim3(x, y, z)`, a `dim3` variable or one integer.
    fn dims(&mut self, e: &Expr) -> Option<Dim3> {
        if let ExprKind::Call(name, _, args) = &e.kind {
            if name == "dim3" {
                if args.is_empty() || args.len() > 3 {
                    self.diags.error(e.span, format!("`dim3` takes 1 to 3 values, got {}", args.len()));
                    return None;
                }
                let mut d = [1u32; 3];
                for (k, arg) in args.iter().enumerate() {
                    d[k] = self.extent(arg)?;
                }
                return Some(Dim3 { x: d[0], y: d[1], z: d[2] });
            }
        }
        match self.eval(e)? {
            HVal::Dim3(d) => Some(d),
            HVal::Num(..) => self.extent(e).map(Dim3::linear),
            other => {
                self.diags
                    .error(e.span, format!("a grid or block is an integer or `dim3(…)`, found {}", describe(&other)));
                None
            }
        }
    }

    fn extent(&mut self, e: &Expr) -> Option<u32> {
        match self.eval(e)? {
            HVal::Num(v, t) if t.is_integer() && t != Ty::Void => {
                if t == Ty::Int && (v as i32) < 0 {
                    self.diags.error(e.span, format!("a launch dimension cannot be negative, got {}", v as i32));
                    return None;
                }
                // 0 is allowed here: a launch with it is skipped, as CUDA refuses it.
                Some(v)
            }
            other => {
                self.diags.error(e.span, format!("a launch dimension must be an integer, found {}", describe(&other)));
                None
            }
        }
    }

    // ---- launches -----------------------------------------------------------------------

    fn launch(&mut self, l: &Launch, span: Span) -> Flow {
        let Some(ki) = self.sigs.iter().position(|s| s.name == l.kernel && s.global) else {
            if self.sigs.iter().any(|s| s.name == l.kernel) {
                self.diags.error(
                    l.kernel_span,
                    format!("`{}` is a `__device__` function; only `__global__` kernels can be launched", l.kernel),
                );
            } else {
                let kernels = self.sigs.iter().filter(|s| s.global).map(|s| s.name.as_str());
                match suggest(&l.kernel, kernels) {
                    Some(s) => self.diags.error_help(
                        l.kernel_span,
                        format!("undefined kernel `{}`", l.kernel),
                        format!("did you mean `{s}`?"),
                    ),
                    None => self.diags.error(l.kernel_span, format!("undefined kernel `{}`", l.kernel)),
                }
            }
            return Flow::Normal;
        };
        let sig = &self.sigs[ki];
        let kernel_index = sig.kernel_index.unwrap_or(0);
        if !(2..=4).contains(&l.config.len()) {
            self.diags.error(span, "a launch takes `<<<grid, block>>>` or `<<<grid, block, shared_bytes, stream>>>`");
            return Flow::Normal;
        }
        let grid = self.dims(&l.config[0]);
        let block = self.dims(&l.config[1]);
        let dynamic_shared = match l.config.get(2) {
            None => Some(0),
            Some(e) => match self.eval(e) {
                Some(HVal::Num(n, t)) if t.is_integer() && (t == Ty::Uint || n as i32 >= 0) => Some(n),
                Some(HVal::Num(n, t)) if t.is_integer() => {
                    self.diags.error(e.span, format!("the dynamic shared memory cannot be negative ({})", n as i32));
                    None
                }
                Some(other) => {
                    let found = describe(&other);
                    self.diags.error(
                        e.span,
                        format!("the third launch value is the dynamic shared memory in bytes, found {found}"),
                    );
                    None
                }
                None => None,
            },
        };
        let stream = match l.config.get(3) {
            None => Some(0),
            Some(e) => match self.eval(e) {
                Some(HVal::Stream(id)) => Some(id),
                Some(HVal::Num(0, t)) if t.is_integer() => Some(0),
                Some(other) => {
                    self.diags
                        .error(e.span, format!("the fourth launch value must be a stream, found {}", describe(&other)));
                    None
                }
                None => None,
            },
        };
        let args = self.launch_args(l, ki, span);
        let (Some(grid), Some(block), Some(stream), Some(args), Some(dynamic_shared)) =
            (grid, block, stream, args, dynamic_shared)
        else {
            return Flow::Normal;
        };
        let empty = |d: Dim3| d.x == 0 || d.y == 0 || d.z == 0;
        if empty(grid) || empty(block) {
            // Rodinia's lu launches an empty grid at its last step and goes on.
            let what = if empty(grid) { "grid" } else { "block" };
            self.diags.warning(
                span,
                format!(
                    "a launch of `{}` with an empty {what} is skipped: CUDA refuses it at run time (an invalid \
                     configuration) and the program goes on",
                    l.kernel
                ),
            );
            return Flow::Normal;
        }
        if !self.check_shape(ki, grid, block, &l.config) || !self.check_shared(ki, dynamic_shared, &l.config) {
            return Flow::Normal;
        }
        if self.launches.len() >= MAX_LAUNCHES {
            self.diags.error(span, format!("the host program launches more than {MAX_LAUNCHES} kernels"));
            return Flow::Stop;
        }
        self.launches.push(LaunchSpec { kernel: kernel_index, grid, block, args, stream, dynamic_shared });
        self.sites.push(LaunchSite { at: span, grid: l.config[0].span, block: l.config[1].span });
        Flow::Normal
    }

    /// Whether a block's shared memory, the kernel's and `dynamic` bytes, fits an SM.
    fn check_shared(&mut self, ki: usize, dynamic: u32, config: &[Expr]) -> bool {
        let kernel_index = self.sigs[ki].kernel_index.unwrap_or(0) as usize;
        let Some(Some(k)) = self.kernels.get(kernel_index) else { return true };
        let capacity = self.config.core.shared_memory_per_sm;
        let total = k.shared_bytes as u64 + dynamic as u64;
        if total <= capacity as u64 {
            return true;
        }
        let at = config.get(2).map_or(config[1].span, |e| e.span);
        self.diags.error(
            at,
            format!(
                "a block needs {total} bytes of shared memory ({} of the kernel's arrays, {dynamic} dynamic); an SM of \
                 this machine has {capacity}",
                k.shared_bytes
            ),
        );
        false
    }

    fn check_shape(&mut self, ki: usize, grid: Dim3, block: Dim3, config: &[Expr]) -> bool {
        let core = &self.config.core;
        let blocks = grid.count();
        if blocks > i32::MAX as u64 {
            self.diags.error(config[0].span, format!("a grid of {blocks} blocks is too large; at most {}", i32::MAX));
            return false;
        }
        let threads = block.count();
        let at = config[1].span;
        if threads > core.max_threads_per_sm as u64 {
            self.diags.error(
                at,
                format!(
                    "a block of {threads} threads does not fit: an SM of this machine holds {} threads",
                    core.max_threads_per_sm
                ),
            );
            return false;
        }
        let warps = threads.div_ceil(core.warp_size.max(1) as u64);
        if warps > core.max_warps_per_sm as u64 {
            self.diags.error(
                at,
                format!(
                    "a block of {warps} warps does not fit: an SM of this machine holds {} warps",
                    core.max_warps_per_sm
                ),
            );
            return false;
        }
        let kernel_index = self.sigs[ki].kernel_index.unwrap_or(0) as usize;
        if let Some(Some(k)) = self.kernels.get(kernel_index) {
            if k.max_block_threads > 0 && threads > k.max_block_threads as u64 {
                self.diags.error(
                    at,
                    format!(
                        "a block of {threads} threads is more than the {} that `{}`'s `__launch_bounds__` allows",
                        k.max_block_threads, k.name
                    ),
                );
                return false;
            }
            let regs = warps * core.warp_size as u64 * k.regs_per_thread as u64;
            if regs > core.registers_per_sm as u64 {
                self.diags.error(
                    at,
                    format!(
                        "a block of {threads} threads needs {regs} registers ({} per thread); an SM of this machine has {}",
                        k.regs_per_thread, core.registers_per_sm
                    ),
                );
                return false;
            }
        }
        true
    }

    /// The struct buffer `b` holds, if it holds structs.
    fn struct_of(&self, b: u32) -> Option<u16> {
        self.buffer_structs.iter().find(|&&(k, _)| k == b).map(|&(_, id)| id)
    }

    /// The bytes of one element of buffer `b` (a struct buffer's: its struct's) and how many
    /// elements it has.
    fn element_shape(&self, b: u32) -> (u32, i64) {
        let spec = &self.buffers[b as usize];
        let size = match self.struct_of(b) {
            Some(id) => self.structs[id as usize].size,
            None => spec.elem.width().bytes(),
        };
        (size, spec.words as i64 * 4 / size as i64)
    }

    /// Whether buffer `b` may be passed as pointer type `p`: its structs, its pointers or its
    /// numbers are what `p` points at (signed and unsigned of one size alike).
    fn buffer_fits(&self, b: u32, p: Ty) -> bool {
        match p {
            Ty::StructPtr { id, .. } => self.struct_of(b) == Some(id),
            Ty::PtrPtr { elem, .. } => self.pointee_of(b).is_some_and(|held| sign_blind(held) == sign_blind(elem)),
            Ty::Ptr { elem, .. } => {
                let held = scalar_type(self.buffers[b as usize].elem);
                self.struct_of(b).is_none() && self.pointee_of(b).is_none() && sign_blind(elem) == sign_blind(held)
            }
            _ => false,
        }
    }

    /// What buffer `b` holds, for messages: "`Node` structs", "`float*` pointers" or "`int`
    /// elements".
    fn contents(&self, b: u32) -> String {
        match (self.struct_of(b), self.pointee_of(b)) {
            (Some(id), _) => format!("`{}` structs", self.structs[id as usize].name),
            (None, Some(elem)) => format!("`{}*` pointers", elem_name(elem_type(elem))),
            (None, None) => format!("`{}` elements", elem_name(self.buffers[b as usize].elem)),
        }
    }

    fn launch_args(&mut self, l: &Launch, ki: usize, span: Span) -> Option<Vec<Arg>> {
        let sig = &self.sigs[ki];
        let (name, params) = (sig.name.clone(), sig.params.clone());
        if l.args.len() != params.len() {
            self.diags.error(span, format!("kernel `{name}` takes {} arguments, got {}", params.len(), l.args.len()));
            return None;
        }
        let mut out = Vec::with_capacity(params.len());
        let mut ok = true;
        for (k, (e, &p)) in l.args.iter().zip(&params).enumerate() {
            // An element's address (`a + 64`, `&a[64]`): the buffer it is in, and where.
            let (base, count) = self.address_form(e);
            let addressed = p.is_ptr() && count.is_some();
            let Some(v) = self.eval(if addressed { base } else { e }) else {
                ok = false;
                continue;
            };
            let arg = match (p, v) {
                (Ty::Error, _) => Some(Arg::Value(0)),
                (p, HVal::Buffer(b)) if p.is_ptr() => {
                    if self.buffer_fits(b, p) {
                        if addressed {
                            self.element_offset(e, b, count).map(|offset| Arg::Element { buffer: b, offset })
                        } else {
                            Some(Arg::Buffer(b))
                        }
                    } else {
                        let want = match p {
                            Ty::StructPtr { id, .. } => format!("a `{}*`", self.structs[id as usize].name),
                            p => a(p),
                        };
                        let (buffer, held) = (&self.buffers[b as usize].name, self.contents(b));
                        let message =
                            format!("argument {} of `{name}` is {want}, but buffer `{buffer}` holds {held}", k + 1);
                        match p {
                            Ty::PtrPtr { elem, .. } => self.diags.error_help(
                                e.span,
                                message,
                                format!(
                                    "pass a buffer of pointers, `{}* rows[N] = {{a, a + 64}};`",
                                    Ty::from_scalar(elem)
                                ),
                            ),
                            _ => self.diags.error(e.span, message),
                        }
                        None
                    }
                }
                (p, HVal::Num(0, t)) if p.is_ptr() && t.is_integer() => Some(Arg::Value(0)),
                // A struct by value: its leaves' words.
                (Ty::Struct(id), HVal::Struct(j)) => {
                    if self.struct_words(j, id, &mut out) {
                        continue;
                    }
                    let (want, found) = (&self.structs[id as usize].name, self.describe(&v));
                    self.diags
                        .error(e.span, format!("argument {} of `{name}` must be a `{want}`, found {found}", k + 1));
                    None
                }
                // A 64-bit parameter takes two words, low first.
                (p, HVal::Num(v, t)) if p.is_wide() && t.is_arith() => {
                    let bits = super::types::convert_bits(v as u64, t, p);
                    out.push(Arg::Value(bits as u32));
                    Some(Arg::Value((bits >> 32) as u32))
                }
                (p, HVal::Num(v, t)) if p.is_arith() && t.is_arith() && t != Ty::Void => {
                    Some(Arg::Value(convert_const(v, t, p)))
                }
                (p, other) => {
                    let want = match p {
                        Ty::Struct(id) => format!("a `{}`", self.structs[id as usize].name),
                        p if p.is_ptr() => format!("a buffer ({})", a(p)),
                        p => a(p),
                    };
                    self.diags.error(
                        e.span,
                        format!("argument {} of `{name}` must be {want}, found {}", k + 1, describe(&other)),
                    );
                    None
                }
            };
            match arg {
                Some(arg) => out.push(arg),
                None => ok = false,
            }
        }
        // The addresses of the file-scope variables the kernel uses, after its own arguments.
        for &g in &self.sigs[ki].globals {
            match self.global_buffers.get(g).copied().flatten() {
                Some(b) => out.push(Arg::Buffer(b)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
}

fn init_span(init: &Init) -> Span {
    match init {
        Init::Expr(e) => e.span,
        Init::List(_, s) | Init::Construct(_, s) => *s,
    }
}

/// An element type as the source spells it.
/// Signed and unsigned of one size may share a buffer, as C lets pointers convert.
fn sign_blind(s: Scalar) -> Scalar {
    match s {
        Scalar::Uint => Scalar::Int,
        Scalar::UChar => Scalar::Char,
        Scalar::UShort => Scalar::Short,
        Scalar::ULong => Scalar::Long,
        s => s,
    }
}

fn elem_name(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Int => "int",
        ElemType::Uint => "unsigned",
        ElemType::Float => "float",
        ElemType::Char => "char",
        ElemType::UChar => "unsigned char",
        ElemType::Short => "short",
        ElemType::UShort => "unsigned short",
        ElemType::Bool => "bool",
        ElemType::Long => "long long",
        ElemType::ULong => "unsigned long long",
        ElemType::Double => "double",
    }
}

/// The element type of a buffer declared with `scalar`.
fn elem_type(scalar: Scalar) -> ElemType {
    match scalar {
        Scalar::Int => ElemType::Int,
        Scalar::Uint => ElemType::Uint,
        Scalar::Float => ElemType::Float,
        Scalar::Char => ElemType::Char,
        Scalar::UChar => ElemType::UChar,
        Scalar::Short => ElemType::Short,
        Scalar::UShort => ElemType::UShort,
        Scalar::Bool => ElemType::Bool,
        Scalar::Long => ElemType::Long,
        Scalar::ULong => ElemType::ULong,
        Scalar::Double => ElemType::Double,
    }
}

/// The type a buffer's initial values are given in: its own, or for a 64-bit buffer the
/// 32-bit type of the same kind (host values are 32 bits; see `widen_elements`).
fn init_type(scalar: Scalar) -> Ty {
    match scalar {
        Scalar::Long => Ty::Int,
        Scalar::ULong => Ty::Uint,
        Scalar::Double => Ty::Float,
        other => Ty::from_scalar(other),
    }
}

/// The scalar type of a buffer's elements (a struct buffer's words are `int`s).
fn scalar_type(elem: ElemType) -> Scalar {
    match elem {
        ElemType::Int => Scalar::Int,
        ElemType::Uint => Scalar::Uint,
        ElemType::Float => Scalar::Float,
        ElemType::Char => Scalar::Char,
        ElemType::UChar => Scalar::UChar,
        ElemType::Short => Scalar::Short,
        ElemType::UShort => Scalar::UShort,
        ElemType::Bool => Scalar::Bool,
        ElemType::Long => Scalar::Long,
        ElemType::ULong => Scalar::ULong,
        ElemType::Double => Scalar::Double,
    }
}

/// The exact result of `x op y` on `int` operands when it does not fit in an `int` (`+`, `-`
/// and `*` only; the others cannot overflow, or fail otherwise).
fn signed_overflow(op: BinOp, x: u32, tx: Ty, y: u32, ty: Ty) -> Option<i64> {
    let (x, y) = (i64::from(convert_const(x, tx, Ty::Int) as i32), i64::from(convert_const(y, ty, Ty::Int) as i32));
    let exact = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        _ => return None,
    };
    i32::try_from(exact).is_err().then_some(exact)
}

#[cfg(test)]
mod tests {
    use crate::config::presets;
    use crate::kernel::{compile, CompileOptions, Diagnostic, Severity};
    use alloc::string::String;
    use alloc::vec::Vec;

    const KERNELS: &str = "__global__ void k(int* a, float x) {}\n__device__ void d() {}\n";

    fn errors(host: &str) -> Vec<Diagnostic> {
        let src = String::from(KERNELS) + host;
        let config = presets::fermi_gtx480();
        match compile(&src, &CompileOptions { config: &config, defines: &[], optimize: true }) {
            Ok(_) => panic!("expected an error:\n{src}"),
            Err(d) => d.into_iter().filter(|d| d.severity == Severity::Error).collect(),
        }
    }

    /// `host` is line 3 of the file.
    fn check(host: &str, column: u32, message: &str) {
        let d = errors(host);
        assert_eq!(d.len(), 1, "{host}\n{d:#?}");
        assert_eq!((d[0].span.line, d[0].span.column, d[0].message.as_str()), (3, column, message), "{host}");
    }

    #[test]
    fn host_arithmetic_that_overflows_int_is_an_error_not_a_wrapped_size() {
        let message = "this overflows `int`: the exact result, 10000000000, does not fit in 32 bits (the host \
                       block computes as the kernels do, and C leaves signed overflow undefined)";
        check("host { int n = 100000; int a[n * n]; }", 30, message);
        check(
            "host { int n = -2147483647; int a[4]; k<<<1, n - 2>>>(a, 1.0); }",
            46,
            "this overflows `int`: the exact result, -2147483649, does not fit in 32 bits (the host block computes \
             as the kernels do, and C leaves signed overflow undefined)",
        );
        // Unsigned arithmetic wraps, as C defines it.
        let src = String::from(KERNELS) + "host { unsigned n = 4294967295u; int a[4]; k<<<1, n + 33u>>>(a, 1.0); }";
        let config = presets::fermi_gtx480();
        assert!(compile(&src, &CompileOptions { config: &config, defines: &[], optimize: true }).is_ok());
    }

    #[test]
    fn a_struct_constant_is_filled_where_it_is_declared() {
        let d = errors("struct P { int a; float b; };\n__constant__ P cp;\nhost { cp = fill(1); }");
        assert_eq!(d[0].message, "buffer `cp` holds structs: it starts as zeros or as the list of its declaration");
        assert_eq!(
            d[0].help.as_deref(),
            Some(
                "list the members in turn where it is declared (`P cp = {…};`), or set them before the first launch \
                 (`cp.member = value;`)"
            )
        );
    }

    #[test]
    fn a_launch_with_an_empty_grid_or_block_is_skipped_with_a_warning() {
        // As Rodinia's lu does at its last step: CUDA refuses the launch and the program goes on.
        let src = String::from(KERNELS)
            + "host {\n  int a[4];\n  for (int g = 2; g >= 0; g--) k<<<g, 32>>>(a, 1.0);\n  k<<<1, dim3(32, 0)>>>(a, 1.0);\n}";
        let config = presets::fermi_gtx480();
        let program = compile(&src, &CompileOptions { config: &config, defines: &[], optimize: true }).unwrap();
        let grids: Vec<u32> = program.workload.launches.iter().map(|l| l.grid.x).collect();
        assert_eq!(grids, [2, 1]);
        let skipped: Vec<&str> =
            program.warnings.iter().filter(|w| w.message.contains("is skipped")).map(|w| w.message.as_str()).collect();
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(skipped[0].contains("empty grid") && skipped[1].contains("empty block"), "{skipped:?}");
    }

    #[test]
    fn each_launch_remembers_where_it_is_in_the_source() {
        let src = "#define N 64\n__global__ void k(int* a, float x) {}\nhost {\n    int a[N];\n    \
                   for (int i = 0; i < 3; i++)\n        k<<<dim3(N / 32, 2), (N)>>>(a, 1.0);\n    \
                   k<<<1, 32, 0, 0>>>(a, 2.0);\n}\n";
        let config = presets::fermi_gtx480();
        let program = compile(src, &CompileOptions { config: &config, defines: &[], optimize: true }).unwrap();
        let text = |s: crate::kernel::Span| &src[s.offset as usize..(s.offset + s.len) as usize];
        let sites = &program.launch_sites;
        assert_eq!(sites.len(), program.workload.launches.len());
        assert_eq!(sites.len(), 4);
        assert_eq!((sites[0].at.line, sites[0].at.column), (6, 9));
        assert_eq!(text(sites[0].at), "k<<<dim3(N / 32, 2), (N)>>>(a, 1.0);");
        assert_eq!((text(sites[0].grid), text(sites[0].block)), ("dim3(N / 32, 2)", "(N)"));
        assert_eq!(sites[2], sites[0], "a launch in a loop has the same site each time");
        assert_eq!((sites[3].at.line, text(sites[3].grid), text(sites[3].block)), (7, "1", "32"));
    }

    #[test]
    fn launches_are_checked_against_the_kernel_and_the_machine() {
        check("host { int a[4]; k<<<1, 32>>>(a); }", 18, "kernel `k` takes 2 arguments, got 1");
        check(
            "host { float b[4]; k<<<1, 32>>>(b, 1); }",
            33,
            "argument 1 of `k` is an `int*`, but buffer `b` holds `float` elements",
        );
        check("host { k<<<1, 32>>>(3, 1); }", 21, "argument 1 of `k` must be a buffer (an `int*`), found an `int`");
        check("host { int a[4]; k<<<1, 32>>>(a, a); }", 34, "argument 2 of `k` must be a `float`, found a buffer");
        check(
            "host { int a[4]; k<<<1, 2048>>>(a, 1); }",
            25,
            "a block of 2048 threads does not fit: an SM of this machine holds 1536 threads",
        );
        check("host { int a[4]; k<<<-1, 32>>>(a, 1); }", 22, "a launch dimension cannot be negative, got -1");
        check(
            "host { int a[4]; k<<<1, 32, 1.5>>>(a, 1); }",
            29,
            "the third launch value is the dynamic shared memory in bytes, found a `float`",
        );
        check(
            "host { int a[4]; k<<<1, 32, 0, 1>>>(a, 1); }",
            32,
            "the fourth launch value must be a stream, found an `int`",
        );
        check(
            "host { int a[4]; k<<<1>>>(a, 1); }",
            18,
            "a launch takes `<<<grid, block>>>` or `<<<grid, block, shared_bytes, stream>>>`",
        );
        check(
            "host { int a[4]; d<<<1, 1>>>(); }",
            18,
            "`d` is a `__device__` function; only `__global__` kernels can be launched",
        );
        check("host { int a[4]; k(a, 1); }", 18, "kernels are launched with `k<<<grid, block>>>(…)`");
        let d = errors("host { int a[4]; kk<<<1, 1>>>(a, 1); }");
        assert_eq!(
            (d[0].span.column, d[0].message.as_str(), d[0].help.as_deref()),
            (18, "undefined kernel `kk`", Some("did you mean `k`?"))
        );
    }

    #[test]
    fn register_hungry_blocks_do_not_fit() {
        let src = "__global__ void big(int* o) {\n  int a[24];\n  for (int i = 0; i < 24; i++) a[i] = o[i];\n  o[threadIdx.x] = a[threadIdx.x % 24];\n}\nhost { int o[2048]; big<<<1, 1536>>>(o); }";
        let config = presets::fermi_gtx480();
        let d = compile(src, &CompileOptions { config: &config, defines: &[], optimize: true }).unwrap_err();
        assert_eq!((d[0].span.line, d[0].span.column), (6, 30));
        assert!(d[0].message.starts_with("a block of 1536 threads needs "), "{}", d[0].message);
        assert!(d[0].message.ends_with("; an SM of this machine has 32768"), "{}", d[0].message);
    }

    #[test]
    fn buffer_declarations_are_checked() {
        check(
            "host { for (int i = 0; i < 2; i++) { int a[4]; } }",
            42,
            "buffers, graphs and streams are declared at the top level of the host block",
        );
        check("host { int a[4] = random(9, 1, 1); }", 19, "`random(9, 1, …)` is an empty range");
        check("host { int a[2] = {1, 2, 3}; }", 19, "3 values for `a`, which has 2 elements");
        check("host { int a[0]; }", 14, "the size of `a` must be at least 1, got 0");
        check("host { int a[4] = 7; }", 19, "buffer `a` cannot be initialized with an expression");
        check("host { int a[4] = ones(); }", 19, "`ones` cannot initialize a buffer");
        check(
            "host { int a[200000000]; }",
            12,
            "buffer `a` of 200000000 elements is larger than the 512 MiB of buffers allowed",
        );
        check("host { int* p; }", 8, "pointers are not supported in the host block");
        check(
            "host { int a[4]; float b[4]; swap(a, b); }",
            30,
            "`swap` needs buffers of one element type: `a` holds `int`, `b` holds `float`",
        );
        check("host { graph g = tree(4, 4, 1); }", 18, "`tree` is not a graph generator");
        check("host { graph g = mesh(4, 4); }", 18, "`mesh` takes 3 arguments, got 2");
        check(
            "host { graph g = banded(100, 0, 1); }",
            18,
            "cannot generate graph `g`: a banded graph needs a band of at least 1, got 0",
        );
    }

    #[test]
    fn host_statements_are_checked() {
        check("host { int a[4]; int n = 2; k<<<1, m>>>(a, 1); }", 36, "undefined name `m`");
        let d = errors("host { int steps = 2; int a[4]; for (int t = 0; t < step; t++) k<<<1, 1>>>(a, 1); }");
        assert_eq!((d[0].span.column, d[0].help.as_deref()), (53, Some("did you mean `steps`?")));
        check("host { return; }", 8, "`return` is not allowed in the host block");
        check("host { break; }", 8, "`break` outside a loop");
        check("host { const int n = 1; n = 2; }", 25, "cannot assign to `n`: it is declared `const`");
        check(
            "host { int a[4]; int x = a[0]; }",
            26,
            "the host block cannot read buffer elements: buffers are filled when the run starts",
        );
        check("host { int a[4]; a = 3; }", 18, "`a` cannot be assigned");
        check(
            "host { int x = 1.0 % 2; }",
            16,
            "operator `%` needs integer operands, found a `float` and an `int` (in a kernel, `fmodf(x, y)`)",
        );
        check("host { int x = iota(); }", 16, "`iota(…)` only initializes a buffer or graph declaration");
        check("host { d(); }", 8, "`d` is a `__device__` function; the host block cannot call it");
        check("host { int x = 1; }", 1, "the host block launches no kernel");
    }

    #[test]
    fn a_file_without_a_host_block_is_an_error() {
        let config = presets::fermi_gtx480();
        let d = compile("__global__ void k() {}\n", &CompileOptions { config: &config, defines: &[], optimize: true })
            .unwrap_err();
        assert_eq!(
            (d[0].span.line, d[0].span.column, d[0].message.as_str()),
            (2, 1, "the file has no `host { … }` block")
        );
    }
}
