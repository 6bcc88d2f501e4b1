//! A purely functional run of one launch, with no timing: the reference the timing engine's
//! results are checked against, and a quick way to test kernels.
//!
//! Blocks run one after another; inside a block, warps take turns one instruction at a time,
//! and a barrier releases once every warp that has not finished reaches it.

use alloc::vec;
use alloc::vec::Vec;

use super::memory::{GlobalMemory, Region, SharedMemory};
use super::{
    for_each_launch, step, ExecEnv, Executed, Fault, LaunchProblem, MemAccess, WarpExec, WarpPlace, LANES,
    MAX_DEVICE_GRIDS,
};
use crate::isa::{Dim3, Kernel};
use crate::workload::Workload;

/// One kernel launch.
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    /// The kernel.
    pub kernel: &'a Kernel,
    /// Grid dimensions in blocks.
    pub grid: Dim3,
    /// Block dimensions in threads.
    pub block: Dim3,
    /// Parameter values, copied into registers `r0..` of every thread.
    pub args: &'a [u32],
    /// Lanes per warp.
    pub warp_size: u32,
    /// Bytes of dynamic shared memory per block, after the kernel's own.
    pub dynamic_shared: u32,
}

/// Why a reference run stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A warp faulted.
    Fault {
        /// Linear block index.
        block: u32,
        /// Warp within the block.
        warp: u32,
        /// The fault.
        fault: Fault,
    },
    /// The run executed `limit` warp instructions without finishing.
    TooLong {
        /// The bound that was hit.
        limit: u64,
    },
    /// A device-side launch that cannot run.
    BadLaunch {
        /// The child kernel.
        kernel: u32,
        /// What is wrong.
        problem: LaunchProblem,
    },
}

/// A grid launched by a device thread during a reference run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildLaunch {
    /// Index of the child kernel in the workload.
    pub code: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
    /// Argument words.
    pub args: Vec<u32>,
}

/// The outcome of [`run_workload`].
#[derive(Clone, Debug)]
pub struct WorkloadRun {
    /// Device memory at the end.
    pub memory: GlobalMemory,
    /// Where each buffer lives.
    pub regions: Vec<Region>,
    /// Warp instructions executed.
    pub warp_instructions: u64,
    /// Warp instructions executed by each kernel of the workload (device launches included).
    pub per_kernel: Vec<u64>,
    /// Grids launched from the device.
    pub device_launches: u64,
}

/// A block of a reference run: which grid (numbered from 0 in the order the grids ran) and
/// which block in it (linear index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RunBlock {
    /// The grid's run number.
    pub run: u32,
    /// Linear block index in the grid.
    pub block: u32,
}

/// Watches a reference run from the inside, for profilers that need more than the final
/// memory (which block touched what, who launched whom). `()` watches nothing and costs
/// nothing, so the plain runner is this one runner with `()`.
pub trait RunObserver {
    /// Grid `run` is about to run its `blocks` blocks; `launched_by` is the block whose thread
    /// launched it, `None` for a host launch. Runs are numbered from 0 in the order they run.
    fn grid_started(&mut self, _run: u32, _launched_by: Option<RunBlock>, _blocks: u32) {}

    /// Block `block` of the current grid executed a memory instruction (any space): the lanes
    /// of `access.mask` accessed `addresses[lane]`.
    fn memory_access(&mut self, _block: u32, _access: &MemAccess, _addresses: &[u32; LANES]) {}
}

impl RunObserver for () {}

/// Runs a whole workload functionally: host launches in program order, each followed by the
/// grids it launched from the device, breadth first, and the host's writes between launches
/// where they come. Concurrency between streams and between
/// parents and children is not modelled, so the results equal the timing engine's for
/// programs whose outcome does not depend on that order.
pub fn run_workload(workload: &Workload, warp_size: u32, limit: u64) -> Result<WorkloadRun, RunError> {
    run_workload_observed(workload, warp_size, limit, &mut ())
}

/// [`run_workload`], telling `observer` about every grid and memory access as it happens.
pub fn run_workload_observed<O: RunObserver + ?Sized>(
    workload: &Workload,
    warp_size: u32,
    limit: u64,
    observer: &mut O,
) -> Result<WorkloadRun, RunError> {
    let (mut memory, regions) = workload.materialize();
    let mut executed = 0u64;
    let mut per_kernel = vec![0u64; workload.kernels.len()];
    let mut device_launches = 0u64;
    let mut runs = 0u32;
    // Each grid waiting to run, with the block that launched it (none for the host's).
    let mut queue: alloc::collections::VecDeque<(ChildLaunch, Option<RunBlock>)> = alloc::collections::VecDeque::new();
    let mut children: Vec<(u32, ChildLaunch)> = Vec::new();
    let params: Vec<u32> = workload.kernels.iter().map(|k| k.params).collect();
    for (index, spec) in workload.launches.iter().enumerate() {
        workload.apply_copies_before(index as u32, &mut memory, &regions);
        let args = Workload::arg_words(spec, &regions);
        queue.push_back((ChildLaunch { code: spec.kernel, grid: spec.grid, block: spec.block, args }, None));
        while let Some((next, launched_by)) = queue.pop_front() {
            // Grids launched from the device take no dynamic shared memory.
            let dynamic_shared = if launched_by.is_none() { spec.dynamic_shared } else { 0 };
            if launched_by.is_some() {
                device_launches += 1;
                let problem = LaunchProblem::of_dimensions(next.grid, next.block)
                    .or((device_launches > MAX_DEVICE_GRIDS as u64).then_some(LaunchProblem::TooManyGrids));
                if let Some(problem) = problem {
                    return Err(RunError::BadLaunch { kernel: next.code, problem });
                }
            }
            let Some(kernel) = workload.kernels.get(next.code as usize) else {
                return Err(RunError::BadLaunch { kernel: next.code, problem: LaunchProblem::BadDimensions });
            };
            let run = runs;
            runs += 1;
            observer.grid_started(run, launched_by, next.grid.count() as u32);
            let launch =
                Launch { kernel, grid: next.grid, block: next.block, args: &next.args, warp_size, dynamic_shared };
            children.clear();
            let mut record = |block, child| children.push((block, child));
            let ran = run_blocks(launch, &mut memory, limit.saturating_sub(executed), &params, &mut record, observer)
                .map_err(|e| if let RunError::TooLong { .. } = e { RunError::TooLong { limit } } else { e })?;
            executed += ran;
            per_kernel[next.code as usize] += ran;
            queue.extend(children.drain(..).map(|(block, child)| (child, Some(RunBlock { run, block }))));
        }
    }
    workload.apply_copies_before(workload.launches.len() as u32, &mut memory, &regions);
    Ok(WorkloadRun { memory, regions, warp_instructions: executed, per_kernel, device_launches })
}

/// Runs `launch` to completion on `global`; returns the warp instructions executed. Grids it
/// launches from the device are not run (see [`run_workload`]).
pub fn run(launch: Launch<'_>, global: &mut GlobalMemory, limit: u64) -> Result<u64, RunError> {
    run_launching(launch, global, limit, &[], &mut Vec::new())
}

/// Runs `launch` like [`run`], appending the grids its threads launch to `children` in the
/// order the launching instructions executed (lanes in ascending order); `params[k]` is the
/// parameter count of kernel `k`.
pub fn run_launching(
    launch: Launch<'_>,
    global: &mut GlobalMemory,
    limit: u64,
    params: &[u32],
    children: &mut Vec<ChildLaunch>,
) -> Result<u64, RunError> {
    run_blocks(launch, global, limit, params, &mut |_, child| children.push(child), &mut ())
}

/// The block-by-block loop behind [`run_launching`]: `on_launch(block, child)` receives each
/// grid a thread of `block` launches, `observer` every memory access.
fn run_blocks<O: RunObserver + ?Sized>(
    launch: Launch<'_>,
    global: &mut GlobalMemory,
    limit: u64,
    params: &[u32],
    on_launch: &mut dyn FnMut(u32, ChildLaunch),
    observer: &mut O,
) -> Result<u64, RunError> {
    let threads = launch.block.count() as u32;
    let warps = threads.div_ceil(launch.warp_size);
    let regs_per_warp = launch.kernel.regs_per_thread as usize * LANES;
    let mut regs = vec![0u32; regs_per_warp * warps as usize];
    let mut execs: Vec<WarpExec> = (0..warps).map(|_| WarpExec::default()).collect();
    let shared_bytes = launch.kernel.block_shared_bytes(launch.dynamic_shared);
    let mut shared = SharedMemory::new(shared_bytes);
    let mut addresses = [0u32; LANES];
    let mut executed = 0u64;

    for block_index in 0..launch.grid.count() as u32 {
        let block_idx = launch.grid.unflatten(block_index);
        shared.reset(shared_bytes);
        let places: Vec<WarpPlace> = (0..warps)
            .map(|w| WarpPlace {
                grid: launch.grid,
                block: launch.block,
                block_idx,
                first_thread: w * launch.warp_size,
                warp_size: launch.warp_size,
                // Any frames apart do: only the timing model looks at local addresses.
                local_base: crate::isa::LOCAL_WINDOW_BASE
                    .wrapping_add((w as u64 * crate::workload::local_frame_bytes(launch.kernel.spill_words)) as u32),
            })
            .collect();
        regs.fill(0);
        for (w, exec) in execs.iter_mut().enumerate() {
            exec.stack.reset(places[w].live_mask());
            exec.local.clear();
            exec.local.resize(launch.kernel.spill_words as usize * LANES, 0);
            let warp_regs = &mut regs[w * regs_per_warp..(w + 1) * regs_per_warp];
            for (i, &arg) in launch.args.iter().enumerate() {
                warp_regs[i * LANES..(i + 1) * LANES].fill(arg);
            }
        }
        let mut at_barrier = vec![false; warps as usize];
        let mut finished = vec![false; warps as usize];
        while !finished.iter().all(|&f| f) {
            for w in 0..warps as usize {
                if finished[w] || at_barrier[w] {
                    continue;
                }
                if executed >= limit {
                    return Err(RunError::TooLong { limit });
                }
                executed += 1;
                let mut env = ExecEnv { global, shared: &mut shared, addresses: &mut addresses };
                let warp_regs = &mut regs[w * regs_per_warp..(w + 1) * regs_per_warp];
                match step(&launch.kernel.code, &mut execs[w], warp_regs, &places[w], &mut env) {
                    Ok(Executed::Finished) => finished[w] = true,
                    Ok(Executed::Barrier) => at_barrier[w] = true,
                    Ok(Executed::Launch { kernel, dims, args, mask }) => {
                        let params = params.get(kernel as usize).copied().unwrap_or(0) as usize;
                        for_each_launch(warp_regs, dims, args, params, mask, |_, grid, block, args| {
                            on_launch(block_index, ChildLaunch { code: kernel, grid, block, args });
                        });
                    }
                    Ok(Executed::Memory(access)) => observer.memory_access(block_index, &access, &addresses),
                    Ok(_) => {}
                    Err(fault) => return Err(RunError::Fault { block: block_index, warp: w as u32, fault }),
                }
            }
            // Release the barrier once every live warp waits at it.
            if (0..warps as usize).all(|w| finished[w] || at_barrier[w]) {
                at_barrier.fill(false);
            }
        }
    }
    Ok(executed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::memory::AccessError;
    use crate::exec::FaultKind;
    use crate::isa::builder::KernelBuilder;
    use crate::isa::{AluOp, AtomicOp, Axis, CmpOp, CmpType, Instr, Operand, Space, Special};

    fn launch<'a>(kernel: &'a Kernel, grid: u32, block: u32, args: &'a [u32]) -> Launch<'a> {
        Launch { kernel, grid: Dim3::linear(grid), block: Dim3::linear(block), args, warp_size: 32, dynamic_shared: 0 }
    }

    /// `i = blockIdx.x * blockDim.x + threadIdx.x` into a fresh register.
    fn global_index(b: &mut KernelBuilder) -> crate::isa::Reg {
        let (i, t) = (b.reg(), b.reg());
        b.special(i, Special::BlockIdx(Axis::X)).special(t, Special::BlockDim(Axis::X));
        b.alu(AluOp::Mul, i, i, t).special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Add, i, i, t);
        i
    }

    #[test]
    fn vector_add_with_a_bounds_check() {
        // c[i] = a[i] + b[i] for i < n, with n not a multiple of the block size.
        let mut b = KernelBuilder::new("vadd", 4);
        let (pa, pb, pc, n) = (b.param(0), b.param(1), b.param(2), b.param(3));
        let i = global_index(&mut b);
        let (inside, off, x, y) = (b.reg(), b.reg(), b.reg(), b.reg());
        let (done, join) = (b.label(), b.label());
        b.cmp(CmpOp::Lt, CmpType::Int, inside, i, n).branch_if(inside, true, done, join);
        b.alu(AluOp::Shl, off, i, Operand::Imm(2));
        b.alu(AluOp::Add, x, pa, off).load(Space::Global, x, x, 0);
        b.alu(AluOp::Add, y, pb, off).load(Space::Global, y, y, 0);
        b.alu(AluOp::Add, x, x, y).alu(AluOp::Add, off, pc, off).store(Space::Global, off, 0, x);
        b.place(done).place(join).exit();
        let kernel = b.build();

        let n = 1000u32;
        let mut mem = GlobalMemory::default();
        let (ra, rb, rc) = (mem.alloc(n * 4).unwrap(), mem.alloc(n * 4).unwrap(), mem.alloc(n * 4).unwrap());
        for k in 0..n as usize {
            mem.words_mut(ra)[k] = k as u32;
            mem.words_mut(rb)[k] = 3 * k as u32;
        }
        let args = [ra.base, rb.base, rc.base, n];
        run(launch(&kernel, n.div_ceil(128), 128, &args), &mut mem, 1 << 20).unwrap();
        let expected: Vec<u32> = (0..n).map(|k| 4 * k).collect();
        assert_eq!(mem.words(rc), expected.as_slice());
    }

    #[test]
    fn divergent_loops_give_each_lane_its_own_trip_count() {
        // out[t] = 0 + 1 + ... + t, summed in a loop whose trip count differs per lane.
        let mut b = KernelBuilder::new("triangle", 1);
        let out = b.param(0);
        let (t, k, sum, more, addr) = (b.reg(), b.reg(), b.reg(), b.reg(), b.reg());
        let (head, exit) = (b.label(), b.label());
        b.special(t, Special::ThreadIdx(Axis::X)).mov(k, Operand::Imm(0)).mov(sum, Operand::Imm(0));
        b.place(head).cmp(CmpOp::Le, CmpType::Int, more, k, t).branch_if(more, true, exit, exit);
        b.alu(AluOp::Add, sum, sum, k).alu(AluOp::Add, k, k, Operand::Imm(1)).jump(head);
        b.place(exit).alu(AluOp::Shl, addr, t, Operand::Imm(2)).alu(AluOp::Add, addr, addr, out);
        b.store(Space::Global, addr, 0, sum).exit();
        let kernel = b.build();

        let mut mem = GlobalMemory::default();
        let r = mem.alloc(64 * 4).unwrap();
        let executed = run(launch(&kernel, 1, 64, &[r.base]), &mut mem, 1 << 20).unwrap();
        let expected: Vec<u32> = (0..64).map(|t| t * (t + 1) / 2).collect();
        assert_eq!(mem.words(r), expected.as_slice());
        // A warp loops as long as its slowest lane: 3 set-up instructions, 5 per iteration
        // (cmp, branch, add, add, jump), the final cmp and branch, and a tail of 4 (shl, add,
        // store, exit). Lane 31 iterates 32 times, lane 63 64 times.
        assert_eq!(executed, (3 + 32 * 5 + 2 + 4) + (3 + 64 * 5 + 2 + 4));
    }

    #[test]
    fn a_barrier_orders_shared_memory_between_warps() {
        // Reverse a 64-element block in shared memory: write s[t], sync, read s[63 - t].
        let mut b = KernelBuilder::new("reverse", 1);
        b.shared(64 * 4);
        let out = b.param(0);
        let (t, a, v) = (b.reg(), b.reg(), b.reg());
        b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Shl, a, t, Operand::Imm(2));
        b.alu(AluOp::Mul, v, t, Operand::Imm(10)).store(Space::Shared, a, 0, v).barrier();
        b.alu(AluOp::Sub, v, Operand::Imm(63), t).alu(AluOp::Shl, v, v, Operand::Imm(2));
        b.load(Space::Shared, v, v, 0).alu(AluOp::Add, a, a, out).store(Space::Global, a, 0, v).exit();
        let kernel = b.build();

        let mut mem = GlobalMemory::default();
        let r = mem.alloc(64 * 4).unwrap();
        run(launch(&kernel, 1, 64, &[r.base]), &mut mem, 1 << 20).unwrap();
        let expected: Vec<u32> = (0..64).map(|t| (63 - t) * 10).collect();
        assert_eq!(mem.words(r), expected.as_slice());
    }

    #[test]
    fn atomics_count_every_lane() {
        // hist[t % 4] += 1 for 256 threads in 2 blocks: 64 per bin.
        let mut b = KernelBuilder::new("histogram", 1);
        let hist = b.param(0);
        let (t, a, old) = (b.reg(), b.reg(), b.reg());
        b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::And, a, t, Operand::Imm(3));
        b.alu(AluOp::Shl, a, a, Operand::Imm(2)).alu(AluOp::Add, a, a, hist);
        b.push(Instr::Atomic {
            op: AtomicOp::Add,
            space: Space::Global,
            width: crate::isa::Width::Word,
            dst: old,
            addr: a,
            src: Operand::Imm(1),
            compare: Operand::Imm(0),
        });
        b.exit();
        let kernel = b.build();
        let mut mem = GlobalMemory::default();
        let r = mem.alloc(16).unwrap();
        run(launch(&kernel, 2, 128, &[r.base]), &mut mem, 1 << 20).unwrap();
        assert_eq!(mem.words(r), [64, 64, 64, 64]);
    }

    #[test]
    fn an_out_of_bounds_store_faults_with_its_address_and_lane() {
        // out[t] = t for 80 threads, into a buffer of 32 words: warp 1 writes the padding of its
        // 256-byte allocation, and lane 0 of warp 2 faults just past it.
        let mut b = KernelBuilder::new("overflow", 1);
        let out = b.param(0);
        let (t, a) = (b.reg(), b.reg());
        b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Shl, a, t, Operand::Imm(2));
        b.alu(AluOp::Add, a, a, out).store(Space::Global, a, 0, t).exit();
        let kernel = b.build();
        let mut mem = GlobalMemory::default();
        let r = mem.alloc(32 * 4).unwrap();
        let err = run(launch(&kernel, 1, 80, &[r.base]), &mut mem, 1 << 20).unwrap_err();
        assert_eq!(
            err,
            RunError::Fault {
                block: 0,
                warp: 2,
                fault: Fault {
                    pc: 3,
                    lane: 0,
                    kind: FaultKind::Memory {
                        space: Space::Global,
                        address: r.base + 256,
                        error: AccessError::Unmapped
                    }
                }
            }
        );
    }

    #[test]
    fn a_bounds_check_faults_for_the_first_lane_out_of_range_only() {
        use alloc::string::ToString;
        // bound (t - 3) < 8 for 32 threads: lanes 0..3 are negative, lanes 11.. too large.
        // Behind a branch that only lanes 3..11 pass, nothing faults.
        let build = |guarded: bool| {
            let mut b = KernelBuilder::new("bound", 0);
            let (t, i, inside) = (b.reg(), b.reg(), b.reg());
            let (skip, join) = (b.label(), b.label());
            b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Sub, i, t, Operand::Imm(3));
            if guarded {
                b.cmp(CmpOp::Lt, CmpType::Uint, inside, i, Operand::Imm(8)).branch_if(inside, true, skip, join);
            }
            b.bound(i, 8).place(skip).place(join).exit();
            b.build()
        };
        let mut mem = GlobalMemory::default();
        let err = run(launch(&build(false), 1, 32, &[]), &mut mem, 1 << 10).unwrap_err();
        let fault = Fault { pc: 2, lane: 0, kind: FaultKind::LocalIndex { array: 0, index: (-3i32) as u32, len: 8 } };
        assert_eq!(err, RunError::Fault { block: 0, warp: 0, fault });
        assert_eq!(fault.to_string(), "lane 0 indexed a local array (8 elements) at -3 (instruction 2)");
        assert_eq!(
            fault.describe(Some("local array `x`")).to_string(),
            "lane 0 indexed local array `x` (8 elements) at -3 (instruction 2)"
        );
        assert!(run(launch(&build(true), 1, 32, &[]), &mut mem, 1 << 10).is_ok());
    }

    #[test]
    fn an_endless_loop_is_bounded() {
        let mut b = KernelBuilder::new("spin", 0);
        let head = b.label();
        b.place(head).jump(head);
        let kernel = b.build();
        let mut mem = GlobalMemory::default();
        assert_eq!(run(launch(&kernel, 1, 32, &[]), &mut mem, 1000), Err(RunError::TooLong { limit: 1000 }));
    }
}
