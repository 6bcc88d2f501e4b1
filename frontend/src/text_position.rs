//! Converting between the three ways positions in the source are counted: byte offsets (the
//! compiler's spans, Rust slicing), line and column in characters (what people read), and
//! UTF-16 code units (what a browser's `selectionStart` counts).
//!
//! Every conversion clamps instead of failing: diagnostics can be stale by a keystroke, so
//! their positions may lie past the end of the text or inside a character.

use std::ops::Range;

/// Where each line of a text starts, to find lines by number or by offset quickly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of each line; the first is 0, and there is always one.
    starts: Vec<usize>,
    /// Length of the text in bytes.
    len: usize,
}

impl LineIndex {
    /// Indexes the lines of `text` (split at `\n`; a final `\n` starts an empty last line, as a
    /// textarea shows it).
    pub fn new(text: &str) -> LineIndex {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts, len: text.len() }
    }

    /// How many lines there are (at least 1).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The line (from 0) that holds byte `offset`; a line break belongs to the line it ends.
    /// Offsets past the end give the last line.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// The bytes of line `line` (from 0, clamped to the last line), without its line break.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let line = line.min(self.starts.len() - 1);
        let end = match self.starts.get(line + 1) {
            Some(&next) => next - 1,
            None => self.len,
        };
        self.starts[line]..end
    }
}

/// The largest character boundary of `text` at or before `offset` (clamped to its length).
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte offset of 1-based `line` and `column` (in characters), both clamped to the text:
/// a column past the end of its line gives the end of the line.
pub fn byte_offset_of(text: &str, index: &LineIndex, line: u32, column: u32) -> usize {
    let range = index.line_range((line.max(1) - 1) as usize);
    let skip = (column.max(1) - 1) as usize;
    match text[range.clone()].char_indices().nth(skip) {
        Some((at, _)) => range.start + at,
        None => range.end,
    }
}

/// The UTF-16 offset of a byte offset (rounded down to a character boundary and clamped).
pub fn utf16_offset_of(text: &str, byte_offset: usize) -> u32 {
    let end = floor_char_boundary(text, byte_offset);
    utf16_len(&text[..end])
}

/// The byte offset of a UTF-16 offset (clamped; one inside a surrogate pair rounds down).
pub fn byte_offset_of_utf16(text: &str, utf16_offset: u32) -> usize {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16() as u32;
        if units > utf16_offset {
            return at;
        }
    }
    text.len()
}

/// How many UTF-16 code units `text` takes.
pub fn utf16_len(text: &str) -> u32 {
    // ASCII is one unit per byte; only count characters when there is something else.
    if text.is_ascii() {
        return text.len() as u32;
    }
    text.chars().map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_by_number_and_by_offset() {
        let text = "ab\n\ncd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        assert_eq!([0, 1, 2, 3].map(|l| index.line_range(l)), [0..2, 3..3, 4..6, 7..7]);
        // The break at 2 belongs to line 0; offsets past the end go to the last line.
        assert_eq!([0, 2, 3, 4, 6, 7, 99].map(|o| index.line_of(o)), [0, 0, 1, 2, 2, 3, 3]);
        assert_eq!(index.line_range(99), 7..7);
        let empty = LineIndex::new("");
        assert_eq!((empty.line_count(), empty.line_range(0), empty.line_of(5)), (1, 0..0, 0));
    }

    #[test]
    fn line_and_column_count_characters() {
        let text = "int x;\n  é = 🦀;\nz";
        let index = LineIndex::new(text);
        assert_eq!(byte_offset_of(text, &index, 1, 1), 0);
        assert_eq!(byte_offset_of(text, &index, 1, 5), 4);
        // `=` is the 5th character of line 2 but its 6th byte: `é` takes two.
        assert_eq!(&text[byte_offset_of(text, &index, 2, 5)..][..1], "=");
        assert_eq!(&text[byte_offset_of(text, &index, 2, 7)..][..4], "🦀");
        assert_eq!(&text[byte_offset_of(text, &index, 2, 8)..][..1], ";");
        // Clamped: past the end of a line, past the last line, and zero.
        assert_eq!(byte_offset_of(text, &index, 1, 40), 6);
        assert_eq!(byte_offset_of(text, &index, 9, 9), text.len());
        assert_eq!(byte_offset_of(text, &index, 0, 0), 0);
    }

    #[test]
    fn utf16_offsets_count_surrogate_pairs_as_two() {
        let text = "é🦀x";
        // Bytes: é 0..2, 🦀 2..6, x 6..7. UTF-16: é 0, 🦀 1..3, x 3.
        assert_eq!([0, 2, 6, 7].map(|b| utf16_offset_of(text, b)), [0, 1, 3, 4]);
        // Inside a character rounds down; past the end clamps.
        assert_eq!([1, 4, 50].map(|b| utf16_offset_of(text, b)), [0, 1, 4]);
        assert_eq!([0, 1, 3, 4, 9].map(|u| byte_offset_of_utf16(text, u)), [0, 2, 6, 7, 7]);
        // The middle of the surrogate pair rounds down to the crab.
        assert_eq!(byte_offset_of_utf16(text, 2), 2);
        assert_eq!((utf16_len(text), utf16_len("abc"), utf16_len("")), (4, 3, 0));
    }

    #[test]
    fn conversions_round_trip_on_every_boundary() {
        let text = "a\tb\n日本語 🦀 ok\r\n\u{10FFFF}";
        for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
            assert_eq!(byte_offset_of_utf16(text, utf16_offset_of(text, at)), at);
        }
        assert_eq!(floor_char_boundary(text, 6), 4);
        assert_eq!(floor_char_boundary(text, 1000), text.len());
    }
}
