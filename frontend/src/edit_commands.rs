//! The editor's own keyboard edits (Tab, Shift+Tab, Enter), as pure functions from the text
//! and the selection to the change to make, so they can be tested without a browser.
//!
//! Offsets are bytes on character boundaries; the editor converts from and to the UTF-16
//! offsets of the textarea.

use std::ops::Range;

use crate::text_position::{floor_char_boundary, utf16_len};

/// One indentation step.
pub const INDENT: &str = "    ";

/// A change to the text: replace the bytes `replace` with `insert`, then select `selection`
/// (byte offsets in the new text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// What to replace, in the old text.
    pub replace: Range<usize>,
    /// What to put there.
    pub insert: String,
    /// The selection afterwards, in the new text.
    pub selection: Range<usize>,
}

impl Edit {
    /// The text after the edit (the browser applies edits itself; this is for tests).
    pub fn apply(&self, text: &str) -> String {
        [&text[..self.replace.start], &self.insert, &text[self.replace.end..]].concat()
    }

    /// The UTF-16 offset in the new text of byte `offset` in the new text, computed from the
    /// old text without building the new one.
    pub fn utf16_in_result(&self, old: &str, offset: usize) -> u32 {
        let start = self.replace.start;
        let inserted_end = start + self.insert.len();
        if offset <= start {
            utf16_len(&old[..offset])
        } else if offset <= inserted_end {
            utf16_len(&old[..start]) + utf16_len(&self.insert[..offset - start])
        } else {
            let old_offset = offset - inserted_end + self.replace.end;
            utf16_len(&old[..old_offset]) + utf16_len(&self.insert) - utf16_len(&old[self.replace.clone()])
        }
    }
}

/// Tab: within one line, replaces the selection with [`INDENT`]; across lines, indents every
/// non-empty line it touches.
pub fn indent(text: &str, selection: Range<usize>) -> Edit {
    let selection = clamp(text, selection);
    if !text[selection.clone()].contains('\n') {
        let caret = selection.start + INDENT.len();
        return Edit { replace: selection, insert: INDENT.to_string(), selection: caret..caret };
    }
    let block = touched_lines(text, &selection);
    let mut insert = String::with_capacity(block.len() + INDENT.len() * 8);
    let (mut new_start, mut new_end) = (selection.start, selection.end);
    let mut line_start = block.start;
    for (n, line) in text[block.clone()].split('\n').enumerate() {
        if n > 0 {
            insert.push('\n');
        }
        if !line.is_empty() {
            insert.push_str(INDENT);
            // A selection edge at a line's very start stays there (the line stays selected
            // whole); one further in moves with the text.
            if line_start < selection.start {
                new_start += INDENT.len();
            }
            if line_start < selection.end {
                new_end += INDENT.len();
            }
        }
        insert.push_str(line);
        line_start += line.len() + 1;
    }
    Edit { replace: block, insert, selection: new_start..new_end }
}

/// Shift+Tab: removes up to [`INDENT`]'s width of leading spaces (or one leading tab) from
/// every line the selection touches; `None` if there is nothing to remove.
pub fn outdent(text: &str, selection: Range<usize>) -> Option<Edit> {
    let selection = clamp(text, selection);
    let block = touched_lines(text, &selection);
    let mut insert = String::with_capacity(block.len());
    let (mut new_start, mut new_end) = (selection.start, selection.end);
    let mut line_start = block.start;
    let mut removed_any = false;
    for (n, line) in text[block.clone()].split('\n').enumerate() {
        if n > 0 {
            insert.push('\n');
        }
        let removed =
            if line.starts_with('\t') { 1 } else { line.bytes().take(INDENT.len()).take_while(|&b| b == b' ').count() };
        removed_any |= removed > 0;
        // An edge inside the removed blanks moves to where they were.
        let shift = |edge: usize| edge.saturating_sub(line_start).min(removed);
        if selection.start >= line_start {
            new_start -= shift(selection.start);
        }
        if selection.end >= line_start {
            new_end -= shift(selection.end);
        }
        insert.push_str(&line[removed..]);
        line_start += line.len() + 1;
    }
    removed_any.then_some(Edit { replace: block, insert, selection: new_start..new_end })
}

/// Enter: a line break followed by the indentation of the line the caret is on (only the part
/// before the caret, when the caret is inside the indentation).
pub fn newline(text: &str, selection: Range<usize>) -> Edit {
    let selection = clamp(text, selection);
    let start = line_start(text, selection.start);
    let indentation: &str = {
        let before_caret = &text[start..selection.start];
        let blanks = before_caret.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        &before_caret[..blanks]
    };
    let insert = format!("\n{indentation}");
    let caret = selection.start + insert.len();
    Edit { replace: selection, insert, selection: caret..caret }
}

/// The selection ordered and on character boundaries inside the text.
fn clamp(text: &str, selection: Range<usize>) -> Range<usize> {
    let (a, b) = (floor_char_boundary(text, selection.start), floor_char_boundary(text, selection.end));
    a.min(b)..a.max(b)
}

fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(text: &str, offset: usize) -> usize {
    text[offset..].find('\n').map_or(text.len(), |i| offset + i)
}

/// The whole lines a selection touches, without the final line break; a selection that ends
/// at the very start of a line does not touch that line.
fn touched_lines(text: &str, selection: &Range<usize>) -> Range<usize> {
    let last = if selection.end > selection.start && text[..selection.end].ends_with('\n') {
        selection.end - 1
    } else {
        selection.end
    };
    line_start(text, selection.start)..line_end(text, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `command` on `marked`, where `[` and `]` mark the selection (or `|` the caret),
    /// and returns the result marked the same way.
    fn run(marked: &str, command: impl Fn(&str, Range<usize>) -> Option<Edit>) -> String {
        let text: String = marked.chars().filter(|c| !matches!(c, '[' | ']' | '|')).collect();
        let selection = match marked.find('|') {
            Some(caret) => caret..caret,
            None => {
                let start = marked.find('[').expect("a selection");
                start..marked.find(']').expect("a selection end") - 1
            }
        };
        let Some(edit) = command(&text, selection) else { return "unchanged".into() };
        let mut result = edit.apply(&text);
        let range = edit.selection.clone();
        if range.is_empty() {
            result.insert(range.start, '|');
        } else {
            result.insert(range.end, ']');
            result.insert(range.start, '[');
        }
        result
    }

    fn tab(marked: &str) -> String {
        run(marked, |t, s| Some(indent(t, s)))
    }

    fn shift_tab(marked: &str) -> String {
        run(marked, outdent)
    }

    fn enter(marked: &str) -> String {
        run(marked, |t, s| Some(newline(t, s)))
    }

    #[test]
    fn tab_inserts_four_spaces_in_place_of_the_selection() {
        assert_eq!(tab("a|b"), "a    |b");
        assert_eq!(tab("a[xy]b"), "a    |b");
        assert_eq!(tab("|"), "    |");
    }

    #[test]
    fn tab_across_lines_indents_each_non_empty_line() {
        assert_eq!(tab("a[b\n\nc]d\ne"), "    a[b\n\n    c]d\ne");
        // Starting at a line's start keeps the whole line selected.
        assert_eq!(tab("[ab\ncd]"), "[    ab\n    cd]");
        // Ending at the start of a line leaves that line alone.
        assert_eq!(tab("[ab\n]cd"), "[    ab\n]cd");
    }

    #[test]
    fn shift_tab_removes_up_to_one_indentation_step() {
        assert_eq!(shift_tab("      x|y"), "  x|y");
        assert_eq!(shift_tab("  x|y"), "x|y");
        assert_eq!(shift_tab("\t\tx|"), "\tx|");
        assert_eq!(shift_tab("x|y"), "unchanged");
        // A caret inside the removed blanks moves to the line start.
        assert_eq!(shift_tab("  |  x"), "|x");
        assert_eq!(shift_tab("[    a\n  b\nc]\nd"), "[a\nb\nc]\nd");
        assert_eq!(shift_tab("    a\n    [b\n]    c"), "    a\n[b\n]    c");
    }

    #[test]
    fn enter_keeps_the_indentation_of_the_line() {
        assert_eq!(enter("    if (x) {|"), "    if (x) {\n    |");
        assert_eq!(enter("\t  a = 1;|\nb"), "\t  a = 1;\n\t  |\nb");
        assert_eq!(enter("x|"), "x\n|");
        // Only the blanks before the caret count.
        assert_eq!(enter("  |  y"), "  \n  |  y");
        assert_eq!(enter("    a[bc]d"), "    a\n    |d");
    }

    #[test]
    fn edits_work_between_non_ascii_characters() {
        assert_eq!(tab("é|🦀"), "é    |🦀");
        assert_eq!(enter("  日本|語"), "  日本\n  |語");
        assert_eq!(tab("[é\n🦀]"), "[    é\n    🦀]");
    }

    #[test]
    fn selections_are_clamped_and_ordered() {
        // A backwards selection (as a drag to the left could report) past the end.
        let backwards = Range { start: 9, end: 1 };
        let edit = indent("ab", backwards);
        assert_eq!(edit.replace, 1..2);
        // 1 is inside `é`, rounded down to 0.
        assert_eq!(newline("é", 1..1).replace, 0..0);
    }

    #[test]
    fn result_offsets_are_counted_in_utf16() {
        let old = "🦀a\n🦀b";
        let edit = indent(old, 0..old.len());
        let new = edit.apply(old);
        for offset in (0..=new.len()).filter(|&o| new.is_char_boundary(o)) {
            assert_eq!(edit.utf16_in_result(old, offset), utf16_len(&new[..offset]), "at {offset}");
        }
        // And past the replaced part, with an edit that shrinks the text.
        let old = "    é\n🦀";
        let edit = outdent(old, 0..0).expect("blanks to remove");
        let new = edit.apply(old);
        assert_eq!(new, "é\n🦀");
        assert_eq!(edit.utf16_in_result(old, new.len()), utf16_len(&new));
    }
}
