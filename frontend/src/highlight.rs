//! Syntax highlighting for the kernel language: one pass over the text that cuts it into
//! classified spans.
//!
//! The spans tile the text exactly (each starts where the previous one ends, the first at 0,
//! the last at the end) and never contain a line break, except for spans that are exactly
//! `"\n"`: so the editor can cut the result into lines without looking at the text again.
//! The tokenizer only colours; it reports nothing and accepts any input, including text
//! that does not compile.

use std::ops::Range;

/// What a span of source is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    /// Names, operators, punctuation, blanks and line breaks.
    Plain,
    /// Statement and declaration words: `if`, `return`, `__global__`, `host`, `stream`, …
    Keyword,
    /// Type names: `int`, `float`, `void`, `dim3`, …
    Type,
    /// Names the language provides: `threadIdx`, `__syncthreads`, `atomicAdd`, `iota`, …
    Builtin,
    /// Numeric literals, `true` and `false`.
    Number,
    /// Quoted text (not valid in the language, but coloured so that it stands out).
    String,
    /// `// …` and `/* … */`.
    Comment,
    /// A directive and the name it defines: `#define N`.
    Preprocessor,
    /// The launch brackets `<<<` and `>>>`.
    Launch,
}

impl TokenClass {
    /// The CSS class that colours it (`None` for plain text, which keeps the editor's colour).
    pub fn css_class(self) -> Option<&'static str> {
        match self {
            TokenClass::Plain => None,
            TokenClass::Keyword => Some("tok-keyword"),
            TokenClass::Type => Some("tok-type"),
            TokenClass::Builtin => Some("tok-builtin"),
            TokenClass::Number => Some("tok-number"),
            TokenClass::String => Some("tok-string"),
            TokenClass::Comment => Some("tok-comment"),
            TokenClass::Preprocessor => Some("tok-preprocessor"),
            TokenClass::Launch => Some("tok-launch"),
        }
    }
}

/// A stretch of the source (byte range) and its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HighlightSpan {
    /// Byte range in the source; always on character boundaries.
    pub range: Range<usize>,
    /// How to colour it.
    pub class: TokenClass,
}

const KEYWORDS: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "__host__",
    "__constant__",
    "__restrict__",
    "__forceinline__",
    "__noinline__",
    "inline",
    "static",
    "volatile",
    "register",
    "const",
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "switch",
    "case",
    "default",
    "goto",
    "sizeof",
    "typedef",
    "struct",
    "host",
    "stream",
    "graph",
];

const TYPES: &[&str] = &[
    "int", "unsigned", "signed", "float", "bool", "void", "char", "short", "long", "double", "half", "size_t", "uint",
    "uint32_t", "int32_t", "auto", "dim3",
];

/// Directives after which the next word is the name being defined (coloured with them).
const NAMING_DIRECTIVES: &[&str] = &["define", "undef", "ifdef", "ifndef"];

/// Cuts `source` into classified spans in one pass (see the module documentation for the
/// guarantees). Never panics.
pub fn highlight(source: &str) -> Vec<HighlightSpan> {
    let bytes = source.as_bytes();
    // Roughly one span per few bytes; reserving avoids regrowing on long files.
    let mut out = SpanList { source: bytes, spans: Vec::with_capacity(bytes.len() / 6 + 1) };
    let mut i = 0;
    // Only blanks since the last line break: where a `#` starts a directive.
    let mut at_line_start = true;
    while i < bytes.len() {
        let start = i;
        let next = bytes.get(i + 1).copied();
        let class = match bytes[i] {
            b'\n' => {
                out.line_break(i);
                i += 1;
                at_line_start = true;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i = skip_while(bytes, i, |c| matches!(c, b' ' | b'\t' | b'\r'));
                out.push(start..i, TokenClass::Plain);
                continue;
            }
            b'/' if next == Some(b'/') => {
                i = skip_while(bytes, i, |c| c != b'\n');
                TokenClass::Comment
            }
            b'/' if next == Some(b'*') => {
                i = block_comment(&mut out, i);
                at_line_start = false;
                continue;
            }
            b'#' if at_line_start => {
                i = directive(bytes, i);
                TokenClass::Preprocessor
            }
            quote @ (b'"' | b'\'') => {
                i = quoted(bytes, i, quote);
                TokenClass::String
            }
            b'0'..=b'9' => {
                i = number(bytes, i);
                TokenClass::Number
            }
            b'.' if next.is_some_and(|c| c.is_ascii_digit()) => {
                i = number(bytes, i);
                TokenClass::Number
            }
            b'<' if bytes[i..].starts_with(b"<<<") => {
                i += 3;
                TokenClass::Launch
            }
            b'>' if bytes[i..].starts_with(b">>>") => {
                i += 3;
                TokenClass::Launch
            }
            c if is_word_start(c) => {
                i = skip_while(bytes, i, is_word_byte);
                // Word bytes are ASCII, so the slice is on character boundaries.
                classify_word(&source[start..i])
            }
            c => {
                // Any other character, one at a time, whole (non-ASCII characters included).
                i += utf8_len(c);
                TokenClass::Plain
            }
        };
        out.push(start..i.min(bytes.len()), class);
        at_line_start = false;
    }
    out.spans
}

/// The spans collected so far, merging neighbours of the same class to keep the DOM small.
struct SpanList<'a> {
    source: &'a [u8],
    spans: Vec<HighlightSpan>,
}

impl SpanList<'_> {
    fn push(&mut self, range: Range<usize>, class: TokenClass) {
        if range.is_empty() {
            return;
        }
        if let Some(last) = self.spans.last_mut() {
            if last.class == class && last.range.end == range.start && self.source[last.range.start] != b'\n' {
                last.range.end = range.end;
                return;
            }
        }
        self.spans.push(HighlightSpan { range, class });
    }

    /// A line break is always a span of its own, so that lines can be cut apart.
    fn line_break(&mut self, at: usize) {
        self.spans.push(HighlightSpan { range: at..at + 1, class: TokenClass::Plain });
    }
}

fn skip_while(bytes: &[u8], mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
    while i < bytes.len() && keep(bytes[i]) {
        i += 1;
    }
    i
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte,
/// which cannot occur in a `str` at a character boundary anyway).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

fn classify_word(word: &str) -> TokenClass {
    if KEYWORDS.contains(&word) {
        TokenClass::Keyword
    } else if TYPES.contains(&word) {
        TokenClass::Type
    } else if warpscope_core::kernel::builtins::is_builtin(word) {
        TokenClass::Builtin
    } else if word == "true" || word == "false" {
        TokenClass::Number
    } else {
        TokenClass::Plain
    }
}

/// A `/* … */` comment starting at `start`, pushed one piece per line; returns where it ends
/// (the end of the text if it is never closed, as the compiler will report).
fn block_comment(out: &mut SpanList, start: usize) -> usize {
    let bytes = out.source;
    let mut piece = start;
    let mut i = start + 2;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(piece..i, TokenClass::Comment);
                out.line_break(i);
                i += 1;
                piece = i;
            }
            b'*' if bytes.get(i + 1) == Some(&b'/') => {
                out.push(piece..i + 2, TokenClass::Comment);
                return i + 2;
            }
            // Bytes of multi-byte characters are never `\n` or `*`: stepping bytewise keeps
            // every cut on an ASCII byte, hence on a character boundary.
            _ => i += 1,
        }
    }
    out.push(piece..bytes.len(), TokenClass::Comment);
    bytes.len()
}

/// `#`, the directive word and, for `#define` and its kin, the name: the rest of the line is
/// coloured as ordinary code (a macro's value is code).
fn directive(bytes: &[u8], start: usize) -> usize {
    let blanks = |i| skip_while(bytes, i, |c| c == b' ' || c == b'\t');
    let word_start = blanks(start + 1);
    let word_end = skip_while(bytes, word_start, is_word_byte);
    if !NAMING_DIRECTIVES.iter().any(|d| d.as_bytes() == &bytes[word_start..word_end]) {
        return word_end;
    }
    let name_start = blanks(word_end);
    if name_start < bytes.len() && is_word_start(bytes[name_start]) {
        skip_while(bytes, name_start, is_word_byte)
    } else {
        word_end
    }
}

/// A quoted literal up to its closing quote, or up to the end of the line if unclosed.
fn quoted(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => return i,
            b'\\' if bytes.get(i + 1).is_some_and(|&c| c != b'\n') => {
                // Skip the escaped character whole, so the cut stays on a boundary.
                i += 1 + utf8_len(bytes[i + 1]);
            }
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A C "preprocessing number": digits, letters, `_`, `.`, and a sign right after an exponent
/// letter (`1e-3`), so that malformed literals are coloured whole, as the compiler reads them.
fn number(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < bytes.len() {
        let c = bytes[i];
        let exponent_sign =
            (c == b'+' || c == b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P') && !is_hex(bytes, start);
        if !(is_word_byte(c) || c == b'.' || exponent_sign) {
            break;
        }
        i += 1;
    }
    i
}

fn is_hex(bytes: &[u8], start: usize) -> bool {
    bytes[start] == b'0' && matches!(bytes.get(start + 1), Some(b'x' | b'X'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the guarantees of [`highlight`] and returns the spans.
    fn checked(source: &str) -> Vec<HighlightSpan> {
        let spans = highlight(source);
        let mut at = 0;
        for span in &spans {
            assert_eq!(span.range.start, at, "spans must tile {source:?}: {spans:?}");
            assert!(span.range.end > span.range.start, "empty span in {source:?}: {spans:?}");
            let text = source.get(span.range.clone()).expect("span on character boundaries");
            assert!(text == "\n" || !text.contains('\n'), "line break inside {text:?} of {source:?}");
            at = span.range.end;
        }
        assert_eq!(at, source.len(), "spans must cover {source:?}");
        spans
    }

    /// The coloured pieces of `source`, as (text, class).
    fn coloured(source: &str) -> Vec<(&str, TokenClass)> {
        checked(source)
            .into_iter()
            .filter(|s| s.class != TokenClass::Plain)
            .map(|s| (&source[s.range], s.class))
            .collect()
    }

    // Not a glob: `TokenClass::String` would shadow `String`.
    use TokenClass::{Builtin, Comment, Keyword, Launch, Number, Preprocessor, Type};

    #[test]
    fn a_kernel_is_coloured_by_token_class() {
        let src = "__global__ void saxpy(float a, const float* x) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    __syncthreads();\n    return;\n}";
        assert_eq!(
            coloured(src),
            [
                ("__global__", Keyword),
                ("void", Type),
                ("float", Type),
                ("const", Keyword),
                ("float", Type),
                ("int", Type),
                ("blockIdx", Builtin),
                ("blockDim", Builtin),
                ("threadIdx", Builtin),
                ("__syncthreads", Builtin),
                ("return", Keyword),
            ]
        );
    }

    #[test]
    fn names_that_merely_contain_a_keyword_stay_plain() {
        assert_eq!(coloured("interval formula if_ x_int atomicAddX"), []);
    }

    #[test]
    fn host_blocks_launches_and_streams() {
        let src =
            "host {\n    stream s1;\n    float x[N] = random(0.0, 1.0, 7);\n    k<<<dim3(2, 2), 256, 0, s1>>>(x);\n}";
        assert_eq!(
            coloured(src),
            [
                ("host", Keyword),
                ("stream", Keyword),
                ("float", Type),
                ("random", Builtin),
                ("0.0", Number),
                ("1.0", Number),
                ("7", Number),
                ("<<<", Launch),
                ("dim3", Type),
                ("2", Number),
                ("2", Number),
                ("256", Number),
                ("0", Number),
                (">>>", Launch),
            ]
        );
        // Shifts are not launches.
        assert_eq!(coloured("a << b >> c <<= d"), []);
    }

    #[test]
    fn numbers_are_coloured_whole() {
        let src = "1.5f .5 1e-3 2.5E+4f 0x1F 7u 010 1f x1 a.b true false";
        assert_eq!(
            coloured(src),
            [
                ("1.5f", Number),
                (".5", Number),
                ("1e-3", Number),
                ("2.5E+4f", Number),
                ("0x1F", Number),
                ("7u", Number),
                ("010", Number),
                ("1f", Number),
                ("true", Number),
                ("false", Number),
            ]
        );
        // In hexadecimal, `e` is a digit: `0x1e+3` is `0x1e` plus 3.
        assert_eq!(coloured("0x1e+3"), [("0x1e", Number), ("3", Number)]);
    }

    #[test]
    fn comments_line_and_block() {
        assert_eq!(coloured("x = 1; // int here\ny"), [("1", Number), ("// int here", Comment)]);
        assert_eq!(coloured("a /* one\n   two */ int"), [("/* one", Comment), ("   two */", Comment), ("int", Type)]);
        // Comment markers inside a comment are just text.
        assert_eq!(coloured("/* // */ int"), [("/* // */", Comment), ("int", Type)]);
        assert_eq!(coloured("// a /* b\nint"), [("// a /* b", Comment), ("int", Type)]);
    }

    #[test]
    fn unterminated_constructs_run_to_their_natural_end() {
        assert_eq!(coloured("x /* never\nclosed int"), [("/* never", Comment), ("closed int", Comment)]);
        assert_eq!(coloured("s = \"open\nint"), [("\"open", TokenClass::String), ("int", Type)]);
        assert_eq!(coloured("c = 'x"), [("'x", TokenClass::String)]);
        assert_eq!(coloured("/*"), [("/*", Comment)]);
        assert_eq!(coloured("/*/"), [("/*/", Comment)]);
        assert_eq!(coloured("\"\\"), [("\"\\", TokenClass::String)]);
    }

    #[test]
    fn strings_honour_escapes() {
        assert_eq!(coloured(r#""a\"b" int"#), [(r#""a\"b""#, TokenClass::String), ("int", Type)]);
        assert_eq!(coloured(r"'\'' int"), [(r"'\''", TokenClass::String), ("int", Type)]);
        assert_eq!(coloured("\"\\é\" int"), [("\"\\é\"", TokenClass::String), ("int", Type)]);
    }

    #[test]
    fn directives_at_the_start_of_a_line() {
        assert_eq!(
            coloured("#define N 4096 // a knob\n  #  define BS (N / 2)\n#include x"),
            [
                ("#define N", Preprocessor),
                ("4096", Number),
                ("// a knob", Comment),
                ("#  define BS", Preprocessor),
                ("2", Number),
                ("#include", Preprocessor),
            ]
        );
        // A `#` after code on the line is not a directive.
        assert_eq!(coloured("a # define"), []);
        assert_eq!(coloured("#"), [("#", Preprocessor)]);
        assert_eq!(coloured("#define"), [("#define", Preprocessor)]);
    }

    #[test]
    fn line_breaks_are_spans_of_their_own() {
        let spans = checked("a\n\nb /* c\n */");
        let texts: Vec<&str> = spans.iter().map(|s| &"a\n\nb /* c\n */"[s.range.clone()]).collect();
        assert_eq!(texts, ["a", "\n", "\n", "b ", "/* c", "\n", " */"]);
    }

    #[test]
    fn non_ascii_text_is_cut_on_character_boundaries() {
        assert_eq!(
            coloured("é = int; // naïve … ✓\n日本 float 🦀"),
            [("int", Type), ("// naïve … ✓", Comment), ("float", Type)]
        );
        checked("\u{FEFF}int\r\nx\u{0}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}");
    }

    #[test]
    fn empty_input_gives_no_spans() {
        assert_eq!(checked(""), []);
    }

    #[test]
    fn every_library_file_and_every_prefix_of_one_is_tiled() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src/library");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).expect("the kernel library") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "cu") {
                let source = std::fs::read_to_string(&path).expect("a UTF-8 kernel file");
                let spans = checked(&source);
                assert!(spans.iter().any(|s| s.class == Keyword), "{path:?} has keywords");
                files += 1;
            }
        }
        assert!(files >= 20, "found only {files} library files in {dir:?}");
        // Cutting a file anywhere leaves constructs open in every possible way.
        let source = include_str!("../../core/src/library/nw.cu");
        for (cut, _) in source.char_indices() {
            checked(&source[..cut]);
            checked(&source[cut..]);
        }
    }

    #[test]
    fn arbitrary_text_never_breaks_the_guarantees() {
        // Pieces chosen to start, end and nest every construct; a fixed seed keeps failures
        // reproducible.
        const PIECES: &[&str] = &[
            "/", "*", "/*", "*/", "//", "\n", "\"", "'", "\\", "#", "define", " ", "\t", "<", ">", "<<<", ">>>", "1",
            ".", "e", "+", "0x", "int", "é", "🦀", "\r", "x", "_",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            checked(&text);
        }
    }
}
