//! Names a struct declares for its own code, after templates are instantiated: the
//! enumerators of an unscoped `enum`, the name of a scoped one (`enum class Mode`), the names
//! of `typedef`s and the structs nested in a struct's body belong to that struct. Its code
//! (member functions included) names them unqualified, other code as `S::NAME`. Each becomes one identifier, `S::NAME`, everywhere it means that declaration,
//! so the enumeration and typedef passes that follow, which know file-scope names only, see a
//! distinct name for each struct: two instances of a class template (`Buffer<64>` and
//! `Buffer<128>`) have enumerators of the same name and different values. `A::NAME` through a
//! typedef `A` of a struct is the struct's name.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::lexer::{matching_close, Tok, Token};

/// A struct's body in the tokens: its name, where its braces are, and what it declares.
struct Body {
    name: String,
    open: usize,
    close: usize,
    /// The struct whose body contains it.
    outer: Option<usize>,
    declared: Vec<String>,
    /// The typedefs among `declared` that name a struct (by one identifier): (name, struct).
    aliases: Vec<(String, String)>,
}

pub(super) fn resolve(tokens: Vec<Token>) -> Vec<Token> {
    let bodies = bodies(&tokens);
    if bodies.iter().all(|b| b.declared.is_empty()) {
        return tokens;
    }
    // The innermost body around each token.
    let mut around: Vec<Option<usize>> = alloc::vec![None; tokens.len()];
    for (b, body) in bodies.iter().enumerate() {
        // Bodies come in order of their opening brace, so an inner one is written later.
        around[body.open..=body.close].iter_mut().for_each(|a| *a = Some(b));
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let Tok::Ident(word) = &t.tok else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        let member = out.last().is_some_and(|p: &Token| p.is_punct(".") || p.is_punct("->") || p.is_punct("::"));
        // `A::NAME`, where `A` is a struct that declares it (or a typedef of one).
        if let (Some(colons), Some(Token { tok: Tok::Ident(name), span, .. })) = (tokens.get(i + 1), tokens.get(i + 2))
        {
            if colons.is_punct("::") && !member {
                let scoped = scoped_name(&bodies, around[i], word);
                let target = struct_named(&bodies, &scoped.unwrap_or_else(|| word.clone()));
                if let Some(b) = target.filter(|&b| bodies[b].declared.contains(name)) {
                    let tok = Tok::Ident(format!("{}::{name}", bodies[b].name));
                    out.push(Token { tok, span: t.span.to(*span), ..t.clone() });
                    i += 3;
                    continue;
                }
            }
        }
        match scoped_name(&bodies, around[i], word).filter(|_| !member) {
            Some(scoped) => out.push(Token { tok: Tok::Ident(scoped), ..t.clone() }),
            None => out.push(t.clone()),
        }
        i += 1;
    }
    out
}

/// The name of struct `name` defined inside struct `outer`: `Outer::Name` (a class template's
/// instance nested in another's is named so when it is made).
pub(super) fn nested_name(outer: &str, name: &str) -> String {
    if name.contains("::") {
        String::from(name)
    } else {
        format!("{outer}::{name}")
    }
}

/// `word` as named from code in body `at`: `S::word` for the innermost body around it that
/// declares `word`.
fn scoped_name(bodies: &[Body], mut at: Option<usize>, word: &str) -> Option<String> {
    while let Some(b) = at {
        if bodies[b].declared.iter().any(|d| d == word) {
            return Some(format!("{}::{word}", bodies[b].name));
        }
        at = bodies[b].outer;
    }
    None
}

/// The body of the struct `name` names: a struct's own name, or a typedef of one given as
/// `S::alias`.
fn struct_named(bodies: &[Body], name: &str) -> Option<usize> {
    let aliased = bodies.iter().find_map(|b| {
        let alias = name.strip_prefix(b.name.as_str())?.strip_prefix("::")?;
        b.aliases.iter().find(|(a, _)| a == alias).map(|(_, target)| target.as_str())
    });
    let name = aliased.unwrap_or(name);
    bodies.iter().position(|b| b.name == name)
}

/// Every struct body in `tokens` with the names it declares itself (not those of structs
/// nested in it).
fn bodies(tokens: &[Token]) -> Vec<Body> {
    let mut bodies: Vec<Body> = Vec::new();
    let mut open_bodies: Vec<usize> = Vec::new();
    for k in 0..tokens.len() {
        while open_bodies.last().is_some_and(|&b| bodies[b].close < k) {
            open_bodies.pop();
        }
        let Some((name, open)) = struct_definition(tokens, k) else { continue };
        let Some(close) = matching_close(tokens, open) else { continue };
        let (declared, aliases) = declarations(&tokens[open + 1..close]);
        let outer = open_bodies.last().copied();
        let name = outer.map_or(name.clone(), |o| nested_name(&bodies[o].name, name));
        bodies.push(Body { name, open, close, outer, declared, aliases });
        open_bodies.push(bodies.len() - 1);
    }
    bodies
}

/// The struct whose definition starts at `tokens[k]` (`struct Name … {`, or `class`, not
/// `enum class`): its name, and where its body opens.
pub(super) fn struct_definition(tokens: &[Token], k: usize) -> Option<(&String, usize)> {
    let keyword = tokens[k].is_ident("struct") || tokens[k].is_ident("class");
    if !keyword || (k > 0 && tokens[k - 1].is_ident("enum")) {
        return None;
    }
    let Some(Tok::Ident(name)) = tokens.get(k + 1).map(|n| &n.tok) else { return None };
    Some((name, body_start(tokens, k + 2)?))
}

/// Where the body of a struct whose name ends at `from` opens: the `{` after its bases.
fn body_start(tokens: &[Token], from: usize) -> Option<usize> {
    for (k, t) in tokens.iter().enumerate().skip(from) {
        match &t.tok {
            Tok::Punct("{") => return Some(k),
            Tok::Punct(";" | "(" | ")" | "=" | "*" | "&" | "}") | Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// The names declared directly in a body (nested braces skipped): enumerators of unscoped
/// `enum`s, scoped enums', typedefs' and nested structs' names; and the typedefs that name a
/// struct by one identifier.
fn declarations(body: &[Token]) -> (Vec<String>, Vec<(String, String)>) {
    let (mut declared, mut aliases) = (Vec::new(), Vec::new());
    let mut k = 0;
    while k < body.len() {
        let t = &body[k];
        if t.is_punct("{") {
            k = matching_close(body, k).map_or(body.len(), |c| c + 1);
            continue;
        }
        if let Some((name, open)) = struct_definition(body, k) {
            // A nested struct (one already named for its outer struct is left so).
            if !name.contains("::") {
                declared.push(name.clone());
            }
            k = matching_close(body, open).map_or(body.len(), |c| c + 1);
            continue;
        }
        let scoped_enum = body.get(k + 1).is_some_and(|n| n.is_ident("class") || n.is_ident("struct"));
        if let (true, true, Some(Token { tok: Tok::Ident(name), .. })) =
            (t.is_ident("enum"), scoped_enum, body.get(k + 2))
        {
            // `enum class Mode { … }`: the type's name is the struct's (its enumerators are
            // named through it, `Mode::Add`).
            declared.push(name.clone());
            k += 3;
            continue;
        }
        if t.is_ident("enum") && !scoped_enum {
            let Some(open) = (k + 1..body.len()).find(|&j| body[j].is_punct("{") || body[j].is_punct(";")) else {
                break;
            };
            let close = matching_close(body, open).unwrap_or(body.len());
            if body[open].is_punct("{") {
                let mut expect_name = true;
                let mut depth = 0i32;
                for e in &body[open + 1..close.min(body.len())] {
                    match &e.tok {
                        Tok::Punct("(") => depth += 1,
                        Tok::Punct(")") => depth -= 1,
                        Tok::Punct(",") if depth == 0 => expect_name = true,
                        Tok::Ident(w) if expect_name => {
                            declared.push(w.clone());
                            expect_name = false;
                        }
                        _ => expect_name = false,
                    }
                }
            }
            k = close + 1;
            continue;
        }
        if t.is_ident("typedef") {
            let end = (k..body.len()).find(|&j| body[j].is_punct(";") || body[j].is_punct("{")).unwrap_or(body.len());
            if body.get(end).is_some_and(|e| e.is_punct(";")) {
                if let Some(Token { tok: Tok::Ident(name), .. }) = body[..end].last() {
                    declared.push(name.clone());
                    if let [Token { tok: Tok::Ident(target), .. }, _] = &body[k + 1..end] {
                        aliases.push((name.clone(), target.clone()));
                    }
                }
            }
            k = end + 1;
            continue;
        }
        k += 1;
    }
    (declared, aliases)
}
