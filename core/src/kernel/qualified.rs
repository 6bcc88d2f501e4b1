//! Qualified names, after macro expansion: `std::` and a leading `::` are dropped (the standard
//! functions a kernel may call, `std::min` or `std::sqrt`, are the built-ins of the same
//! name), the file's own `namespace` blocks open into the file (their names' qualifiers go
//! too), and a name of cooperative groups (`cooperative_groups::`, an alias declared with
//! `namespace cg = cooperative_groups;`, or a distinctive name after `using namespace
//! cooperative_groups;`) becomes one identifier, `cooperative_groups::thread_block`, that no
//! declaration of the file can take. Template arguments of those names are rewritten into
//! what the compiler reads: `tiled_partition<32>(g)` is `tiled_partition(g, 32)`, and
//! `thread_block_tile<32>` or `plus<float>` lose theirs (a group variable takes its kind from
//! its initializer, and `reduce` its type from the value reduced).

use alloc::string::String;
use alloc::vec::Vec;

use super::diag::Diags;
use super::lexer::{matching_close, Tok, Token};

/// The prefix of every cooperative-groups name after this pass.
pub(crate) const CG: &str = "cooperative_groups::";

/// Names that mean cooperative groups unqualified once the namespace is used: those no
/// kernel is likely to declare itself (`sync` and `reduce` must stay qualified).
const DISTINCTIVE: &[&str] = &[
    "thread_block",
    "thread_group",
    "thread_block_tile",
    "coalesced_group",
    "grid_group",
    "this_thread_block",
    "tiled_partition",
    "coalesced_threads",
    "this_grid",
];

pub(super) fn resolve(tokens: Vec<Token>, diags: &mut Diags) -> Vec<Token> {
    let mentions = |w: &str| tokens.iter().any(|t| t.is_ident(w));
    if !mentions("std")
        && !mentions("cooperative_groups")
        && !mentions("namespace")
        && !tokens.iter().any(|t| t.is_punct("::"))
    {
        return tokens;
    }
    let mut aliases: Vec<String> = alloc::vec![String::from("cooperative_groups")];
    // The file's own namespaces, and where the braces of their blocks close.
    let mut namespaces: Vec<String> = Vec::new();
    let mut block_ends: Vec<usize> = Vec::new();
    let mut using = false;
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    let ident = |k: usize| match tokens.get(k).map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    while i < tokens.len() {
        let t = &tokens[i];
        // `namespace cg = cooperative_groups;`
        if t.is_ident("namespace")
            && tokens.get(i + 2).is_some_and(|e| e.is_punct("="))
            && ident(i + 3).is_some_and(|w| aliases.iter().any(|a| a == w))
            && tokens.get(i + 4).is_some_and(|s| s.is_punct(";"))
        {
            if let Some(name) = ident(i + 1) {
                aliases.push(String::from(name));
                i += 5;
                continue;
            }
        }
        // `namespace name { … }` (or an anonymous one): its declarations are the file's, and
        // `name::` in front of one of them goes. Two namespaces declaring one name clash.
        if t.is_ident("namespace") {
            let named = ident(i + 1).filter(|_| tokens.get(i + 2).is_some_and(|b| b.is_punct("{")));
            let open = if named.is_some() { i + 2 } else { i + 1 };
            if tokens.get(open).is_some_and(|b| b.is_punct("{")) {
                if let Some(close) = matching_close(&tokens, open) {
                    if let Some(name) = named {
                        namespaces.push(String::from(name));
                    }
                    block_ends.push(close);
                    i = open + 1;
                    continue;
                }
            }
        }
        if block_ends.contains(&i) {
            i += 1;
            continue;
        }
        if ident(i).is_some_and(|w| namespaces.iter().any(|n| n == w))
            && tokens.get(i + 1).is_some_and(|c| c.is_punct("::"))
            && ident(i + 2).is_some()
        {
            i += 2;
            continue;
        }
        // `using namespace cooperative_groups;`
        if t.is_ident("using")
            && tokens.get(i + 1).is_some_and(|n| n.is_ident("namespace"))
            && ident(i + 2).is_some_and(|w| aliases.iter().any(|a| a == w))
            && tokens.get(i + 3).is_some_and(|s| s.is_punct(";"))
        {
            using = true;
            i += 4;
            continue;
        }
        // `std::name` and `::name`: the name.
        if (t.is_ident("std") && tokens.get(i + 1).is_some_and(|c| c.is_punct("::")))
            || (t.is_punct("::")
                && ident(i + 1).is_some()
                && !out.last().is_some_and(|p| matches!(p.tok, Tok::Ident(_)) || p.is_punct(">")))
        {
            i += if t.is_punct("::") { 1 } else { 2 };
            continue;
        }
        let qualified = ident(i).is_some_and(|w| aliases.iter().any(|a| a == w))
            && tokens.get(i + 1).is_some_and(|c| c.is_punct("::"))
            && ident(i + 2).is_some();
        let unqualified = using
            && ident(i).is_some_and(|w| DISTINCTIVE.contains(&w))
            && !out.last().is_some_and(|p| p.is_punct(".") || p.is_punct("->"));
        if qualified || unqualified {
            let at = if qualified { i + 2 } else { i };
            let name = ident(at).unwrap_or_default();
            let mut merged = tokens[at].clone();
            merged.tok = Tok::Ident(alloc::format!("{CG}{name}"));
            merged.span = t.span.to(tokens[at].span);
            merged.line_start = t.line_start;
            out.push(merged);
            i = at + 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    template_arguments(out, diags)
}

/// The template arguments of cooperative-groups names, rewritten.
fn template_arguments(tokens: Vec<Token>, diags: &mut Diags) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        out.push(tokens[i].clone());
        i = match &tokens[i].tok {
            Tok::Ident(w) if w.starts_with(CG) && tokens.get(i + 1).is_some_and(|t| t.is_punct("<")) => {
                rewrite_arguments(&tokens, i + 1, &w[CG.len()..], &mut out, diags)
            }
            _ => i + 1,
        };
    }
    out
}

/// After the cooperative-groups name `name` (already written to `out`), its template
/// arguments from `next`; returns where to go on.
fn rewrite_arguments(tokens: &[Token], next: usize, name: &str, out: &mut Vec<Token>, diags: &mut Diags) -> usize {
    let Some(close) = tokens[next..].iter().position(|t| t.is_punct(">") || t.is_punct(";")).map(|k| next + k) else {
        return next;
    };
    if !tokens[close].is_punct(">") {
        diags.error(tokens[next].span, "expected `>` to close the template arguments");
        return close;
    }
    let arguments = &tokens[next + 1..close];
    if name != "tiled_partition" || !tokens.get(close + 1).is_some_and(|t| t.is_punct("(")) {
        return close + 1;
    }
    // `tiled_partition<N>(g)`: `tiled_partition(g, N)`.
    let open = close + 1;
    let Some(end) = matching_close(tokens, open) else { return close + 1 };
    out.extend(tokens[open..end].iter().cloned());
    let mut comma = tokens[close].clone();
    comma.tok = Tok::Punct(",");
    out.push(comma);
    out.extend(arguments.iter().cloned());
    end
}
