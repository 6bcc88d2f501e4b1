//! Host code in a pasted `.cu` file. A CUDA source mixes device code (kernels, `__device__`
//! functions and memory, the types both sides share) with host code (`main`, helpers,
//! globals, prototypes) that reads files, allocates and launches. Warpscope simulates the
//! device; its `host { … }` block says what to launch. So, after macro expansion, every
//! file-scope item that nvcc would compile for the host only is set aside unread — its text
//! may use anything C++ has — and one warning names what was set aside. Device code that
//! names a set-aside function or variable gets an error saying so (see [`HostItem`]).
//!
//! What counts as host code, as nvcc decides it: a function not marked `__device__` or
//! `__global__` (or marked `__host__` alone), a prototype of one, and a variable not in
//! device memory (`__device__`, `__constant__`, `__shared__`, `__managed__`), including
//! `extern` declarations. Types (`struct`, `class`, `enum`, `typedef`), templates of device
//! code, and `const` scalars (which device code may use as constants) stay.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::diag::{Diags, Span};
use super::lexer::{matching_close, Tok, Token};

/// A host function or variable that was set aside, for the error where device code uses it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HostItem {
    pub name: String,
    /// Where the name is declared.
    pub span: Span,
    pub function: bool,
}

/// How many set-aside names the warning lists before "and N more".
const NAMED: usize = 4;

/// Words that put a declaration in device code.
const DEVICE_MARKS: &[&str] = &["__global__", "__device__", "__constant__", "__shared__", "__managed__"];

/// What one file-scope item is.
enum Kind {
    /// Kept as it is: device code, the host block, a namespace's braces, `using namespace`.
    Device,
    /// Host code: the names it declares, and whether it declares a function.
    Host(Vec<(String, Span)>, bool),
    /// A type or a `const` scalar: kept if device code uses it; in a file with host code,
    /// one nothing on the device names is left out unread (it may be a host class).
    Shared,
    /// Tokens dropped (the braces of `extern "C" { … }`).
    Dropped,
}

/// `tokens` without their host code; what was set aside, and the byte ranges it covered (the
/// lexer's errors there are not reported).
pub(super) fn set_aside(tokens: Vec<Token>, diags: &mut Diags) -> (Vec<Token>, Vec<HostItem>, Vec<(u32, u32)>) {
    let items = split(&tokens);
    // A file of the language's own (no host code outside the host block) keeps every type,
    // so each is checked.
    let has_host = items.iter().any(|(_, _, kind)| matches!(kind, Kind::Host(..)));
    let mut keep: Vec<bool> = items
        .iter()
        .map(|(_, _, kind)| matches!(kind, Kind::Device) || (!has_host && matches!(kind, Kind::Shared)))
        .collect();
    // Which shared items device code needs: those naming what kept code mentions, to a
    // fixed point (a struct used by a kernel keeps the struct its members use).
    let mut mentioned: BTreeSet<&str> = BTreeSet::new();
    for ((from, to, _), _) in items.iter().zip(&keep).filter(|(_, k)| **k) {
        mentioned.extend(identifiers(&tokens[*from..*to]));
    }
    let names: Vec<Vec<&str>> = items
        .iter()
        .map(|(from, to, kind)| if matches!(kind, Kind::Shared) { declared(&tokens[*from..*to]) } else { Vec::new() })
        .collect();
    let mut grew = has_host;
    while grew {
        grew = false;
        // Last to first: a type uses those defined before it, so one pass usually settles.
        for (k, (from, to, kind)) in items.iter().enumerate().rev() {
            if keep[k] || !matches!(kind, Kind::Shared) {
                continue;
            }
            if names[k].iter().any(|n| mentioned.contains(n)) {
                keep[k] = true;
                mentioned.extend(identifiers(&tokens[*from..*to]));
                grew = true;
            }
        }
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut host_items: Vec<HostItem> = Vec::new();
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let mut first_span: Option<Span> = None;
    for ((from, to, kind), kept) in items.iter().zip(keep) {
        let (first, last) = (&tokens[*from], &tokens[to - 1]);
        if kept {
            // `extern "C"` only names the linkage.
            let from = if is_extern_c(&tokens, *from) { from + 2 } else { *from };
            out.extend_from_slice(&tokens[from..*to]);
            continue;
        }
        ranges.push((first.span.offset, last.span.offset + last.span.len));
        if let Kind::Host(names, function) = kind {
            first_span.get_or_insert(first.span);
            let function = *function;
            host_items.extend(names.iter().map(|(name, span)| HostItem { name: name.clone(), span: *span, function }));
        }
    }
    if out.last().is_none_or(|t| t.tok != Tok::Eof) {
        out.extend(tokens.last().filter(|t| t.tok == Tok::Eof).cloned());
    }
    if let Some(span) = first_span {
        diags.warning(span, summary(&host_items));
    }
    (out, host_items, ranges)
}

/// The file-scope items of `tokens`, as (first token, one past the last, kind).
fn split(tokens: &[Token]) -> Vec<(usize, usize, Kind)> {
    let mut items = Vec::new();
    // Open `namespace … {` (kept: a later pass opens them) and `extern "C" {` (dropped)
    // blocks, innermost last: whether the closing brace is kept.
    let mut blocks: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.tok == Tok::Eof {
            break;
        }
        let (end, kind) = if t.is_ident("host") && at(tokens, i + 1, "{") {
            (matching_close(tokens, i + 1).map_or(tokens.len() - 1, |k| k + 1), Kind::Device)
        } else if t.is_ident("namespace") && (at(tokens, i + 1, "{") || at(tokens, i + 2, "{")) {
            blocks.push(true);
            (if at(tokens, i + 1, "{") { i + 2 } else { i + 3 }, Kind::Device)
        } else if is_extern_c(tokens, i) && at(tokens, i + 2, "{") {
            blocks.push(false);
            (i + 3, Kind::Dropped)
        } else if t.is_punct("}") && !blocks.is_empty() {
            (i + 1, if blocks.pop() == Some(true) { Kind::Device } else { Kind::Dropped })
        } else if t.is_punct(";") || t.is_punct("}") {
            (i + 1, Kind::Device)
        } else {
            let item = Item::scan(tokens, i);
            let kind = item.kind(tokens);
            (item.end.max(i + 1), kind)
        };
        items.push((i, end, kind));
        i = end;
    }
    items
}

/// Every identifier of `tokens`.
fn identifiers(tokens: &[Token]) -> impl Iterator<Item = &str> {
    tokens.iter().filter_map(|t| match &t.tok {
        Tok::Ident(w) => Some(w.as_str()),
        _ => None,
    })
}

/// The names a type item (or `const` scalar) may be known by: its identifiers outside braces
/// and past a template header, and an enum's enumerators. Generous on purpose: a word too
/// many only keeps an item that was not needed.
fn declared(item: &[Token]) -> Vec<&str> {
    let mut k = 0;
    if item[0].is_ident("template") && at(item, 1, "<") {
        k = past_angles(item, 1);
    }
    let is_enum = item.get(k).is_some_and(|t| t.is_ident("enum"));
    let mut names = Vec::new();
    let mut depth = 0usize;
    for (j, t) in item.iter().enumerate().skip(k) {
        match &t.tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => depth = depth.saturating_sub(1),
            Tok::Ident(w) if depth == 0 && !is_keyword(w) => names.push(w.as_str()),
            Tok::Ident(w)
                if depth == 1
                    && is_enum
                    && item.get(j + 1).is_some_and(|n| n.is_punct("=") || n.is_punct(",") || n.is_punct("}")) =>
            {
                names.push(w.as_str())
            }
            _ => {}
        }
    }
    names
}

/// Words of C++ that name no type or variable of the file.
fn is_keyword(word: &str) -> bool {
    is_type_word(word)
        || matches!(
            word,
            "struct"
                | "class"
                | "union"
                | "enum"
                | "typedef"
                | "using"
                | "const"
                | "constexpr"
                | "static"
                | "signed"
                | "typename"
                | "template"
                | "public"
                | "private"
                | "protected"
                | "virtual"
                | "__align__"
                | "volatile"
                | "inline"
        )
}

/// The warning that says what was set aside.
fn summary(items: &[HostItem]) -> String {
    let mut names: Vec<String> = Vec::new();
    for item in items {
        let shown = if item.function { format!("`{}()`", item.name) } else { format!("`{}`", item.name) };
        if !names.contains(&shown) {
            names.push(shown);
        }
    }
    let listed = match names.len() {
        0 => String::from("declarations"),
        n if n <= NAMED => join(&names),
        n => format!("{}, and {} more", names[..NAMED].join(", "), n - NAMED),
    };
    format!(
        "host code is set aside ({listed}): warpscope simulates the device code, and the `host {{ … }}` block \
         says what to launch"
    )
}

/// `a`, `a and b`, `a, b and c`.
fn join(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn at(tokens: &[Token], k: usize, p: &str) -> bool {
    tokens.get(k).is_some_and(|t| t.is_punct(p))
}

/// `extern "C"` at `k`.
fn is_extern_c(tokens: &[Token], k: usize) -> bool {
    tokens[k].is_ident("extern") && matches!(tokens.get(k + 1).map(|t| &t.tok), Some(Tok::Str(s)) if s == "C")
}

/// One file-scope item: a declaration up to its `;`, or a function up to its body's `}`.
struct Item {
    start: usize,
    /// One past its last token.
    end: usize,
    /// Where its head ends: the body's `{` for a function, else `end`.
    head_end: usize,
    /// It declares a function (a `(` comes before any `=` at the top level).
    function: bool,
    /// It ends as a declaration does: with its `;`, or a function's body. An item cut short
    /// (by the end of the file, a stray `}`, or the host block) is never host code: it is
    /// kept, so the parser reports what is missing rather than the item vanishing.
    complete: bool,
}

impl Item {
    fn scan(tokens: &[Token], start: usize) -> Item {
        let mut depth = 0usize;
        let mut function = false;
        let mut initialised = false;
        let mut k = start;
        // `template <…>` heads: skip the angle brackets so a default argument's `(` or `=`
        // does not count.
        if tokens[k].is_ident("template") && at(tokens, k + 1, "<") {
            k = past_angles(tokens, k + 1);
        }
        let type_definition =
            tokens.get(k).is_some_and(|t| ["struct", "class", "union", "enum"].iter().any(|w| t.is_ident(w)));
        while k < tokens.len() {
            let t = &tokens[k];
            match &t.tok {
                Tok::Eof => break,
                Tok::Punct("(" | "[") => {
                    if depth == 0 && t.is_punct("(") && !initialised {
                        function = true;
                    }
                    depth += 1;
                }
                Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
                Tok::Punct("=") if depth == 0 => initialised = true,
                Tok::Punct(";") if depth == 0 => {
                    return Item {
                        start,
                        end: k + 1,
                        head_end: k + 1,
                        function: function && !type_definition,
                        complete: true,
                    };
                }
                Tok::Punct("}") if depth == 0 => break,
                // A declaration missing its `;` ends before the host block (and is not host code).
                Tok::Ident(w) if w == "host" && depth == 0 && k > start && at(tokens, k + 1, "{") => break,
                Tok::Punct("{") if depth == 0 => {
                    let close = matching_close(tokens, k).unwrap_or(tokens.len() - 1);
                    if function && !type_definition {
                        return Item { start, end: close + 1, head_end: k, function: true, complete: true };
                    }
                    // A type's body or a braced initializer: the declaration goes on.
                    k = close;
                }
                _ => {}
            }
            k += 1;
        }
        let end = k.min(tokens.len() - 1).max(start + 1);
        Item { start, end, head_end: end, function: function && !type_definition, complete: false }
    }

    /// Device code, host code (with the names it declares: every one of a variable list),
    /// or a type.
    fn kind(&self, tokens: &[Token]) -> Kind {
        let head = &tokens[self.start..self.head_end];
        let has = |w: &str| head.iter().any(|t| t.is_ident(w));
        if !self.complete || DEVICE_MARKS.iter().any(|w| has(w)) {
            return Kind::Device;
        }
        let mut k = 0;
        if head[0].is_ident("template") {
            // `template <…>` before a definition; `template` alone is an explicit
            // instantiation, of host code here (it has no device mark).
            k = if at(head, 1, "<") { past_angles(head, 1) } else { 1 };
        }
        let Some(first) = head.get(k) else { return Kind::Shared };
        let leading = |w: &str| first.is_ident(w);
        if leading("using") || leading("namespace") {
            return Kind::Device;
        }
        if ["typedef", "static_assert", "texture", "surface"].iter().any(|w| leading(w)) {
            return Kind::Shared;
        }
        if ["struct", "class", "union", "enum"].iter().any(|w| leading(w)) {
            // A type's definition or forward declaration stays; `struct timeval t;` is a
            // host variable.
            let braced = head.iter().any(|t| t.is_punct("{"));
            let forward = head.len() <= 3 && head.last().is_some_and(|t| t.is_punct(";"));
            if braced || forward {
                return Kind::Shared;
            }
        }
        if self.function {
            let name = name_before(head, head.iter().position(|t| t.is_punct("(")).unwrap_or(head.len()));
            return Kind::Host(name.into_iter().collect(), true);
        }
        // A `const` scalar at file scope is a constant device code may use.
        let constant = (has("const") || has("constexpr")) && !has("extern");
        // Pointers, arrays and references are told by the declarator, not the initializer's
        // `16 * 1024`.
        let declarator = &head[..head.iter().position(|t| t.is_punct("=")).unwrap_or(head.len())];
        if constant && !declarator.iter().any(|t| t.is_punct("*") || t.is_punct("[") || t.is_punct("&")) {
            return Kind::Shared;
        }
        Kind::Host(declared_names(head), false)
    }
}

/// The index past the `>` that closes the `<` at `open` (`>>` closes two).
fn past_angles(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0i32;
    let mut parens = 0i32;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(") => parens += 1,
            Tok::Punct(")") => parens -= 1,
            Tok::Punct("<") if parens == 0 => depth += 1,
            Tok::Punct(">") if parens == 0 => depth -= 1,
            Tok::Punct(">>") if parens == 0 => depth -= 2,
            Tok::Punct(";" | "{") | Tok::Eof => return k,
            _ => {}
        }
        if depth <= 0 {
            return k + 1;
        }
    }
    tokens.len()
}

/// The name declared just before `tokens[at]`: the last identifier (an `operator`'s symbol
/// joined to it).
fn name_before(tokens: &[Token], mut at: usize) -> Option<(String, Span)> {
    // `f<int>(…)`: the name is before the template arguments.
    if at > 0 && (tokens[at - 1].is_punct(">") || tokens[at - 1].is_punct(">>")) {
        let mut depth = 0i32;
        while at > 0 {
            at -= 1;
            match tokens[at].tok {
                Tok::Punct(">") => depth += 1,
                Tok::Punct(">>") => depth += 2,
                Tok::Punct("<") => depth -= 1,
                _ => {}
            }
            if depth <= 0 {
                break;
            }
        }
    }
    let k = tokens[..at].iter().rposition(|t| matches!(t.tok, Tok::Ident(_)))?;
    let Tok::Ident(name) = &tokens[k].tok else { return None };
    let mut name = name.clone();
    if name == "operator" {
        for t in &tokens[k + 1..at] {
            if let Tok::Punct(p) = t.tok {
                name.push_str(p);
            }
        }
    }
    Some((name, tokens[k].span))
}

/// The names a variable declaration declares: the last identifier of each declarator
/// (split at top-level commas) before its `=` or `[`.
fn declared_names(head: &[Token]) -> Vec<(String, Span)> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut segment_start = 0;
    let mut segment_end: Option<usize> = None;
    for (k, t) in head.iter().enumerate() {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => {
                if depth == 0 && segment_end.is_none() {
                    segment_end = Some(k);
                }
                depth += 1;
            }
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct("=") if depth == 0 && segment_end.is_none() => segment_end = Some(k),
            Tok::Punct("," | ";") if depth == 0 => {
                names.extend(name_before(&head[segment_start..], segment_end.unwrap_or(k) - segment_start));
                segment_start = k + 1;
                segment_end = None;
            }
            _ => {}
        }
    }
    if segment_start < head.len() && !head.last().is_some_and(|t| t.is_punct(";")) {
        names.extend(name_before(&head[segment_start..], segment_end.unwrap_or(head.len()) - segment_start));
    }
    names.retain(|(n, _)| !is_type_word(n));
    names
}

/// Words a declarator's last identifier cannot be (a declaration without a name).
fn is_type_word(word: &str) -> bool {
    matches!(word, "int" | "float" | "double" | "char" | "void" | "unsigned" | "long" | "short" | "bool")
}

impl HostItem {
    /// The error for device code that uses this host function or variable.
    pub(crate) fn misuse(&self) -> (String, String) {
        if self.function {
            (
                format!("`{}` is a host function (line {}), which device code cannot call", self.name, self.span.line),
                "mark it `__device__` (or `__host__ __device__` to keep it for the host too)".to_string(),
            )
        } else {
            (
                format!("`{}` is a host variable (line {}), which device code cannot read", self.name, self.span.line),
                "make it `const` with a constant value, `__device__` or `__constant__` memory, or pass it to the kernel"
                    .to_string(),
            )
        }
    }
}
