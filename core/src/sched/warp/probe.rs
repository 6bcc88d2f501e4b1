//! A test-only warp policy that records what the policy interface delivers: every issue the
//! SM's schedulers make (by scheduler, by class, with its requests and first cycle), on GTO's
//! order, and optionally a gate that holds back one class of instruction until a cycle. Its
//! engine tests check the interface against hand-worked counts.

use alloc::vec;
use alloc::vec::Vec;

use super::gto::Gto;
use super::{InstrClass, Issued, ReadyWarps, SmEvent, SmShape, WarpCx, WarpScheduler, WarpSlot};

const CLASSES: usize = 5;

fn index(class: InstrClass) -> usize {
    match class {
        InstrClass::Compute => 0,
        InstrClass::GlobalLoad => 1,
        InstrClass::GlobalStore => 2,
        InstrClass::GlobalAtomic => 3,
        InstrClass::Shared => 4,
    }
}

/// What the probe saw on one SM.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    order: Gto,
    /// Instructions of `class` may not issue before `cycle`.
    pub hold: Option<(InstrClass, u64)>,
    /// Issues per scheduler.
    pub per_scheduler: Vec<u64>,
    /// Issues per class.
    pub by_class: [u64; CLASSES],
    /// Requests per class.
    pub requests: [u64; CLASSES],
    /// The first cycle an instruction of each class issued.
    pub first: [Option<u64>; CLASSES],
    /// Times the gate said no.
    pub refusals: core::cell::Cell<u64>,
    /// Failed L1 attempts heard of, summed over the events' counts.
    pub failed_attempts: u64,
    /// Accepted L1 accesses heard of.
    pub accesses: u64,
    /// Lanes the issued instructions ran for (thread instructions).
    pub lanes: u64,
}

impl Probe {
    /// Issues of `class`.
    pub fn issued(&self, class: InstrClass) -> u64 {
        self.by_class[index(class)]
    }

    /// Requests of `class`.
    pub fn requests(&self, class: InstrClass) -> u64 {
        self.requests[index(class)]
    }

    /// The first cycle `class` issued.
    pub fn first(&self, class: InstrClass) -> Option<u64> {
        self.first[index(class)]
    }
}

impl WarpScheduler for Probe {
    fn attach(&mut self, shape: &SmShape) {
        self.order.attach(shape);
        self.per_scheduler = vec![0; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.order.pick(cx, ready)
    }

    fn may_issue(&self, cx: &WarpCx<'_>, _slot: WarpSlot, class: InstrClass) -> bool {
        let held = self.hold.is_some_and(|(held, until)| held == class && cx.now < until);
        self.refusals.set(self.refusals.get() + held as u64);
        !held
    }

    fn on_event(&mut self, _cx: &WarpCx<'_>, event: &SmEvent) {
        match *event {
            SmEvent::ReservationFail { attempts, .. } => self.failed_attempts += attempts,
            e if e.l1_access().is_some() => self.accesses += 1,
            _ => {}
        }
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        self.order.on_issue(cx, slot, issued);
        self.per_scheduler[cx.scheduler as usize] += 1;
        let i = index(issued.class);
        self.by_class[i] += 1;
        self.requests[i] += issued.requests as u64;
        self.lanes += issued.lanes as u64;
        self.first[i].get_or_insert(cx.now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{presets, GpuConfig};
    use crate::kernel::{compile, CompileOptions};
    use crate::sched::tb::TbPolicy;
    use crate::sched::warp::WarpPolicy;
    use crate::stats::Report;
    use crate::{RunOptions, Simulation, StepOutcome};

    /// Each thread loads a word `STRIDE` words after its neighbour's, passes it to its
    /// neighbour through shared memory, counts itself with an atomic and stores the sum back:
    /// one block of 128 threads (four warps) per SM. In program order the instruction classes
    /// first appear as compute, global load, shared, global atomic, global store.
    const KERNEL: &str = "
        #define STRIDE 1
        __global__ void bump(int* data, int* counter) {
            __shared__ int tile[128];
            int i = (blockIdx.x * blockDim.x + threadIdx.x) * STRIDE;
            int v = data[i];
            tile[threadIdx.x] = v;
            int w = tile[threadIdx.x ^ 1];
            atomicAdd(counter, 1);
            data[i] = v + w;
        }
        host { int data[4 * 128 * 32]; int counter[1]; bump<<<4, 128>>>(data, counter); }";

    /// The classes in the order they first appear in [`KERNEL`].
    const PROGRAM_ORDER: [InstrClass; 5] = [
        InstrClass::Compute,
        InstrClass::GlobalLoad,
        InstrClass::Shared,
        InstrClass::GlobalAtomic,
        InstrClass::GlobalStore,
    ];

    /// Four SMs of four schedulers each.
    fn machine() -> GpuConfig {
        let mut config = presets::fermi_gtx480();
        config.core.sm_count = 4;
        config.core.schedulers_per_sm = 4;
        config
    }

    fn run(stride: u32, probe: Probe) -> (Report, Vec<Probe>) {
        let config = machine();
        let defines = [("STRIDE".into(), alloc::format!("{stride}"))];
        let program =
            compile(KERNEL, &CompileOptions { config: &config, defines: &defines, optimize: true }).expect("compiles");
        let tb = TbPolicy::from_spec("rr").expect("registered");
        let mut sim =
            Simulation::with_policies(config, program.workload, tb, WarpPolicy::Probe(probe), RunOptions::default());
        assert_eq!(sim.run(), StepOutcome::Finished);
        let probes = (0..4)
            .map(|sm| match sim.warp_policy(sm) {
                Some(WarpPolicy::Probe(p)) => p.clone(),
                _ => unreachable!("built with a probe"),
            })
            .collect();
        (sim.report(), probes)
    }

    #[test]
    fn one_policy_object_hears_every_scheduler_of_its_sm() {
        let (report, probes) = run(1, Probe::default());
        for (sm, probe) in probes.iter().enumerate() {
            // Four warps, one per scheduler, each running the same straight-line code.
            let per_warp = report.sms[sm].warp_instructions / 4;
            assert!(per_warp > 0);
            assert_eq!(probe.per_scheduler, [per_warp; 4], "SM {sm}");
            assert_eq!(probe.per_scheduler.iter().sum::<u64>(), report.sms[sm].warp_instructions);
            // One load and one store per warp, each of 32 consecutive words: one 128-byte line.
            assert_eq!((probe.issued(InstrClass::GlobalLoad), probe.issued(InstrClass::GlobalStore)), (4, 4));
            assert_eq!((probe.requests(InstrClass::GlobalLoad), probe.requests(InstrClass::GlobalStore)), (4, 4));
            // One atomic per warp, every lane on one word: one line request.
            assert_eq!((probe.issued(InstrClass::GlobalAtomic), probe.requests(InstrClass::GlobalAtomic)), (4, 4));
            // A shared store and load per warp, each lane in its own bank: one pass each.
            assert_eq!((probe.issued(InstrClass::Shared), probe.requests(InstrClass::Shared)), (8, 8));
        }
    }

    #[test]
    fn each_instruction_reports_the_lanes_it_ran_for() {
        let (report, probes) = run(1, Probe::default());
        for (sm, probe) in probes.iter().enumerate() {
            assert_eq!(probe.lanes, 32 * report.sms[sm].warp_instructions, "SM {sm}: full warps");
        }
        // Blocks of 16 threads: every warp is half full, so every instruction runs 16 lanes.
        let config = machine();
        let source = KERNEL.replace("bump<<<4, 128>>>", "bump<<<4, 16>>>");
        let program =
            compile(&source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
        let tb = TbPolicy::from_spec("rr").expect("registered");
        let mut sim = Simulation::with_policies(
            config,
            program.workload,
            tb,
            WarpPolicy::Probe(Probe::default()),
            RunOptions::default(),
        );
        assert_eq!(sim.run(), StepOutcome::Finished);
        let report = sim.report();
        for sm in 0..4 {
            let Some(WarpPolicy::Probe(p)) = sim.warp_policy(sm) else { unreachable!() };
            assert!(report.sms[sm].warp_instructions > 0);
            assert_eq!(p.lanes, 16 * report.sms[sm].warp_instructions, "SM {sm}: half warps");
        }
    }

    #[test]
    fn a_strided_access_reports_one_request_per_line() {
        // 32 words apart: every lane touches its own 128-byte line.
        let (_, probes) = run(32, Probe::default());
        assert!(probes.iter().all(|p| p.requests(InstrClass::GlobalLoad) == 4 * 32));
        assert!(probes.iter().all(|p| p.requests(InstrClass::GlobalStore) == 4 * 32));
    }

    #[test]
    fn failures_the_lsu_waits_out_are_heard_with_their_count() {
        // A strided access makes 32 line requests per warp instruction: the MSHRs run out, the
        // L1 turns requests away, and the LSU waits for a fill instead of retrying.
        let (report, probes) = run(32, Probe::default());
        for (sm, probe) in probes.iter().enumerate() {
            let l1 = &report.sms[sm].l1;
            let fails = l1.failures();
            assert!(fails > 0, "SM {sm} saw reservation failures");
            assert_eq!(probe.failed_attempts, fails, "SM {sm}: every attempt, charged late or not");
            assert_eq!(probe.accesses, l1.accesses, "SM {sm}");
        }
    }

    #[test]
    fn a_gate_holds_back_its_class_only_until_it_opens() {
        let (free, free_probes) = run(1, Probe::default());
        for (k, &held) in PROGRAM_ORDER.iter().enumerate() {
            // Hold the class until well after it would have issued; the rest of the gate is open.
            let until = free_probes[0].first(held).expect("every class issues") + 500;
            let (report, probes) = run(1, Probe { hold: Some((held, until)), ..Probe::default() });
            for (probe, free) in probes.iter().zip(&free_probes) {
                assert!(probe.refusals.get() > 0, "{held:?}");
                assert_eq!(probe.first(held), Some(until), "{held:?} issues the cycle its gate opens");
                for (j, &other) in PROGRAM_ORDER.iter().enumerate() {
                    if j < k {
                        // Classes that come first in the program are not held up.
                        assert_eq!(probe.first(other), free.first(other), "{other:?} while {held:?} is held");
                    } else if j > k {
                        // Classes after it wait for it.
                        assert!(probe.first(other) > probe.first(held), "{other:?} after {held:?}");
                    }
                }
            }
            assert!(report.stalls.throttled > 0 && free.stalls.throttled == 0, "held cycles count as throttled");
        }
    }
}
