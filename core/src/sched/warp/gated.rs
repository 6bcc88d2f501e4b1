//! A warp scheduler with memory-issue gates layered on it, written `base+gate` (`gto+dmil`,
//! `lrr+smil:k0=3,k1=1`): the concurrent-kernel paper's mechanisms act only on when a kernel's
//! global memory instructions may issue, whatever scheduler orders the warps (`cke.md` §3).
//!
//! The base policy picks as it would alone; a pick whose next instruction a gate holds back
//! waits, and the scheduler picks again among the rest. Every gate hears what the base hears.

use alloc::format;
use alloc::vec::Vec;

use super::bmi::{BalancedIssue, Order, QBMI_PARAMS};
use super::mil::MilGate;
use super::smk_w::WarpQuotas;
use super::{
    InstrClass, Issued, MemoryContender, PolicyCounters, ReadyWarps, SmEvent, SmShape, WarpCx, WarpPolicy,
    WarpScheduler, WarpScores, WarpSlot,
};
use crate::sched::{PolicyInfo, PolicySpec, SpecError};

/// Every memory-issue gate, by the id a spec names it with after `+`.
pub const MEMORY_GATES: &[PolicyInfo] = &[
    PolicyInfo {
        id: "smil",
        label: "Static memory-instruction limits (SMIL)",
        description: "Each co-running kernel may have at most a fixed number of global memory instructions in flight on an SM (the concurrent-kernel paper's SMIL).",
        params: MilGate::SMIL_PARAMS,
    },
    PolicyInfo {
        id: "dmil",
        label: "Dynamic memory-instruction limits (DMIL)",
        description: "Each co-running kernel's in-flight global memory instructions on an SM are limited to its peak over its reservation failures per request, recomputed every 1024 requests (the concurrent-kernel paper's DMIL).",
        params: MilGate::DMIL_PARAMS,
    },
    PolicyInfo {
        id: "rbmi",
        label: "Round-robin memory issue (RBMI)",
        description: "Each cycle the LSU is free, the co-running kernels with a global memory instruction ready take it in turn; the others' memory instructions wait and their schedulers issue something else (the concurrent-kernel paper's RBMI).",
        params: &[],
    },
    PolicyInfo {
        id: "qbmi",
        label: "Quota-based memory issue (QBMI)",
        description: "Each cycle the LSU is free, the co-running kernel with the largest request quota takes it; quotas grow in proportion to the least common multiple of the kernels' requests per memory instruction over each one's own, so that every kernel gets the same share of L1 requests (the concurrent-kernel paper's QBMI).",
        params: QBMI_PARAMS,
    },
    PolicyInfo {
        id: "smk-w",
        label: "SMK's warp-instruction quotas (SMK-W)",
        description: "Each co-running kernel may issue a quota of warp instructions in proportion to its IPC alone, measured before the run; a kernel that spent its quota waits until every kernel has spent its own (SMK's W, the concurrent-kernel paper's baseline on SMK).",
        params: WarpQuotas::PARAMS,
    },
];

/// One gate.
#[derive(Clone, Debug, PartialEq)]
pub enum MemoryGate {
    /// SMIL or DMIL.
    Mil(MilGate),
    /// RBMI or QBMI: the SM-wide choice of which kernel's memory instruction takes the LSU.
    Balanced(BalancedIssue),
    /// SMK-W: warp-instruction quotas from the kernels' rates alone.
    Quotas(WarpQuotas),
}

impl MemoryGate {
    fn from_spec(spec: &str) -> Result<MemoryGate, SpecError> {
        let (info, values) = PolicySpec::check(spec, MEMORY_GATES)?;
        Ok(match info.id {
            "smil" => MemoryGate::Mil(MilGate::smil(&values)),
            "dmil" => MemoryGate::Mil(MilGate::dmil(&values)),
            "rbmi" => MemoryGate::Balanced(BalancedIssue::new(Order::RoundRobin)),
            "qbmi" => MemoryGate::Balanced(BalancedIssue::qbmi(&values)),
            "smk-w" => MemoryGate::Quotas(WarpQuotas::new(&values)),
            other => return Err(SpecError(format!("`{other}` is listed but cannot be built"))),
        })
    }

    fn attach(&mut self, shape: &SmShape) {
        match self {
            MemoryGate::Mil(g) => g.attach(shape),
            MemoryGate::Quotas(g) => g.attach(shape),
            MemoryGate::Balanced(_) => {}
        }
    }

    /// Whether it chooses among kernels each cycle rather than limiting each on its own.
    fn arbitrates(&self) -> bool {
        matches!(self, MemoryGate::Balanced(_))
    }

    fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        match self {
            MemoryGate::Mil(g) => g.may_issue(cx, slot, class),
            MemoryGate::Balanced(g) => g.may_issue(cx, slot, class),
            MemoryGate::Quotas(g) => g.may_issue(cx, slot, class),
        }
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        match self {
            MemoryGate::Mil(g) => g.on_issue(cx, slot, issued),
            MemoryGate::Balanced(g) => g.on_issue(cx, slot, issued),
            MemoryGate::Quotas(g) => g.on_issue(cx, slot, issued),
        }
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        match self {
            MemoryGate::Mil(g) => g.on_event(cx, event),
            MemoryGate::Balanced(g) => g.on_event(cx, event),
            MemoryGate::Quotas(g) => g.on_event(cx, event),
        }
    }
}

/// Most distinct kernels one cycle's arbitration looks at (more than an arbiter keeps state
/// for, so every kernel it tracks is seen).
const MAX_CONTENDING: usize = 8;

/// A base policy and its gates.
#[derive(Clone, Debug)]
pub struct Gated {
    base: WarpPolicy,
    gates: Vec<MemoryGate>,
}

impl Gated {
    /// The policy `base` (a registry spec) with the gates of `gates` (`dmil`, or several
    /// joined by `+`).
    pub fn from_spec(base: &str, gates: &str) -> Result<Gated, SpecError> {
        if base.contains('+') {
            return Err(SpecError(format!("`{base}`: write the base policy first, then its gates")));
        }
        let base = WarpPolicy::from_spec(base)?;
        let gates = gates.split('+').map(|g| MemoryGate::from_spec(g.trim())).collect::<Result<Vec<_>, _>>()?;
        if gates.iter().filter(|g| g.arbitrates()).count() > 1 {
            return Err(SpecError("`rbmi` and `qbmi` each choose which kernel takes the LSU: use one of them".into()));
        }
        Ok(Gated { base, gates })
    }

    /// Its gates.
    pub fn gates(&self) -> &[MemoryGate] {
        &self.gates
    }
}

impl WarpScheduler for Gated {
    fn attach(&mut self, shape: &SmShape) {
        self.base.attach(shape);
        self.gates.iter_mut().for_each(|g| g.attach(shape));
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.base.pick(cx, ready)
    }

    fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        self.base.may_issue(cx, slot, class) && self.gates.iter().all(|g| g.may_issue(cx, slot, class))
    }

    fn arbitrates_memory(&self) -> bool {
        self.gates.iter().any(MemoryGate::arbitrates)
    }

    fn alone_profile_cycles(&self) -> Option<u32> {
        self.gates.iter().find_map(|g| match g {
            MemoryGate::Quotas(q) => Some(q.profile_cycles()),
            _ => None,
        })
    }

    fn set_alone_rates(&mut self, rates: Vec<(u32, f64)>) {
        for gate in &mut self.gates {
            if let MemoryGate::Quotas(q) = gate {
                q.set_rates(rates.clone());
            }
        }
    }

    /// The arbiter chooses among the kernels whose instruction the base policy and the other
    /// gates would let issue (the notes' reading of QBMI with DMIL: it arbitrates among the
    /// kernels that pass the limit).
    fn arbitrate_memory(&mut self, cx: &WarpCx<'_>, contenders: &[MemoryContender]) {
        let mut streams = [0u32; MAX_CONTENDING];
        let mut count = 0;
        for c in contenders {
            let passes = !self.base.holds(c.slot)
                && self.base.may_issue(cx, c.slot, c.class)
                && self.gates.iter().filter(|g| !g.arbitrates()).all(|g| g.may_issue(cx, c.slot, c.class));
            let stream = cx.warps[c.slot as usize].stream;
            if passes && count < MAX_CONTENDING && !streams[..count].contains(&stream) {
                streams[count] = stream;
                count += 1;
            }
        }
        for gate in &mut self.gates {
            if let MemoryGate::Balanced(arbiter) = gate {
                arbiter.arbitrate(&streams[..count]);
            }
        }
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        self.base.on_issue(cx, slot, issued);
        self.gates.iter_mut().for_each(|g| g.on_issue(cx, slot, issued));
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        self.base.on_event(cx, event);
        self.gates.iter_mut().for_each(|g| g.on_event(cx, event));
    }

    fn hears_every_retry(&self) -> bool {
        self.base.hears_every_retry()
    }

    fn held_warps(&self) -> u32 {
        self.base.held_warps()
    }

    fn holds(&self, slot: WarpSlot) -> bool {
        self.base.holds(slot)
    }

    fn counters(&self) -> PolicyCounters {
        self.base.counters()
    }

    fn smc(&self) -> Option<crate::mem::l1::SmcSettings> {
        self.base.smc()
    }

    fn load_route(&self, slot: WarpSlot) -> crate::mem::l1::LoadRoute {
        self.base.load_route(slot)
    }

    fn scores(&self, now: u64) -> Option<WarpScores> {
        self.base.scores(now)
    }

    fn interference(&self) -> Option<crate::stats::InterferenceView> {
        self.base.interference()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_names_a_base_policy_then_its_gates() {
        let gated = Gated::from_spec("gto", "dmil").expect("a gated policy");
        assert!(matches!(gated.base, WarpPolicy::Gto(_)));
        assert_eq!(gated.gates().len(), 1);
        assert!(Gated::from_spec("lrr", "smil:k0=3,k1=1").is_ok());
        let err = Gated::from_spec("gto", "qmbi").expect_err("no such gate");
        assert!(err.0.contains("qmbi"), "{}", err.0);
        assert!(WarpPolicy::from_spec("gto+dmil:zero_rule=2").is_ok());
        assert!(WarpPolicy::from_spec("gto+smil:k0=200").is_err(), "past the in-flight counter's 128");
        assert!(WarpPolicy::from_spec("dmil").is_err(), "a gate is not a policy by itself");
        assert!(WarpPolicy::from_spec("gto+qbmi+dmil").is_ok(), "an arbiter among the kernels under their limits");
        let err = Gated::from_spec("gto", "rbmi+qbmi").expect_err("two arbiters");
        assert!(err.0.contains("use one"), "{}", err.0);
    }
}
