//! A claim as runs: every workload under every variant, each one [`RunSpec`] that anything
//! able to simulate can execute — the CLI's threads, the tests, or the app's Web Workers — and
//! get the same report.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Claim, Define, Setting};
use crate::config::{presets, GpuConfig};
use crate::error::ConfigError;
use crate::kernel::{compile, CompileOptions};
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
    out
}

/// Where the run of workload `w` under variant `v` is in [`runs`].
pub fn index(claim: &Claim, w: usize, v: usize) -> usize {
    w * claim.variants.len() + v
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
        let config = self.config().map_err(|e| e.to_string())?;
        let defines = self.defines();
        let program = compile(self.source(), &CompileOptions { config: &config, defines: &defines, optimize: true })
            .map_err(|d| {
                let first = d
                    .first()
                    .map_or_else(String::new, |d| alloc::format!("{}:{}: {}", d.span.line, d.span.column, d.message));
                alloc::format!("{} does not compile: {first}", self.workload)
            })?;
        let mut sim = Simulation::new(config, program.workload, &self.policies(), RunOptions::default())
            .map_err(|e| e.to_string())?;
        match sim.run() {
            StepOutcome::Finished => Ok(sim.report()),
            outcome => Err(alloc::format!("{}: {outcome}", self.command())),
        }
    }
}
