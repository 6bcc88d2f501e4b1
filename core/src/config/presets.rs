//! The papers' baseline machines and a current one, each one click in the app.
//!
//! Values come from the papers' tables where they state them and from the implementation notes'
//! suggested defaults where they do not (marked "suggested"). Ids are stable: share links and
//! saved sweeps refer to them, so an id is never reused or renamed.

use alloc::string::String;

use super::*;

/// A named machine.
pub struct Preset {
    /// Stable identifier used in links and on the command line.
    pub id: &'static str,
    /// Name shown to people.
    pub label: &'static str,
    /// Where its numbers come from.
    pub source: &'static str,
    /// Builds the configuration.
    pub build: fn() -> GpuConfig,
}

/// Every preset, in menu order.
pub const ALL: &[Preset] = &[
    Preset {
        id: "fermi-gtx480",
        label: "GTX 480-like (Fermi)",
        source: "CIAO baseline: 15 SMs, 16 KB 4-way L1 with XOR hash, 768 KB L2, 6 DRAM channels",
        build: fermi_gtx480,
    },
    Preset {
        id: "ccws-fermi",
        label: "CCWS baseline (30 cores)",
        source: "CCWS Table 1: 30 cores, 32 warps, 32 KB 8-way L1, 1 MB L2, 8 channels",
        build: ccws_fermi,
    },
    Preset {
        id: "ikra-denovo",
        label: "Inter-kernel reuse baseline (15 CUs, mesh)",
        source: "Inter-kernel reuse Table 2: 15 CUs, 128 KB L1s under DeNovo, 4 MB L2 on a 4×4 mesh",
        build: ikra_denovo,
    },
    Preset {
        id: "ikra-micro",
        label: "Inter-kernel reuse microbenchmarks (3 CUs)",
        source: "Inter-kernel reuse §5.4.1: the Table 2 machine with 3 CUs, 32 KB L1s and a 256 KB L2 (4 banks on a 2×2 mesh, suggested)",
        build: ikra_micro,
    },
    Preset {
        id: "laperm-k20c",
        label: "K20c-like (Kepler, 13 SMX)",
        source: "LaPerm Table I: 13 SMX, 64 warps, 16 TBs, 32 KB L1, 1.5 MB L2",
        build: laperm_k20c,
    },
    Preset {
        id: "cke-maxwell",
        label: "Maxwell-like (16 SMs, 4 schedulers)",
        source: "Concurrent-kernel Table 1: 16 SMs, 96 warps, 24 KB 6-way L1, 128 MSHRs, 2 MB L2",
        build: cke_maxwell,
    },
    Preset {
        id: "h100",
        label: "H100-like (132 SMs)",
        source: "132 SMs, 64 warps and 32 TBs per SM, 256 KB combined L1/shared, 50 MB sectored L2; caches as Accel-Sim models Hopper",
        build: h100,
    },
];

/// The preset with `id`.
pub fn by_id(id: &str) -> Option<&'static Preset> {
    ALL.iter().find(|p| p.id == id)
}

fn name(s: &str) -> String {
    String::from(s)
}

/// GTX 480 as configured for the CIAO paper (GPGPU-Sim 3.2.2, Table I).
pub fn fermi_gtx480() -> GpuConfig {
    GpuConfig {
        name: name("GTX 480-like (Fermi)"),
        core: CoreConfig {
            sm_count: 15,
            warp_size: 32,
            max_warps_per_sm: 48,
            max_tbs_per_sm: 8,
            max_threads_per_sm: 1536,
            registers_per_sm: 32768,
            shared_memory_per_sm: 48 * 1024,
            schedulers_per_sm: 2,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerSmPerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 4, interval: 1 },
            sfu: UnitTiming { latency: 20, interval: 4 },
            control: UnitTiming { latency: 1, interval: 1 },
            // GPGPU-Sim's GTX 480 configuration: a double add or multiply is 8 cycles, one warp
            // instruction every 8 (the GeForce part's 1/8 of the single-precision rate).
            fp64: UnitTiming::FP64_DEFAULT,
        },
        l1: L1Config {
            size_bytes: 16 * 1024,
            line_bytes: 128,
            sector_bytes: 128,
            ways: 4,
            replacement: Replacement::Lru,
            index: SetIndex::FermiHash,
            hit_latency: 1,
            mshr_entries: 32,
            mshr_max_merge: 8,
            miss_queue_entries: 8,
            write_policy: L1WritePolicy::WriteEvict,
            fill_bytes_per_cycle: 0,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 32, latency: 1 },
        // Suggested: an iSLIP crossbar reduced to a fixed 8 cycles each way, 32 B flits.
        interconnect: InterconnectConfig {
            topology: Topology::Crossbar,
            hop_latency: 8,
            flit_bytes: 32,
            flits_per_cycle: 1,
        },
        l2: L2Config {
            size_bytes: 768 * 1024,
            banks: 12,
            ways: 8,
            replacement: Replacement::Lru,
            index: SetIndex::FermiHash,
            hit_latency: 120,
            mshr_entries: 32,
            mshr_max_merge: 4,
            // Unsectored, one request per cycle, atomics in one pass: GPGPU-Sim's L2, as the paper ran it.
            sector_bytes: 128,
            bytes_per_cycle: 128,
            atomic_update_cycles: 0,
        },
        // 177.4 GB/s at a 700 MHz core clock is 253 B per cycle over 6 channels; FR-FCFS
        // queues of 16 requests.
        dram: DramConfig { channels: 6, latency: 100, bytes_per_cycle: 42, queue_entries: 16 },
        clocks: ClockConfig { core_mhz: 700, memory_mhz: 924 },
        coherence: Coherence::InvalidateL1,
        denovo: DenovoConfig::default(),
        device_launch: DeviceLaunchConfig::default(),
        window: WindowConfig::default(),
    }
}

/// The CCWS paper's machine (GPGPU-Sim 3.1.0, Table 1; unstated values suggested).
pub fn ccws_fermi() -> GpuConfig {
    GpuConfig {
        name: name("CCWS baseline (30 cores)"),
        core: CoreConfig {
            sm_count: 30,
            warp_size: 32,
            max_warps_per_sm: 32,
            max_tbs_per_sm: 8,
            max_threads_per_sm: 1024,
            registers_per_sm: 16384,
            shared_memory_per_sm: 16 * 1024,
            schedulers_per_sm: 1,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerSmPerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 4, interval: 1 },
            sfu: UnitTiming { latency: 20, interval: 4 },
            control: UnitTiming { latency: 1, interval: 1 },
            // A Fermi GPU as in GPGPU-Sim 3.x's GTX 480 configuration (8 cycles, 1/8 rate).
            fp64: UnitTiming::FP64_DEFAULT,
        },
        l1: L1Config {
            size_bytes: 32 * 1024,
            line_bytes: 128,
            sector_bytes: 128,
            ways: 8,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 20,
            mshr_entries: 16,
            mshr_max_merge: 4,
            miss_queue_entries: 4,
            write_policy: L1WritePolicy::WriteEvict,
            fill_bytes_per_cycle: 0,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 16, latency: 1 },
        interconnect: InterconnectConfig {
            topology: Topology::Crossbar,
            hop_latency: 8,
            flit_bytes: 32,
            flits_per_cycle: 1,
        },
        // Suggested latencies: about 100 cycles for an L2 hit and 250 for DRAM, round trip.
        l2: L2Config {
            size_bytes: 1024 * 1024,
            banks: 8,
            ways: 8,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 84,
            mshr_entries: 32,
            mshr_max_merge: 4,
            // Unsectored, one request per cycle, atomics in one pass: GPGPU-Sim's L2, as the paper ran it.
            sector_bytes: 128,
            bytes_per_cycle: 128,
            atomic_update_cycles: 0,
        },
        // 51.2 GB/s at 1300 MHz is 39 B per core cycle over 8 channels; request queues of 32.
        dram: DramConfig { channels: 8, latency: 150, bytes_per_cycle: 5, queue_entries: 32 },
        clocks: ClockConfig { core_mhz: 1300, memory_mhz: 800 },
        coherence: Coherence::InvalidateL1,
        denovo: DenovoConfig::default(),
        device_launch: DeviceLaunchConfig::default(),
        window: WindowConfig::default(),
    }
}

/// The inter-kernel reuse paper's GPU (Table 2) with DeNovo coherence: written data owned by its L1 across kernels.
pub fn ikra_denovo() -> GpuConfig {
    GpuConfig {
        name: name("Inter-kernel reuse baseline (15 CUs, mesh)"),
        core: CoreConfig {
            sm_count: 15,
            warp_size: 32,
            max_warps_per_sm: 48,
            max_tbs_per_sm: 8,
            max_threads_per_sm: 1536,
            registers_per_sm: 32768,
            shared_memory_per_sm: 16 * 1024,
            // The paper's GPU is GPGPU-Sim v3.2.1's Fermi core (its 700 MHz is the GTX 480's
            // 1 400 MHz shader clock halved, as that configuration runs it; 15 CUs, 48 warps and
            // 8 TBs per CU are its values), which has two warp schedulers per SM.
            schedulers_per_sm: 2,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerSmPerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 4, interval: 1 },
            sfu: UnitTiming { latency: 20, interval: 4 },
            control: UnitTiming { latency: 1, interval: 1 },
            // Not stated by the paper; GPGPU-Sim's Fermi figures (8 cycles, 1/8 rate).
            fp64: UnitTiming::FP64_DEFAULT,
        },
        l1: L1Config {
            size_bytes: 128 * 1024,
            line_bytes: 128,
            sector_bytes: 32,
            ways: 8,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 1,
            mshr_entries: 64,
            mshr_max_merge: 8,
            miss_queue_entries: 16,
            write_policy: L1WritePolicy::WriteThrough,
            fill_bytes_per_cycle: 0,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 32, latency: 1 },
        // Suggested fit of the paper's latency ranges: base + 2.67 cycles per hop on a 4×4 mesh.
        interconnect: InterconnectConfig {
            topology: Topology::Mesh { columns: 4, rows: 4 },
            hop_latency: 3,
            flit_bytes: 16,
            flits_per_cycle: 1,
        },
        l2: L2Config {
            size_bytes: 4 * 1024 * 1024,
            banks: 16,
            ways: 16,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 29,
            mshr_entries: 64,
            mshr_max_merge: 8,
            // Unsectored, one request per cycle, atomics in one pass: GPGPU-Sim's L2, as the paper ran it.
            sector_bytes: 128,
            bytes_per_cycle: 128,
            atomic_update_cycles: 0,
        },
        // Suggested: one memory controller moving about one line every 4 cycles, its queue
        // shared by all 16 banks.
        dram: DramConfig { channels: 1, latency: 168, bytes_per_cycle: 32, queue_entries: 64 },
        clocks: ClockConfig { core_mhz: 700, memory_mhz: 700 },
        coherence: Coherence::DeNovo,
        denovo: DenovoConfig::default(),
        device_launch: DeviceLaunchConfig::default(),
        window: WindowConfig::default(),
    }
}

/// The inter-kernel reuse paper's microbenchmark system (§5.4.1): its Table 2 GPU with 3 CUs,
/// 32 KB L1s and a 256 KB L2. The paper gives only the totals; 4 L2 banks on a 2×2 mesh (one
/// node per CU, the fourth for the CPU) are the notes' suggestion (ikra.md §2.2).
pub fn ikra_micro() -> GpuConfig {
    let mut config = ikra_denovo();
    config.name = name("Inter-kernel reuse microbenchmarks (3 CUs)");
    config.core.sm_count = 3;
    config.l1.size_bytes = 32 * 1024;
    config.l2.size_bytes = 256 * 1024;
    config.l2.banks = 4;
    config.interconnect.topology = Topology::Mesh { columns: 2, rows: 2 };
    config
}

/// K20c (GK110) as configured for the LaPerm paper (Table I; unstated values from the notes).
pub fn laperm_k20c() -> GpuConfig {
    GpuConfig {
        name: name("K20c-like (Kepler, 13 SMX)"),
        core: CoreConfig {
            sm_count: 13,
            warp_size: 32,
            max_warps_per_sm: 64,
            max_tbs_per_sm: 16,
            max_threads_per_sm: 2048,
            registers_per_sm: 65536,
            shared_memory_per_sm: 32 * 1024,
            schedulers_per_sm: 4,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 4, interval: 1 },
            sfu: UnitTiming { latency: 39, interval: 8 },
            control: UnitTiming { latency: 1, interval: 1 },
            // GK110 runs doubles at 1/3 of the single-precision rate (NVIDIA's Kepler GK110
            // whitepaper: 64 FP64 units per SMX beside 192 single-precision cores), so a warp
            // instruction takes 3 ALU intervals; GPGPU-Sim's 8-cycle double latency.
            fp64: UnitTiming { latency: 8, interval: 3 },
        },
        l1: L1Config {
            size_bytes: 32 * 1024,
            line_bytes: 128,
            sector_bytes: 128,
            ways: 4,
            replacement: Replacement::Lru,
            index: SetIndex::FermiHash,
            hit_latency: 20,
            mshr_entries: 32,
            mshr_max_merge: 8,
            miss_queue_entries: 8,
            write_policy: L1WritePolicy::WriteEvict,
            fill_bytes_per_cycle: 0,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 32, latency: 1 },
        interconnect: InterconnectConfig {
            topology: Topology::Crossbar,
            hop_latency: 8,
            flit_bytes: 32,
            flits_per_cycle: 1,
        },
        l2: L2Config {
            size_bytes: 1536 * 1024,
            banks: 12,
            ways: 8,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 120,
            mshr_entries: 32,
            mshr_max_merge: 4,
            // Unsectored, one request per cycle, atomics in one pass: GPGPU-Sim's L2, as the paper ran it.
            sector_bytes: 128,
            bytes_per_cycle: 128,
            atomic_update_cycles: 0,
        },
        // 249.6 GB/s at 706 MHz is 354 B per core cycle over 6 channels; GPGPU-Sim's usual
        // 16-request queues (suggested).
        dram: DramConfig { channels: 6, latency: 100, bytes_per_cycle: 59, queue_entries: 16 },
        clocks: ClockConfig { core_mhz: 706, memory_mhz: 2600 },
        coherence: Coherence::InvalidateL1,
        denovo: DenovoConfig::default(),
        // DTBL, the launch path of the paper's headline results (Fig. 9b); its latency is the
        // notes' suggestion (500 cycles) and the group tables are the paper's (128 per SMX).
        device_launch: DeviceLaunchConfig { path: LaunchPath::Dtbl, ..DeviceLaunchConfig::default() },
        window: WindowConfig::default(),
    }
}

/// The concurrent-kernel paper's Maxwell-like GPU (Table 1; unstated values from the notes).
pub fn cke_maxwell() -> GpuConfig {
    GpuConfig {
        name: name("Maxwell-like (16 SMs, 4 schedulers)"),
        core: CoreConfig {
            sm_count: 16,
            warp_size: 32,
            max_warps_per_sm: 96,
            max_tbs_per_sm: 16,
            max_threads_per_sm: 3072,
            registers_per_sm: 65536,
            shared_memory_per_sm: 96 * 1024,
            schedulers_per_sm: 4,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerSmPerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 6, interval: 1 },
            sfu: UnitTiming { latency: 20, interval: 4 },
            control: UnitTiming { latency: 1, interval: 1 },
            // Maxwell GM2xx runs doubles at 1/32 of the single-precision rate (4 FP64 units per
            // SMM, one per scheduler): a warp instruction every 32 cycles; GPGPU-Sim's 8-cycle
            // double latency.
            fp64: UnitTiming { latency: 8, interval: 32 },
        },
        l1: L1Config {
            size_bytes: 24 * 1024,
            line_bytes: 128,
            sector_bytes: 128,
            ways: 6,
            replacement: Replacement::Lru,
            index: SetIndex::FermiHash,
            hit_latency: 28,
            mshr_entries: 128,
            mshr_max_merge: 8,
            miss_queue_entries: 8,
            write_policy: L1WritePolicy::WriteEvict,
            fill_bytes_per_cycle: 0,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 32, latency: 24 },
        interconnect: InterconnectConfig {
            topology: Topology::Crossbar,
            hop_latency: 8,
            flit_bytes: 32,
            flits_per_cycle: 1,
        },
        l2: L2Config {
            size_bytes: 2048 * 1024,
            banks: 16,
            ways: 16,
            replacement: Replacement::Lru,
            index: SetIndex::FermiHash,
            hit_latency: 104,
            mshr_entries: 128,
            mshr_max_merge: 8,
            // Unsectored, one request per cycle, atomics in one pass: GPGPU-Sim's L2, as the paper ran it.
            sector_bytes: 128,
            bytes_per_cycle: 128,
            atomic_update_cycles: 0,
        },
        // "48 bytes/cycle" read as the total per core cycle, over 16 channels; GPGPU-Sim's
        // usual 16-request queues (suggested).
        dram: DramConfig { channels: 16, latency: 200, bytes_per_cycle: 3, queue_entries: 16 },
        clocks: ClockConfig { core_mhz: 1400, memory_mhz: 924 },
        coherence: Coherence::InvalidateL1,
        denovo: DenovoConfig::default(),
        device_launch: DeviceLaunchConfig::default(),
        window: WindowConfig::default(),
    }
}

/// A current data-centre GPU in the spirit of the H100 SXM (public figures, rounded).
pub fn h100() -> GpuConfig {
    GpuConfig {
        name: name("H100-like (132 SMs)"),
        core: CoreConfig {
            sm_count: 132,
            warp_size: 32,
            max_warps_per_sm: 64,
            max_tbs_per_sm: 32,
            max_threads_per_sm: 2048,
            registers_per_sm: 65536,
            // 256 KB combined: 128 KB carved out as shared memory, 128 KB left as L1.
            shared_memory_per_sm: 128 * 1024,
            schedulers_per_sm: 4,
            issue_width: 1,
            tb_dispatch: TbDispatchRate::OnePerSmPerCycle,
        },
        pipeline: PipelineConfig {
            alu: UnitTiming { latency: 4, interval: 1 },
            sfu: UnitTiming { latency: 16, interval: 2 },
            control: UnitTiming { latency: 1, interval: 1 },
            // H100 runs doubles at 1/2 of the single-precision rate (64 FP64 units per SM, 16 per
            // scheduler): a warp instruction every 2 cycles; GPGPU-Sim's 8-cycle double latency.
            fp64: UnitTiming { latency: 8, interval: 2 },
        },
        // The L1 as Accel-Sim models Hopper (gpgpu-sim_distribution, configs/tested-cfgs/
        // SM90_H100/gpgpusim.config: `-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:64,16:0,32` with
        // `-gpgpu_adaptive_cache_config 1`): 4 sets of 128 B lines in 32 B sectors, linearly
        // indexed, the ways growing with the capacity left to the L1 (here 128 KB: 256 ways), so
        // the set index hardly matters; write-through; 512 MSHRs merging up to 64 requests; a
        // miss queue of 16. Its data array is 4 banks of 32 B (`-gpgpu_l1_banks 4`): 128 B a
        // cycle, which a fill takes from the LSU as a hit does (one array, one port).
        l1: L1Config {
            size_bytes: 128 * 1024,
            line_bytes: 128,
            sector_bytes: 32,
            ways: 256,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 33,
            mshr_entries: 512,
            mshr_max_merge: 64,
            miss_queue_entries: 16,
            write_policy: L1WritePolicy::WriteThrough,
            fill_bytes_per_cycle: 128,
            mshr_partition: MshrPartition::Shared,
            partition: L1Partition::None,
            ucp_period: 50_000,
        },
        shared_memory: SharedMemoryConfig { banks: 32, latency: 23 },
        interconnect: InterconnectConfig {
            topology: Topology::Crossbar,
            hop_latency: 20,
            flit_bytes: 32,
            flits_per_cycle: 2,
        },
        // 50 MB in 80 banks of 256 sets × 20 ways of 128 B lines in 32 B sectors (Accel-Sim's
        // Hopper: `-gpgpu_cache:dl2 S:256:128:20,L:B:m:L:X,A:384:4,32:0,32` per sub-partition, 40
        // channels × 2 sub-partitions), 384 MSHRs merging 4 per bank. Each bank moves 64 B a cycle:
        // the A100 whitepaper gives its L2 5120 B/clk of read bandwidth, 64 B/clk for each of
        // its 80 slices, and Hopper's L2 is that design grown. Updates of one address are applied
        // one per cycle: "one operation per clock" for atomics to a common address since Kepler
        // (GK110 whitepaper).
        l2: L2Config {
            size_bytes: 50 * 1024 * 1024,
            banks: 80,
            ways: 20,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 160,
            mshr_entries: 384,
            mshr_max_merge: 4,
            sector_bytes: 32,
            bytes_per_cycle: 64,
            atomic_update_cycles: 1,
        },
        // About 3.35 TB/s at 1755 MHz: 1900 B per core cycle over 40 channels; queues of 64
        // (suggested).
        dram: DramConfig { channels: 40, latency: 350, bytes_per_cycle: 48, queue_entries: 64 },
        clocks: ClockConfig { core_mhz: 1755, memory_mhz: 2619 },
        coherence: Coherence::InvalidateL1,
        denovo: DenovoConfig::default(),
        device_launch: DeviceLaunchConfig::default(),
        window: WindowConfig::default(),
    }
}
