//! Function templates, after macro expansion: `template <typename T, int N> __device__ T f(…)`
//! is kept aside, and each use with arguments, `f<float, 4>(…)` or a launch
//! `k<256><<<g, b>>>(…)`, becomes a call of a function named `f<float, 4>`, made once from
//! the template's tokens with each parameter replaced by its argument (a value that is more
//! than one token in parentheses) and placed where the template was. Uses inside an instance
//! are found the same way, so templates may use each other. Arguments must be written out:
//! they are not deduced from a call's arguments.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::diag::Diags;
use super::lexer::{matching_close, Tok, Token};

/// Most instances of templates one file may make: a bound on templates that instantiate
/// themselves without end.
const MAX_INSTANCES: usize = 256;

struct Param {
    name: String,
    default: Option<Vec<Token>>,
}

struct Template {
    name: String,
    params: Vec<Param>,
    /// The definition after `template <…>`, from its first token to its closing `}`.
    body: Vec<Token>,
    /// Where in the output its instances go.
    insert_at: usize,
    /// Its instances: the name of each and its tokens.
    instances: Vec<(String, Vec<Token>)>,
}

pub(super) fn instantiate(tokens: Vec<Token>, diags: &mut Diags) -> Vec<Token> {
    if !tokens.iter().any(|t| t.is_ident("template")) {
        return tokens;
    }
    let mut templates: Vec<Template> = Vec::new();
    let mut rest: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is_ident("template") && tokens.get(i + 1).is_some_and(|t| t.is_punct("<")) {
            i = definition(&tokens, i, rest.len(), &mut templates, diags);
            continue;
        }
        rest.push(tokens[i].clone());
        i += 1;
    }
    let mut made = 0;
    let rest = rewrite(&rest, &mut templates, &mut made, diags);
    // Instances may use templates too: rewrite each until none is left new.
    let mut next = 0;
    while let Some((t, k)) = pending(&templates, &mut next) {
        let body = core::mem::take(&mut templates[t].instances[k].1);
        let rewritten = rewrite(&body, &mut templates, &mut made, diags);
        templates[t].instances[k].1 = rewritten;
    }
    let mut out = Vec::with_capacity(rest.len());
    let mut at = 0;
    for t in &templates {
        out.extend(rest[at..t.insert_at].iter().cloned());
        at = t.insert_at;
        for (_, body) in &t.instances {
            out.extend(body.iter().cloned());
        }
    }
    out.extend(rest[at..].iter().cloned());
    out
}

/// The `n`-th instance made overall (templates in order, then instances in order), if
/// there is one, as (template, instance); advances `n`.
fn pending(templates: &[Template], n: &mut usize) -> Option<(usize, usize)> {
    // Instances are appended as they are made, so counting them again in a fixed order
    // finds every one exactly once whatever template it belongs to.
    let mut seen = 0;
    for (t, template) in templates.iter().enumerate() {
        for k in 0..template.instances.len() {
            if seen == *n {
                *n += 1;
                return Some((t, k));
            }
            seen += 1;
        }
    }
    None
}

/// The first `(` or `{` in `tokens[from..end]` outside a `__launch_bounds__(…)`: a function's
/// parameters (its name just before) or a body.
fn parameters_or_body(tokens: &[Token], from: usize, end: usize) -> Option<usize> {
    let mut k = from;
    while k < end {
        let t = &tokens[k];
        if t.is_ident("__launch_bounds__") && tokens.get(k + 1).is_some_and(|n| n.is_punct("(")) {
            let mut depth = 0u32;
            k += 1;
            while k < end {
                depth = if tokens[k].is_punct("(") { depth + 1 } else { depth - tokens[k].is_punct(")") as u32 };
                k += 1;
                if depth == 0 {
                    break;
                }
            }
            continue;
        }
        if t.is_punct("(") || t.is_punct("{") {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// Reads `template <params> definition` at `start`; returns where the next token is.
fn definition(
    tokens: &[Token],
    start: usize,
    insert_at: usize,
    templates: &mut Vec<Template>,
    diags: &mut Diags,
) -> usize {
    let at = tokens[start].span;
    let Some(close) = closing_angle(tokens, start + 1) else {
        diags.error(at, "expected `>` to close the template's parameters");
        return tokens.len().saturating_sub(1);
    };
    let end = definition_end(tokens, close + 1);
    let header_end = parameters_or_body(tokens, close + 1, end);
    let is_function =
        header_end.is_some_and(|h| tokens[h].is_punct("(")) && tokens[end.min(tokens.len() - 1)].is_punct("}");
    if close == start + 2 {
        diags.error(at, "explicit specializations (`template <>`) are not supported");
        return end + 1;
    }
    if tokens[close + 1..end].iter().any(|t| t.is_ident("struct") || t.is_ident("class")) && !is_function {
        diags.error(at, "class templates are not supported; only function templates");
        return end + 1;
    }
    let Some(paren) = header_end.filter(|_| is_function) else {
        // A declaration ahead of the definition: the definition is what counts.
        return end + 1;
    };
    let name_at = paren - 1;
    let Tok::Ident(name) = &tokens[name_at].tok else {
        diags.error(tokens[name_at].span, "expected the template function's name before `(`");
        return end + 1;
    };
    let mut params = Vec::new();
    for p in split_arguments(&tokens[start + 2..close]) {
        let eq = p.iter().position(|t| t.is_punct("="));
        let decl = &p[..eq.unwrap_or(p.len())];
        let Some(Token { tok: Tok::Ident(pname), .. }) = decl.last() else {
            diags.error(p.first().map_or(at, |t| t.span), "expected a template parameter's name");
            return end + 1;
        };
        params.push(Param { name: pname.clone(), default: eq.map(|e| p[e + 1..].to_vec()) });
    }
    let body = tokens[close + 1..=end].to_vec();
    templates.push(Template { name: name.clone(), params, body, insert_at, instances: Vec::new() });
    end + 1
}

/// Replaces every `name<args>` of a template in `tokens` by its instance's name, making the
/// instance where it is new.
fn rewrite(tokens: &[Token], templates: &mut [Template], made: &mut usize, diags: &mut Diags) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let Some(ti) = (match &t.tok {
            Tok::Ident(w) => templates.iter().position(|tp| &tp.name == w),
            _ => None,
        }) else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        let close = tokens.get(i + 1).filter(|n| n.is_punct("<")).and_then(|_| closing_angle(tokens, i + 1));
        let Some(close) = close else {
            if tokens.get(i + 1).is_some_and(|n| n.is_punct("(") || n.is_punct("<<<")) {
                let name = &templates[ti].name;
                diags.error(
                    t.span,
                    format!("`{name}` is a template: write its arguments, `{name}<…>`; they are not deduced here"),
                );
            }
            out.push(t.clone());
            i += 1;
            continue;
        };
        let args = split_arguments(&tokens[i + 2..close]);
        let template = &templates[ti];
        if args.len() > template.params.len() {
            diags.error(
                t.span,
                format!("`{}` takes {} template arguments, got {}", template.name, template.params.len(), args.len()),
            );
            i = close + 1;
            continue;
        }
        let mut bound: Vec<(String, Vec<Token>)> = Vec::new();
        let mut missing = None;
        for (k, p) in template.params.iter().enumerate() {
            let value = match (args.get(k), &p.default) {
                (Some(a), _) => a.to_vec(),
                (None, Some(d)) => substitute(d, &bound),
                (None, None) => {
                    missing = Some(p.name.clone());
                    break;
                }
            };
            bound.push((p.name.clone(), value));
        }
        if let Some(p) = missing {
            diags.error(t.span, format!("`{}` needs a template argument for `{p}`", template.name));
            i = close + 1;
            continue;
        }
        let texts: Vec<String> = bound.iter().map(|(_, v)| text(v)).collect();
        let instance = format!("{}<{}>", template.name, texts.join(", "));
        if !templates[ti].instances.iter().any(|(n, _)| *n == instance) {
            *made += 1;
            if *made > MAX_INSTANCES {
                if *made == MAX_INSTANCES + 1 {
                    diags.error(t.span, format!("more than {MAX_INSTANCES} template instances: does a template instantiate itself without end?"));
                }
            } else {
                let template = &templates[ti];
                let mut body = substitute(&template.body, &bound);
                if let Some(at) = name_position(&body, &template.name) {
                    body[at].tok = Tok::Ident(instance.clone());
                }
                templates[ti].instances.push((instance.clone(), body));
            }
        }
        let mut named = t.clone();
        named.tok = Tok::Ident(instance);
        named.span = t.span.to(tokens[close].span);
        out.push(named);
        i = close + 1;
    }
    out
}

/// Where the function's name is in a definition's tokens: its first use before a `(`.
fn name_position(body: &[Token], name: &str) -> Option<usize> {
    body.windows(2).position(|w| w[0].is_ident(name) && w[1].is_punct("("))
}

/// `tokens` with each parameter's name replaced by its value (in parentheses where the value
/// is more than one token and stands in an expression).
fn substitute(tokens: &[Token], bound: &[(String, Vec<Token>)]) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        let value = match &t.tok {
            Tok::Ident(w) => bound.iter().find(|(n, _)| n == w).map(|(_, v)| v),
            _ => None,
        };
        match value {
            Some(v) if v.len() > 1 && !is_type(v) => {
                out.push(Token { tok: Tok::Punct("("), ..t.clone() });
                out.extend(v.iter().map(|x| Token { span: t.span, ..x.clone() }));
                out.push(Token { tok: Tok::Punct(")"), ..t.clone() });
            }
            Some(v) => out.extend(v.iter().map(|x| Token { span: t.span, line_start: t.line_start, ..x.clone() })),
            None => out.push(t.clone()),
        }
    }
    out
}

/// Whether a template argument is a type (`unsigned int`, `float*`): words and stars only.
fn is_type(value: &[Token]) -> bool {
    value.iter().all(|t| matches!(t.tok, Tok::Ident(_)) || t.is_punct("*"))
}

/// A template argument as written, for an instance's name: `256`, `unsigned int`, `N * 2`.
fn text(value: &[Token]) -> String {
    let mut s = String::new();
    for (k, t) in value.iter().enumerate() {
        let word = match &t.tok {
            Tok::Ident(w) => w.clone(),
            Tok::Int { value, unsigned } => format!("{value}{}", if *unsigned { "u" } else { "" }),
            Tok::Long { value, unsigned } => format!("{value}{}ll", if *unsigned { "u" } else { "" }),
            Tok::Float(f) => format!("{f}f"),
            Tok::Double(d) => format!("{d}"),
            Tok::Punct(p) => String::from(*p),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Eof => String::new(),
        };
        if k > 0 && !(t.is_punct("*") && is_type(value)) {
            s.push(' ');
        }
        s.push_str(&word);
    }
    s
}

/// The `>` that closes the `<` at `open` (parentheses nest; a `>` inside them is a
/// comparison), or `None` if a `;` or `{` comes first.
fn closing_angle(tokens: &[Token], open: usize) -> Option<usize> {
    let (mut angles, mut parens) = (0usize, 0usize);
    for (k, t) in tokens.iter().enumerate().skip(open) {
        match &t.tok {
            Tok::Punct("(") => parens += 1,
            Tok::Punct(")") => parens = parens.checked_sub(1)?,
            Tok::Punct("<") if parens == 0 => angles += 1,
            Tok::Punct(">") if parens == 0 => {
                angles -= 1;
                if angles == 0 {
                    return Some(k);
                }
            }
            Tok::Punct(";") | Tok::Punct("{") | Tok::Eof => return None,
            _ => {}
        }
    }
    None
}

/// The last token of the definition starting at `from`: its closing `}`, or the `;` of a
/// declaration.
fn definition_end(tokens: &[Token], from: usize) -> usize {
    // Eof is always last: an unclosed definition runs to the token before it.
    let unclosed = tokens.len().saturating_sub(2).max(from);
    for (k, t) in tokens.iter().enumerate().skip(from) {
        match &t.tok {
            Tok::Punct("{") => return matching_close(tokens, k).unwrap_or(unclosed),
            Tok::Punct("}") | Tok::Punct(";") => return k,
            Tok::Eof => return unclosed,
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// Splits template arguments or parameters at the commas outside parentheses and angles.
fn split_arguments(tokens: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (k, t) in tokens.iter().enumerate() {
        match &t.tok {
            Tok::Punct("(") | Tok::Punct("<") => depth += 1,
            Tok::Punct(")") | Tok::Punct(">") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                parts.push(&tokens[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    if from < tokens.len() {
        parts.push(&tokens[from..]);
    }
    parts
}
