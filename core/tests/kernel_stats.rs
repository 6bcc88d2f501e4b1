//! Per-kernel-run statistics: each run's memory counts against hand-counted requests, every
//! count of the runs adding up to the GPU's totals, and a device-launched run's parent block
//! and SM.

use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn run_source(source: &str, gpu: &str, defines: &[(String, String)]) -> Report {
    let config = (presets::by_id(gpu).expect("a preset").build)();
    let program = compile(source, &CompileOptions { config: &config, defines, optimize: true }).expect("compiles");
    let mut sim = Simulation::new(config, program.workload, &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report()
}

/// A writer (2 warps, one store each), then a reader (8 warps, each two coalesced loads of one
/// 128-byte line and one store), then a kernel that only computes for some thousand cycles,
/// so that the stores, which nothing waits for, reach the L2 before the run ends.
const TWO_KERNELS: &str = "
    __global__ void writer(int* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = 7;
    }
    __global__ void reader(const int* a, int* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = a[i] + a[i + 256];
    }
    __global__ void drain(int* out) {
        int x = 1;
        for (int k = 0; k < 1000; k++) x = x * 3 + k;
        if (threadIdx.x > 1000) out[0] = x;
    }
    host {
        int a[512] = iota();
        int out[256];
        writer<<<2, 32>>>(out);
        reader<<<4, 64>>>(a, out);
        drain<<<1, 32>>>(out);
    }";

#[test]
fn each_run_counts_its_own_requests() {
    // The GTX 480's L1 has 128-byte lines of one sector: a warp's 32 consecutive words are
    // one request.
    let r = run_source(TWO_KERNELS, "fermi-gtx480", &[]);
    let (writer, reader, drain) = (&r.kernels[0], &r.kernels[1], &r.kernels[2]);
    assert_eq!((writer.name.as_str(), reader.name.as_str()), ("writer", "reader"));
    // Reader: 16 loads (each a miss: every line is read once, and the two halves of `a` are
    // different lines) and 8 stores forwarded.
    assert_eq!((reader.l1.accesses, reader.l1.misses, reader.l1.hits, reader.l1.forwarded), (24, 16, 0, 8));
    assert_eq!((reader.l2.accesses, reader.l2.writes), (16, 8));
    assert_eq!(reader.dram_reads, 16, "the L2 starts cold: every line comes from DRAM");
    // Writer: 2 stores, nothing read.
    assert_eq!((writer.l1.accesses, writer.l1.forwarded, writer.l1.misses), (2, 2, 0));
    assert_eq!((writer.l2.accesses, writer.l2.writes, writer.dram_reads), (0, 2, 0));
    assert_eq!((drain.l1.accesses, drain.l2.accesses + drain.l2.writes), (0, 0));
    assert_eq!((reader.parent, reader.parent_block, reader.parent_sm), (None, None, None));
}

/// Every SM's thread 0 of each parent block launches one child block.
const NESTED: &str = "
    __global__ void child(int* out, int parent) { out[parent * 32 + threadIdx.x] = parent; }
    __global__ void parent(int* out) {
        if (threadIdx.x == 0) child<<<1, 32>>>(out, blockIdx.x);
    }
    host { int out[128]; parent<<<4, 32>>>(out); }";

#[test]
fn a_device_launched_run_names_its_parent_block_and_sm() {
    let r = run_source(NESTED, "fermi-gtx480", &[]);
    let children: Vec<_> = r.kernels.iter().filter(|k| k.name == "child").collect();
    assert_eq!(children.len(), 4);
    let mut seen_blocks: Vec<u32> = children.iter().map(|k| k.parent_block.expect("a device launch")).collect();
    seen_blocks.sort();
    assert_eq!(seen_blocks, [0, 1, 2, 3]);
    for child in children {
        let block = child.parent_block.unwrap();
        let record = r.blocks.iter().find(|b| b.kernel == 0 && b.block == block).expect("the parent block ran");
        assert_eq!(child.parent_sm, Some(record.sm), "the SM the parent block ran on");
        assert_eq!(child.parent, Some(0));
    }
}

#[test]
fn the_runs_counts_add_up_to_the_totals() {
    // Reservation failures (the transpose's 34-line loads), write-backs, device launches,
    // concurrent streams.
    // And DeNovo's messages: registrations, forwarded reads, write-backs of owned data.
    for (id, gpu) in [
        ("pair-compute-memory", "cke-maxwell"),
        ("memcached", "ccws-fermi"),
        ("bfs-dp", "laperm-k20c"),
        ("bfs-dp", "ikra-denovo"),
        ("memcached", "ikra-denovo"),
    ] {
        let entry = library::by_id(id).unwrap();
        let r = run_source(entry.source, gpu, &[entry.size_define(entry.size.min)]);
        let sum = |f: &dyn Fn(&warpscope_core::stats::KernelReport) -> u64| r.kernels.iter().map(f).sum::<u64>();
        let l1 = &r.l1;
        for (name, total, runs) in [
            ("accesses", l1.accesses, sum(&|k| k.l1.accesses)),
            ("hits", l1.hits, sum(&|k| k.l1.hits)),
            ("intra_warp_hits", l1.intra_warp_hits, sum(&|k| k.l1.intra_warp_hits)),
            ("inter_warp_hits", l1.inter_warp_hits, sum(&|k| k.l1.inter_warp_hits)),
            ("intra_thread_hits", l1.intra_thread_hits, sum(&|k| k.l1.intra_thread_hits)),
            ("hit_reserved", l1.hit_reserved, sum(&|k| k.l1.hit_reserved)),
            ("misses", l1.misses, sum(&|k| k.l1.misses)),
            ("sector_misses", l1.sector_misses, sum(&|k| k.l1.sector_misses)),
            ("forwarded", l1.forwarded, sum(&|k| k.l1.forwarded)),
            ("evictions", l1.evictions, sum(&|k| k.l1.evictions)),
            ("fail_line_alloc", l1.fail_line_alloc, sum(&|k| k.l1.fail_line_alloc)),
            ("fail_mshr_entry", l1.fail_mshr_entry, sum(&|k| k.l1.fail_mshr_entry)),
            ("fail_mshr_merge", l1.fail_mshr_merge, sum(&|k| k.l1.fail_mshr_merge)),
            ("fail_miss_queue", l1.fail_miss_queue, sum(&|k| k.l1.fail_miss_queue)),
            ("lsu stall", r.sms.iter().map(|s| s.lsu_stall_cycles).sum(), sum(&|k| k.lsu_stall_cycles)),
            ("l2 accesses", r.l2.accesses, sum(&|k| k.l2.accesses)),
            ("l2 hits", r.l2.hits, sum(&|k| k.l2.hits)),
            ("l2 misses", r.l2.misses, sum(&|k| k.l2.misses)),
            ("l2 merges", r.l2.mshr_merges, sum(&|k| k.l2.mshr_merges)),
            ("l2 writes", r.l2.writes, sum(&|k| k.l2.writes)),
            ("l2 writebacks", r.l2.writebacks, sum(&|k| k.l2.writebacks)),
            ("dram reads", r.dram.reads, sum(&|k| k.dram_reads)),
            ("dram writes", r.dram.writes, sum(&|k| k.dram_writes)),
            ("owned writes", l1.owned_writes, sum(&|k| k.l1.owned_writes)),
            ("registrations", l1.registrations, sum(&|k| k.l1.registrations)),
            ("owned write-backs", l1.owned_writebacks, sum(&|k| k.l1.owned_writebacks)),
            ("l2 forwarded", r.l2.forwarded, sum(&|k| k.l2.forwarded)),
            ("l2 registrations", r.l2.registrations, sum(&|k| k.l2.registrations)),
            ("l2 l1 write-backs", r.l2.l1_writebacks, sum(&|k| k.l2.l1_writebacks)),
            ("packets", r.network.packets, sum(&|k| k.network.packets)),
            ("flits", r.network.flits, sum(&|k| k.network.flits)),
            ("flit-hops", r.network.flit_hops(), sum(&|k| k.network.flit_hops())),
            ("read flits", r.network.read.flits, sum(&|k| k.network.read.flits)),
            ("write flits", r.network.write.flits, sum(&|k| k.network.write.flits)),
            ("write-back flits", r.network.writeback.flits, sum(&|k| k.network.writeback.flits)),
            ("ownership flits", r.network.ownership.flits, sum(&|k| k.network.ownership.flits)),
        ] {
            assert_eq!(runs, total, "{id} on {gpu}: {name}");
        }
        assert!(r.kernels.len() >= 2, "{id}: more than one run to tell apart");
        assert_eq!(l1.intra_warp_hits + l1.inter_warp_hits, l1.hits, "{id}: every hit is one or the other");
        assert!(l1.intra_thread_hits <= l1.intra_warp_hits, "{id}");
    }
    // The transpose, not the compute kernel, takes the memory-pipeline stalls.
    let entry = library::by_id("pair-compute-memory").unwrap();
    let r = run_source(entry.source, "cke-maxwell", &[entry.size_define(entry.size.min)]);
    let stall = |name: &str| r.kernels.iter().filter(|k| k.name == name).map(|k| k.lsu_stall_cycles).sum::<u64>();
    assert!(stall("transpose_strided") > 10 * stall("compute_heavy").max(1));
}
