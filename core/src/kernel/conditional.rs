//! Conditional compilation: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` and `#endif`, as C's
//! preprocessor runs them. [`Conditionals`] keeps the open groups and says whether the text
//! at hand is compiled; [`evaluate`] computes an `#if` condition once the preprocessor has
//! replaced `defined NAME` and expanded the line's macros.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::diag::{Diags, Span};
use super::lexer::{Tok, Token};

/// One open `#if … #endif` group.
struct Group {
    /// The directive that opened it, for "never closed".
    opened: Span,
    /// Whether the text around the group is compiled.
    outer_active: bool,
    /// Whether one of its branches has been taken (later `#elif`/`#else` are then skipped).
    taken: bool,
    /// Whether its `#else` has been seen.
    in_else: bool,
    /// Whether the current branch is compiled.
    active: bool,
}

/// The open conditional groups.
#[derive(Default)]
pub(crate) struct Conditionals {
    groups: Vec<Group>,
}

impl Conditionals {
    /// Whether text here is compiled.
    pub fn active(&self) -> bool {
        self.groups.last().is_none_or(|g| g.active)
    }

    /// Whether the condition of an `#if` here, or of an `#elif` of the innermost group, is
    /// evaluated: C evaluates no condition in skipped text (it need not even be valid) nor
    /// after a branch of the group has been taken.
    pub fn deciding(&self, elif: bool) -> bool {
        if !elif {
            return self.active();
        }
        self.groups.last().is_some_and(|g| g.outer_active && !g.taken && !g.in_else)
    }

    /// `#if`/`#ifdef`/`#ifndef`, with the condition's value where it was evaluated.
    pub fn open(&mut self, at: Span, value: bool) {
        let outer_active = self.active();
        let value = outer_active && value;
        self.groups.push(Group { opened: at, outer_active, taken: value, in_else: false, active: value });
    }

    /// `#elif`, with the condition's value where it was evaluated.
    pub fn elif(&mut self, at: Span, value: bool, diags: &mut Diags) {
        let Some(g) = self.groups.last_mut() else {
            diags.error(at, "`#elif` without an `#if` before it");
            return;
        };
        if g.in_else {
            diags.error(at, "`#elif` after the `#else` of its group");
            g.active = false;
            return;
        }
        g.active = g.outer_active && !g.taken && value;
        g.taken |= g.active;
    }

    /// `#else`.
    pub fn or_else(&mut self, at: Span, diags: &mut Diags) {
        let Some(g) = self.groups.last_mut() else {
            diags.error(at, "`#else` without an `#if` before it");
            return;
        };
        if g.in_else {
            diags.error(at, "a second `#else` in one `#if` group");
            g.active = false;
            return;
        }
        g.in_else = true;
        g.active = g.outer_active && !g.taken;
        g.taken = true;
    }

    /// `#endif`.
    pub fn close(&mut self, at: Span, diags: &mut Diags) {
        if self.groups.pop().is_none() {
            diags.error(at, "`#endif` without an `#if` before it");
        }
    }

    /// At the end of the file: every group still open is an error at the directive that
    /// opened it.
    pub fn finish(self, diags: &mut Diags) {
        for g in self.groups {
            diags.error(g.opened, "this conditional group is never closed: add `#endif` where it ends");
        }
    }
}

/// A value in an `#if` condition: C computes them in the widest integer type, signed unless
/// an operand is unsigned.
#[derive(Clone, Copy)]
struct Value {
    bits: i64,
    unsigned: bool,
}

impl Value {
    fn int(bits: i64) -> Value {
        Value { bits, unsigned: false }
    }
}

/// Computes an `#if` condition from its tokens (macros expanded, `defined` replaced). A name
/// left over counts as 0, as in C, and `true`/`false` as in C++. `None` (said in `diags`) if
/// the condition is not a constant integer expression.
pub(crate) fn evaluate(directive: Span, tokens: &[Token], diags: &mut Diags) -> Option<bool> {
    let mut p = Parser { tokens, at: 0, directive, error: None, unevaluated: 0 };
    let value = p.conditional();
    if p.error.is_none() {
        if let Some(t) = tokens.get(p.at) {
            p.fail(t.span, format!("unexpected {} in the condition", t.describe()));
        }
    }
    if let Some((span, message)) = p.error {
        diags.error(span, message);
        return None;
    }
    Some(value.bits != 0)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    directive: Span,
    error: Option<(Span, String)>,
    /// How many enclosing operands are not evaluated (the right of `0 && …`, the branch of
    /// `?:` not chosen): C does not object to a division by zero there.
    unevaluated: u32,
}

/// Binary operators from the loosest binding to the tightest, as in C.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn fail(&mut self, span: Span, message: String) {
        if self.error.is_none() {
            self.error = Some((span, message));
        }
    }

    fn peek_punct(&self) -> Option<&'static str> {
        match self.tokens.get(self.at).map(|t| &t.tok) {
            Some(Tok::Punct(p)) => Some(p),
            _ => None,
        }
    }

    fn expect(&mut self, punct: &str) {
        if self.peek_punct() == Some(punct) {
            self.at += 1;
            return;
        }
        let (span, found) = match self.tokens.get(self.at) {
            Some(t) => (t.span, t.describe()),
            None => (self.tokens.last().map_or(self.directive, |t| t.span.after()), "the end of the line".into()),
        };
        self.fail(span, format!("expected `{punct}` in the condition, found {found}"));
    }

    fn conditional(&mut self) -> Value {
        let test = self.binary(0);
        if self.peek_punct() != Some("?") {
            return test;
        }
        self.at += 1;
        let skip_yes = u32::from(test.bits == 0);
        self.unevaluated += skip_yes;
        let yes = self.conditional();
        self.unevaluated -= skip_yes;
        self.expect(":");
        let skip_no = u32::from(test.bits != 0);
        self.unevaluated += skip_no;
        let no = self.conditional();
        self.unevaluated -= skip_no;
        let chosen = if test.bits != 0 { yes } else { no };
        Value { unsigned: yes.unsigned || no.unsigned, ..chosen }
    }

    fn binary(&mut self, level: usize) -> Value {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1);
        while let Some(op) = self.peek_punct().filter(|p| LEVELS[level].contains(p)) {
            let span = self.tokens[self.at].span;
            self.at += 1;
            let decided = (op == "&&" && left.bits == 0) || (op == "||" && left.bits != 0);
            self.unevaluated += u32::from(decided);
            let right = self.binary(level + 1);
            self.unevaluated -= u32::from(decided);
            left = self.apply(op, left, right, span);
        }
        left
    }

    fn apply(&mut self, op: &str, a: Value, b: Value, span: Span) -> Value {
        let unsigned = a.unsigned || b.unsigned;
        let (x, y) = (a.bits, b.bits);
        let (ux, uy) = (x as u64, y as u64);
        let truth = |t: bool| Value::int(i64::from(t));
        match op {
            "||" => truth(x != 0 || y != 0),
            "&&" => truth(x != 0 && y != 0),
            "==" => truth(x == y),
            "!=" => truth(x != y),
            "<" => truth(if unsigned { ux < uy } else { x < y }),
            ">" => truth(if unsigned { ux > uy } else { x > y }),
            "<=" => truth(if unsigned { ux <= uy } else { x <= y }),
            ">=" => truth(if unsigned { ux >= uy } else { x >= y }),
            "/" | "%" if y == 0 => {
                if self.unevaluated == 0 {
                    self.fail(span, format!("division by zero in the condition (`{op}` of 0)"));
                }
                Value::int(0)
            }
            _ => {
                let bits = match op {
                    "|" => x | y,
                    "^" => x ^ y,
                    "&" => x & y,
                    "<<" => x.wrapping_shl(y as u32),
                    ">>" if a.unsigned => (ux >> (y as u32 & 63)) as i64,
                    ">>" => x.wrapping_shr(y as u32),
                    "+" => x.wrapping_add(y),
                    "-" => x.wrapping_sub(y),
                    "*" => x.wrapping_mul(y),
                    "/" if unsigned => (ux / uy) as i64,
                    "/" => x.wrapping_div(y),
                    "%" if unsigned => (ux % uy) as i64,
                    _ => x.wrapping_rem(y),
                };
                Value { bits, unsigned: if matches!(op, "<<" | ">>") { a.unsigned } else { unsigned } }
            }
        }
    }

    fn unary(&mut self) -> Value {
        let Some(t) = self.tokens.get(self.at) else {
            let span = self.tokens.last().map_or(self.directive, |t| t.span.after());
            self.fail(span, "the condition is incomplete: expected a value".into());
            return Value::int(0);
        };
        self.at += 1;
        match &t.tok {
            Tok::Int { value, unsigned } => Value { bits: i64::from(*value), unsigned: *unsigned },
            Tok::Ident(name) => Value::int(i64::from(name == "true")),
            Tok::Punct("(") => {
                let v = self.conditional();
                self.expect(")");
                v
            }
            Tok::Punct("!") => Value::int(i64::from(self.unary().bits == 0)),
            Tok::Punct("~") => {
                let v = self.unary();
                Value { bits: !v.bits, ..v }
            }
            Tok::Punct("-") => {
                let v = self.unary();
                Value { bits: v.bits.wrapping_neg(), ..v }
            }
            Tok::Punct("+") => self.unary(),
            Tok::Long { value, unsigned } => Value { bits: *value as i64, unsigned: *unsigned },
            Tok::Float(_) | Tok::Double(_) => {
                self.fail(t.span, "a condition of `#if` must be an integer; this is a float".into());
                Value::int(0)
            }
            _ => {
                self.fail(t.span, format!("expected a value in the condition, found {}", t.describe()));
                Value::int(0)
            }
        }
    }
}
