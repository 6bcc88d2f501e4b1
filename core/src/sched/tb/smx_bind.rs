//! SMX-Bind, LaPerm's prioritized SMX binding (`laperm.md` §4.2): as TB-Pri, but a device
//! launch is queued on its home SM, the SM its direct parent ran on when it launched, and
//! only that SM runs it, so children find their parent's data in the L1. An SM takes host
//! kernels' blocks only when its own levels are empty, and idles when `Q0` is empty too, even
//! while other SMs have children queued. Under CDP the KMU visits the home SMs round-robin.

use super::priority_queues::{Binding, PickOrder, PriorityQueueView, PriorityQueues, Settings, Source, SHARED_PARAMS};
use super::{Dispatch, KernelLaunch, KmuPick, TbCx, TbScheduler, WaitingKernel};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: each SM's bound levels and `Q0`.
#[derive(Clone, Debug)]
pub struct SmxBind {
    queues: PriorityQueues,
}

/// The SM's own levels from L down to 1, then `Q0`.
pub(crate) struct OwnLevelsFirst;

impl PickOrder for OwnLevelsFirst {
    fn source(&mut self, queues: &PriorityQueues, sm: u32, step: u32) -> Option<Source> {
        let levels = queues.levels();
        match step {
            s if s < levels => Some(Source::Bound { sm, level: levels - s }),
            s if s == levels => Some(Source::Host),
            _ => None,
        }
    }
}

impl SmxBind {
    /// The queues as they stand, for reports and playback.
    pub fn queues(&self) -> PriorityQueueView {
        self.queues.view(alloc::vec::Vec::new())
    }
}

impl Default for SmxBind {
    fn default() -> Self {
        SmxBind::tuned(&ParamValues::defaults(Self::PARAMS))
    }
}

impl TbScheduler for SmxBind {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        self.queues.on_kernel_launch(cx, launch);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.queues.dispatch(&mut OwnLevelsFirst, d);
    }

    fn kmu_pick(&mut self, cx: &TbCx, waiting: &[WaitingKernel]) -> KmuPick {
        self.queues.kmu_pick(cx, waiting)
    }

    fn queue_view(&self) -> Option<PriorityQueueView> {
        Some(self.queues())
    }
}

impl Tunable for SmxBind {
    const PARAMS: &'static [ParamInfo] = &SHARED_PARAMS;

    fn tuned(values: &ParamValues) -> Self {
        SmxBind { queues: PriorityQueues::new(Settings::from_values(values), Binding::Home) }
    }
}
