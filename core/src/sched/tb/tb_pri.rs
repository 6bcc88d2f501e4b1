//! TB-Pri, LaPerm's TB prioritizing (`laperm.md` §4.1): every device launch gets the level of
//! its direct parent + 1 (clamped at L), and an SM always takes the head of the highest
//! non-empty level before any host kernel's block, so children run soon after their parents
//! (mostly an L2 gain). The levels are global: which SM a child lands on stays round-robin.
//! Under CDP the KMU also sends the oldest kernel of the highest level to the KDU first.

use super::priority_queues::{Binding, PickOrder, PriorityQueueView, PriorityQueues, Settings, Source, SHARED_PARAMS};
use super::{Dispatch, KernelLaunch, KmuPick, TbCx, TbScheduler, WaitingKernel};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the global levels and `Q0`.
#[derive(Clone, Debug)]
pub struct TbPri {
    queues: PriorityQueues,
}

/// Global levels from L down to 1, then `Q0`.
struct HighestLevelFirst;

impl PickOrder for HighestLevelFirst {
    fn source(&mut self, queues: &PriorityQueues, _sm: u32, step: u32) -> Option<Source> {
        let levels = queues.levels();
        match step {
            s if s < levels => Some(Source::Global { level: levels - s }),
            s if s == levels => Some(Source::Host),
            _ => None,
        }
    }
}

impl TbPri {
    /// The queues as they stand, for reports and playback.
    pub fn queues(&self) -> PriorityQueueView {
        self.queues.view(alloc::vec::Vec::new())
    }
}

impl Default for TbPri {
    fn default() -> Self {
        TbPri::tuned(&ParamValues::defaults(Self::PARAMS))
    }
}

impl TbScheduler for TbPri {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        self.queues.on_kernel_launch(cx, launch);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.queues.dispatch(&mut HighestLevelFirst, d);
    }

    fn kmu_pick(&mut self, cx: &TbCx, waiting: &[WaitingKernel]) -> KmuPick {
        self.queues.kmu_pick(cx, waiting)
    }

    fn queue_view(&self) -> Option<PriorityQueueView> {
        Some(self.queues())
    }
}

impl Tunable for TbPri {
    const PARAMS: &'static [ParamInfo] = &SHARED_PARAMS;

    fn tuned(values: &ParamValues) -> Self {
        TbPri { queues: PriorityQueues::new(Settings::from_values(values), Binding::Global) }
    }
}
