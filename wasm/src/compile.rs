//! Compiling a kernel file for the page: the editor's `Compile` request, and the first step
//! of a `Simulate` job. The machine is validated before the compiler sees it, so that a bad
//! setting is reported as such rather than as a puzzling compile error.

use warpscope_core::config::GpuConfig;
use warpscope_core::isa::Instr;
use warpscope_core::kernel::{self, CompileOptions, Diagnostic, Program, Severity, Span};

use crate::launch_table::launch_rows;
use crate::protocol::{CompileSummary, Failure, JobId, KernelSummary, Reply};

/// The answer to `Request::Compile`. An invalid `config` gives a single error at 1:1 naming
/// the field, and no defines.
pub fn compile_reply(id: JobId, source: &str, defines: &[(String, String)], config: &GpuConfig) -> Reply {
    if let Err(e) = config.validate() {
        let diagnostic = Diagnostic {
            severity: Severity::Error,
            span: Span { line: 1, column: 1, offset: 0, len: 0 },
            message: format!("the machine cannot be simulated: {e}"),
            help: Some(format!("fix `{}` in the hardware settings", e.field)),
        };
        return Reply::Compiled { id, diagnostics: vec![diagnostic], defines: Vec::new(), summary: None };
    }
    match kernel::compile(source, &CompileOptions { config, defines, optimize: true }) {
        Ok(program) => Reply::Compiled {
            id,
            summary: Some(summary(&program, source, config)),
            diagnostics: program.warnings,
            defines: program.defines,
        },
        Err(diagnostics) => {
            Reply::Compiled { id, diagnostics, defines: kernel::defines(source, defines), summary: None }
        }
    }
}

/// The program a `Simulate` job runs: an invalid `config` is [`Failure::InvalidConfig`],
/// a file that does not compile [`Failure::Compile`].
pub fn compile_for_run(source: &str, defines: &[(String, String)], config: &GpuConfig) -> Result<Program, Failure> {
    config.validate().map_err(Failure::InvalidConfig)?;
    kernel::compile(source, &CompileOptions { config, defines, optimize: true })
        .map_err(|diagnostics| Failure::Compile { diagnostics })
}

/// What a compiled file would run: `program`, compiled from `source` for `config`.
pub fn summary(program: &Program, source: &str, config: &GpuConfig) -> CompileSummary {
    let w = &program.workload;
    CompileSummary {
        launches: w.launches.len() as u32,
        kernels: w
            .kernels
            .iter()
            .map(|k| {
                let mut device_launches: Vec<String> = Vec::new();
                for instr in &k.code {
                    let Instr::Launch { kernel: child, .. } = *instr else { continue };
                    let Some(child) = w.kernels.get(child as usize) else { continue };
                    if !device_launches.contains(&child.name) {
                        device_launches.push(child.name.clone());
                    }
                }
                KernelSummary {
                    name: k.name.clone(),
                    registers: k.regs_per_thread,
                    spill_bytes: k.spill_words * 4,
                    shared_bytes: k.shared_bytes,
                    instructions: k.code.len() as u32,
                    device_launches,
                }
            })
            .collect(),
        buffer_bytes: w.buffers.iter().map(|b| b.words as u64 * 4).sum(),
        sequence: launch_rows(program, source, config),
        sm_count: config.core.sm_count,
        max_warps_per_sm: config.core.max_warps_per_sm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::config::presets;
    use warpscope_core::isa::Dim3;
    use warpscope_core::library;

    fn config() -> GpuConfig {
        presets::fermi_gtx480()
    }

    #[test]
    fn a_library_file_compiles_with_its_defines_and_footprint() {
        let vecadd = library::by_id("vecadd").unwrap();
        let defines = [vecadd.size_define(1024)];
        let Reply::Compiled { id, diagnostics, defines, summary } =
            compile_reply(4, vecadd.source, &defines, &config())
        else {
            panic!("not a Compiled reply")
        };
        assert_eq!(id, 4);
        assert_eq!(diagnostics, []);
        assert_eq!(defines.len(), 1);
        assert_eq!((defines[0].name.as_str(), defines[0].value.as_str()), ("N", "1024"));
        let summary = summary.unwrap();
        assert_eq!(summary.launches, 1);
        assert_eq!(summary.kernels.len(), 1);
        assert_eq!(summary.kernels[0].name, "vecadd");
        assert!(summary.kernels[0].registers >= 4 && summary.kernels[0].instructions > 5);
        assert_eq!(summary.buffer_bytes, 3 * 1024 * 4, "three float vectors of N");
        assert_eq!(summary.sm_count, 15);
        assert_eq!(summary.sequence.len(), 1);
        let launch = &summary.sequence[0];
        assert_eq!((launch.kernel.as_str(), launch.count), ("vecadd", 1));
        assert_eq!((launch.grid, launch.block), (Dim3::linear(1024 / 256), Dim3::linear(256)));
        assert_eq!(launch.occupancy.blocks_per_sm, 6, "8 warps a block, 48 an SM");
    }

    #[test]
    fn the_launch_sequence_follows_the_machine_and_names_device_launches() {
        let hotspot = library::by_id("hotspot").unwrap();
        let mut config = config();
        config.core.max_warps_per_sm = 32;
        config.core.max_threads_per_sm = 1024;
        let Reply::Compiled { summary: Some(summary), .. } = compile_reply(1, hotspot.source, &[], &config) else {
            panic!("hotspot compiles")
        };
        assert_eq!((summary.launches, summary.sequence.len(), summary.sequence[0].count), (20, 1, 20));
        assert_eq!(summary.sequence[0].grid, Dim3 { x: 16, y: 16, z: 1 });
        assert_eq!(summary.sequence[0].occupancy.blocks_per_sm, 4, "32 warp slots hold four blocks of 8 warps");

        let bfs = library::by_id("bfs-dp").unwrap();
        let Reply::Compiled { summary: Some(summary), .. } = compile_reply(2, bfs.source, &[], &self::config()) else {
            panic!("bfs-dp compiles")
        };
        let level = summary.kernels.iter().find(|k| k.name == "bfs_level").unwrap();
        assert_eq!(level.device_launches, ["bfs_expand"]);
        assert!(summary.sequence.iter().all(|row| row.kernel != "bfs_expand"), "only host launches are listed");
    }

    #[test]
    fn errors_come_with_their_position_and_the_defines_still_listed() {
        let source = "#define N 32\n__global__ void k(int* a) {\n    a[0] = b;\n}\nhost { int a[N]; k<<<1, N>>>(a); }";
        let Reply::Compiled { diagnostics, defines, summary, .. } = compile_reply(1, source, &[], &config()) else {
            panic!("not a Compiled reply")
        };
        assert_eq!(summary, None);
        let errors: Vec<(u32, u32)> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.span.line, d.span.column))
            .collect();
        assert_eq!(errors, [(3, 12)], "{diagnostics:?}");
        assert_eq!(defines.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["N"]);
    }

    #[test]
    fn an_invalid_machine_is_one_error_at_the_start_naming_the_field() {
        let mut config = config();
        config.l1.ways = 0;
        let Reply::Compiled { diagnostics, defines, summary, .. } = compile_reply(1, "anything", &[], &config) else {
            panic!("not a Compiled reply")
        };
        assert_eq!((defines, summary), (vec![], None));
        assert_eq!(diagnostics.len(), 1);
        assert_eq!((diagnostics[0].span.line, diagnostics[0].span.column), (1, 1));
        assert!(diagnostics[0].message.contains("l1.ways"), "{}", diagnostics[0].message);
        assert!(matches!(
            compile_for_run("anything", &[], &config),
            Err(Failure::InvalidConfig(e)) if e.field == "l1.ways"
        ));
    }
}
