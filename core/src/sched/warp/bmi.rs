//! Balanced memory issue (`cke.md` §3.1–3.2): co-running kernels share one LSU per SM, and a
//! memory-intensive kernel, whose instructions are more often ready and make more requests each,
//! takes most of it. Each cycle the LSU is free, an SM-wide arbiter chooses which kernel's
//! global memory instruction may enter it; the others' memory instructions wait, and their
//! schedulers issue something else. Compute instructions never wait.
//!
//! - **RBMI** takes the kernels with a ready memory instruction in turn (the first after the
//!   one that issued last, by stream): it balances instructions.
//! - **QBMI** balances requests. Each kernel holds a quota; the kernel with the most issues,
//!   and every issue spends one. When a quota reaches zero, every kernel's grows by
//!   `LCM(RPM) / RPM_k`, its requests per memory instruction measured every 1024 of its L1
//!   requests, so that a round of quotas brings the same number of requests from each kernel.
//!   A quota is a priority, not a gate: a kernel with none left still issues when no other
//!   kernel has a memory instruction ready.
//!
//! Both start as the notes suggest (RPM 1, quota 1), keep a kernel's state across its relaunches,
//! break ties in turn after the kernel that issued last, and saturate quotas at 16 bits. The
//! paper adds each refill to what a kernel has left, so a kernel that seldom issues memory
//! instructions banks priority; `refill=1` sets the quotas to one round's instead (the notes
//! list quota accumulation among the paper's open points). A kernel
//! is a host stream ([`super::WarpInfo::stream`]); an SM keeps state for at most
//! [`MAX_KERNELS`] and does not hold back any further one.

use alloc::vec::Vec;

use super::mil::MAX_KERNELS;
use super::{InstrClass, Issued, SmEvent, WarpCx, WarpSlot};

/// Requests per RPM sample (the paper's 10-bit counter).
const SAMPLE: u32 = 1024;
/// A quota's ceiling (16 bits).
const QUOTA_MAX: u64 = u16::MAX as u64;

/// How the arbiter chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In turn (RBMI).
    RoundRobin,
    /// By request quota (QBMI).
    Quota,
}

/// What a refill does to the quota a kernel has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refill {
    /// Adds one round's share to it (the paper).
    Add,
    /// Replaces it with one round's share.
    Reset,
}

/// QBMI's parameters.
pub const QBMI_PARAMS: &[crate::sched::ParamInfo] = &[crate::sched::ParamInfo {
    name: "refill",
    label: "Quota refill",
    unit: "",
    description: "When a kernel's quota runs out: 0 adds a round's share to every kernel's quota (the paper; a kernel that seldom issues banks priority, up to 16 bits), 1 sets every quota to a round's share.",
    min: 0,
    max: 1,
    default: 0,
}];

/// One kernel's arbitration state on one SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KernelState {
    stream: u32,
    quota: u32,
    /// Requests per memory instruction, as last measured.
    rpm: u32,
    /// Its L1 requests and memory instructions since the last sample.
    requests: u32,
    instructions: u32,
}

/// The arbiter of one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalancedIssue {
    order: Order,
    refill: Refill,
    kernels: Vec<KernelState>,
    /// The stream whose memory instruction issued last.
    last: Option<u32>,
    /// The stream chosen for this cycle (`None`: nobody contends, or nobody is held back).
    allowed: Option<u32>,
}

impl BalancedIssue {
    /// An arbiter choosing by `order`.
    pub fn new(order: Order) -> Self {
        BalancedIssue {
            order,
            refill: Refill::Add,
            kernels: Vec::with_capacity(MAX_KERNELS),
            last: None,
            allowed: None,
        }
    }

    /// QBMI with its parameters.
    pub fn qbmi(values: &crate::sched::ParamValues) -> Self {
        let refill = if values.get("refill") == 1 { Refill::Reset } else { Refill::Add };
        BalancedIssue { refill, ..BalancedIssue::new(Order::Quota) }
    }

    /// The state of `stream`'s kernel, numbered on first sight; `None` past [`MAX_KERNELS`].
    fn state(&mut self, stream: u32) -> Option<&mut KernelState> {
        let i = match self.kernels.iter().position(|k| k.stream == stream) {
            Some(i) => i,
            None if self.kernels.len() < MAX_KERNELS => {
                self.kernels.push(KernelState { stream, quota: 1, rpm: 1, requests: 0, instructions: 0 });
                self.kernels.len() - 1
            }
            None => return None,
        };
        Some(&mut self.kernels[i])
    }

    /// Chooses among the kernels of `streams` (distinct), each with a memory instruction ready.
    pub fn arbitrate(&mut self, streams: &[u32]) {
        let last = self.last;
        // In turn after the last to issue: later streams first, then from the lowest again.
        let turn = |stream: u32| (last.is_some_and(|l| stream <= l), stream);
        let mut best: Option<(u32, (bool, u32))> = None;
        for &stream in streams {
            let Some(quota) = self.state(stream).map(|k| k.quota) else { continue };
            let priority = match self.order {
                Order::RoundRobin => 0,
                Order::Quota => quota,
            };
            let better = best.is_none_or(|(p, key)| priority > p || (priority == p && turn(stream) < key));
            if better {
                best = Some((priority, turn(stream)));
            }
        }
        self.allowed = best.map(|(_, (_, stream))| stream);
    }

    /// Whether `slot`'s next instruction, of `class`, may issue this cycle.
    pub fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        if !class.is_global() {
            return true;
        }
        let stream = cx.warps[slot as usize].stream;
        match self.allowed {
            Some(allowed) => stream == allowed || !self.kernels.iter().any(|k| k.stream == stream),
            None => true,
        }
    }

    /// `slot` issued `issued`: a memory instruction spends its kernel's quota.
    pub fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        if !issued.class.is_global() {
            return;
        }
        let stream = cx.warps[slot as usize].stream;
        self.last = Some(stream);
        // Once per cycle at most: the LSU takes one memory instruction.
        self.allowed = None;
        let quota = self.order == Order::Quota;
        let Some(k) = self.state(stream) else { return };
        k.instructions = k.instructions.saturating_add(1);
        if !quota {
            return;
        }
        k.quota = k.quota.saturating_sub(1);
        if k.quota == 0 {
            self.refill();
        }
    }

    /// Every kernel's quota grows by its share of one round: `LCM(RPM) / RPM_k`.
    fn refill(&mut self) {
        let lcm = self.kernels.iter().fold(1u64, |l, k| lcm(l, u64::from(k.rpm)).min(u64::from(u32::MAX)));
        for k in &mut self.kernels {
            let share = lcm / u64::from(k.rpm);
            let left = match self.refill {
                Refill::Add => u64::from(k.quota),
                Refill::Reset => 0,
            };
            k.quota = (left + share).min(QUOTA_MAX) as u32;
        }
    }

    /// Accepted L1 requests: a kernel's RPM is resampled every 1024.
    pub fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        let Some((slot, _)) = event.l1_access() else { return };
        let Some(stream) = cx.warps.get(slot as usize).map(|w| w.stream) else { return };
        let Some(k) = self.state(stream) else { return };
        k.requests += 1;
        if k.requests < SAMPLE {
            return;
        }
        // Rounded to the nearest whole request, at least one (kept if no instruction issued).
        if let Some(rpm) = (SAMPLE + k.instructions / 2).checked_div(k.instructions) {
            k.rpm = rpm.max(1);
        }
        k.requests = 0;
        k.instructions = 0;
    }

    /// The kernel chosen for this cycle, if any (for tests and views).
    pub fn allowed(&self) -> Option<u32> {
        self.allowed
    }

    /// Each kernel's stream, quota and RPM, in order of first sight (for tests and views).
    pub fn quotas(&self) -> Vec<(u32, u32, u32)> {
        self.kernels.iter().map(|k| (k.stream, k.quota, k.rpm)).collect()
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::warp::test_support::warps;
    use crate::sched::warp::WarpInfo;

    /// Warp 0 of stream 1, warp 1 of stream 2, warp 2 of stream 3.
    fn three_kernels() -> Vec<WarpInfo> {
        let mut w = warps(&[0, 1, 2]);
        for (i, info) in w.iter_mut().enumerate() {
            info.stream = i as u32 + 1;
        }
        w
    }

    fn load(requests: u32) -> Issued {
        Issued { class: InstrClass::GlobalLoad, kernel: 0, requests, lanes: 32 }
    }

    fn cx(w: &[WarpInfo]) -> WarpCx<'_> {
        WarpCx { now: 0, sm: 0, scheduler: 0, warps: w }
    }

    /// Lets warp `slot` of the contenders issue a load when its kernel is the one chosen, and
    /// says which stream issued.
    fn cycle(arbiter: &mut BalancedIssue, w: &[WarpInfo], contenders: &[WarpSlot]) -> u32 {
        let streams: Vec<u32> = contenders.iter().map(|&s| w[s as usize].stream).collect();
        arbiter.arbitrate(&streams);
        let cx = cx(w);
        let issuing: Vec<WarpSlot> =
            contenders.iter().copied().filter(|&s| arbiter.may_issue(&cx, s, InstrClass::GlobalLoad)).collect();
        assert_eq!(issuing.len(), 1, "exactly one kernel is chosen among {contenders:?}");
        assert!(arbiter.may_issue(&cx, contenders[0], InstrClass::Compute), "compute never waits");
        arbiter.on_issue(&cx, issuing[0], &load(1));
        w[issuing[0] as usize].stream
    }

    #[test]
    fn round_robin_takes_the_contending_kernels_in_turn() {
        let w = three_kernels();
        let mut rbmi = BalancedIssue::new(Order::RoundRobin);
        let order: Vec<u32> = (0..5).map(|_| cycle(&mut rbmi, &w, &[0, 1, 2])).collect();
        assert_eq!(order, [1, 2, 3, 1, 2]);
        // Stream 3 has nothing ready: after 2 comes 1, skipping it.
        assert_eq!(cycle(&mut rbmi, &w, &[0, 1]), 1);
        assert_eq!(cycle(&mut rbmi, &w, &[2, 1]), 2, "after 1, stream 2 whatever the contenders' order");
        assert_eq!(cycle(&mut rbmi, &w, &[0]), 1, "a lone contender always goes");
        rbmi.arbitrate(&[]);
        assert_eq!(rbmi.allowed(), None);
    }

    /// The notes' bp+ks example: RPMs 2 and 17 give LCM 34 and quotas 17 and 2, so that a round
    /// brings 34 requests from each. Worked by hand from quotas (17, 2) with both contending:
    /// bp issues 15 times down to a tie at 2; the tie goes to ks (bp issued last); bp is then
    /// ahead (2 > 1); at the tie (1, 1) ks goes, reaches zero, and both quotas grow: (1 + 17,
    /// 0 + 2). bp issued 16 times and carries one into the next round: 17 to 2 a round.
    #[test]
    fn quotas_balance_requests_by_the_least_common_multiple_of_the_rpms() {
        let w = three_kernels();
        let cx = cx(&w);
        let mut qbmi = BalancedIssue::new(Order::Quota);
        // Measure RPMs: 512 instructions of 2 requests for stream 1; for stream 2, 60
        // instructions of 1024 requests in all (17.07 per instruction, rounded to 17).
        for _ in 0..512 {
            qbmi.on_issue(&cx, 0, &load(2));
        }
        for _ in 0..60 {
            qbmi.on_issue(&cx, 1, &load(17));
        }
        let hit = |slot: WarpSlot| SmEvent::Hit { slot, kernel: 0, line: 0, owner: 0 };
        for _ in 0..1024 {
            qbmi.on_event(&cx, &hit(0));
            qbmi.on_event(&cx, &hit(1));
        }
        let rpms: Vec<u32> = qbmi.quotas().iter().map(|&(_, _, rpm)| rpm).collect();
        assert_eq!(rpms, [2, 17]);
        // Drain whatever quotas the measuring left until stream 1 reaches zero and the refill
        // uses the new RPMs; then set the scene the example starts from.
        qbmi.kernels[0].quota = 17;
        qbmi.kernels[1].quota = 2;
        qbmi.last = Some(1);
        let round: Vec<u32> = (0..18).map(|_| cycle(&mut qbmi, &w, &[0, 1])).collect();
        let mut expected = [1; 18].to_vec();
        expected[15] = 2;
        expected[17] = 2;
        assert_eq!(round, expected);
        assert_eq!(qbmi.quotas().iter().map(|&(_, q, _)| q).collect::<Vec<_>>(), [18, 2]);
        // A quota is a priority, not a gate: with bp alone ready, it issues whatever ks holds.
        qbmi.kernels[0].quota = 1;
        qbmi.kernels[1].quota = 30;
        assert_eq!(cycle(&mut qbmi, &w, &[0]), 1);
    }

    #[test]
    fn quotas_saturate_and_a_fifth_kernel_is_never_held_back() {
        let mut w = warps(&[0, 1, 2, 3, 4]);
        for (i, info) in w.iter_mut().enumerate() {
            info.stream = i as u32 + 1;
        }
        let cx = cx(&w);
        let mut qbmi = BalancedIssue::new(Order::Quota);
        qbmi.arbitrate(&[1, 2, 3, 4, 5]);
        assert_eq!(qbmi.quotas().len(), MAX_KERNELS);
        assert_eq!(qbmi.allowed(), Some(1), "equal quotas at the start: the lowest stream");
        assert!(qbmi.may_issue(&cx, 4, InstrClass::GlobalLoad), "stream 5 has no state and is not held");
        assert!(!qbmi.may_issue(&cx, 1, InstrClass::GlobalStore), "stores wait their turn too");
        qbmi.kernels.iter_mut().for_each(|k| k.rpm = 31);
        qbmi.kernels[0].rpm = 1;
        qbmi.kernels[0].quota = 1;
        qbmi.kernels[1].quota = 65_535;
        qbmi.on_issue(&cx, 0, &load(1));
        assert_eq!(qbmi.quotas()[0].1, 31, "LCM 31 over RPM 1");
        assert_eq!(qbmi.quotas()[1].1, 65_535, "65,535 + 1 saturates at 16 bits");
        // Reset instead: the banked quota goes; every kernel holds one round's share.
        qbmi.refill = Refill::Reset;
        qbmi.kernels[0].quota = 1;
        qbmi.on_issue(&cx, 0, &load(1));
        assert_eq!(qbmi.quotas().iter().map(|&(_, q, _)| q).collect::<Vec<_>>(), [31, 1, 1, 1]);
    }
}
