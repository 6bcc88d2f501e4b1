//! The simulated machine: every hardware parameter, named and documented, with validation.
//!
//! All latencies and bandwidths are in **core cycles** (the SM clock), the unit the engine
//! ticks in; `clocks` only turns cycles into seconds for reports. Sizes are in bytes.
//! [`GpuConfig::validate`] rejects anything the engine cannot model, naming the field by its
//! dotted path (`l1.ways`) and the reason.

pub mod device_launch;
pub mod fields;
pub mod gpgpusim;
pub mod presets;

use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
pub use crate::mem::cache::Replacement;
pub use device_launch::{DeviceLaunchConfig, InsertSearch, KduRelease, LaunchPath};

/// A whole GPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuConfig {
    /// Human-readable name ("GTX 480-like (CIAO baseline)").
    pub name: String,
    /// SM count and per-SM limits.
    pub core: CoreConfig,
    /// Functional-unit timing.
    pub pipeline: PipelineConfig,
    /// Per-SM L1 data cache.
    pub l1: L1Config,
    /// Per-SM shared memory timing (its size is `core.shared_memory_per_sm`).
    pub shared_memory: SharedMemoryConfig,
    /// Network between SMs and L2 banks.
    pub interconnect: InterconnectConfig,
    /// Shared L2 cache.
    pub l2: L2Config,
    /// Off-chip memory.
    pub dram: DramConfig,
    /// Clock frequencies, for converting cycles to time in reports.
    pub clocks: ClockConfig,
    /// What happens to L1 contents at a kernel boundary, and who may hold written data.
    pub coherence: Coherence,
    /// DeNovo's timing (used only under [`Coherence::DeNovo`]).
    #[serde(default)]
    pub denovo: DenovoConfig,
    /// Kernels launched from the device (dynamic parallelism).
    #[serde(default)]
    pub device_launch: DeviceLaunchConfig,
    /// How long a run lasts: to the end of its launch sequence, or a fixed window.
    #[serde(default)]
    pub window: WindowConfig,
}

/// SM count and what one SM can hold at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreConfig {
    /// Streaming multiprocessors (CUs, SMXs).
    pub sm_count: u32,
    /// Threads per warp (lanes executed together). 1 to 32.
    pub warp_size: u32,
    /// Resident warps per SM (warp slots).
    pub max_warps_per_sm: u32,
    /// Resident thread blocks per SM (TB slots).
    pub max_tbs_per_sm: u32,
    /// Resident threads per SM.
    pub max_threads_per_sm: u32,
    /// 32-bit registers per SM, shared by all resident threads.
    pub registers_per_sm: u32,
    /// Shared memory per SM in bytes, allocated per thread block.
    pub shared_memory_per_sm: u32,
    /// Warp schedulers per SM; warp slot `s` belongs to scheduler `s % schedulers_per_sm`.
    pub schedulers_per_sm: u32,
    /// Instructions each scheduler may issue per cycle (from different warps).
    pub issue_width: u32,
    /// How many thread blocks the dispatcher may place per cycle.
    pub tb_dispatch: TbDispatchRate,
}

/// Thread-block dispatch rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TbDispatchRate {
    /// Each SM may receive one new thread block per cycle (GPGPU-Sim's behaviour).
    OnePerSmPerCycle,
    /// One thread block per cycle for the whole GPU (LaPerm's baseline).
    OnePerCycle,
}

/// Latency (cycles until the result may be read) and initiation interval (cycles until the
/// unit accepts the next warp instruction) of a functional unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitTiming {
    /// Cycles from issue until dependants may issue.
    pub latency: u32,
    /// Cycles from issue until the unit accepts another instruction.
    pub interval: u32,
}

/// Timing of the execution units (one set per warp scheduler).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineConfig {
    /// Integer and single-precision ALU (add, multiply, compare, logic, conversion).
    pub alu: UnitTiming,
    /// Special-function unit (divide, square root, exponential, trigonometric).
    pub sfu: UnitTiming,
    /// Branches, barriers and other control instructions.
    pub control: UnitTiming,
    /// Double-precision arithmetic and conversions (`double`); 64-bit integers use the ALU.
    /// Older configurations without it get [`UnitTiming::FP64_DEFAULT`].
    #[serde(default = "UnitTiming::fp64_default")]
    pub fp64: UnitTiming,
}

impl UnitTiming {
    /// The FP64 unit of a configuration that names none: GPGPU-Sim's Fermi figures for a double
    /// add or multiply (`-ptx_opcode_latency_dp` 8, `-ptx_opcode_initiation_dp` 8, the
    /// GTX 480's 1/8 rate).
    pub const FP64_DEFAULT: UnitTiming = UnitTiming { latency: 8, interval: 8 };

    fn fp64_default() -> UnitTiming {
        UnitTiming::FP64_DEFAULT
    }
}

/// How a cache maps a line address to a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetIndex {
    /// Low-order line-address bits (`line % sets`).
    Linear,
    /// Fermi's XOR hash of upper address bits into the set index (32 or 64 sets).
    FermiHash,
}

/// What a store does in the L1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum L1WritePolicy {
    /// Write-through, no allocate; a store hit evicts the line (GPGPU-Sim's global policy).
    WriteEvict,
    /// Write-through, no allocate; a store hit updates the line in place.
    WriteThrough,
}

/// Per-SM L1 data cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1Config {
    /// Capacity in bytes. 0 disables the L1 (every access goes to L2).
    pub size_bytes: u32,
    /// Line size in bytes (128 on NVIDIA GPUs).
    pub line_bytes: u32,
    /// Sector size in bytes: the unit fetched on a miss (32). Equal to the line for unsectored caches.
    pub sector_bytes: u32,
    /// Lines per set.
    pub ways: u32,
    /// Replacement policy.
    pub replacement: Replacement,
    /// Set indexing.
    pub index: SetIndex,
    /// Cycles from access to data for a hit.
    pub hit_latency: u32,
    /// Miss status holding registers: distinct lines that may be outstanding.
    pub mshr_entries: u32,
    /// Requests that may merge into one MSHR entry (including the first).
    pub mshr_max_merge: u32,
    /// Entries of the queue from the L1 towards the interconnect.
    pub miss_queue_entries: u32,
    /// Store behaviour.
    pub write_policy: L1WritePolicy,
    /// Bytes the L1's data array writes per cycle for a fill: a fill holds the array for its
    /// bytes' cycles, in which the LSU presents no request (a miss costs the memory pipeline its
    /// lookup and its fill, a hit its lookup). 0: fills have a port of their own and cost the
    /// LSU nothing, as in GPGPU-Sim.
    pub fill_bytes_per_cycle: u32,
    /// Whether co-running kernels share the MSHRs or each has its own share.
    #[serde(default)]
    pub mshr_partition: MshrPartition,
    /// Whether co-running kernels share the ways or UCP partitions them.
    #[serde(default)]
    pub partition: L1Partition,
    /// Under UCP, cycles between splits of the ways (the notes suggest 50,000; the paper does
    /// not say).
    #[serde(default = "ucp_period")]
    pub ucp_period: u32,
}

fn ucp_period() -> u32 {
    50_000
}

/// How co-running kernels (host streams) share an L1's ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum L1Partition {
    /// Any miss may take any way.
    #[default]
    None,
    /// Utility-based cache partitioning (Qureshi & Patt) among the kernels.
    Ucp,
}

/// How co-running kernels (host streams) share an L1's MSHRs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MshrPartition {
    /// Any request may take any free entry.
    #[default]
    Shared,
    /// Each kernel may hold at most the entries over the number of co-running kernels (the
    /// concurrent-kernel paper's MSHR partitioning, §4.5).
    PerKernel,
}

/// Per-SM shared memory (scratchpad) timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedMemoryConfig {
    /// Banks; lanes hitting different words of one bank serialise.
    pub banks: u32,
    /// Cycles from access to data without bank conflicts.
    pub latency: u32,
}

/// Network topology between SMs and L2 banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Topology {
    /// Every SM reaches every L2 bank in one hop.
    Crossbar,
    /// A 2-D mesh of `columns × rows` nodes; SMs and L2 banks are spread over the nodes and
    /// packets take dimension-order (X then Y) routes.
    Mesh {
        /// Nodes per row.
        columns: u32,
        /// Rows.
        rows: u32,
    },
}

/// The interconnect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterconnectConfig {
    /// Shape of the network.
    pub topology: Topology,
    /// Cycles per hop (crossbar: the whole traversal).
    pub hop_latency: u32,
    /// Bytes per flit; a packet is one header flit plus its data in flits.
    pub flit_bytes: u32,
    /// Flits each port (SM or L2 bank) can inject per cycle.
    pub flits_per_cycle: u32,
}

/// Shared L2 cache, split into address-interleaved banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct L2Config {
    /// Total capacity in bytes over all banks.
    pub size_bytes: u32,
    /// Banks (slices); line `l` lives in bank `l % banks`.
    pub banks: u32,
    /// Lines per set.
    pub ways: u32,
    /// Replacement policy.
    pub replacement: Replacement,
    /// Set indexing within a bank.
    pub index: SetIndex,
    /// Cycles from a request's arrival at its bank to the reply for a hit.
    pub hit_latency: u32,
    /// MSHR entries per bank.
    pub mshr_entries: u32,
    /// Requests that may merge into one L2 MSHR entry.
    pub mshr_max_merge: u32,
    /// The unit the L2 keeps valid and dirty and moves to and from DRAM: a miss fetches only
    /// the sectors asked for, a write-back writes only dirty sectors. The line size for an
    /// unsectored L2.
    pub sector_bytes: u32,
    /// Bytes a bank's data path moves per cycle: a request holds its bank for the cycles its
    /// data takes (at least one). At least the line size: one request per cycle, any size.
    pub bytes_per_cycle: u32,
    /// Cycles a bank's atomic unit takes per update of one address: an atomic request whose
    /// lanes update one address `k` times holds the bank `k` × this, since updates of one
    /// address are applied one after another. 0: an atomic request takes one pass like a load,
    /// however many lanes share an address (GPGPU-Sim's model, which the papers used).
    pub atomic_update_cycles: u32,
}

/// Off-chip memory: channels with a fixed access latency and a bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramConfig {
    /// Independent channels; L2 bank `b` uses channel `b % channels`.
    pub channels: u32,
    /// Cycles from the start of service to data, unloaded.
    pub latency: u32,
    /// Bytes each channel transfers per core cycle.
    pub bytes_per_cycle: u32,
    /// Requests each channel can hold waiting for their transfer to start. A read that finds
    /// them all taken holds its L2 bank (which takes nothing new) until one starts.
    pub queue_entries: u32,
}

/// Clock frequencies. The engine counts core cycles; these convert them to time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockConfig {
    /// SM clock in MHz.
    pub core_mhz: u32,
    /// Memory (DRAM command) clock in MHz, for reference.
    pub memory_mhz: u32,
}

/// A fixed measurement window: the concurrent-kernel papers' protocol (`cke.md` §1.0), in which
/// all kernels start together, a kernel that completes is launched again at once, and the run
/// lasts exactly the window, so that every kernel is measured over the same cycles beside its
/// co-runners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowConfig {
    /// Cycles the run lasts, each stream starting its launch sequence again whenever it
    /// completes; 0 runs the launch sequence once, to its end.
    pub cycles: u32,
}

/// The coherence protocol between the L1s: what a store does and what an L1 keeps when one
/// kernel ends and the next begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coherence {
    /// Conventional GPU coherence: stores write through to the L2 (`l1.write_policy`) and
    /// every L1 is invalidated at a kernel boundary.
    InvalidateL1,
    /// DeNovo (the IKRA paper's protocol, `mem/denovo`): a store makes its sectors *Owned* by
    /// the writing L1, which keeps them (write-back) and registers itself at the home L2 bank;
    /// a read of a sector another L1 owns is forwarded there; at a kernel boundary an L1 drops
    /// only what it does not own.
    DeNovo,
    /// A what-if, not a protocol: every L1 keeps everything across kernels, even lines another
    /// SM has since overwritten, and stores write through as under GPU coherence. It shows the
    /// most any L1 reuse across kernels could give, and is wrong as a model of a real machine.
    KeepL1,
}

/// DeNovo's settings beyond the caches and the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DenovoConfig {
    /// Cycles the owning L1 takes to answer a read forwarded to it by the L2, before its data
    /// leaves: a remote-L1 hit costs the L2's lookup, this, and three network legs.
    pub remote_l1_latency: u32,
    /// What a kernel boundary does to valid data no kernel wrote since the previous boundary.
    #[serde(default)]
    pub read_only: ReadOnlyData,
}

/// DeNovo's valid (not owned) data of buffers no kernel wrote since the previous kernel
/// boundary, at the next boundary (ikra.md §6: the paper does not say whether DeNovo's
/// read-only regions were used; the notes' default is plain DeNovo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadOnlyData {
    /// Plain DeNovo: dropped with every other valid sector an L1 does not own.
    #[default]
    SelfInvalidate,
    /// DeNovo's read-only regions: kept. A buffer counts as read-only for a boundary when no
    /// store or atomic reached it since the one before, which is safe for programs free of
    /// data races (a kernel that writes it makes every copy go at the next boundary).
    Keep,
}

impl Default for DenovoConfig {
    fn default() -> Self {
        // The IKRA paper's Table 2 gives remote-L1 hits 35–83 cycles and L2 hits 29–61; fitted
        // as base + per-hop cost (ikra.md §2.2), the bases differ by 35 − 29 = 6 cycles, which
        // is the owning L1's share once the network legs are counted apart.
        DenovoConfig { remote_l1_latency: 6, read_only: ReadOnlyData::SelfInvalidate }
    }
}

/// Largest values accepted, so that sizes and counts stay far from overflow and memory stays
/// bounded in the browser.
mod limits {
    pub const SMS: u32 = 1024;
    pub const WARPS_PER_SM: u32 = 256;
    pub const TBS_PER_SM: u32 = 256;
    /// L2 ways: a bank's set is searched by a scan.
    pub const WAYS: u32 = 64;
    /// L1 ways: wide sets are found through a line table, and real L1s are near fully
    /// associative (the H100-like L1 has 256 ways a set).
    pub const L1_WAYS: u32 = 1024;
    pub const LATENCY: u32 = 100_000;
    /// MSHR entries (L1 and L2), miss-queue and DRAM-queue entries. Real GPUs and GPGPU-Sim's
    /// configurations stay in the hundreds; with merges of up to 64 the L1's token slots come to
    /// at most 1024 × 64 × 4 B = 256 KiB per SM.
    pub const QUEUE: u32 = 1024;
    pub const CACHE_BYTES: u32 = 1 << 30;
    /// A measurement window: the papers' 2M cycles and far beyond, within the run's default
    /// cycle limit (100 M).
    pub const WINDOW_CYCLES: u32 = 100_000_000;
}

fn err(field: &str, reason: impl Into<String>) -> Result<(), ConfigError> {
    Err(ConfigError::new(field, reason))
}

/// `value` must lie in `min..=max`.
fn range(field: &str, value: u32, min: u32, max: u32) -> Result<(), ConfigError> {
    if value < min || value > max {
        return err(field, format!("must be between {min} and {max}, got {value}"));
    }
    Ok(())
}

fn power_of_two(field: &str, value: u32) -> Result<(), ConfigError> {
    if !value.is_power_of_two() {
        return err(field, format!("must be a power of two, got {value}"));
    }
    Ok(())
}

fn unit(field: &str, timing: UnitTiming) -> Result<(), ConfigError> {
    range(&format!("{field}.latency"), timing.latency, 1, limits::LATENCY)?;
    range(&format!("{field}.interval"), timing.interval, 1, limits::LATENCY)
}

/// Checks a cache's sector size against its `line` size: a power of two, at least a word, and
/// at most 32 to a line (sectors are tracked in a 32-bit mask).
fn sector_size(field: &str, sector: u32, line: u32) -> Result<(), ConfigError> {
    power_of_two(field, sector)?;
    range(field, sector, 4, line)?;
    if line / sector > 32 {
        return err(
            field,
            format!(
                "a line holds at most 32 sectors: {line} B lines need sectors of at least {} B, got {sector}",
                line / 32
            ),
        );
    }
    Ok(())
}

/// Checks a set-associative geometry; returns the number of sets.
fn cache_geometry(prefix: &str, size: u32, line: u32, ways: u32, index: SetIndex) -> Result<u32, ConfigError> {
    let max_ways = if prefix == "l1" { limits::L1_WAYS } else { limits::WAYS };
    range(&format!("{prefix}.ways"), ways, 1, max_ways)?;
    let set_bytes = line as u64 * ways as u64;
    if size as u64 % set_bytes != 0 || size == 0 {
        return Err(ConfigError::new(
            format!("{prefix}.size_bytes"),
            format!(
                "must be a non-zero multiple of line size × ways = {line} × {ways} = {set_bytes} bytes, got {size}"
            ),
        ));
    }
    let sets = (size as u64 / set_bytes) as u32;
    if index == SetIndex::FermiHash && sets != 32 && sets != 64 {
        return Err(ConfigError::new(
            format!("{prefix}.index"),
            format!("the Fermi hash is defined for 32 or 64 sets; this geometry has {sets} (use Linear)"),
        ));
    }
    Ok(sets)
}

impl GpuConfig {
    /// Checks every field; the error names the first that cannot be simulated.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let c = &self.core;
        range("core.sm_count", c.sm_count, 1, limits::SMS)?;
        range("core.warp_size", c.warp_size, 1, 32)?;
        range("core.max_warps_per_sm", c.max_warps_per_sm, 1, limits::WARPS_PER_SM)?;
        range("core.max_tbs_per_sm", c.max_tbs_per_sm, 1, limits::TBS_PER_SM)?;
        range("core.max_threads_per_sm", c.max_threads_per_sm, c.warp_size, c.max_warps_per_sm * c.warp_size)?;
        range("core.registers_per_sm", c.registers_per_sm, c.warp_size, 1 << 24)?;
        range("core.shared_memory_per_sm", c.shared_memory_per_sm, 0, limits::CACHE_BYTES)?;
        range("core.schedulers_per_sm", c.schedulers_per_sm, 1, c.max_warps_per_sm)?;
        range("core.issue_width", c.issue_width, 1, 8)?;

        let launch = &self.device_launch;
        range("device_launch.latency", launch.latency, 0, 1_000_000)?;
        range("device_launch.kdu_entries", launch.kdu_entries, 1, 1024)?;
        range("device_launch.kernel_launch_latency", launch.kernel_launch_latency, 0, 1_000_000)?;
        range("device_launch.cdp_stream_create", launch.cdp_stream_create, 0, 1_000_000)?;
        range("device_launch.cdp_parameter_buffer", launch.cdp_parameter_buffer, 0, 1_000_000)?;
        range("device_launch.cdp_parameter_buffer_per_lane", launch.cdp_parameter_buffer_per_lane, 0, 100_000)?;
        range("device_launch.cdp_launch", launch.cdp_launch, 0, 1_000_000)?;
        range("device_launch.cdp_launch_per_lane", launch.cdp_launch_per_lane, 0, 100_000)?;
        range("device_launch.cdp_latency_percent", launch.cdp_latency_percent, 0, 1000)?;
        range("device_launch.group_entries_per_sm", launch.group_entries_per_sm, 0, 65_536)?;
        range("device_launch.overflow_latency", launch.overflow_latency, 0, 1_000_000)?;
        range("denovo.remote_l1_latency", self.denovo.remote_l1_latency, 0, limits::LATENCY)?;
        if self.coherence == Coherence::DeNovo && self.l1.size_bytes == 0 {
            return Err(ConfigError::new(
                "coherence",
                "DeNovo keeps written data in the L1, and this machine has no L1 (l1.size_bytes is 0)",
            ));
        }
        if self.coherence == Coherence::DeNovo && self.l1.replacement == Replacement::Belady {
            return Err(ConfigError::new(
                "l1.replacement",
                "Belady's replay models a write-through L1 emptied at kernel boundaries; under DeNovo choose Lru or Fifo",
            ));
        }
        unit("pipeline.alu", self.pipeline.alu)?;
        unit("pipeline.sfu", self.pipeline.sfu)?;
        unit("pipeline.fp64", self.pipeline.fp64)?;
        unit("pipeline.control", self.pipeline.control)?;

        let l1 = &self.l1;
        power_of_two("l1.line_bytes", l1.line_bytes)?;
        range("l1.line_bytes", l1.line_bytes, 32, 4096)?;
        sector_size("l1.sector_bytes", l1.sector_bytes, l1.line_bytes)?;
        range("l1.size_bytes", l1.size_bytes, 0, limits::CACHE_BYTES)?;
        if l1.size_bytes > 0 {
            cache_geometry("l1", l1.size_bytes, l1.line_bytes, l1.ways, l1.index)?;
        }
        range("l1.hit_latency", l1.hit_latency, 1, limits::LATENCY)?;
        range("l1.mshr_entries", l1.mshr_entries, 1, limits::QUEUE)?;
        range("l1.mshr_max_merge", l1.mshr_max_merge, 1, 64)?;
        range("l1.ucp_period", l1.ucp_period, 1, 100_000_000)?;
        range("l1.miss_queue_entries", l1.miss_queue_entries, 1, limits::QUEUE)?;
        range("l1.fill_bytes_per_cycle", l1.fill_bytes_per_cycle, 0, 1 << 16)?;

        range("shared_memory.banks", self.shared_memory.banks, 1, 64)?;
        range("shared_memory.latency", self.shared_memory.latency, 1, limits::LATENCY)?;

        let net = &self.interconnect;
        if let Topology::Mesh { columns, rows } = net.topology {
            range("interconnect.topology.columns", columns, 1, 64)?;
            range("interconnect.topology.rows", rows, 1, 64)?;
            let nodes = columns * rows;
            let needed = c.sm_count.max(self.l2.banks);
            if nodes < needed {
                return err(
                    "interconnect.topology",
                    format!("a {columns}×{rows} mesh has {nodes} nodes, fewer than the {needed} SMs or L2 banks it must hold"),
                );
            }
        }
        range("interconnect.hop_latency", net.hop_latency, 0, limits::LATENCY)?;
        power_of_two("interconnect.flit_bytes", net.flit_bytes)?;
        range("interconnect.flit_bytes", net.flit_bytes, 4, l1.line_bytes)?;
        range("interconnect.flits_per_cycle", net.flits_per_cycle, 1, 64)?;

        let l2 = &self.l2;
        range("l2.banks", l2.banks, 1, 1024)?;
        if l2.size_bytes % l2.banks != 0 {
            return err("l2.size_bytes", format!("must divide evenly into {} banks, got {}", l2.banks, l2.size_bytes));
        }
        cache_geometry("l2", l2.size_bytes / l2.banks, l1.line_bytes, l2.ways, l2.index).map_err(|e| {
            ConfigError::new(e.field, format!("{} (per bank; L2 lines are the L1 line size)", e.reason))
        })?;
        if l2.replacement == Replacement::Belady {
            return err(
                "l2.replacement",
                "Belady (an oracle replayed after the run) is for the L1 only; choose Lru or Fifo for the L2",
            );
        }
        range("l2.hit_latency", l2.hit_latency, 1, limits::LATENCY)?;
        range("l2.mshr_entries", l2.mshr_entries, 1, limits::QUEUE)?;
        range("l2.mshr_max_merge", l2.mshr_max_merge, 1, 64)?;
        sector_size("l2.sector_bytes", l2.sector_bytes, l1.line_bytes)?;
        range("l2.bytes_per_cycle", l2.bytes_per_cycle, 1, 1 << 16)?;
        range("l2.atomic_update_cycles", l2.atomic_update_cycles, 0, limits::LATENCY)?;

        let dram = &self.dram;
        range("dram.channels", dram.channels, 1, l2.banks)?;
        range("dram.latency", dram.latency, 1, limits::LATENCY)?;
        range("dram.bytes_per_cycle", dram.bytes_per_cycle, 1, 1 << 16)?;
        range("dram.queue_entries", dram.queue_entries, 1, limits::QUEUE)?;

        range("clocks.core_mhz", self.clocks.core_mhz, 1, 100_000)?;
        range("clocks.memory_mhz", self.clocks.memory_mhz, 1, 100_000)?;
        range("window.cycles", self.window.cycles, 0, limits::WINDOW_CYCLES)?;
        Ok(())
    }

    /// Warp slots of one scheduler.
    pub fn warps_per_scheduler(&self) -> u32 {
        self.core.max_warps_per_sm.div_ceil(self.core.schedulers_per_sm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid() {
        for preset in presets::ALL {
            let config = (preset.build)();
            assert_eq!(config.validate(), Ok(()), "{}", preset.id);
        }
    }

    #[test]
    fn l2_sectors_must_split_a_line_into_at_most_32_powers_of_two() {
        let mut config = presets::h100();
        for (bytes, ok) in [(32, true), (128, true), (4, true), (48, false), (256, false), (2, false)] {
            config.l2.sector_bytes = bytes;
            let result = config.validate();
            assert_eq!(result.is_ok(), ok, "{bytes} B sectors: {result:?}");
            if let Err(e) = result {
                assert_eq!(e.field, "l2.sector_bytes");
            }
        }
        config.l1.line_bytes = 256;
        (config.l1.size_bytes, config.l1.ways, config.l1.sector_bytes) = (256 * 4 * 256, 256, 32);
        config.l2.sector_bytes = 4;
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "l2.sector_bytes");
        assert!(e.reason.contains("at least 8"), "{}", e.reason);
        config.l2.sector_bytes = 8;
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn errors_name_the_field_and_the_reason() {
        let mut config = presets::fermi_gtx480();
        config.l1.ways = 3;
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "l1.size_bytes");
        assert!(e.reason.contains("128 × 3 = 384 bytes"), "{}", e.reason);

        let mut config = presets::fermi_gtx480();
        config.core.max_threads_per_sm = 4096;
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "core.max_threads_per_sm");
        assert!(e.reason.contains("between 32 and 1536"), "{}", e.reason);

        let mut config = presets::fermi_gtx480();
        config.l1.size_bytes = 16 * 128 * 4; // 16 sets
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "l1.index");

        let mut config = presets::ikra_denovo();
        config.interconnect.topology = Topology::Mesh { columns: 3, rows: 3 };
        assert_eq!(config.validate().unwrap_err().field, "interconnect.topology");

        let mut config = presets::fermi_gtx480();
        config.l2.size_bytes += 1;
        assert_eq!(config.validate().unwrap_err().field, "l2.size_bytes");

        let mut config = presets::fermi_gtx480();
        (config.l1.line_bytes, config.l1.sector_bytes) = (4096, 4);
        config.l1.size_bytes = 4096 * 4 * 32;
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "l1.sector_bytes");
        assert!(e.reason.contains("at least 128 B"), "{}", e.reason);
    }

    #[test]
    fn a_disabled_l1_is_allowed() {
        let mut config = presets::fermi_gtx480();
        config.l1.size_bytes = 0;
        assert_eq!(config.validate(), Ok(()));
    }
}
