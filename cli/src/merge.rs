//! `warpscope merge`: the outputs of a sweep's shards (or of one sweep, rows as they finished)
//! combined into one, in grid order. Rows are copied byte for byte; every row names its grid
//! (`grid`, `total`), so shards of different sweeps are refused rather than mixed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct MergeArgs {
    /// Outputs of `warpscope sweep`, all JSON lines or all CSV.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the combined output to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Where a row came from, for messages.
struct Origin<'a> {
    file: &'a str,
    line: usize,
}

impl std::fmt::Display for Origin<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A row's place in its grid: its index, the grid's size and fingerprint.
fn key(line: &str, csv: bool) -> Option<(usize, usize, String)> {
    if csv {
        // The first three columns are numbers and a hex fingerprint: never quoted.
        let mut fields = line.splitn(4, ',');
        let index = fields.next()?.parse().ok()?;
        let total = fields.next()?.parse().ok()?;
        return Some((index, total, fields.next()?.to_string()));
    }
    let row: serde_json::Value = serde_json::from_str(line).ok()?;
    let number = |name: &str| row.get(name)?.as_u64().and_then(|n| usize::try_from(n).ok());
    Some((number("index")?, number("total")?, row.get("grid")?.as_str()?.to_string()))
}

/// Indices as ranges, `0-3, 7, 9-12`, the first twenty of them.
fn ranges(indices: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in indices {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == i => *last = i,
            _ => runs.push((i, i)),
        }
    }
    let shown: Vec<String> =
        runs.iter().take(20).map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    let more = if runs.len() > 20 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// The merged text, and the indices no file held.
fn merge(inputs: &[(String, String)]) -> Result<(String, Vec<usize>), String> {
    let mut header: Option<(&str, &str)> = None; // (file, header row) for CSV
    let mut csv = None;
    let mut grid: Option<(String, usize, String)> = None; // fingerprint, total, where first seen
    let mut rows: BTreeMap<usize, (&str, String)> = BTreeMap::new();
    for (file, text) in inputs {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r'))).peekable();
        let Some(&(_, first)) = lines.peek() else { continue }; // an empty shard
        let is_csv = !first.starts_with('{');
        if *csv.get_or_insert(is_csv) != is_csv {
            return Err(format!(
                "{file}: {} but the files before it are not",
                if is_csv { "CSV" } else { "JSON lines" }
            ));
        }
        if is_csv {
            let (_, row) = lines.next().expect("peeked");
            match header {
                None => header = Some((file, row)),
                Some((before, columns)) if columns != row => {
                    return Err(format!("{file}: its columns differ from {before}'s: not shards of one sweep"))
                }
                Some(_) => {}
            }
        }
        for (number, line) in lines {
            let here = Origin { file, line: number };
            if line.is_empty() {
                continue;
            }
            let (index, total, fingerprint) =
                key(line, is_csv).ok_or_else(|| format!("{here}: not a row of `warpscope sweep`"))?;
            match &grid {
                None => grid = Some((fingerprint, total, here.to_string())),
                Some((g, t, first)) if *g != fingerprint || *t != total => {
                    return Err(format!(
                    "{here}: a row of grid {fingerprint} ({total} points), but {first} is of grid {g} ({t} points): \
                         not shards of one sweep"
                ))
                }
                Some(_) => {}
            }
            if index >= total {
                return Err(format!("{here}: point {index} of a grid of {total}"));
            }
            match rows.get(&index) {
                Some((_, before)) if before == line => {} // the same point run twice, the same row
                Some((from, _)) => {
                    return Err(format!("{here}: point {index} differs from its row in {from}: not one sweep"))
                }
                None => {
                    rows.insert(index, (file, line.to_string()));
                }
            }
        }
    }
    let mut out = String::new();
    if let Some((_, columns)) = header {
        out.push_str(columns);
        out.push('\n');
    }
    for (_, line) in rows.values() {
        out.push_str(line);
        out.push('\n');
    }
    let total = grid.map_or(0, |(_, total, _)| total);
    let missing = (0..total).filter(|i| !rows.contains_key(i)).collect();
    Ok((out, missing))
}

pub fn run(args: &MergeArgs) -> ExitCode {
    let mut inputs = Vec::new();
    for path in &args.files {
        match std::fs::read_to_string(path) {
            Ok(text) => inputs.push((path.display().to_string(), text)),
            Err(e) => {
                eprintln!("warpscope: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    let (text, missing) = match merge(&inputs) {
        Ok(merged) => merged,
        Err(e) => {
            eprintln!("warpscope: {e}");
            return ExitCode::from(2);
        }
    };
    let written = match &args.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => std::io::stdout().write_all(text.as_bytes()).map_err(|e| format!("cannot write: {e}")),
    };
    if let Err(e) = written {
        eprintln!("warpscope: {e}");
        return ExitCode::from(2);
    }
    if !missing.is_empty() {
        eprintln!(
            "warpscope: {} points missing (their shards did not run or were stopped): {}",
            missing.len(),
            ranges(&missing)
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(texts: &[&str]) -> Vec<(String, String)> {
        texts.iter().enumerate().map(|(i, t)| (format!("f{i}"), t.to_string())).collect()
    }

    #[test]
    fn rows_come_out_in_index_order_and_gaps_are_listed() {
        let a = "{\"index\":2,\"total\":6,\"grid\":\"g\"}\n{\"index\":0,\"total\":6,\"grid\":\"g\"}\n";
        let b = "{\"index\":5,\"total\":6,\"grid\":\"g\"}\n{\"index\":0,\"total\":6,\"grid\":\"g\"}\n";
        let (text, missing) = merge(&files(&[a, b])).unwrap();
        let indices: Vec<&str> = text.lines().map(|l| &l[9..10]).collect();
        assert_eq!(indices, ["0", "2", "5"]);
        assert_eq!(missing, [1, 3, 4]);
        assert_eq!(ranges(&missing), "1, 3-4");
    }

    #[test]
    fn csv_keeps_one_header() {
        let a = "index,total,grid,x\n1,2,g,b\n";
        let b = "index,total,grid,x\n0,2,g,a\n";
        assert_eq!(merge(&files(&[a, b])).unwrap(), ("index,total,grid,x\n0,2,g,a\n1,2,g,b\n".to_string(), vec![]));
        let other = "index,total,grid,y\n0,2,g,a\n";
        assert!(merge(&files(&[a, other])).unwrap_err().contains("columns differ"));
    }

    #[test]
    fn different_grids_and_conflicting_rows_are_refused() {
        let a = "{\"index\":0,\"total\":2,\"grid\":\"g\",\"cycles\":5}\n";
        let other_grid = "{\"index\":1,\"total\":2,\"grid\":\"h\"}\n";
        assert!(merge(&files(&[a, other_grid])).unwrap_err().contains("not shards of one sweep"));
        let conflict = "{\"index\":0,\"total\":2,\"grid\":\"g\",\"cycles\":6}\n";
        assert_eq!(
            merge(&files(&[a, conflict])).unwrap_err(),
            "f1:1: point 0 differs from its row in f0: not one sweep"
        );
        assert!(merge(&files(&[a, "index,total,grid\n"])).unwrap_err().contains("CSV but the files before"));
    }
}
