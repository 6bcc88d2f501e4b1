//! `#define NAME value`: object-like macros, expanded on the token stream. Overrides from the
//! compile options replace a definition's value (as `-D` would), which is how the app's knob
//! panel and the CLI change sizes without editing the file.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::diag::{Diags, Span};
use super::lexer::{lex, Tok, Token};
use super::Define;

/// Most tokens a file may grow to through expansion (macros can double at each level).
const MAX_EXPANDED_TOKENS: usize = 1 << 20;
/// Most macros being expanded inside one another.
const MAX_EXPANSION_DEPTH: usize = 200;

struct Macro {
    body: Vec<Token>,
}

struct Expander<'a> {
    macros: BTreeMap<String, Macro>,
    out: Vec<Token>,
    diags: &'a mut Diags,
    /// Set once the token budget is spent; expansion stops.
    exhausted: bool,
}

/// Unused overrides named one warning each; more are summed up in one.
const UNUSED_OVERRIDES_NAMED: usize = 3;

/// Runs the directives and expands macros. Returns the tokens the parser sees (ending in
/// `Eof`) and every `#define`, with the value in effect.
pub(crate) fn preprocess(
    src: &str,
    tokens: Vec<Token>,
    overrides: &[(String, String)],
    diags: &mut Diags,
) -> (Vec<Token>, Vec<Define>) {
    let mut defines = Vec::new();
    let mut used_overrides = alloc::vec![false; overrides.len()];
    let mut ex = Expander { macros: BTreeMap::new(), out: Vec::with_capacity(tokens.len()), diags, exhausted: false };
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
            directive(src, &tokens[i..end], overrides, &mut used_overrides, &mut defines, &mut ex);
            i = end;
            continue;
        }
        if t.is_punct("#") {
            ex.diags.error(t.span, "`#` must start a line (a directive such as `#define`)");
            i += 1;
            continue;
        }
        ex.token(t, 0, &mut Vec::new());
        i += 1;
    }
    let unused: Vec<&str> =
        overrides.iter().zip(&used_overrides).filter(|(_, used)| !**used).map(|((name, _), _)| name.as_str()).collect();
    let top = Span { line: 1, column: 1, offset: 0, len: 0 };
    if unused.len() <= UNUSED_OVERRIDES_NAMED {
        for name in unused {
            ex.diags.warning(top, format!("the override of `{name}` has no effect: the file has no `#define {name}`"));
        }
    } else {
        let named: Vec<String> = unused[..UNUSED_OVERRIDES_NAMED].iter().map(|n| format!("`{n}`")).collect();
        ex.diags.warning(
            top,
            format!(
                "the overrides of {} and {} more have no effect: the file has no `#define` for them",
                named.join(", "),
                unused.len() - UNUSED_OVERRIDES_NAMED
            ),
        );
    }
    let mut out = ex.out;
    if out.last().is_none_or(|t| t.tok != Tok::Eof) {
        let eof = tokens.last().cloned().unwrap_or(Token {
            tok: Tok::Eof,
            span: Span::default(),
            logical_line: 1,
            line_start: true,
        });
        out.push(Token { tok: Tok::Eof, ..eof });
    }
    (out, defines)
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
        "pragma" => {
            ex.diags.warning(hash.span.to(name_tok.span), "`#pragma` is ignored");
            return;
        }
        other => {
            ex.diags.error(
                hash.span.to(name_tok.span),
                format!("`#{other}` is not supported; the only directives are `#define` and `#undef`"),
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
        if open.is_punct("(") && open.span.offset == macro_tok.span.offset + macro_tok.span.len {
            ex.diags.error(
                open.span,
                format!("function-like macros are not supported (`{name}(`); define a __device__ function instead"),
            );
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
        let mut sub = Diags::default();
        body = lex(&value, &mut sub)
            .into_iter()
            .filter(|t| t.tok != Tok::Eof)
            .map(|t| Token { span: value_span, ..t })
            .collect();
        for d in sub.finish() {
            ex.diags.error(value_span, format!("in the value `{value}` given for `{name}`: {}", d.message));
        }
    }
    if ex.macros.contains_key(name) {
        ex.diags.warning(macro_tok.span, format!("`{name}` is redefined; the new value applies from here on"));
    }
    defines.push(Define { name: name.clone(), value, span: value_span });
    ex.macros.insert(name.clone(), Macro { body });
}

impl Expander<'_> {
    /// Emits `t`, expanding it if it names a macro not already being expanded (as in C, a
    /// macro does not expand inside itself).
    fn token(&mut self, t: &Token, depth: usize, active: &mut Vec<String>) {
        if self.exhausted {
            return;
        }
        if self.out.len() >= MAX_EXPANDED_TOKENS {
            self.diags.error(t.span, "macro expansion produces more than a million tokens");
            self.exhausted = true;
            return;
        }
        let Tok::Ident(name) = &t.tok else {
            self.out.push(t.clone());
            return;
        };
        if active.iter().any(|a| a == name) || !self.macros.contains_key(name) {
            self.out.push(t.clone());
            return;
        }
        if depth >= MAX_EXPANSION_DEPTH {
            self.diags
                .error(t.span, format!("macros nest more than {MAX_EXPANSION_DEPTH} levels deep expanding `{name}`"));
            self.exhausted = true;
            return;
        }
        let body = match self.macros.get(name) {
            Some(m) => m.body.clone(),
            None => return,
        };
        active.push(name.clone());
        for b in &body {
            // Expanded tokens point at the use, which is where an error makes sense to a reader.
            let at_use = Token { span: t.span, logical_line: t.logical_line, line_start: false, tok: b.tok.clone() };
            self.token(&at_use, depth + 1, active);
        }
        active.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, overrides: &[(&str, &str)]) -> (Vec<Tok>, Vec<Define>, Vec<super::super::Diagnostic>) {
        let mut d = Diags::default();
        let toks = lex(src, &mut d);
        let ov: Vec<(String, String)> = overrides.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let (out, defines) = preprocess(src, toks, &ov, &mut d);
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

    #[test]
    fn directive_errors_have_positions() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("#include <x>\n", (1, 1), "`#include` is not supported; the only directives are `#define` and `#undef`"),
            ("\n#define F(x) x\n", (2, 10), "function-like macros are not supported (`F(`); define a __device__ function instead"),
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
            "the overrides of `M0`, `M1`, `M2` and 997 more have no effect: the file has no `#define` for them"
        );
    }

    #[test]
    fn an_unused_override_is_a_warning() {
        let (_, _, d) = run("x", &[("NOPE", "1")]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].severity, super::super::Severity::Warning);
    }
}
