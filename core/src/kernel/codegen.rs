//! Kernels to machine code: statements and functions here, expressions in `expr.rs`.
//!
//! Code is generated over virtual registers, type-checking as it goes; then dead code is
//! removed, reconvergence points are computed (`cfg.rs`) and registers allocated
//! (`regalloc.rs`). `__device__` functions are inlined at every call; each is also compiled
//! once on its own, so that one nobody calls is still checked.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::ast::*;
use super::cfg;
use super::diag::{Diags, Span};
use super::opt;
use super::regalloc;
use super::spill;
use super::types::{a, Ty};
use super::vcode::{Site, VInstr, VOp, VReg, NO_SITE};
use crate::config::GpuConfig;
use crate::isa::{Kernel, SourcePos};

/// Most elements of a local array (they live in registers).
pub(crate) const MAX_LOCAL_ARRAY: u32 = 32;
/// Most device-function calls inlined inside one another.
const MAX_INLINE_DEPTH: usize = 32;
/// Most instructions a kernel's code may reach, inlined calls included, before optimisation.
/// Device functions are inlined at every call, so a few lines that call a function twice,
/// each calling the next twice, expand exponentially; the later passes cost more than linear
/// time in the length. The library's longest kernel is a few hundred instructions.
pub(crate) const MAX_KERNEL_INSTRUCTIONS: usize = 16_384;
/// Most statements nested inside one another in a kernel once its calls are inlined (the
/// parser allows 200 in one function, and 32 inlined calls deep would multiply that). Code
/// generation recurses per level, and a browser's worker has far less stack than a native
/// thread: 30 functions of 60 nested blocks, each calling the next, overflowed it.
pub(crate) const MAX_CODE_DEPTH: u32 = 256;

/// What a function takes and returns.
#[derive(Clone, Debug)]
pub(crate) struct FnSig {
    pub name: String,
    pub global: bool,
    pub ret: Ty,
    pub params: Vec<Ty>,
    /// Position among the kernels (what launches refer to), for `__global__` functions.
    pub kernel_index: Option<u32>,
    /// For a kernel, the file-scope variables it uses ([`globals_used`]): their addresses
    /// are hidden parameters after `params`, which the host passes.
    pub globals: Vec<usize>,
}

/// Checks the functions' headers and returns their signatures, in definition order.
pub(crate) fn signatures(unit: &Unit, diags: &mut Diags) -> Vec<FnSig> {
    let mut sigs: Vec<FnSig> = Vec::new();
    let mut kernels = 0;
    for (i, f) in unit.functions.iter().enumerate() {
        let ret = match Ty::from_type_expr(&f.ret) {
            Some(Ty::Group(_)) => {
                diags.error(f.ret.span, "returning a cooperative group is not supported; pass it as a parameter");
                Ty::Error
            }
            Some(t) => t,
            None => {
                diags.error(f.ret.span, "a function returns `void`, `int`, `unsigned`, `float`, `bool` or a pointer");
                Ty::Error
            }
        };
        if f.global && ret != Ty::Void && ret != Ty::Error {
            diags.error(f.ret.span, format!("a `__global__` kernel must return `void`, not `{ret}`"));
        }
        let mut params = Vec::new();
        for p in &f.params {
            let ty = param_type(&p.ty, diags);
            if f.global && p.reference {
                diags.error(p.span, "a kernel cannot take a reference; pass a pointer to a buffer");
            }
            if f.global && matches!(ty, Ty::Group(_)) {
                diags.error(p.ty.span, "a kernel cannot take a cooperative group; make it with `this_thread_block()`");
            }
            if let (true, Ty::Struct(id)) = (f.global, ty) {
                // By value: its leaves are argument words, which an array member cannot be.
                if let Err(member) = super::structs::leaves(&unit.structs, id) {
                    diags.error_help(
                        p.ty.span,
                        format!("a kernel cannot take a struct with an array member ({member}) by value"),
                        "pass a pointer to a buffer of them",
                    );
                }
            }
            params.push(ty);
            if let Some(prev) = f.params.iter().take_while(|q| q.span != p.span).find(|q| q.name == p.name) {
                let _ = prev;
                diags.error(p.span, format!("parameter `{}` is declared twice", p.name));
            }
        }
        let kernel_index = f.global.then(|| {
            kernels += 1;
            kernels - 1
        });
        // Device functions may be overloaded on their parameter types (`overloads.rs`);
        // kernels, launched by name, may not.
        let clash = unit.functions[..i]
            .iter()
            .zip(&sigs)
            .find(|(g, s)| g.name == f.name && (g.global || f.global || s.params == params));
        if let Some((prev, _)) = clash {
            diags.error(f.name_span, format!("`{}` is already defined at line {}", f.name, prev.name_span.line));
        }
        let globals = if f.global { globals_used(unit, i) } else { Vec::new() };
        sigs.push(FnSig { name: f.name.clone(), global: f.global, ret, params, kernel_index, globals });
    }
    sigs
}

fn param_type(t: &TypeExpr, diags: &mut Diags) -> Ty {
    match (t.base, t.pointer) {
        (BaseType::Void, false) => {
            diags.error(t.span, "a parameter cannot be `void`");
            Ty::Error
        }
        (BaseType::Void, true) => {
            diags.error_help(t.span, "`void*` is not supported", "use `int*`, `unsigned*` or `float*`");
            Ty::Error
        }
        _ => Ty::from_type_expr(t).unwrap_or_else(|| {
            diags.error(t.span, "a parameter is a number, a `bool` or a pointer");
            Ty::Error
        }),
    }
}

/// The site of each instruction of `code`.
fn sites_of(code: &[VInstr]) -> Vec<Site> {
    code.iter().map(VInstr::site).collect()
}

/// Code in machine registers, with each virtual instruction's site.
struct Fitted {
    allocated: regalloc::Allocated,
    sites: Vec<Site>,
    /// How values were spilled, where they were.
    spilled: Option<SpillSummary>,
}

/// How a kernel's values were spilled to fit.
struct SpillSummary {
    /// Registers the code needs without spilling.
    needed: u32,
    values: u32,
    words: u32,
}

/// Registers for the optimised code `fast` (if any) or, should it need more than `limit`
/// (unrolled copies keep more values alive), the unoptimised `plain`, which computes the same
/// bits. Should neither fit, some values go to local memory, as a real compiler does, in the
/// one of the two that spills fewer words (the optimised where equal): a compiler that weighs
/// unrolling against registers would not unroll into spills. `Err`: registers the plain code
/// needs, and why even spilling cannot fit it.
fn fit_registers(
    fast: Option<(Vec<VInstr>, u32)>,
    plain: (Vec<VInstr>, u32),
    wide_params: &[bool],
    limit: u32,
) -> Result<Fitted, (u32, spill::Unfit)> {
    let fast = match fast {
        Some((code, vregs)) => match regalloc::allocate(&code, vregs, wide_params, limit) {
            Ok(allocated) => return Ok(Fitted { allocated, sites: sites_of(&code), spilled: None }),
            Err(_) => Some((code, vregs)),
        },
        None => None,
    };
    let (code, vregs) = plain;
    let needed = match regalloc::allocate(&code, vregs, wide_params, limit) {
        Ok(allocated) => return Ok(Fitted { allocated, sites: sites_of(&code), spilled: None }),
        Err(needed) => needed,
    };
    let spilled_plain = spill::allocate_spilling(&code, vregs, wide_params, limit).map(|s| (s, code));
    let spilled_fast = fast
        .and_then(|(code, vregs)| spill::allocate_spilling(&code, vregs, wide_params, limit).ok().map(|s| (s, code)));
    let (spilled, code) = match (spilled_plain, spilled_fast) {
        (Ok(plain), Some(fast)) => {
            if fast.0.words <= plain.0.words {
                fast
            } else {
                plain
            }
        }
        (Ok(plain), None) => plain,
        (Err(_), Some(fast)) => fast,
        (Err(why), None) => return Err((needed, why)),
    };
    let summary = SpillSummary { needed, values: spilled.values, words: spilled.words };
    Ok(Fitted { allocated: spilled.allocated, sites: sites_of(&code), spilled: Some(summary) })
}

/// Compiles every kernel (in definition order) and checks every device function. A kernel
/// with errors is `None`; the errors are in `diags`.
pub(crate) fn compile_kernels(
    unit: &Unit,
    sigs: &[FnSig],
    config: &GpuConfig,
    optimize: bool,
    diags: &mut Diags,
) -> Vec<Option<Kernel>> {
    for (i, f) in unit.functions.iter().enumerate() {
        if !f.global && !diags.full() {
            let mut g = Gen::new(unit, sigs, config, diags, i);
            g.function_body(i, false);
        }
    }
    let mut kernels = Vec::new();
    for (i, f) in unit.functions.iter().enumerate() {
        if !f.global {
            continue;
        }
        if diags.full() {
            kernels.push(None);
            continue;
        }
        let before = diags.error_count();
        let mut g = Gen::new(unit, sigs, config, diags, i);
        g.function_body(i, true);
        let failed = g.diags.error_count() > before;
        if !failed && g.uses_dynamic_shared {
            // Again, with the dynamic arrays placed after the kernel's own (16-byte aligned,
            // as CUDA aligns them). Its diagnostics repeat the first pass's and are dropped.
            let at = g.shared_bytes.next_multiple_of(16);
            g = Gen::new(unit, sigs, config, diags, i);
            g.dynamic_shared_at = Some(at);
            g.function_body(i, true);
            // The kernel's own part of a block's shared memory ends where the dynamic one starts.
            g.shared_bytes = g.shared_bytes.max(at);
        }
        kernels.push(if failed { None } else { g.finish(optimize) });
    }
    kernels
}

/// The entries of `names` that the bounds checks left in `code` refer to, in order of first
/// use, with the checks renumbered: checks that folded away (constant indices in range) leave
/// no trace, so a kernel without run-time indices is what it was before checks existed.
fn keep_named_checks(code: &mut [crate::isa::Instr], names: &[String]) -> Vec<String> {
    let mut kept: Vec<(u16, u16)> = Vec::new();
    let mut out = Vec::new();
    for instr in code.iter_mut() {
        if let crate::isa::Instr::Bound { array, .. } = instr {
            let new = match kept.iter().find(|(old, _)| old == array) {
                Some(&(_, new)) => new,
                None => {
                    let new = out.len() as u16;
                    out.push(names.get(*array as usize).cloned().unwrap_or_default());
                    kept.push((*array, new));
                    new
                }
            };
            *array = new;
        }
    }
    out
}

/// What a name in a kernel refers to.
#[derive(Clone, Debug)]
pub(super) enum Sym {
    /// A scalar or pointer variable (parameters included).
    Var { reg: VReg, ty: Ty, is_const: bool },
    /// A variable initialized with a constant and never assigned: the constant itself
    /// (`declared` where it is `const`, so that it may size an array, as in C++).
    Const { bits: u32, ty: Ty, declared: bool },
    /// A local array in registers, row-major.
    Local { regs: Vec<VReg>, elem: Ty, dims: Vec<u32> },
    /// A `__shared__` array at a byte offset in the block's shared memory (no dims: a scalar).
    Shared { offset: u32, elem: Ty, dims: Vec<u32> },
    /// A struct variable: one register per leaf (`structs::leaves`).
    Struct { regs: Vec<VReg>, id: u16, is_const: bool },
    /// A variable at file scope (`__constant__`, `__device__`): its address is in `reg`.
    Global { reg: VReg, elem: Ty, dims: Vec<u32>, readonly: bool },
    /// A reference parameter bound to an element or struct in memory.
    MemRef { space: crate::isa::Space, base: Option<VReg>, offset: i32, ty: Ty, readonly: bool },
}

pub(super) type Label = u32;

/// The `continue` target inside a `switch` that is in no loop: there is none.
const NO_LOOP: Label = u32::MAX;

/// The function being generated, or one being inlined into it.
pub(super) struct Frame {
    pub func: usize,
    pub kernel: bool,
    pub ret: Ty,
    pub ret_reg: Option<VReg>,
    /// A function returning a struct: the registers of its leaves.
    pub ret_regs: Vec<VReg>,
    pub ret_label: Label,
    /// A function returning a reference: the place its `return` named.
    pub ret_place: Option<super::expr::Place>,
}

/// Generation state for one kernel (or one device function checked on its own).
pub(super) struct Gen<'a, 'd> {
    pub unit: &'a Unit,
    pub sigs: &'a [FnSig],
    pub config: &'a GpuConfig,
    pub diags: &'d mut Diags,
    /// Index of the function being compiled (the kernel), for its name.
    pub root: usize,
    pub code: Vec<VInstr>,
    pub labels: Vec<u32>,
    /// Per virtual register: an expression temporary (written once, read once) rather than
    /// a variable, and how many instructions write it.
    pub is_temp: Vec<bool>,
    pub writes: Vec<u32>,
    /// Per virtual register: whether it holds a 64-bit value (see [`super::wide`]).
    pub wide: Vec<bool>,
    /// The 64-bit constants made so far: each pack's register and value.
    pub packed: Vec<(VReg, u64)>,
    pub scopes: Vec<Vec<(String, Sym)>>,
    /// The file-scope variables this kernel uses (every one, checking a device function).
    pub globals: Vec<(String, Sym)>,
    /// The source of the memory access being generated, for [`Gen::site`].
    pub access_at: Span,
    /// Source spans of the instructions that may fault, by their [`Site`] (debug info).
    pub sites: Vec<Span>,
    /// `break` and `continue` targets of the enclosing loops.
    pub loops: Vec<(Label, Label)>,
    pub frames: Vec<Frame>,
    /// Shared arrays allocated so far: declaration offset in the source → byte offset.
    pub shared: Vec<(u32, u32)>,
    pub shared_bytes: u32,
    pub shared_reported: bool,
    /// Where `extern __shared__` arrays start: after the kernel's own arrays, once a first
    /// pass has counted them (`None` in that pass).
    pub dynamic_shared_at: Option<u32>,
    /// Whether the kernel declared an `extern __shared__` array.
    pub uses_dynamic_shared: bool,
    /// The values of the kernel's `__launch_bounds__`, threads and blocks, where constant.
    pub launch_bound_values: [Option<(u32, Ty)>; 2],
    /// The leaves of the struct the last inlined call returned.
    pub returned: Vec<VReg>,
    /// The place the last inlined call named, if it returns a reference (`methods.rs`).
    pub returned_place: Option<super::expr::Place>,
    /// Whether the kernel was reported as growing past [`MAX_KERNEL_INSTRUCTIONS`].
    pub too_long_reported: bool,
    /// Statements being generated inside one another, across inlined calls.
    pub depth: u32,
    /// Whether the kernel was reported as nesting past [`MAX_CODE_DEPTH`].
    pub too_deep_reported: bool,
    /// Pure computations already done in the current straight-line stretch of code, so that
    /// `y[i] = a * x[i] + y[i]` computes `i * 4` and `y + i * 4` once (local value numbering).
    pub available: Vec<(Pure, VReg)>,
    /// Names assigned (or incremented) anywhere in the function being generated: a variable
    /// with a constant initializer whose name is not here is a constant.
    pub assigned: Vec<String>,
    /// What each bounds check's `array` names (the kernel's [`Kernel::local_arrays`]).
    pub local_arrays: Vec<String>,
    /// The kernel calls a fence or `__syncwarp`: it orders memory with other threads where
    /// the code shows no instruction, so no load is forwarded ([`opt::Memory::Ordered`]).
    pub fences: bool,
}

/// A computation without effects, as a key of [`Gen::available`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pure {
    Alu(crate::isa::AluOp, VOp, VOp),
    Unary(crate::isa::UnaryOp, VOp),
    Cmp(crate::isa::CmpOp, crate::isa::CmpType, VOp, VOp),
    Sfu(crate::isa::SfuOp, VOp, VOp),
    Special(crate::isa::Special),
}

impl Pure {
    fn reads(&self, r: VReg) -> bool {
        let is = |o: &VOp| *o == VOp::Reg(r);
        match self {
            Pure::Alu(_, a, b) | Pure::Cmp(_, _, a, b) | Pure::Sfu(_, a, b) => is(a) || is(b),
            Pure::Unary(_, a) => is(a),
            Pure::Special(_) => false,
        }
    }
}

impl<'a, 'd> Gen<'a, 'd> {
    fn new(unit: &'a Unit, sigs: &'a [FnSig], config: &'a GpuConfig, diags: &'d mut Diags, root: usize) -> Self {
        Gen {
            unit,
            sigs,
            config,
            diags,
            root,
            code: Vec::new(),
            labels: Vec::new(),
            is_temp: Vec::new(),
            writes: Vec::new(),
            wide: Vec::new(),
            packed: Vec::new(),
            scopes: Vec::new(),
            globals: Vec::new(),
            access_at: Span::default(),
            sites: Vec::new(),
            loops: Vec::new(),
            frames: Vec::new(),
            shared: Vec::new(),
            shared_bytes: 0,
            shared_reported: false,
            dynamic_shared_at: None,
            uses_dynamic_shared: false,
            launch_bound_values: [None; 2],
            returned: Vec::new(),
            returned_place: None,
            too_long_reported: false,
            depth: 0,
            too_deep_reported: false,
            available: Vec::new(),
            assigned: Vec::new(),
            local_arrays: Vec::new(),
            fences: false,
        }
    }

    // ---- registers, labels, emission ---------------------------------------------------

    fn new_reg(&mut self, temp: bool) -> VReg {
        self.is_temp.push(temp);
        self.writes.push(0);
        self.wide.push(false);
        (self.is_temp.len() - 1) as VReg
    }

    /// A site for an instruction generated from `span` (see [`VInstr::site`]).
    pub fn site(&mut self, span: Span) -> Site {
        if self.sites.len() >= NO_SITE as usize {
            return NO_SITE;
        }
        self.sites.push(span);
        (self.sites.len() - 1) as Site
    }

    /// A fresh expression temporary.
    pub fn temp(&mut self) -> VReg {
        self.new_reg(true)
    }

    /// A fresh variable register (may be written many times).
    pub fn var(&mut self) -> VReg {
        self.new_reg(false)
    }

    /// A variable register of its own holding `op`: a copy the code may change without
    /// touching where `op` came from.
    pub fn copied(&mut self, op: VOp) -> VReg {
        let reg = self.var();
        self.move_into(reg, op);
        reg
    }

    pub fn emit(&mut self, instr: VInstr) {
        if let Some(d) = instr.def() {
            self.writes[d as usize] += 1;
            self.wide[d as usize] |= instr.def_is_wide();
            self.forget(d);
        }
        self.code.push(instr);
    }

    /// `r` changes: computations that read it or produced it are no longer available.
    pub(super) fn forget(&mut self, r: VReg) {
        self.available.retain(|(p, v)| *v != r && !p.reads(r));
    }

    /// A pure computation: reuses an earlier result in this stretch of code, or emits `make`
    /// into a fresh temporary and remembers it.
    pub fn pure_op(&mut self, key: Pure, make: impl FnOnce(VReg) -> VInstr) -> VOp {
        if let Some(&(_, r)) = self.available.iter().find(|(p, _)| *p == key) {
            // Read more than once now: never retarget its write (see `move_into`).
            self.is_temp[r as usize] = false;
            return VOp::Reg(r);
        }
        let dst = self.temp();
        self.emit(make(dst));
        self.available.push((key, dst));
        VOp::Reg(dst)
    }

    pub fn new_label(&mut self) -> Label {
        self.labels.push(u32::MAX);
        (self.labels.len() - 1) as Label
    }

    pub fn place_label(&mut self, l: Label) {
        self.labels[l as usize] = self.code.len() as u32;
        // Other paths join here: what this one computed may not be there on theirs.
        self.available.clear();
    }

    /// A branch; `hint` is where the paths meet structurally (used only where the exact
    /// post-dominator does not exist, in endless loops).
    pub fn branch(&mut self, cond: VReg, negate: bool, target: Label, hint: Label) {
        self.code.push(VInstr::Branch { cond: Some(cond), negate, target, reconverge: hint });
    }

    pub fn jump(&mut self, target: Label) {
        self.code.push(VInstr::Branch { cond: None, negate: false, target, reconverge: target });
    }

    /// `dst = src`, writing straight into `dst` when `src` is a temporary the last
    /// instruction just computed (no copy).
    pub fn move_into(&mut self, dst: VReg, src: VOp) {
        if let VOp::Reg(t) = src {
            if t == dst {
                return;
            }
            if self.wide[t as usize] {
                self.move_wide_into(dst, t);
                return;
            }
            let fresh = self.is_temp[t as usize] && self.writes[t as usize] == 1;
            if fresh {
                if let Some(last) = self.code.last_mut() {
                    if last.def() == Some(t) {
                        last.set_def(dst);
                        self.writes[t as usize] -= 1;
                        self.writes[dst as usize] += 1;
                        self.forget(t);
                        self.forget(dst);
                        return;
                    }
                }
            }
        }
        self.emit(VInstr::Mov { dst, src });
    }

    // ---- names --------------------------------------------------------------------------

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .chain(self.globals.iter())
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
    }

    pub(super) fn declare(&mut self, name: &str, span: Span, sym: Sym) {
        // A 64-bit variable is wide from its declaration on, so that a read placed before its
        // first write (a loop's) already reads the pair.
        match &sym {
            Sym::Var { reg, ty, .. } if ty.is_wide() => self.wide[*reg as usize] = true,
            Sym::Local { regs, elem, .. } if elem.is_wide() => regs.iter().for_each(|&r| self.wide[r as usize] = true),
            Sym::Struct { regs, id, .. } => {
                let leaves = super::structs::leaves(&self.unit.structs, *id).unwrap_or_default();
                for (&r, (_, ty)) in regs.iter().zip(&leaves) {
                    self.wide[r as usize] |= ty.is_wide();
                }
            }
            _ => {}
        }
        let scope = self.scopes.last_mut().expect("a scope is open while generating");
        if scope.iter().any(|(n, _)| n == name) {
            self.diags.error(span, format!("`{name}` is already declared in this block"));
            return;
        }
        scope.push((name.into(), sym));
    }

    /// Every name visible here, for "did you mean" suggestions.
    pub fn visible_names(&self) -> Vec<&str> {
        self.scopes.iter().flat_map(|s| s.iter().map(|(n, _)| n.as_str())).collect()
    }

    pub fn function_name(&self) -> &'a str {
        let f = self.frames.last().map_or(self.root, |f| f.func);
        &self.unit.functions[f].name
    }

    // ---- functions ----------------------------------------------------------------------

    fn function_body(&mut self, fi: usize, kernel: bool) {
        let unit = self.unit;
        let f = &unit.functions[fi];
        let sig = &self.sigs[fi];
        self.assigned = assigned_names(unit, &f.body);
        self.scopes.push(Vec::new());
        for (p, &ty) in f.params.iter().zip(&sig.params) {
            if let (Ty::Struct(id), true) = (ty, p.reference) {
                if super::structs::leaves(&unit.structs, id).is_err() {
                    // An object with an array member lives in memory: checked on its own, the
                    // function sees one at an address in a register.
                    let base = Some(self.var());
                    let sym =
                        Sym::MemRef { space: crate::isa::Space::Global, base, offset: 0, ty, readonly: p.ty.is_const };
                    self.declare(&p.name, p.span, sym);
                    continue;
                }
            }
            if let Ty::Struct(id) = ty {
                // A leaf per register, a 64-bit one a pair (a kernel's are argument words).
                let leaves = super::structs::leaves(&unit.structs, id).unwrap_or_default();
                let mut regs = Vec::with_capacity(leaves.len());
                for (_, leaf) in leaves {
                    regs.push(self.var());
                    if leaf.is_wide() {
                        self.var();
                    }
                }
                self.declare(&p.name, p.span, Sym::Struct { regs, id, is_const: p.ty.is_const });
                continue;
            }
            let reg = self.var();
            if ty.is_wide() {
                // The pair's high word is the next parameter register.
                self.wide[reg as usize] = true;
                self.var();
            }
            self.declare(&p.name, p.span, Sym::Var { reg, ty, is_const: p.ty.is_const });
        }
        // The hidden parameters: the addresses of the file-scope variables the kernel uses
        // (checking a device function on its own, every one, in registers of no consequence).
        let globals: Vec<usize> = if kernel { sig.globals.clone() } else { (0..unit.globals.len()).collect() };
        for g in globals {
            let reg = self.var();
            if let Some(sym) = self.global_sym(g, reg) {
                self.globals.push((unit.globals[g].decl.name.clone(), sym));
            }
        }
        // After the parameters, which are the first registers.
        self.file_constants();
        if let (true, Some(bounds)) = (kernel, &f.launch_bounds) {
            // Read while the file's constants are in scope (`SHM_SIZE / sizeof(T)`).
            let max_threads = self.constant(&bounds.max_threads);
            let min_blocks = bounds.min_blocks.as_ref().and_then(|e| self.constant(e));
            self.launch_bound_values = [max_threads, min_blocks];
        }
        let ret_label = self.new_label();
        let (ret_reg, ret_regs) = if kernel { (None, Vec::new()) } else { self.return_registers(sig.ret) };
        self.frames.push(Frame { func: fi, kernel, ret: sig.ret, ret_reg, ret_regs, ret_label, ret_place: None });
        self.stmts(&f.body);
        self.frames.pop();
        self.place_label(ret_label);
        self.scopes.pop();
        if !kernel && !matches!(sig.ret, Ty::Void | Ty::Error) && !always_returns(&f.body) {
            self.diags.warning(f.end, format!("`{}` can reach its end without returning a value", f.name));
        }
        self.emit(VInstr::Exit);
    }

    /// The file's named constants (`const int BLOCK = 256;` at file scope), seen by every
    /// function as file-scope names: each must have a value known when compiling.
    fn file_constants(&mut self) {
        let unit = self.unit;
        for d in &unit.constants {
            let ty = Ty::from_type_expr(&d.ty).filter(|t| t.is_arith());
            let (Some(ty), true, Some(Init::Expr(e))) = (ty, d.dims.is_empty(), &d.init) else {
                self.diags.error_help(
                    d.name_span,
                    format!("file-scope constant `{}` must be a number with a value", d.name),
                    "for an array or a struct, use `__constant__` memory",
                );
                continue;
            };
            let v = self.expr(e);
            let v = self.convert_checked(v, ty, super::expr::Ctx::Init, e);
            let sym = match v.op {
                VOp::Imm(bits) if !ty.is_wide() => Sym::Const { bits, ty, declared: true },
                VOp::Reg(reg) if ty.is_wide() && self.wide_bits(v).is_some() => {
                    // Read wherever the name appears: never retargeted.
                    self.is_temp[reg as usize] = false;
                    Sym::Var { reg, ty, is_const: true }
                }
                _ => {
                    if v.ty != Ty::Error {
                        self.diags.error(e.span, format!("the value of `{}` must be known when compiling", d.name));
                    }
                    continue;
                }
            };
            self.globals.push((d.name.clone(), sym));
        }
    }

    /// Inlines device function `fi` with already-evaluated arguments; a reference parameter's
    /// is the place it names (`refs`, by parameter).
    pub fn inline_call(
        &mut self,
        fi: usize,
        args: Vec<super::expr::Val>,
        refs: Vec<Option<super::expr::Place>>,
        span: Span,
    ) -> super::expr::Val {
        use super::expr::Val;
        let unit = self.unit;
        let f = &unit.functions[fi];
        let sig = &self.sigs[fi];
        if self.frames.iter().any(|fr| fr.func == fi) {
            self.diags.error_help(
                span,
                format!("`{}` calls itself, directly or through other functions", f.name),
                "recursion is not supported: device functions are inlined",
            );
            return Val::error();
        }
        if self.frames.len() >= MAX_INLINE_DEPTH {
            self.diags.error(span, format!("device-function calls nest more than {MAX_INLINE_DEPTH} deep"));
            return Val::error();
        }
        if self.code.len() > MAX_KERNEL_INSTRUCTIONS {
            // Reported once, at the call that went past the limit; the remaining calls are
            // not expanded, so the work stays bounded however the calls multiply.
            if !self.too_long_reported {
                self.too_long_reported = true;
                self.diags.error_help(
                    span,
                    format!(
                        "inlining `{}` here makes the kernel longer than {MAX_KERNEL_INSTRUCTIONS} instructions",
                        f.name
                    ),
                    "device functions are inlined at every call, so a function that calls another twice doubles \
                     its size at each level: call it once and reuse the result, or loop",
                );
            }
            return Val::error();
        }
        let saved_scopes = core::mem::take(&mut self.scopes);
        let saved_loops = core::mem::take(&mut self.loops);
        let saved_assigned = core::mem::replace(&mut self.assigned, assigned_names(unit, &f.body));
        self.scopes.push(Vec::new());
        let mut args = args.into_iter();
        for (k, (p, &ty)) in f.params.iter().zip(&sig.params).enumerate() {
            if let Some(place) = refs.get(k).cloned().flatten() {
                self.bind_reference(p, ty, place);
                continue;
            }
            if let Ty::Struct(id) = ty {
                // The caller passed the struct's leaves, already copied into registers.
                let n = super::structs::leaf_count(&unit.structs, id);
                let regs =
                    args.by_ref().take(n).filter_map(|v| if let VOp::Reg(r) = v.op { Some(r) } else { None }).collect();
                self.declare(&p.name, p.span, Sym::Struct { regs, id, is_const: p.ty.is_const });
                continue;
            }
            let Some(v) = args.next() else { break };
            let reg = self.copied(v.op);
            let ty = super::types::declared_as(ty, v.ty);
            self.declare(&p.name, p.span, Sym::Var { reg, ty, is_const: p.ty.is_const });
        }
        let ret_label = self.new_label();
        let (ret_reg, ret_regs) = self.return_registers(sig.ret);
        self.frames.push(Frame {
            func: fi,
            kernel: false,
            ret: sig.ret,
            ret_reg,
            ret_regs,
            ret_label,
            ret_place: None,
        });
        self.stmts(&f.body);
        if let Some(frame) = self.frames.pop() {
            self.returned = frame.ret_regs;
            self.returned_place = frame.ret_place;
        }
        self.place_label(ret_label);
        self.scopes = saved_scopes;
        self.loops = saved_loops;
        self.assigned = saved_assigned;
        match ret_reg {
            Some(r) => Val { op: VOp::Reg(r), ty: sig.ret },
            // A struct: its leaves are in `returned`.
            None if matches!(sig.ret, Ty::Struct(_)) => Val::error_free(sig.ret),
            None => Val { op: VOp::Imm(0), ty: Ty::Void },
        }
    }

    /// Dead code, `fma` contraction and (with `optimize`) the other passes of `opt/`,
    /// reconvergence points, registers.
    fn finish(mut self, optimize: bool) -> Option<Kernel> {
        let f = &self.unit.functions[self.root];
        // A 64-bit parameter takes two registers, the first marked wide.
        let sig = &self.sigs[self.root];
        let mut wide_params: Vec<bool> = Vec::new();
        let word = |wide_params: &mut Vec<bool>, wide: bool| {
            wide_params.push(wide);
            if wide {
                wide_params.push(false);
            }
        };
        // The registers of the `__restrict__` pointer parameters.
        let mut restrict = Vec::new();
        for (p, &ty) in f.params.iter().zip(&sig.params) {
            if p.ty.restrict && ty.is_ptr() {
                restrict.push(wide_params.len() as u32);
            }
            match ty {
                Ty::Struct(id) => super::structs::leaves(&self.unit.structs, id)
                    .unwrap_or_default()
                    .iter()
                    .for_each(|(_, leaf)| word(&mut wide_params, leaf.is_wide())),
                ty => word(&mut wide_params, ty.is_wide()),
            }
        }
        wide_params.resize(wide_params.len() + sig.globals.len(), false);
        let params = wide_params.len() as u32;
        let labels = core::mem::take(&mut self.labels);
        let mut code = core::mem::take(&mut self.code);
        cfg::resolve_labels(&mut code, &labels);
        cfg::remove_unreachable(&mut code);
        let vregs = self.is_temp.len() as u32;
        opt::contract(&mut code, vregs);
        let (limit, max_block_threads) = match &f.launch_bounds {
            Some(bounds) => self.register_limit(bounds)?,
            None => (crate::workload::MAX_REGS_PER_THREAD, 0),
        };
        let fit = if max_block_threads > 0 {
            alloc::format!("the {limit} that its `__launch_bounds__` leaves on this machine")
        } else {
            alloc::format!("the {limit} that fit")
        };
        let fast = optimize.then(|| {
            let mut fast = code.clone();
            let mut fast_vregs = vregs;
            let memory = if self.fences || self.unit.volatile {
                opt::Memory::Ordered
            } else {
                opt::Memory::Plain { restrict: &restrict }
            };
            opt::optimize(&mut fast, &mut fast_vregs, params, memory);
            cfg::set_reconvergence(&mut fast);
            (fast, fast_vregs)
        });
        cfg::set_reconvergence(&mut code);
        let allocated = fit_registers(fast, (code, vregs), &wide_params, limit);
        let mut spill_words = 0;
        if let Ok(Fitted { spilled: Some(spilled), .. }) = &allocated {
            spill_words = spilled.words;
            self.diags.warning(
                f.name_span,
                format!(
                    "kernel `{}` needs {} registers per thread, more than {fit}: {} values live \
                     in local memory instead ({} bytes per thread), loaded and stored through the L1 where they \
                     are used",
                    f.name,
                    spilled.needed,
                    spilled.values,
                    spilled.words * 4
                ),
            );
        }
        let allocated = allocated.map(|fitted| (fitted.allocated, fitted.sites));
        match allocated {
            Ok((regalloc::Allocated { code: mut machine, origin, regs }, sites)) => {
                // Each machine instruction has its virtual one's site; the no-ops the allocator
                // leaves go, and their sites with them.
                let sites: Vec<Site> = origin.iter().map(|&k| sites[k as usize]).collect();
                let kept = cfg::remove_nops(&mut machine);
                let local_arrays = keep_named_checks(&mut machine, &self.local_arrays);
                let source = sites
                    .iter()
                    .zip(&kept)
                    .filter(|(_, &kept)| kept)
                    .map(|(&site, _)| match self.sites.get(site as usize) {
                        Some(span) => SourcePos { line: span.line, column: span.column },
                        None => SourcePos::default(),
                    })
                    .collect();
                Some(Kernel {
                    name: f.name.clone(),
                    code: machine,
                    regs_per_thread: regs,
                    shared_bytes: self.shared_bytes,
                    params,
                    spill_words,
                    max_block_threads,
                    local_arrays,
                    source,
                })
            }
            Err((needed, why)) => {
                let why = match why {
                    spill::Unfit::LocalMemory => alloc::format!(
                        "spilling the rest would take more than the {} bytes of local memory a thread may use",
                        crate::workload::MAX_SPILL_WORDS * 4
                    ),
                    spill::Unfit::Registers => "even with values spilled to local memory more than that must be in \
                                                registers at once (a device-side launch's dimensions and arguments \
                                                cannot be spilled)"
                        .into(),
                };
                self.diags.error_help(
                    f.name_span,
                    format!("kernel `{}` needs {needed} registers per thread, more than {fit}, and {why}", f.name),
                    "keep fewer values alive at once (smaller local arrays, fewer unrolled copies)",
                );
                None
            }
        }
    }

    /// The registers a thread may use under `__launch_bounds__(max_threads, min_blocks)`, and
    /// `max_threads`: as many as let `min_blocks` blocks of `max_threads` threads (whole warps)
    /// share an SM's registers, at most 255. Blocks that could not share an SM anyway (too many
    /// threads or blocks) leave the minimum ignored with a warning, as `ptxas` does. `None`
    /// after an error.
    fn register_limit(&mut self, bounds: &LaunchBounds) -> Option<(u32, u32)> {
        let core = &self.config.core;
        let count = |value: Option<(u32, Ty)>| match value {
            Some((v, t)) if t.is_integer() && (v as i32) > 0 => Some(v),
            _ => None,
        };
        let [threads_value, blocks_value] = self.launch_bound_values;
        let Some(max_threads) = count(threads_value) else {
            self.diags
                .error(bounds.max_threads.span, "`__launch_bounds__` takes a constant, positive number of threads");
            return None;
        };
        if max_threads > core.max_threads_per_sm {
            self.diags.error(
                bounds.max_threads.span,
                format!(
                    "`__launch_bounds__` of {max_threads} threads: an SM of this machine holds {} threads",
                    core.max_threads_per_sm
                ),
            );
            return None;
        }
        let mut min_blocks = match &bounds.min_blocks {
            None => 1,
            Some(e) => match count(blocks_value) {
                Some(n) => n,
                None => {
                    self.diags.error(e.span, "`__launch_bounds__` takes a constant, positive number of blocks");
                    return None;
                }
            },
        };
        let threads = max_threads.div_ceil(core.warp_size.max(1)) as u64 * core.warp_size as u64;
        if min_blocks > core.max_tbs_per_sm || threads * min_blocks as u64 > core.max_threads_per_sm as u64 {
            self.diags.warning(
                bounds.span,
                format!(
                    "{min_blocks} blocks of {max_threads} threads cannot share an SM of this machine ({} threads and {} \
                     blocks at most): the minimum is ignored, as ptxas does",
                    core.max_threads_per_sm, core.max_tbs_per_sm
                ),
            );
            min_blocks = 1;
        }
        let limit = core.registers_per_sm as u64 / (threads * min_blocks as u64);
        Some((limit.min(crate::workload::MAX_REGS_PER_THREAD as u64) as u32, max_threads))
    }

    // ---- statements ---------------------------------------------------------------------

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if self.diags.full() {
                return;
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        if self.depth >= MAX_CODE_DEPTH {
            if !self.too_deep_reported {
                self.too_deep_reported = true;
                self.diags.error_help(
                    s.span,
                    format!("code nests more than {MAX_CODE_DEPTH} levels deep once device functions are inlined"),
                    "each call copies the function's body into the caller, nesting included: flatten some blocks",
                );
            }
            return;
        }
        self.depth += 1;
        self.statement(s);
        self.depth -= 1;
    }

    /// [`Gen::stmt`] within the depth limit.
    fn statement(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => self.effect(e),
            StmtKind::Decl(decls) => {
                for d in decls {
                    self.declaration(d, s.span);
                }
            }
            StmtKind::Block(body) => {
                self.scopes.push(Vec::new());
                self.stmts(body);
                self.scopes.pop();
            }
            StmtKind::If(cond, then, None)
                if matches!(then.kind, StmtKind::Break | StmtKind::Continue)
                    && self
                        .loops
                        .last()
                        .is_some_and(|&(_, next)| matches!(then.kind, StmtKind::Break) || next != NO_LOOP) =>
            {
                // `if (c) break;` is one branch straight to the loop's exit (or next turn).
                let Some(&(exit, next)) = self.loops.last() else { return };
                let target = if matches!(then.kind, StmtKind::Break) { exit } else { next };
                let end = self.new_label();
                self.cond_branch(cond, true, target, end);
                self.place_label(end);
            }
            StmtKind::If(cond, then, els) => {
                let end = self.new_label();
                let otherwise = if els.is_some() { self.new_label() } else { end };
                self.cond_branch(cond, false, otherwise, end);
                self.scoped(then);
                if let Some(els) = els {
                    self.jump(end);
                    self.place_label(otherwise);
                    self.scoped(els);
                }
                self.place_label(end);
            }
            StmtKind::While(cond, body) => {
                let (top, next, exit) = (self.new_label(), self.new_label(), self.new_label());
                self.cond_branch(cond, false, exit, exit);
                self.place_label(top);
                self.loop_body(body, exit, next);
                self.place_label(next);
                self.cond_branch(cond, true, top, exit);
                self.place_label(exit);
            }
            StmtKind::DoWhile(body, cond) => {
                let (top, next, exit) = (self.new_label(), self.new_label(), self.new_label());
                self.place_label(top);
                self.loop_body(body, exit, next);
                self.place_label(next);
                self.cond_branch(cond, true, top, exit);
                self.place_label(exit);
            }
            StmtKind::For { init, cond, step, body } => {
                self.scopes.push(Vec::new());
                if let Some(init) = init {
                    self.stmt(init);
                }
                let (top, next, exit) = (self.new_label(), self.new_label(), self.new_label());
                if let Some(c) = cond {
                    self.cond_branch(c, false, exit, exit);
                }
                self.place_label(top);
                self.loop_body(body, exit, next);
                self.place_label(next);
                if let Some(step) = step {
                    self.effect(step);
                }
                match cond {
                    Some(c) => self.cond_branch(c, true, top, exit),
                    None => self.jump(top),
                }
                self.place_label(exit);
                self.scopes.pop();
            }
            StmtKind::Break | StmtKind::Continue => {
                let is_break = matches!(s.kind, StmtKind::Break);
                match self.loops.last() {
                    Some(&(exit, next)) if is_break || next != NO_LOOP => self.jump(if is_break { exit } else { next }),
                    _ => {
                        let what = if is_break { "break" } else { "continue" };
                        self.diags.error(s.span, format!("`{what}` outside a loop"));
                    }
                }
            }
            StmtKind::Return(value) => self.return_stmt(value.as_ref(), s.span),
            StmtKind::Launch(l) => self.device_launch(l, s.span),
            StmtKind::Switch(value, arms) => self.switch(value, arms),
        }
    }

    /// `switch`: the value compared with each `case` in turn (a branch to its arm when
    /// equal), then a jump to `default` or past the end; the arms follow in order, so control
    /// falls from one into the next, and `break` leaves (`continue` is the enclosing loop's).
    fn switch(&mut self, value: &Expr, arms: &[SwitchArm]) {
        let v = self.expr(value);
        if !v.ty.is_integer() {
            self.diags.error(value.span, format!("a `switch` needs an integer, found {}", self.a_type(v.ty)));
            return;
        }
        let ty = v.ty.promote();
        let v = self.convert(v, ty);
        let reg = self.in_reg(v.op);
        let exit = self.new_label();
        let starts: Vec<Label> = arms.iter().map(|_| self.new_label()).collect();
        let mut seen: Vec<u32> = Vec::new();
        let mut default = None;
        for (arm, &start) in arms.iter().zip(&starts) {
            for (label, span) in &arm.labels {
                let Some(k) = label else {
                    if default.is_some() {
                        self.diags.error(*span, "a second `default` in one `switch`");
                    }
                    default = Some(start);
                    continue;
                };
                let Some((bits, kt)) = self.const_value(k).filter(|(_, t)| t.is_integer()) else {
                    self.diags.error(k.span, "a `case` value must be an integer constant");
                    continue;
                };
                let bits = super::types::convert_const(bits, kt, ty);
                if seen.contains(&bits) {
                    self.diags.error(k.span, "this `case` value appears twice in the `switch`");
                    continue;
                }
                seen.push(bits);
                let hit = self.cmp_eq(reg, bits);
                self.branch(hit, false, start, exit);
            }
        }
        self.jump(default.unwrap_or(exit));
        // `continue` goes to the enclosing loop's next turn (none outside a loop).
        let next = self.loops.last().map_or(NO_LOOP, |&(_, next)| next);
        self.loops.push((exit, next));
        self.scopes.push(Vec::new());
        for (arm, &start) in arms.iter().zip(&starts) {
            self.place_label(start);
            self.stmts(&arm.body);
        }
        self.scopes.pop();
        self.loops.pop();
        self.place_label(exit);
    }

    /// A statement in its own scope (the body of an `if`, say).
    fn scoped(&mut self, s: &Stmt) {
        self.scopes.push(Vec::new());
        self.stmt(s);
        self.scopes.pop();
    }

    fn loop_body(&mut self, body: &Stmt, exit: Label, next: Label) {
        self.loops.push((exit, next));
        self.scoped(body);
        self.loops.pop();
    }

    fn return_stmt(&mut self, value: Option<&Expr>, span: Span) {
        let Some(frame) = self.frames.last() else { return };
        let (kernel, ret, ret_reg, ret_label) = (frame.kernel, frame.ret, frame.ret_reg, frame.ret_label);
        let name = self.function_name();
        if kernel {
            if let Some(v) = value {
                self.expr(v);
                self.diags.error(v.span, "a `__global__` kernel returns nothing");
            }
            self.emit(VInstr::Exit);
            return;
        }
        if self.unit.functions[frame.func].ret_reference {
            self.return_reference(value, span);
            self.jump(ret_label);
            return;
        }
        if let Ty::Struct(id) = ret {
            let regs = self.frames.last().map(|f| f.ret_regs.clone()).unwrap_or_default();
            match value {
                Some(v) => {
                    let from = self.struct_source(v);
                    match from.ty() {
                        Ty::Error => {}
                        t if t == ret => {
                            let to = super::expr::Place::Regs { regs, id, name: String::new(), is_const: false };
                            self.copy_struct(id, &to, &from, v.span);
                        }
                        t => {
                            let (want, found) = (self.a_type(ret), self.a_type(t));
                            self.diags.error(v.span, format!("`{name}` returns {want}, not {found}"));
                        }
                    }
                }
                None => self.diags.error(span, format!("`{name}` must return {}", self.a_type(ret))),
            }
            self.jump(ret_label);
            return;
        }
        match (value, ret_reg) {
            (Some(v), None) => {
                self.expr(v);
                if ret != Ty::Error {
                    self.diags.error(v.span, format!("`{name}` returns `void`; it cannot return a value"));
                }
            }
            (None, Some(_)) => {
                if ret != Ty::Error {
                    self.diags.error(span, format!("`{name}` must return {}", a(ret)));
                }
            }
            (Some(v), Some(r)) => {
                let val = self.expr(v);
                let val = self.convert_checked(val, ret, super::expr::Ctx::Return(name), v);
                self.move_into(r, val.op);
            }
            (None, None) => {}
        }
        self.jump(ret_label);
    }

    /// `return place;` in a function returning a reference: the call names that place. The
    /// code is inlined, so one place per function: a second `return` is refused rather than
    /// choosing between places at run time.
    fn return_reference(&mut self, value: Option<&Expr>, span: Span) {
        let name = self.function_name();
        let Some(frame) = self.frames.last() else { return };
        let ret = frame.ret;
        let Some(v) = value else {
            self.diags.error(span, format!("`{name}` returns a reference: return a variable, an element or a member"));
            return;
        };
        if frame.ret_place.is_some() {
            self.diags.error_help(
                v.span,
                format!("`{name}` returns a reference from a second `return`"),
                "a function returning a reference has one `return` here (it is inlined where it is called)",
            );
            return;
        }
        if !v.names_a_place() {
            self.expr(v);
            self.diags.error(
                v.span,
                format!("`{name}` returns a reference: return a variable, an element or a member, not a value"),
            );
            return;
        }
        let place = self.place(v);
        let found = place.ty();
        if found != ret && found != Ty::Error && ret != Ty::Error {
            let (want, got) = (self.a_type(ret), self.a_type(found));
            self.diags.error(v.span, format!("`{name}` returns a reference to {want}, not to {got}"));
            return;
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.ret_place = Some(place);
        }
    }

    // ---- declarations -------------------------------------------------------------------

    /// The value of `e` if it is known when compiling: literals and operators, or names of
    /// constants (`const int N = 64;`). A dry run, whose code (none, for a constant) goes.
    fn constant(&mut self, e: &Expr) -> Option<(u32, Ty)> {
        let mut named_constants = true;
        super::ast::for_each_subexpr(e, &mut |x| {
            if let ExprKind::Name(n) = &x.kind {
                named_constants &= matches!(self.lookup(n), Some(Sym::Const { declared: true, .. }));
            }
        });
        self.const_value(e).or_else(|| {
            if !named_constants {
                return None;
            }
            let mark = self.code.len();
            let v = self.expr(e);
            self.code.truncate(mark);
            self.available.clear();
            match v.op {
                VOp::Imm(k) if !v.ty.is_wide() => Some((k, v.ty)),
                _ => None,
            }
        })
    }

    /// A constant array dimension (at least 1).
    fn dimension(&mut self, e: &Expr, name: &str) -> Option<u32> {
        match self.constant(e) {
            Some((v, t)) if t.is_integer() && t != Ty::Error => {
                if v == 0 || (t == Ty::Int && (v as i32) < 0) {
                    self.diags.error(e.span, format!("the size of `{name}` must be at least 1, got {}", v as i32));
                    None
                } else {
                    Some(v)
                }
            }
            Some((_, Ty::Error)) => None,
            _ => {
                self.diags.error(e.span, format!("the size of `{name}` must be a constant integer"));
                None
            }
        }
    }

    fn declaration(&mut self, d: &VarDecl, stmt_span: Span) {
        if d.ty.base == BaseType::Auto {
            self.auto_declaration(d);
            return;
        }
        let ty = match Ty::from_type_expr(&d.ty) {
            Some(Ty::Void) => {
                self.diags.error(d.name_span, format!("variable `{}` cannot be `void`", d.name));
                Ty::Error
            }
            Some(t) => t,
            None => Ty::Error, // host-only types were reported by the parser
        };
        if d.reference {
            self.reference_declaration(d, ty);
        } else if d.shared {
            self.shared_declaration(d, ty, stmt_span);
        } else if let (Ty::Struct(id), true) = (ty, d.dims.is_empty()) {
            self.struct_variable(d, id);
        } else if !d.dims.is_empty() {
            if matches!(ty, Ty::Struct(_)) {
                self.diags.error_help(
                    d.name_span,
                    "local arrays of structs are not supported",
                    "use a `__shared__` array of them, or a buffer",
                );
                return;
            }
            self.local_array(d, ty);
        } else {
            if let Some(Init::Expr(e)) = &d.init {
                if self.const_value(e).is_some() && !self.assigned.contains(&d.name) {
                    let v = self.expr(e);
                    let v = self.convert_checked(v, ty, super::expr::Ctx::Init, e);
                    if let VOp::Imm(bits) = v.op {
                        let declared = d.ty.is_const;
                        self.declare(&d.name, d.name_span, Sym::Const { bits, ty: v.ty, declared });
                        return;
                    }
                }
            }
            let reg = self.var();
            let mut ty = ty;
            match &d.init {
                Some(Init::Expr(e)) => {
                    let v = self.expr(e);
                    let v = self.convert_checked(v, ty, super::expr::Ctx::Init, e);
                    ty = super::types::declared_as(ty, v.ty);
                    self.move_into(reg, v.op);
                }
                Some(Init::List(_, span) | Init::Construct(_, span)) => {
                    self.diags.error(*span, format!("`{}` is not an array; initialize it with a value", d.name));
                }
                None => {}
            }
            self.declare(&d.name, d.name_span, Sym::Var { reg, ty, is_const: d.ty.is_const });
        }
    }

    /// Where a function returning `ret` leaves its value: one register, or a struct's leaves
    /// (its value is read from [`Gen::returned`] after the call).
    fn return_registers(&mut self, ret: Ty) -> (Option<VReg>, Vec<VReg>) {
        match ret {
            Ty::Void => (None, Vec::new()),
            Ty::Struct(id) => {
                let n = super::structs::leaf_count(&self.unit.structs, id);
                (None, (0..n).map(|_| self.var()).collect())
            }
            _ => {
                let reg = self.var();
                self.wide[reg as usize] = ret.is_wide();
                (Some(reg), Vec::new())
            }
        }
    }

    /// Reference parameter `p` names `place`: the caller's variable (its very register), its
    /// struct's registers, or the element in memory.
    fn bind_reference(&mut self, p: &Param, ty: Ty, place: super::expr::Place) {
        use super::expr::Place;
        let is_const = p.ty.is_const;
        let sym = match place {
            Place::Var { reg, is_const: c, .. } => Sym::Var { reg, ty, is_const: is_const || c },
            Place::Regs { regs, id, is_const: c, .. } => Sym::Struct { regs, id, is_const: is_const || c },
            Place::Mem { space, base, offset, readonly, .. } => {
                Sym::MemRef { space, base, offset, ty, readonly: readonly || is_const }
            }
            // Reported at the call.
            _ => Sym::Var { reg: self.var(), ty: Ty::Error, is_const },
        };
        self.declare(&p.name, p.span, sym);
    }

    /// `T& name = place;`: `name` is another name of the place (a `const` reference may
    /// also name a value, copied into a register of its own, as C++ binds a temporary).
    fn reference_declaration(&mut self, d: &VarDecl, ty: Ty) {
        let (Some(Init::Expr(e)), true) = (&d.init, d.dims.is_empty()) else {
            self.diags
                .error(d.name_span, format!("reference `{}` is bound to one place: `T& {} = place;`", d.name, d.name));
            return;
        };
        let param = Param { ty: d.ty, name: d.name.clone(), span: d.name_span, reference: true };
        let place = self.bound_place(super::expr::Binding::Var(&d.name), ty, d.ty.is_const, e);
        self.bind_reference(&param, ty, place);
    }

    /// `auto x = value;`: `x` takes the value's type.
    fn auto_declaration(&mut self, d: &VarDecl) {
        let reg = self.var();
        let init = match &d.init {
            Some(Init::Expr(e)) if d.dims.is_empty() && !d.shared => e,
            _ => {
                let span = d.ty.span.to(d.name_span);
                self.diags.error(span, "`auto` declares one variable from its initializer: `auto x = value;`");
                self.declare(&d.name, d.name_span, Sym::Var { reg, ty: Ty::Error, is_const: d.ty.is_const });
                return;
            }
        };
        let v = self.expr(init);
        let ty = match v.ty {
            Ty::Void => {
                self.diags.error(init.span, "this expression has no value (it is `void`)");
                Ty::Error
            }
            Ty::Struct(id) => {
                let name = &self.unit.structs[id as usize].name;
                self.diags.error(d.ty.span, format!("write `{name} {} = …;`: `auto` does not copy structs", d.name));
                Ty::Error
            }
            t if d.ty.pointer && !t.is_ptr() && t != Ty::Error => {
                self.diags.error(init.span, format!("`auto*` needs a pointer, found {}", super::types::a(t)));
                Ty::Error
            }
            t => t,
        };
        self.move_into(reg, v.op);
        self.declare(&d.name, d.name_span, Sym::Var { reg, ty, is_const: d.ty.is_const });
    }

    /// File-scope variable `g`, its address in `reg`; `None` (said) if its type or size is
    /// wrong.
    fn global_sym(&mut self, g: usize, reg: VReg) -> Option<Sym> {
        let var = &self.unit.globals[g];
        let d = &var.decl;
        let elem = match Ty::from_type_expr(&d.ty) {
            Some(Ty::Void | Ty::Ptr { .. } | Ty::PtrPtr { .. } | Ty::StructPtr { .. }) | None => {
                self.diags.error(d.ty.span, "a variable at file scope holds numbers or structs, not pointers");
                return None;
            }
            Some(t) => t,
        };
        let list = match &d.init {
            Some(Init::List(items, _)) => Some(items.len()),
            _ => None,
        };
        let dims = self.dims_of(d, list)?;
        Some(Sym::Global { reg, elem, dims, readonly: var.constant })
    }

    /// `Node n;`, `Node n = nodes[i];` or `Node n = {1, 2};`: a register per leaf.
    fn struct_variable(&mut self, d: &VarDecl, id: u16) {
        let Ok(all) = self.struct_leaves(id, d.name_span) else { return };
        let regs: Vec<VReg> = all.iter().map(|_| self.var()).collect();
        match &d.init {
            Some(Init::Expr(e)) => {
                let from = self.struct_source(e);
                match from.ty() {
                    Ty::Error => {}
                    t if t == Ty::Struct(id) => {
                        let to =
                            super::expr::Place::Regs { regs: regs.clone(), id, name: d.name.clone(), is_const: false };
                        self.copy_struct(id, &to, &from, e.span);
                    }
                    t => {
                        let (want, found) = (self.a_type(Ty::Struct(id)), self.a_type(t));
                        self.diags.error(e.span, format!("cannot initialize {want} variable with {found}"));
                    }
                }
            }
            Some(Init::Construct(args, span)) => {
                let to = super::expr::Place::Regs { regs: regs.clone(), id, name: d.name.clone(), is_const: false };
                self.construct(&to, id, args, *span);
            }
            None if self.has_constructor(id) => {
                let to = super::expr::Place::Regs { regs: regs.clone(), id, name: d.name.clone(), is_const: false };
                self.construct(&to, id, &[], d.name_span);
            }
            Some(Init::List(items, _)) => {
                if items.len() > regs.len() {
                    self.diags.error(
                        items[regs.len()].span,
                        format!("too many initializers for `{}` ({} members)", d.name, regs.len()),
                    );
                }
                let types: Vec<Ty> = all.iter().map(|&(_, ty)| ty).collect();
                self.initialize(&regs, &types, items);
            }
            None => {}
        }
        self.declare(&d.name, d.name_span, Sym::Struct { regs, id, is_const: d.ty.is_const });
    }

    /// Registers `regs` (of types `types`) from an initializer list, and, as in C, those
    /// after the list from zero.
    fn initialize(&mut self, regs: &[VReg], types: &[Ty], items: &[Expr]) {
        for (k, (&reg, &ty)) in regs.iter().zip(types).enumerate() {
            match items.get(k) {
                Some(e) => {
                    let v = self.expr(e);
                    let v = self.convert_checked(v, ty, super::expr::Ctx::Init, e);
                    self.move_into(reg, v.op);
                }
                None if ty.is_wide() => self.emit(VInstr::Pack { dst: reg, lo: VOp::Imm(0), hi: VOp::Imm(0) }),
                None => self.emit(VInstr::Mov { dst: reg, src: VOp::Imm(0) }),
            }
        }
    }

    fn dims_of(&mut self, d: &VarDecl, list_len: Option<usize>) -> Option<Vec<u32>> {
        let mut dims = Vec::new();
        let mut ok = true;
        for (k, dim) in d.dims.iter().enumerate() {
            match dim {
                Some(e) => match self.dimension(e, &d.name) {
                    Some(v) => dims.push(v),
                    None => ok = false,
                },
                None if k == 0 && d.dims.len() == 1 && list_len.is_some() => {
                    dims.push(list_len.unwrap_or(0).max(1) as u32);
                }
                None => {
                    self.diags.error(d.name_span, format!("the size of `{}` must be given", d.name));
                    ok = false;
                }
            }
        }
        ok.then_some(dims)
    }

    fn shared_declaration(&mut self, d: &VarDecl, ty: Ty, span: Span) {
        if let Some(init) = &d.init {
            let s = match init {
                Init::Expr(e) => e.span,
                Init::List(_, s) | Init::Construct(_, s) => *s,
            };
            self.diags.error(s, "`__shared__` variables cannot have an initializer; assign them in the kernel");
        }
        if ty.is_ptr() {
            self.diags.error(d.ty.span, "pointers in `__shared__` memory are not supported");
            return;
        }
        if d.dynamic {
            // An array as long as the largest dynamic memory an SM could give a block.
            self.uses_dynamic_shared = true;
            let size = super::structs::size_of(&self.unit.structs, ty).max(1);
            let dims = alloc::vec![self.config.core.shared_memory_per_sm / size];
            let offset = self.dynamic_shared_at.unwrap_or(0);
            self.declare(&d.name, d.name_span, Sym::Shared { offset, elem: ty, dims });
            return;
        }
        let Some(dims) = self.dims_of(d, None) else { return };
        if ty == Ty::Error {
            return;
        }
        let words = dims.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64));
        let bytes = words.saturating_mul(super::structs::size_of(&self.unit.structs, ty) as u64);
        let capacity = self.config.core.shared_memory_per_sm;
        if bytes > capacity as u64 {
            self.diags.error(
                span,
                format!("__shared__ array `{}` needs {bytes} bytes; an SM of this machine has {capacity}", d.name),
            );
            // Declared all the same, so that its uses are checked rather than undefined.
            self.declare(&d.name, d.name_span, Sym::Shared { offset: 0, elem: ty, dims });
            return;
        }
        let key = d.name_span.offset;
        let offset = match self.shared.iter().find(|(k, _)| *k == key) {
            Some(&(_, off)) => off,
            None => {
                let off = self.shared_bytes;
                self.shared_bytes += bytes as u32;
                self.shared.push((key, off));
                if self.shared_bytes > capacity && !self.shared_reported {
                    self.shared_reported = true;
                    let kernel = &self.unit.functions[self.root].name;
                    self.diags.error(
                        span,
                        format!(
                            "kernel `{kernel}` uses {} bytes of __shared__ memory with `{}`; an SM of this machine has {capacity}",
                            self.shared_bytes, d.name
                        ),
                    );
                }
                off
            }
        };
        self.declare(&d.name, d.name_span, Sym::Shared { offset, elem: ty, dims });
    }

    fn local_array(&mut self, d: &VarDecl, ty: Ty) {
        let list = match &d.init {
            Some(Init::List(items, _)) => Some(items),
            Some(Init::Expr(Expr { span, .. }) | Init::Construct(_, span)) => {
                self.diags.error(*span, format!("array `{}` is initialized with a list such as `{{1, 2}}`", d.name));
                None
            }
            None => None,
        };
        let Some(dims) = self.dims_of(d, list.map(|l| l.len())) else { return };
        let total = dims.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64));
        if total > MAX_LOCAL_ARRAY as u64 {
            self.diags.error_help(
                d.name_span,
                format!("local array `{}` has {total} elements; at most {MAX_LOCAL_ARRAY} fit in registers", d.name),
                "use a __shared__ array or a buffer",
            );
            return;
        }
        let regs: Vec<VReg> = (0..total).map(|_| self.var()).collect();
        if let Some(items) = list {
            if items.len() as u64 > total {
                self.diags.error(
                    items[total as usize].span,
                    format!("too many initializers for `{}` ({total} elements)", d.name),
                );
            }
            self.initialize(&regs, &alloc::vec![ty; regs.len()], items);
        }
        self.declare(&d.name, d.name_span, Sym::Local { regs, elem: ty, dims });
    }

    // ---- device-side launches -----------------------------------------------------------

    fn device_launch(&mut self, l: &Launch, span: Span) {
        let Some(ki) = self.kernel_by_name(&l.kernel, l.kernel_span) else {
            for e in l.config.iter().chain(&l.args) {
                self.expr(e);
            }
            return;
        };
        if l.config.len() != 2 {
            self.diags.error(
                l.config.get(2).map_or(span, |e| e.span),
                "a launch from a kernel takes `<<<grid, block>>>` (no shared-memory size or stream)",
            );
        }
        let mut dims = Vec::with_capacity(6);
        for c in l.config.iter().take(2) {
            dims.extend(self.launch_dims(c));
        }
        while dims.len() < 6 {
            dims.push(VOp::Imm(1));
        }
        if let [VOp::Imm(x), VOp::Imm(y), VOp::Imm(z)] = dims[3..6] {
            let threads = x as u64 * y as u64 * z as u64;
            let max = self.config.core.max_threads_per_sm;
            if threads == 0 || threads > max as u64 {
                self.diags.error(
                    l.config.last().map_or(span, |e| e.span),
                    format!("a block of {threads} threads does not fit: an SM holds 1 to {max}"),
                );
            }
        }
        let sig = &self.sigs[ki];
        let kernel_name = sig.name.clone();
        let param_tys = sig.params.clone();
        let kernel_index = sig.kernel_index.unwrap_or(0);
        if let Some(&g) = sig.globals.first() {
            let name = &self.unit.globals[g].decl.name;
            self.diags.error_help(
                l.kernel_span,
                format!("kernel `{kernel_name}` uses `{name}` at file scope, so it cannot be launched from the device"),
                "launch it from the host block, or pass the memory as a parameter",
            );
            return;
        }
        if l.args.len() != param_tys.len() {
            self.diags.error(
                span,
                format!("kernel `{kernel_name}` takes {} arguments, got {}", param_tys.len(), l.args.len()),
            );
        }
        if param_tys.iter().any(|t| t.is_wide()) {
            self.wide_unsupported(l.kernel_span, "launching a kernel with 64-bit parameters from the device");
            return;
        }
        if param_tys.iter().any(|t| matches!(t, Ty::Struct(_))) {
            self.diags.error(
                l.kernel_span,
                format!("launching a kernel that takes a struct by value from the device is not supported yet (`{kernel_name}`)"),
            );
            return;
        }
        let mut args = Vec::with_capacity(l.args.len());
        for (k, e) in l.args.iter().enumerate() {
            let v = self.expr(e);
            let v = match param_tys.get(k) {
                Some(&t) => self.convert_checked(v, t, super::expr::Ctx::Launch { kernel: &kernel_name, index: k }, e),
                None => v,
            };
            args.push(v.op);
        }
        args.truncate(param_tys.len());
        let first_dim = self.var();
        for _ in 1..6 {
            self.var();
        }
        let first_arg = if args.is_empty() { 0 } else { self.var() };
        for _ in 1..args.len() {
            self.var();
        }
        for (k, &d) in dims.iter().enumerate() {
            self.emit(VInstr::Mov { dst: first_dim + k as u32, src: d });
        }
        for (k, &a) in args.iter().enumerate() {
            self.emit(VInstr::Mov { dst: first_arg + k as u32, src: a });
        }
        self.emit(VInstr::Launch { kernel: kernel_index, dims: first_dim, args: first_arg, nargs: args.len() as u32 });
    }

    /// The `__global__` function called `name`, reporting why not if there is none.
    fn kernel_by_name(&mut self, name: &str, span: Span) -> Option<usize> {
        match self.sigs.iter().position(|s| s.name == name) {
            Some(i) if self.sigs[i].global => Some(i),
            Some(_) => {
                self.diags.error(
                    span,
                    format!("`{name}` is a `__device__` function; only `__global__` kernels can be launched"),
                );
                None
            }
            None => {
                let kernels = self.sigs.iter().filter(|s| s.global).map(|s| s.name.as_str());
                match super::diag::suggest(name, kernels) {
                    Some(s) => self.diags.error_help(
                        span,
                        format!("undefined kernel `{name}`"),
                        format!("did you mean `{s}`?"),
                    ),
                    None => self.diags.error(span, format!("undefined kernel `{name}`")),
                }
                None
            }
        }
    }

    /// The three extents of a grid or block: `dim3(x, y, z)` or one integer.
    fn launch_dims(&mut self, e: &Expr) -> [VOp; 3] {
        let mut out = [VOp::Imm(1); 3];
        let parts: Vec<&Expr> = match &e.kind {
            ExprKind::Call(name, _, args) if name == "dim3" => {
                if args.is_empty() || args.len() > 3 {
                    self.diags.error(e.span, format!("`dim3` takes 1 to 3 values, got {}", args.len()));
                }
                args.iter().take(3).collect()
            }
            _ => vec![e],
        };
        for (k, p) in parts.into_iter().enumerate() {
            let v = self.expr(p);
            if !v.ty.is_integer() {
                self.diags.error(p.span, format!("a launch dimension must be an integer, found {}", a(v.ty)));
            }
            out[k] = v.op;
        }
        out
    }
}

/// Every name written by an assignment, `++`/`--` or `&` in `body` (by name, whatever it
/// refers to: over-approximating only costs a register).
fn assigned_names(unit: &Unit, body: &[Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    for_each_expr(body, &mut |e| {
        let target = match &e.kind {
            ExprKind::Assign(_, t, _) => t,
            ExprKind::IncDec { target, .. } | ExprKind::Unary(UnOp::AddrOf, target) => target,
            // A variable passed to a reference parameter may be written by the callee.
            ExprKind::Call(name, _, args) => {
                // Every overload of the name: over-approximating costs a register at most.
                for f in unit.functions.iter().filter(|f| f.name == *name) {
                    for (p, a) in f.params.iter().zip(args) {
                        if let (true, ExprKind::Name(n)) = (p.reference, &a.kind) {
                            out.push(n.clone());
                        }
                    }
                }
                return;
            }
            _ => return,
        };
        if let ExprKind::Name(n) = &target.kind {
            out.push(n.clone());
        }
    });
    out.sort();
    out.dedup();
    out
}

/// The file-scope variables (indices into `unit.globals`) that kernel `fi` uses, itself or
/// through the device functions it calls, in definition order: a kernel gets their
/// addresses as hidden parameters after its own.
pub(crate) fn globals_used(unit: &Unit, fi: usize) -> Vec<usize> {
    let mut used = alloc::vec![false; unit.globals.len()];
    let mut seen = alloc::vec![false; unit.functions.len()];
    let mut todo = alloc::vec![fi];
    while let Some(f) = todo.pop() {
        if core::mem::replace(&mut seen[f], true) {
            continue;
        }
        for_each_expr(&unit.functions[f].body, &mut |e| match &e.kind {
            ExprKind::Name(n) => {
                if let Some(g) = unit.globals.iter().position(|g| g.decl.name == *n) {
                    used[g] = true;
                }
            }
            ExprKind::Call(name, _, _) => {
                // Every overload of the name (a variable one does not call costs nothing).
                let callees = unit.functions.iter().enumerate().filter(|(_, g)| !g.global && g.name == *name);
                todo.extend(callees.map(|(k, _)| k));
            }
            _ => {}
        });
    }
    used.iter().enumerate().filter(|(_, u)| **u).map(|(g, _)| g).collect()
}

/// Whether every path through `body` ends in `return` (for the missing-return warning).
fn always_returns(body: &[Stmt]) -> bool {
    match body.last().map(|s| &s.kind) {
        Some(StmtKind::Return(_)) => true,
        Some(StmtKind::Block(b)) => always_returns(b),
        Some(StmtKind::If(_, then, Some(els))) => {
            always_returns(core::slice::from_ref(then)) && always_returns(core::slice::from_ref(els))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::config::presets;
    use crate::kernel::{compile, CompileOptions, Diagnostic, Severity};
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    const HOST: &str = "\nhost { int o[4]; float f[4]; k<<<1, 32>>>(o, f); }";

    fn diagnostics(body: &str) -> Vec<Diagnostic> {
        let src = String::from(body) + HOST;
        let config = presets::fermi_gtx480();
        match compile(&src, &CompileOptions { config: &config, defines: &[], optimize: true }) {
            Ok(p) => p.warnings,
            Err(d) => d,
        }
    }

    /// The single error of `body` (a file whose kernel `k(int* o, float* f)` is launched),
    /// as (line, column, message, help).
    fn error(body: &str) -> (u32, u32, String, Option<String>) {
        let d: Vec<Diagnostic> = diagnostics(body).into_iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(d.len(), 1, "{body}\n{d:#?}");
        (d[0].span.line, d[0].span.column, d[0].message.clone(), d[0].help.clone())
    }

    fn check(body: &str, line: u32, column: u32, message: &str) {
        let (l, c, m, _) = error(body);
        assert_eq!((l, c, m.as_str()), (line, column, message), "{body}");
    }

    #[test]
    fn names_are_resolved_with_suggestions() {
        let (l, c, m, h) = error("__global__ void k(int* o, float* f) {\n    o[0] = threadIdy.x;\n}");
        assert_eq!(
            (l, c, m.as_str(), h.as_deref()),
            (2, 12, "undefined name `threadIdy`", Some("did you mean `threadIdx`?"))
        );
        let (_, _, m, h) = error("__global__ void k(int* o, float* f) { int count = 0; o[0] = cuont; }");
        assert_eq!((m.as_str(), h.as_deref()), ("undefined name `cuont`", Some("did you mean `count`?")));
        let (l, c, m, h) = error("__global__ void k(int* o, float* f) {\n  atomicAd(o, 1);\n}");
        assert_eq!(
            (l, c, m.as_str(), h.as_deref()),
            (2, 3, "undefined function `atomicAd`", Some("did you mean `atomicAdd`?"))
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = threadIdx.w; }",
            1,
            56,
            "`threadIdx` has no member `w`; use `.x`, `.y` or `.z`",
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = blockDim; }",
            1,
            46,
            "`blockDim` has three parts: use `blockDim.x`, `blockDim.y` or `blockDim.z`",
        );
        check(
            "__global__ void k(int* o, float* f) { int a = 1; int a = 2; }",
            1,
            54,
            "`a` is already declared in this block",
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = iota(); }",
            1,
            46,
            "`iota` is only available in the host block",
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = dim3(1, 2).x; }",
            1,
            46,
            "`dim3(…)` can only be the grid or block of a launch",
        );
    }

    #[test]
    fn type_errors_name_both_types() {
        check(
            "__global__ void k(int* o, float* f) {\n  int x = 0;\n  x = f;\n}",
            3,
            7,
            "cannot assign a `float*` to an `int` variable",
        );
        check(
            "__global__ void k(int* o, float* f) { int* p = f; }",
            1,
            48,
            "cannot initialize an `int*` variable with a `float*`",
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = f; }",
            1,
            46,
            "cannot store a `float*` in an `int` element",
        );
        check(
            "__global__ void k(int* o, float* f) { f[0] = 1.5f % 2; }",
            1,
            46,
            "operator `%` needs integer operands, found a `float` and an `int` (in a kernel, `fmodf(x, y)`)",
        );
        check(
            "__global__ void k(int* o, float* f) { f[0] = 1.5 % 2; }",
            1,
            46,
            "operator `%` needs integer operands, found a `double` and an `int` (in a kernel, `fmod(x, y)`)",
        );
        check(
            "__global__ void k(int* o, float* f) { o[1.5f] = 1; }",
            1,
            41,
            "an index must be an integer, found a `float`",
        );
        check("__global__ void k(int* o, float* f) { o[0] = *o[0]; }", 1, 46, "cannot dereference an `int`");
        check(
            "__global__ void k(int* o, float* f) { o[0] = o * 2; }",
            1,
            46,
            "operator `*` cannot be applied to an `int*` and an `int`",
        );
        check(
            "__global__ void k(int* o, float* f) { o[0] = (int*)5 == o; }",
            1,
            46,
            "casting an integer to a pointer is not supported",
        );
        check(
            "__global__ void k(int* o, float* f) { bool b = true; b++; }",
            1,
            54,
            "`++` needs a number or a pointer, found a `bool`",
        );
        check(
            "__global__ void k(int* o, float* f) { int x = 1; o[0] = x ? o : 1.0f; }",
            1,
            57,
            "the branches of `?:` have different types: an `int*` and a `float`",
        );
        check(
            "__global__ void k(int* o, float* f) { float* p = o < f; }",
            1,
            50,
            "cannot compare an `int*` with a `float*`",
        );
    }

    #[test]
    fn const_is_enforced() {
        check(
            "__global__ void k(const int* o, float* f) {\n  o[2] = 1;\n}",
            2,
            3,
            "cannot write through a pointer to `const int`",
        );
        check(
            "__global__ void k(int* o, float* f) { const int n = 4; n = 5; }",
            1,
            56,
            "cannot assign to `n`: it is declared `const`",
        );
        check(
            "__global__ void k(const int* o, float* f) { atomicAdd(&o[0], 1); }",
            1,
            55,
            "`atomicAdd` cannot write through a pointer to `const int`",
        );
        check(
            "__device__ void g(int* p) {}\n__global__ void k(const int* o, float* f) { g(o); }",
            2,
            47,
            "argument 1 of `g` must be an `int*`, found a `const int*` (it would allow writing through a `const` pointer)",
        );
    }

    #[test]
    fn calls_check_their_arguments() {
        let d = "__device__ int g(int a, int* b) { return a; }\n";
        check(
            &(String::from(d) + "__global__ void k(int* o, float* f) { o[0] = g(1); }"),
            2,
            46,
            "`g` takes 2 arguments, got 1",
        );
        check(
            &(String::from(d) + "__global__ void k(int* o, float* f) { o[0] = g(1, f); }"),
            2,
            51,
            "argument 2 of `g` must be an `int*`, found a `float*`",
        );
        check("__global__ void k(int* o, float* f) { o[0] = min(1); }", 1, 46, "`min` takes 2 arguments, got 1");
        check(
            "__global__ void k(int* o, float* f) { atomicMin(f, 1.0); }",
            1,
            39,
            "`atomicMin` does not support `float`",
        );
        check(
            "__global__ void k(int* o, float* f) { int x; atomicAdd(&x, 1); }",
            1,
            56,
            "`atomicAdd` needs an address in global or shared memory, such as `&a[i]`",
        );
        check(
            "__global__ void k(int* o, float* f) { atomicAdd(3, 1); }",
            1,
            49,
            "the first argument of `atomicAdd` must be an address such as `&a[i]`, found an `int`",
        );
        check(
            "__global__ void k(int* o, float* f) { k(o, f); }",
            1,
            39,
            "kernel `k` is launched with `k<<<grid, block>>>(…)`, not called",
        );
        let (l, c, m, h) = error("__device__ int g(int n) { return n > 0 ? g(n - 1) : 0; }\n__global__ void k(int* o, float* f) { o[0] = g(3); }");
        assert_eq!((l, c, m.as_str()), (1, 42, "`g` calls itself, directly or through other functions"));
        assert_eq!(h.as_deref(), Some("recursion is not supported: device functions are inlined"));
    }

    #[test]
    fn control_flow_errors() {
        check("__global__ void k(int* o, float* f) {\n  break;\n}", 2, 3, "`break` outside a loop");
        check("__global__ void k(int* o, float* f) { if (o) continue; }", 1, 46, "`continue` outside a loop");
        check("__global__ void k(int* o, float* f) { return 1; }", 1, 46, "a `__global__` kernel returns nothing");
        check(
            "__device__ int g() { return; }\n__global__ void k(int* o, float* f) { o[0] = g(); }",
            1,
            22,
            "`g` must return an `int`",
        );
        check(
            "__device__ void g() { return 2; }\n__global__ void k(int* o, float* f) { g(); }",
            1,
            30,
            "`g` returns `void`; it cannot return a value",
        );
        check(
            "__device__ void g() {}\n__global__ void k(int* o, float* f) { o[0] = g(); }",
            2,
            46,
            "this expression has no value (it is `void`)",
        );
        check("__global__ int k(int* o, float* f) { }", 1, 12, "a `__global__` kernel must return `void`, not `int`");
        check(
            "__device__ void g() {}\n__device__ void g() {}\n__global__ void k(int* o, float* f) {}",
            2,
            17,
            "`g` is already defined at line 1",
        );
        check(
            "__global__ void k(int* o, float* f) { while (1) { __device__ } }",
            1,
            51,
            "expected an expression, found the keyword `__device__`",
        );
    }

    #[test]
    fn arrays_and_shared_memory_errors() {
        check(
            "__global__ void k(int* o, float* f) { __shared__ float t[16]; f = t; }",
            1,
            67,
            "cannot assign a `__shared__ float*` to a `float*` variable: a pointer variable keeps the memory \
             space of the address it was initialised with",
        );
        check(
            "__global__ void k(int* o, float* f) { __shared__ float t[4][4]; f[0] = t[1]; }",
            1,
            72,
            "a pointer to a row of `t` is not supported",
        );
        check(
            "__global__ void k(int* o, float* f) { __shared__ int t[16]; o[0] = t[16]; }",
            1,
            70,
            "index 16 is out of bounds for `t` (size 16)",
        );
        check(
            "__global__ void k(int* o, float* f) { __shared__ int t[4] = {1}; }",
            1,
            61,
            "`__shared__` variables cannot have an initializer; assign them in the kernel",
        );
        check(
            "__global__ void k(int* o, float* f) { int n = 4; __shared__ int t[n]; }",
            1,
            67,
            "the size of `t` must be a constant integer",
        );
        check(
            "__global__ void k(int* o, float* f) { float a[33]; }",
            1,
            45,
            "local array `a` has 33 elements; at most 32 fit in registers",
        );
        check(
            "__global__ void k(int* o, float* f) { int a[4]; o[0] = a[4]; }",
            1,
            58,
            "index 4 is out of bounds for `a` (size 4)",
        );
        check(
            "__global__ void k(int* o, float* f) { int a[2] = {1, 2, 3}; }",
            1,
            57,
            "too many initializers for `a` (2 elements)",
        );
        check(
            "__global__ void k(int* o, float* f) { int a[2]; o[0] = a; }",
            1,
            56,
            "`a` is an array; use one element, such as `a[0]`",
        );
        check(
            "__global__ void k(int* o, float* f) { int x; int* p = &x; }",
            1,
            55,
            "taking the address of a local variable is not supported",
        );
        check(
            "__global__ void k(int* o, float* f) {\n  __shared__ int a[8000];\n  __shared__ int b[8000];\n}",
            3,
            3,
            "kernel `k` uses 64000 bytes of __shared__ memory with `b`; an SM of this machine has 49152",
        );
    }

    #[test]
    fn device_launch_errors() {
        let child = "__global__ void c(int* a, int n) {}\n";
        check(
            &(String::from(child) + "__global__ void k(int* o, float* f) { c<<<1, 32>>>(o); }"),
            2,
            39,
            "kernel `c` takes 2 arguments, got 1",
        );
        check(
            &(String::from(child) + "__global__ void k(int* o, float* f) { c<<<1, 4096>>>(o, 1); }"),
            2,
            46,
            "a block of 4096 threads does not fit: an SM holds 1 to 1536",
        );
        check(
            &(String::from(child) + "__global__ void k(int* o, float* f) { c<<<1.5f, 32>>>(o, 1); }"),
            2,
            43,
            "a launch dimension must be an integer, found a `float`",
        );
        let (_, c, m, h) =
            error(&(String::from(child) + "__global__ void k(int* o, float* f) { cc<<<1, 32>>>(o, 1); }"));
        assert_eq!((c, m.as_str(), h.as_deref()), (39, "undefined kernel `cc`", Some("did you mean `c`?")));
        check(
            "__device__ void g() {}\n__global__ void k(int* o, float* f) { g<<<1, 1>>>(); }",
            2,
            39,
            "`g` is a `__device__` function; only `__global__` kernels can be launched",
        );
    }

    #[test]
    fn register_pressure_beyond_the_machine_spills_with_a_warning_naming_the_kernel() {
        // 8 × 32 array elements, all alive until the end.
        let mut body = String::from("__global__ void k(int* o, float* f) {\n");
        for a in 0..8 {
            body += &alloc::format!("  int a{a}[32]; for (int i = 0; i < 32; i++) a{a}[i] = o[i + {a}];\n");
        }
        body += "  int s = 0;\n";
        for a in 0..8 {
            for i in 0..32 {
                body += &alloc::format!("  s += a{a}[{i}];\n");
            }
        }
        body += "  o[0] = s;\n}";
        let d = diagnostics(&body);
        assert!(d.iter().all(|d| d.severity == Severity::Warning), "{d:?}");
        let spilled = d.iter().find(|d| d.message.contains("local memory")).expect("a warning");
        assert_eq!((spilled.span.line, spilled.span.column), (1, 17));
        let m = &spilled.message;
        assert!(m.starts_with("kernel `k` needs ") && m.contains("more than the 255 that fit: "), "{m}");
    }

    #[test]
    fn warnings_do_not_stop_compilation() {
        let d = diagnostics("__device__ int g(int x) { if (x) return 1; }\n__global__ void k(int* o, float* f) { o[0] = g(1); o[0] + 1; }");
        let w: Vec<(u32, u32, String)> =
            d.iter().map(|d| (d.span.line, d.span.column, d.message.to_string())).collect();
        assert!(d.iter().all(|d| d.severity == Severity::Warning));
        assert_eq!(
            w,
            [
                (1, 44, "`g` can reach its end without returning a value".to_string()),
                (2, 52, "this expression computes a value that is never used".to_string())
            ]
        );
    }

    #[test]
    fn many_errors_are_reported_at_once() {
        let d = diagnostics("__global__ void k(int* o, float* f) {\n  o[0] = a;\n  o[1] = b;\n  f = o;\n  break;\n}");
        let lines: Vec<u32> = d.iter().map(|d| d.span.line).collect();
        assert_eq!(lines, [2, 3, 4, 5]);
    }
}
