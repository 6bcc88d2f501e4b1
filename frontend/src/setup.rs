//! The set-up being edited: kernel file, `#define` overrides, machine, policies and budget;
//! how it becomes a job for the worker and a share link, and back. Pure, tested natively.

use warpscope_core::config::GpuConfig;
use warpscope_core::sched::tb::TbPolicy;
use warpscope_core::sched::warp::WarpPolicy;
use warpscope_core::Policies;
use warpscope_wasm::protocol::{Catalog, CatalogWorkload, CoRunner, ReportDetail, SimulateJob};

use crate::share::{SharedSetup, SharedSource};
use crate::state::{DEFAULT_MACHINE, DEFAULT_MAX_CYCLES, DEFAULT_WORKLOAD};

/// The cycle budgets the budget field accepts, and so a link.
pub const CYCLE_BUDGET: (u64, u64) = (1_000, 10_000_000_000);

/// Checks a whole-number field against its range; the reason is for the person. Spaces,
/// underscores and narrow no-break spaces between digit groups are allowed.
pub fn parse_in_range(text: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let value: u64 = text
        .trim()
        .replace(['_', ' ', '\u{202F}'], "")
        .parse()
        .map_err(|_| format!("{what} must be a whole number"))?;
    if value < min || value > max {
        return Err(format!("{what} must be between {min} and {max}"));
    }
    Ok(value)
}

/// Values of a share link that the fields refused, as the link gave them: the fields show them,
/// marked with the reason, while the set-up keeps the default in their place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefusedFields {
    /// The size knob's value.
    pub size: Option<String>,
    /// The cycle budget.
    pub max_cycles: Option<String>,
}

/// Cycles between the first snapshots of a run. Small, so that a run of a few hundred cycles
/// still animates; the worker doubles it whenever 400 snapshots are held, so a long run costs
/// only a few more doublings (one per factor of two in length).
pub const SNAPSHOT_EVERY: u64 = 50;

/// Most programs run beside the file: the concurrent-kernel paper's largest mixes are of
/// three, and each co-runner needs at least one SM's share of the machine.
pub const MAX_CO_RUNNERS: usize = 3;

/// What Run runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The kernel file.
    pub source: String,
    /// The library workload it was loaded from, if any.
    pub workload: Option<String>,
    /// Whether the text changed since it was loaded from the library.
    pub edited: bool,
    /// `#define` overrides, in order: (name, value).
    pub defines: Vec<(String, String)>,
    /// Library workloads run side by side with the file, each in streams of its own, at their
    /// files' sizes (the concurrent-kernel papers' co-runs).
    pub co_runners: Vec<String>,
    /// Machine preset id.
    pub machine: String,
    /// The machine: the preset plus the person's changes.
    pub config: GpuConfig,
    /// Schedulers.
    pub policies: Policies,
    /// Cycle budget.
    pub max_cycles: u64,
    /// The SM whose L1 the heat map shows.
    pub heat_sm: u32,
}

impl Setup {
    /// The first visit's set-up: the default workload on the default machine.
    pub fn initial(catalog: &Catalog) -> Setup {
        let machine = catalog.machines.iter().find(|m| m.id == DEFAULT_MACHINE).or(catalog.machines.first());
        let mut setup = Setup {
            source: String::new(),
            workload: None,
            edited: false,
            defines: Vec::new(),
            co_runners: Vec::new(),
            machine: machine.map(|m| m.id.clone()).unwrap_or_default(),
            config: machine.map(|m| m.config.clone()).unwrap_or_else(warpscope_core::config::presets::fermi_gtx480),
            policies: Policies::default(),
            max_cycles: DEFAULT_MAX_CYCLES,
            heat_sm: 0,
        };
        setup.load_workload(catalog, DEFAULT_WORKLOAD);
        setup
    }

    /// Replaces the kernel file by library workload `id` at its default size.
    pub fn load_workload(&mut self, catalog: &Catalog, id: &str) -> bool {
        let Some(workload) = catalog.workloads.iter().find(|w| w.id == id) else { return false };
        self.source = workload.source.clone();
        self.workload = Some(workload.id.clone());
        self.edited = false;
        self.defines.clear();
        true
    }

    /// Runs library workload `id` beside the file (once: a second copy of the same program is
    /// not offered). Whether it was added.
    pub fn add_co_runner(&mut self, catalog: &Catalog, id: &str) -> bool {
        if self.co_runners.len() >= MAX_CO_RUNNERS
            || self.co_runners.iter().any(|c| c == id)
            || !catalog.workloads.iter().any(|w| w.id == id)
        {
            return false;
        }
        self.co_runners.push(id.to_string());
        true
    }

    /// Switches to machine preset `id`, dropping hardware changes.
    pub fn load_machine(&mut self, catalog: &Catalog, id: &str) -> bool {
        let Some(machine) = catalog.machines.iter().find(|m| m.id == id) else { return false };
        self.machine = machine.id.clone();
        self.config = machine.config.clone();
        self.heat_sm = self.heat_sm.min(self.config.core.sm_count.saturating_sub(1));
        true
    }

    /// The library entry the file came from.
    pub fn library_entry<'a>(&self, catalog: &'a Catalog) -> Option<&'a CatalogWorkload> {
        let id = self.workload.as_deref()?;
        catalog.workloads.iter().find(|w| w.id == id)
    }

    /// The size knob's current value (its override or the file's default).
    pub fn size(&self, catalog: &Catalog) -> Option<u32> {
        let entry = self.library_entry(catalog)?;
        match self.defines.iter().find(|(name, _)| *name == entry.size_define) {
            Some((_, value)) => value.parse().ok(),
            None => Some(entry.size_default),
        }
    }

    /// Sets the size knob (`None`: back to the file's value).
    pub fn set_size(&mut self, catalog: &Catalog, size: Option<u32>) {
        let Some(define) = self.library_entry(catalog).map(|e| e.size_define.clone()) else { return };
        self.defines.retain(|(name, _)| *name != define);
        if let Some(size) = size {
            self.defines.push((define, size.to_string()));
        }
    }

    /// The preset this machine started from.
    pub fn preset<'a>(&self, catalog: &'a Catalog) -> Option<&'a GpuConfig> {
        catalog.machines.iter().find(|m| m.id == self.machine).map(|m| &m.config)
    }

    /// The job for the worker, with `policies` and `config` in place of the set-up's own
    /// (the compare view and the gallery vary them).
    pub fn job_with(&self, policies: Policies, config: GpuConfig) -> SimulateJob {
        SimulateJob {
            source: self.source.clone(),
            name: self.workload.clone().filter(|_| !self.co_runners.is_empty()),
            co_runners: self
                .co_runners
                .iter()
                .map(|id| CoRunner { workload: id.clone(), defines: Vec::new() })
                .collect(),
            defines: self.defines.clone(),
            config,
            policies,
            max_cycles: self.max_cycles,
            snapshot_every: SNAPSHOT_EVERY,
            heat_sm: self.heat_sm,
            detail: ReportDetail::Shown,
        }
    }

    /// The job for the worker.
    pub fn job(&self) -> SimulateJob {
        self.job_with(self.policies.clone(), self.config.clone())
    }

    /// The set-up as a share link's contents.
    pub fn to_shared(&self, catalog: &Catalog, embed: bool) -> SharedSetup {
        let library = self.library_entry(catalog).filter(|_| !self.edited);
        let (source, defines) = match library {
            Some(entry) => {
                let size = self.defines.iter().find(|(n, _)| *n == entry.size_define).map(|(_, v)| v.clone());
                let others = self.defines.iter().filter(|(n, _)| *n != entry.size_define).cloned().collect();
                (SharedSource::Library { id: entry.id.clone(), size }, others)
            }
            None => (SharedSource::Text(self.source.clone()), self.defines.clone()),
        };
        let hardware = match self.preset(catalog) {
            Some(preset) => {
                self.config.diff(preset).into_iter().map(|(path, value)| (path.to_string(), value)).collect()
            }
            None => Vec::new(),
        };
        SharedSetup {
            source,
            defines,
            machine: self.machine.clone(),
            hardware,
            tb: self.policies.tb.clone(),
            warp: self.policies.warp.clone(),
            co_runners: self.co_runners.clone(),
            max_cycles: Some(self.max_cycles.to_string()),
            embed,
        }
    }

    /// The set-up a share link describes. What cannot be restored (an unknown workload or
    /// machine, a bad hardware value) is skipped and named in the returned notes; a size or
    /// cycle budget the fields would refuse is refused alike, named in the notes and returned
    /// for the fields to show, marked.
    pub fn from_shared(catalog: &Catalog, shared: &SharedSetup) -> (Setup, Vec<String>, RefusedFields) {
        let mut notes = Vec::new();
        let mut refused = RefusedFields::default();
        let mut setup = Setup::initial(catalog);
        if !setup.load_machine(catalog, &shared.machine) {
            notes.push(format!("the link's machine \"{}\" is not one of this version's presets", shared.machine));
        }
        match &shared.source {
            SharedSource::Library { id, size } => {
                if setup.load_workload(catalog, id) {
                    if let (Some(n), Some(entry)) = (size, setup.library_entry(catalog)) {
                        match parse_in_range(n, entry.size_min as u64, entry.size_max as u64, "the size") {
                            Ok(value) => setup.set_size(catalog, Some(value as u32)),
                            Err(reason) => {
                                notes.push(format!(
                                    "the link's size `{n}` was replaced by the file's default: {reason}"
                                ));
                                refused.size = Some(n.clone());
                            }
                        }
                    }
                } else {
                    notes.push(format!("the link's workload \"{id}\" is not in this version's library"));
                }
            }
            SharedSource::Text(text) => {
                setup.source = text.clone();
                setup.workload = None;
                setup.edited = true;
                setup.defines.clear();
            }
        }
        for id in &shared.co_runners {
            if !setup.add_co_runner(catalog, id) {
                notes.push(format!(
                    "the link's co-runner \"{id}\" was skipped: {}",
                    co_runner_refusal(&setup, catalog, id)
                ));
            }
        }
        for (name, value) in &shared.defines {
            setup.defines.retain(|(n, _)| n != name);
            setup.defines.push((name.clone(), value.clone()));
        }
        for (path, value) in &shared.hardware {
            if let Err(err) = setup.config.set_field(path, value) {
                notes.push(format!("the link's setting {path} = {value} was skipped: {}", err.reason));
            }
        }
        // The engine's own check: an unknown policy or a bad parameter falls back to the default.
        let defaults = Policies::default();
        let tb = TbPolicy::from_spec(&shared.tb).map(|_| shared.tb.clone());
        let warp = WarpPolicy::from_spec(&shared.warp).map(|_| shared.warp.clone());
        setup.policies =
            Policies { tb: tb.clone().unwrap_or(defaults.tb), warp: warp.clone().unwrap_or(defaults.warp) };
        for (kind, spec, checked) in [("thread-block", &shared.tb, tb), ("warp", &shared.warp, warp)] {
            if let Err(e) = checked {
                notes.push(format!("the link's {kind} scheduler `{spec}` was replaced by the default: {e}"));
            }
        }
        if let Some(text) = &shared.max_cycles {
            match parse_in_range(text, CYCLE_BUDGET.0, CYCLE_BUDGET.1, "the cycle budget") {
                Ok(max) => setup.max_cycles = max,
                Err(reason) => {
                    notes.push(format!("the link's cycle budget `{text}` was replaced by the default: {reason}"));
                    refused.max_cycles = Some(text.clone());
                }
            }
        }
        (setup, notes, refused)
    }
}

/// Why [`Setup::add_co_runner`] refuses `id`.
fn co_runner_refusal(setup: &Setup, catalog: &Catalog, id: &str) -> String {
    if !catalog.workloads.iter().any(|w| w.id == id) {
        "it is not in this version's library".into()
    } else if setup.co_runners.iter().any(|c| c == id) {
        "it is already beside the file".into()
    } else {
        format!("at most {MAX_CO_RUNNERS} programs run beside the file")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_wasm::catalog::catalog;

    #[test]
    fn ranges_are_checked_with_reasons() {
        assert_eq!(parse_in_range("64", 16, 256, "the size"), Ok(64));
        assert_eq!(parse_in_range(" 1 000 ", 1, 5000, "x"), Ok(1000));
        assert_eq!(parse_in_range("8", 16, 256, "the size"), Err("the size must be between 16 and 256".into()));
        assert_eq!(parse_in_range("lots", 16, 256, "the size"), Err("the size must be a whole number".into()));
    }

    #[test]
    fn a_link_s_size_and_budget_are_checked_as_the_fields_check_them() {
        let catalog = catalog();
        let mut shared = Setup::initial(&catalog).to_shared(&catalog, false);
        shared.source = SharedSource::Library { id: "vecadd".into(), size: Some("1024".into()) };
        for (max, refused) in [("9007199254740993", true), ("0", true), ("1e9", true), ("999", true), ("5000", false)] {
            shared.max_cycles = Some(max.into());
            let (setup, notes, fields) = Setup::from_shared(&catalog, &shared);
            if refused {
                assert_eq!(setup.max_cycles, DEFAULT_MAX_CYCLES, "{max}: the default instead");
                assert_eq!(fields.max_cycles.as_deref(), Some(max), "{max}: the field shows it, marked");
                assert!(notes.len() == 1 && notes[0].contains("cycle budget") && notes[0].contains(max), "{notes:?}");
            } else {
                assert_eq!((setup.max_cycles, fields, notes.len()), (5000, RefusedFields::default(), 0));
            }
        }
        shared.max_cycles = None;
        shared.source = SharedSource::Library { id: "vecadd".into(), size: Some("99999999999".into()) };
        let (setup, notes, fields) = Setup::from_shared(&catalog, &shared);
        let entry = setup.library_entry(&catalog).unwrap();
        assert_eq!(setup.size(&catalog), Some(entry.size_default), "the file's default instead");
        assert_eq!(fields.size.as_deref(), Some("99999999999"));
        assert!(notes[0].contains(&format!("between {} and {}", entry.size_min, entry.size_max)), "{notes:?}");
    }

    #[test]
    fn a_setup_survives_its_share_link() {
        let catalog = catalog();
        let mut setup = Setup::initial(&catalog);
        assert!(setup.load_machine(&catalog, "ccws-fermi"));
        assert!(setup.load_workload(&catalog, "hotspot"));
        setup.set_size(&catalog, Some(64));
        setup.defines.push(("STEPS".into(), "3".into()));
        setup.config.set_field("l1.ways", "4").unwrap();
        setup.policies.warp = "lrr".into();
        setup.max_cycles = 123_456;

        let shared = crate::share::decode(&crate::share::encode(&setup.to_shared(&catalog, false))).unwrap().unwrap();
        assert_eq!(shared.source, SharedSource::Library { id: "hotspot".into(), size: Some("64".into()) });
        assert_eq!(shared.hardware, [("l1.ways".to_string(), "4".to_string())], "only what differs from the preset");
        let (restored, notes, _) = Setup::from_shared(&catalog, &shared);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(restored, setup);
        assert_eq!(restored.size(&catalog), Some(64));
    }

    #[test]
    fn an_edited_file_travels_as_text_and_unknown_parts_are_named() {
        let catalog = catalog();
        let mut setup = Setup::initial(&catalog);
        setup.source.push_str("\n// my change\n");
        setup.edited = true;
        let mut shared = setup.to_shared(&catalog, false);
        assert!(matches!(&shared.source, SharedSource::Text(t) if t.ends_with("// my change\n")));
        shared.machine = "gtx9000".into();
        shared.warp = "psychic".into();
        shared.hardware.push(("l1.ways".into(), "0".into()));
        let (restored, notes, _) = Setup::from_shared(&catalog, &shared);
        assert_eq!(restored.source, setup.source);
        assert_eq!(restored.policies.warp, Policies::default().warp, "an unknown policy falls back to the default");
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("gtx9000")) && notes.iter().any(|n| n.contains("psychic")));
        assert!(notes.iter().any(|n| n.contains("l1.ways = 0")));
    }

    #[test]
    fn co_runners_go_to_the_job_and_through_a_link_once_each() {
        let catalog = catalog();
        let mut setup = Setup::initial(&catalog);
        assert!(setup.load_workload(&catalog, "backprop"));
        assert!(setup.add_co_runner(&catalog, "spmv"));
        assert!(!setup.add_co_runner(&catalog, "spmv"), "once each");
        assert!(!setup.add_co_runner(&catalog, "nothing"), "only library workloads");
        let job = setup.job();
        assert_eq!(job.name.as_deref(), Some("backprop"));
        assert_eq!(job.co_runners, [CoRunner { workload: "spmv".into(), defines: vec![] }]);
        assert!(job.source.contains("__global__"), "the file itself stays the job's source");

        let mut shared = setup.to_shared(&catalog, false);
        shared.co_runners.push("nothing".into());
        shared.co_runners.push("spmv".into());
        let (restored, notes, _) = Setup::from_shared(&catalog, &shared);
        assert_eq!(restored.co_runners, ["spmv"]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("\"nothing\"") && notes[0].contains("not in this version's library"), "{notes:?}");
        assert!(notes[1].contains("already beside the file"), "{notes:?}");
        for id in ["kmeans", "hotspot", "bfs"] {
            setup.add_co_runner(&catalog, id);
        }
        assert_eq!(setup.co_runners.len(), MAX_CO_RUNNERS);
        assert!(Setup::initial(&catalog).job().co_runners.is_empty() && Setup::initial(&catalog).job().name.is_none());
    }

    #[test]
    fn the_worker_warms_up_on_the_machine_and_snapshot_interval_a_run_starts_with() {
        // The warm-up readies the code a person's first Run takes: the default machine's, with
        // the page's snapshots.
        assert_eq!(warpscope_wasm::warm_up::PRESET, DEFAULT_MACHINE);
        assert_eq!(warpscope_wasm::warm_up::SNAPSHOT_EVERY, SNAPSHOT_EVERY);
    }
}
