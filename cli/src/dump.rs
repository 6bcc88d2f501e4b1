//! `warpscope run --dump BUFFER[=PATH]` and `--checksums`: a buffer's final contents, as text
//! (one element per line, by its element type) or raw little-endian words (a path ending in
//! `.bin`), and a checksum of every buffer, to check results against a reference.

use std::io::Write;

use warpscope_core::workload::{buffer_text, BufferSpec, ElemType};

/// One `--dump`: the buffer (its index, name and element type) and where its contents go
/// (`None`: standard output).
pub struct Dump {
    buffer: usize,
    name: String,
    elem: ElemType,
    path: Option<std::path::PathBuf>,
}

/// Reads the `--dump` arguments against the workload's buffers; `Err` says what is wrong.
pub fn parse(args: &[String], buffers: &[BufferSpec], json: bool) -> Result<Vec<Dump>, String> {
    let mut dumps = Vec::new();
    for arg in args {
        let (name, path) = match arg.split_once('=') {
            Some((name, path)) if !path.is_empty() => (name, Some(std::path::PathBuf::from(path))),
            _ => (arg.as_str(), None),
        };
        let Some(buffer) = buffers.iter().position(|b| b.name == name) else {
            let names: Vec<&str> = buffers.iter().map(|b| b.name.as_str()).collect();
            return Err(format!("--dump {arg}: there is no buffer `{name}`; the buffers are {}", names.join(", ")));
        };
        if path.is_none() && json {
            return Err(format!("--dump {arg}: with --json, write the dump to a file (--dump {name}=PATH)"));
        }
        dumps.push(Dump { buffer, name: name.to_string(), elem: buffers[buffer].elem, path });
    }
    Ok(dumps)
}

/// FNV-1a (64 bits) of the words' little-endian bytes: a checksum that any language can
/// compute in a few lines.
pub fn checksum(words: &[u32]) -> u64 {
    fnv1a(words.iter().flat_map(|w| w.to_le_bytes()))
}

/// FNV-1a (64 bits) of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Writes every dump; `buffer(i)` gives buffer `i`'s words.
pub fn write<'a>(dumps: &[Dump], buffer: impl Fn(usize) -> &'a [u32]) -> Result<(), String> {
    let to_stdout = dumps.iter().filter(|d| d.path.is_none()).count();
    let mut stdout = std::io::stdout().lock();
    for d in dumps {
        let words = buffer(d.buffer);
        match &d.path {
            Some(path) if path.extension().is_some_and(|e| e == "bin") => {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            Some(path) => std::fs::write(path, buffer_text(words, d.elem))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            None => {
                if to_stdout > 1 {
                    let _ = writeln!(stdout, "# {}", d.name);
                }
                let _ = stdout.write_all(buffer_text(words, d.elem).as_bytes());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_published_test_vectors() {
        // Fowler, Noll and Vo's reference values for FNV-1a 64.
        assert_eq!(fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(*b"foobar"), 0x8594_4171_f739_67e8);
        // A buffer's words are hashed as their little-endian bytes.
        assert_eq!(checksum(&[u32::from_le_bytes(*b"foob"), u32::from_le_bytes(*b"ar\0\0")]), fnv1a(*b"foobar\0\0"));
    }
}
