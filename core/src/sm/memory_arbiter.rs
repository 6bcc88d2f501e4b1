//! The SM-wide memory-issue arbiter's view (`cke.md` §8, "BMI arbitration point"): the four
//! schedulers share one LSU, so a policy that chooses which co-running kernel's memory
//! instruction takes it (RBMI, QBMI) must hear, before any scheduler picks, every warp of the
//! SM that could issue one this cycle.

use super::scoreboard::Operands;
use super::Sm;
use crate::sched::warp::{MemoryContender, WarpCx, WarpScheduler, WarpSet};

impl Sm {
    /// Tells an arbitrating policy the warps that could issue a global memory instruction at
    /// `now`, when the LSU could take one. Each scheduler's readiness is brought up to date as
    /// its own turn would (the update is idempotent within a cycle); a sleeping scheduler has
    /// no such warp, since its wake-up is the first cycle any of its warps could issue.
    pub(super) fn arbitrate_memory(&mut self, now: u64, operands: &[alloc::vec::Vec<Operands>]) {
        if !self.arbitrates || self.lsu.busy() {
            return;
        }
        let Sm { schedulers, warps, contenders, info, policy, id, .. } = self;
        contenders.clear();
        for scheduler in schedulers.iter_mut() {
            let next = |w: u16| super::next_instruction(&warps[w as usize], operands);
            let memory = match scheduler.ready.wide() {
                false => {
                    scheduler.ready.refresh::<1>(now, next);
                    WarpSet::from(scheduler.ready.memory_candidates::<1>())
                }
                true => {
                    scheduler.ready.refresh::<4>(now, next);
                    WarpSet::from(scheduler.ready.memory_candidates::<4>())
                }
            };
            for i in memory.iter() {
                let slot = scheduler.ready.members.slot(i);
                let warp = &warps[slot as usize];
                let pc = warp.exec.stack.pc().unwrap_or(0) as usize;
                let class = operands[warp.code_index as usize].get(pc).map(|n| n.class);
                if let Some(class) = class.filter(|c| c.is_global()) {
                    contenders.push(MemoryContender { slot, class });
                }
            }
        }
        policy.arbitrate_memory(&WarpCx { now, sm: *id, scheduler: 0, warps: info }, contenders);
    }
}
