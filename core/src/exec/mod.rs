//! Functional execution of one warp instruction: values, addresses and control flow.
//!
//! The timing model decides *when* a warp issues; this module decides *what* the instruction
//! does, so that addresses and branch outcomes come from real data. Registers of a warp are
//! stored register-major (`regs[r * 32 + lane]`), so one operand of all lanes is contiguous.

pub mod alu;
pub mod cross_lane;
pub mod footprint_sharing;
pub mod memory;
pub mod reference;
pub mod simt;
pub mod wide;

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::isa::{Axis, Dim3, Instr, Operand, Reg, Space, Special, Width};
use alu::Row;
use memory::{AccessError, GlobalMemory, SharedMemory};
use simt::SimtStack;

/// Lanes of a register row: every warp has room for 32, whatever the configured warp size.
pub const LANES: usize = 32;

/// Where a warp sits in its launch, for the built-in variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpPlace {
    /// Grid dimensions (in blocks).
    pub grid: Dim3,
    /// Block dimensions (in threads).
    pub block: Dim3,
    /// This warp's block coordinates.
    pub block_idx: [u32; 3],
    /// Linear thread index (within the block) of lane 0.
    pub first_thread: u32,
    /// Lanes per warp.
    pub warp_size: u32,
    /// The address of the warp's frame in the local window ([`crate::isa::LOCAL_WINDOW_BASE`]),
    /// where the timing model sees its spills and fills go.
    pub local_base: u32,
}

/// Which thread faulted: its block's index in the grid and its index in the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultThread {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
}

impl WarpPlace {
    /// The thread in lane `lane` of this warp.
    pub fn thread_of(&self, lane: u32) -> FaultThread {
        FaultThread { block: self.block_idx, thread: self.block.unflatten(self.first_thread + lane) }
    }

    /// Lanes of this warp that hold a thread (the last warp of a block may be partial).
    pub fn live_mask(&self) -> u32 {
        let threads = self.block.count() as u32 - self.first_thread;
        let lanes = threads.min(self.warp_size);
        if lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        }
    }

    /// `which` for every lane.
    fn special_row(&self, which: Special) -> [u32; LANES] {
        let axis = |a: Axis| a as usize;
        match which {
            Special::ThreadIdx(a) => {
                // Consecutive lanes are consecutive threads: step the coordinates instead of
                // dividing for every lane (the same values as `unflatten`).
                let (bx, by) = (self.block.x.max(1), self.block.y.max(1));
                let mut at = self.block.unflatten(self.first_thread);
                if at[0] + LANES as u32 <= bx {
                    // The whole warp in one row of the block (always so for 1-D blocks).
                    return match a {
                        Axis::X => core::array::from_fn(|lane| at[0] + lane as u32),
                        _ => [at[axis(a)]; LANES],
                    };
                }
                core::array::from_fn(|_| {
                    let value = at[axis(a)];
                    at[0] += 1;
                    if at[0] == bx {
                        at[0] = 0;
                        at[1] += 1;
                        if at[1] == by {
                            at[1] = 0;
                            at[2] += 1;
                        }
                    }
                    value
                })
            }
            Special::BlockIdx(a) => [self.block_idx[axis(a)]; LANES],
            Special::BlockDim(a) => [self.block.get(a); LANES],
            Special::GridDim(a) => [self.grid.get(a); LANES],
            Special::LaneId => core::array::from_fn(|lane| lane as u32),
            Special::WarpSize => [self.warp_size; LANES],
        }
    }
}

/// What kind of memory instruction executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessKind {
    /// A load.
    Load,
    /// A store.
    Store,
    /// A read-modify-write.
    Atomic,
}

/// A memory instruction's footprint: the lanes in `mask` accessed `addresses[lane]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Memory space.
    pub space: Space,
    /// Load, store or atomic.
    pub kind: AccessKind,
    /// Lanes that accessed memory.
    pub mask: u32,
    /// For a global load or store of every lane at 32 consecutive words, the first word's
    /// address ([`consecutive_words`]): found once here, used by the checks, the data move and
    /// the coalescer.
    pub block: Option<u32>,
}

/// What an executed instruction means for the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Executed {
    /// Nothing beyond its unit's latency.
    Compute,
    /// A memory access; per-lane addresses are in the caller's buffer.
    Memory(MemAccess),
    /// The warp arrived at a barrier.
    Barrier,
    /// The lanes of `mask` each launch a grid of kernel `kernel`; their grid and block
    /// dimensions are in the six registers from `dims`, the child's arguments from `args`.
    Launch {
        /// Child kernel index.
        kernel: u32,
        /// First dimension register.
        dims: Reg,
        /// First argument register.
        args: Reg,
        /// Launching lanes.
        mask: u32,
    },
    /// Every lane of the warp has exited.
    Finished,
}

/// Why a warp could not go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultKind {
    /// A memory access outside every buffer or misaligned.
    Memory {
        /// Memory space.
        space: Space,
        /// The offending byte address.
        address: u32,
        /// What was wrong with it.
        error: AccessError,
    },
    /// Control reached past the last instruction (a kernel without a final `exit`).
    RanOffTheEnd,
    /// A device-side launch the machine cannot run.
    BadLaunch {
        /// Index of the child kernel.
        kernel: u32,
        /// What is wrong with it.
        problem: LaunchProblem,
    },
    /// A local array indexed out of range at run time ([`Instr::Bound`](crate::isa::Instr::Bound)).
    LocalIndex {
        /// Which entry of the kernel's [`local_arrays`](crate::isa::Kernel::local_arrays).
        array: u16,
        /// The index (shown signed: a negative `int` index reads as itself).
        index: u32,
        /// The number of elements along the indexed dimension.
        len: u32,
    },
}

/// Why a device-side launch cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaunchProblem {
    /// A grid or block dimension is 0, or the grid has more than 2^31 - 1 blocks.
    BadDimensions,
    /// A block needs more threads, warps, registers or shared memory than an SM has.
    BlockTooLarge,
    /// The run has launched more grids than the engine allows.
    TooManyGrids,
}

impl core::fmt::Display for Fault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.describe(None).fmt(f)
    }
}

/// A fault's message, with what the kernel's debug info calls its local array
/// ([`Fault::describe`]).
pub struct FaultMessage<'a> {
    fault: &'a Fault,
    array: Option<&'a str>,
}

impl Fault {
    /// The message, naming the local array of a [`FaultKind::LocalIndex`] fault as `array`
    /// (what [`Kernel::local_array`](crate::isa::Kernel::local_array) says; `None`: "a local
    /// array").
    pub fn describe<'a>(&'a self, array: Option<&'a str>) -> FaultMessage<'a> {
        FaultMessage { fault: self, array }
    }
}

impl core::fmt::Display for FaultMessage<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let this = self.fault;
        let space = |s: Space| match s {
            Space::Global => "global",
            Space::Shared => "shared",
        };
        match this.kind {
            FaultKind::Memory { space: s, address, error: memory::AccessError::Unmapped } => write!(
                f,
                "lane {} read or wrote {} memory at 0x{address:08x}, outside every buffer (instruction {})",
                this.lane,
                space(s),
                this.pc
            ),
            FaultKind::Memory { space: s, address, error: memory::AccessError::Misaligned } => write!(
                f,
                "lane {} accessed {} memory at 0x{address:08x}, not a multiple of 4 (instruction {})",
                this.lane,
                space(s),
                this.pc
            ),
            FaultKind::RanOffTheEnd => write!(f, "control ran past the last instruction"),
            FaultKind::BadLaunch { kernel, problem } => write!(
                f,
                "lane {} launched kernel #{kernel} from the device, but {} (instruction {})",
                this.lane,
                problem.describe(),
                this.pc
            ),
            FaultKind::LocalIndex { index, len, .. } => write!(
                f,
                "lane {} indexed {} ({len} elements) at {} (instruction {})",
                this.lane,
                self.array.unwrap_or("a local array"),
                index as i32,
                this.pc
            ),
        }
    }
}

/// Most grids one simulation may launch from the device: a bound on runaway recursion. (The
/// engine counts its host launches, at most 10,000, against it too.)
pub const MAX_DEVICE_GRIDS: usize = 1_000_000;

/// Calls `f(lane, grid, block, args)` for each lane of `mask` that executed an
/// [`Instr::Launch`](crate::isa::Instr::Launch), lanes in ascending order: the six dimension
/// registers from `dims` and `params` argument registers from `args`, read from the warp's
/// register rows `regs`.
pub fn for_each_launch(
    regs: &[u32],
    dims: Reg,
    args: Reg,
    params: usize,
    mask: u32,
    mut f: impl FnMut(u32, Dim3, Dim3, Vec<u32>),
) {
    let read = |r: usize, lane: usize| regs.get(r * LANES + lane).copied().unwrap_or(0);
    for_lanes(mask, |lane| {
        let d = |i: usize| read(dims.0 as usize + i, lane);
        let grid = Dim3 { x: d(0), y: d(1), z: d(2) };
        let block = Dim3 { x: d(3), y: d(4), z: d(5) };
        f(lane as u32, grid, block, (0..params).map(|i| read(args.0 as usize + i, lane)).collect());
    });
}

impl LaunchProblem {
    /// Whether a launch's grid and block can exist at all (whatever the machine).
    pub fn of_dimensions(grid: Dim3, block: Dim3) -> Option<LaunchProblem> {
        let empty = |d: Dim3| d.x == 0 || d.y == 0 || d.z == 0;
        (empty(grid) || empty(block) || grid.count() > i32::MAX as u64).then_some(LaunchProblem::BadDimensions)
    }

    /// A sentence for a person.
    pub fn describe(&self) -> &'static str {
        match self {
            LaunchProblem::BadDimensions => "a grid or block dimension is 0, or the grid has more than 2^31 - 1 blocks",
            LaunchProblem::BlockTooLarge => {
                "one block needs more threads, warps, registers or shared memory than an SM has"
            }
            LaunchProblem::TooManyGrids => "the run launched more than 1,000,000 grids from the device",
        }
    }
}

/// A fault: the instruction and lane that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// Instruction index.
    pub pc: u32,
    /// First faulting lane.
    pub lane: u32,
    /// What went wrong.
    pub kind: FaultKind,
}

/// The state of one warp for functional execution.
#[derive(Clone, Debug, Default)]
pub struct WarpExec {
    /// Control flow.
    pub stack: SimtStack,
    /// The threads' local memory (spilled registers): word `w` of lane `l` at `w * LANES + l`,
    /// `spill_words` rows sized when the warp starts.
    pub local: Vec<u32>,
}

/// Everything an instruction may touch besides the warp's own registers and stack.
pub struct ExecEnv<'a> {
    /// Device memory.
    pub global: &'a mut GlobalMemory,
    /// This thread block's shared memory.
    pub shared: &'a mut SharedMemory,
    /// Receives per-lane addresses of a memory instruction.
    pub addresses: &'a mut [u32; LANES],
}

/// The address of lane 0 when lane `l` accesses the word `4 * l` bytes after it, for every
/// lane and without wrapping past the top of the address space: the common `a[i]` access of a
/// converged warp, which the memory checks, the loads and stores and the coalescer handle as
/// one block of 32 words. (The comparison is branch-free, so it vectorises.)
#[inline]
pub fn consecutive_words(addresses: &[u32; LANES]) -> Option<u32> {
    let base = addresses[0];
    let mut same = true;
    for (l, &a) in addresses.iter().enumerate() {
        same &= a == base.wrapping_add(4 * l as u32);
    }
    (same && base <= u32::MAX - 4 * (LANES as u32 - 1)).then_some(base)
}

/// Calls `f` for each lane set in `mask`, lowest first.
#[inline]
fn for_lanes(mut mask: u32, mut f: impl FnMut(usize)) {
    // Converged warps are the common case: a plain counted loop the compiler can unroll.
    if mask == u32::MAX {
        for lane in 0..LANES {
            f(lane);
        }
        return;
    }
    while mask != 0 {
        f(mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

#[inline]
fn row(r: Reg) -> usize {
    r.0 as usize * LANES
}

/// Lane `lane`'s 64-bit value of the register pair starting at `r`.
#[inline]
fn pair(regs: &[u32], r: Reg, lane: usize) -> u64 {
    wide::join(regs[row(r) + lane], regs[row(r) + LANES + lane])
}

/// Sets lane `lane`'s 64-bit value of the register pair starting at `r`.
#[inline]
fn set_pair(regs: &mut [u32], r: Reg, lane: usize, value: u64) {
    let (lo, hi) = wide::split(value);
    regs[row(r) + lane] = lo;
    regs[row(r) + LANES + lane] = hi;
}

#[inline]
fn read(regs: &[u32], op: Operand, lane: usize) -> u32 {
    match op {
        Operand::Reg(r) => regs[row(r) + lane],
        Operand::Imm(v) => v,
    }
}

/// Executes the warp's next instruction of `code` and advances its control flow.
pub fn step(
    code: &[Instr],
    warp: &mut WarpExec,
    regs: &mut [u32],
    place: &WarpPlace,
    env: &mut ExecEnv<'_>,
) -> Result<Executed, Fault> {
    let Some(pc) = warp.stack.pc() else { return Ok(Executed::Finished) };
    let Some(&instr) = code.get(pc as usize) else {
        return Err(Fault { pc, lane: warp.stack.active_mask().trailing_zeros(), kind: FaultKind::RanOffTheEnd });
    };
    let active = warp.stack.active_mask();
    let mut outcome = Executed::Compute;
    match instr {
        Instr::Mov { dst, src } => write_row(regs, dst, active, &operand_row(regs, src)),
        Instr::Special { dst, which } => write_row(regs, dst, active, &place.special_row(which)),
        Instr::Alu { op, dst, a, b } => {
            let mut out = [0u32; LANES];
            alu::alu_row(op, &mut out, operand(regs, a), operand(regs, b));
            write_row(regs, dst, active, &out);
        }
        Instr::Unary { op, dst, a } => {
            let mut out = operand_row(regs, a);
            alu::unary_row(op, &mut out);
            write_row(regs, dst, active, &out);
        }
        Instr::Fma { dst, a, b, c } => {
            // Every lane (a pure function: inactive lanes' results are dropped), without a
            // per-lane look at the operands' form.
            let (a, b, c) = (operand_row(regs, a), operand_row(regs, b), operand_row(regs, c));
            let out: [u32; LANES] = core::array::from_fn(|l| alu::fma(a[l], b[l], c[l]));
            write_row(regs, dst, active, &out);
        }
        Instr::Sfu { op, dst, a, b } => {
            for_lanes(active, |l| regs[row(dst) + l] = alu::sfu(op, read(regs, a, l), read(regs, b, l)))
        }
        Instr::Cmp { op, ty, dst, a, b } => {
            let mut out = [0u32; LANES];
            alu::compare_row(op, ty, &mut out, operand(regs, a), operand(regs, b));
            write_row(regs, dst, active, &out);
        }
        Instr::Wide { op, dst, a, b } => for_lanes(active, |l| {
            let v = wide::wide(op, pair(regs, a, l), pair(regs, b, l));
            set_pair(regs, dst, l, v);
        }),
        Instr::WideFma { dst, a, b, c } => for_lanes(active, |l| {
            let v = wide::fma(pair(regs, a, l), pair(regs, b, l), pair(regs, c, l));
            set_pair(regs, dst, l, v);
        }),
        Instr::WideUnary { op, dst, a } => for_lanes(active, |l| {
            let x = if op.reads_pair() { pair(regs, a, l) } else { regs[row(a) + l] as u64 };
            let v = wide::wide_unary(op, x);
            if op.writes_pair() {
                set_pair(regs, dst, l, v);
            } else {
                regs[row(dst) + l] = v as u32;
            }
        }),
        Instr::WideCmp { op, ty, dst, a, b } => for_lanes(active, |l| {
            regs[row(dst) + l] = wide::wide_compare(op, ty, pair(regs, a, l), pair(regs, b, l));
        }),
        Instr::Select { dst, cond, a, b } => {
            let (c, x, y) = (operand_row(regs, Operand::Reg(cond)), operand_row(regs, a), operand_row(regs, b));
            let out: [u32; LANES] = core::array::from_fn(|l| if c[l] != 0 { x[l] } else { y[l] });
            write_row(regs, dst, active, &out);
        }
        Instr::Shuffle { mode, dst, value, b, width } => {
            let mut out = operand_row(regs, Operand::Reg(dst));
            let (values, b, width) = (operand_row(regs, value), operand_row(regs, b), operand_row(regs, width));
            cross_lane::shuffle(mode, &values, &b, &width, active, &mut out);
            write_row(regs, dst, active, &out);
        }
        Instr::Vote { mode, dst, mask, pred } => {
            let mut out = operand_row(regs, Operand::Reg(dst));
            cross_lane::vote(mode, &operand_row(regs, pred), &operand_row(regs, mask), active, &mut out);
            write_row(regs, dst, active, &out);
        }
        Instr::Load { space, width, dst, addr, offset } => {
            let block = gather_addresses(regs, addr, offset, active, env.addresses)
                .filter(|_| space == Space::Global && width == Width::Word);
            check(space, active, block, width.bytes(), env, pc)?;
            let target = &mut regs[row(dst)..row(dst) + LANES];
            // Checked above: the reads cannot fail.
            match (space, width) {
                (Space::Global, Width::Word) => match block {
                    Some(base) => env.global.get_words(base, target),
                    None => for_lanes(active, |l| target[l] = env.global.word(env.addresses[l])),
                },
                (Space::Global, Width::Dword) => for_lanes(active, |l| {
                    let a = env.addresses[l];
                    regs[row(dst) + l] = env.global.word(a);
                    regs[row(dst) + LANES + l] = env.global.word(a + 4);
                }),
                (Space::Global, _) => for_lanes(active, |l| target[l] = env.global.narrow(env.addresses[l], width)),
                (Space::Shared, Width::Dword) => for_lanes(active, |l| {
                    let a = env.addresses[l];
                    regs[row(dst) + l] = env.shared.read(a).unwrap_or(0);
                    regs[row(dst) + LANES + l] = env.shared.read(a + 4).unwrap_or(0);
                }),
                (Space::Shared, Width::Word) => for_lanes(active, |l| target[l] = env.shared.word(env.addresses[l])),
                (Space::Shared, _) => {
                    for_lanes(active, |l| target[l] = env.shared.read_narrow(env.addresses[l], width).unwrap_or(0))
                }
            }
            outcome = Executed::Memory(MemAccess { space, kind: AccessKind::Load, mask: active, block });
        }
        Instr::Store { space, width, addr, offset, src } => {
            let block = gather_addresses(regs, addr, offset, active, env.addresses)
                .filter(|_| space == Space::Global && width == Width::Word);
            check(space, active, block, width.bytes(), env, pc)?;
            match block {
                // Checked above: the 32 words lie in one buffer.
                Some(base) => match operand(regs, src) {
                    Row::Lanes(values) => env.global.set_words(base, values),
                    Row::Splat(v) => env.global.set_words(base, &[v; LANES]),
                },
                // Lanes write in lane order, so when several hit one byte the highest lane wins.
                None if space == Space::Shared && width == Width::Word => {
                    for_lanes(active, |l| env.shared.set_word(env.addresses[l], read(regs, src, l)))
                }
                None => for_lanes(active, |l| {
                    let (a, v) = (env.addresses[l], read(regs, src, l));
                    // A double word's high half is the register after the source's (validation
                    // refuses an immediate source for one).
                    let high = || match src {
                        Operand::Reg(r) => regs[row(r) + LANES + l],
                        Operand::Imm(_) => 0,
                    };
                    match (space, width) {
                        (Space::Global, Width::Dword) => {
                            env.global.set_word(a, v);
                            env.global.set_word(a + 4, high());
                        }
                        (Space::Shared, Width::Dword) => {
                            let _ = env.shared.write(a, v);
                            let _ = env.shared.write(a + 4, high());
                        }
                        (Space::Global, Width::Word) => env.global.set_word(a, v),
                        (Space::Global, _) => env.global.set_narrow(a, width, v),
                        (Space::Shared, _) => {
                            let _ = env.shared.write_narrow(a, width, v);
                        }
                    }
                }),
            }
            outcome = Executed::Memory(MemAccess { space, kind: AccessKind::Store, mask: active, block });
        }
        Instr::Atomic { op, space, width: Width::Dword, dst, addr, src, compare } => {
            gather_addresses(regs, addr, 0, active, env.addresses);
            check(space, active, None, 8, env, pc)?;
            let pair = |regs: &[u32], o: Operand, l: usize| match o {
                Operand::Reg(r) => regs[row(r) + l] as u64 | (regs[row(r) + LANES + l] as u64) << 32,
                Operand::Imm(v) => v as u64,
            };
            // Lanes in lane order, as the 32-bit atomics.
            for_lanes(active, |l| {
                let a = env.addresses[l];
                let (lo, hi) = match space {
                    Space::Global => (env.global.word(a), env.global.word(a + 4)),
                    Space::Shared => (env.shared.read(a).unwrap_or(0), env.shared.read(a + 4).unwrap_or(0)),
                };
                let old = lo as u64 | (hi as u64) << 32;
                let new = alu::atomic64(op, old, pair(regs, src, l), pair(regs, compare, l));
                match space {
                    Space::Global => {
                        env.global.set_word(a, new as u32);
                        env.global.set_word(a + 4, (new >> 32) as u32);
                    }
                    Space::Shared => {
                        let _ = env.shared.write(a, new as u32);
                        let _ = env.shared.write(a + 4, (new >> 32) as u32);
                    }
                }
                regs[row(dst) + l] = lo;
                regs[row(dst) + LANES + l] = hi;
            });
            outcome = Executed::Memory(MemAccess { space, kind: AccessKind::Atomic, mask: active, block: None });
        }
        Instr::Atomic { op, space, dst, addr, src, compare, .. } => {
            gather_addresses(regs, addr, 0, active, env.addresses);
            check(space, active, None, 4, env, pc)?;
            // Lanes are serialised in lane order: the result is deterministic.
            for_lanes(active, |l| {
                let a = env.addresses[l];
                let old = match space {
                    Space::Global => env.global.word(a),
                    Space::Shared => env.shared.read(a).unwrap_or(0),
                };
                let new = alu::atomic(op, old, read(regs, src, l), read(regs, compare, l));
                match space {
                    Space::Global => env.global.set_word(a, new),
                    Space::Shared => {
                        let _ = env.shared.write(a, new);
                    }
                }
                regs[row(dst) + l] = old;
            });
            outcome = Executed::Memory(MemAccess { space, kind: AccessKind::Atomic, mask: active, block: None });
        }
        Instr::Spill { src, slot, pair } => {
            for k in 0..=pair as usize {
                let (from, to) = (row(src) + k * LANES, (slot as usize + k) * LANES);
                for_lanes(active, |l| warp.local[to + l] = regs[from + l]);
            }
            let block = local_addresses(place, slot, pair, active, env.addresses);
            outcome =
                Executed::Memory(MemAccess { space: Space::Global, kind: AccessKind::Store, mask: active, block });
        }
        Instr::Fill { dst, slot, pair } => {
            for k in 0..=pair as usize {
                let (from, to) = ((slot as usize + k) * LANES, row(dst) + k * LANES);
                for_lanes(active, |l| regs[to + l] = warp.local[from + l]);
            }
            let block = local_addresses(place, slot, pair, active, env.addresses);
            outcome = Executed::Memory(MemAccess { space: Space::Global, kind: AccessKind::Load, mask: active, block });
        }
        Instr::Branch { cond, negate, target, reconverge } => {
            let taken = match cond {
                None => active,
                Some(c) => {
                    // Every lane's bit at once, then the active ones kept: no per-lane branch.
                    let values = &regs[row(c)..row(c) + LANES];
                    let set = values.iter().enumerate().fold(0u32, |bits, (l, &v)| bits | ((v != 0) as u32) << l);
                    active & if negate { !set } else { set }
                }
            };
            warp.stack.branch(taken, target, reconverge);
            return Ok(Executed::Compute);
        }
        Instr::Bound { index, len, array } => {
            let mut out = 0u32;
            for_lanes(active, |l| out |= ((read(regs, index, l) >= len) as u32) << l);
            if out != 0 {
                let lane = out.trailing_zeros();
                let index = read(regs, index, lane as usize);
                return Err(Fault { pc, lane, kind: FaultKind::LocalIndex { array, index, len } });
            }
        }
        Instr::Barrier => outcome = Executed::Barrier,
        Instr::Launch { kernel, dims, args } => outcome = Executed::Launch { kernel, dims, args, mask: active },
        Instr::Exit => {
            warp.stack.exit(active);
            return Ok(if warp.stack.pc().is_none() { Executed::Finished } else { Executed::Compute });
        }
    }
    warp.stack.advance();
    Ok(outcome)
}

/// An operand for all lanes, a register read in place.
#[inline]
fn operand(regs: &[u32], op: Operand) -> Row<'_> {
    match op {
        Operand::Reg(r) => match regs[row(r)..row(r) + LANES].try_into() {
            Ok(lanes) => Row::Lanes(lanes),
            // Not reached: a range of `LANES` words always converts.
            Err(_) => Row::Splat(0),
        },
        Operand::Imm(v) => Row::Splat(v),
    }
}

/// All lanes' values of an operand, copied.
#[inline]
fn operand_row(regs: &[u32], op: Operand) -> [u32; LANES] {
    match op {
        Operand::Reg(r) => {
            let mut out = [0u32; LANES];
            out.copy_from_slice(&regs[row(r)..row(r) + LANES]);
            out
        }
        Operand::Imm(v) => [v; LANES],
    }
}

/// Writes `values` into `dst` for the lanes of `mask`.
#[inline]
fn write_row(regs: &mut [u32], dst: Reg, mask: u32, values: &[u32; LANES]) {
    let target = &mut regs[row(dst)..row(dst) + LANES];
    if mask == u32::MAX {
        target.copy_from_slice(values);
    } else {
        // A select per lane rather than a loop over the mask's bits: no branch per lane.
        for (l, (t, &v)) in target.iter_mut().zip(values).enumerate() {
            let keep = (mask >> l & 1).wrapping_sub(1);
            *t = (*t & keep) | (v & !keep);
        }
    }
}

/// Writes each lane's address (`addr` plus `offset`) into `out`; when every lane is active and
/// the addresses are 32 consecutive words, returns the first ([`consecutive_words`]).
fn gather_addresses(regs: &[u32], addr: Reg, offset: i32, mask: u32, out: &mut [u32; LANES]) -> Option<u32> {
    let base = &regs[row(addr)..row(addr) + LANES];
    if mask == u32::MAX {
        // Converged: a straight loop the compiler vectorises.
        for (o, &r) in out.iter_mut().zip(base) {
            *o = r.wrapping_add(offset as u32);
        }
        consecutive_words(out)
    } else {
        for_lanes(mask, |l| out[l] = base[l].wrapping_add(offset as u32));
        None
    }
}

/// Writes each lane's address of local memory word `slot` (a pair of words where `pair`) into
/// `out`, interleaved by lane ([`crate::isa::LOCAL_WINDOW_BASE`]); returns the first when every
/// lane moves one word, a block of 32 consecutive words.
fn local_addresses(place: &WarpPlace, slot: u16, pair: bool, mask: u32, out: &mut [u32; LANES]) -> Option<u32> {
    let stripe = place.local_base.wrapping_add(slot as u32 * 4 * LANES as u32);
    let step = 4 << pair as u32;
    for (l, a) in out.iter_mut().enumerate() {
        *a = stripe.wrapping_add(step * l as u32);
    }
    (mask == u32::MAX && !pair).then_some(stripe)
}

/// Checks every lane's access of `bytes` before any lane's effect is applied.
/// `block` is the first address when the lanes access 32 consecutive global words.
fn check(space: Space, mask: u32, block: Option<u32>, bytes: u32, env: &ExecEnv<'_>, pc: u32) -> Result<(), Fault> {
    let checked = match space {
        Space::Global => env.global.check_lanes(env.addresses, mask, block, bytes),
        Space::Shared => env.shared.check_lanes(env.addresses, mask, bytes),
    };
    checked.map_err(|(lane, error)| Fault {
        pc,
        lane,
        kind: FaultKind::Memory { space, address: env.addresses[lane as usize], error },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_words_are_a_block_only_in_order_and_without_wrapping() {
        let words = |f: &dyn Fn(u32) -> u32| core::array::from_fn::<u32, LANES, _>(|l| f(l as u32));
        assert_eq!(consecutive_words(&words(&|l| 0x100 + 4 * l)), Some(0x100));
        assert_eq!(consecutive_words(&words(&|l| 0x100 + 8 * l)), None, "a stride of two words");
        assert_eq!(consecutive_words(&words(&|l| 0x100 + 4 * (l ^ 1))), None, "pairs swapped");
        assert_eq!(consecutive_words(&words(&|l| u32::MAX - 127 + 4 * l)), Some(u32::MAX - 127));
        assert_eq!(consecutive_words(&words(&|l| (u32::MAX - 119).wrapping_add(4 * l))), None, "wraps");
    }

    #[test]
    fn thread_indices_step_through_the_block_like_unflatten() {
        // A 5 × 3 × 4 block: warps cross rows and planes mid-warp; a 64 × 2 × 2 block: warps
        // stay in one row.
        for (block, first_thread) in [((5, 3, 4), 0), ((5, 3, 4), 32), ((64, 2, 2), 0), ((64, 2, 2), 96)] {
            let block = Dim3 { x: block.0, y: block.1, z: block.2 };
            let place = WarpPlace {
                grid: Dim3::linear(1),
                block,
                block_idx: [0; 3],
                first_thread,
                warp_size: 32,
                local_base: 0,
            };
            for (axis, a) in [Axis::X, Axis::Y, Axis::Z].into_iter().enumerate() {
                let row = place.special_row(Special::ThreadIdx(a));
                for (lane, &value) in row.iter().enumerate() {
                    assert_eq!(value, block.unflatten(first_thread + lane as u32)[axis], "{a:?} lane {lane}");
                }
            }
        }
    }
}
