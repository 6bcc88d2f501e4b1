//! Adaptive-Bind, LaPerm's adaptive prioritized SMX binding (`laperm.md` §4.3, the paper's
//! best): as SMX-Bind, but an SM with no children of its own and no host kernel's block left
//! takes children from another SM's bound queues, its *backup*, highest level first, rather
//! than idle. It keeps draining the same backup until that SM's queues are empty and only
//! then chooses again: the stolen blocks still share data with one another on the thief, and
//! they share one configuration, so the SM is not repartitioned between them.
//!
//! Which SM becomes the backup the paper does not say: `next` (default) takes the first SM
//! after the thief, circularly, with children queued; `most_loaded` the one with the most
//! undispatched blocks queued, ties to the nearest (either way round the ring, then the
//! thief's next SMs first). A stolen child keeps its level; its own launches are homed on the
//! thief, where it ran.

use alloc::vec::Vec;
use core::cmp::Reverse;

use super::priority_queues::{
    Binding, PickOrder, PriorityQueueView, PriorityQueues, Settings, Source, ALLOW_BYPASS, CONFIG_SWITCH_PENALTY,
    KMU_SEARCH, LEVELS, STRICT,
};
use super::{Dispatch, KernelLaunch, KmuPick, TbCx, TbScheduler, WaitingKernel};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// How an SM with nothing else to run chooses its backup (`laperm.md` §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackupRule {
    /// The first SM after the thief, circularly, with children queued.
    #[default]
    Next,
    /// The SM with the most undispatched blocks queued; ties to the nearest.
    MostLoaded,
}

const BACKUP: ParamInfo = ParamInfo {
    name: "backup",
    label: "Backup SM choice",
    unit: "",
    description: "Which SM's queues an SM with nothing else drains (until they are empty): 0 the next SM with children queued, circularly; 1 the one with the most blocks queued, ties to the nearest.",
    min: 0,
    max: 1,
    default: 0,
};

/// Each SM's own levels from L down to 1, then `Q0`, then its backup's levels from L down.
#[derive(Clone, Debug, Default)]
struct OwnThenHostThenBackup {
    rule: BackupRule,
    /// Per SM, the SM it last took a block from other than itself.
    backup: Vec<Option<u32>>,
}

impl OwnThenHostThenBackup {
    /// SM `sm`'s backup: the one it drains while that has children queued, else a new choice.
    /// Nothing is recorded until a block is taken from it.
    fn backup_of(&mut self, queues: &PriorityQueues, sm: u32) -> Option<u32> {
        match self.backup.get(sm as usize).copied().flatten() {
            Some(b) if queues.bound_left(b) > 0 => return Some(b),
            Some(_) => self.backup[sm as usize] = None,
            None => {}
        }
        let n = queues.sm_count();
        let mut others = (1..n).map(|i| (sm + i) % n).filter(|&x| queues.bound_left(x) > 0);
        match self.rule {
            BackupRule::Next => others.next(),
            BackupRule::MostLoaded => others.min_by_key(|&x| {
                let ahead = (x + n - sm) % n;
                (Reverse(queues.bound_left(x)), ahead.min(n - ahead))
            }),
        }
    }
}

impl PickOrder for OwnThenHostThenBackup {
    fn source(&mut self, queues: &PriorityQueues, sm: u32, step: u32) -> Option<Source> {
        let levels = queues.levels();
        match step {
            s if s < levels => Some(Source::Bound { sm, level: levels - s }),
            s if s == levels => Some(Source::Host),
            s if s <= 2 * levels => {
                let backup = self.backup_of(queues, sm)?;
                Some(Source::Bound { sm: backup, level: 2 * levels - s + 1 })
            }
            _ => None,
        }
    }

    fn on_placed(&mut self, sm: u32, source: Source) {
        if let Source::Bound { sm: home, .. } = source {
            if home != sm {
                if self.backup.len() <= sm as usize {
                    self.backup.resize(sm as usize + 1, None);
                }
                self.backup[sm as usize] = Some(home);
            }
        }
    }
}

/// State: each SM's bound levels, `Q0` and each SM's backup.
#[derive(Clone, Debug)]
pub struct AdaptiveBind {
    queues: PriorityQueues,
    order: OwnThenHostThenBackup,
}

impl AdaptiveBind {
    /// The queues and backups as they stand, for reports and playback.
    pub fn queues(&self) -> PriorityQueueView {
        let mut backup = self.order.backup.clone();
        backup.resize(self.queues.sm_count() as usize, None);
        self.queues.view(backup)
    }

    /// Blocks taken from a backup SM's queues so far.
    pub fn steals(&self) -> u64 {
        self.queues.steals()
    }

    /// The rule choosing backups.
    pub fn backup_rule(&self) -> BackupRule {
        self.order.rule
    }
}

impl Default for AdaptiveBind {
    fn default() -> Self {
        AdaptiveBind::tuned(&ParamValues::defaults(Self::PARAMS))
    }
}

impl TbScheduler for AdaptiveBind {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        self.queues.on_kernel_launch(cx, launch);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.queues.dispatch(&mut self.order, d);
    }

    fn kmu_pick(&mut self, cx: &TbCx, waiting: &[WaitingKernel]) -> KmuPick {
        self.queues.kmu_pick(cx, waiting)
    }

    fn queue_view(&self) -> Option<PriorityQueueView> {
        Some(self.queues())
    }
}

impl Tunable for AdaptiveBind {
    const PARAMS: &'static [ParamInfo] = &[LEVELS, STRICT, ALLOW_BYPASS, CONFIG_SWITCH_PENALTY, KMU_SEARCH, BACKUP];

    fn tuned(values: &ParamValues) -> Self {
        let rule = if values.get(BACKUP.name) == 1 { BackupRule::MostLoaded } else { BackupRule::Next };
        AdaptiveBind {
            queues: PriorityQueues::new(Settings::from_values(values), Binding::Home),
            order: OwnThenHostThenBackup { rule, backup: Vec::new() },
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::super::chunks::tests::{Bench, ONE_WARP};
    use super::super::laperm_toys::{from_sm, launch};
    use super::*;

    /// `laperm.md` §10.4's bench: three SMs, only SM 2 with room (one block at a time), `Q0` empty.
    fn bench() -> Bench {
        let mut bench = Bench::new(3, 1);
        for sm in [0, 1] {
            bench.free[sm] = super::super::SmFree::default();
        }
        bench
    }

    /// SM 2 runs `count` blocks one after another: the runs they came from.
    fn runs_taken(bench: &mut Bench, p: &mut AdaptiveBind, count: usize) -> Vec<u32> {
        (0..count)
            .map(|_| {
                let placed = bench.cycle(p);
                assert_eq!(placed.len(), 1, "{placed:?}");
                let (sm, run, block) = placed[0];
                assert_eq!(sm, 2);
                bench.finish(p, sm, run, block);
                run
            })
            .collect()
    }

    fn policy(rule: BackupRule) -> AdaptiveBind {
        let spec = match rule {
            BackupRule::Next => "adaptive-bind",
            BackupRule::MostLoaded => "adaptive-bind:backup=1",
        };
        let (_, values) = crate::sched::PolicySpec::check(spec, super::super::TB_POLICIES).unwrap();
        let p = AdaptiveBind::tuned(&values);
        assert_eq!(p.backup_rule(), rule);
        p
    }

    #[test]
    fn next_drains_the_first_backup_even_when_another_grows() {
        // bound[0] holds 3 blocks (run 0), bound[1] 5 (run 1); SM 2 picks SM 0 and stays with
        // it though run 2 puts 10 more on SM 1 meanwhile.
        let mut p = policy(BackupRule::Next);
        let mut bench = bench();
        launch(&mut bench, &mut p, 0, 3, from_sm(0), ONE_WARP);
        launch(&mut bench, &mut p, 1, 5, from_sm(1), ONE_WARP);
        assert_eq!(runs_taken(&mut bench, &mut p, 1), [0]);
        assert_eq!(p.queues().backup, [None, None, Some(0)]);
        launch(&mut bench, &mut p, 2, 10, from_sm(1), ONE_WARP);
        let taken = runs_taken(&mut bench, &mut p, 17);
        assert_eq!(taken, [[0; 2].as_slice(), &[1; 5], &[2; 10]].concat());
        assert_eq!((p.steals(), p.queues().backup), (18, Vec::from([None, None, Some(1)])));
    }

    #[test]
    fn next_stays_with_its_backup_when_a_nearer_sm_gets_children() {
        // SM 2's first choice under `next` would be SM 0 whenever SM 0 has children: SM 0
        // receives 10 after SM 2 began draining SM 1, and SM 2 still finishes SM 1 first.
        let mut p = policy(BackupRule::Next);
        let mut bench = bench();
        launch(&mut bench, &mut p, 0, 3, from_sm(1), ONE_WARP);
        assert_eq!(runs_taken(&mut bench, &mut p, 1), [0]);
        launch(&mut bench, &mut p, 1, 10, from_sm(0), ONE_WARP);
        assert_eq!(runs_taken(&mut bench, &mut p, 12), [[0; 2].as_slice(), &[1; 10]].concat());
    }

    #[test]
    fn most_loaded_drains_the_fullest_backup_even_when_another_overtakes_it() {
        // SM 2 picks SM 1 (5 > 3) and stays until it is empty, though SM 0 grows to 13.
        let mut p = policy(BackupRule::MostLoaded);
        let mut bench = bench();
        launch(&mut bench, &mut p, 0, 3, from_sm(0), ONE_WARP);
        launch(&mut bench, &mut p, 1, 5, from_sm(1), ONE_WARP);
        assert_eq!(runs_taken(&mut bench, &mut p, 1), [1]);
        launch(&mut bench, &mut p, 2, 10, from_sm(0), ONE_WARP);
        let view = p.queues();
        let left: Vec<u32> = view.bound.iter().map(|levels| levels[0].iter().map(|r| r.blocks_left).sum()).collect();
        assert_eq!((left, view.backup), (Vec::from([13, 4, 0]), Vec::from([None, None, Some(1)])));
        let taken = runs_taken(&mut bench, &mut p, 17);
        assert_eq!(taken, [[1; 4].as_slice(), &[0; 3], &[2; 10]].concat());
    }

    #[test]
    fn most_loaded_ties_go_to_the_nearest_sm() {
        // Four SMs, SM 0 the thief: SMs 1, 2 and 3 hold 2 blocks each. SMs 1 and 3 are both
        // one step away; SM 1, after the thief, wins.
        let mut p = policy(BackupRule::MostLoaded);
        let mut bench = Bench::new(4, 1);
        for sm in [1, 2, 3] {
            bench.free[sm] = super::super::SmFree::default();
        }
        for (run, home) in [(0, 2), (1, 3), (2, 1)] {
            launch(&mut bench, &mut p, run, 2, from_sm(home), ONE_WARP);
        }
        assert_eq!(bench.cycle(&mut p), [(0, 2, 0)]);
        // SM 2, two steps away, wins when it holds the most.
        let mut p = policy(BackupRule::MostLoaded);
        let mut bench = Bench::new(4, 1);
        for sm in [1, 2, 3] {
            bench.free[sm] = super::super::SmFree::default();
        }
        for (run, home, blocks) in [(0, 2, 4), (1, 3, 3), (2, 1, 3)] {
            launch(&mut bench, &mut p, run, blocks, from_sm(home), ONE_WARP);
        }
        assert_eq!(bench.cycle(&mut p), [(0, 0, 0)], "the heaviest wins, however far");
        // Distance counts either way round the ring: SM 3 (one step back) beats SM 2 (two on).
        let mut p = policy(BackupRule::MostLoaded);
        let mut bench = Bench::new(4, 1);
        for sm in [1, 2, 3] {
            bench.free[sm] = super::super::SmFree::default();
        }
        for (run, home) in [(0, 2), (1, 3)] {
            launch(&mut bench, &mut p, run, 2, from_sm(home), ONE_WARP);
        }
        assert_eq!(bench.cycle(&mut p), [(0, 1, 0)]);
    }
}
