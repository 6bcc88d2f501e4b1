//! A buffer's contents for a person or a script: one element per line as text, as the CLI's
//! `--dump` writes it and the app's buffer download saves it.

use alloc::string::String;
use core::fmt::Write;

use super::ElemType;

/// The text of a buffer's words: one element per line, as its type says (a float as the
/// shortest decimal that reads back to the same bits). A buffer of 1- or 2-byte elements
/// fills whole words, so its last line or lines may be the padding after its last element.
pub fn buffer_text(words: &[u32], elem: ElemType) -> String {
    if elem.is_wide() {
        return wide_text(words, elem);
    }
    let elements = elem.elements(words);
    let mut out = String::with_capacity(elements.len() * 8);
    for w in elements {
        // Writing to a `String` cannot fail.
        let _ = match elem {
            ElemType::Uint => writeln!(out, "{w}"),
            ElemType::Float => writeln!(out, "{}", f32::from_bits(w)),
            // The narrow types' elements come extended to a word, signed or not as they are.
            _ => writeln!(out, "{}", w as i32),
        };
    }
    out
}

/// [`buffer_text`] for 8-byte elements (a trailing odd word is not an element).
fn wide_text(words: &[u32], elem: ElemType) -> String {
    let mut out = String::with_capacity(words.len() * 10);
    for pair in words.chunks_exact(2) {
        let value = pair[0] as u64 | (pair[1] as u64) << 32;
        let _ = match elem {
            ElemType::Double => writeln!(out, "{}", f64::from_bits(value)),
            ElemType::ULong => writeln!(out, "{value}"),
            _ => writeln!(out, "{}", value as i64),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_element_is_written_by_its_type() {
        let words = [(-3i32) as u32, 7, 0x3fc0_0000];
        assert_eq!(buffer_text(&words, ElemType::Int), "-3\n7\n1069547520\n");
        assert_eq!(buffer_text(&words, ElemType::Uint), "4294967293\n7\n1069547520\n");
        assert_eq!(buffer_text(&[0x3fc0_0000, 0x3dcc_cccd], ElemType::Float), "1.5\n0.1\n");
        // Narrow elements, little-endian within each word.
        assert_eq!(buffer_text(&[0x80FF_0102], ElemType::Char), "2\n1\n-1\n-128\n");
        assert_eq!(buffer_text(&[0x80FF_0102], ElemType::UChar), "2\n1\n255\n128\n");
        assert_eq!(buffer_text(&[0x8000_FFFE], ElemType::Short), "-2\n-32768\n");
        assert_eq!(buffer_text(&[0x8000_FFFE], ElemType::UShort), "65534\n32768\n");
        assert_eq!(buffer_text(&[0x0000_0100], ElemType::Bool), "0\n1\n0\n0\n");
        let minus_two = (-2i64) as u64;
        let pair = [minus_two as u32, (minus_two >> 32) as u32, 0x9999_999A, 0x3FB9_9999];
        assert_eq!(buffer_text(&pair, ElemType::Long), "-2\n4591870180066957722\n");
        assert_eq!(buffer_text(&pair, ElemType::ULong), "18446744073709551614\n4591870180066957722\n");
        assert_eq!(buffer_text(&pair[2..], ElemType::Double), "0.1\n");
    }
}
