//! Thread-block schedulers: which waiting thread block goes to which SM.
//!
//! # Adding a policy
//! 1. Write `sched/tb/<name>.rs` with a type implementing [`TbScheduler`]; only `dispatch` is
//!    required. Unit tests at the bottom of the file.
//! 2. Add a row to the `tb_policies!` table below (a new, never-used id).
//! 3. The engine, the CLI and the UI find it through [`TB_POLICIES`].
//!
//! The engine keeps the resource accounting: a policy asks [`Dispatch::fits`] and calls
//! [`Dispatch::place`]; it cannot overfill an SM or place a block twice. [`occupancy`] is the
//! same accounting asked once of an empty SM: how many blocks of a shape it holds.
//!
//! The engine calls `dispatch` when something changed (a run became ready, a block finished,
//! the last dispatch placed blocks) and at the cycle a policy asked for with
//! [`Dispatch::wake_at`] — a steal that takes time, a launch queue's latency, the end of a
//! profiling phase. It is not called in the cycles between, so a policy's sense of time comes
//! from [`Dispatch::now`] and [`TbCx::now`], never from counting calls.

pub mod adaptive_bind;
#[cfg(test)]
mod alarm;
pub mod chunk;
pub mod chunks;
pub mod flip;
pub mod intra_sm;
pub mod kernel_slots;
#[cfg(test)]
mod laperm_toys;
pub mod occupancy;
pub mod placed;
pub mod priority_queues;
pub mod reset;
pub mod rr;
pub mod smk;
pub mod smx_bind;
pub mod spatial;
pub mod steal;
pub mod tb_pri;
pub mod warped_slicer;

use alloc::vec::Vec;

use super::{PolicyInfo, PolicySpec, SpecError, Tunable};
use crate::config::CoreConfig;
use crate::isa::Dim3;
pub use crate::launch::Origin;
use crate::stats::ChunkView;
pub use occupancy::{occupancy, Limit, Occupancy};
pub use placed::PlacedBlocks;
pub use priority_queues::{PriorityQueueView, QueuedRun};

/// A kernel run that became ready to dispatch, as a TB scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLaunch {
    /// Kernel run id: runs are numbered in the order they become ready.
    pub kernel: u32,
    /// Index of its code in the workload (the same function launched twice has the same code).
    pub code: u32,
    /// Thread blocks in its grid.
    pub blocks: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
    /// SMs of the GPU.
    pub sm_count: u32,
    /// The host, or the device thread (run, block, SM) that launched it.
    pub origin: Origin,
    /// 0 for host launches, the parent's depth + 1 for device launches.
    pub depth: u32,
    /// What one of its blocks takes on an SM.
    pub needs: BlockNeeds,
    /// Everything an empty SM offers (the machine's per-SM limits).
    pub sm_capacity: SmFree,
}

/// A device-launched kernel waiting in the kernel management unit (KMU) for an entry of the
/// kernel distributor (KDU), under the CDP launch path; see [`TbScheduler::kmu_pick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitingKernel {
    /// Index of its code in the workload.
    pub code: u32,
    /// Block dimensions.
    pub block: Dim3,
    /// The device thread (run, block, SM) that launched it.
    pub origin: Origin,
    /// Its parent's depth + 1.
    pub depth: u32,
}

/// Which waiting kernel the KMU moves into a free KDU entry, and the cycles the search takes
/// before it gets there (LaPerm searches its levels one per cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KmuPick {
    /// Index in the waiting list (oldest first).
    pub index: usize,
    /// Cycles from now until the kernel holds its KDU entry and reaches the dispatcher.
    pub search_cycles: u32,
}

/// What the dispatcher knows about one kernel run with blocks left to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingKernel {
    /// Kernel run id.
    pub kernel: u32,
    /// Thread blocks in its grid.
    pub blocks: u32,
    /// Lowest block index not yet placed.
    pub next_block: u32,
}

/// Free resources of one SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmFree {
    /// Thread-block slots.
    pub tbs: u32,
    /// Warp slots.
    pub warps: u32,
    /// Thread slots.
    pub threads: u32,
    /// Registers.
    pub registers: u32,
    /// Shared-memory bytes.
    pub shared_bytes: u32,
}

/// What one thread block of a kernel needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockNeeds {
    /// Warps (= warp slots).
    pub warps: u32,
    /// Threads.
    pub threads: u32,
    /// Registers (per-thread count × threads rounded up to whole warps).
    pub registers: u32,
    /// Shared-memory bytes.
    pub shared_bytes: u32,
}

impl BlockNeeds {
    /// What one block of `block` threads takes on an SM of `core`, for a kernel using
    /// `regs_per_thread` registers and `shared_bytes` of shared memory: threads round up to
    /// whole warps, and registers are allocated for every lane of those warps.
    pub fn of(core: &CoreConfig, block: Dim3, regs_per_thread: u32, shared_bytes: u32) -> Self {
        let threads = block.count().min(u32::MAX as u64) as u32;
        let warps = threads.div_ceil(core.warp_size.max(1));
        let registers = warps as u64 * core.warp_size as u64 * regs_per_thread as u64;
        BlockNeeds { warps, threads, registers: registers.min(u32::MAX as u64) as u32, shared_bytes }
    }
}

impl SmFree {
    /// Everything an empty SM of `core` offers.
    pub fn whole_sm(core: &CoreConfig) -> Self {
        SmFree {
            tbs: core.max_tbs_per_sm,
            warps: core.max_warps_per_sm,
            threads: core.max_threads_per_sm,
            registers: core.registers_per_sm,
            shared_bytes: core.shared_memory_per_sm,
        }
    }

    /// Whether a block with `needs` fits.
    pub fn fits(&self, needs: &BlockNeeds) -> bool {
        self.tbs >= 1
            && self.warps >= needs.warps
            && self.threads >= needs.threads
            && self.registers >= needs.registers
            && self.shared_bytes >= needs.shared_bytes
    }

    /// Reserves what a block needs (the caller checked [`SmFree::fits`]).
    pub fn take(&mut self, needs: &BlockNeeds) {
        self.tbs -= 1;
        self.warps -= needs.warps;
        self.threads -= needs.threads;
        self.registers -= needs.registers;
        self.shared_bytes -= needs.shared_bytes;
    }

    /// Returns what a finished block held.
    pub fn give_back(&mut self, needs: &BlockNeeds) {
        self.tbs += 1;
        self.warps += needs.warps;
        self.threads += needs.threads;
        self.registers += needs.registers;
        self.shared_bytes += needs.shared_bytes;
    }
}

/// A decision: block `block` of kernel run `kernel` goes to `sm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The SM.
    pub sm: u32,
    /// Kernel run id.
    pub kernel: u32,
    /// Block index within the grid (linear, x fastest).
    pub block: u32,
}

/// When and where a thread-block scheduler is told something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbCx {
    /// The current cycle.
    pub now: u64,
    /// SMs of the GPU.
    pub sm_count: u32,
}

/// One cycle's dispatch opportunity, handed to the policy.
pub struct Dispatch<'a> {
    /// The current cycle.
    pub(crate) now: u64,
    /// The cycle the policy asked to be called again at (`u64::MAX`: not asked).
    pub(crate) wake: u64,
    /// Free resources per SM (decremented by each placement).
    pub(crate) free: &'a mut [SmFree],
    /// Kernels with blocks left, oldest launch first.
    pub(crate) pending: &'a mut [PendingKernel],
    /// Needs of one block of each pending kernel (same order).
    pub(crate) needs: &'a [BlockNeeds],
    /// Whether each block of each pending kernel has been placed (same order).
    pub(crate) placed: &'a mut [PlacedBlocks],
    /// Placements made this cycle.
    pub(crate) out: &'a mut Vec<Placement>,
    /// Placements still allowed this cycle, per SM.
    pub(crate) budget_per_sm: &'a mut [u32],
    /// Placements still allowed this cycle, GPU-wide.
    pub(crate) budget_total: u32,
    /// Runs whose last block was placed in this call.
    pub(crate) fully_placed: u32,
}

impl Dispatch<'_> {
    /// Number of SMs.
    pub fn sm_count(&self) -> u32 {
        self.free.len() as u32
    }

    /// The current cycle.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Asks to be called again at `cycle` (later than now) even if nothing changes before it;
    /// of several requests in one call the earliest counts. The request is for this call only:
    /// a policy that still waits asks again.
    pub fn wake_at(&mut self, cycle: u64) {
        self.wake = self.wake.min(cycle.max(self.now + 1));
    }

    /// Kernels with blocks left to place, oldest launch first.
    pub fn pending(&self) -> &[PendingKernel] {
        self.pending
    }

    /// The index in [`Dispatch::pending`] of kernel run `kernel`, if it has blocks left to
    /// place (runs are listed in increasing id, so this is a binary search).
    pub fn index_of(&self, kernel: u32) -> Option<usize> {
        self.pending.binary_search_by_key(&kernel, |p| p.kernel).ok()
    }

    /// Whether another block of pending kernel number `index` (in [`Dispatch::pending`]) can go to
    /// `sm` this cycle: resources and the dispatch rate allow it.
    pub fn fits(&self, sm: u32, index: usize) -> bool {
        self.budget_total > 0
            && self.budget_per_sm.get(sm as usize).is_some_and(|&b| b > 0)
            && self.free.get(sm as usize).is_some_and(|f| self.needs.get(index).is_some_and(|n| f.fits(n)))
    }

    /// Places block `block` of pending kernel number `index` on `sm`. Returns false (and does
    /// nothing) if it does not fit, is out of range, or was placed already.
    pub fn place(&mut self, sm: u32, index: usize, block: u32) -> bool {
        if !self.fits(sm, index) {
            return false;
        }
        if !self.placed[index].insert(block) {
            return false;
        }
        self.free[sm as usize].take(&self.needs[index]);
        self.budget_per_sm[sm as usize] -= 1;
        self.budget_total -= 1;
        let kernel = &mut self.pending[index];
        kernel.next_block = self.placed[index].next();
        if kernel.next_block >= kernel.blocks {
            self.fully_placed += 1;
        }
        self.out.push(Placement { sm, kernel: kernel.kernel, block });
        true
    }
}

/// A thread-block scheduling policy.
pub trait TbScheduler {
    /// A kernel run became ready to dispatch; it is now the last of [`Dispatch::pending`].
    fn on_kernel_launch(&mut self, _cx: &TbCx, _launch: &KernelLaunch) {}

    /// Block `block` of kernel run `kernel` finished on `sm`.
    fn on_tb_finish(&mut self, _cx: &TbCx, _sm: u32, _kernel: u32, _block: u32) {}

    /// Every block of kernel run `kernel` has finished (the grids it launched may still run;
    /// they are runs of their own).
    fn on_kernel_complete(&mut self, _cx: &TbCx, _kernel: u32) {}

    /// Places blocks this cycle through `d`.
    fn dispatch(&mut self, d: &mut Dispatch<'_>);

    /// Under CDP, a KDU entry is free and `waiting` (oldest first, never empty) wait for one:
    /// which goes next. The baseline is first come, first served.
    fn kmu_pick(&mut self, _cx: &TbCx, _waiting: &[WaitingKernel]) -> KmuPick {
        KmuPick::default()
    }

    /// What Steal did, for the report (`None` for every other policy).
    fn steal_stats(&self) -> Option<steal::StealStats> {
        None
    }

    /// Each SM's chunk and steal queue as they stand, for playback (`None` for a policy that
    /// keeps no chunks). Asked only when a snapshot is taken, so it may allocate.
    fn chunk_view(&self) -> Option<ChunkView> {
        None
    }

    /// LaPerm's priority queues as they stand, for playback (`None` for other policies). Asked
    /// only when a snapshot is taken, so it may allocate.
    fn queue_view(&self) -> Option<PriorityQueueView> {
        None
    }

    /// For a policy that splits SMs by the co-running kernels' scalability curves
    /// (Warped-Slicer): the window, in cycles, of each point. The simulation then profiles them
    /// before the run ([`crate::scalability`]) and hands them over with `set_curves`.
    fn profile_cycles(&self) -> Option<u32> {
        None
    }

    /// The curves asked for by [`TbScheduler::profile_cycles`].
    fn set_curves(&mut self, _curves: Vec<crate::scalability::Curve>) {}

    /// How the policy splits each SM among co-running kernels, for the report (`None` for a
    /// policy that does not). Asked once, when the report is made.
    fn sharing(&self) -> Option<crate::stats::sharing::SharingReport> {
        None
    }
}

macro_rules! tb_policies {
    ($( $variant:ident($ty:ty) = $id:literal, $label:literal, $description:literal; )*
     #[cfg(test)] { $( $tvariant:ident($tty:ty); )* }) => {
        /// Every thread-block scheduler, dispatched statically.
        #[derive(Clone, Debug)]
        pub enum TbPolicy {
            $( #[doc = $description] $variant($ty), )*
            $( #[cfg(test)] #[doc = "Test-only."] $tvariant($tty), )*
        }

        /// The registry, in menu order.
        pub const TB_POLICIES: &[PolicyInfo] = &[
            $( PolicyInfo { id: $id, label: $label, description: $description, params: <$ty as Tunable>::PARAMS }, )*
        ];

        impl TbPolicy {
            /// A fresh instance of the policy a spec names (`id` or `id:name=value,...`; see
            /// [`PolicySpec`]), or why there is none.
            pub fn from_spec(spec: &str) -> Result<TbPolicy, SpecError> {
                let (info, values) = PolicySpec::check(spec, TB_POLICIES)?;
                match info.id {
                    $( $id => Ok(TbPolicy::$variant(<$ty as Tunable>::tuned(&values))), )*
                    other => Err(SpecError(alloc::format!("`{other}` is listed but cannot be built"))),
                }
            }
        }

        impl TbScheduler for TbPolicy {
            fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
                match self {
                    $( TbPolicy::$variant(p) => p.on_kernel_launch(cx, launch), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.on_kernel_launch(cx, launch), )*
                }
            }
            fn on_tb_finish(&mut self, cx: &TbCx, sm: u32, kernel: u32, block: u32) {
                match self {
                    $( TbPolicy::$variant(p) => p.on_tb_finish(cx, sm, kernel, block), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.on_tb_finish(cx, sm, kernel, block), )*
                }
            }
            fn on_kernel_complete(&mut self, cx: &TbCx, kernel: u32) {
                match self {
                    $( TbPolicy::$variant(p) => p.on_kernel_complete(cx, kernel), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.on_kernel_complete(cx, kernel), )*
                }
            }
            fn dispatch(&mut self, d: &mut Dispatch<'_>) {
                match self {
                    $( TbPolicy::$variant(p) => p.dispatch(d), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.dispatch(d), )*
                }
            }
            fn kmu_pick(&mut self, cx: &TbCx, waiting: &[WaitingKernel]) -> KmuPick {
                match self {
                    $( TbPolicy::$variant(p) => p.kmu_pick(cx, waiting), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.kmu_pick(cx, waiting), )*
                }
            }
            fn steal_stats(&self) -> Option<steal::StealStats> {
                match self {
                    $( TbPolicy::$variant(p) => p.steal_stats(), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.steal_stats(), )*
                }
            }
            fn chunk_view(&self) -> Option<ChunkView> {
                match self {
                    $( TbPolicy::$variant(p) => p.chunk_view(), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.chunk_view(), )*
                }
            }
            fn queue_view(&self) -> Option<PriorityQueueView> {
                match self {
                    $( TbPolicy::$variant(p) => p.queue_view(), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.queue_view(), )*
                }
            }
            fn profile_cycles(&self) -> Option<u32> {
                match self {
                    $( TbPolicy::$variant(p) => p.profile_cycles(), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.profile_cycles(), )*
                }
            }
            fn sharing(&self) -> Option<crate::stats::sharing::SharingReport> {
                match self {
                    $( TbPolicy::$variant(p) => p.sharing(), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.sharing(), )*
                }
            }
            fn set_curves(&mut self, curves: Vec<crate::scalability::Curve>) {
                match self {
                    $( TbPolicy::$variant(p) => p.set_curves(curves), )*
                    $( #[cfg(test)] TbPolicy::$tvariant(p) => p.set_curves(curves), )*
                }
            }
        }
    };
}

tb_policies! {
    RoundRobin(rr::RoundRobin) = "rr", "Round-robin",
        "Hands the next block to the next SM with room, scanning from the SM after the last one served (GPGPU-Sim's policy).";
    Chunk(chunk::Chunk) = "chunk", "Chunk",
        "One contiguous chunk of every grid per SM, assigned from the SM after the last one served, so neighbouring blocks share an L1; an SM whose chunk is spent idles (IKRA's C).";
    Reset(reset::Reset) = "reset", "Reset",
        "Chunk j always on SM j, so block i runs on the same SM in every kernel and finds what it wrote the launch before (IKRA's R).";
    Flip(flip::Flip) = "flip", "Flip",
        "Reset with every chunk run in the other direction at each launch, so the blocks that ran last, whose data is freshest in the L1, run first (IKRA's F).";
    Steal(steal::Steal) = "steal", "Steal",
        "Flip plus work stealing: an SM with nothing left takes a block from a neighbour and keeps it in its steal queue, running it again in later kernels (IKRA's S).";
    TbPri(tb_pri::TbPri) = "tb-pri", "TB-Pri",
        "Device-launched blocks first: each launch gets its parent's priority level + 1 (at most L = 4) and an SM always takes the highest level waiting, host kernels last, so children run soon after their parents (LaPerm's TB-Pri).";
    SmxBind(smx_bind::SmxBind) = "smx-bind", "SMX-Bind",
        "TB-Pri with every launch queued on the SM its parent ran on, which alone runs it, for L1 reuse; an SM takes host kernels' blocks only when its own queues are empty, and otherwise idles (LaPerm's SMX-Bind).";
    AdaptiveBind(adaptive_bind::AdaptiveBind) = "adaptive-bind", "Adaptive-Bind",
        "SMX-Bind where an SM with nothing of its own and no host kernel's block left drains another SM's queues, the next one with children by default, until they are empty (LaPerm's Adaptive-Bind).";
    Smk(smk::Smk) = "smk", "SMK-P",
        "Every SM shared by the co-running kernels (host streams), each up to a block target set by Dominant Resource Fairness over registers, shared memory, threads and block slots (SMK's static split).";
    WarpedSlicer(warped_slicer::WarpedSlicer) = "ws", "Warped-Slicer",
        "Every SM shared by the co-running kernels (host streams) at the sweet point of their scalability curves, profiled alone before the run: the split in which the kernel that loses most against running alone loses least (Warped-Slicer, as the concurrent-kernel paper uses it).";
    Spatial(spatial::Spatial) = "spatial", "Spatial",
        "The SMs split into equal sets, one per co-running kernel (host stream), each SM taking blocks only of its own kernel (spatial multitasking).";
    // Variants that exist only in the crate's unit tests (not in the registry).
    #[cfg(test)] {
        Alarm(alarm::Alarm);
    }
}
