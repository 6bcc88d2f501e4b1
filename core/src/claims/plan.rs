//! A claim as runs: every workload under every variant, each one [`RunSpec`] that anything
//! able to simulate can execute — the CLI's threads, the tests, or the app's Web Workers — and
//! get the same report.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Claim, Define, Setting};
use crate::config::{presets, GpuConfig};
use crate::error::ConfigError;
use crate::library;
use crate::stats::Report;
use crate::{Policies, RunOptions, Simulation, StepOutcome};

/// One simulation a claim needs. Two claims that need the same run get equal specs, so a
/// runner can simulate it once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RunSpec {
    /// Library workload id.
    pub workload: &'static str,
    /// Its size knob (`None`: the file's value).
    pub size: Option<u32>,
    /// Machine preset id.
    pub machine: &'static str,
    /// Settings changed from the preset: the claim's, then the variant's.
    pub settings: Vec<Setting>,
    /// `#define`s overridden, after the size knob: the workload's, then the variant's.
    pub defines: Vec<Define>,
    /// Thread-block scheduler spec.
    pub tb: &'static str,
    /// Warp scheduler spec.
    pub warp: &'static str,
}

/// The runs of `claim`, workload by workload, each under every variant in order: run
/// `w * variants + v` is workload `w` under variant `v` (see [`index`]).
pub fn runs(claim: &Claim) -> Vec<RunSpec> {
    let mut out = Vec::with_capacity(claim.workloads.len() * claim.variants.len());
    for w in claim.workloads {
        for v in claim.variants {
            // An oracle variant's slot repeats its first member's run (free once deduplicated).
            let v = match v.best_of.first() {
                Some(first) => claim.variants.iter().find(|m| m.label == *first).unwrap_or(v),
                None => v,
            };
            let mut settings = claim.settings.to_vec();
            settings.extend_from_slice(v.settings);
            let mut defines = w.defines.to_vec();
            defines.extend_from_slice(v.defines);
            out.push(RunSpec {
                workload: w.id,
                size: w.size,
                machine: claim.machine,
                settings,
                defines,
                tb: v.tb,
                warp: v.warp,
            });
        }
    }
    // Then each co-run's programs alone, for its normalised IPCs: see [`solo_index`].
    for (w, workload) in claim.workloads.iter().enumerate() {
        if !is_co_run(workload.id) {
            continue;
        }
        for v in 0..claim.variants.len() {
            let together = out[index(claim, w, v)].clone();
            for part in workload.id.split('+') {
                let warp = base_warp(together.warp);
                out.push(RunSpec { workload: part, size: None, tb: SOLO_TB, warp, ..together.clone() });
            }
        }
    }
    out
}

/// Where the run of workload `w` under variant `v` is in [`runs`].
pub fn index(claim: &Claim, w: usize, v: usize) -> usize {
    w * claim.variants.len() + v
}

/// The thread-block scheduler a co-run's program runs alone under: round-robin, which gives a
/// kernel alone its full occupancy (`cke.md` §6: "at its default occupancy").
pub const SOLO_TB: &str = "rr";

/// Whether workload id `id` names programs side by side (`backprop+kmeans`).
pub fn is_co_run(id: &str) -> bool {
    id.contains('+')
}

/// The warp scheduler under a spec's memory-issue gates (`gto` of `gto+dmil`): what a
/// program alone runs under, as the papers' solo runs have no co-runner to gate against.
pub fn base_warp(spec: &str) -> &str {
    spec.split('+').next().unwrap_or(spec)
}

/// Where the run of part `p` of co-run workload `w`, alone under variant `v`'s machine and
/// settings, is in [`runs`]; `None` if `w` is not a co-run or has no part `p`.
pub fn solo_index(claim: &Claim, w: usize, v: usize, p: usize) -> Option<usize> {
    let parts = |w: &super::WorkloadSize| if is_co_run(w.id) { w.id.split('+').count() } else { 0 };
    if p >= parts(claim.workloads.get(w)?) {
        return None;
    }
    let variants = claim.variants.len();
    let before: usize = claim.workloads[..w].iter().map(parts).sum::<usize>() * variants;
    Some(claim.workloads.len() * variants + before + v * parts(&claim.workloads[w]) + p)
}

impl RunSpec {
    /// The machine: the preset with the settings applied.
    pub fn config(&self) -> Result<GpuConfig, ConfigError> {
        let preset = presets::by_id(self.machine).ok_or_else(|| ConfigError::new("machine", "no such preset"))?;
        let mut config = (preset.build)();
        for (path, value) in &self.settings {
            config.set_field(path, value)?;
        }
        config.validate()?;
        Ok(config)
    }

    /// The workload's kernel file.
    pub fn source(&self) -> &'static str {
        library::by_id(self.workload).map_or("", |w| w.source)
    }

    /// The `#define` overrides, as the compiler and the worker's job take them: the size knob
    /// first, then the variant's.
    pub fn defines(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let (Some(entry), Some(size)) = (library::by_id(self.workload), self.size) {
            out.push(entry.size_define(size));
        }
        out.extend(self.defines.iter().map(|(name, value)| (name.to_string(), value.to_string())));
        out
    }

    /// The policies.
    pub fn policies(&self) -> Policies {
        Policies { tb: self.tb.into(), warp: self.warp.into() }
    }

    /// The `warpscope run` command line that simulates exactly this run.
    pub fn command(&self) -> String {
        let mut cmd = alloc::format!("warpscope run --workload {}", self.workload);
        if let Some(size) = self.size {
            cmd.push_str(&alloc::format!(" --size {size}"));
        }
        for (name, value) in &self.defines {
            cmd.push_str(&alloc::format!(" -D {name}={value}"));
        }
        cmd.push_str(&alloc::format!(" --gpu {}", self.machine));
        for (path, value) in &self.settings {
            cmd.push_str(&alloc::format!(" --set {path}={value}"));
        }
        cmd.push_str(&alloc::format!(" --tb {} --warp {}", self.tb, self.warp));
        cmd
    }

    /// Compiles and simulates the run to its end. Anything short of finishing (a compile error,
    /// a fault, the cycle limit) is an error naming what happened.
    pub fn simulate(&self) -> Result<Report, String> {
        self.simulate_with(&crate::scalability::NoMemo)
    }

    /// [`RunSpec::simulate`], with the profile runs a policy makes before the run recalled
    /// from and kept in `memo` (runs of one row share them).
    pub fn simulate_with(&self, memo: &dyn crate::scalability::ProfileMemo) -> Result<Report, String> {
        let config = self.config().map_err(|e| e.to_string())?;
        let defines: Vec<(String, String)> =
            self.defines.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect();
        let workload = library::program(self.workload, self.size, &defines, &config)?;
        let mut sim = Simulation::new_with_memo(config, workload, &self.policies(), RunOptions::default(), memo)
            .map_err(|e| e.to_string())?;
        match sim.run() {
            StepOutcome::Finished => Ok(sim.report()),
            outcome => Err(alloc::format!("{}: {outcome}", self.command())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{policies, workload, Paper, Status, Variant, WorkloadSize};

    const WORKLOADS: &[WorkloadSize] = &[workload("copy"), workload("matmul+copy"), workload("histogram+copy+matmul")];
    const VARIANTS: &[Variant] = &[policies("A", "warped-slicer", "gto+dmil"), policies("B", "rr", "lrr")];
    const ROW: Claim = Claim {
        id: "test-row",
        paper: Paper::Cke,
        statement: "",
        paper_says: "",
        workloads: WORKLOADS,
        machine: "cke-maxwell",
        settings: &[("window.cycles", "1000")],
        variants: VARIANTS,
        checks: &[],
        status: Status::Pass,
        headline: false,
    };

    #[test]
    fn a_co_run_brings_each_of_its_programs_alone_under_every_variants_machine() {
        let runs = runs(&ROW);
        // 3 workloads × 2 variants, then (2 + 3 parts) × 2 variants alone.
        assert_eq!(runs.len(), 6 + 10);
        assert_eq!(solo_index(&ROW, 0, 0, 0), None, "one program has no runs alone");
        assert_eq!(solo_index(&ROW, 1, 0, 2), None, "matmul+copy has two parts");
        let mut seen = Vec::new();
        for (w, v, p, id) in [(1, 0, 0, "matmul"), (1, 1, 1, "copy"), (2, 0, 2, "matmul"), (2, 1, 0, "histogram")] {
            let i = solo_index(&ROW, w, v, p).expect("a part");
            let (solo, together) = (&runs[i], &runs[index(&ROW, w, v)]);
            assert_eq!(solo.workload, id);
            assert_eq!(solo.settings, together.settings, "the same machine and window");
            assert_eq!((solo.tb, solo.warp), (SOLO_TB, base_warp(together.warp)));
            seen.push(i);
        }
        assert_eq!(runs[solo_index(&ROW, 1, 0, 0).unwrap()].warp, "gto", "alone, without the memory-issue gate");
        assert_eq!(seen, [6, 9, 12, 13]);
    }
}
