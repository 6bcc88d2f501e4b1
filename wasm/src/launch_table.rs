//! The host's launch sequence as the Launches panel lists it: runs of identical launches
//! grouped into one row, each with its source position, its grid and block as written, and
//! the occupancy of its block shape on the machine compiled for.

use warpscope_core::config::GpuConfig;
use warpscope_core::kernel::{Program, Span};
use warpscope_core::sched::tb::{occupancy, BlockNeeds};

use crate::protocol::{DimSource, LaunchRow, MAX_LAUNCH_ROWS};

/// The rows for `program`, compiled from `source` for `config`: at most [`MAX_LAUNCH_ROWS`].
pub fn launch_rows(program: &Program, source: &str, config: &GpuConfig) -> Vec<LaunchRow> {
    let workload = &program.workload;
    let mut rows: Vec<LaunchRow> = Vec::new();
    for (index, launch) in workload.launches.iter().enumerate() {
        let site = program.launch_sites.get(index).copied().unwrap_or_default();
        if let Some(last) = rows.last_mut() {
            let same = workload.kernels.get(launch.kernel as usize).is_some_and(|k| k.name == last.kernel)
                && (launch.grid, launch.block, launch.stream, site.at) == (last.grid, last.block, last.stream, last.at);
            if same {
                last.count += 1;
                continue;
            }
        }
        if rows.len() == MAX_LAUNCH_ROWS {
            break;
        }
        let Some(kernel) = workload.kernels.get(launch.kernel as usize) else { continue };
        let needs = BlockNeeds::of(&config.core, launch.block, kernel.regs_per_thread, kernel.shared_bytes);
        rows.push(LaunchRow {
            first: index as u32,
            count: 1,
            kernel: kernel.name.clone(),
            grid: launch.grid,
            block: launch.block,
            stream: launch.stream,
            shared_bytes: kernel.shared_bytes,
            at: site.at,
            grid_source: dim_source(source, site.grid, program),
            block_source: dim_source(source, site.block, program),
            occupancy: occupancy(&config.core, &needs),
        });
    }
    rows
}

/// The text of `span` and the `#define`s it names.
fn dim_source(source: &str, span: Span, program: &Program) -> DimSource {
    let start = span.offset as usize;
    let text = source.get(start..start + span.len as usize).unwrap_or_default();
    let mut defines: Vec<String> = Vec::new();
    for word in identifiers(text) {
        if program.defines.iter().any(|d| d.name == word) && !defines.iter().any(|d| d == word) {
            defines.push(word.to_string());
        }
    }
    DimSource { text: text.to_string(), defines }
}

/// The identifiers of a piece of C-like text, in order.
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::config::presets;
    use warpscope_core::isa::Dim3;
    use warpscope_core::kernel::{compile, CompileOptions};
    use warpscope_core::library;
    use warpscope_core::sched::tb::Limit;

    fn rows(source: &str, defines: &[(String, String)]) -> Vec<LaunchRow> {
        let config = presets::fermi_gtx480();
        let program = compile(source, &CompileOptions { config: &config, defines, optimize: true }).unwrap();
        launch_rows(&program, source, &config)
    }

    #[test]
    fn hotspots_twenty_launches_are_one_row_with_the_defines_they_use() {
        let hotspot = library::by_id("hotspot").unwrap();
        let rows = rows(hotspot.source, &[]);
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!((row.first, row.count, row.kernel.as_str()), (0, 20, "hotspot"));
        assert_eq!((row.grid, row.block), (Dim3 { x: 16, y: 16, z: 1 }, Dim3 { x: 16, y: 16, z: 1 }));
        assert_eq!(row.shared_bytes, 16 * 16 * 4);
        assert_eq!(row.grid_source.text, "dim3(N / TILE, N / TILE)");
        assert_eq!(row.grid_source.defines, ["N", "TILE"]);
        assert_eq!(
            (row.block_source.text.as_str(), &row.block_source.defines[..]),
            ("dim3(TILE, TILE)", &["TILE".to_string()][..])
        );
        let line = hotspot.source.lines().position(|l| l.contains("hotspot<<<")).unwrap() as u32 + 1;
        assert_eq!((row.at.line, row.at.column), (line, 9));
        // 256 threads = 8 warps of Fermi's 48: six blocks per SM.
        assert_eq!((row.occupancy.blocks_per_sm, row.occupancy.limited_by), (6, Limit::Warps));
    }

    #[test]
    fn a_define_override_changes_the_grid() {
        let vecadd = library::by_id("vecadd").unwrap();
        let rows = rows(vecadd.source, &[("N".into(), "1024".into())]);
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].grid, rows[0].block), (Dim3::linear(4), Dim3::linear(256)));
        assert_eq!(rows[0].grid_source.text, "(N + 255) / 256");
        assert_eq!(rows[0].grid_source.defines, ["N"]);
        assert!(rows[0].block_source.defines.is_empty(), "a literal 256 names no define");
    }

    #[test]
    fn only_consecutive_identical_launches_group_and_rows_are_bounded() {
        let source = "#define B 64\n__global__ void a(int* x) {}\n__global__ void b(int* x) {}\n\
                      host {\n    int x[64];\n    for (int i = 0; i < 300; i++) {\n        a<<<1, B>>>(x);\n        \
                      b<<<i % 2 + 1, B>>>(x);\n    }\n}\n";
        let rows = rows(source, &[]);
        assert_eq!(rows.len(), MAX_LAUNCH_ROWS, "600 launches alternate, so no two in a row group");
        assert_eq!(
            rows.iter().take(3).map(|r| (r.first, r.kernel.as_str(), r.grid.x)).collect::<Vec<_>>(),
            [(0, "a", 1), (1, "b", 1), (2, "a", 1)]
        );
        assert!(rows.iter().all(|r| r.count == 1));
        assert_eq!(rows[0].grid_source.defines, Vec::<String>::new());
        assert_eq!(rows[1].block_source.defines, ["B"]);
    }

    #[test]
    fn identifiers_skip_numbers_and_suffixes() {
        assert_eq!(identifiers("dim3(N / 2u, _M+1.5f)").collect::<Vec<_>>(), ["dim3", "N", "_M"]);
    }
}
