//! Source text to tokens. Comments and whitespace disappear; every token keeps its span, and
//! the logical line it is on (escaped newlines join lines) so `#define` can find its end.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::diag::{Diags, Span};

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// A name or keyword.
    Ident(String),
    /// An integer literal: its value, whether it is `unsigned` by suffix or by size.
    Int { value: u32, unsigned: bool },
    /// A 64-bit integer literal (`long`/`long long` by suffix, or a decimal too big for
    /// `int`), and whether it is `unsigned`.
    Long { value: u64, unsigned: bool },
    /// A float literal (suffix `f`).
    Float(f32),
    /// A double literal (no suffix, as in C).
    Double(f64),
    /// Punctuation, including `#`.
    Punct(&'static str),
    /// A string literal, as written between its quotes (escapes left as they are): only
    /// `printf` takes one, and the preprocessor lets macros hold one.
    Str(String),
    /// The end of the input (always the last token).
    Eof,
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Logical line number (physical lines joined by a trailing `\` count as one).
    pub logical_line: u32,
    /// Whether this is the first token of its logical line.
    pub line_start: bool,
}

/// The index of the bracket that closes the `(`, `[` or `{` at `open` (brackets of its kind
/// nest), or `None` if the input ends first.
pub(crate) fn matching_close(tokens: &[Token], open: usize) -> Option<usize> {
    let (opening, closing) = match tokens.get(open)?.tok {
        Tok::Punct("(") => ("(", ")"),
        Tok::Punct("[") => ("[", "]"),
        Tok::Punct("{") => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        if t.is_punct(opening) {
            depth += 1;
        } else if t.is_punct(closing) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        } else if t.tok == Tok::Eof {
            return None;
        }
    }
    None
}

impl Token {
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(self.tok, Tok::Punct(q) if q == p)
    }

    /// The token's column if it is the first on its line, else `u32::MAX`.
    pub fn line_start_column(&self) -> u32 {
        if self.line_start {
            self.span.column
        } else {
            u32::MAX
        }
    }

    pub fn is_ident(&self, name: &str) -> bool {
        matches!(&self.tok, Tok::Ident(n) if n == name)
    }

    /// How messages name the token: "`;`", "`foo`", "the end of the file".
    pub fn describe(&self) -> String {
        match &self.tok {
            Tok::Ident(n) => format!("`{n}`"),
            Tok::Int { value, unsigned } => format!("`{value}{}`", if *unsigned { "u" } else { "" }),
            Tok::Float(f) => format!("`{f}`"),
            Tok::Double(d) => format!("`{d}`"),
            Tok::Long { value, .. } => format!("`{value}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Str(text) => format!("the string `\"{text}\"`"),
            Tok::Eof => "the end of the file".to_string(),
        }
    }
}

/// Longest first, so that `<<=` wins over `<<` and `<`.
const PUNCTUATION: &[&str] = &[
    "<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "::", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "=", "<", ">", "?",
    ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
];

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    column: u32,
    logical_line: u32,
    last_logical_line: u32,
    tokens: Vec<Token>,
}

/// Splits `src` into tokens, reporting characters that start no token. A UTF-8 byte-order
/// mark at the start (some editors on Windows write one) is not part of the text. The result
/// always ends with [`Tok::Eof`].
pub(crate) fn lex(src: &str, diags: &mut Diags) -> Vec<Token> {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: if src.starts_with('\u{FEFF}') { '\u{FEFF}'.len_utf8() } else { 0 },
        line: 1,
        column: 1,
        logical_line: 1,
        last_logical_line: 0,
        tokens: Vec::new(),
    };
    lx.run(diags);
    let end = lx.span_from(lx.pos, lx.line, lx.column);
    lx.tokens.push(Token { tok: Tok::Eof, span: end, logical_line: lx.logical_line, line_start: true });
    lx.tokens
}

/// The value of a character literal's text between its quotes (`a`, `\n`, `\x41`, `\101`),
/// as C gives it to an `int`; `None` unless it is exactly one character.
fn character_value(body: &str) -> Option<u32> {
    let mut chars = body.chars();
    let first = chars.next()?;
    if first != '\\' {
        return (chars.next().is_none()).then_some(first as u32);
    }
    let rest = chars.as_str();
    let simple = match rest {
        "n" => Some(10),
        "t" => Some(9),
        "r" => Some(13),
        "0" => Some(0),
        "\\" => Some(92),
        "'" => Some(39),
        "\"" => Some(34),
        "a" => Some(7),
        "b" => Some(8),
        "f" => Some(12),
        "v" => Some(11),
        "?" => Some(63),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if let Some(hex) = rest.strip_prefix('x') {
        return u32::from_str_radix(hex, 16).ok().filter(|v| !hex.is_empty() && *v <= 0xFF);
    }
    if (1..=3).contains(&rest.len()) && rest.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return u32::from_str_radix(rest, 8).ok().filter(|v| *v <= 0xFF);
    }
    None
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    /// Moves past one character (not byte), keeping line and column.
    fn advance(&mut self) {
        let Some(c) = self.src[self.pos..].chars().next() else { return };
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.logical_line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }

    fn span_from(&self, start: usize, line: u32, column: u32) -> Span {
        Span { line, column, offset: start as u32, len: (self.pos - start) as u32 }
    }

    fn push(&mut self, tok: Tok, span: Span) {
        let line_start = self.logical_line != self.last_logical_line;
        self.last_logical_line = self.logical_line;
        self.tokens.push(Token { tok, span, logical_line: self.logical_line, line_start });
    }

    fn run(&mut self, diags: &mut Diags) {
        while self.pos < self.bytes.len() {
            let (start, line, column) = (self.pos, self.line, self.column);
            let c = self.peek(0);
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.advance(),
                b'\\' if self.peek(1) == b'\n' || (self.peek(1) == b'\r' && self.peek(2) == b'\n') => {
                    // A line continuation: the next physical line belongs to this logical one.
                    while self.peek(0) != b'\n' {
                        self.advance();
                    }
                    self.advance();
                    self.logical_line -= 1;
                }
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < self.bytes.len() && self.peek(0) != b'\n' {
                        self.advance();
                    }
                }
                b'/' if self.peek(1) == b'*' => {
                    self.advance();
                    self.advance();
                    loop {
                        if self.pos >= self.bytes.len() {
                            diags.error(
                                Span { len: 2, ..self.span_from(start, line, column) },
                                "unterminated comment: `/*` has no matching `*/`",
                            );
                            break;
                        }
                        if self.peek(0) == b'*' && self.peek(1) == b'/' {
                            self.advance();
                            self.advance();
                            break;
                        }
                        self.advance();
                    }
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    while matches!(self.peek(0), b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9') {
                        self.advance();
                    }
                    let span = self.span_from(start, line, column);
                    self.push(Tok::Ident(self.src[start..self.pos].to_string()), span);
                }
                b'0'..=b'9' => self.number(start, line, column, diags),
                b'.' if self.peek(1).is_ascii_digit() => self.number(start, line, column, diags),
                b'\'' | b'"' => {
                    self.advance();
                    let body_start = self.pos;
                    while self.pos < self.bytes.len() && self.peek(0) != c && self.peek(0) != b'\n' {
                        if self.peek(0) == b'\\' {
                            self.advance();
                        }
                        self.advance();
                    }
                    let body = &self.src[body_start..self.pos.min(self.src.len())];
                    let closed = self.peek(0) == c;
                    if closed {
                        self.advance();
                    }
                    let span = self.span_from(start, line, column);
                    if !closed {
                        let what = if c == b'"' { "string" } else { "character" };
                        diags.error(span, format!("unterminated {what} literal: it has no closing quote on its line"));
                    } else if c == b'"' {
                        self.push(Tok::Str(body.to_string()), span);
                    } else {
                        match character_value(body) {
                            Some(value) => self.push(Tok::Int { value, unsigned: false }, span),
                            None => diags.error(
                                span,
                                format!("`'{body}'` is not one character; write a character as `'a'` or `'\\n'`"),
                            ),
                        }
                    }
                }
                _ => {
                    let rest = &self.src[self.pos..];
                    if let Some(p) = PUNCTUATION.iter().find(|p| rest.starts_with(**p)) {
                        for _ in 0..p.len() {
                            self.advance();
                        }
                        let span = self.span_from(start, line, column);
                        self.push(Tok::Punct(p), span);
                    } else {
                        let ch = rest.chars().next().unwrap_or('?');
                        self.advance();
                        let what = if ch == '\\' {
                            "`\\` (a line continuation must end its line)".into()
                        } else {
                            format!("character `{ch}`")
                        };
                        diags.error(self.span_from(start, line, column), format!("unexpected {what}"));
                    }
                }
            }
        }
    }

    fn number(&mut self, start: usize, line: u32, column: u32, diags: &mut Diags) {
        let hex = self.peek(0) == b'0' && matches!(self.peek(1), b'x' | b'X');
        let mut is_float = false;
        if hex {
            self.advance();
            self.advance();
            while self.peek(0).is_ascii_hexdigit() {
                self.advance();
            }
        } else {
            while self.peek(0).is_ascii_digit() {
                self.advance();
            }
            if self.peek(0) == b'.' {
                is_float = true;
                self.advance();
                while self.peek(0).is_ascii_digit() {
                    self.advance();
                }
            }
            if matches!(self.peek(0), b'e' | b'E')
                && (self.peek(1).is_ascii_digit()
                    || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
            {
                is_float = true;
                self.advance();
                self.advance();
                while self.peek(0).is_ascii_digit() {
                    self.advance();
                }
            }
        }
        let digits_end = self.pos;
        // Suffixes and anything glued to the number belong to the token.
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.advance();
        }
        let span = self.span_from(start, line, column);
        let text = &self.src[start..digits_end];
        let suffix = &self.src[digits_end..self.pos];
        if is_float {
            if suffix.is_empty() {
                let value = text.parse::<f64>().unwrap_or(0.0);
                if value.is_infinite() {
                    diags.error(span, format!("double literal `{text}` is too large (at most about 1.8e308)"));
                }
                self.push(Tok::Double(value), span);
                return;
            }
            if !matches!(suffix, "f" | "F") {
                diags.error(span, format!("invalid suffix `{suffix}` on a float literal"));
            }
            let value = text.parse::<f32>().unwrap_or(0.0);
            if value.is_infinite() {
                diags.error(
                    span,
                    format!("float literal `{text}` is too large for a 32-bit float (at most about 3.4e38)"),
                );
            }
            self.push(Tok::Float(value), span);
            return;
        }
        // `l`, `ll` (either case, not mixed), with or without `u` before or after: 64 bits.
        let lower = suffix.to_ascii_lowercase();
        let long_suffix = matches!(lower.as_str(), "l" | "ll" | "ul" | "lu" | "ull" | "llu")
            && !suffix.contains("lL")
            && !suffix.contains("Ll");
        let unsigned = match suffix {
            "" => false,
            "u" | "U" => true,
            _ if long_suffix => lower.contains('u'),
            "f" | "F" => {
                diags.error_help(
                    span,
                    format!("invalid suffix `{suffix}` on an integer literal"),
                    format!("write `{text}.0f` for a float"),
                );
                false
            }
            _ => {
                diags.error(span, format!("invalid suffix `{suffix}` on an integer literal"));
                false
            }
        };
        let (digits, radix) = if hex {
            (&text[2..], 16)
        } else if text.len() > 1 && text.starts_with('0') {
            (&text[1..], 8)
        } else {
            (text, 10)
        };
        let value = match u64::from_str_radix(digits, radix) {
            Ok(v) => v,
            Err(e) if *e.kind() == core::num::IntErrorKind::PosOverflow => {
                diags.error(span, format!("integer literal `{text}` does not fit in 64 bits"));
                0
            }
            Err(_) => {
                let why = if hex { "needs hexadecimal digits after `0x`" } else { "is not a valid octal number" };
                diags.error(span, format!("integer literal `{text}` {why}"));
                0
            }
        };
        // As in C (with nvcc's 64-bit `long`): the first of `int`, `unsigned` (not for a
        // decimal), `long`, `unsigned long` that holds the value, from the suffix's on.
        let decimal = radix == 10;
        let fits = |signed_max: u64, unsigned_max: u64| {
            if unsigned {
                value <= unsigned_max
            } else {
                value <= signed_max || (!decimal && value <= unsigned_max)
            }
        };
        if !long_suffix && fits(i32::MAX as u64, u32::MAX as u64) {
            let unsigned = unsigned || value > i32::MAX as u64;
            self.push(Tok::Int { value: value as u32, unsigned }, span);
        } else {
            if !unsigned && decimal && value > i64::MAX as u64 {
                diags.error(
                    span,
                    format!("integer literal `{text}` is too large for `long long`; add `u` to make it unsigned"),
                );
            }
            let unsigned = unsigned || value > i64::MAX as u64;
            self.push(Tok::Long { value, unsigned }, span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> (Vec<Tok>, Diags) {
        let mut d = Diags::default();
        let toks = lex(src, &mut d).into_iter().map(|t| t.tok).collect();
        (toks, d)
    }

    #[test]
    fn tokens_literals_and_longest_punctuation() {
        let (t, d) = kinds("a<<<b>>>=x <<= 0x1F 010 7u 1.5 2.5f .5 1e3 // c\n/* x */ y");
        assert!(!d.has_errors());
        assert_eq!(
            t,
            [
                Tok::Ident("a".into()),
                Tok::Punct("<<<"),
                Tok::Ident("b".into()),
                Tok::Punct(">>>"),
                Tok::Punct("="),
                Tok::Ident("x".into()),
                Tok::Punct("<<="),
                Tok::Int { value: 31, unsigned: false },
                Tok::Int { value: 8, unsigned: false },
                Tok::Int { value: 7, unsigned: true },
                Tok::Double(1.5),
                Tok::Float(2.5),
                Tok::Double(0.5),
                Tok::Double(1000.0),
                Tok::Ident("y".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn spans_count_lines_and_characters() {
        let mut d = Diags::default();
        let toks = lex("int x;\n  é = 3;", &mut d);
        // `é` is not a token character: reported at 2:3.
        let errors = d.finish();
        assert_eq!((errors[0].span.line, errors[0].span.column), (2, 3));
        let three = toks.iter().find(|t| t.tok == Tok::Int { value: 3, unsigned: false }).unwrap();
        assert_eq!((three.span.line, three.span.column, three.span.offset), (2, 7, 14));
    }

    #[test]
    fn lexical_errors_have_positions() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("x = 'ab';", (1, 5), "`'ab'` is not one character; write a character as `'a'` or `'\\n'`"),
            ("x = '\\q';", (1, 5), "`'\\q'` is not one character; write a character as `'a'` or `'\\n'`"),
            ("\n  s = \"hi;\n", (2, 7), "unterminated string literal: it has no closing quote on its line"),
            ("x = 99999999999999999999;", (1, 5), "integer literal `99999999999999999999` does not fit in 64 bits"),
            (
                "x = 9999999999999999999;",
                (1, 5),
                "integer literal `9999999999999999999` is too large for `long long`; add `u` to make it unsigned",
            ),
            ("x = 5lL;", (1, 5), "invalid suffix `lL` on an integer literal"),
            ("x = 1f;", (1, 5), "invalid suffix `f` on an integer literal"),
            ("x = 1.0q;", (1, 5), "invalid suffix `q` on a float literal"),
            ("x = 0x;", (1, 5), "integer literal `0x` needs hexadecimal digits after `0x`"),
            ("x = 09;", (1, 5), "integer literal `09` is not a valid octal number"),
            (
                "x = 123456789012345678901234;",
                (1, 5),
                "integer literal `123456789012345678901234` does not fit in 64 bits",
            ),
            (
                "x = 0777777777777777777777777;",
                (1, 5),
                "integer literal `0777777777777777777777777` does not fit in 64 bits",
            ),
            ("x = 1e39f;", (1, 5), "float literal `1e39` is too large for a 32-bit float (at most about 3.4e38)"),
            ("x = 1e309;", (1, 5), "double literal `1e309` is too large (at most about 1.8e308)"),
            ("\u{FEFF}a @ b", (1, 3), "unexpected character `@`"),
            ("a @ b", (1, 3), "unexpected character `@`"),
            ("x /* never closed", (1, 3), "unterminated comment: `/*` has no matching `*/`"),
        ];
        for (src, (line, column), message) in cases {
            let mut d = Diags::default();
            lex(src, &mut d);
            let errors = d.finish();
            assert_eq!(errors.len(), 1, "{src}: {errors:?}");
            assert_eq!((errors[0].span.line, errors[0].span.column), (*line, *column), "{src}");
            assert_eq!(errors[0].message, *message, "{src}");
        }
    }

    #[test]
    fn continuation_lines_share_a_logical_line() {
        let mut d = Diags::default();
        let toks = lex("#define A 1 + \\\n 2\nB", &mut d);
        assert!(!d.has_errors());
        let two = toks.iter().find(|t| t.tok == Tok::Int { value: 2, unsigned: false }).unwrap();
        assert_eq!((two.logical_line, two.line_start, two.span.line), (1, false, 2));
        let b = toks.iter().find(|t| t.is_ident("B")).unwrap();
        assert!(b.line_start);
    }

    #[test]
    fn character_constants_are_their_codes_and_strings_are_tokens() {
        let (t, d) = kinds(r#"'a' '\n' '\x41' '\101' '\'' '\\' '"' "say \"hi\"\n""#);
        assert!(!d.has_errors(), "{d:?}");
        let int = |value| Tok::Int { value, unsigned: false };
        assert_eq!(
            t,
            [
                int(97),
                int(10),
                int(65),
                int(65),
                int(39),
                int(92),
                int(34),
                Tok::Str(r#"say \"hi\"\n"#.into()),
                Tok::Eof
            ]
        );
    }
}
