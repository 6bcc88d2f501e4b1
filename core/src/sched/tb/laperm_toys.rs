//! LaPerm's toy scenarios (`laperm.md` §10.1, §10.2), played at the [`TbScheduler`] level by
//! a scripted driver that calls the policy as the engine does, and the tests of the switches
//! every LaPerm policy shares (bypass, configuration switches, the KMU's pick).
//!
//! The driver's rules are the notes': each SM holds one block; every block runs `D` = 100
//! cycles and its slot can be refilled in the cycle it frees (finishes are handled before
//! dispatch); a launch becomes visible `DELTA` = 50 cycles after the launching block started,
//! as a run of its own whose origin is the launching block and its SM; runs are numbered in
//! the order they become visible, ties by launching SM. Dispatch is called only when
//! something changed, after a cycle that placed blocks, or at the cycle the policy asked for.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::chunks::tests::{Bench, ONE_WARP};
use super::*;

/// How long every block runs.
const D: u64 = 100;
/// How long after a block starts its launch becomes visible.
const DELTA: u64 = 50;

/// A grid of a script: its blocks' names (one per block), its shape, and which of its blocks
/// launch which grids.
struct Grid {
    names: &'static [&'static str],
    code: u32,
    threads: u32,
    launches: Vec<(u32, Grid)>,
}

fn grid(names: &'static [&'static str], launches: Vec<(u32, Grid)>) -> Grid {
    Grid { names, code: 0, threads: 32, launches }
}

/// The dispatch rate the engine allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rate {
    /// One block per cycle GPU-wide (the paper's).
    PerCycle,
    /// One block per SM per cycle (GPGPU-Sim's).
    PerSm,
}

/// The block that launched a run, and the SM it ran on (the run's home).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parent {
    run: u32,
    block: u32,
    sm: u32,
}

/// A block as it started.
#[derive(Clone, Copy, Debug)]
struct Start {
    cycle: u64,
    sm: u32,
    run: u32,
    block: u32,
    name: &'static str,
    /// `None` for host kernels.
    parent: Option<Parent>,
}

/// A run the driver made ready.
struct Run<'g> {
    grid: &'g Grid,
    parent: Option<Parent>,
}

/// What a toy did.
struct Trace {
    starts: Vec<Start>,
    last_finish: u64,
    sm_count: u32,
    /// Blocks Adaptive-Bind took from a backup (0 for the others).
    steals: u64,
}

/// Plays the host grids `hosts`, all launched at cycle 0 in order, on `sm_count` SMs.
fn play<'g>(policy: &mut TbPolicy, sm_count: u32, hosts: &'g [Grid], rate: Rate) -> Trace {
    let n = sm_count as usize;
    let cx = |now| TbCx { now, sm_count };
    let mut free = vec![SmFree { tbs: 1, warps: 1, threads: 32, registers: 0, shared_bytes: 0 }; n];
    let mut runs: Vec<Run<'g>> = Vec::new();
    let (mut pending, mut placed, mut needs) = (Vec::new(), Vec::new(), Vec::new());
    // (ends at, sm, run, block) and (visible at, launcher, grid).
    let mut running: Vec<(u64, u32, u32, u32)> = Vec::new();
    let mut launches: Vec<(u64, Parent, &'g Grid)> = Vec::new();
    let mut starts = Vec::new();
    let (mut changed, mut wake, mut last_finish) = (false, u64::MAX, 0);
    let mut now = 0u64;
    let mut ready: Vec<(&'g Grid, Option<Parent>)> = hosts.iter().map(|g| (g, None)).collect();
    loop {
        assert!(now < 100_000, "the toy never finishes: {:?} still pending", pending);
        // Blocks that end now free their slots before anything is dispatched.
        running.sort_by_key(|&(end, sm, _, _)| (end, sm));
        while running.first().is_some_and(|r| r.0 == now) {
            let (_, sm, run, block) = running.remove(0);
            free[sm as usize].give_back(&ONE_WARP);
            policy.on_tb_finish(&cx(now), sm, run, block);
            (changed, last_finish) = (true, now);
        }
        // Launches that become visible now, ordered by launching SM.
        launches.sort_by_key(|&(at, parent, _)| (at, parent.sm));
        while launches.first().is_some_and(|l| l.0 == now) {
            let (_, parent, grid) = launches.remove(0);
            ready.push((grid, Some(parent)));
        }
        for (grid, parent) in ready.drain(..) {
            let kernel = runs.len() as u32;
            let blocks = grid.names.len() as u32;
            let (origin, depth) = match parent {
                None => (Origin::Host { launch: kernel, stream: 0 }, 0),
                Some(Parent { run, block, sm }) => {
                    let depth = 1 + depth_of(&runs, run);
                    (Origin::Device { run, block, sm }, depth)
                }
            };
            runs.push(Run { grid, parent });
            pending.push(PendingKernel { kernel, blocks, next_block: 0 });
            placed.push(PlacedBlocks::new(blocks));
            needs.push(ONE_WARP);
            let launch = KernelLaunch {
                kernel,
                code: grid.code,
                blocks,
                grid: Dim3::linear(blocks),
                block: Dim3::linear(grid.threads),
                sm_count,
                origin,
                depth,
                needs: BlockNeeds::default(),
                sm_capacity: SmFree::default(),
            };
            policy.on_kernel_launch(&cx(now), &launch);
            changed = true;
        }
        if (changed || now >= wake) && !pending.is_empty() {
            let mut out = Vec::new();
            let (mut per_sm, total) = match rate {
                Rate::PerCycle => (vec![1; n], 1),
                Rate::PerSm => (vec![1; n], u32::MAX),
            };
            let mut d = Dispatch {
                now,
                wake: u64::MAX,
                free: &mut free,
                pending: &mut pending,
                needs: &needs,
                placed: &mut placed,
                out: &mut out,
                budget_per_sm: &mut per_sm,
                budget_total: total,
                fully_placed: 0,
            };
            policy.dispatch(&mut d);
            wake = d.wake;
            changed = !out.is_empty();
            for p in &out {
                let run = &runs[p.kernel as usize];
                let name = run.grid.names[p.block as usize];
                starts.push(Start { cycle: now, sm: p.sm, run: p.kernel, block: p.block, name, parent: run.parent });
                running.push((now + D, p.sm, p.kernel, p.block));
                for (_, child) in run.grid.launches.iter().filter(|(b, _)| *b == p.block) {
                    launches.push((now + DELTA, Parent { run: p.kernel, block: p.block, sm: p.sm }, child));
                }
            }
            for i in (0..pending.len()).rev() {
                if pending[i].next_block >= pending[i].blocks {
                    pending.remove(i);
                    placed.remove(i);
                    needs.remove(i);
                }
            }
        }
        if pending.is_empty() && running.is_empty() && launches.is_empty() {
            let steals = match policy {
                TbPolicy::AdaptiveBind(p) => p.steals(),
                _ => 0,
            };
            return Trace { starts, last_finish, sm_count, steals };
        }
        now += 1;
    }
}

fn depth_of(runs: &[Run], run: u32) -> u32 {
    match runs[run as usize].parent {
        None => 0,
        Some(parent) => 1 + depth_of(runs, parent.run),
    }
}

impl Trace {
    /// The block's name, starred when it ran off its home SM and `stars` (the notes mark
    /// Adaptive-Bind's steals so).
    fn label(&self, s: &Start, stars: bool) -> String {
        let stolen = stars && s.parent.is_some_and(|parent| parent.sm != s.sm);
        format!("{}{}", s.name, if stolen { "*" } else { "" })
    }

    /// The notes' round table: round r holds the blocks started in cycles 100(r − 1) to
    /// 100r − 1, one cell per SM, `–` where an SM started nothing.
    fn rounds(&self, stars: bool) -> Vec<String> {
        let last = self.starts.iter().map(|s| s.cycle / D).max().unwrap_or(0);
        (0..=last)
            .map(|r| {
                let cells: Vec<String> = (0..self.sm_count)
                    .map(|sm| {
                        let mut here = self.starts.iter().filter(|s| s.cycle / D == r && s.sm == sm);
                        let cell = here.next().map_or(String::from("–"), |s| self.label(s, stars));
                        assert!(here.next().is_none(), "two blocks started on SM {sm} in round {}", r + 1);
                        cell
                    })
                    .collect();
                cells.join(" ")
            })
            .collect()
    }

    /// Each SM's blocks in start order.
    fn per_sm(&self, stars: bool) -> Vec<String> {
        (0..self.sm_count)
            .map(|sm| {
                let names: Vec<String> =
                    self.starts.iter().filter(|s| s.sm == sm).map(|s| self.label(s, stars)).collect();
                names.join(" ")
            })
            .collect()
    }

    fn children(&self) -> impl Iterator<Item = &Start> {
        self.starts.iter().filter(|s| s.parent.is_some())
    }

    /// Children run on their direct parent's SM, and children in all.
    fn on_parent_sm(&self) -> (usize, usize) {
        (self.children().filter(|s| s.parent.is_some_and(|parent| parent.sm == s.sm)).count(), self.children().count())
    }

    /// Σ (child round − parent round).
    fn round_gaps(&self) -> u64 {
        self.children()
            .map(|c| {
                let Parent { run, block, .. } = c.parent.unwrap();
                let parent = self.starts.iter().find(|s| s.run == run && s.block == block).unwrap();
                c.cycle / D - parent.cycle / D
            })
            .sum()
    }
}

/// The paper's Fig. 4: P0..P7; P2 launches C0, C1; P4 launches C2..C5.
fn toy_a() -> Vec<Grid> {
    vec![grid(
        &["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"],
        vec![(2, grid(&["C0", "C1"], vec![])), (4, grid(&["C2", "C3", "C4", "C5"], vec![]))],
    )]
}

/// P0, P1; P0 launches A0..A2; A0 launches G0, G1.
fn toy_b() -> Vec<Grid> {
    vec![grid(&["P0", "P1"], vec![(0, grid(&["A0", "A1", "A2"], vec![(0, grid(&["G0", "G1"], vec![]))]))])]
}

/// Every way of visiting that must give the same placement: loose at either dispatch rate,
/// and strict (not for round-robin, which has no such switch).
fn variants(spec: &'static str) -> Vec<(String, Rate)> {
    let with = |extra: &str| match spec.split_once(':') {
        Some(_) => format!("{spec},{extra}"),
        None => format!("{spec}:{extra}"),
    };
    let mut out = vec![(String::from(spec), Rate::PerCycle), (String::from(spec), Rate::PerSm)];
    if !spec.starts_with("rr") {
        out.push((with("strict=1"), Rate::PerCycle));
    }
    out
}

fn policy(spec: &str) -> TbPolicy {
    TbPolicy::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// What the notes expect of Toy A under one policy.
struct FigFour {
    spec: &'static str,
    rounds: &'static [&'static str],
    on_parent_sm: usize,
    round_gaps: u64,
    last_finish: u64,
    steals: u64,
}

#[test]
fn toy_a_reproduces_the_papers_fig_4() {
    let expected = [
        FigFour {
            spec: "rr",
            rounds: &["P0 P1 P2 P3", "P4 P5 P6 P7", "C0 C1 C2 C3", "C4 C5 – –"],
            on_parent_sm: 1,
            round_gaps: 10,
            last_finish: 401,
            steals: 0,
        },
        FigFour {
            spec: "tb-pri",
            rounds: &["P0 P1 P2 P3", "C0 C1 P4 P5", "C2 C3 C4 C5", "P6 P7 – –"],
            on_parent_sm: 1,
            round_gaps: 6,
            last_finish: 401,
            steals: 0,
        },
        FigFour {
            spec: "smx-bind",
            rounds: &["P0 P1 P2 P3", "P4 P5 C0 P6", "C2 P7 C1 –", "C3 – – –", "C4 – – –", "C5 – – –"],
            on_parent_sm: 6,
            round_gaps: 13,
            last_finish: 600,
            steals: 0,
        },
        FigFour {
            spec: "adaptive-bind",
            rounds: &["P0 P1 P2 P3", "P4 P5 C0 P6", "C2 P7 C1 C3*", "C4 C5* – –"],
            on_parent_sm: 4,
            round_gaps: 9,
            last_finish: 401,
            steals: 2,
        },
    ];
    for e in expected {
        for (variant, rate) in variants(e.spec) {
            let trace = play(&mut policy(&variant), 4, &toy_a(), rate);
            let case = format!("{variant} at {rate:?}");
            assert_eq!(trace.rounds(e.spec == "adaptive-bind"), e.rounds, "{case}");
            assert_eq!(trace.on_parent_sm(), (e.on_parent_sm, 6), "{case}");
            assert_eq!(trace.round_gaps(), e.round_gaps, "{case}");
            assert_eq!(trace.steals, e.steals, "{case}");
            if rate == Rate::PerCycle {
                // Round r on SM i starts at cycle 100(r − 1) + i.
                assert_eq!(trace.last_finish, e.last_finish, "{case}");
                assert!(trace.starts.iter().all(|s| s.cycle % D == s.sm as u64), "{case}: {:?}", trace.starts);
            }
        }
    }
}

#[test]
fn toy_a_smx_bind_leaves_sms_idle_while_sm0_has_children() {
    let trace = play(&mut policy("smx-bind"), 4, &toy_a(), Rate::PerCycle);
    let last_start = |sm| trace.starts.iter().filter(|s| s.sm == sm).map(|s| s.cycle).max().unwrap();
    // SM 3 idles from cycle 203 (P6 ends), SM 1 and SM 2 after round 3, while SM 0 runs C3..C5.
    assert_eq!([last_start(0), last_start(1), last_start(2), last_start(3)], [500, 201, 202, 103]);
}

#[test]
fn toy_b_nesting_clamping_and_what_a_backup_takes_first() {
    // (spec, placement per SM in start order, last finish)
    let expected: [(&str, [&str; 2], u64); 5] = [
        ("rr", ["P0 A0 A2 G1", "P1 A1 G0"], 400),
        ("tb-pri:levels=1", ["P0 A0 A2 G1", "P1 A1 G0"], 400),
        ("tb-pri", ["P0 A0 G0 A2", "P1 A1 G1"], 400),
        // The notes print "P0 A0 G0 G1 A2 / P1" and 500, which drops A1: all of A is homed on
        // SM 0 (P0 ran there) and SM 1 idles from cycle 101, so SM 0 runs six blocks, the
        // last from cycle 500. Seven blocks in all, as in every other row.
        ("smx-bind", ["P0 A0 G0 G1 A1 A2", "P1"], 600),
        ("adaptive-bind", ["P0 A0 G0 A2", "P1 A1* G1*"], 400),
    ];
    for (spec, per_sm, last_finish) in expected {
        for (variant, rate) in variants(spec) {
            let trace = play(&mut policy(&variant), 2, &toy_b(), rate);
            let case = format!("{variant} at {rate:?}");
            assert_eq!(trace.per_sm(spec == "adaptive-bind"), per_sm, "{case}");
            if rate == Rate::PerCycle {
                assert_eq!(trace.last_finish, last_finish, "{case}");
            }
        }
    }
}

#[test]
fn a_stolen_blocks_children_are_homed_on_the_sm_it_ran_on() {
    // Toy B, with A1 launching H0: SM 1 steals A1, so H0 is homed on SM 1 and SM 1 runs it
    // from its own queue (level 2) before stealing again; SM 0 keeps G0 and G1.
    let hosts = vec![grid(
        &["P0", "P1"],
        vec![(0, grid(&["A0", "A1", "A2"], vec![(0, grid(&["G0", "G1"], vec![])), (1, grid(&["H0"], vec![]))]))],
    )];
    let trace = play(&mut policy("adaptive-bind"), 2, &hosts, Rate::PerCycle);
    assert_eq!(trace.per_sm(true), ["P0 A0 G0 G1", "P1 A1* H0 A2*"]);
    let h0 = trace.starts.iter().find(|s| s.name == "H0").unwrap();
    assert_eq!((h0.cycle, h0.parent.map(|parent| parent.sm)), (201, Some(1)));
    assert_eq!((trace.steals, trace.last_finish), (2, 401));
}

#[test]
fn strict_visiting_examines_one_sm_per_cycle_and_comes_back_for_the_next() {
    // Two SMs; P0 on SM 0 launches C0, visible at cycle 50, when strict visiting examines the
    // full SM 0. Loose visiting finds SM 1 at once; strict comes back at cycle 51 for SM 1,
    // unless the child is bound to SM 0, where it waits for P0 to end.
    let hosts = || vec![grid(&["P0"], vec![(0, grid(&["C0"], vec![]))])];
    let c0 = |spec: &str| {
        let trace = play(&mut policy(spec), 2, &hosts(), Rate::PerCycle);
        let c0 = trace.starts.iter().find(|s| s.name == "C0").unwrap();
        (c0.cycle, c0.sm)
    };
    assert_eq!(c0("tb-pri"), (50, 1));
    assert_eq!(c0("tb-pri:strict=1"), (51, 1));
    assert_eq!(c0("adaptive-bind:strict=1"), (51, 1), "a steal");
    assert_eq!(c0("smx-bind:strict=1"), (100, 0));
}

/// One dispatch call on `bench` with `budget` blocks GPU-wide (one per SM as well); the clock
/// moves on a cycle.
fn dispatch_once(bench: &mut Bench, policy: &mut dyn TbScheduler, budget: u32) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    let mut per_sm = vec![1; bench.free.len()];
    let mut d = Dispatch {
        now: bench.now,
        wake: u64::MAX,
        free: &mut bench.free,
        pending: &mut bench.pending,
        needs: &bench.needs,
        placed: &mut bench.placed,
        out: &mut out,
        budget_per_sm: &mut per_sm,
        budget_total: budget,
        fully_placed: 0,
    };
    policy.dispatch(&mut d);
    bench.now += 1;
    out.iter().map(|p| (p.sm, p.kernel, p.block)).collect()
}

#[test]
fn the_sm_pointer_moves_on_from_the_last_sm_served() {
    // Three SMs with room for 4 blocks, SM 1 full; one block per cycle. Loose visiting skips
    // SM 1 and alternates SM 0 and SM 2; strict examines SM (cycle mod 3) and so places
    // nothing in the cycles that examine SM 1.
    for spec in ["tb-pri", "smx-bind", "adaptive-bind"] {
        let sms = |strict: bool| {
            let mut p = policy(&format!("{spec}:strict={}", u32::from(strict)));
            let mut bench = Bench::new(3, 4);
            bench.free[1] = SmFree::default();
            launch(&mut bench, &mut p, 0, 5, Origin::Host { launch: 0, stream: 0 }, ONE_WARP);
            (0..8).map(|_| dispatch_once(&mut bench, &mut p, 1).first().map(|&(sm, ..)| sm)).collect::<Vec<_>>()
        };
        assert_eq!(sms(false), [Some(0), Some(2), Some(0), Some(2), Some(0), None, None, None], "{spec}");
        assert_eq!(sms(true), [Some(0), None, Some(2), Some(0), None, Some(2), Some(0), None], "{spec}");
    }
}

/// Makes run `kernel` of `blocks` blocks (each needing `needs`) ready on `bench`.
pub(crate) fn launch(
    bench: &mut Bench,
    policy: &mut dyn TbScheduler,
    kernel: u32,
    blocks: u32,
    origin: Origin,
    needs: BlockNeeds,
) {
    bench.pending.push(PendingKernel { kernel, blocks, next_block: 0 });
    bench.placed.push(PlacedBlocks::new(blocks));
    bench.needs.push(needs);
    let depth = match origin {
        Origin::Host { .. } => 0,
        Origin::Device { .. } => 1,
    };
    let sm_count = bench.free.len() as u32;
    let launch = KernelLaunch {
        kernel,
        code: 0,
        blocks,
        grid: Dim3::linear(blocks),
        block: Dim3::linear(needs.threads),
        sm_count,
        origin,
        depth,
        needs: BlockNeeds::default(),
        sm_capacity: SmFree::default(),
    };
    policy.on_kernel_launch(&TbCx { now: bench.now, sm_count }, &launch);
}

/// A device launch from SM `home`.
pub(crate) fn from_sm(home: u32) -> Origin {
    Origin::Device { run: 0, block: 0, sm: home }
}

#[test]
fn a_head_that_does_not_fit_blocks_its_sm_unless_bypass_is_allowed() {
    const TWO_WARPS: BlockNeeds = BlockNeeds { warps: 2, threads: 64, registers: 0, shared_bytes: 0 };
    for spec in ["tb-pri", "smx-bind", "adaptive-bind"] {
        let placed = |bypass: bool| {
            let mut p = policy(&format!("{spec}:allow_bypass={}", u32::from(bypass)));
            // One SM with one warp free: a two-warp child at the head of level 1, a one-warp
            // child behind it and a one-warp host block in Q0.
            let mut bench = Bench::new(1, 2);
            bench.free[0] = SmFree { tbs: 2, warps: 1, threads: 32, registers: 0, shared_bytes: 0 };
            launch(&mut bench, &mut p, 0, 1, Origin::Host { launch: 0, stream: 0 }, ONE_WARP);
            launch(&mut bench, &mut p, 1, 1, from_sm(0), TWO_WARPS);
            launch(&mut bench, &mut p, 2, 1, from_sm(0), ONE_WARP);
            bench.cycle(&mut p)
        };
        // In order: the SM waits for the two-warp block and never falls through to Q0.
        assert_eq!(placed(false), [], "{spec}");
        // Bypass: the next entry in priority order, the one-warp child before the host block.
        assert_eq!(placed(true), [(0, 2, 0)], "{spec}");
    }
}

#[test]
fn a_different_block_shape_costs_the_sm_the_switch_penalty() {
    // One SM: A (code 0, two blocks), B (code 1), C (code 0, 64 threads), all host kernels.
    let hosts = || {
        let shaped = |names, code, threads| Grid { names, code, threads, launches: vec![] };
        vec![shaped(&["A0", "A1"][..], 0, 32), shaped(&["B0"], 1, 32), shaped(&["C0"], 0, 64)]
    };
    let start_cycles = |spec: &str| {
        let trace = play(&mut policy(spec), 1, &hosts(), Rate::PerCycle);
        (trace.starts.iter().map(|s| s.cycle).collect::<Vec<_>>(), trace.last_finish)
    };
    for spec in ["tb-pri", "smx-bind", "adaptive-bind"] {
        assert_eq!(start_cycles(spec), (vec![0, 100, 200, 300], 400), "{spec}: free by default");
        // A1 follows A0 at once; B0 and C0 each wait 30 cycles (C0 for its block dims).
        let penalised = format!("{spec}:config_switch_penalty=30");
        assert_eq!(start_cycles(&penalised), (vec![0, 100, 230, 360], 460), "{penalised}");
        let strict = format!("{penalised},strict=1");
        assert_eq!(start_cycles(&strict), (vec![0, 100, 230, 360], 460), "{strict}");
    }
}

#[test]
fn the_kmu_sends_the_highest_level_first_or_serves_home_sms_in_turn() {
    let cx = TbCx { now: 0, sm_count: 3 };
    let waiting = |home: u32, depth: u32| WaitingKernel {
        code: 0,
        block: Dim3::linear(32),
        origin: Origin::Device { run: 0, block: 0, sm: home },
        depth,
    };
    // Oldest first: (home, depth).
    let list = [waiting(2, 1), waiting(0, 1), waiting(1, 3), waiting(2, 2), waiting(0, 4)];

    // TB-Pri: the oldest of the highest level.
    let pick = |spec: &str, list: &[WaitingKernel]| policy(spec).kmu_pick(&cx, list);
    assert_eq!(pick("tb-pri", &list), KmuPick { index: 4, search_cycles: 4 });
    assert_eq!(pick("tb-pri:levels=3", &list), KmuPick { index: 2, search_cycles: 3 }, "3 and 4 clamp to 3");
    assert_eq!(pick("tb-pri:levels=1", &list), KmuPick { index: 0, search_cycles: 1 }, "one level: oldest");
    assert_eq!(pick("tb-pri:kmu_search=0", &list), KmuPick { index: 4, search_cycles: 0 });
    // Round-robin keeps the baseline: the oldest, at once.
    assert_eq!(pick("rr", &list), KmuPick { index: 0, search_cycles: 0 });

    // SMX-Bind and Adaptive-Bind: SM 0, 1, 2, 0, ... each taking its own highest level,
    // skipping SMs with nothing waiting.
    for spec in ["smx-bind", "adaptive-bind"] {
        let mut p = policy(spec);
        let mut list = list.to_vec();
        let mut order = Vec::new();
        while !list.is_empty() {
            let KmuPick { index, search_cycles } = p.kmu_pick(&cx, &list);
            assert_eq!(search_cycles, 4, "{spec}");
            let w = list.remove(index);
            let Origin::Device { sm, .. } = w.origin else { unreachable!() };
            order.push((sm, w.depth));
        }
        assert_eq!(order, [(0, 4), (1, 3), (2, 2), (0, 1), (2, 1)], "{spec}");
    }
}

#[test]
fn the_registry_builds_every_laperm_policy_with_its_parameters() {
    for id in ["tb-pri", "smx-bind", "adaptive-bind"] {
        let info = TB_POLICIES.iter().find(|p| p.id == id).unwrap();
        let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
        assert_eq!(names[..5], ["levels", "strict", "allow_bypass", "config_switch_penalty", "kmu_search"], "{id}");
        assert!(TbPolicy::from_spec(&format!("{id}:levels=16,strict=1,config_switch_penalty=100000")).is_ok());
        assert!(TbPolicy::from_spec(&format!("{id}:levels=0")).is_err());
    }
    assert!(TbPolicy::from_spec("adaptive-bind:backup=1").is_ok());
    assert!(TbPolicy::from_spec("smx-bind:backup=1").is_err(), "only Adaptive-Bind has backups");
}

#[test]
fn the_view_lists_every_queue_head_first_with_the_blocks_left() {
    use super::priority_queues::QueuedRun;
    let host = Origin::Host { launch: 0, stream: 0 };
    let queued = |run, blocks_left| QueuedRun { run, blocks_left };
    // TB-Pri: global levels. Two SMs with room for one block each.
    let mut p = tb_pri::TbPri::default();
    let mut bench = Bench::new(2, 1);
    launch(&mut bench, &mut p, 0, 2, host, ONE_WARP);
    launch(&mut bench, &mut p, 1, 3, from_sm(1), ONE_WARP);
    assert_eq!(bench.cycle(&mut p), [(0, 1, 0), (1, 1, 1)]);
    let view = p.queues();
    assert_eq!((view.levels, view.host, view.global[0].clone()), (4, vec![queued(0, 2)], vec![queued(1, 1)]));
    assert!(view.global[1..].iter().all(Vec::is_empty) && view.bound.is_empty() && view.backup.is_empty());
    // SMX-Bind: the child is queued on SM 1, its home, and SM 0 takes the host kernel.
    let mut p = smx_bind::SmxBind::default();
    let mut bench = Bench::new(2, 1);
    launch(&mut bench, &mut p, 0, 2, host, ONE_WARP);
    launch(&mut bench, &mut p, 1, 3, from_sm(1), ONE_WARP);
    assert_eq!(bench.cycle(&mut p), [(0, 0, 0), (1, 1, 0)]);
    let view = p.queues();
    assert_eq!((view.host, view.bound[1][0].clone()), (vec![queued(0, 1)], vec![queued(1, 2)]));
    assert!(view.global.is_empty() && view.bound[0].iter().all(Vec::is_empty));
}
