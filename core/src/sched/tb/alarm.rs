//! A test-only thread-block policy that dispatches round-robin but not before a given cycle,
//! asking the engine to wake it then, and records when it heard of launches, finished blocks and
//! complete kernels. Its engine tests check the TB policy's clock and hooks.

use alloc::vec::Vec;

use super::rr::RoundRobin;
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};

/// Round-robin from cycle `from` on.
#[derive(Clone, Debug, Default)]
pub struct Alarm {
    /// No block is placed before this cycle.
    pub from: u64,
    order: RoundRobin,
    /// The cycles `dispatch` was called at.
    pub calls: Vec<u64>,
    /// (kernel run, cycle) of each launch heard of.
    pub launched: Vec<(u32, u64)>,
    /// (kernel run, cycle) of each complete run.
    pub completed: Vec<(u32, u64)>,
    /// Blocks heard to finish.
    pub finished: u32,
}

impl TbScheduler for Alarm {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        self.launched.push((launch.kernel, cx.now));
    }

    fn on_tb_finish(&mut self, _cx: &TbCx, _sm: u32, _kernel: u32, _block: u32) {
        self.finished += 1;
    }

    fn on_kernel_complete(&mut self, cx: &TbCx, kernel: u32) {
        self.completed.push((kernel, cx.now));
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.calls.push(d.now());
        if d.now() < self.from {
            d.wake_at(self.from);
            return;
        }
        self.order.dispatch(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::kernel::{compile, CompileOptions};
    use crate::sched::tb::TbPolicy;
    use crate::sched::warp::WarpPolicy;
    use crate::stats::Report;
    use crate::{RunOptions, Simulation, StepOutcome};

    /// Two launches of a short kernel, 8 blocks each.
    const TWO_LAUNCHES: &str = "
        __global__ void bump(int* data) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            data[i] = data[i] + 1;
        }
        host { int data[1024]; bump<<<8, 128>>>(data); bump<<<8, 128>>>(data); }";

    fn run(from: u64, skip_idle: bool) -> (Report, Alarm) {
        let config = presets::fermi_gtx480();
        let program =
            compile(TWO_LAUNCHES, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
        let tb = TbPolicy::Alarm(Alarm { from, ..Alarm::default() });
        let warp = WarpPolicy::from_spec("gto").expect("registered");
        let options = RunOptions { skip_idle, ..RunOptions::default() };
        let mut sim = Simulation::with_policies(config, program.workload, tb, warp, options);
        assert_eq!(sim.run(), StepOutcome::Finished);
        let TbPolicy::Alarm(alarm) = sim.tb_policy().clone() else { unreachable!("built with an alarm") };
        (sim.report(), alarm)
    }

    #[test]
    fn a_tb_scheduler_is_woken_at_the_cycle_it_asked_for() {
        let (report, alarm) = run(1000, true);
        let first = report.blocks.iter().map(|b| b.start).min();
        assert_eq!(first, Some(1000), "nothing is placed before 1000, and the first block goes at 1000");
        // Called when the launch arrived (cycle 0), then not again until it asked to be.
        assert_eq!(alarm.calls[..2], [0, 1000]);
        // Idle cycles skipped or simulated one by one: the same calls and the same report.
        let (stepped, stepped_alarm) = run(1000, false);
        assert_eq!(stepped, report);
        assert_eq!(stepped_alarm.calls, alarm.calls);
    }

    #[test]
    fn hooks_hear_launches_finished_blocks_and_complete_runs_when_the_report_says() {
        let (report, alarm) = run(0, true);
        let starts: Vec<(u32, u64)> =
            report.kernels.iter().enumerate().map(|(i, k)| (i as u32, k.start_cycle)).collect();
        let ends: Vec<(u32, u64)> = report.kernels.iter().enumerate().map(|(i, k)| (i as u32, k.end_cycle)).collect();
        assert_eq!(alarm.launched, starts);
        assert_eq!(alarm.completed, ends);
        assert_eq!(alarm.finished, 16);
        // The second launch waits for the first (one stream): it starts after the first ends.
        assert!(starts[1].1 > ends[0].1);
    }
}
