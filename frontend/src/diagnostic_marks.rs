//! Where the editor draws the compiler's diagnostics: an underline under each span (clamped
//! to the line it starts on), one gutter marker per line, and the text of the problems list.

use std::ops::Range;

use warpscope_core::kernel::{Diagnostic, Severity};

use crate::text_position::{floor_char_boundary, LineIndex};

/// One underline, placed on its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Error or warning.
    pub severity: Severity,
    /// Line of the underline, from 1.
    pub line: usize,
    /// Column of its first character, in characters from 1.
    pub column: usize,
    /// The bytes of the line before the underline: drawn invisibly, so that the underline
    /// lands where the text is whatever the characters' widths and tabs.
    pub before: Range<usize>,
    /// The underlined bytes; empty when the span points past the end of the line (at the line
    /// break or the end of the text), where the editor underlines one blank cell instead.
    pub marked: Range<usize>,
    /// The message and help, for the hover tooltip.
    pub tooltip: String,
}

/// The marker in the gutter for a line with diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GutterMarker {
    /// Line, from 1.
    pub line: usize,
    /// The worst severity on the line.
    pub severity: Severity,
    /// Every diagnostic on the line, one per line of text.
    pub tooltip: String,
}

/// Places each diagnostic's underline. The byte offset of a span decides the place (line and
/// column follow from it), so a stale span still lands on a character of the current text.
pub fn layout_marks(text: &str, index: &LineIndex, diagnostics: &[Diagnostic]) -> Vec<Mark> {
    diagnostics
        .iter()
        .map(|d| {
            let start = floor_char_boundary(text, d.span.offset as usize);
            let line = index.line_of(start);
            let line_range = index.line_range(line);
            let end = floor_char_boundary(text, start.saturating_add(d.span.len as usize).min(line_range.end));
            let end = if end > start {
                end
            } else {
                // An empty span marks the one character it points at, if there is one.
                text[start..line_range.end].chars().next().map_or(start, |c| start + c.len_utf8())
            };
            Mark {
                severity: d.severity,
                line: line + 1,
                column: text[line_range.start..start].chars().count() + 1,
                before: line_range.start..start,
                marked: start..end,
                tooltip: tooltip(d),
            }
        })
        .collect()
}

/// One marker per line that has marks, in line order; an error outranks a warning.
pub fn gutter_markers(marks: &[Mark]) -> Vec<GutterMarker> {
    let mut by_line: Vec<&Mark> = marks.iter().collect();
    by_line.sort_by_key(|m| m.line);
    let mut markers: Vec<GutterMarker> = Vec::new();
    for mark in by_line {
        match markers.last_mut() {
            Some(marker) if marker.line == mark.line => {
                if mark.severity == Severity::Error {
                    marker.severity = Severity::Error;
                }
                marker.tooltip.push('\n');
                marker.tooltip.push_str(&mark.tooltip);
            }
            _ => markers.push(GutterMarker { line: mark.line, severity: mark.severity, tooltip: mark.tooltip.clone() }),
        }
    }
    markers
}

/// "error", "warning".
pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The hover text of a diagnostic: "error: message", then the help on its own line.
pub fn tooltip(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}: {}\n{help}", severity_name(d.severity), d.message),
        None => format!("{}: {}", severity_name(d.severity), d.message),
    }
}

/// An entry of the problems list: "3:5 error: message — help".
pub fn problem_text(d: &Diagnostic) -> String {
    let head = format!("{}:{} {}: {}", d.span.line, d.span.column, severity_name(d.severity), d.message);
    match &d.help {
        Some(help) => format!("{head} — {help}"),
        None => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::kernel::Span;

    fn diag(severity: Severity, offset: u32, len: u32, message: &str) -> Diagnostic {
        // Line and column are deliberately wrong: the layout must follow the offset.
        Diagnostic { severity, span: Span { line: 99, column: 99, offset, len }, message: message.into(), help: None }
    }

    fn marks<'a>(text: &'a str, diagnostics: &[Diagnostic]) -> Vec<(usize, usize, &'a str)> {
        layout_marks(text, &LineIndex::new(text), diagnostics)
            .into_iter()
            .map(|m| {
                assert_eq!(m.before.end, m.marked.start);
                (m.line, m.column, &text[m.marked])
            })
            .collect()
    }

    #[test]
    fn a_span_is_underlined_where_its_offset_points() {
        let text = "int x;\n  y = 1;\n";
        assert_eq!(marks(text, &[diag(Severity::Error, 9, 1, "undefined")]), [(2, 3, "y")]);
        assert_eq!(marks(text, &[diag(Severity::Error, 0, 3, "")]), [(1, 1, "int")]);
    }

    #[test]
    fn columns_count_characters_and_spans_stay_on_boundaries() {
        let text = "é = 🦀 + zz;";
        // `zz` starts at byte 12 (é takes 2, 🦀 4): column 9.
        assert_eq!(marks(text, &[diag(Severity::Error, 12, 2, "")]), [(1, 9, "zz")]);
        // A span that starts or ends inside the crab is cut back to its boundaries.
        assert_eq!(marks(text, &[diag(Severity::Error, 6, 3, "")]), [(1, 5, "🦀")]);
        assert_eq!(marks(text, &[diag(Severity::Error, 4, 3, "")]), [(1, 4, " ")]);
    }

    #[test]
    fn spans_past_the_end_of_their_line_are_clamped_to_it() {
        let text = "a = (1 +\n  2);";
        assert_eq!(marks(text, &[diag(Severity::Error, 4, 9, "")]), [(1, 5, "(1 +")]);
        assert_eq!(marks(text, &[diag(Severity::Error, 4, u32::MAX, "")]), [(1, 5, "(1 +")]);
    }

    #[test]
    fn empty_spans_mark_one_character_or_the_cell_past_the_line() {
        let text = "x = ;\ny";
        assert_eq!(marks(text, &[diag(Severity::Error, 4, 0, "")]), [(1, 5, ";")]);
        let text = "é🦀";
        assert_eq!(marks(text, &[diag(Severity::Error, 2, 0, "")]), [(1, 2, "🦀")]);
        // At the line break, at the end of the text, and far past it (a stale span): nothing
        // to underline, so the mark is the empty cell after the line's last character.
        let text = "x = 1\ny";
        assert_eq!(marks(text, &[diag(Severity::Error, 5, 0, "")]), [(1, 6, "")]);
        assert_eq!(marks(text, &[diag(Severity::Error, 7, 0, "")]), [(2, 2, "")]);
        assert_eq!(marks(text, &[diag(Severity::Error, 500, 3, "")]), [(2, 2, "")]);
        assert_eq!(marks("", &[diag(Severity::Warning, 0, 0, "")]), [(1, 1, "")]);
    }

    #[test]
    fn one_gutter_marker_per_line_and_errors_win() {
        let text = "a\nb c\nd";
        let diagnostics = [
            diag(Severity::Warning, 4, 1, "unused `c`"),
            diag(Severity::Warning, 0, 1, "odd `a`"),
            diag(Severity::Error, 2, 1, "undefined `b`"),
        ];
        let markers = gutter_markers(&layout_marks(text, &LineIndex::new(text), &diagnostics));
        assert_eq!(
            markers,
            [
                GutterMarker { line: 1, severity: Severity::Warning, tooltip: "warning: odd `a`".into() },
                GutterMarker {
                    line: 2,
                    severity: Severity::Error,
                    tooltip: "warning: unused `c`\nerror: undefined `b`".into()
                },
            ]
        );
    }

    #[test]
    fn problems_and_tooltips_read_as_sentences() {
        let mut d = diag(Severity::Error, 0, 0, "undefined name `threadIdy`");
        d.span.line = 3;
        d.span.column = 5;
        assert_eq!(problem_text(&d), "3:5 error: undefined name `threadIdy`");
        assert_eq!(tooltip(&d), "error: undefined name `threadIdy`");
        d.help = Some("did you mean `threadIdx`?".into());
        d.severity = Severity::Warning;
        assert_eq!(problem_text(&d), "3:5 warning: undefined name `threadIdy` — did you mean `threadIdx`?");
        assert_eq!(tooltip(&d), "warning: undefined name `threadIdy`\ndid you mean `threadIdx`?");
    }
}
