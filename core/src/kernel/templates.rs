//! Templates, after macro expansion: `template <typename T, int N> __device__ T f(…)` (or a
//! `struct`/`class` template) is kept aside, and each use with arguments, `f<float, 4>(…)`, a
//! launch `k<256><<<g, b>>>(…)` or a type `Buf<int, 64>`, names an instance, `f<float, 4>`,
//! made once from the template's tokens with each parameter replaced by its argument (a value
//! that is more than one token in parentheses) and placed where the template was. Uses
//! inside an instance are found the same way, so templates may use each other; a template
//! defined inside a class template's instance (a member template) is that instance's own,
//! seen from its code first, and `object.f<…>()` makes `f`'s instance in every struct that
//! has a member template `f`, as the object's type is not known here.
//!
//! A call that writes no arguments, `f(x, 2)`, is left as it is: the types of its arguments
//! are known only to code generation, which deduces the template's arguments from them
//! (`deduce.rs`, from the [`FunctionTemplate`]s described here) and asks for the instance
//! with a [`Request`]; the file is then read again with the instances asked for made too.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::diag::{Diags, Span};
use super::lexer::{matching_close, Tok, Token};

/// Most instances of templates one file may make: a bound on templates that instantiate
/// themselves without end.
const MAX_INSTANCES: usize = 256;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Param {
    pub name: String,
    /// A type (`typename T`, `class T`) rather than a value (`int N`).
    pub is_type: bool,
    pub default: Option<Vec<Token>>,
}

/// A function template as code generation sees it, to deduce its arguments at a call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FunctionTemplate {
    pub name: String,
    /// The struct whose member it is (the innermost `struct`/`class` around its definition,
    /// a class template's instance by its instance's name), or `None` at file scope.
    pub owner: Option<String>,
    pub params: Vec<Param>,
    /// A `static` member function template, called without an object.
    pub is_static: bool,
    /// Each function parameter's declaration as written (`const T & n`), in order.
    pub patterns: Vec<Vec<Token>>,
}

/// A struct made from a class template: its name, its template's, and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClassInstance {
    pub name: String,
    pub template: String,
    pub args: Vec<Vec<Token>>,
}

/// An instance of a function template that a call needs, its arguments deduced.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub owner: Option<String>,
    pub name: String,
    pub args: Vec<Vec<Token>>,
    /// The call that asked first, for an error about it.
    pub at: Span,
}

impl PartialEq for Request {
    fn eq(&self, other: &Request) -> bool {
        let same_args =
            self.args.len() == other.args.len() && self.args.iter().zip(&other.args).all(|(a, b)| text(a) == text(b));
        self.owner == other.owner && self.name == other.name && same_args
    }
}

/// What the templates of a file leave for code generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TemplateInfo {
    pub functions: Vec<FunctionTemplate>,
    pub classes: Vec<ClassInstance>,
    /// The requests this reading was made with.
    pub given: Vec<Request>,
    /// Requests code generation makes: instances the next reading should make.
    pub asked: RefCell<Vec<Request>>,
}

impl FunctionTemplate {
    /// The name of this template's instance for `args` (defaults fill the rest), as a use
    /// that writes them names it.
    pub(crate) fn instance_name(&self, args: &[Vec<Token>]) -> Result<String, String> {
        Ok(instance_name(&self.name, &bind(&self.name, &self.params, args)?))
    }
}

struct Template {
    name: String,
    params: Vec<Param>,
    /// The struct it is a member of (see [`FunctionTemplate::owner`]).
    owner: Option<String>,
    /// The definition after `template <…>`, from its first token to its closing `}` (and a
    /// struct's `;`).
    body: Vec<Token>,
    /// A `struct` or `class` template, whose instances are structs.
    class: bool,
    /// The instance whose body defines it (a member template of a class template's
    /// instance), or `None` for one at file scope or in a plain struct.
    container: Option<(usize, usize)>,
    /// Its instances: the name of each, its tokens, and its arguments.
    instances: Vec<(String, Vec<Token>, Vec<Vec<Token>>)>,
}

/// Most templates defined inside one another's instances: a bound on the nesting that
/// assembling the output follows.
const MAX_NESTING: usize = 32;

/// The start of a marker token's name: a place where a template was defined, which its
/// instances replace. No identifier of a source file can contain the control character.
const MARK: &str = "\u{1}template ";

/// `tokens` with templates replaced by their instances: those named with arguments, and
/// those `requests` ask for.
pub(super) fn instantiate(tokens: Vec<Token>, requests: &[Request], diags: &mut Diags) -> (Vec<Token>, TemplateInfo) {
    let mut info = TemplateInfo { given: requests.to_vec(), ..TemplateInfo::default() };
    if !tokens.iter().any(|t| t.is_ident("template")) {
        return (tokens, info);
    }
    let mut templates: Vec<Template> = Vec::new();
    let rest = extract(&tokens, None, &mut templates, diags);
    let mut made = Made::default();
    let rest = rewrite(&rest, None, &mut templates, &mut made, diags);
    // Instances may define and use templates too: each in turn, in the order they were
    // made, until none is left new; then those asked for whose template exists by then.
    let mut next = 0;
    let mut pending: Vec<&Request> = requests.iter().collect();
    loop {
        while let Some(&(t, k)) = made.order.get(next) {
            next += 1;
            let body = core::mem::take(&mut templates[t].instances[k].1);
            let rewritten = rewrite(&body, Some((t, k)), &mut templates, &mut made, diags);
            templates[t].instances[k].1 = rewritten;
        }
        let before = made.order.len();
        pending.retain(|r| {
            let found = templates.iter().position(|tp| !tp.class && tp.name == r.name && tp.owner == r.owner);
            let Some(ti) = found else { return true };
            let at = Token { tok: Tok::Ident(r.name.clone()), span: r.at, logical_line: 0, line_start: false };
            instance(ti, &r.args, &at, &mut templates, &mut made, diags);
            false
        });
        if made.order.len() == before {
            break;
        }
    }
    let mut out = Vec::with_capacity(rest.len());
    emit(&rest, &templates, &mut out);
    for tp in &templates {
        if tp.class {
            for (name, _, args) in &tp.instances {
                info.classes.push(ClassInstance { name: name.clone(), template: tp.name.clone(), args: args.clone() });
            }
        } else {
            let name_at = name_position(&tp.body, &tp.name).unwrap_or(0);
            info.functions.push(FunctionTemplate {
                name: tp.name.clone(),
                owner: tp.owner.clone(),
                params: tp.params.clone(),
                is_static: tp.body[..name_at].iter().any(|t| t.is_ident("static")),
                patterns: function_parameters(&tp.body, &tp.name),
            });
        }
    }
    (out, info)
}

/// The parameter declarations of the function `name` defined by `body`.
fn function_parameters(body: &[Token], name: &str) -> Vec<Vec<Token>> {
    let Some(at) = name_position(body, name) else { return Vec::new() };
    let Some(close) = matching_close(body, at + 1) else { return Vec::new() };
    let inside = &body[at + 2..close];
    if inside.is_empty() || (inside.len() == 1 && inside[0].is_ident("void")) {
        return Vec::new();
    }
    split_arguments(inside).into_iter().map(<[Token]>::to_vec).collect()
}

/// `tokens` with each template definition taken out into `templates` (defined in
/// `container`), a marker left where it was.
fn extract(
    tokens: &[Token],
    container: Option<(usize, usize)>,
    templates: &mut Vec<Template>,
    diags: &mut Diags,
) -> Vec<Token> {
    let mut rest: Vec<Token> = Vec::with_capacity(tokens.len());
    // The structs whose bodies enclose the token at `i`, each with the brace depth inside it.
    let mut structs: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                if structs.last().is_some_and(|&(_, d)| d == depth) {
                    structs.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {
                if let Some((name, _)) = super::class_scope::struct_definition(tokens, i) {
                    // Named as `class_scope.rs` will name it: inside another, `Outer::Name`.
                    let name = match structs.last() {
                        Some((outer, _)) => super::class_scope::nested_name(outer, name),
                        None => name.clone(),
                    };
                    structs.push((name, depth + 1));
                }
            }
        }
        if tokens[i].is_ident("template") && tokens.get(i + 1).is_some_and(|t| t.is_punct("<")) {
            let before = templates.len();
            let at = tokens[i].clone();
            let owner = structs.last().map(|(n, _)| n.clone());
            i = definition(tokens, i, container, owner, templates, diags);
            if templates.len() > before {
                rest.push(Token { tok: Tok::Ident(format!("{MARK}{before}")), ..at });
            }
            continue;
        }
        rest.push(tokens[i].clone());
        i += 1;
    }
    rest
}

/// `tokens` into `out`, each marker replaced by its template's instances (themselves
/// expanded).
fn emit(tokens: &[Token], templates: &[Template], out: &mut Vec<Token>) {
    for t in tokens {
        let marked = match &t.tok {
            Tok::Ident(w) => w.strip_prefix(MARK).and_then(|n| n.parse::<usize>().ok()),
            _ => None,
        };
        match marked.and_then(|n| templates.get(n)) {
            Some(template) => template.instances.iter().for_each(|(_, body, _)| emit(body, templates, out)),
            None => out.push(t.clone()),
        }
    }
}

/// How many instances contain the code of `scope` (the instance itself included).
fn depth(templates: &[Template], mut scope: Option<(usize, usize)>) -> usize {
    let mut n = 0;
    while let Some((t, _)) = scope {
        n += 1;
        scope = templates[t].container;
    }
    n
}

/// The template named `name` seen from code in `scope`: the innermost one of that name
/// defined in `scope` or an instance containing it, else one at file scope.
fn visible(templates: &[Template], name: &str, mut scope: Option<(usize, usize)>) -> Option<usize> {
    loop {
        if let Some(t) = templates.iter().position(|tp| tp.name == name && tp.container == scope) {
            return Some(t);
        }
        let (t, _) = scope?;
        scope = templates[t].container;
    }
}

/// The instances made so far, in order, as (template, instance); how many were asked for.
#[derive(Default)]
struct Made {
    order: Vec<(usize, usize)>,
    asked: usize,
    /// Template arguments being named inside one another's.
    level: usize,
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

/// Reads `template <params> definition` at `start` (in code of `container`); returns where
/// the next token is.
fn definition(
    tokens: &[Token],
    start: usize,
    container: Option<(usize, usize)>,
    owner: Option<String>,
    templates: &mut Vec<Template>,
    diags: &mut Diags,
) -> usize {
    let at = tokens[start].span;
    let Some(close) = closing_angle(tokens, start + 1) else {
        diags.error(at, "expected `>` to close the template's parameters");
        return tokens.len().saturating_sub(1);
    };
    let mut end = definition_end(tokens, close + 1);
    let header_end = parameters_or_body(tokens, close + 1, end);
    let is_function =
        header_end.is_some_and(|h| tokens[h].is_punct("(")) && tokens[end.min(tokens.len() - 1)].is_punct("}");
    if close == start + 2 {
        diags.error(at, "explicit specializations (`template <>`) are not supported");
        return end + 1;
    }
    // `template <…> struct Name { … };` (or `class`, or `struct Name : Base<…> {`).
    let keyword = (close + 1..end).find(|&k| tokens[k].is_ident("struct") || tokens[k].is_ident("class"));
    let class = !is_function && keyword.is_some() && tokens[end.min(tokens.len() - 1)].is_punct("}");
    if !is_function && keyword.is_some() && !class {
        // `template <…> struct Name;`: a declaration ahead of the definition.
        return end + 1;
    }
    if depth(templates, container) >= MAX_NESTING {
        diags.error(at, format!("templates are defined inside one another more than {MAX_NESTING} deep"));
        return end + 1;
    }
    let name_at = match (class, header_end.filter(|_| is_function)) {
        (true, _) => keyword.map_or(end, |k| k + 1),
        (false, Some(paren)) => paren - 1,
        // A declaration ahead of the definition: the definition is what counts.
        (false, None) => return end + 1,
    };
    let Some(Tok::Ident(name)) = tokens.get(name_at).map(|t| &t.tok) else {
        let what = if class { "the struct template's name" } else { "the template function's name before `(`" };
        diags.error(tokens[name_at.min(tokens.len() - 1)].span, format!("expected {what}"));
        return end + 1;
    };
    if class && tokens.get(end + 1).is_some_and(|t| t.is_punct(";")) {
        end += 1;
    }
    let mut params = Vec::new();
    for p in split_arguments(&tokens[start + 2..close]) {
        let eq = p.iter().position(|t| t.is_punct("="));
        let decl = &p[..eq.unwrap_or(p.len())];
        let Some(Token { tok: Tok::Ident(pname), .. }) = decl.last() else {
            diags.error(p.first().map_or(at, |t| t.span), "expected a template parameter's name");
            return end + 1;
        };
        let is_type = decl.first().is_some_and(|t| t.is_ident("typename") || t.is_ident("class"));
        params.push(Param { name: pname.clone(), is_type, default: eq.map(|e| p[e + 1..].to_vec()) });
    }
    let body = tokens[close + 1..=end].to_vec();
    templates.push(Template { name: name.clone(), params, owner, body, class, container, instances: Vec::new() });
    end + 1
}

/// Replaces every `name<args>` of a template in `tokens` by its instance's name, making the
/// instance where it is new.
fn rewrite(
    tokens: &[Token],
    scope: Option<(usize, usize)>,
    templates: &mut Vec<Template>,
    made: &mut Made,
    diags: &mut Diags,
) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let Tok::Ident(word) = &t.tok else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        // `object.f<…>(…)` where no `f` is in sight: a member template of the object's struct,
        // whose type is not known here, so it is made in every struct that has an `f`.
        let member = matches!(out.last(), Some(p) if p.is_punct(".") || p.is_punct("->"));
        let targets: Vec<usize> = match visible(templates, word, scope) {
            Some(ti) => alloc::vec![ti],
            None if member => (0..templates.len()).filter(|&k| templates[k].name == *word).collect(),
            None => Vec::new(),
        };
        if targets.is_empty() {
            out.push(t.clone());
            i += 1;
            continue;
        }
        let close = tokens.get(i + 1).filter(|n| n.is_punct("<")).and_then(|_| closing_angle(tokens, i + 1));
        let Some(close) = close else {
            // A call without arguments is deduced where its arguments' types are known; a
            // launch must write them.
            if tokens.get(i + 1).is_some_and(|n| n.is_punct("<<<")) {
                diags.error(t.span, format!("`{word}` is a kernel template: write its arguments, `{word}<…><<<…>>>`"));
            }
            out.push(t.clone());
            i += 1;
            continue;
        };
        // Arguments that are instances themselves (`apply<Add<5>>`) are named first.
        let mut args: Vec<Vec<Token>> = split_arguments(&tokens[i + 2..close]).iter().map(|a| a.to_vec()).collect();
        if args.iter().any(|a| a.iter().any(|t| t.is_punct("<"))) {
            if made.level >= MAX_NESTING {
                diags.error(t.span, format!("template arguments nest more than {MAX_NESTING} deep"));
                i = close + 1;
                continue;
            }
            made.level += 1;
            args = args.iter().map(|a| rewrite(a, scope, templates, made, diags)).collect();
            made.level -= 1;
        }
        let mut name = None;
        for ti in targets {
            name = name.or(instance(ti, &args, t, templates, made, diags));
        }
        if let Some(instance) = name {
            let mut named = t.clone();
            named.tok = Tok::Ident(instance);
            named.span = t.span.to(tokens[close].span);
            out.push(named);
        }
        i = close + 1;
    }
    out
}

/// The instance of template `ti` for arguments `args` (written at `t`), made if it is new;
/// its name, or `None` after an error.
fn instance(
    ti: usize,
    args: &[Vec<Token>],
    t: &Token,
    templates: &mut Vec<Template>,
    made: &mut Made,
    diags: &mut Diags,
) -> Option<String> {
    let template = &templates[ti];
    let bound = match bind(&template.name, &template.params, args) {
        Ok(bound) => bound,
        Err(message) => {
            diags.error(t.span, message);
            return None;
        }
    };
    let mut instance = instance_name(&template.name, &bound);
    if let (true, Some((c, k))) = (template.class, template.container) {
        // A class template inside a class template's instance makes that instance's own
        // types: `Outer<64>::Column<true>`.
        instance = super::class_scope::nested_name(&templates[c].instances[k].0, &instance);
    }
    if templates[ti].instances.iter().any(|(n, _, _)| *n == instance) {
        return Some(instance);
    }
    made.asked += 1;
    if made.asked > MAX_INSTANCES {
        if made.asked == MAX_INSTANCES + 1 {
            diags.error(
                t.span,
                format!(
                    "more than {MAX_INSTANCES} template instances: does a template instantiate itself without end?"
                ),
            );
        }
        return Some(instance);
    }
    let template = &templates[ti];
    let mut body = substitute(&template.body, &bound);
    if template.class {
        // The struct's own name, alone (its constructors, `Name& other`), is this instance;
        // `Name<…>` is rewritten as any use is.
        for k in 0..body.len() {
            let alone = !body.get(k + 1).is_some_and(|n| n.is_punct("<"));
            if body[k].is_ident(&template.name) && alone {
                body[k].tok = Tok::Ident(instance.clone());
            }
        }
    } else if let Some(at) = name_position(&body, &template.name) {
        body[at].tok = Tok::Ident(instance.clone());
    }
    // The templates it defines exist from now on, for the code that uses the instance.
    let k = templates[ti].instances.len();
    let body = extract(&body, Some((ti, k)), templates, diags);
    made.order.push((ti, k));
    let args = bound.into_iter().map(|(_, v)| v).collect();
    templates[ti].instances.push((instance.clone(), body, args));
    Some(instance)
}

/// Each parameter of template `name` with its value: the argument given, else its default
/// (itself in terms of the parameters before it).
fn bind(name: &str, params: &[Param], args: &[Vec<Token>]) -> Result<Vec<(String, Vec<Token>)>, String> {
    if args.len() > params.len() {
        return Err(format!("`{name}` takes {} template arguments, got {}", params.len(), args.len()));
    }
    let mut bound: Vec<(String, Vec<Token>)> = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let value = match (args.get(k), &p.default) {
            (Some(a), _) => a.clone(),
            (None, Some(d)) => substitute(d, &bound),
            (None, None) => return Err(format!("`{name}` needs a template argument for `{}`", p.name)),
        };
        bound.push((p.name.clone(), value));
    }
    Ok(bound)
}

/// The name of an instance: the template's and its arguments as written, `f<float, 4>`.
fn instance_name(name: &str, bound: &[(String, Vec<Token>)]) -> String {
    let texts: Vec<String> = bound.iter().map(|(_, v)| text(v)).collect();
    format!("{name}<{}>", texts.join(", "))
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
pub(crate) fn text(value: &[Token]) -> String {
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
pub(crate) fn split_arguments(tokens: &[Token]) -> Vec<&[Token]> {
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
