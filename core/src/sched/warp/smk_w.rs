//! SMK's warp-instruction quotas, SMK-W (`cke.md` §1.4): the "W" of SMK-(P+W), the baseline the
//! concurrent-kernel paper compares its own gates against on SMK's split.
//!
//! Each co-running kernel on an SM receives a quota of warp instructions (all of them, not only
//! memory instructions) in proportion to how fast it runs alone: its IPC per SM alone times an
//! epoch of `epoch` cycles, at least one. Every instruction it issues spends one; a kernel with
//! none left issues nothing, and new quotas come only when every kernel's is spent. A kernel
//! with no warp on the SM counts as spent, or an SM whose kernel finished would never refill.
//! The IPC alone is measured before the run ([`crate::scalability::alone`]); SMK's original
//! sizing is not in the paper, and the notes' suggestion (epoch 1000) is the default.

use alloc::vec::Vec;

use super::mil::MAX_KERNELS;
use super::{InstrClass, Issued, SmEvent, SmShape, WarpCx, WarpSlot};
use crate::sched::{ParamInfo, ParamValues};

/// One kernel's quota on one SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KernelQuota {
    stream: u32,
    /// Its quota per epoch.
    size: u32,
    left: u32,
    /// Its warps on the SM.
    warps: u32,
}

/// The gate of one SM.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpQuotas {
    epoch: u32,
    /// Each kernel's warp instructions per SM per cycle alone, by stream.
    rates: Vec<(u32, f64)>,
    kernels: Vec<KernelQuota>,
    /// The stream of each slot's warp, while it lives.
    stream_of: Vec<Option<u32>>,
}

impl WarpQuotas {
    /// SMK-W's parameters.
    pub const PARAMS: &'static [ParamInfo] = &[ParamInfo {
        name: "epoch",
        label: "Quota epoch",
        unit: "cycles",
        description: "A kernel's quota is its warp instructions per cycle on one SM alone times this many cycles (SMK's sizing is not in the concurrent-kernel paper; the notes suggest 1000).",
        min: 10,
        max: 1_000_000,
        default: 1000,
    }];

    /// SMK-W from its parameters.
    pub fn new(values: &ParamValues) -> Self {
        WarpQuotas { epoch: values.get("epoch"), rates: Vec::new(), kernels: Vec::new(), stream_of: Vec::new() }
    }

    /// The cycles of the profile it needs (each kernel alone at full occupancy).
    pub fn profile_cycles(&self) -> u32 {
        self.epoch.max(20_000)
    }

    /// Each kernel's warp instructions per SM per cycle alone, by stream.
    pub fn set_rates(&mut self, rates: Vec<(u32, f64)>) {
        self.rates = rates;
    }

    /// Sizes the per-slot streams.
    pub fn attach(&mut self, shape: &SmShape) {
        self.stream_of = alloc::vec![None; shape.warp_slots as usize];
    }

    /// The quota of `stream`'s kernel, numbered on first sight; `None` past [`MAX_KERNELS`].
    fn quota(&mut self, stream: u32) -> Option<&mut KernelQuota> {
        let i = match self.kernels.iter().position(|k| k.stream == stream) {
            Some(i) => i,
            None if self.kernels.len() < MAX_KERNELS => {
                let rate = self.rates.iter().find(|&&(s, _)| s == stream).map_or(1.0, |&(_, r)| r);
                let size = ((rate * f64::from(self.epoch)) as u32).max(1);
                self.kernels.push(KernelQuota { stream, size, left: size, warps: 0 });
                self.kernels.len() - 1
            }
            None => return None,
        };
        Some(&mut self.kernels[i])
    }

    /// Whether `slot` may issue: its kernel has quota left (any instruction).
    pub fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, _class: InstrClass) -> bool {
        let stream = cx.warps[slot as usize].stream;
        self.kernels.iter().find(|k| k.stream == stream).is_none_or(|k| k.left > 0)
    }

    /// `slot` issued: its kernel spends one; when every kernel present is spent, all refill.
    pub fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        let Some(k) = self.quota(cx.warps[slot as usize].stream) else { return };
        k.left = k.left.saturating_sub(1);
        self.refill_if_spent();
    }

    fn refill_if_spent(&mut self) {
        if self.kernels.iter().all(|k| k.left == 0 || k.warps == 0) {
            for k in &mut self.kernels {
                k.left = k.size;
            }
        }
    }

    /// Warps arriving and leaving: a kernel with none counts as spent.
    pub fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        match *event {
            SmEvent::WarpAdmit { slot, .. } => {
                let Some(stream) = cx.warps.get(slot as usize).map(|w| w.stream) else { return };
                if let Some(entry) = self.stream_of.get_mut(slot as usize) {
                    *entry = Some(stream);
                }
                if let Some(k) = self.quota(stream) {
                    k.warps += 1;
                }
            }
            SmEvent::WarpExit { slot, .. } => {
                let Some(stream) = self.stream_of.get_mut(slot as usize).and_then(Option::take) else { return };
                if let Some(k) = self.quota(stream) {
                    k.warps = k.warps.saturating_sub(1);
                }
                self.refill_if_spent();
            }
            _ => {}
        }
    }

    /// Each kernel's stream, quota size and what is left (for tests and views).
    pub fn quotas(&self) -> Vec<(u32, u32, u32)> {
        self.kernels.iter().map(|k| (k.stream, k.size, k.left)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::warp::test_support::warps;
    use crate::sched::warp::WarpInfo;
    use crate::sched::PolicySpec;

    /// Warps 0-1 of stream 1, warp 2 of stream 2.
    fn two_kernels() -> Vec<WarpInfo> {
        let mut w = warps(&[0, 1, 2]);
        for (i, info) in w.iter_mut().enumerate() {
            info.stream = if i < 2 { 1 } else { 2 };
        }
        w
    }

    fn gate(epoch: u32) -> WarpQuotas {
        let spec = alloc::format!("smk-w:epoch={epoch}");
        let (_, values) = PolicySpec::check(&spec, super::super::gated::MEMORY_GATES).expect("a valid spec");
        let mut g = WarpQuotas::new(&values);
        g.attach(&SmShape { schedulers: 1, warp_slots: 3, tb_slots: 3 });
        g
    }

    const ALU: Issued = Issued { class: InstrClass::Compute, kernel: 0, requests: 0, lanes: 32 };

    /// Alone, stream 1 runs at 0.004 warp instructions per SM per cycle and stream 2 at 0.002:
    /// over a 1000-cycle epoch, quotas of 4 and 2. Stream 1 spends its 4 and waits while stream
    /// 2 has quota left; when both are spent both refill.
    #[test]
    fn quotas_follow_the_rates_alone_and_refill_only_when_every_kernel_is_spent() {
        let w = two_kernels();
        let cx = WarpCx { now: 0, sm: 0, scheduler: 0, warps: &w };
        let mut g = gate(1000);
        g.set_rates(alloc::vec![(1, 0.004), (2, 0.002)]);
        for slot in 0..3 {
            g.on_event(&cx, &SmEvent::WarpAdmit { slot, kernel: 0 });
        }
        assert_eq!(g.quotas(), [(1, 4, 4), (2, 2, 2)]);
        for _ in 0..4 {
            assert!(g.may_issue(&cx, 0, InstrClass::Compute));
            g.on_issue(&cx, 0, &ALU);
        }
        assert!(!g.may_issue(&cx, 1, InstrClass::Compute), "every instruction waits, not only memory");
        assert!(!g.may_issue(&cx, 0, InstrClass::GlobalLoad));
        g.on_issue(&cx, 2, &ALU);
        assert_eq!(g.quotas(), [(1, 4, 0), (2, 2, 1)]);
        g.on_issue(&cx, 2, &ALU);
        assert_eq!(g.quotas(), [(1, 4, 4), (2, 2, 2)], "both spent: both refill");
        // Stream 1 spends its quota again; stream 2's only warp leaves: nothing holds the
        // refill back.
        for _ in 0..4 {
            g.on_issue(&cx, 1, &ALU);
        }
        assert!(!g.may_issue(&cx, 0, InstrClass::Compute));
        g.on_event(&cx, &SmEvent::WarpExit { slot: 2, kernel: 0 });
        assert!(g.may_issue(&cx, 0, InstrClass::Compute));
    }

    #[test]
    fn a_kernel_slower_than_one_instruction_an_epoch_still_gets_one() {
        let w = two_kernels();
        let cx = WarpCx { now: 0, sm: 0, scheduler: 0, warps: &w };
        let mut g = gate(10);
        g.set_rates(alloc::vec![(1, 0.01), (2, 2.5)]);
        g.on_event(&cx, &SmEvent::WarpAdmit { slot: 0, kernel: 0 });
        g.on_event(&cx, &SmEvent::WarpAdmit { slot: 2, kernel: 0 });
        assert_eq!(g.quotas(), [(1, 1, 1), (2, 25, 25)]);
    }
}
