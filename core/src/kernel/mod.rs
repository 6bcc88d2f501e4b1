//! The kernel language: a CUDA-flavoured source file (kernels, device functions and a
//! `host { … }` block) compiled into a [`Workload`]. The language is described in
//! `docs/language.md`.
//!
//! The pipeline, one file per step:
//! - `lexer.rs`: text to tokens, with spans (line, column, byte offset).
//! - `preprocess.rs`: `#define` (object-like and function-like), `#include` of standard
//!   headers (`headers.rs`: which, and the macros each defines), with overrides from [`CompileOptions::defines`]; `conditional.rs`: `#if` and
//!   its kin.
//! - `host_code.rs`: a pasted `.cu` file's host code (`main`, helpers, host globals) is set
//!   aside, named in a warning.
//! - `parser.rs`: recursive descent into the syntax tree of `ast.rs`, recovering at `;` and
//!   `}` so several errors are reported at once; nesting is bounded.
//! - `types.rs`: value types, C's conversions and constant folding.
//! - `codegen.rs` + `expr.rs`: type checking and code generation into virtual registers
//!   (`vcode.rs`), inlining `__device__` functions.
//! - `opt/`: passes over the virtual-register code: `fma` contraction (always, it is part of
//!   the language), then with [`CompileOptions::optimize`] folding, value numbering, loop
//!   unrolling, invariant code motion, strength reduction and dead code removal.
//! - `cfg.rs`: dead code, reconvergence points (immediate post-dominators).
//! - `regalloc.rs`: liveness-based register allocation; the count sets occupancy.
//! - `host.rs`: runs the host block into buffers and the launch sequence.
//!
//! Nothing here panics on any input: errors come back as [`Diagnostic`]s that name the line
//! and column.

mod ast;
mod bitset;
pub mod builtins;
mod cfg;
mod class_scope;
mod codegen;
mod conditional;
mod deduce;
mod diag;
mod enums;
mod expr;
mod groups;
mod headers;
mod host;
mod host_code;
mod lexer;
mod liveness;
mod member_names;
mod methods;
mod opt;
mod overloads;
mod parser;
mod preprocess;
mod qualified;
mod regalloc;
mod spill;
mod structs;
mod templates;
mod types;
mod vcode;
mod warp_intrinsics;
mod wide;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::config::GpuConfig;
use crate::workload::Workload;
pub use diag::{Diagnostic, Severity, Span};

/// What to compile for.
#[derive(Clone, Copy, Debug)]
pub struct CompileOptions<'a> {
    /// The machine: launch shapes and shared memory are checked against it.
    pub config: &'a GpuConfig,
    /// Values that replace those of `#define`s of the same name (like `-D`), as source text.
    pub defines: &'a [(String, String)],
    /// Run the optimisation passes (`opt/`), like nvcc's default `-O3`; `false` is `-O0`:
    /// the code as generated. Results are bit-identical either way (`docs/language.md`).
    pub optimize: bool,
}

/// One `#define` of the source, for the app's knob panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Define {
    /// The macro's name.
    pub name: String,
    /// The value in effect: the override if one was given, else the source text.
    pub value: String,
    /// Where the value is in the source (an empty span just after the name if it has none).
    pub span: Span,
}

/// Where a host launch comes from in the source (a launch in a loop: the same place each time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchSite {
    /// The launch statement, `kernel<<<…>>>(…);`.
    pub at: Span,
    /// The grid expression between `<<<` and the first comma.
    pub grid: Span,
    /// The block expression.
    pub block: Span,
}

/// A compiled source file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// Kernels (every `__global__` function, in definition order), buffers and launches.
    pub workload: Workload,
    /// Where each of `workload.launches` is in the source, in the same order.
    #[serde(default)]
    pub launch_sites: Vec<LaunchSite>,
    /// Every `#define`, in source order.
    pub defines: Vec<Define>,
    /// Things that compiled but look wrong.
    pub warnings: Vec<Diagnostic>,
}

/// Most readings of a file for the instances that calls deducing template arguments ask for:
/// each reading makes the instances the one before asked for, whose code may ask for more.
const MAX_READINGS: usize = 16;

/// Compiles `source`. On failure, every diagnostic found (errors and warnings, in source
/// order, at most about 50 errors).
pub fn compile(source: &str, options: &CompileOptions<'_>) -> Result<Program, Vec<Diagnostic>> {
    let mut diags = diag::Diags::default();
    let (tokens, lexical) = lex(source);
    let (tokens, defines, lexical) = preprocess::preprocess(source, tokens, lexical, options.defines, &mut diags);
    let (tokens, host_code, host_ranges) = host_code::set_aside(tokens, &mut diags);
    for d in lexical {
        if !host_ranges.iter().any(|&(from, to)| (from..to).contains(&d.span.offset)) {
            diags.add(d);
        }
    }
    // Calls that leave a template's arguments to be deduced ask for instances the reading
    // did not make: the file is read again with them made, until no call asks for more.
    let base = diags;
    let mut requests: Vec<templates::Request> = Vec::new();
    let mut reading = 1;
    let (unit, sigs, kernels, mut diags) = loop {
        let mut diags = base.clone();
        let (tokens, templates) = preprocess::rewrite(tokens.clone(), &requests, &mut diags);
        let mut unit = parser::parse(&tokens, &mut diags);
        unit.templates = templates;
        unit.host_code.splice(0..0, host_code.iter().cloned());
        member_names::resolve(&mut unit);
        if diags.has_errors() {
            return Err(diags.finish());
        }
        let sigs = codegen::signatures(&unit, &mut diags);
        let kernels = codegen::compile_kernels(&unit, &sigs, options.config, options.optimize, &mut diags);
        let mut new: Vec<templates::Request> = Vec::new();
        for r in unit.templates.asked.take() {
            if !requests.contains(&r) && !new.contains(&r) {
                new.push(r);
            }
        }
        if new.is_empty() {
            break (unit, sigs, kernels, diags);
        }
        if reading == MAX_READINGS {
            // What else this reading found follows from the instances it lacks.
            let mut diags = base;
            diags.error(
                new[0].at,
                format!(
                    "template instances made for deduced arguments ask for more, {MAX_READINGS} times over: \
                     does a template call itself with ever new arguments?"
                ),
            );
            return Err(diags.finish());
        }
        requests.extend(new);
        reading += 1;
    };
    let output = match &unit.host {
        Some(host) => host::run(host, &unit, &sigs, &kernels, options.config, &mut diags),
        None => {
            let help = if unit.host_code.is_empty() {
                "add one after the kernels: it declares the buffers and launches the kernels"
            } else {
                "the file's own host code is set aside: add a `host { … }` block after the kernels that \
                 declares the buffers and launches the kernels"
            };
            diags.error_help(unit.end, "the file has no `host { … }` block", help);
            host::HostOutput { buffers: Vec::new(), launches: Vec::new(), copies: Vec::new(), sites: Vec::new() }
        }
    };
    if diags.has_errors() {
        return Err(diags.finish());
    }
    let workload = Workload {
        kernels: kernels.into_iter().flatten().collect(),
        buffers: output.buffers,
        launches: output.launches,
        parts: Vec::new(),
        copies: output.copies,
    };
    if let Err(e) = workload.validate(options.config) {
        // The checks above should have caught it; say what the engine objects to.
        diags.error(unit.end, format!("the compiled workload is not valid for this machine: {e}"));
        return Err(diags.finish());
    }
    Ok(Program { workload, launch_sites: output.sites, defines, warnings: diags.finish() })
}

/// Every `#define` of `source` with its value in effect, in source order — what
/// [`Program::defines`] holds — even when the file does not compile (only the lexer and the
/// preprocessor run; their diagnostics are those `compile` reports too).
pub fn defines(source: &str, overrides: &[(String, String)]) -> Vec<Define> {
    let mut diags = diag::Diags::default();
    let (tokens, lexical) = lex(source);
    preprocess::preprocess(source, tokens, lexical, overrides, &mut diags).1
}

/// The tokens of `source` and the lexer's errors, which the preprocessor reports unless they
/// are in text it skips.
fn lex(source: &str) -> (Vec<lexer::Token>, Vec<Diagnostic>) {
    let mut lexical = diag::Diags::default();
    let tokens = lexer::lex(source, &mut lexical);
    (tokens, lexical.finish())
}
