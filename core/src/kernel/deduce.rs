//! Template arguments deduced from a call: `divRndUp(n, 2)` for `template <typename T> T
//! divRndUp(const T& n, const T& d)` means `divRndUp<int>(n, 2)`, as C++ deduces it. Each
//! function parameter written in terms of the template's parameters is matched against its
//! argument's type, known here without generating code: `T` (or `const T&`) takes the
//! argument's type, `T*` a pointer's element, and `Name<…, P, …>` the argument of the class
//! template instance passed (`Column<CHECKED>& c` given a `Column<true>` deduces `CHECKED =
//! true`). Other forms deduce nothing, as in C++; a parameter deduced two ways, or not at
//! all without a default, is an error naming it. The instance needed may not exist yet: it
//! is asked for (`templates.rs` makes it when the file is read again). Part of
//! [`super::codegen::Gen`].

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::ast::Expr;
use super::codegen::Gen;
use super::diag::{Diags, Span};
use super::lexer::{Tok, Token};
use super::templates::{split_arguments, text, ClassInstance, FunctionTemplate, Param, Request};
use super::types::Ty;

impl Gen<'_, '_> {
    /// For a call of `name` with `args`, where no function of that name exists: the name of
    /// the instance of a function template `name` (a member of struct `owner`, or at file
    /// scope) that the arguments deduce, once `exists` says it is there. `None` if there is
    /// no such template; `Some(Err(()))` once an error is said (or the instance asked for).
    pub(super) fn deduced_instance(
        &mut self,
        owner: Option<&str>,
        name: &str,
        args: &[Expr],
        span: Span,
        exists: impl Fn(&Self, &str) -> bool,
    ) -> Option<Result<String, ()>> {
        let info = &self.unit.templates;
        let candidates: Vec<&FunctionTemplate> =
            info.functions.iter().filter(|f| f.name == name && f.owner.as_deref() == owner).collect();
        if candidates.is_empty() {
            return None;
        }
        let mut first_error = None;
        let mut chosen = None;
        for template in candidates {
            match self.deduce(template, args) {
                Ok(deduced) => {
                    chosen = Some((template, deduced));
                    break;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        let Some((template, deduced)) = chosen else {
            let message = first_error.unwrap_or_default();
            self.diags.error_help(span, message, format!("write the template arguments: `{name}<…>(…)`"));
            return Some(Err(()));
        };
        let instance = match template.instance_name(&deduced) {
            Ok(instance) => instance,
            Err(message) => {
                self.diags.error(span, message);
                return Some(Err(()));
            }
        };
        if exists(self, &instance) {
            return Some(Ok(instance));
        }
        let request = Request { owner: owner.map(String::from), name: String::from(name), args: deduced, at: span };
        if info.given.contains(&request) {
            self.diags.error(span, format!("the instance `{instance}` this call deduces could not be made"));
        } else {
            // Said only if the file is not read again, which it is to make the instance.
            self.diags.error(span, format!("the instance `{instance}` this call deduces is not made yet"));
            info.asked.borrow_mut().push(request);
        }
        Some(Err(()))
    }

    /// The arguments of `template` that a call with `args` deduces, each parameter in order
    /// up to the last deduced (defaults give the rest).
    fn deduce(&self, template: &FunctionTemplate, args: &[Expr]) -> Result<Vec<Vec<Token>>, String> {
        let name = &template.name;
        let required = template.patterns.iter().filter(|p| !p.iter().any(|t| t.is_punct("="))).count();
        if args.len() > template.patterns.len() || args.len() < required {
            return Err(format!(
                "`{name}` takes {} arguments, got {}",
                if required == template.patterns.len() {
                    format!("{required}")
                } else {
                    format!("{required} to {}", template.patterns.len())
                },
                args.len()
            ));
        }
        let mut bound: Vec<Option<Vec<Token>>> = vec![None; template.params.len()];
        for (k, (pattern, arg)) in template.patterns.iter().zip(args).enumerate() {
            let shape = Shape::of(pattern, &template.params);
            if !shape.mentions_parameter {
                continue;
            }
            let Some(ty) = self.static_type(arg).and_then(|ty| self.type_tokens(ty, arg.span)) else {
                return Err(format!(
                    "cannot tell the type of argument {} of `{name}` to deduce its template arguments",
                    k + 1
                ));
            };
            for (p, value) in shape.deduce(&ty, &self.unit.templates.classes) {
                let slot = &mut bound[p];
                match slot {
                    Some(before) if text(before) != text(&value) => {
                        return Err(format!(
                            "`{}` of `{name}` is deduced as both `{}` and `{}`",
                            template.params[p].name,
                            text(before),
                            text(&value)
                        ));
                    }
                    _ => *slot = Some(value),
                }
            }
        }
        let given = bound.iter().rposition(Option::is_some).map_or(0, |k| k + 1);
        let mut out = Vec::with_capacity(given);
        for (p, value) in template.params.iter().zip(&bound) {
            match value {
                Some(v) if out.len() < given => out.push(v.clone()),
                None if p.default.is_some() && out.len() >= given => {}
                _ => {
                    return Err(format!("cannot deduce `{}` of `{name}` from the call's arguments", p.name));
                }
            }
        }
        Ok(out)
    }

    /// `ty` as tokens of a template argument: `float`, `const int*`, a struct's name.
    fn type_tokens(&self, ty: Ty, at: Span) -> Option<Vec<Token>> {
        let word = |w: &str| Token { tok: Tok::Ident(String::from(w)), span: at, logical_line: 0, line_start: false };
        let star = Token { tok: Tok::Punct("*"), span: at, logical_line: 0, line_start: false };
        Some(match ty {
            Ty::Struct(id) => vec![word(&self.unit.structs[id as usize].name)],
            Ty::StructPtr { id, readonly } => {
                let mut out = if readonly { vec![word("const")] } else { Vec::new() };
                out.push(word(&self.unit.structs[id as usize].name));
                out.push(star);
                out
            }
            Ty::Void | Ty::Group(_) | Ty::Error => return None,
            _ => {
                let written = format!("{ty}");
                let written = written.trim_start_matches("__shared__ ");
                let mut tokens = super::lexer::lex(written, &mut Diags::default());
                tokens.retain(|t| t.tok != Tok::Eof);
                tokens.iter_mut().for_each(|t| t.span = at);
                tokens
            }
        })
    }
}

/// A function parameter's type as deduction reads it: its declaration without the name, the
/// qualifiers and the reference.
struct Shape<'p> {
    tokens: Vec<Token>,
    params: &'p [Param],
    /// Whether the declaration said `const` (so a deduced type leaves it out).
    is_const: bool,
    mentions_parameter: bool,
}

impl<'p> Shape<'p> {
    fn of(pattern: &[Token], params: &'p [Param]) -> Shape<'p> {
        let declared = &pattern[..pattern.iter().position(|t| t.is_punct("=")).unwrap_or(pattern.len())];
        let qualifier = |t: &Token| {
            ["const", "volatile", "__restrict__", "__restrict", "typename", "struct", "class"]
                .iter()
                .any(|q| t.is_ident(q))
                || t.is_punct("&")
                || t.is_punct("&&")
        };
        let is_const = declared.iter().any(|t| t.is_ident("const"));
        let mut tokens: Vec<Token> = declared.iter().filter(|t| !qualifier(t)).cloned().collect();
        // `T a[]` is `T* a`.
        if let Some(open) = tokens.iter().position(|t| t.is_punct("[")) {
            tokens.truncate(open);
            let name = tokens.pop();
            tokens.push(Token { tok: Tok::Punct("*"), ..name.unwrap_or_else(|| declared[0].clone()) });
        } else if tokens.len() >= 2
            && matches!(tokens.last().map(|t| &t.tok), Some(Tok::Ident(_)))
            && !tokens[tokens.len() - 2].is_punct("<")
            && !tokens[tokens.len() - 2].is_punct(",")
        {
            tokens.pop();
        }
        let mentions_parameter = tokens.iter().any(|t| params.iter().any(|p| t.is_ident(&p.name)));
        Shape { tokens, params, is_const, mentions_parameter }
    }

    /// The parameter named by `t`, if it is one.
    fn parameter(&self, t: &Token) -> Option<usize> {
        self.params.iter().position(|p| t.is_ident(&p.name))
    }

    /// What matching the argument type `arg` against this shape deduces: (parameter, value).
    fn deduce(&self, arg: &[Token], classes: &[ClassInstance]) -> Vec<(usize, Vec<Token>)> {
        let t = &self.tokens;
        let stars = t.iter().rev().take_while(|x| x.is_punct("*")).count();
        let arg_stars = arg.iter().rev().take_while(|x| x.is_punct("*")).count();
        // `T`, `T*`, `T**`: the argument's type with as many `*` taken off.
        if t.len() == stars + 1 && arg_stars >= stars {
            if let Some(p) = self.parameter(&t[0]).filter(|&p| self.params[p].is_type) {
                let mut value = arg[..arg.len() - stars].to_vec();
                if self.is_const && stars > 0 {
                    value.retain(|x| !x.is_ident("const"));
                }
                return vec![(p, value)];
            }
        }
        // `Name<…>`: an instance of class template `Name`, whose arguments are matched.
        let is_template_id = t.len() >= 3 + stars && t[1].is_punct("<") && t[t.len() - 1 - stars].is_punct(">");
        if is_template_id && arg_stars == stars && self.parameter(&t[0]).is_none() {
            let named = arg.iter().find_map(|x| match &x.tok {
                Tok::Ident(w) if w != "const" => Some(w.as_str()),
                _ => None,
            });
            let Some(instance) = classes.iter().find(|c| Some(c.name.as_str()) == named) else { return Vec::new() };
            if !t[0].is_ident(&instance.template) {
                return Vec::new();
            }
            let inside = &t[2..t.len() - 1 - stars];
            let mut out = Vec::new();
            for (k, written) in split_arguments(inside).into_iter().enumerate() {
                if let ([one], Some(value)) = (written, instance.args.get(k)) {
                    if let Some(p) = self.parameter(one) {
                        out.push((p, value.clone()));
                    }
                }
            }
            return out;
        }
        Vec::new()
    }
}
