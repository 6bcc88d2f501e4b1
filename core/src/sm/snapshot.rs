//! What each warp slot of an SM is doing, for snapshots of the machine.
//!
//! The classification reads the same state the issue stage reads, in the same order, so a
//! picture agrees with the stall breakdown: a warp is `Memory` when its next instruction waits
//! on a load, `Dependency` when it waits on a fixed-latency result or a busy unit (the LSU
//! included), `Throttled` when its policy holds it back (CIAO's stalled warps, those beyond a
//! static warp limit: whatever it waits for) or only the policy's load gate does, `Ready`
//! otherwise.
//! Nothing changes in an SM during cycles the engine skips, so judging the registers and units
//! against the snapshot's cycle gives the same answer whether or not cycles were skipped.

use crate::isa::{Instr, Kernel, Unit};
use crate::sched::warp::{WarpCx, WarpScheduler, WarpSlot};
use crate::stats::WarpState;

use super::scoreboard::Operands;
use super::{unit_index, Sm, NOT_READY};

/// One warp slot in a snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpView {
    /// What it is doing.
    pub state: WarpState,
    /// Kernel run and block index of its block (`None` for an empty slot).
    pub block: Option<(u32, u32)>,
}

const EMPTY: WarpView = WarpView { state: WarpState::Empty, block: None };

impl Sm {
    /// Warp instructions issued so far.
    pub fn warp_instructions(&self) -> u64 {
        self.report.warp_instructions
    }

    /// Each live warp's kernel run and its next instruction.
    pub fn live_warp_pcs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.warps
            .iter()
            .zip(&self.info)
            .filter(|(_, info)| info.live)
            .filter_map(|(warp, info)| Some((info.kernel, warp.exec.stack.pc()?)))
    }

    /// Every warp slot at the start of cycle `now` (everything before `now` simulated), in
    /// slot order. `kernels` are the workload's kernels.
    pub fn warp_views<'a>(&'a self, now: u64, kernels: &'a [Kernel]) -> impl Iterator<Item = WarpView> + 'a {
        (0..self.warps.len()).map(move |w| self.warp_view(w, now, kernels))
    }

    fn warp_view(&self, w: usize, now: u64, kernels: &[Kernel]) -> WarpView {
        let warp = &self.warps[w];
        let Some(block) = self.blocks.get(warp.block_slot as usize) else { return EMPTY };
        // A slot whose block has retired (or that was reused by another block) is empty.
        if !block.live || warp.admitted_for != Some((block.kernel, block.block)) {
            return EMPTY;
        }
        let view = |state| WarpView { state, block: warp.admitted_for };
        if !self.info[w].live {
            return view(WarpState::Done);
        }
        if warp.last_issue.checked_add(1) == Some(now) {
            return view(WarpState::Issued);
        }
        if self.schedulers[w % self.schedulers.len()].ready.at_barrier(w as WarpSlot) {
            return view(WarpState::Barrier);
        }
        if self.policy.holds(w as WarpSlot) {
            return view(WarpState::Throttled);
        }
        let instr = kernels
            .get(block.code_index as usize)
            .and_then(|k| warp.exec.stack.pc().and_then(|pc| k.code.get(pc as usize)));
        view(self.waiting_state(w, now, instr))
    }

    /// Why live warp `w`, not at a barrier, would or would not issue `instr` (its next
    /// instruction; `None` runs off the end, which issues and faults) at `now`.
    fn waiting_state(&self, w: usize, now: u64, instr: Option<&Instr>) -> WarpState {
        let Some(instr) = instr else { return WarpState::Ready };
        let (registers, busy_until) = (Operands::of(instr).ready_at(&self.warps[w].ready_at), self.warps[w].busy_until);
        match registers.max(busy_until) {
            NOT_READY => return WarpState::Memory,
            // The launch stall outlasts the operands: the launch call is what it waits for.
            at if at > now && busy_until > registers => return WarpState::Launching,
            at if at > now => return WarpState::Dependency,
            _ => {}
        }
        let scheduler = &self.schedulers[w % self.schedulers.len()];
        let unit_busy = match instr.unit() {
            Unit::Memory => self.lsu.busy(),
            unit => scheduler.unit_free[unit_index(unit)] > now,
        };
        if unit_busy {
            return WarpState::Dependency;
        }
        let cx = WarpCx { now, sm: self.id, scheduler: (w % self.schedulers.len()) as u16, warps: &self.info };
        if !self.policy.may_issue(&cx, w as WarpSlot, instr.class()) {
            return WarpState::Throttled;
        }
        WarpState::Ready
    }
}
