//! LaPerm's priority queues (`laperm.md` §4.0), the state its three TB schedulers share:
//! TB-Pri ([`super::tb_pri`]), SMX-Bind ([`super::smx_bind`]) and Adaptive-Bind
//! ([`super::adaptive_bind`]).
//!
//! - **Entries.** One per kernel run: a host kernel, a CDP child kernel or a DTBL TB group
//!   (each device launch reaches the scheduler as a run of its own). An entry hands out its
//!   blocks in increasing index and leaves its queue when its last block is *dispatched*.
//! - **Levels.** Host kernels are level 0, in the shared FIFO `Q0`. A device launch of depth d
//!   is level min(d, L): its direct parent's level + 1, clamped at L.
//! - **Binding.** Levels 1..=L are either global FIFOs (TB-Pri) or one set per SM, the *home*
//!   SM where the launching block ran when it launched (SMX-Bind, Adaptive-Bind). A block
//!   stolen and run elsewhere launches children homed where it ran, since the engine reports
//!   that SM as their origin.
//! - **Visiting.** The SM pointer is round-robin's: `loose` (default) scans every SM from the
//!   one after the last SM served and skips SMs with no room or no candidate; `strict`
//!   examines SM `now mod N` only. The engine's dispatch budget caps what one call places.
//! - **In order.** A candidate that does not fit makes its SM wait; `allow_bypass` lets the SM
//!   try the entries behind it, in the policy's priority order.
//! - **Configuration switches.** With `config_switch_penalty` > 0, an SM about to receive a
//!   block of a different (code, block dims) from its previous block is first unavailable for
//!   that many cycles; after that it picks again, configured for the new shape.
//!
//! What differs between the three policies is only the order in which an SM looks at the
//! queues, given by a [`PickOrder`].

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::{Dispatch, KernelLaunch, KmuPick, Origin, TbCx, WaitingKernel};
use crate::isa::Dim3;
use crate::sched::{ParamInfo, ParamValues};
use crate::stats::chunk_view::QUEUE_ENTRIES_KEPT;

/// `L`, the highest priority level.
pub(crate) const LEVELS: ParamInfo = ParamInfo {
    name: "levels",
    label: "Priority levels (L)",
    unit: "levels",
    description: "Highest priority level: a device launch gets its parent's level + 1, clamped here (the paper gives no value; the notes' default is 4, and 1 puts every child in one FIFO).",
    min: 1,
    max: 16,
    default: 4,
};

/// Strict visiting.
pub(crate) const STRICT: ParamInfo = ParamInfo {
    name: "strict",
    label: "One SM examined per cycle",
    unit: "",
    description: "0: each cycle scans the SMs from the one after the last SM served and skips those with no room or no candidate (loose); 1: only SM (cycle mod N) is examined, as in the LaPerm flow.",
    min: 0,
    max: 1,
    default: 0,
};

/// Bypass of a head entry that does not fit.
pub(crate) const ALLOW_BYPASS: ParamInfo = ParamInfo {
    name: "allow_bypass",
    label: "Bypass a block that does not fit",
    unit: "",
    description:
        "0: an SM whose next block does not fit waits for it; 1: it tries the entries behind it, in priority order.",
    min: 0,
    max: 1,
    default: 0,
};

/// Cost of repartitioning an SM for another block shape.
pub(crate) const CONFIG_SWITCH_PENALTY: ParamInfo = ParamInfo {
    name: "config_switch_penalty",
    label: "Configuration switch penalty",
    unit: "cycles",
    description: "Cycles an SM is unavailable before it takes a block whose code or block dimensions differ from its previous block's (the paper names the cost but never sizes it).",
    min: 0,
    max: 100_000,
    default: 0,
};

/// The KMU's level search under CDP.
pub(crate) const KMU_SEARCH: ParamInfo = ParamInfo {
    name: "kmu_search",
    label: "KMU level search takes L cycles",
    unit: "",
    description: "1: moving a waiting CDP kernel into the KDU takes L extra cycles, one per level searched (the paper's bound); 0: free.",
    min: 0,
    max: 1,
    default: 1,
};

/// The parameters all three policies take.
pub(crate) const SHARED_PARAMS: [ParamInfo; 5] = [LEVELS, STRICT, ALLOW_BYPASS, CONFIG_SWITCH_PENALTY, KMU_SEARCH];

/// Where levels 1..=L live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// One global FIFO per level (TB-Pri).
    Global,
    /// One FIFO per level on each launch's home SM (SMX-Bind, Adaptive-Bind).
    Home,
}

/// A queue an SM can take a block from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// `Q0`, the host kernels.
    Host,
    /// Global level `level` (1..=L).
    Global { level: u32 },
    /// Level `level` (1..=L) of the queues homed on `sm`.
    Bound { sm: u32, level: u32 },
}

/// A policy's search order: where SM `sm` looks at its `step`th step (0 first), or `None` once
/// it has looked everywhere. The dispatcher takes the first entry it meets, or with bypass the
/// first that fits.
pub(crate) trait PickOrder {
    /// The `step`th queue SM `sm` looks at.
    fn source(&mut self, queues: &PriorityQueues, sm: u32, step: u32) -> Option<Source>;

    /// A block from `source` was placed on `sm`.
    fn on_placed(&mut self, _sm: u32, _source: Source) {}
}

/// What a block is configured as on an SM: its code and block dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    code: u32,
    block: Dim3,
}

/// One kernel run in a queue.
#[derive(Clone, Copy, Debug)]
struct Entry {
    run: u32,
    shape: Shape,
    /// Blocks not yet dispatched.
    left: u32,
}

/// One queued run, as a view shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedRun {
    /// Kernel run id.
    pub run: u32,
    /// Blocks not yet dispatched.
    pub blocks_left: u32,
}

/// The queues as they stand, for reports and playback.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriorityQueueView {
    /// L, the highest level.
    pub levels: u32,
    /// `Q0`, the host kernels, head first.
    pub host: Vec<QueuedRun>,
    /// Global levels 1..=L (index level − 1), head first; empty under binding.
    pub global: Vec<Vec<QueuedRun>>,
    /// Per SM, its bound levels 1..=L (index level − 1), head first; empty under TB-Pri.
    pub bound: Vec<Vec<Vec<QueuedRun>>>,
    /// Per SM, the SM whose queues it drains when it has nothing else (Adaptive-Bind only;
    /// empty otherwise).
    pub backup: Vec<Option<u32>>,
    /// Blocks taken from another SM's bound queues.
    pub steals: u64,
    /// Blocks placed on an SM configured for another shape (each paid the penalty, if any).
    pub config_switches: u64,
    /// Entries in every queue together; each queue above lists at most its first
    /// [`QUEUE_ENTRIES_KEPT`], so a view of thousands of waiting groups stays small.
    #[serde(default)]
    pub entries: u64,
}

/// The switches every policy of the family takes, from [`SHARED_PARAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    levels: u32,
    strict: bool,
    allow_bypass: bool,
    config_switch_penalty: u32,
    kmu_search: bool,
}

impl Settings {
    pub(crate) fn from_values(values: &ParamValues) -> Self {
        Settings {
            levels: values.get(LEVELS.name).clamp(LEVELS.min, LEVELS.max),
            strict: values.get(STRICT.name) == 1,
            allow_bypass: values.get(ALLOW_BYPASS.name) == 1,
            config_switch_penalty: values.get(CONFIG_SWITCH_PENALTY.name),
            kmu_search: values.get(KMU_SEARCH.name) == 1,
        }
    }
}

/// The level of a run launched from `origin` at `depth`: 0 for the host, else min(depth, L).
fn level_of(levels: u32, origin: Origin, depth: u32) -> u32 {
    match origin {
        Origin::Host { .. } => 0,
        Origin::Device { .. } => depth.clamp(1, levels),
    }
}

/// `Q0`, the levels and the SM pointer.
#[derive(Clone, Debug)]
pub(crate) struct PriorityQueues {
    settings: Settings,
    binding: Binding,
    host: VecDeque<Entry>,
    /// Global levels, index level − 1 (empty under [`Binding::Home`]).
    global: Vec<VecDeque<Entry>>,
    /// Bound levels, index sm · L + level − 1 (sized at the first launch or dispatch).
    bound: Vec<VecDeque<Entry>>,
    /// Per SM, the undispatched blocks in its bound queues.
    bound_left: Vec<u32>,
    /// Entries in every queue together.
    entries: usize,
    /// The SM that received the last block (the loose scan starts after it).
    last_sm: Option<u32>,
    /// Per SM, the shape of the last block placed there.
    configured: Vec<Option<Shape>>,
    /// Per SM, the cycle its configuration switch ends.
    busy_until: Vec<u64>,
    /// The next SM whose waiting kernels the KMU looks at (bound policies).
    kmu_ptr: u32,
    steals: u64,
    config_switches: u64,
}

impl PriorityQueues {
    pub(crate) fn new(settings: Settings, binding: Binding) -> Self {
        let global = match binding {
            Binding::Global => vec![VecDeque::new(); settings.levels as usize],
            Binding::Home => Vec::new(),
        };
        PriorityQueues {
            settings,
            binding,
            host: VecDeque::new(),
            global,
            bound: Vec::new(),
            bound_left: Vec::new(),
            entries: 0,
            last_sm: None,
            configured: Vec::new(),
            busy_until: Vec::new(),
            kmu_ptr: 0,
            steals: 0,
            config_switches: 0,
        }
    }

    /// L.
    pub(crate) fn levels(&self) -> u32 {
        self.settings.levels
    }

    /// Undispatched blocks in the queues homed on `sm`.
    pub(crate) fn bound_left(&self, sm: u32) -> u32 {
        self.bound_left.get(sm as usize).copied().unwrap_or(0)
    }

    /// SMs the bound queues are sized for.
    pub(crate) fn sm_count(&self) -> u32 {
        self.bound_left.len() as u32
    }

    /// Blocks taken from another SM's bound queues so far.
    pub(crate) fn steals(&self) -> u64 {
        self.steals
    }

    fn size_for(&mut self, sm_count: u32) {
        let n = sm_count as usize;
        if self.configured.len() < n {
            self.configured.resize(n, None);
            self.busy_until.resize(n, 0);
            if self.binding == Binding::Home {
                self.bound.resize(n * self.settings.levels as usize, VecDeque::new());
                self.bound_left.resize(n, 0);
            }
        }
    }

    fn queue(&self, source: Source) -> &VecDeque<Entry> {
        match source {
            Source::Host => &self.host,
            Source::Global { level } => &self.global[level as usize - 1],
            Source::Bound { sm, level } => &self.bound[(sm * self.settings.levels + level - 1) as usize],
        }
    }

    fn queue_mut(&mut self, source: Source) -> &mut VecDeque<Entry> {
        match source {
            Source::Host => &mut self.host,
            Source::Global { level } => &mut self.global[level as usize - 1],
            Source::Bound { sm, level } => &mut self.bound[(sm * self.settings.levels + level - 1) as usize],
        }
    }

    /// Queues a run that became ready: host kernels at the tail of `Q0`, device launches at
    /// the tail of their level, globally or on their home SM.
    pub(crate) fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        if launch.blocks == 0 {
            return;
        }
        self.size_for(cx.sm_count.max(launch.sm_count).max(1));
        let entry =
            Entry { run: launch.kernel, shape: Shape { code: launch.code, block: launch.block }, left: launch.blocks };
        let level = level_of(self.settings.levels, launch.origin, launch.depth);
        let source = match (launch.origin, self.binding) {
            _ if level == 0 => Source::Host,
            (_, Binding::Global) => Source::Global { level },
            (Origin::Device { sm, .. }, Binding::Home) => {
                let home = sm % self.sm_count().max(1);
                self.bound_left[home as usize] += launch.blocks;
                Source::Bound { sm: home, level }
            }
            (Origin::Host { .. }, Binding::Home) => Source::Host,
        };
        self.queue_mut(source).push_back(entry);
        self.entries += 1;
    }

    /// Places this cycle's blocks, each SM looking where `order` says.
    pub(crate) fn dispatch(&mut self, order: &mut impl PickOrder, d: &mut Dispatch<'_>) {
        let n = d.sm_count();
        if n == 0 {
            return;
        }
        self.size_for(n);
        if self.settings.strict {
            self.serve(order, d, (d.now() % n as u64) as u32);
            if self.entries > 0 {
                // The pointer moves on every cycle, placed or not.
                d.wake_at(d.now() + 1);
            }
        } else {
            let start = self.last_sm.map_or(0, |l| (l + 1) % n);
            for i in 0..n {
                if self.entries == 0 {
                    return;
                }
                self.serve(order, d, (start + i) % n);
            }
        }
    }

    /// SM `sm` takes the first candidate in `order` that fits, or waits for the first one.
    fn serve(&mut self, order: &mut impl PickOrder, d: &mut Dispatch<'_>, sm: u32) {
        let now = d.now();
        let busy_until = self.busy_until[sm as usize];
        if busy_until > now {
            d.wake_at(busy_until);
            return;
        }
        let mut step = 0;
        while let Some(source) = order.source(self, sm, step) {
            step += 1;
            let mut at = 0;
            while let Some(entry) = self.queue(source).get(at).copied() {
                let Some(index) = d.index_of(entry.run) else {
                    // Not pending any more: nothing of it is left to hand out.
                    self.remove(source, at);
                    continue;
                };
                if d.fits(sm, index) {
                    let configured = &mut self.configured[sm as usize];
                    if configured.is_some_and(|shape| shape != entry.shape) {
                        self.config_switches += 1;
                        *configured = Some(entry.shape);
                        if self.settings.config_switch_penalty > 0 {
                            let ready = now + self.settings.config_switch_penalty as u64;
                            self.busy_until[sm as usize] = ready;
                            d.wake_at(ready);
                            return;
                        }
                    }
                    *configured = Some(entry.shape);
                    self.place(order, d, sm, source, at, index);
                    return;
                }
                if !self.settings.allow_bypass {
                    return;
                }
                at += 1;
            }
        }
    }

    /// Places the next block of the entry at `at` of `source` (pending number `index`) on `sm`.
    fn place(
        &mut self,
        order: &mut impl PickOrder,
        d: &mut Dispatch<'_>,
        sm: u32,
        source: Source,
        at: usize,
        index: usize,
    ) {
        if !d.place(sm, index, d.pending()[index].next_block) {
            return;
        }
        self.last_sm = Some(sm);
        if let Source::Bound { sm: home, .. } = source {
            self.bound_left[home as usize] -= 1;
            if home != sm {
                self.steals += 1;
            }
        }
        let pending = d.pending()[index];
        let entry = &mut self.queue_mut(source)[at];
        entry.left -= 1;
        if pending.next_block >= pending.blocks || entry.left == 0 {
            self.remove(source, at);
        }
        order.on_placed(sm, source);
    }

    fn remove(&mut self, source: Source, at: usize) {
        if let Some(entry) = self.queue_mut(source).remove(at) {
            self.entries -= 1;
            if let Source::Bound { sm, .. } = source {
                self.bound_left[sm as usize] -= entry.left;
            }
        }
    }

    /// Under CDP, which waiting kernel the KMU moves into a free KDU entry: TB-Pri takes the
    /// oldest of the highest level; the bound policies visit the home SMs round-robin, one SM
    /// per pick, and take the oldest of the highest level homed there. Searching the levels
    /// takes L cycles with `kmu_search`.
    pub(crate) fn kmu_pick(&mut self, cx: &TbCx, waiting: &[WaitingKernel]) -> KmuPick {
        let search_cycles = if self.settings.kmu_search { self.settings.levels } else { 0 };
        let levels = self.settings.levels;
        let level = |w: &WaitingKernel| level_of(levels, w.origin, w.depth);
        // The first (oldest) of the highest level among those `keep` accepts.
        let best = |keep: &dyn Fn(&WaitingKernel) -> bool| {
            waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| keep(w))
                .fold(None, |best: Option<(usize, u32)>, (i, w)| match best {
                    Some((_, l)) if l >= level(w) => best,
                    _ => Some((i, level(w))),
                })
                .map(|(i, _)| i)
        };
        let index = match self.binding {
            Binding::Global => best(&|_| true),
            Binding::Home => {
                let n = cx.sm_count.max(1);
                let home = |w: &WaitingKernel| match w.origin {
                    Origin::Device { sm, .. } => Some(sm % n),
                    Origin::Host { .. } => None,
                };
                let mut found = None;
                for i in 0..n {
                    let sm = (self.kmu_ptr + i) % n;
                    if let Some(index) = best(&|w| home(w) == Some(sm)) {
                        self.kmu_ptr = (sm + 1) % n;
                        found = Some(index);
                        break;
                    }
                }
                found
            }
        };
        KmuPick { index: index.unwrap_or(0), search_cycles }
    }

    /// The queues as they stand; `backup` is Adaptive-Bind's (empty for the others).
    pub(crate) fn view(&self, backup: Vec<Option<u32>>) -> PriorityQueueView {
        let runs = |q: &VecDeque<Entry>| {
            q.iter().take(QUEUE_ENTRIES_KEPT).map(|e| QueuedRun { run: e.run, blocks_left: e.left }).collect()
        };
        let levels = self.settings.levels as usize;
        let entries = self.host.len() + self.global.iter().chain(&self.bound).map(VecDeque::len).sum::<usize>();
        PriorityQueueView {
            entries: entries as u64,
            levels: self.settings.levels,
            host: runs(&self.host),
            global: self.global.iter().map(runs).collect(),
            bound: self.bound.chunks(levels).map(|sm| sm.iter().map(runs).collect()).collect(),
            backup,
            steals: self.steals,
            config_switches: self.config_switches,
        }
    }
}
