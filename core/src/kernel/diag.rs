//! Source positions and the messages the compiler reports against them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

/// A stretch of the source: where it starts (line and column for people, byte offset for
/// editors) and how long it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
    /// Byte offset of the start in the source.
    pub offset: u32,
    /// Length in bytes.
    pub len: u32,
}

impl Span {
    /// From the start of `self` to the end of `end` (or just `self` if `end` starts earlier).
    pub fn to(self, end: Span) -> Span {
        let stop = end.offset + end.len;
        if stop < self.offset {
            return self;
        }
        Span { len: stop - self.offset, ..self }
    }

    /// The empty span just after this one, where something missing would go.
    pub(crate) fn after(self) -> Span {
        // The column is only right when the span holds no multi-byte characters; good enough
        // to point at "here" in a message.
        Span { column: self.column + self.len, offset: self.offset + self.len, len: 0, ..self }
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Severity {
    /// Compilation fails.
    Error,
    /// Compilation goes on; something looks wrong.
    Warning,
}

/// One message about the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What it is about.
    pub span: Span,
    /// What is wrong, in the user's vocabulary.
    pub message: String,
    /// A suggestion, if there is one ("did you mean `threadIdx`?").
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{kind} at {}:{}: {}", self.span.line, self.span.column, self.message)?;
        if let Some(help) = &self.help {
            write!(f, "; {help}")?;
        }
        Ok(())
    }
}

/// Most errors reported at once: past this, later ones are mostly consequences of earlier ones.
pub(crate) const MAX_ERRORS: usize = 50;
/// Most warnings kept: a person reads a few, and a flood (one per unused `-D` override, say)
/// would cost the editor more than it tells.
pub(crate) const MAX_WARNINGS: usize = 200;

/// Collects diagnostics while compiling, without duplicates and up to [`MAX_ERRORS`] errors
/// and [`MAX_WARNINGS`] warnings.
#[derive(Clone, Debug, Default)]
pub(crate) struct Diags {
    list: Vec<Diagnostic>,
    errors: usize,
    warnings: usize,
    /// (offset, length, message) of every diagnostic kept, to drop repeats in logarithmic time.
    seen: alloc::collections::BTreeSet<(u32, u32, String)>,
}

impl Diags {
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Severity::Error, span, message.into(), None);
    }

    pub fn error_help(&mut self, span: Span, message: impl Into<String>, help: impl Into<String>) {
        self.push(Severity::Error, span, message.into(), Some(help.into()));
    }

    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.push(Severity::Warning, span, message.into(), None);
    }

    /// One found elsewhere (the lexer's, once the preprocessor knows it is not in skipped text).
    pub fn add(&mut self, d: Diagnostic) {
        self.push(d.severity, d.span, d.message, d.help);
    }

    fn push(&mut self, severity: Severity, span: Span, message: String, help: Option<String>) {
        if self.full() {
            return;
        }
        if severity == Severity::Warning && self.warnings >= MAX_WARNINGS {
            return;
        }
        // Inlined device functions and unrolled host loops would repeat the same message.
        if !self.seen.insert((span.offset, span.len, message.clone())) {
            return;
        }
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        self.list.push(Diagnostic { severity, span, message, help });
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Whether the error budget is spent (callers may stop early).
    pub fn full(&self) -> bool {
        self.errors >= MAX_ERRORS
    }

    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Everything reported, in source order.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.list.sort_by_key(|d| (d.span.offset, d.span.line));
        self.list
    }
}

/// Edit distance in characters where swapping two neighbours counts as one edit (optimal
/// string alignment), for "did you mean" suggestions.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: distance between the first i chars of a and the first j of b; three rows.
    let mut before: Vec<usize> = alloc::vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = alloc::vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        core::mem::swap(&mut before, &mut prev);
        core::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo.
pub(crate) fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let d = edit_distance(name, candidate);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_names_the_position_and_the_help() {
        let d = Diagnostic {
            severity: Severity::Error,
            span: Span { line: 4, column: 19, offset: 70, len: 9 },
            message: "undefined name `threadIdy`".into(),
            help: Some("did you mean `threadIdx`?".into()),
        };
        assert_eq!(d.to_string(), "error at 4:19: undefined name `threadIdy`; did you mean `threadIdx`?");
    }

    #[test]
    fn suggestions_pick_the_closest_plausible_name() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("cuont", "count"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(suggest("threadIdy", ["blockIdx", "threadIdx", "gridDim"]), Some("threadIdx"));
        assert_eq!(suggest("x", ["threadIdx"]), None);
    }

    #[test]
    fn duplicates_are_dropped_and_errors_capped() {
        let mut d = Diags::default();
        let span = Span { line: 1, column: 1, offset: 0, len: 1 };
        d.error(span, "same");
        d.error(span, "same");
        assert_eq!(d.error_count(), 1);
        for i in 0..100u32 {
            d.error(Span { offset: i + 1, ..span }, "many");
        }
        assert_eq!(d.error_count(), MAX_ERRORS);
    }

    #[test]
    fn warnings_are_capped_too_and_errors_still_count() {
        let mut d = Diags::default();
        let span = Span { line: 1, column: 1, offset: 0, len: 1 };
        for i in 0..1000u32 {
            d.warning(Span { offset: i, ..span }, "noise");
        }
        d.error(span, "the real problem");
        assert!(d.has_errors());
        let all = d.finish();
        assert_eq!(all.len(), MAX_WARNINGS + 1);
        assert!(all.iter().any(|x| x.message == "the real problem"));
    }
}
