//! Spilling: when a kernel needs more registers than a thread may have, as nvcc's `ptxas` does,
//! some values live in the thread's local memory instead ([`Instr::Spill`](crate::isa::Instr::Spill),
//! [`Instr::Fill`](crate::isa::Instr::Fill)), and the kernel compiles where it would not.
//!
//! Spilled values are spilled everywhere: each is stored after every instruction that writes
//! it and loaded into a fresh register just before every instruction that reads it, so it
//! holds a register only for a moment. They are chosen where the most values are live, those
//! live across the most crowded points for the fewest reads and writes first, in rounds until
//! the colouring of [`allocate`] fits. Values never live at the same time then share words of
//! local memory, as `ptxas` shares stack slots ([`pack_slots`]). Fills are not scheduled
//! early: each waits for its load where it is used.

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::bitset::BitSet;
use super::cfg::Blocks;
use super::liveness::{liveness, Liveness};
use super::regalloc::{allocate, Allocated};
use super::vcode::{VInstr, VOp, VReg};
use crate::isa::Instr;
use crate::workload::MAX_SPILL_WORDS;

/// Code that fits the registers with some values in local memory.
pub(crate) struct Spilled {
    /// The allocated code; `origin` indexes the code given to [`allocate_spilling`] (a fill
    /// belongs to the instruction it feeds, a spill to the one whose result it saves).
    pub allocated: Allocated,
    /// Words of local memory each thread uses.
    pub words: u32,
    /// Values spilled.
    pub values: u32,
}

/// Registers kept free of long-lived values at first, for the loads of spilled values an
/// instruction reads (up to four) and the result it writes, and for the colouring, which may
/// need a few more registers than the most values live at one point.
const HEADROOM: u32 = 8;
/// Rounds of spilling before giving up.
const MAX_ROUNDS: u32 = 64;

/// Why spilling could not make code fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unfit {
    /// It would spill more than [`MAX_SPILL_WORDS`] words.
    LocalMemory,
    /// What must stay in registers at once (a device launch's groups, an instruction's
    /// inputs and result) does not fit.
    Registers,
}

/// [`allocate`], spilling values to local memory until the code fits in `limit` registers,
/// or why it cannot.
pub(crate) fn allocate_spilling(
    code: &[VInstr],
    vregs: u32,
    wide_params: &[bool],
    limit: u32,
) -> Result<Spilled, Unfit> {
    if let Ok(allocated) = allocate(code, vregs, wide_params, limit) {
        return Ok(Spilled { allocated, words: 0, values: 0 });
    }
    let params = wide_params.len() as u32;
    let mut work = code.to_vec();
    let mut origin: Vec<u32> = (0..code.len() as u32).collect();
    let mut n = vregs.max(params);
    // Values that must stay in registers: a launch's consecutive groups, and the short-lived
    // registers spilling makes (spilling those again would gain nothing).
    let mut pinned = vec![false; n as usize];
    for instr in code {
        if let VInstr::Launch { dims, args, nargs, .. } = *instr {
            (dims..dims + 6).chain(args..args + nargs).for_each(|r| pinned[r as usize] = true);
        }
    }
    let mut wide = wide_of(code, n, wide_params);
    let mut slot_of: Vec<Option<u16>> = vec![None; n as usize];
    let (mut words, mut values) = (0u32, 0u32);
    let mut target = limit.saturating_sub(HEADROOM);
    for _ in 0..MAX_ROUNDS {
        let victims = choose(&work, n, &wide, &pinned, target);
        if victims.is_empty() {
            // As few values are live as aimed for, yet the colouring does not fit: aim lower.
            target = target.checked_sub(HEADROOM).filter(|&t| t > HEADROOM).ok_or(Unfit::Registers)?;
            continue;
        }
        for &v in &victims {
            let size = 1 + wide[v as usize] as u32;
            let slot = words.next_multiple_of(size);
            words = slot + size;
            // Words are packed once the code fits; a slot must fit its field until then.
            if words > u16::MAX as u32 {
                return Err(Unfit::LocalMemory);
            }
            slot_of[v as usize] = Some(slot as u16);
            values += 1;
        }
        rewrite(&mut work, &mut origin, &slot_of, &victims, &mut n, params, &wide);
        pinned.resize(n as usize, true);
        slot_of.resize(n as usize, None);
        wide = wide_of(&work, n, wide_params);
        if let Ok(mut allocated) = allocate(&work, n, wide_params, limit) {
            for k in &mut allocated.origin {
                *k = origin[*k as usize];
            }
            let (packed, words) = pack_slots(&work, words);
            if words > MAX_SPILL_WORDS {
                return Err(Unfit::LocalMemory);
            }
            for instr in &mut allocated.code {
                if let Instr::Spill { slot, .. } | Instr::Fill { slot, .. } = instr {
                    *slot = packed[*slot as usize];
                }
            }
            return Ok(Spilled { allocated, words, values });
        }
    }
    Err(Unfit::Registers)
}

/// New slots for the spilled values of `code` (each value's first word, of `words`), so that
/// values never live at the same time share words, as registers do: a value is live from a
/// spill to the fills that read it. Returns the new slot of each old one, and the words used.
fn pack_slots(code: &[VInstr], words: u32) -> (Vec<u16>, u32) {
    let len = code.len() as u32;
    let blocks = Blocks::new(code);
    let nb = blocks.starts.len();
    let n = words as usize;
    // Each value is known by its first word; `pair[w]`: the value at `w` is two words.
    let mut pair = vec![false; n];
    let mut value = vec![false; n];
    let access = |instr: &VInstr| match *instr {
        VInstr::Spill { slot, wide, .. } => Some((slot as u32, wide, true)),
        VInstr::Fill { slot, wide, .. } => Some((slot as u32, wide, false)),
        _ => None,
    };
    // Per block: values read before being written in it, and values written in it.
    let mut gen = vec![BitSet::new(n); nb];
    let mut kill = vec![BitSet::new(n); nb];
    for b in 0..nb {
        for i in (blocks.starts[b]..blocks.end(b, len)).rev() {
            if let Some((slot, wide, write)) = access(&code[i as usize]) {
                pair[slot as usize] = wide;
                value[slot as usize] = true;
                if write {
                    kill[b].insert(slot);
                    gen[b].remove(slot);
                } else {
                    gen[b].insert(slot);
                }
            }
        }
    }
    let successors: Vec<Vec<usize>> = (0..nb)
        .map(|b| {
            let last = blocks.end(b, len) - 1;
            let (next, count) = code[last as usize].successors(last, len);
            next[..count].iter().map(|&t| blocks.starts.partition_point(|&s| s <= t) - 1).collect()
        })
        .collect();
    let mut live_in = gen.clone();
    let mut live_out = vec![BitSet::new(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            for &s in &successors[b] {
                let from = live_in[s].clone();
                changed |= live_out[b].union(&from);
            }
            // live_in = gen ∪ (live_out − kill)
            let mut through = live_out[b].clone();
            for (t, k) in through.0.iter_mut().zip(&kill[b].0) {
                *t &= !k;
            }
            changed |= live_in[b].union(&through);
        }
    }
    // Values interfere where one is written while the other is live.
    let mut adjacent: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, out) in live_out.iter().enumerate() {
        let mut live = out.clone();
        for i in (blocks.starts[b]..blocks.end(b, len)).rev() {
            let Some((slot, _, write)) = access(&code[i as usize]) else { continue };
            if write {
                live.remove(slot);
                live.for_each(|other| {
                    adjacent[slot as usize].push(other);
                    adjacent[other as usize].push(slot);
                });
            } else {
                live.insert(slot);
            }
        }
    }
    // Greedy, in slot order: the lowest free word (even for a pair).
    let mut new = vec![u16::MAX; n];
    let mut used = 0u32;
    let mut taken: Vec<bool> = Vec::new();
    for v in (0..n).filter(|&v| value[v]) {
        let size = 1 + pair[v] as u32;
        taken.clear();
        taken.resize(used as usize + 2, false);
        for &m in &adjacent[v] {
            let at = new[m as usize];
            if at != u16::MAX {
                let end = at as usize + 1 + pair[m as usize] as usize;
                taken[at as usize..end].fill(true);
            }
        }
        let fits = |w: u32| (w..w + size).all(|x| !taken.get(x as usize).copied().unwrap_or(false));
        let at = (0..).step_by(size as usize).find(|&w| fits(w)).unwrap_or(0);
        new[v] = at as u16;
        used = used.max(at + size);
    }
    (new, used)
}

/// Which registers hold 64-bit values.
fn wide_of(code: &[VInstr], n: u32, wide_params: &[bool]) -> Vec<bool> {
    let mut wide = vec![false; n as usize];
    wide[..wide_params.len()].copy_from_slice(wide_params);
    for instr in code {
        if let Some(d) = instr.def().filter(|_| instr.def_is_wide()) {
            wide[d as usize] = true;
        }
    }
    wide
}

/// Values to spill so that at most about `target` registers are live anywhere, chosen
/// greedily: each time the value that frees the most registers still wanted at points above
/// the target for each read or write it costs, until no point is above. Empty when none is.
fn choose(code: &[VInstr], n: u32, wide: &[bool], pinned: &[bool], target: u32) -> Vec<VReg> {
    let len = code.len() as u32;
    let blocks = Blocks::new(code);
    let Liveness { live_out, .. } = liveness(code, &blocks, n as usize);
    let size = |r: VReg| 1 + wide[r as usize] as u32;
    // Per point above the target, the registers still to free there; the registers live at
    // each such point (that may be spilled); per register, its reads and writes.
    let mut demand: Vec<u32> = Vec::new();
    let mut live_at: Vec<(VReg, u32)> = Vec::new();
    let mut refs = vec![0u32; n as usize];
    for (b, out) in live_out.iter().enumerate() {
        let mut live = out.clone();
        let mut pressure = 0u32;
        live.for_each(|r| pressure += size(r));
        for i in (blocks.starts[b]..blocks.end(b, len)).rev() {
            let instr = &code[i as usize];
            // The result is written while everything live after the instruction still is.
            let def = instr.def();
            let at = pressure + def.filter(|&d| !live.contains(d)).map_or(0, size);
            if at > target {
                let point = demand.len() as u32;
                demand.push(at - target);
                live.for_each(|r| {
                    if !pinned[r as usize] {
                        live_at.push((r, point))
                    }
                });
            }
            if let Some(d) = def {
                refs[d as usize] += 1;
                if live.contains(d) {
                    live.remove(d);
                    pressure -= size(d);
                }
            }
            instr.for_each_use(|u| {
                refs[u as usize] += 1;
                if !live.contains(u) {
                    live.insert(u);
                    pressure += size(u);
                }
            });
        }
    }
    live_at.sort_unstable();
    // Each register's points: a run of `live_at`.
    let mut runs: Vec<(VReg, usize, usize)> = Vec::new();
    for (k, &(r, _)) in live_at.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.0 == r => run.2 = k + 1,
            _ => runs.push((r, k, k + 1)),
        }
    }
    // Registers freed where still wanted, per reference, as a fixed-point number.
    let score = |run: &(VReg, usize, usize), demand: &[u32]| -> u64 {
        let gain: u64 = live_at[run.1..run.2].iter().map(|&(_, p)| size(run.0).min(demand[p as usize]) as u64).sum();
        (gain << 20) / refs[run.0 as usize].max(1) as u64
    };
    let mut heap: BinaryHeap<(u64, Reverse<usize>)> =
        runs.iter().enumerate().map(|(k, run)| (score(run, &demand), Reverse(k))).collect();
    let mut unmet = demand.iter().filter(|&&d| d > 0).count();
    let mut victims = Vec::new();
    // Scores only fall as points are met: a value whose score, brought up to date, still leads
    // is the best (lazy greedy).
    while let Some((old, Reverse(k))) = heap.pop() {
        if unmet == 0 {
            break;
        }
        let now = score(&runs[k], &demand);
        if now == 0 {
            continue;
        }
        if now < old {
            heap.push((now, Reverse(k)));
            continue;
        }
        let (r, from, to) = runs[k];
        for &(_, p) in &live_at[from..to] {
            let d = &mut demand[p as usize];
            if *d > 0 {
                *d = d.saturating_sub(size(r));
                unmet -= (*d == 0) as usize;
            }
        }
        victims.push(r);
    }
    victims
}

/// Rewrites `code` so that every register with a slot lives in local memory: a fill into a
/// new register before each instruction that reads it, a spill after each that writes it (a
/// parameter's at the start, for the `fresh` ones, spilled in this round). The spills and fills
/// of earlier rounds stay as they are. Branch targets and `origin` follow; `n` counts the new
/// registers.
fn rewrite(
    code: &mut Vec<VInstr>,
    origin: &mut Vec<u32>,
    slot_of: &[Option<u16>],
    fresh: &[VReg],
    n: &mut u32,
    params: u32,
    wide: &[bool],
) {
    let spilled = |r: VReg| slot_of.get(r as usize).copied().flatten();
    let mut out = Vec::with_capacity(code.len() + code.len() / 4);
    let mut out_origin = Vec::with_capacity(out.capacity());
    for &p in fresh.iter().filter(|&&p| p < params) {
        if let Some(slot) = spilled(p) {
            out.push(VInstr::Spill { src: p, slot, wide: wide[p as usize] });
            out_origin.push(origin.first().copied().unwrap_or(0));
        }
    }
    let mut new_index = Vec::with_capacity(code.len() + 1);
    let mut fills: Vec<(VReg, VReg)> = Vec::new();
    for (i, &instr) in code.iter().enumerate() {
        new_index.push(out.len() as u32);
        if matches!(instr, VInstr::Spill { .. } | VInstr::Fill { .. }) {
            out.push(instr);
            out_origin.push(origin[i]);
            continue;
        }
        let mut instr = instr;
        fills.clear();
        let mut fill_for = |r: &mut VReg| {
            if spilled(*r).is_none() {
                return;
            }
            let temp = match fills.iter().find(|(old, _)| old == r) {
                Some(&(_, temp)) => temp,
                None => {
                    let temp = *n + fills.len() as u32;
                    fills.push((*r, temp));
                    temp
                }
            };
            *r = temp;
        };
        instr.for_each_operand_mut(|op| {
            if let VOp::Reg(r) = op {
                fill_for(r)
            }
        });
        instr.for_each_reg_input_mut(&mut fill_for);
        *n += fills.len() as u32;
        for &(old, temp) in &fills {
            let slot = spilled(old).unwrap_or(0);
            out.push(VInstr::Fill { dst: temp, slot, wide: wide[old as usize] });
            out_origin.push(origin[i]);
        }
        let saved = instr.def().and_then(|d| spilled(d).map(|slot| (d, slot)));
        if saved.is_some() {
            instr.set_def(*n);
            *n += 1;
        }
        out.push(instr);
        out_origin.push(origin[i]);
        if let (Some((d, slot)), Some(temp)) = (saved, instr.def()) {
            out.push(VInstr::Spill { src: temp, slot, wide: wide[d as usize] });
            out_origin.push(origin[i]);
        }
    }
    new_index.push(out.len() as u32);
    for instr in &mut out {
        if let VInstr::Branch { target, reconverge, .. } = instr {
            *target = new_index[*target as usize];
            *reconverge = new_index[*reconverge as usize];
        }
    }
    *code = out;
    *origin = out_origin;
}
