//! `#define NAME value` and `#define NAME(a, b) body`: object-like and function-like macros,
//! expanded on the token stream as C expands them — a function-like macro's arguments are
//! expanded before they are put in its body (except beside `##`, which pastes two tokens into
//! one), and the result is scanned again, a macro never expanding inside its own expansion.
//! Overrides from the compile options replace an object-like definition's value (as `-D`
//! would), which is how the app's knob panel and the CLI change sizes without editing the file.

use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::conditional::{self, Conditionals};
use super::diag::{Diagnostic, Diags, Span};
use super::lexer::{lex, Tok, Token};
use super::Define;

/// Most tokens a file may grow to through expansion (macros can double at each level).
const MAX_EXPANDED_TOKENS: usize = 1 << 20;
/// Most macros being expanded inside one another.
const MAX_EXPANSION_DEPTH: usize = 200;

struct Macro {
    /// A function-like macro's parameters; `None` for an object-like one.
    params: Option<Vec<String>>,
    body: Vec<Token>,
}

/// A token on its way through expansion, with the macros it may not expand (those whose
/// expansion produced it: C's rule that a macro does not expand inside itself).
#[derive(Clone)]
struct Pending {
    token: Token,
    hidden: Rc<Vec<String>>,
}

struct Expander<'a> {
    macros: BTreeMap<String, Rc<Macro>>,
    out: Vec<Token>,
    diags: &'a mut Diags,
    /// Set once the token budget is spent; expansion stops.
    exhausted: bool,
    /// `#pragma unroll` was noted (once per file: kernels write it before many loops).
    unroll_noted: bool,
}

/// Unused overrides named one warning each; more are summed up in one.
const UNUSED_OVERRIDES_NAMED: usize = 3;

/// Macros the compiler defines itself, as nvcc does (`__CUDA_ARCH__` is left undefined: the
/// language has no per-architecture features to choose between).
const PREDEFINED: &[&str] = &["__CUDACC__", "__NVCC__"];

/// Runs the directives and expands macros. `lexical` holds the lexer's errors, reported
/// unless they are in text that conditional compilation skips (an `#if 0` branch may hold
/// anything). Returns the tokens the parser sees (ending in `Eof`) and every `#define`, with
/// the value in effect.
pub(crate) fn preprocess(
    src: &str,
    tokens: Vec<Token>,
    lexical: Vec<Diagnostic>,
    overrides: &[(String, String)],
    diags: &mut Diags,
) -> (Vec<Token>, Vec<Define>, Vec<Diagnostic>) {
    let mut defines = Vec::new();
    let mut used_overrides = alloc::vec![false; overrides.len()];
    let mut ex = Expander {
        macros: BTreeMap::new(),
        out: Vec::with_capacity(tokens.len()),
        diags,
        exhausted: false,
        unroll_noted: false,
    };
    for name in PREDEFINED {
        let one = Token {
            tok: Tok::Int { value: 1, unsigned: false },
            span: Span::default(),
            logical_line: 0,
            line_start: false,
        };
        ex.macros.insert((*name).to_string(), Rc::new(Macro { params: None, body: alloc::vec![one] }));
    }
    predefine_overrides(&tokens, overrides, &mut used_overrides, &mut ex);
    let mut conditionals = Conditionals::default();
    // Byte ranges that conditional compilation skips, and where the one being skipped began.
    let mut skipped: Vec<(u32, u32)> = Vec::new();
    let mut skipping_from: Option<u32> = None;
    // The tokens between two directives are expanded together, so that a function-like
    // macro's arguments may run over several lines.
    let mut segment: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.is_punct("#") && t.line_start {
            // The directive runs to the end of its logical line.
            let line = t.logical_line;
            let mut end = i + 1;
            while end < tokens.len() && tokens[end].logical_line == line && tokens[end].tok != Tok::Eof {
                end += 1;
            }
            let was_active = conditionals.active();
            if was_active {
                ex.expand_segment(core::mem::take(&mut segment));
            }
            if is_conditional(&tokens[i..end]) {
                ex.conditional(&tokens[i..end], &mut conditionals);
                let last = &tokens[end - 1].span;
                match (was_active, conditionals.active()) {
                    (true, false) => skipping_from = Some(last.offset + last.len),
                    (false, true) => skipped.push((skipping_from.take().unwrap_or(0), t.span.offset)),
                    _ => {}
                }
            } else if was_active {
                directive(src, &tokens[i..end], overrides, &mut used_overrides, &mut defines, &mut ex);
            }
            i = end;
            continue;
        }
        if !conditionals.active() && t.tok != Tok::Eof {
            i += 1;
            continue;
        }
        if t.is_punct("#") {
            ex.diags.error(t.span, "`#` must start a line (a directive such as `#define`)");
            i += 1;
            continue;
        }
        segment.push(t.clone());
        i += 1;
    }
    ex.expand_segment(segment);
    if let Some(from) = skipping_from {
        skipped.push((from, u32::MAX));
    }
    conditionals.finish(ex.diags);
    let unused: Vec<&str> =
        overrides.iter().zip(&used_overrides).filter(|(_, used)| !**used).map(|((name, _), _)| name.as_str()).collect();
    let top = Span { line: 1, column: 1, offset: 0, len: 0 };
    if unused.len() <= UNUSED_OVERRIDES_NAMED {
        for name in unused {
            ex.diags.warning(top, format!("the override of `{name}` has no effect: the file never names `{name}`"));
        }
    } else {
        let named: Vec<String> = unused[..UNUSED_OVERRIDES_NAMED].iter().map(|n| format!("`{n}`")).collect();
        ex.diags.warning(
            top,
            format!(
                "the overrides of {} and {} more have no effect: the file never names them",
                named.join(", "),
                unused.len() - UNUSED_OVERRIDES_NAMED
            ),
        );
    }
    // The lexer's errors but for those in text skipped by `#if`: the caller reports them
    // (host code set aside may hold more it does not report).
    let lexical: Vec<Diagnostic> = lexical
        .into_iter()
        .filter(|d| !skipped.iter().any(|&(from, to)| (from..to).contains(&d.span.offset)))
        .collect();
    let mut out = ex.out;
    if out.last().is_none_or(|t| t.tok != Tok::Eof) {
        out.extend(tokens.last().filter(|t| t.tok == Tok::Eof).cloned());
    }
    (out, defines, lexical)
}

/// The token passes after macro expansion (and after host code is set aside): qualified
/// names, templates, enums, typedefs; the tokens end with `Eof`.
pub(crate) fn rewrite(
    tokens: Vec<Token>,
    requests: &[super::templates::Request],
    diags: &mut Diags,
) -> (Vec<Token>, super::templates::TemplateInfo) {
    let eof = tokens.last().cloned();
    let resolved = super::qualified::resolve(tokens, diags);
    let (instantiated, info) = super::templates::instantiate(resolved, requests, diags);
    let scoped = super::class_scope::resolve(instantiated);
    let enumerated = super::enums::resolve(scoped, diags);
    let mut out = typedefs(enumerated, diags);
    if out.last().is_none_or(|t| t.tok != Tok::Eof) {
        let eof = eof.unwrap_or(Token { tok: Tok::Eof, span: Span::default(), logical_line: 1, line_start: true });
        out.push(Token { tok: Tok::Eof, ..eof });
    }
    (out, info)
}

/// An override of a name the file never `#define`s defines it from the start, as a compiler's
/// `-D` does: Rodinia chooses work-group sizes with `#ifdef RD_WG_SIZE_0_0`. It counts as used
/// if the file names it at all (else it is reported as having no effect, a likely typo).
fn predefine_overrides(tokens: &[Token], overrides: &[(String, String)], used: &mut [bool], ex: &mut Expander<'_>) {
    if overrides.is_empty() {
        return;
    }
    let defined: alloc::collections::BTreeSet<&str> = tokens
        .windows(3)
        .filter(|w| w[0].is_punct("#") && w[0].line_start && w[1].is_ident("define"))
        .filter_map(|w| match &w[2].tok {
            Tok::Ident(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let named = |name: &str| tokens.iter().any(|t| t.is_ident(name));
    for (k, (name, value)) in overrides.iter().enumerate() {
        if defined.contains(name.as_str()) || !named(name) {
            continue;
        }
        used[k] = true;
        // The last override of a name wins, as a later -D does on a compiler's command line.
        if overrides[k + 1..].iter().any(|(n, _)| n == name) {
            continue;
        }
        let body = override_tokens(name, value, Span::default(), ex.diags);
        ex.macros.insert(name.clone(), Rc::new(Macro { params: None, body }));
    }
}

/// The tokens of the value `value` given for `name`, placed at `span` (where its errors are
/// reported).
fn override_tokens(name: &str, value: &str, span: Span, diags: &mut Diags) -> Vec<Token> {
    let mut sub = Diags::default();
    let tokens = lex(value, &mut sub).into_iter().filter(|t| t.tok != Tok::Eof).map(|t| Token { span, ..t }).collect();
    for d in sub.finish() {
        diags.error(span, format!("in the value `{value}` given for `{name}`: {}", d.message));
    }
    tokens
}

fn directive(
    src: &str,
    line: &[Token],
    overrides: &[(String, String)],
    used_overrides: &mut [bool],
    defines: &mut Vec<Define>,
    ex: &mut Expander<'_>,
) {
    let hash = &line[0];
    let Some(name_tok) = line.get(1) else {
        ex.diags.error(hash.span, "expected a directive such as `define` after `#`");
        return;
    };
    let Tok::Ident(directive) = &name_tok.tok else {
        ex.diags.error(
            name_tok.span,
            format!("expected a directive such as `define` after `#`, found {}", name_tok.describe()),
        );
        return;
    };
    match directive.as_str() {
        "define" => {}
        "undef" => {
            match line.get(2).map(|t| &t.tok) {
                Some(Tok::Ident(name)) => {
                    ex.macros.remove(name);
                }
                _ => ex.diags.error(name_tok.span.after(), "expected a macro name after `#undef`"),
            }
            return;
        }
        "pragma" if line.get(2).is_some_and(|t| t.is_ident("unroll")) => {
            if !ex.unroll_noted {
                ex.unroll_noted = true;
                let message = "`#pragma unroll` is ignored: the optimiser unrolls loops as it decides";
                ex.diags.warning(hash.span.to(line[2].span), message);
            }
            return;
        }
        "pragma" => {
            ex.diags.warning(hash.span.to(name_tok.span), "`#pragma` is ignored");
            return;
        }
        "include" => {
            if let Some(header) = include(src, hash, name_tok, ex.diags) {
                // What the header defines, unless the file already has it.
                for (name, value) in super::headers::macros(header) {
                    if !ex.macros.contains_key(*name) {
                        let mut sub = Diags::default();
                        let body = lex(value, &mut sub)
                            .into_iter()
                            .filter(|t| t.tok != Tok::Eof)
                            .map(|t| Token { span: name_tok.span, ..t })
                            .collect();
                        ex.macros.insert((*name).to_string(), Rc::new(Macro { params: None, body }));
                    }
                }
            }
            return;
        }
        "error" | "warning" => {
            let at = hash.span.to(line[line.len() - 1].span);
            let text = src.get(at.offset as usize..(at.offset + at.len) as usize).unwrap_or("");
            if directive == "error" {
                ex.diags.error(at, format!("the file says {text}"));
            } else {
                ex.diags.warning(at, format!("the file says {text}"));
            }
            return;
        }
        other => {
            ex.diags.error(
                hash.span.to(name_tok.span),
                format!(
                    "`#{other}` is not supported; the directives are `#define`, `#undef`, `#include`, \
                     `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, `#error` and `#pragma`"
                ),
            );
            return;
        }
    }
    let Some(macro_tok) = line.get(2) else {
        ex.diags.error(name_tok.span.after(), "expected a macro name after `#define`");
        return;
    };
    let Tok::Ident(name) = &macro_tok.tok else {
        ex.diags
            .error(macro_tok.span, format!("expected a macro name after `#define`, found {}", macro_tok.describe()));
        return;
    };
    let mut body: Vec<Token> = line[3..].to_vec();
    if let Some(open) = body.first() {
        // A `(` right after the name, with no space, opens a function-like macro's parameters.
        if open.is_punct("(") && open.span.offset == macro_tok.span.offset + macro_tok.span.len {
            if let Some((params, body)) = parameters(name, &line[3..], ex.diags) {
                if overrides.iter().any(|(n, _)| n == name) {
                    for (used, (n, _)) in used_overrides.iter_mut().zip(overrides) {
                        *used |= n == name;
                    }
                    ex.diags.warning(
                        macro_tok.span,
                        format!("the override of `{name}` has no effect: `{name}` is a function-like macro"),
                    );
                }
                if ex.macros.contains_key(name) {
                    ex.diags
                        .warning(macro_tok.span, format!("`{name}` is redefined; the new value applies from here on"));
                }
                ex.macros.insert(name.clone(), Rc::new(Macro { params: Some(params), body }));
            }
            return;
        }
    }
    let value_span = match (body.first(), body.last()) {
        (Some(first), Some(last)) => first.span.to(last.span),
        _ => macro_tok.span.after(),
    };
    let mut value =
        src.get(value_span.offset as usize..(value_span.offset + value_span.len) as usize).unwrap_or("").to_string();
    // The last override of a name wins, as a later -D does on a compiler's command line.
    if let Some(k) = overrides.iter().rposition(|(n, _)| n == name) {
        for (used, (n, _)) in used_overrides.iter_mut().zip(overrides) {
            *used |= n == name;
        }
        value = overrides[k].1.clone();
        // The override's tokens report errors at the definition's value.
        body = override_tokens(name, &value, value_span, ex.diags);
    }
    if ex.macros.contains_key(name) {
        ex.diags.warning(macro_tok.span, format!("`{name}` is redefined; the new value applies from here on"));
    }
    defines.push(Define { name: name.clone(), value, span: value_span });
    ex.macros.insert(name.clone(), Rc::new(Macro { params: None, body }));
}

/// `typedef TYPE NAME;`: from there on, `NAME` stands for the tokens of `TYPE` (a type's
/// name: `typedef unsigned int uint;`, `typedef float real;`). The statement leaves the
/// token stream; a form that names anything but a type (a function pointer, an array) is an
/// error at its `typedef`.
fn typedefs(tokens: Vec<Token>, diags: &mut Diags) -> Vec<Token> {
    if !tokens.iter().any(|t| t.is_ident("typedef")) {
        return tokens;
    }
    let mut names: BTreeMap<String, Vec<Tok>> = BTreeMap::new();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.is_ident("typedef") && tokens.get(i + 1).is_some_and(|n| n.is_ident("struct")) {
            if let Some(next) = typedef_struct(&tokens, i, &mut names, &mut out) {
                i = next;
                continue;
            }
        }
        if t.is_ident("typedef") {
            let end =
                tokens[i..].iter().position(|t| t.is_punct(";") || t.tok == Tok::Eof).map_or(tokens.len(), |k| i + k);
            let body = &tokens[i + 1..end];
            match body.split_last() {
                Some((Token { tok: Tok::Ident(name), .. }, ty))
                    if !ty.is_empty()
                        && end < tokens.len()
                        && tokens[end].is_punct(";")
                        && ty.iter().all(|t| matches!(&t.tok, Tok::Ident(_)) || t.is_punct("*")) =>
                {
                    // A type named through an earlier typedef is spelled out now.
                    let spelled: Vec<Tok> = ty
                        .iter()
                        .flat_map(|t| match &t.tok {
                            Tok::Ident(n) => names.get(n).cloned().unwrap_or_else(|| alloc::vec![t.tok.clone()]),
                            other => alloc::vec![other.clone()],
                        })
                        .collect();
                    names.insert(name.clone(), spelled);
                }
                _ => diags.error(
                    t.span,
                    "this `typedef` is not supported: only a name for a type, as `typedef unsigned int uint;`",
                ),
            }
            i = end + 1;
            continue;
        }
        match &t.tok {
            Tok::Ident(name) if names.contains_key(name) => {
                for tok in &names[name] {
                    out.push(Token { tok: tok.clone(), ..t.clone() });
                }
            }
            _ => out.push(t.clone()),
        }
        i += 1;
    }
    out
}

/// `typedef struct [Tag] { members } Name;` at `tokens[at]`: written out as `struct Name {
/// members };` onto `out`, `Tag` becoming another name for `Name`. Returns where the
/// statement ends, or `None` if it is not of that form (then the plain `typedef` rule runs:
/// `typedef struct Tag Name;` names a struct defined elsewhere).
fn typedef_struct(
    tokens: &[Token],
    at: usize,
    names: &mut BTreeMap<String, Vec<Tok>>,
    out: &mut Vec<Token>,
) -> Option<usize> {
    let mut open = at + 2;
    let tag = match tokens.get(open).map(|t| &t.tok) {
        Some(Tok::Ident(tag)) => {
            open += 1;
            Some(tag.clone())
        }
        _ => None,
    };
    if !tokens.get(open)?.is_punct("{") {
        return None;
    }
    let close = super::lexer::matching_close(tokens, open)?;
    let (Some(Token { tok: Tok::Ident(name), .. }), Some(semi)) = (tokens.get(close + 1), tokens.get(close + 2)) else {
        return None;
    };
    if close == open || !semi.is_punct(";") {
        return None;
    }
    out.push(Token { tok: Tok::Ident("struct".into()), ..tokens[at].clone() });
    out.push(tokens[close + 1].clone());
    // Members may use earlier typedefs.
    for t in &tokens[open..=close] {
        match &t.tok {
            Tok::Ident(n) if names.contains_key(n) => {
                out.extend(names[n].iter().map(|tok| Token { tok: tok.clone(), ..t.clone() }));
            }
            _ => out.push(t.clone()),
        }
    }
    out.push(semi.clone());
    if let Some(tag) = tag.filter(|tag| tag != name) {
        names.insert(tag, alloc::vec![Tok::Ident(name.clone())]);
    }
    Some(close + 3)
}

/// `#include <name>` or `#include "name"`: a standard header is ignored with a note (its name
/// is returned, for the macros it defines); another file cannot be read, which is an error
/// saying what to do.
fn include<'s>(src: &'s str, hash: &Token, word: &Token, diags: &mut Diags) -> Option<&'s str> {
    let from = (word.span.offset + word.span.len) as usize;
    let rest = src.get(from..).unwrap_or("");
    let rest_of_line = rest.split('\n').next().unwrap_or("").trim();
    // The header name ends at its closing `>` or `"`; a comment may follow it on the line.
    let close = match rest_of_line.chars().next() {
        Some('<') => rest_of_line.find('>'),
        Some('"') => rest_of_line[1..].find('"').map(|k| k + 1),
        _ => None,
    };
    let after = close.map_or("", |k| rest_of_line[k + 1..].trim_start());
    let text = match close {
        Some(k) if after.is_empty() || after.starts_with("//") || after.starts_with("/*") => &rest_of_line[..=k],
        _ => rest_of_line,
    };
    let line = Span { len: word.span.offset + word.span.len - hash.span.offset + text.len() as u32 + 1, ..hash.span };
    let name = match (text.chars().next(), text.chars().last()) {
        (Some('<'), Some('>')) | (Some('"'), Some('"')) if text.len() >= 3 => &text[1..text.len() - 1],
        _ => {
            diags.error(line, "expected a header name after `#include`, as `<cuda_runtime.h>` or `\"file.h\"`");
            return None;
        }
    };
    if super::headers::STANDARD.contains(&name) {
        diags.warning(line, format!("`#include {text}` is ignored: what kernels use from it is built in"));
        return Some(name);
    } else if text.starts_with('<') {
        // A system or library header: kernels can use nothing of a host library, and what
        // they take from CUDA's headers is built in. A name it would have declared is an
        // undefined name where it is used.
        diags.warning(line, format!("`#include {text}` is ignored: system headers are not read"));
    } else {
        diags.error(
            line,
            format!("`#include {text}`: other files cannot be included; paste what the kernels need from it here"),
        );
    }
    None
}

/// The name a variadic macro's body gives the arguments after its named ones.
const VA_ARGS: &str = "__VA_ARGS__";

/// A function-like macro's parameter list, `(a, b)` at the start of `rest`, and the body after
/// it; `None` (said in `diags`) if the list is malformed.
fn parameters(name: &str, rest: &[Token], diags: &mut Diags) -> Option<(Vec<String>, Vec<Token>)> {
    let mut params: Vec<String> = Vec::new();
    let mut i = 1;
    if rest.get(i).is_some_and(|t| t.is_punct(")")) {
        return Some((params, rest[i + 1..].to_vec()));
    }
    loop {
        let Some(t) = rest.get(i) else {
            diags.error(rest[i - 1].span.after(), format!("the parameters of macro `{name}` have no closing `)`"));
            return None;
        };
        match &t.tok {
            Tok::Ident(p) if params.contains(p) => {
                diags.error(t.span, format!("macro `{name}` names its parameter `{p}` twice"));
                return None;
            }
            Tok::Ident(p) => params.push(p.clone()),
            Tok::Punct("...") => {
                // The rest of the arguments, commas and all, as `__VA_ARGS__`.
                params.push(VA_ARGS.to_string());
                return match rest.get(i + 1) {
                    Some(t) if t.is_punct(")") => Some((params, rest[i + 2..].to_vec())),
                    _ => {
                        diags.error(t.span, format!("`...` must be the last parameter of macro `{name}`"));
                        None
                    }
                };
            }
            _ => {
                diags.error(t.span, format!("expected a parameter name of macro `{name}`, found {}", t.describe()));
                return None;
            }
        }
        match rest.get(i + 1) {
            Some(t) if t.is_punct(",") => i += 2,
            Some(t) if t.is_punct(")") => return Some((params, rest[i + 2..].to_vec())),
            Some(t) => {
                diags.error(
                    t.span,
                    format!("expected `,` or `)` in the parameters of macro `{name}`, found {}", t.describe()),
                );
                return None;
            }
            None => {
                diags.error(t.span.after(), format!("the parameters of macro `{name}` have no closing `)`"));
                return None;
            }
        }
    }
}

/// How a token is written, for `##` to paste two into one.
fn spelling(tok: &Tok) -> String {
    match tok {
        Tok::Ident(name) => name.clone(),
        Tok::Int { value, .. } => value.to_string(),
        Tok::Long { value, unsigned } => format!("{value}{}ll", if *unsigned { "u" } else { "" }),
        Tok::Float(value) => format!("{value:?}f"),
        Tok::Double(value) => format!("{value:?}"),
        Tok::Punct(p) => (*p).to_string(),
        Tok::Str(text) => format!("\"{text}\""),
        Tok::Eof => String::new(),
    }
}

/// Whether a directive line is one of conditional compilation's, which runs even in skipped text.
fn is_conditional(line: &[Token]) -> bool {
    line.get(1).is_some_and(|t| {
        matches!(&t.tok, Tok::Ident(d) if matches!(d.as_str(), "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif"))
    })
}

impl Expander<'_> {
    /// Runs a conditional directive (`is_conditional`) on the open groups.
    fn conditional(&mut self, line: &[Token], groups: &mut Conditionals) {
        let Tok::Ident(word) = &line[1].tok else { return };
        let at = line[0].span.to(line[1].span);
        let rest = &line[2..];
        match word.as_str() {
            "ifdef" | "ifndef" => {
                let value = groups.deciding(false) && {
                    match rest.first().map(|t| &t.tok) {
                        Some(Tok::Ident(name)) => {
                            self.extra_tokens(word, &rest[1..]);
                            self.macros.contains_key(name) == (word == "ifdef")
                        }
                        _ => {
                            self.diags.error(line[1].span.after(), format!("expected a macro name after `#{word}`"));
                            false
                        }
                    }
                };
                groups.open(at, value);
            }
            "if" => {
                let value = groups.deciding(false) && self.condition(at, rest);
                groups.open(at, value);
            }
            "elif" => {
                let value = groups.deciding(true) && self.condition(at, rest);
                groups.elif(at, value, self.diags);
            }
            "else" => {
                if groups.active() || groups.deciding(true) {
                    self.extra_tokens(word, rest);
                }
                groups.or_else(at, self.diags);
            }
            _ => {
                if groups.active() {
                    self.extra_tokens(word, rest);
                }
                groups.close(at, self.diags);
            }
        }
    }

    /// Tokens after `#else`, `#endif` or `#ifdef NAME` are ignored, as compilers do, with a
    /// warning (they are usually a label meant as a comment).
    fn extra_tokens(&mut self, word: &str, rest: &[Token]) {
        if let (Some(first), Some(last)) = (rest.first(), rest.last()) {
            self.diags.warning(
                first.span.to(last.span),
                format!("text after `#{word}` is ignored; make it a comment (`// …`)"),
            );
        }
    }

    /// The value of an `#if`/`#elif` condition: `defined NAME` and `defined(NAME)` become 1
    /// or 0, then the line's macros expand, then [`conditional::evaluate`] computes it. An
    /// invalid condition is said and counts as false.
    fn condition(&mut self, at: Span, tokens: &[Token]) -> bool {
        if tokens.is_empty() {
            self.diags.error(at, "expected a condition after the directive");
            return false;
        }
        let none = Rc::new(Vec::new());
        let mut input: VecDeque<Pending> = VecDeque::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if !t.is_ident("defined") {
                input.push_back(Pending { token: t.clone(), hidden: none.clone() });
                i += 1;
                continue;
            }
            let parenthesised = tokens.get(i + 1).is_some_and(|n| n.is_punct("("));
            let name_at = i + 1 + usize::from(parenthesised);
            let name = match tokens.get(name_at).map(|n| &n.tok) {
                Some(Tok::Ident(name)) => name,
                _ => {
                    self.diags.error(t.span, "expected a macro name after `defined`");
                    return false;
                }
            };
            if parenthesised && !tokens.get(name_at + 1).is_some_and(|n| n.is_punct(")")) {
                self.diags.error(t.span, "`defined(` has no closing `)` after the macro name");
                return false;
            }
            let value = u32::from(self.macros.contains_key(name));
            let span = t.span.to(tokens[name_at + usize::from(parenthesised)].span);
            let token = Token { tok: Tok::Int { value, unsigned: false }, span, ..t.clone() };
            input.push_back(Pending { token, hidden: none.clone() });
            i = name_at + 1 + usize::from(parenthesised);
        }
        let mut out = Vec::new();
        self.expand(input, &mut out);
        let expanded: Vec<Token> = out.into_iter().map(|p| p.token).collect();
        conditional::evaluate(at, &expanded, self.diags).unwrap_or(false)
    }

    /// Expands a run of tokens between directives onto the output.
    fn expand_segment(&mut self, tokens: Vec<Token>) {
        if tokens.is_empty() {
            return;
        }
        let none = Rc::new(Vec::new());
        let input = tokens.into_iter().map(|token| Pending { token, hidden: none.clone() }).collect();
        let mut out = Vec::new();
        self.expand(input, &mut out);
        self.out.extend(out.into_iter().map(|p| p.token));
    }

    /// Expands `input` onto `out`: each name of a macro it may expand is replaced by the
    /// macro's body (a function-like macro's only when `(` follows), and the result is scanned
    /// again.
    fn expand(&mut self, mut input: VecDeque<Pending>, out: &mut Vec<Pending>) {
        while let Some(p) = input.pop_front() {
            if self.exhausted {
                return;
            }
            if self.out.len() + out.len() >= MAX_EXPANDED_TOKENS {
                self.diags.error(p.token.span, "macro expansion produces more than a million tokens");
                self.exhausted = true;
                return;
            }
            let Tok::Ident(name) = &p.token.tok else {
                out.push(p);
                continue;
            };
            let Some(m) = self.macros.get(name).filter(|_| !p.hidden.contains(name)).cloned() else {
                out.push(p);
                continue;
            };
            if p.hidden.len() >= MAX_EXPANSION_DEPTH {
                self.diags.error(
                    p.token.span,
                    format!("macros nest more than {MAX_EXPANSION_DEPTH} levels deep expanding `{name}`"),
                );
                self.exhausted = true;
                return;
            }
            let mut hidden = (*p.hidden).clone();
            hidden.push(name.clone());
            let hidden = Rc::new(hidden);
            // Expanded tokens point at the use, which is where an error makes sense to a reader.
            let use_token = p.token.clone();
            let at_use = move |b: &Token| Token {
                span: use_token.span,
                logical_line: use_token.logical_line,
                line_start: false,
                tok: b.tok.clone(),
            };
            let Some(params) = &m.params else {
                for b in m.body.iter().rev() {
                    input.push_front(Pending { token: at_use(b), hidden: hidden.clone() });
                }
                continue;
            };
            // A function-like macro's name without `(` after it is a plain name.
            if !input.front().is_some_and(|n| n.token.is_punct("(")) {
                out.push(p);
                continue;
            }
            let name = name.clone();
            let variadic = params.last().is_some_and(|p| p == VA_ARGS);
            let Some(args) = self.arguments(&name, &p.token, params.len(), variadic, &mut input) else { continue };
            let result = self.substitute(&m.body, params, &args, &at_use);
            for mut r in result.into_iter().rev() {
                r.hidden = union(&r.hidden, &hidden);
                input.push_front(r);
            }
        }
    }

    /// Takes the arguments of a call of macro `name` (at `call`) off the front of `input`,
    /// which starts with its `(`; `None` (said) if the call is not closed or the count is
    /// not `params`.
    fn arguments(
        &mut self,
        name: &str,
        call: &Token,
        params: usize,
        variadic: bool,
        input: &mut VecDeque<Pending>,
    ) -> Option<Vec<Vec<Pending>>> {
        input.pop_front();
        let mut args: Vec<Vec<Pending>> = alloc::vec![Vec::new()];
        let mut depth = 0u32;
        let variadic = variadic && params > 0;
        let mut closed = false;
        while let Some(a) = input.pop_front() {
            if a.token.tok == Tok::Eof {
                input.push_front(a);
                break;
            }
            if a.token.is_punct("(") {
                depth += 1;
            } else if a.token.is_punct(")") {
                if depth == 0 {
                    closed = true;
                    break;
                }
                depth -= 1;
            } else if a.token.is_punct(",") && depth == 0 && !(variadic && args.len() == params) {
                args.push(Vec::new());
                continue;
            }
            if let Some(last) = args.last_mut() {
                last.push(a);
            }
        }
        if !closed {
            self.diags.error(call.span, format!("the call of macro `{name}` has no closing `)`"));
            return None;
        }
        if params == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if variadic && args.len() + 1 == params {
            // No arguments for `...`: `__VA_ARGS__` is empty.
            args.push(Vec::new());
        }
        if args.len() != params {
            let takes = if params == 1 { "1 argument".to_string() } else { format!("{params} arguments") };
            self.diags.error(call.span, format!("macro `{name}` takes {takes}, given {}", args.len()));
            return None;
        }
        Some(args)
    }

    /// `body` with each parameter replaced by its argument, expanded (or, beside `##`, as
    /// written, pasted to its neighbour).
    fn substitute(
        &mut self,
        body: &[Token],
        params: &[String],
        args: &[Vec<Pending>],
        at_use: &dyn Fn(&Token) -> Token,
    ) -> Vec<Pending> {
        let param = |t: &Token| match &t.tok {
            Tok::Ident(n) => params.iter().position(|p| p == n),
            _ => None,
        };
        // `##`: two `#` side by side.
        let paste_at = |i: usize| {
            body.get(i).is_some_and(|t| t.is_punct("#"))
                && body.get(i + 1).is_some_and(|t| t.is_punct("#") && t.span.offset == body[i].span.offset + 1)
        };
        let none = Rc::new(Vec::new());
        let mut expanded: Vec<Option<Vec<Pending>>> = alloc::vec![None; args.len()];
        let mut result: Vec<Pending> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            if paste_at(i + 1) {
                // `a ## b ## c`: the operands as written, pasted left to right.
                let operand = |t: &Token| match param(t) {
                    Some(k) => args[k].iter().map(|a| a.token.clone()).collect::<Vec<_>>(),
                    None => alloc::vec![at_use(t)],
                };
                let mut left = operand(b);
                let mut j = i + 1;
                while paste_at(j) {
                    let Some(next) = body.get(j + 2) else {
                        self.diags.error(body[j].span, "`##` has nothing to paste on its right");
                        return Vec::new();
                    };
                    let right = operand(next);
                    left = match self.paste(left, right, &body[j]) {
                        Some(tokens) => tokens,
                        None => return Vec::new(),
                    };
                    j += 3;
                }
                result.extend(left.into_iter().map(|token| Pending { token, hidden: none.clone() }));
                i = j;
                continue;
            }
            if b.is_punct("#") && !paste_at(i) {
                // `#x`: the argument as written, made a string (only `printf` takes one).
                let Some(k) = body.get(i + 1).and_then(param) else {
                    self.diags.error(b.span, "`#` must be followed by a parameter of the macro (to make it a string)");
                    return Vec::new();
                };
                let text: Vec<String> = args[k].iter().map(|a| spelling(&a.token.tok)).collect();
                let token = Token { tok: Tok::Str(text.join(" ")), ..at_use(b) };
                result.push(Pending { token, hidden: none.clone() });
                i += 2;
                continue;
            }
            if b.is_punct("#") {
                self.diags.error(b.span, "`##` has nothing to paste on its left");
                return Vec::new();
            }
            match param(b) {
                Some(k) => {
                    if expanded[k].is_none() {
                        let mut out = Vec::new();
                        self.expand(args[k].iter().cloned().collect(), &mut out);
                        expanded[k] = Some(out);
                    }
                    result.extend(expanded[k].iter().flatten().cloned());
                }
                None => result.push(Pending { token: at_use(b), hidden: none.clone() }),
            }
            i += 1;
        }
        result
    }

    /// `left`'s last token and `right`'s first written as one (`x ## f` with `x` = `1.5` is
    /// `1.5f`), the rest on either side kept; `None` (said at `op`) if that is not one token.
    fn paste(&mut self, mut left: Vec<Token>, mut right: Vec<Token>, op: &Token) -> Option<Vec<Token>> {
        if right.is_empty() {
            return Some(left);
        }
        let Some(l) = left.pop() else {
            return Some(right);
        };
        let r = right.remove(0);
        let text = format!("{}{}", spelling(&l.tok), spelling(&r.tok));
        let mut sub = Diags::default();
        let tokens: Vec<Token> = lex(&text, &mut sub).into_iter().filter(|t| t.tok != Tok::Eof).collect();
        if tokens.len() != 1 || !sub.finish().is_empty() {
            self.diags.error(
                op.span,
                format!("pasting `{}` and `{}` with `##` does not make one token", spelling(&l.tok), spelling(&r.tok)),
            );
            return None;
        }
        left.push(Token { tok: tokens[0].tok.clone(), ..l });
        left.extend(right);
        Some(left)
    }
}

/// The names in either list.
fn union(a: &Rc<Vec<String>>, b: &Rc<Vec<String>>) -> Rc<Vec<String>> {
    if a.is_empty() {
        return b.clone();
    }
    let mut all = (**b).clone();
    for name in a.iter() {
        if !all.contains(name) {
            all.push(name.clone());
        }
    }
    Rc::new(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, overrides: &[(&str, &str)]) -> (Vec<Tok>, Vec<Define>, Vec<super::super::Diagnostic>) {
        let mut lexical = Diags::default();
        let toks = lex(src, &mut lexical);
        let ov: Vec<(String, String)> = overrides.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let mut d = Diags::default();
        let (out, defines, lexical) = preprocess(src, toks, lexical.finish(), &ov, &mut d);
        for e in lexical {
            d.add(e);
        }
        let out = rewrite(out, &[], &mut d).0;
        (out.into_iter().map(|t| t.tok).collect(), defines, d.finish())
    }

    #[test]
    fn defines_expand_below_and_nest() {
        let (t, defs, d) = run("#define N 4\n#define M (N * 2)\nx = M;", &[]);
        assert!(d.is_empty(), "{d:?}");
        let int = |v| Tok::Int { value: v, unsigned: false };
        assert_eq!(
            t,
            [
                Tok::Ident("x".into()),
                Tok::Punct("="),
                Tok::Punct("("),
                int(4),
                Tok::Punct("*"),
                int(2),
                Tok::Punct(")"),
                Tok::Punct(";"),
                Tok::Eof
            ]
        );
        assert_eq!(defs.len(), 2);
        assert_eq!((defs[1].name.as_str(), defs[1].value.as_str()), ("M", "(N * 2)"));
        assert_eq!((defs[0].span.line, defs[0].span.column, defs[0].span.len), (1, 11, 1));
    }

    #[test]
    fn overrides_replace_the_value_and_self_reference_stops() {
        let (t, defs, d) = run("#define N 4\n#define X X + 1\nN X", &[("N", "16")]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(t[0], Tok::Int { value: 16, unsigned: false });
        assert_eq!(t[1], Tok::Ident("X".into()));
        assert_eq!(defs[0].value, "16");
    }

    #[test]
    fn the_last_override_of_a_name_wins_and_shadowing_is_no_warning() {
        let (t, defs, d) = run("#define N 4\nN", &[("N", "16"), ("N", "64")]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(t[0], Tok::Int { value: 64, unsigned: false });
        assert_eq!(defs[0].value, "64");
    }

    fn ints(t: &[Tok]) -> String {
        t.iter()
            .filter(|t| **t != Tok::Eof)
            .map(|t| match t {
                Tok::Ident(n) => n.clone(),
                Tok::Int { value, .. } => value.to_string(),
                Tok::Long { value, unsigned } => format!("{value}{}ll", if *unsigned { "u" } else { "" }),
                Tok::Float(f) => format!("{f:?}f"),
                Tok::Double(d) => format!("{d:?}"),
                Tok::Punct(p) => (*p).to_string(),
                Tok::Str(s) => format!("\"{s}\""),
                Tok::Eof => String::new(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// C's rules, worked by hand: arguments split at top-level commas and expanded before they
    /// go in, the result scanned again (a macro defined after another still expands in it), a
    /// macro never inside its own expansion, a name without `(` left alone.
    #[test]
    fn function_like_macros_expand_as_c_expands_them() {
        let expand = |src: &str| {
            let (t, defs, d) = run(src, &[]);
            assert!(d.is_empty(), "{src}: {d:?}");
            assert!(defs.iter().all(|d| d.name != "MIN" && d.name != "SQ"), "not a knob");
            ints(&t)
        };
        assert_eq!(
            expand("#define MIN(a,b) ((a)<(b)?(a):(b))\nMIN(x+1, f(y, z))"),
            "( ( x + 1 ) < ( f ( y , z ) ) ? ( x + 1 ) : ( f ( y , z ) ) )"
        );
        assert_eq!(
            expand("#define SQ(x) ((x)*(x))\n#define N 4\nSQ(SQ(N))"),
            "( ( ( ( 4 ) * ( 4 ) ) ) * ( ( ( 4 ) * ( 4 ) ) ) )"
        );
        assert_eq!(expand("#define F(x) x\nint F = F + F(2);"), "int F = F + 2 ;");
        assert_eq!(expand("#define ADD(a, b) a + b\nADD(1,\n  2)"), "1 + 2", "arguments over lines");
        assert_eq!(expand("#define F() 7\nF()"), "7");
        // PolyBench's loop bounds: `_PB_N` names a macro defined only afterwards.
        assert_eq!(expand("#define LOOP_BOUND(x,y) x\n#define _PB_N LOOP_BOUND(N,n)\n#define N 8\n_PB_N"), "8");
        // A macro does not expand in its own expansion, even through another's call.
        assert_eq!(expand("#define f(x) x f\nf(1)(2)"), "1 f ( 2 )");
        assert_eq!(expand("#define g(x) g(x + 1)\ng(0)"), "g ( 0 + 1 )");
        // `##` pastes the arguments as written (not expanded): PolyBench's SCALAR_VAL.
        assert_eq!(expand("#define SCALAR_VAL(x) x##f\nSCALAR_VAL(1.5)"), "1.5f");
        assert_eq!(expand("#define N 3\n#define CAT(a, b) a ## b\nCAT(N, 2) CAT(x, N)"), "N2 xN");
        // Overriding one is no knob change.
        let (_, _, d) = run("#define F(x) x\nF(1)", &[("F", "2")]);
        assert!(d.len() == 1 && d[0].message.contains("`F` is a function-like macro"), "{d:?}");
    }

    #[test]
    fn a_cuda_files_standard_headers_are_ignored_with_a_note() {
        let src = "#include <cuda_runtime.h>\n#include \"cuda.h\" // the driver API\n#include <stdio.h>\t\t/* printf */\n#include <vector>\nx";
        let mut d = Diags::default();
        let toks = lex(src, &mut d);
        let (out, ..) = preprocess(src, toks, Vec::new(), &[], &mut d);
        let out = rewrite(out, &[], &mut d).0;
        let d = d.finish();
        assert!(d.iter().all(|d| d.severity == super::super::Severity::Warning), "{d:?}");
        let notes: Vec<(u32, &str)> = d.iter().map(|d| (d.span.line, d.message.as_str())).collect();
        assert_eq!(
            notes,
            [
                (1, "`#include <cuda_runtime.h>` is ignored: what kernels use from it is built in"),
                (2, "`#include \"cuda.h\"` is ignored: what kernels use from it is built in"),
                (3, "`#include <stdio.h>` is ignored: what kernels use from it is built in"),
                (4, "`#include <vector>` is ignored: system headers are not read"),
            ]
        );
        assert_eq!(out.iter().map(|t| t.tok.clone()).collect::<Vec<_>>(), [Tok::Ident("x".into()), Tok::Eof]);
    }

    #[test]
    fn directive_errors_have_positions() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("#include \"my.h\"\n", (1, 1), "`#include \"my.h\"`: other files cannot be included; paste what the kernels need from it here"),
            ("#include\n", (1, 1), "expected a header name after `#include`, as `<cuda_runtime.h>` or `\"file.h\"`"),
            ("#define F(x) x\nF(1, 2)", (2, 1), "macro `F` takes 1 argument, given 2"),
            ("#define F(x, y) x\nF(1)", (2, 1), "macro `F` takes 2 arguments, given 1"),
            ("#define F(x) x\nint a = F(1;", (2, 9), "the call of macro `F` has no closing `)`"),
            ("#define F(x) #y\nF(1)", (1, 14), "`#` must be followed by a parameter of the macro (to make it a string)"),
            ("#define F(x, x) x\n", (1, 14), "macro `F` names its parameter `x` twice"),
            ("#define F(..., x) 1\n", (1, 11), "`...` must be the last parameter of macro `F`"),
            ("#define F(x 1\n", (1, 13), "expected `,` or `)` in the parameters of macro `F`, found `1`"),
            ("#define F(x) x ## ## y\nF(1)", (1, 16), "pasting `1` and `#` with `##` does not make one token"),
            ("#define F(x) ## x\nF(1)", (1, 14), "`##` has nothing to paste on its left"),
            ("#define F(x) x ## +\nF(a)", (1, 16), "pasting `a` and `+` with `##` does not make one token"),
            ("#define 3 4\n", (1, 9), "expected a macro name after `#define`, found `3`"),
            ("#define\n", (1, 8), "expected a macro name after `#define`"),
            ("int x; # define A 1\n", (1, 8), "`#` must start a line (a directive such as `#define`)"),
            ("#define A A A\n#define B A A A A\n#define C B B B B\n#define D C C C C\n#define E D D D D\n#define F E E E E\n#define G F F F F\n#define H G G G G\n#define I H H H H\n#define J I I I I\n#define K J J J J\nK", (12, 1), "macro expansion produces more than a million tokens"),
        ];
        for (src, (line, column), message) in cases {
            let (_, _, d) = run(src, &[]);
            let errors: Vec<_> = d.iter().filter(|d| d.severity == super::super::Severity::Error).collect();
            assert_eq!(errors.len(), 1, "{src}: {d:?}");
            assert_eq!((errors[0].span.line, errors[0].span.column), (*line, *column), "{src}");
            assert_eq!(errors[0].message, *message, "{src}");
        }
    }

    #[test]
    fn many_unused_overrides_are_one_warning() {
        let names: Vec<String> = (0..1000).map(|i| format!("M{i}")).collect();
        let overrides: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
        let (_, _, d) = run("#define N 1\nN", &overrides);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            d[0].message,
            "the overrides of `M0`, `M1`, `M2` and 997 more have no effect: the file never names them"
        );
    }

    #[test]
    fn an_override_of_a_name_the_file_tests_but_never_defines_defines_it() {
        let src = "#ifdef BLOCK\nint a = BLOCK;\n#else\nint a = 16;\n#endif";
        assert_eq!(compiled_ints_with(src, &[("BLOCK", "64")]), [64]);
        assert_eq!(compiled_ints_with(src, &[]), [16]);
        // The last of several wins.
        assert_eq!(compiled_ints_with(src, &[("BLOCK", "64"), ("BLOCK", "32")]), [32]);
    }

    #[test]
    fn an_unused_override_is_a_warning() {
        let (_, _, d) = run("x", &[("NOPE", "1")]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].severity, super::super::Severity::Warning);
    }

    /// The integers left after preprocessing, to see which branches were compiled.
    fn compiled_ints(src: &str) -> Vec<u32> {
        compiled_ints_with(src, &[])
    }

    fn compiled_ints_with(src: &str, overrides: &[(&str, &str)]) -> Vec<u32> {
        let (toks, _, diags) = run(src, overrides);
        assert!(diags.iter().all(|d| d.severity != super::super::Severity::Error), "{src}: {diags:?}");
        toks.iter().filter_map(|t| if let Tok::Int { value, .. } = t { Some(*value) } else { None }).collect()
    }

    fn holds(condition: &str) -> bool {
        match compiled_ints(&format!("#if {condition}\n1\n#else\n0\n#endif\n")).as_slice() {
            [v] => *v == 1,
            other => panic!("{condition}: {other:?}"),
        }
    }

    #[test]
    fn conditions_compute_as_c_preprocessors_do() {
        // Each value worked by C's rules: intmax_t arithmetic, unsigned if an operand is.
        let cases: &[(&str, bool)] = &[
            ("1", true),
            ("0", false),
            ("2 + 3 * 4 == 14", true),
            ("(2 + 3) * 4 == 20", true),
            ("10 / 3 * 3 == 9", true),
            ("-7 % 3 == -1", true),
            ("-7 / 2 == -3", true),
            ("-1 < 0", true),
            ("-1 < 0u", false),
            ("~0u == 0xFFFFFFFF", false),
            ("(1 << 31) > 0", true),
            ("0x10 == 16 && 010 == 8", true),
            ("3 & 5 ^ 1 | 8", true),
            ("(3 & 5 ^ 1 | 8) == 8", true),
            ("!0 + !5 == 1", true),
            ("1 ? 0 : 1", false),
            ("0 ? 1 : 0 ? 1 : 2", true),
            ("UNKNOWN", false),
            ("UNKNOWN == 0", true),
            ("true && !false", true),
            ("defined(__CUDACC__)", true),
            ("defined __CUDA_ARCH__", false),
            ("0 && 1 / 0", false),
            ("1 || 1 / 0", true),
            ("1 ? 2 : 1 % 0", true),
        ];
        for (condition, value) in cases {
            assert_eq!(holds(condition), *value, "#if {condition}");
        }
    }

    #[test]
    fn the_first_true_branch_is_compiled_and_skipped_groups_are_not_evaluated() {
        let chain = "#define V 2\n#if V == 1\n10\n#elif V == 2\n20\n#elif V == 2\n30\n#else\n40\n#endif\n";
        assert_eq!(compiled_ints(chain), [20]);
        assert_eq!(compiled_ints("#if 0\n1\n#elif 0\n2\n#else\n3\n#endif\n"), [3]);
        assert_eq!(
            compiled_ints("#if 1\n1\n#if 0\n2\n#else\n3\n#endif\n4\n#else\n5\n#if 1\n6\n#endif\n#endif\n7"),
            [1, 3, 4, 7]
        );
        // No condition is evaluated in skipped text or after a taken branch: `1 / 0` is fine.
        assert_eq!(compiled_ints("#if 0\n#if 1 / 0\n1\n#endif\n#elif 1\n2\n#elif 1 / 0\n3\n#endif\n"), [2]);
        // `#define`s in skipped text do nothing, and are not knobs.
        let (toks, defines, _) = run("#ifdef SMALL\n#define N 32\n#else\n#define N 512\n#endif\nN", &[]);
        assert_eq!(toks[0], Tok::Int { value: 512, unsigned: false });
        assert_eq!(defines.iter().map(|d| (d.name.as_str(), d.value.as_str())).collect::<Vec<_>>(), [("N", "512")]);
    }

    #[test]
    fn a_polybench_style_header_picks_its_dataset() {
        let header = "#ifndef GEMM_CUH\n# define GEMM_CUH\n\
            # if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(LARGE_DATASET)\n\
            #  define STANDARD_DATASET\n# endif\n\
            # if !defined(N)\n#  ifdef MINI_DATASET\n#define NI 32\n#  endif\n\
            #  ifdef STANDARD_DATASET /* default */\n#define NI 512\n#  endif\n# endif /* !N */\n\
            #endif /* !GEMM_CUH */\n";
        let twice = format!("{header}{header}NI");
        assert_eq!(compiled_ints(&twice), [512]);
        assert_eq!(compiled_ints(&format!("#define MINI_DATASET\n{header}NI")), [32]);
    }

    #[test]
    fn skipped_text_may_hold_anything() {
        let (_, _, diags) = run("#if 0\nprintf(\"%d\\n\", 'a'); x = 5L; @ 09\n#endif\nint", &[]);
        assert!(diags.is_empty(), "{diags:?}");
        let (_, _, diags) = run("#ifdef DEBUG\n#include \"debug.h\"\n#error not here\n#endif\n", &[]);
        assert!(diags.is_empty(), "{diags:?}");
        // Compiled text still reports them.
        let (_, _, diags) = run("#if 1\nx = 5lL;\n#endif\n", &[]);
        assert_eq!(diags[0].message, "invalid suffix `lL` on an integer literal");
    }

    #[test]
    fn conditional_mistakes_are_located() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("int\n#endif\n", (2, 1), "`#endif` without an `#if` before it"),
            ("#else\n", (1, 1), "`#else` without an `#if` before it"),
            ("#elif 1\n", (1, 1), "`#elif` without an `#if` before it"),
            ("#if 1\n#else\n#else\n#endif\n", (3, 1), "a second `#else` in one `#if` group"),
            ("#if 1\n#else\n#elif 1\n#endif\n", (3, 1), "`#elif` after the `#else` of its group"),
            ("int x;\n  #ifdef A\nint y;\n", (2, 3), "this conditional group is never closed: add `#endif` where it ends"),
            ("#if\n#endif\n", (1, 1), "expected a condition after the directive"),
            ("#if 1 +\n#endif\n", (1, 8), "the condition is incomplete: expected a value"),
            ("#if 4 / (2 - 2)\n#endif\n", (1, 7), "division by zero in the condition (`/` of 0)"),
            ("#if 2.5\n#endif\n", (1, 5), "a condition of `#if` must be an integer; this is a float"),
            ("#if (1\n#endif\n", (1, 7), "expected `)` in the condition, found the end of the line"),
            ("#if 1 2\n#endif\n", (1, 7), "unexpected `2` in the condition"),
            ("#if defined(\n#endif\n", (1, 5), "expected a macro name after `defined`"),
            ("#ifdef\n#endif\n", (1, 7), "expected a macro name after `#ifdef`"),
            ("#error needs SM 7.0\n", (1, 1), "the file says #error needs SM 7.0"),
            ("#line 4\n", (1, 1), "`#line` is not supported; the directives are `#define`, `#undef`, `#include`, `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, `#error` and `#pragma`"),
        ];
        for (src, (line, column), message) in cases {
            let (_, _, diags) = run(src, &[]);
            let errors: Vec<_> = diags.iter().filter(|d| d.severity == super::super::Severity::Error).collect();
            assert_eq!(errors.len(), 1, "{src}: {diags:?}");
            assert_eq!((errors[0].span.line, errors[0].span.column), (*line, *column), "{src}");
            assert_eq!(errors[0].message, *message, "{src}");
        }
        let (_, _, diags) = run("#ifdef A extra\n#endif B\n", &[]);
        assert_eq!(diags.len(), 1, "only compiled directives warn: {diags:?}");
        let (_, _, diags) = run("#if 1\n#endif B\n", &[]);
        assert_eq!(diags[0].message, "text after `#endif` is ignored; make it a comment (`// …`)");
    }

    #[test]
    fn stringizing_and_variadic_macros() {
        let (toks, _, d) = run("#define S(x) #x\nS(a + 1)", &[]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(toks[0], Tok::Str("a + 1".into()));
        let (toks, _, d) = run("#define P(f, ...) g(f, __VA_ARGS__)\nP(1, (2, 3), 4)\nP(5)", &[]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(ints(&toks), "g ( 1 , ( 2 , 3 ) , 4 ) g ( 5 , )");
    }
}
