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
