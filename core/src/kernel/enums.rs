//! Enumerations, after macro expansion: `enum Tag { A, B = 4, C };` (or `typedef enum { … }
//! Name;`) defines integer constants, so the definition goes and each later `A` becomes its
//! value (C's rule: the given value, else one more than the enumerator before, from 0); the
//! type, `enum Tag`, `Tag` or `Name`, is an `int`. A scoped enumeration, `enum class Tag {
//! A, B };`, names its enumerators `Tag::A` (an unscoped one may be named so too); its values
//! are `int`s like the rest, so it converts where C++ would ask for a cast. An underlying
//! type (`enum Tag : unsigned char`) is read past: the values are `int`s all the same.

use alloc::string::String;
use alloc::vec::Vec;

use super::diag::Diags;
use super::lexer::{Tok, Token};

pub(super) fn resolve(tokens: Vec<Token>, diags: &mut Diags) -> Vec<Token> {
    if !tokens.iter().any(|t| t.is_ident("enum")) {
        return tokens;
    }
    let mut values: Vec<(String, Vec<Token>)> = Vec::new();
    let mut types: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let typedef = t.is_ident("typedef") && tokens.get(i + 1).is_some_and(|n| n.is_ident("enum"));
        let start = if typedef { i + 1 } else { i };
        if tokens[start].is_ident("enum") {
            // `enum class Name` (or `enum struct`): scoped, its enumerators named `Name::A`.
            let scoped = tokens.get(start + 1).is_some_and(|t| t.is_ident("class") || t.is_ident("struct"));
            let name_at = start + 1 + scoped as usize;
            let tag = match tokens.get(name_at).map(|t| &t.tok) {
                Some(Tok::Ident(w)) => Some(w.clone()),
                _ => None,
            };
            let mut open = name_at + tag.is_some() as usize;
            // `: unsigned char`, the underlying type: the values are `int`s here all the same.
            if tokens.get(open).is_some_and(|c| c.is_punct(":")) {
                while tokens.get(open).is_some_and(|t| !t.is_punct("{") && !t.is_punct(";") && t.tok != Tok::Eof) {
                    open += 1;
                }
            }
            if tokens.get(open).is_some_and(|o| o.is_punct("{")) {
                let Some(close) = tokens[open..].iter().position(|t| t.is_punct("}")).map(|k| open + k) else {
                    diags.error(t.span, "expected `}` to close the enumeration");
                    return out;
                };
                match (&tag, scoped) {
                    (Some(tag), true) => {
                        // Inside its braces the enumerators are unqualified; outside, `tag::A`.
                        let mut own = values.clone();
                        let before = own.len();
                        enumerators(&tokens[open + 1..close], &mut own, diags);
                        values.extend(own.drain(before..).map(|(n, v)| (alloc::format!("{tag}::{n}"), v)));
                    }
                    _ => enumerators(&tokens[open + 1..close], &mut values, diags),
                }
                types.extend(tag);
                let mut next = close + 1;
                if typedef {
                    // `typedef enum { … } Name;`: `Name` is an `int`.
                    if let Some(Token { tok: Tok::Ident(name), .. }) = tokens.get(next) {
                        types.push(name.clone());
                        next += 1;
                    }
                }
                if tokens.get(next).is_some_and(|s| s.is_punct(";")) {
                    next += 1;
                }
                i = next;
                continue;
            }
            if tag.as_ref().is_some_and(|tag| types.contains(tag)) {
                // `enum Tag x;`: an `int`.
                out.push(Token { tok: Tok::Ident(String::from("int")), ..tokens[start].clone() });
                i = start + 2;
                continue;
            }
        }
        let after_member = out.last().is_some_and(|p: &Token| p.is_punct(".") || p.is_punct("->"));
        // `Tag::A`: a scoped enumerator (or an unscoped one named through its type).
        if let (Tok::Ident(w), Some(c), Some(Token { tok: Tok::Ident(e), span, .. })) =
            (&t.tok, tokens.get(i + 1), tokens.get(i + 2))
        {
            if !after_member && c.is_punct("::") && types.contains(w) {
                let qualified = alloc::format!("{w}::{e}");
                let found = values.iter().find(|(n, _)| *n == qualified || n == e);
                if let Some((_, value)) = found {
                    let at = t.span.to(*span);
                    out.push(Token { tok: Tok::Punct("("), span: at, ..t.clone() });
                    out.extend(value.iter().map(|v| Token { span: at, ..v.clone() }));
                    out.push(Token { tok: Tok::Punct(")"), span: at, ..t.clone() });
                    i += 3;
                    continue;
                }
                diags.error(*span, alloc::format!("`{w}` has no enumerator `{e}`"));
                i += 3;
                continue;
            }
        }
        match &t.tok {
            Tok::Ident(w) if !after_member && types.contains(w) => {
                out.push(Token { tok: Tok::Ident(String::from("int")), ..t.clone() });
            }
            Tok::Ident(w) if !after_member => match values.iter().find(|(n, _)| n == w) {
                Some((_, value)) => {
                    out.push(Token { tok: Tok::Punct("("), ..t.clone() });
                    out.extend(value.iter().map(|v| Token { span: t.span, ..v.clone() }));
                    out.push(Token { tok: Tok::Punct(")"), ..t.clone() });
                }
                None => out.push(t.clone()),
            },
            _ => out.push(t.clone()),
        }
        i += 1;
    }
    out
}

/// Reads `A, B = 4, C` into `values` (each value as tokens, earlier enumerators spelled out).
fn enumerators(body: &[Token], values: &mut Vec<(String, Vec<Token>)>, diags: &mut Diags) {
    let mut previous: Option<Vec<Token>> = None;
    for item in body.split(|t| t.is_punct(",")) {
        let Some(first) = item.first() else { continue };
        let Tok::Ident(name) = &first.tok else {
            diags.error(first.span, "expected an enumerator's name");
            return;
        };
        let value: Vec<Token> = if item.get(1).is_some_and(|t| t.is_punct("=")) {
            spell(&item[2..], values)
        } else {
            match &previous {
                None => alloc::vec![Token { tok: Tok::Int { value: 0, unsigned: false }, ..first.clone() }],
                Some(p) => {
                    let mut v = alloc::vec![Token { tok: Tok::Punct("("), ..first.clone() }];
                    v.extend(p.iter().cloned());
                    v.push(Token { tok: Tok::Punct(")"), ..first.clone() });
                    v.push(Token { tok: Tok::Punct("+"), ..first.clone() });
                    v.push(Token { tok: Tok::Int { value: 1, unsigned: false }, ..first.clone() });
                    v
                }
            }
        };
        previous = Some(value.clone());
        values.push((name.clone(), value));
    }
}

/// `tokens` with earlier enumerators replaced by their values.
fn spell(tokens: &[Token], values: &[(String, Vec<Token>)]) -> Vec<Token> {
    let mut out = Vec::new();
    for t in tokens {
        match &t.tok {
            Tok::Ident(w) => match values.iter().find(|(n, _)| n == w) {
                Some((_, v)) => {
                    out.push(Token { tok: Tok::Punct("("), ..t.clone() });
                    out.extend(v.iter().cloned());
                    out.push(Token { tok: Tok::Punct(")"), ..t.clone() });
                }
                None => out.push(t.clone()),
            },
            _ => out.push(t.clone()),
        }
    }
    out
}
