//! The notes' toy scenario (`ciao.md` §10), round by round, with the policy driven through its
//! interface by a scripted round model: three warps on one SM, an L1 of 2 sets × 2 ways (LRU,
//! set = line mod 2), a shared-memory cache of 4 direct-mapped lines for isolated warps. W0 loads
//! line 0 every round, W1 line 1, W2 two new lines (100 + 4r and 102 + 4r, both in set 0): a
//! stream that keeps pushing W0's line out. Each round every warp the policy lets issue issues
//! its load, then one ALU instruction; the caches change at once. Round `r` is cycle `r`, so the
//! policy evaluates a round's epoch boundaries at the first call of the next.
//!
//! The toy's constants: cutoffs 0.2 and 0.1, epochs of 12 and 6 instructions (the paper's would
//! need thousands of rounds), 8 victim tags a warp, three warps active.

use alloc::vec;
use alloc::vec::Vec;

use super::super::ccws::Ccws;
use super::super::test_support::{members, pick, warps, ALU};
use super::super::{InstrClass, Issued, SmEvent, SmShape, WarpCx, WarpInfo, WarpPolicy, WarpScheduler, WarpSlot};
use super::combined::CiaoC;
use super::redirect::CiaoP;
use super::throttle::CiaoT;
use super::*;

const TOY: &str = "high_cutoff=2000,low_cutoff=1000,high_epoch=12,low_epoch=6";
const LOAD: Issued = Issued { class: InstrClass::GlobalLoad, kernel: 0, requests: 1, lanes: 32 };

/// The toy's caches. Each line remembers the warp whose miss brought it in.
#[derive(Default)]
struct Caches {
    /// Per set, (line, owner) from least to most recently used.
    l1: [Vec<(u64, WarpSlot)>; 2],
    smc: [Option<(u64, WarpSlot)>; 4],
}

impl Caches {
    /// `slot` loads `line` through the L1 or the shared-memory cache; the events the policy
    /// hears, and whether it hit.
    fn load(&mut self, slot: WarpSlot, line: u64, redirected: bool) -> (bool, Vec<SmEvent>) {
        let mut events = Vec::new();
        if redirected {
            let index = (line % 4) as usize;
            if self.smc[index].is_some_and(|(l, _)| l == line) {
                return (true, events);
            }
            events.push(SmEvent::Miss { slot, kernel: 0, line });
            if let Some((victim, owner)) = self.smc[index] {
                events.push(SmEvent::Eviction { line: victim, owner: owner as u32, by: slot });
            }
            self.smc[index] = Some((line, slot));
            return (false, events);
        }
        let set = &mut self.l1[(line % 2) as usize];
        if let Some(i) = set.iter().position(|&(l, _)| l == line) {
            let entry = set.remove(i);
            set.push(entry);
            return (true, events);
        }
        events.push(SmEvent::Miss { slot, kernel: 0, line });
        if set.len() == 2 {
            let (victim, owner) = set.remove(0);
            events.push(SmEvent::Eviction { line: victim, owner: owner as u32, by: slot });
        }
        set.push((line, slot));
        (false, events)
    }
}

/// What happened in one round.
#[derive(Clone, Debug, Default)]
struct Round {
    /// Which warps issued.
    issued: [bool; 3],
    /// Whether W0's load hit the L1.
    w0_hit: bool,
}

/// A policy the driver can ask where a warp's loads go.
trait Driven: WarpScheduler {
    fn redirected(&self, _slot: WarpSlot) -> bool {
        false
    }
    /// Ends round `r`: evaluates the boundaries it reached.
    fn end_round(&mut self, _r: u64) {}
}

impl<R: Response> Driven for Ciao<R> {
    fn redirected(&self, slot: WarpSlot) -> bool {
        self.load_route(slot) == crate::mem::l1::LoadRoute::SharedMemoryCache
    }
    fn end_round(&mut self, r: u64) {
        self.settle(r + 1);
    }
}

impl Driven for Ccws {}

/// The lines warp `slot` loads in round `r`.
fn lines(slot: WarpSlot, r: u64) -> Vec<u64> {
    match slot {
        0 => vec![0],
        1 => vec![1],
        _ => vec![100 + 4 * r, 102 + 4 * r],
    }
}

/// Runs `rounds` rounds of the toy on `policy`; `after` sees the policy at the end of each.
fn run<P: Driven>(policy: &mut P, rounds: u64, mut after: impl FnMut(u64, &P, &Round)) -> Vec<Round> {
    let w: Vec<WarpInfo> = warps(&[0, 1, 2]);
    let m = members(&[0, 1, 2], 3);
    policy.attach(&SmShape { schedulers: 1, warp_slots: 3, tb_slots: 1 });
    let cx = |now: u64| WarpCx { now, sm: 0, scheduler: 0, warps: &w };
    policy.on_event(&cx(0), &SmEvent::KernelStart { kernel: 0 });
    for slot in 0..3 {
        policy.on_event(&cx(0), &SmEvent::WarpAdmit { slot, kernel: 0 });
    }
    let mut caches = Caches::default();
    let mut out = Vec::new();
    for r in 0..rounds {
        let mut round = Round::default();
        for slot in 0..3u16 {
            if pick(policy, &cx(r), &m, &[slot]) != Some(slot)
                || !policy.may_issue(&cx(r), slot, InstrClass::GlobalLoad)
            {
                continue;
            }
            round.issued[slot as usize] = true;
            policy.on_issue(&cx(r), slot, &LOAD);
            for line in lines(slot, r) {
                let (hit, events) = caches.load(slot, line, policy.redirected(slot));
                if slot == 0 {
                    round.w0_hit = hit;
                }
                for e in &events {
                    policy.on_event(&cx(r), e);
                }
            }
            policy.on_issue(&cx(r), slot, &ALU);
        }
        policy.end_round(r);
        after(r, policy, &round);
        out.push(round);
    }
    out
}

/// A variant with the parameters `params` (`name=value,...`), the rest at their defaults.
fn tuned<R: Response>(params: &str) -> Ciao<R> {
    let parsed = crate::sched::PolicySpec::parse(&alloc::format!("ciao:{params}")).expect("a valid spec");
    Ciao::new(&parsed.resolve(Ciao::<R>::PARAMS).expect("valid values"))
}

/// A variant with the toy's constants, and `extra` parameters.
fn ciao<R: Response>(extra: &str) -> Ciao<R> {
    tuned(&if extra.is_empty() { TOY.into() } else { alloc::format!("{TOY},{extra}") })
}

fn count(rounds: &[Round], range: core::ops::RangeInclusive<usize>, f: impl Fn(&Round) -> bool) -> usize {
    rounds[range].iter().filter(|r| f(r)).count()
}

/// A change of W2's state at the end of a round: (round, isolated, stalled).
type Change = (u64, bool, bool);

/// The rounds; the changes of W2's state; and the SM's instruction count at the end of each
/// round.
fn w2_changes<R: Response>(policy: &mut Ciao<R>, rounds: u64) -> (Vec<Round>, Vec<Change>, Vec<u64>) {
    let mut last = (false, false);
    let mut changes = Vec::new();
    let mut instructions = Vec::new();
    let out = run(policy, rounds, |r, p, _| {
        let w1 = p.warp(1);
        assert!(!w1.isolated && !w1.stalled, "round {r}: W1, which evicts nothing, is never acted on");
        let w2 = p.warp(2);
        if (w2.isolated, w2.stalled) != last {
            last = (w2.isolated, w2.stalled);
            changes.push((r, w2.isolated, w2.stalled));
        }
        instructions.push(p.instructions());
    });
    (out, changes, instructions)
}

#[test]
fn without_action_w0_never_hits_and_its_list_names_w2() {
    // GTO with the detector watching: a cutoff no score reaches.
    let mut p: CiaoT = tuned("high_cutoff=10000,high_epoch=12,low_epoch=6");
    let rounds = run(&mut p, 10, |r, p, _| {
        assert_eq!(p.detector().hits(0), r, "round {r}: one VTA hit a round from round 1");
        let entry = p.detector().entry(0);
        match r {
            0 => assert_eq!(entry, ListEntry { wid: 0, counter: 0 }),
            1..=3 => assert_eq!(entry, ListEntry { wid: 2, counter: r as u8 - 1 }),
            _ => assert_eq!(entry, ListEntry { wid: 2, counter: 3 }),
        }
    });
    assert_eq!(count(&rounds, 0..=9, |r| r.w0_hit), 0);
    assert_eq!(count(&rounds, 2..=9, |r| r.issued == [true; 3]), 8, "three warps issue every round");
    assert_eq!(count(&rounds, 0..=9, |r| r.issued[2]), 10);
}

#[test]
fn ciao_p_isolates_w2_releases_it_at_60_instructions_and_isolates_it_again() {
    let mut p: CiaoP = ciao("");
    let (rounds, changes, instructions) = w2_changes(&mut p, 24);
    assert_eq!(changes, [(1, true, false), (9, false, false), (19, true, false)]);
    assert_eq!(instructions[9], 60, "released at 2 hits × 3 warps / 0.1 = 60 instructions");
    assert_eq!(count(&rounds, 2..=9, |r| r.issued == [true; 3]), 8, "nobody stops");
    assert_eq!(count(&rounds, 0..=9, |r| r.w0_hit), 7, "W0 hits from round 3 to 9");
    assert!((3..=9).all(|r| rounds[r].w0_hit));
    assert_eq!(count(&rounds, 0..=9, |r| r.issued[2]), 10);
    assert!(rounds[10].w0_hit && !rounds[11].w0_hit, "released, W2 pushes W0's line out again");
    assert!((11..=20).all(|r| !rounds[r].w0_hit) && rounds[21].w0_hit, "W0 misses until W2 is isolated again");
}

#[test]
fn ciao_t_stalls_w2_and_lets_it_go_only_at_round_13() {
    let mut p: CiaoT = ciao("");
    let (rounds, changes, instructions) = w2_changes(&mut p, 24);
    assert_eq!(changes, [(1, false, true), (13, false, false), (21, false, true)]);
    assert_eq!(count(&rounds, 2..=9, |r| r.issued == [true, true, false]), 8, "two warps issue");
    assert_eq!(count(&rounds, 0..=9, |r| r.w0_hit), 7, "W0 hits from round 3");
    assert_eq!(count(&rounds, 0..=9, |r| r.issued[2]), 2, "W2 loads in rounds 0 and 1 only");
    // Stalling W2 slows the count to 4 instructions a round, so the release at 60
    // instructions comes four rounds later than CIAO-P's.
    assert_eq!(instructions[13], 60);
    assert_eq!(instructions[12], 56);
    assert!(rounds[14].issued[2] && (15..=21).all(|r| !rounds[r].w0_hit));
}

#[test]
fn ciao_c_acts_as_ciao_p_until_the_stale_list_stalls_the_isolated_w2() {
    let mut c: CiaoC = ciao("");
    let (rounds_c, changes, _) = w2_changes(&mut c, 26);
    let mut p: CiaoP = ciao("");
    let rounds_p = run(&mut p, 26, |_, _, _| {});
    assert!((0..26).all(|r| rounds_c[r].issued == rounds_p[r].issued && rounds_c[r].w0_hit == rounds_p[r].w0_hit));
    // Round 25's look at W0: its running score is 12 × 3 / 156 = 0.23, still above the cutoff,
    // and its list still names W2, now isolated: CIAO-C stalls it (the notes' pitfall §9 #10).
    assert_eq!(changes, [(1, true, false), (9, false, false), (19, true, false), (25, true, true)]);
    // With the switch, a warp is stalled only for a victim that is itself isolated.
    let mut c: CiaoC = ciao("stall_requires_victim_isolated=1");
    let (_, changes, _) = w2_changes(&mut c, 26);
    assert_eq!(changes, [(1, true, false), (9, false, false), (19, true, false)]);
}

#[test]
fn algorithm_1s_score_never_acts() {
    for changes in [
        w2_changes(&mut ciao::<redirect::Redirect>("irs_alg1=1"), 30).1,
        w2_changes(&mut ciao::<throttle::Throttle>("irs_alg1=1"), 30).1,
        w2_changes(&mut ciao::<combined::Combined>("irs_alg1=1"), 30).1,
    ] {
        assert!(changes.is_empty(), "IRS(W0) at round 1 is 1 / 12 / 3 = 0.028 under Algorithm 1");
    }
}

#[test]
fn ccws_blocks_the_innocent_w1_too() {
    // The notes' reading: scores only decay, one point a cycle (a round here).
    let Ok(WarpPolicy::Ccws(mut c)) = WarpPolicy::from_spec("ccws:decay_clamps_to_llds=0") else { panic!() };
    let rounds = run(&mut c, 10, |_, _, _| {});
    assert!(rounds[1].issued[0] && !rounds[1].issued[2], "W0's load in round 1 hits its victim tags: W2 is blocked");
    assert!((2..=9).all(|r| rounds[r].issued == [true, false, false]), "W1 and W2 lose their loads: one warp issues");
    assert!((3..=9).all(|r| rounds[r].w0_hit));
}

#[test]
fn counting_thread_instructions_makes_the_score_32_times_smaller() {
    // Every toy instruction runs 32 lanes: the count is 32 times the warp count, and IRS(W0)
    // at round 1 is 1 × 3 / 384 = 0.008, far below 0.2: nothing happens.
    let mut p: CiaoT = ciao("count_thread_instructions=1");
    let (_, changes, instructions) = w2_changes(&mut p, 10);
    assert!(changes.is_empty());
    assert_eq!(instructions[9], 32 * 60);
}
