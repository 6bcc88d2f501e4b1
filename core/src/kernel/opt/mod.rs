//! Passes over the virtual-register code, between code generation and reconvergence
//! points: what nvcc does at `-O3` where it changes how many instructions run.
//!
//! Order, and why:
//! 1. `contract`: `a * b + c` → `fma`. Always, also unoptimised, and first, on the code as
//!    generated: it is part of the language (one rounding), so it must not depend on what
//!    the other passes expose.
//! 2. `simplify` (folding and propagation, value numbering, store-to-load forwarding, dead
//!    code) until nothing changes. Forwarding runs only where [`Memory::Plain`].
//! 3. `unroll`: loops with a small constant trip count, fully; then `simplify` folds the
//!    counter away.
//! 4. `licm`: invariant computations move to a preheader; `strength`: addresses that step by
//!    a constant each turn become one addition per turn; `simplify` again.
//! 5. `unroll` again: innermost loops with a runtime trip count, by four (the copies'
//!    pointer steps then merge into load offsets in `fold`); `simplify`.
//! 6. `schedule`: last, on the final code, each global or shared load moves up within its
//!    basic block past pure instructions and other loads, as far as its register dependences
//!    allow (never across a store, atomic, barrier, launch or branch), so the loads of an
//!    unrolled body are in flight together. It only reorders, so it cannot undo or be undone
//!    by the others; it keeps values alive longer, and a kernel whose scheduled code no longer
//!    fits the registers falls back, as any optimised code does, to the unoptimised code.
//!
//! Every pass keeps the code's shape that `cfg.rs` expects (blocks ending in a branch or
//! falling through, the final `Exit` last) and creates no new control flow except the copies
//! that unrolling makes and the straight-line preheaders. Each is bounded: passes repeat at
//! most [`MAX_ROUNDS`] times, and unrolling has a size budget.

mod contract;
mod dce;
mod edit;
mod flow;
mod fold;
mod forward;
mod gvn;
mod licm;
mod schedule;
mod strength;
mod unroll;

use alloc::vec::Vec;

use super::vcode::{VInstr, VReg};

/// Most repetitions of a group of passes that feed each other.
const MAX_ROUNDS: usize = 8;

/// `fma` contraction, which every compile does (it is part of the language).
pub(crate) fn contract(code: &mut Vec<VInstr>, vregs: u32) {
    contract::contract(code, vregs);
}

/// The optimisation passes. `vregs` is the number of virtual registers, raised when a pass
/// needs new ones; `params` the kernel's parameters (registers `0..params`, written before
/// the first instruction).
pub(crate) fn optimize(code: &mut Vec<VInstr>, vregs: &mut u32, params: u32, memory: Memory<'_>) {
    let passes = Passes { params, memory };
    simplify(code, vregs, &passes);
    // Each unrolling makes the code longer within the budget; the count bounds the total.
    for _ in 0..MAX_LOOP_EDITS {
        if !unroll::unroll_constant_loops(code, *vregs, params) {
            break;
        }
        simplify(code, vregs, &passes);
    }
    for _ in 0..MAX_LOOP_EDITS {
        if !licm::hoist_invariants(code, *vregs, params) {
            break;
        }
    }
    simplify(code, vregs, &passes);
    for _ in 0..MAX_LOOP_EDITS {
        if !strength::reduce_addresses(code, vregs, params) {
            break;
        }
        simplify(code, vregs, &passes);
    }
    // Last, on loops whose addresses already step: each innermost loop once.
    if unroll::unroll_runtime_loops(code, vregs) {
        simplify(code, vregs, &passes);
    }
    // Only reorders within blocks: nothing the passes above would find again.
    schedule::schedule_loads(code, vregs);
}

/// What the optimiser may assume about the kernel's memory accesses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Memory<'a> {
    /// Only barriers, atomics and launches order them with other threads: a load of what the
    /// thread stored or loaded before may be forwarded (`forward.rs`). `restrict`: the
    /// registers of the `__restrict__` pointer parameters, which reach memory no other
    /// pointer does.
    Plain { restrict: &'a [VReg] },
    /// The kernel declares something `volatile`, or calls a fence or `__syncwarp`, which the
    /// code does not show where they act: every load reads memory.
    Ordered,
}

/// What every pass of one kernel's optimisation shares.
struct Passes<'a> {
    params: u32,
    memory: Memory<'a>,
}

/// Most loops unrolled, hoisted from or strength-reduced in one kernel.
const MAX_LOOP_EDITS: usize = 32;

/// Folding, propagation, value numbering and dead code, until none finds anything.
fn simplify(code: &mut Vec<VInstr>, vregs: &mut u32, passes: &Passes<'_>) {
    let params = passes.params;
    for _ in 0..MAX_ROUNDS {
        let mut changed = fold::fold(code, *vregs, params);
        changed |= gvn::number_values(code, *vregs, params);
        if let Memory::Plain { restrict } = passes.memory {
            changed |= forward::forward_loads(code, vregs, params, restrict);
        }
        changed |= dce::remove_dead(code, *vregs);
        if !changed {
            break;
        }
    }
}
