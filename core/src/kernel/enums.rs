//! Enumerations, after macro expansion: `enum Tag { A, B = 4, C };` (or `typedef enum { … }
//! Name;`) defines integer constants, so the definition goes and each later `A` becomes its
//! value (C's rule: the given value, else one more than the enumerator before, from 0); the
//! type, `enum Tag`, `Tag` or `Name`, is an `int`.

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
            let tag = match tokens.get(start + 1).map(|t| &t.tok) {
                Some(Tok::Ident(w)) if w != "class" => Some(w.clone()),
                _ => None,
            };
            let open = start + 1 + tag.is_some() as usize;
            if tokens.get(open).is_some_and(|o| o.is_punct("{")) {
                let Some(close) = tokens[open..].iter().position(|t| t.is_punct("}")).map(|k| open + k) else {
                    diags.error(t.span, "expected `}` to close the enumeration");
                    return out;
                };
                enumerators(&tokens[open + 1..close], &mut values, diags);
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
