//! The five papers' testable claims as data: one [`Claim`] per numbered claim of the
//! implementation notes (`ikra.md` §5.2, `laperm.md` §8.3, `ccws.md` §5.2, `cke.md` §7.2,
//! `ciao.md` §8), 55 rows in all.
//!
//! A row says what to run (library workloads at a size, a machine preset with settings
//! changed, the variants: policies and settings per variant), what to measure ([`Metric`]),
//! what the paper leads us to expect ([`Relation`], with its tolerance), and where we stand
//! ([`Status`]): `Pass`, a `KnownFailure` with the measured reason, or `Pending` on a
//! mechanism that does not exist yet. The native `warpscope reproduce`, the test that checks
//! every verdict against its row's status, the generated `REPRODUCTION.md` and the app's paper
//! gallery all read these rows, so none of them can disagree with another.
//!
//! [`plan`] turns a row into runs, [`measure`] reads a metric off a run's report, and
//! [`judge`] decides a row from its runs' measurements.
//!
//! # Adding or changing a row
//! Rows live in one file per paper (`ccws.rs`, ...), in the order of the notes' numbering.
//! Choose sizes so that the whole reproduction stays within a few minutes on two cores. A row
//! becomes `Pass` only when the mechanism produces the relation for the paper's reasons; when
//! it does not, record a `KnownFailure` saying what was measured and why.

pub mod judge;
pub mod measure;
pub mod plan;
pub mod summary;

mod ccws;
mod ciao;
mod cke;
mod ikra;
mod laperm;

pub use judge::{judge, judge_reports, measure_run, Across, CheckOutcome, Relation, Verdict};
pub use measure::{AccessLevel, Metric};
pub use plan::RunSpec;
pub use summary::Summary;

/// The settings that cut `fermi-gtx480` to the CIAO rows' 2 SMs and their share of the memory
/// system, for tests that measure on the rows' machine.
pub use ciao::TWO_SMS as CIAO_TWO_SMS;

/// One of the five papers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Paper {
    /// Inter-kernel reuse-aware thread-block scheduling (TACO 2020).
    Ikra,
    /// LaPerm: locality-aware scheduling for dynamic parallelism (ISCA 2016).
    Laperm,
    /// Cache-Conscious Wavefront Scheduling (MICRO 2012).
    Ccws,
    /// Concurrent kernel execution with memory-pipeline stall mitigation (HPCA 2016).
    Cke,
    /// CIAO: cache-interference-aware throughput-oriented scheduling (IPDPS 2018).
    Ciao,
}

impl Paper {
    /// Every paper, in the order of the issues that implement them.
    pub const ALL: [Paper; 5] = [Paper::Ikra, Paper::Laperm, Paper::Ccws, Paper::Cke, Paper::Ciao];

    /// Short id, the prefix of its claims' ids and the `--paper` value.
    pub fn id(self) -> &'static str {
        match self {
            Paper::Ikra => "ikra",
            Paper::Laperm => "laperm",
            Paper::Ccws => "ccws",
            Paper::Cke => "cke",
            Paper::Ciao => "ciao",
        }
    }

    /// The paper's title, short.
    pub fn title(self) -> &'static str {
        match self {
            Paper::Ikra => "Inter-kernel reuse-aware thread-block scheduling",
            Paper::Laperm => "LaPerm: locality-aware scheduling for dynamic parallelism",
            Paper::Ccws => "Cache-Conscious Wavefront Scheduling",
            Paper::Cke => "Concurrent kernel execution and memory-pipeline stalls",
            Paper::Ciao => "CIAO: cache-interference-aware scheduling",
        }
    }

    /// Where its claims are numbered: the notes' file and section.
    pub fn source(self) -> &'static str {
        match self {
            Paper::Ikra => "papers/notes/ikra.md §5.2",
            Paper::Laperm => "papers/notes/laperm.md §8.3",
            Paper::Ccws => "papers/notes/ccws.md §5.2",
            Paper::Cke => "papers/notes/cke.md §7.2",
            Paper::Ciao => "papers/notes/ciao.md §8",
        }
    }

    /// The paper with id `id`.
    pub fn by_id(id: &str) -> Option<Paper> {
        Paper::ALL.into_iter().find(|p| p.id() == id)
    }

    /// Its claims, in the notes' order.
    pub fn claims(self) -> &'static [Claim] {
        match self {
            Paper::Ikra => ikra::CLAIMS,
            Paper::Laperm => laperm::CLAIMS,
            Paper::Ccws => ccws::CLAIMS,
            Paper::Cke => cke::CLAIMS,
            Paper::Ciao => ciao::CLAIMS,
        }
    }
}

/// A library workload at a size (`None`: the size in its file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkloadSize {
    /// Library workload id.
    pub id: &'static str,
    /// Value of its size knob.
    pub size: Option<u32>,
    /// `#define`s overridden for every variant (after the size knob, before the variant's): an
    /// input or a block size the paper's version of the program has.
    pub defines: &'static [Define],
    /// The kernels measured (empty: the whole launch sequence). Kernels that only stand in for
    /// work the paper's program does on the host (building a table, writing the requests) are
    /// left out, as a simulator of the paper's kind never ran them.
    pub kernels: &'static [&'static str],
    /// The name checks and tables use for it; empty: the id. Needed when a row runs one
    /// workload on several inputs (`clr-dp` on a banded and on a power-law graph).
    pub label: &'static str,
}

impl WorkloadSize {
    /// The name checks and tables use for it: its label, or its id.
    pub const fn name(&self) -> &'static str {
        if self.label.is_empty() {
            self.id
        } else {
            self.label
        }
    }

    /// The same workload under another name.
    pub(crate) const fn named(self, label: &'static str) -> WorkloadSize {
        WorkloadSize { label, ..self }
    }

    /// The same workload with `defines` overridden.
    pub(crate) const fn with_defines(self, defines: &'static [Define]) -> WorkloadSize {
        WorkloadSize { defines, ..self }
    }

    /// The same workload measured over `kernels` only.
    pub(crate) const fn measuring(self, kernels: &'static [&'static str]) -> WorkloadSize {
        WorkloadSize { kernels, ..self }
    }
}

/// A hardware setting changed from the preset: the field's path, as the app and `--set` use
/// it (`l1.size_bytes`, `coherence`; see [`crate::config::fields`]), and its value as text.
pub type Setting = (&'static str, &'static str);

/// A `#define` of the workload's file overridden: its name and value, as `-D` takes them.
pub type Define = (&'static str, &'static str);

/// One configuration a claim compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Name in tables and relations (unique within the claim).
    pub label: &'static str,
    /// Thread-block scheduler spec.
    pub tb: &'static str,
    /// Warp scheduler spec.
    pub warp: &'static str,
    /// Settings changed for this variant only, after the claim's.
    pub settings: &'static [Setting],
    /// `#define`s overridden for this variant (after the size knob).
    pub defines: &'static [Define],
    /// For an oracle variant such as Best-SWL: the labels of the claim's variants it picks from,
    /// per workload the one with the highest IPC (the first on a tie). It runs nothing of its
    /// own; empty for an ordinary variant.
    pub best_of: &'static [&'static str],
}

/// One measurement the claim makes and what it must show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check {
    /// What is measured of each run.
    pub metric: Metric,
    /// The workloads it is about (ids; empty: all of the claim's).
    pub on: &'static [&'static str],
    /// How the workloads' values combine.
    pub across: Across,
    /// What must hold between the variants' values.
    pub relation: Relation,
}

/// Where a claim stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every check holds; the test fails if one stops holding.
    Pass,
    /// Some check does not hold, for the measured reason given; the test fails if the row
    /// starts passing, so the reason is revisited.
    KnownFailure(&'static str),
    /// Not run: the mechanism named is missing.
    Pending(&'static str),
}

/// A paper's claim as a runnable experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claim {
    /// `<paper>-<section>-<number>`, as numbered in the notes (`ccws-5.2-7`).
    pub id: &'static str,
    /// The paper.
    pub paper: Paper,
    /// The claim in one sentence.
    pub statement: &'static str,
    /// What the paper reports, with its numbers.
    pub paper_says: &'static str,
    /// The workloads it runs (each under every variant).
    pub workloads: &'static [WorkloadSize],
    /// Machine preset id.
    pub machine: &'static str,
    /// Settings changed from the preset for every variant.
    pub settings: &'static [Setting],
    /// The configurations compared.
    pub variants: &'static [Variant],
    /// What must hold; all of it, for the claim to pass.
    pub checks: &'static [Check],
    /// Where it stands.
    pub status: Status,
    /// Shown as a card in the app's paper gallery.
    pub headline: bool,
}

impl Status {
    /// Whether a verdict that `holds` or not is what this status records: a `Pass` must hold
    /// and a `KnownFailure` must not; a `Pending` row is not judged. The test, the report and
    /// the gallery all ask this.
    pub fn confirmed_by(&self, holds: bool) -> bool {
        match self {
            Status::Pass => holds,
            Status::KnownFailure(_) => !holds,
            Status::Pending(_) => true,
        }
    }
}

impl Claim {
    /// The variant labelled `label`.
    pub fn variant(&self, label: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.label == label)
    }

    /// Whether the row is run (not `Pending`).
    pub fn runs(&self) -> bool {
        !matches!(self.status, Status::Pending(_))
    }
}

/// Every claim, paper by paper in [`Paper::ALL`] order.
pub fn all() -> impl Iterator<Item = &'static Claim> {
    Paper::ALL.into_iter().flat_map(|p| p.claims().iter())
}

/// The claim with `id`.
pub fn by_id(id: &str) -> Option<&'static Claim> {
    all().find(|c| c.id == id)
}

/// A variant that only chooses the policies.
pub(crate) const fn policies(label: &'static str, tb: &'static str, warp: &'static str) -> Variant {
    Variant { label, tb, warp, settings: &[], defines: &[], best_of: &[] }
}

/// A variant on round-robin thread-block dispatch that only chooses the warp scheduler.
pub(crate) const fn warp(label: &'static str, warp: &'static str) -> Variant {
    policies(label, "rr", warp)
}

/// A variant with settings of its own.
pub(crate) const fn with(
    label: &'static str,
    tb: &'static str,
    warp: &'static str,
    settings: &'static [Setting],
) -> Variant {
    Variant { label, tb, warp, settings, defines: &[], best_of: &[] }
}

/// An oracle variant: per workload, whichever of the claim's variants `members` (labels) has
/// the highest IPC, as the paper's Best-SWL is the best of a profiled sweep. Its run slot
/// repeats the first member's run, so it costs nothing.
pub(crate) const fn best_of(label: &'static str, members: &'static [&'static str]) -> Variant {
    Variant { label, tb: "rr", warp: "best-of", settings: &[], defines: &[], best_of: members }
}

/// A check over every workload of the claim.
pub(crate) const fn check(metric: Metric, across: Across, relation: Relation) -> Check {
    Check { metric, on: &[], across, relation }
}

/// A check about some of the claim's workloads only (ids).
pub(crate) const fn on(ids: &'static [&'static str], metric: Metric, across: Across, relation: Relation) -> Check {
    Check { metric, on: ids, across, relation }
}

/// A workload at its file's size.
pub(crate) const fn workload(id: &'static str) -> WorkloadSize {
    WorkloadSize { id, size: None, defines: &[], kernels: &[], label: "" }
}

/// A workload at a size.
pub(crate) const fn sized(id: &'static str, size: u32) -> WorkloadSize {
    WorkloadSize { id, size: Some(size), defines: &[], kernels: &[], label: "" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::library;
    use crate::sched::tb::TbPolicy;
    use crate::sched::warp::WarpPolicy;
    use alloc::vec::Vec;

    #[test]
    fn every_numbered_claim_of_the_notes_is_a_row() {
        let counts: Vec<(Paper, usize)> = Paper::ALL.iter().map(|&p| (p, p.claims().len())).collect();
        assert_eq!(
            counts,
            [(Paper::Ikra, 11), (Paper::Laperm, 8), (Paper::Ccws, 13), (Paper::Cke, 17), (Paper::Ciao, 6)]
        );
        assert_eq!(all().count(), 55);
    }

    #[test]
    fn ids_follow_the_notes_numbering_in_order() {
        for paper in Paper::ALL {
            let section = paper.source().rsplit('§').next().unwrap_or_default();
            for (i, claim) in paper.claims().iter().enumerate() {
                assert_eq!(claim.paper, paper, "{}", claim.id);
                let expected = alloc::format!("{}-{}-{}", paper.id(), section, i + 1);
                assert_eq!(claim.id, expected);
            }
        }
    }

    #[test]
    fn every_row_names_things_that_exist_or_is_pending() {
        for claim in all() {
            assert!(!claim.statement.is_empty() && !claim.paper_says.is_empty(), "{}", claim.id);
            assert!(presets::by_id(claim.machine).is_some(), "{}: machine {}", claim.id, claim.machine);
            assert!(!claim.workloads.is_empty() && !claim.variants.is_empty(), "{}", claim.id);
            for w in claim.workloads {
                // Programs side by side (`a+b`) name library workloads at their files' sizes.
                if plan::is_co_run(w.id) {
                    assert!(w.size.is_none(), "{}: a co-run has no size knob: {}", claim.id, w.id);
                    for part in w.id.split('+') {
                        assert!(library::by_id(part).is_some(), "{}: workload {part} of {}", claim.id, w.id);
                    }
                    continue;
                }
                let entry = library::by_id(w.id).unwrap_or_else(|| panic!("{}: workload {}", claim.id, w.id));
                if let Some(size) = w.size {
                    assert!((entry.size.min..=entry.size.max).contains(&size), "{}: size of {}", claim.id, w.id);
                }
            }
            for (i, v) in claim.variants.iter().enumerate() {
                assert!(claim.variants[..i].iter().all(|o| o.label != v.label), "{}: label {}", claim.id, v.label);
            }
            for (i, w) in claim.workloads.iter().enumerate() {
                assert!(
                    claim.workloads[..i].iter().all(|o| o.name() != w.name()),
                    "{}: two workloads named {}",
                    claim.id,
                    w.name()
                );
            }
            for check in claim.checks {
                for name in check.on {
                    assert!(claim.workloads.iter().any(|w| w.name() == *name), "{}: no workload {name}", claim.id);
                }
                for label in check.relation.labels() {
                    assert!(claim.variant(label).is_some(), "{}: no variant {label}", claim.id);
                }
            }
            if let Status::Pending(what) = claim.status {
                assert!(!what.is_empty(), "{}", claim.id);
                continue;
            }
            assert!(!claim.checks.is_empty(), "{}", claim.id);
            for check in claim.checks {
                assert!(check.metric.available(), "{}: {:?} cannot be measured yet", claim.id, check.metric);
            }
            for v in claim.variants {
                if !v.best_of.is_empty() {
                    // An oracle names ordinary variants of the same row.
                    for member in v.best_of {
                        let m = claim.variant(member).unwrap_or_else(|| panic!("{}: no variant {member}", claim.id));
                        assert!(claim.variants[m].best_of.is_empty(), "{}: {member} is an oracle", claim.id);
                    }
                    continue;
                }
                assert!(TbPolicy::from_spec(v.tb).is_ok(), "{}: {}", claim.id, v.tb);
                assert!(WarpPolicy::from_spec(v.warp).is_ok(), "{}: {}", claim.id, v.warp);
            }
            // Every run's configuration is valid.
            for spec in plan::runs(claim) {
                assert!(spec.config().is_ok(), "{}: {:?}", claim.id, spec.config().err());
            }
        }
    }

    #[test]
    fn a_verdict_confirms_a_pass_that_holds_and_a_known_failure_that_does_not() {
        assert!(Status::Pass.confirmed_by(true) && !Status::Pass.confirmed_by(false));
        assert!(Status::KnownFailure("r").confirmed_by(false) && !Status::KnownFailure("r").confirmed_by(true));
        assert!(Status::Pending("m").confirmed_by(true) && Status::Pending("m").confirmed_by(false));
    }

    #[test]
    fn pending_rows_name_the_missing_mechanism_and_known_failures_their_reason() {
        for claim in all() {
            match claim.status {
                Status::Pending(what) | Status::KnownFailure(what) => assert!(what.len() > 10, "{}", claim.id),
                Status::Pass => {}
            }
        }
    }
}
