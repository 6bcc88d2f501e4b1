//! Every user-settable hardware parameter, described once and reachable by its dotted path.
//!
//! The path of a field is the one [`GpuConfig::validate`] names in its errors (`l1.ways`), so
//! a form can mark the field an error is about, a share link can carry `l1.ways=8`, and a
//! command line can take `--set l1.ways=8`, all from this one table. Ranges here are the
//! simple limits `validate` checks; limits that depend on other fields (a cache size must be a
//! multiple of line size × ways) are stated in the field's help and left to `validate`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{
    limits, Coherence, ConfigError, GpuConfig, InsertSearch, KduRelease, L1Partition, L1WritePolicy, LaunchPath,
    MshrPartition, ReadOnlyData, Replacement, SetIndex, TbDispatchRate, Topology,
};

/// One setting as a person sees it in a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// Dotted path, the same [`GpuConfig::validate`] uses in errors (`l1.mshr_entries`).
    pub path: &'static str,
    /// Heading the field is shown under ("L1 data cache"); fields of a group are adjacent.
    pub group: &'static str,
    /// Short name ("MSHR entries").
    pub label: &'static str,
    /// Unit of a number ("bytes", "cycles", "entries", "MHz"), or "" for plain counts and choices.
    pub unit: &'static str,
    /// One sentence on what the field means, including limits that depend on other fields.
    pub help: &'static str,
    /// What values it takes.
    pub kind: FieldKind,
}

/// The values a field accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A whole number in `min..=max`.
    Number {
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
    },
    /// One of a fixed set of options, each `(id, label)`. Ids are the variant names serde
    /// uses for the enum, so a saved configuration and a share link spell them alike.
    Choice(&'static [(&'static str, &'static str)]),
}

/// The current value of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValue {
    /// Value of a [`FieldKind::Number`] field.
    Number(u64),
    /// Option id of a [`FieldKind::Choice`] field.
    Choice(&'static str),
}

impl fmt::Display for FieldValue {
    /// The text [`GpuConfig::set_field`] accepts back: digits, or the option id.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Number(n) => write!(f, "{n}"),
            FieldValue::Choice(id) => f.write_str(id),
        }
    }
}

const CORES: &str = "Cores";
const PIPELINE: &str = "Pipeline";
const L1: &str = "L1 data cache";
const SHARED_MEMORY: &str = "Shared memory";
const INTERCONNECT: &str = "Interconnect";
const L2: &str = "L2";
const DRAM: &str = "DRAM";
const CLOCKS: &str = "Clocks";
const KERNEL_BOUNDARIES: &str = "Kernel boundaries";
const DEVICE_LAUNCHES: &str = "Device launches";
const RUN_LENGTH: &str = "Run length";

const TB_DISPATCH: &[(&str, &str)] =
    &[("OnePerSmPerCycle", "One per SM per cycle"), ("OnePerCycle", "One per cycle for the whole GPU")];
const REPLACEMENT: &[(&str, &str)] = &[("Lru", "LRU (least recently used)"), ("Fifo", "FIFO (first in, first out)")];
/// The L1's options: the L2's and the Belady oracle, which only the L1 can replay.
const L1_REPLACEMENT: &[(&str, &str)] = &[
    ("Lru", "LRU (least recently used)"),
    ("Fifo", "FIFO (first in, first out)"),
    ("Belady", "Belady (oracle, replayed)"),
];
const SET_INDEX: &[(&str, &str)] = &[("Linear", "Linear (low address bits)"), ("FermiHash", "Fermi XOR hash")];
const WRITE_POLICY: &[(&str, &str)] = &[("WriteEvict", "Write-evict"), ("WriteThrough", "Write-through")];
const L1_PARTITION: &[(&str, &str)] = &[("None", "Shared"), ("Ucp", "UCP")];
const MSHR_PARTITION: &[(&str, &str)] = &[("Shared", "Shared"), ("PerKernel", "A share per kernel")];
const TOPOLOGY: &[(&str, &str)] = &[("Crossbar", "Crossbar"), ("Mesh", "2-D mesh")];
const READ_ONLY: &[(&str, &str)] =
    &[("SelfInvalidate", "Dropped (plain DeNovo)"), ("Keep", "Kept while no kernel writes them")];
const LAUNCH_PATHS: &[(&str, &str)] = &[
    ("Fixed", "Idealised (fixed latency, no kernel limit)"),
    ("Cdp", "CUDA Dynamic Parallelism (CDP)"),
    ("Dtbl", "Dynamic Thread Block Launch (DTBL)"),
];

const INSERT_SEARCH: &[(&str, &str)] =
    &[("Hidden", "Hidden behind the group's set-up"), ("Linear", "A cycle per record already in the table")];

const KDU_RELEASE: &[(&str, &str)] =
    &[("AllCompleted", "When all its blocks complete"), ("AllDispatched", "When all its blocks are dispatched")];

const COHERENCE: &[(&str, &str)] = &[
    ("InvalidateL1", "GPU coherence (invalidate the L1s)"),
    ("DeNovo", "DeNovo (owned data stays in its L1)"),
    ("KeepL1", "What-if: keep every L1 line"),
];

/// The largest L2 that `validate` accepts: the biggest multiple of the smallest set (one
/// 32-byte line) that fits a `u32`. `validate` sets the L2 no tighter limit.
const L2_MAX_BYTES: u64 = u32::MAX as u64 / 32 * 32;

const fn number(
    path: &'static str,
    group: &'static str,
    label: &'static str,
    unit: &'static str,
    min: u64,
    max: u64,
    help: &'static str,
) -> FieldInfo {
    FieldInfo { path, group, label, unit, help, kind: FieldKind::Number { min, max } }
}

const fn choice(
    path: &'static str,
    group: &'static str,
    label: &'static str,
    options: &'static [(&'static str, &'static str)],
    help: &'static str,
) -> FieldInfo {
    FieldInfo { path, group, label, unit: "", help, kind: FieldKind::Choice(options) }
}

const LATENCY: u64 = limits::LATENCY as u64;
const QUEUE: u64 = limits::QUEUE as u64;
const WAYS: u64 = limits::WAYS as u64;
const L1_WAYS: u64 = limits::L1_WAYS as u64;
const CACHE_BYTES: u64 = limits::CACHE_BYTES as u64;

// One line per field, so the table reads as a table.
#[rustfmt::skip]
static FIELDS: &[FieldInfo] = &[
    number("core.sm_count", CORES, "Streaming multiprocessors", "", 1, limits::SMS as u64,
        "SMs (CUs, SMXs) on the GPU."),
    number("core.warp_size", CORES, "Warp size", "threads", 1, 32, "Threads per warp, executed together."),
    number("core.max_warps_per_sm", CORES, "Warp slots per SM", "", 1, limits::WARPS_PER_SM as u64,
        "Warps that may be resident on one SM at once."),
    number("core.max_tbs_per_sm", CORES, "Thread-block slots per SM", "", 1, limits::TBS_PER_SM as u64,
        "Thread blocks that may be resident on one SM at once."),
    number("core.max_threads_per_sm", CORES, "Threads per SM", "threads", 1, limits::WARPS_PER_SM as u64 * 32,
        "Resident threads per SM: at least the warp size and at most warp slots × warp size."),
    number("core.registers_per_sm", CORES, "Registers per SM", "", 1, 1 << 24,
        "32-bit registers per SM, shared by the resident threads; at least the warp size."),
    number("core.shared_memory_per_sm", CORES, "Shared memory per SM", "bytes", 0, CACHE_BYTES,
        "Scratchpad capacity per SM, allocated per thread block."),
    number("core.schedulers_per_sm", CORES, "Warp schedulers per SM", "", 1, limits::WARPS_PER_SM as u64,
        "Schedulers per SM, each owning every n-th warp slot; at most the warp slots per SM."),
    number("core.issue_width", CORES, "Issue width", "", 1, 8,
        "Instructions each scheduler may issue per cycle, from different warps."),
    choice("core.tb_dispatch", CORES, "Thread-block dispatch", TB_DISPATCH,
        "How many thread blocks the dispatcher may place per cycle."),
    number("pipeline.alu.latency", PIPELINE, "ALU latency", "cycles", 1, LATENCY,
        "Cycles from issuing an integer or single-precision instruction until its dependants may issue."),
    number("pipeline.alu.interval", PIPELINE, "ALU interval", "cycles", 1, LATENCY,
        "Cycles from issuing an ALU instruction until the ALU accepts the next."),
    number("pipeline.sfu.latency", PIPELINE, "SFU latency", "cycles", 1, LATENCY,
        "Cycles from issuing a divide, square root or transcendental until its dependants may issue."),
    number("pipeline.sfu.interval", PIPELINE, "SFU interval", "cycles", 1, LATENCY,
        "Cycles from issuing an SFU instruction until the SFU accepts the next."),
    number("pipeline.control.latency", PIPELINE, "Control latency", "cycles", 1, LATENCY,
        "Cycles from issuing a branch or barrier until its dependants may issue."),
    number("pipeline.control.interval", PIPELINE, "Control interval", "cycles", 1, LATENCY,
        "Cycles from issuing a control instruction until the unit accepts the next."),
    number("pipeline.fp64.latency", PIPELINE, "FP64 latency", "cycles", 1, LATENCY,
        "Cycles from issuing a double-precision instruction until its dependants may issue."),
    number("pipeline.fp64.interval", PIPELINE, "FP64 interval", "cycles", 1, LATENCY,
        "Cycles from issuing a double-precision instruction until the FP64 unit accepts the next \
         (the GPU's single- to double-precision throughput ratio)."),
    number("l1.size_bytes", L1, "Capacity", "bytes", 0, CACHE_BYTES,
        "Per-SM capacity: 0 disables the L1, otherwise a multiple of line size × ways \
         (exactly 32 or 64 sets with the Fermi hash)."),
    number("l1.line_bytes", L1, "Line size", "bytes", 32, 4096,
        "A power of two; the L2 uses the same line size."),
    number("l1.sector_bytes", L1, "Sector size", "bytes", 4, 4096,
        "Unit fetched on a miss: a power of two, at most the line size and at least 1/32 of it."),
    number("l1.ways", L1, "Associativity", "ways", 1, L1_WAYS, "Lines per set."),
    choice("l1.replacement", L1, "Replacement", L1_REPLACEMENT,
        "Which line of a full set is evicted. Belady (optimal: the line used again furthest ahead) is \
         an oracle that cannot time a run: the run is timed with LRU, and its L1 accesses, recorded \
         (16 bytes each), are replayed afterwards with optimal and with LRU replacement; the report's \
         L1 replay gives both miss counts, and its MPKI is Belady's."),
    choice("l1.index", L1, "Set index", SET_INDEX,
        "How a line address picks its set; the Fermi hash needs exactly 32 or 64 sets."),
    number("l1.hit_latency", L1, "Hit latency", "cycles", 1, LATENCY, "Cycles from access to data on a hit."),
    number("l1.mshr_entries", L1, "MSHR entries", "entries", 1, QUEUE,
        "Distinct lines that may be outstanding at once."),
    number("l1.mshr_max_merge", L1, "MSHR merge limit", "requests", 1, 64,
        "Requests that may wait on one MSHR entry, the first included."),
    number("l1.miss_queue_entries", L1, "Miss queue", "entries", 1, QUEUE,
        "Entries of the queue from the L1 towards the interconnect."),
    number("l1.fill_bytes_per_cycle", L1, "Fill bandwidth", "bytes/cycle", 0, 1 << 16,
        "Bytes of a fill the data array writes per cycle, in which the LSU presents no request; \
         0: fills have a port of their own."),
    choice("l1.write_policy", L1, "Write policy", WRITE_POLICY,
        "What a store hit does: evict the line or update it; stores never allocate."),
    choice("l1.partition", L1, "Way partitioning", L1_PARTITION,
        "Whether programs side by side (host streams) share the L1's ways, or UCP splits them to \
         keep the most hits each kernel's shadow tags see (the concurrent-kernel paper's WS-L1D \
         partition)."),
    number("l1.ucp_period", L1, "UCP period", "cycles", 1, 100_000_000,
        "Cycles between UCP's splits of the ways; its hit counters halve at each."),
    choice("l1.mshr_partition", L1, "MSHR sharing", MSHR_PARTITION,
        "Whether programs side by side (host streams) share the MSHRs, or each may hold only the \
         entries over the number of co-running kernels (the concurrent-kernel paper's MSHR partitioning)."),
    number("shared_memory.banks", SHARED_MEMORY, "Banks", "", 1, 64,
        "Lanes that touch different words of one bank are serialised."),
    number("shared_memory.latency", SHARED_MEMORY, "Latency", "cycles", 1, LATENCY,
        "Cycles from access to data without bank conflicts."),
    choice("interconnect.topology", INTERCONNECT, "Topology", TOPOLOGY,
        "A crossbar reaches every L2 bank in one hop; a mesh routes X then Y and must have a node \
         for every SM and every L2 bank."),
    number("interconnect.topology.columns", INTERCONNECT, "Mesh columns", "", 1, 64,
        "Nodes per mesh row (mesh only); columns × rows must cover the SMs and the L2 banks."),
    number("interconnect.topology.rows", INTERCONNECT, "Mesh rows", "", 1, 64,
        "Rows of the mesh (mesh only); columns × rows must cover the SMs and the L2 banks."),
    number("interconnect.hop_latency", INTERCONNECT, "Hop latency", "cycles", 0, LATENCY,
        "Cycles per hop; on a crossbar, the whole traversal."),
    number("interconnect.flit_bytes", INTERCONNECT, "Flit size", "bytes", 4, 4096,
        "A power of two, at most the L1 line size; a packet is a header flit plus its data."),
    number("interconnect.flits_per_cycle", INTERCONNECT, "Port bandwidth", "flits/cycle", 1, 64,
        "Flits each SM or L2 bank port can inject per cycle."),
    number("l2.size_bytes", L2, "Capacity", "bytes", 32, L2_MAX_BYTES,
        "Total over all banks: it must split evenly into the banks, each a multiple of line size × ways \
         (exactly 32 or 64 sets per bank with the Fermi hash)."),
    number("l2.banks", L2, "Banks", "", 1, 1024, "Address-interleaved slices; line l lives in bank l mod banks."),
    number("l2.ways", L2, "Associativity", "ways", 1, WAYS, "Lines per set."),
    choice("l2.replacement", L2, "Replacement", REPLACEMENT, "Which line of a full set is evicted."),
    choice("l2.index", L2, "Set index", SET_INDEX,
        "How a line address picks its set within a bank; the Fermi hash needs exactly 32 or 64 sets per bank."),
    number("l2.hit_latency", L2, "Hit latency", "cycles", 1, LATENCY,
        "Cycles from a request's arrival at its bank to the reply on a hit."),
    number("l2.mshr_entries", L2, "MSHR entries", "entries", 1, QUEUE, "Outstanding misses per bank."),
    number("l2.mshr_max_merge", L2, "MSHR merge limit", "requests", 1, 64,
        "Requests that may wait on one L2 MSHR entry, the first included."),
    number("l2.sector_bytes", L2, "Sector size", "bytes", 4, 4096,
        "Unit kept valid and dirty and moved to and from DRAM: a power of two, at most the line size \
         and at least 1/32 of it; the line size for an unsectored L2."),
    number("l2.bytes_per_cycle", L2, "Bank bandwidth", "bytes/cycle", 1, 1 << 16,
        "Bytes each bank's data path moves per cycle; a request holds its bank for its data's cycles \
         (at least one)."),
    number("l2.atomic_update_cycles", L2, "Atomic update time", "cycles", 0, LATENCY,
        "Cycles per update of one address: lanes updating one address are applied one after another. \
         0 treats an atomic request as one pass, as GPGPU-Sim does."),
    number("dram.channels", DRAM, "Channels", "", 1, 1024,
        "Independent channels, at most the L2 banks; bank b uses channel b mod channels."),
    number("dram.latency", DRAM, "Latency", "cycles", 1, LATENCY,
        "Cycles from the start of service to data, unloaded."),
    number("dram.bytes_per_cycle", DRAM, "Bandwidth per channel", "bytes/cycle", 1, 1 << 16,
        "Bytes each channel transfers per core cycle."),
    number("dram.queue_entries", DRAM, "Queue", "entries", 1, QUEUE,
        "Requests each channel holds waiting for their transfer; a read finding it full holds its L2 bank until one starts."),
    number("clocks.core_mhz", CLOCKS, "Core clock", "MHz", 1, 100_000,
        "SM clock; the engine counts its cycles, this only converts them to time."),
    number("clocks.memory_mhz", CLOCKS, "Memory clock", "MHz", 1, 100_000,
        "DRAM command clock, for reference in reports."),
    choice("coherence", KERNEL_BOUNDARIES, "Coherence", COHERENCE,
        "GPU coherence writes stores through and empties every L1 when one kernel ends and the next \
         begins. DeNovo makes written sectors Owned by the writing L1 (write-back, registered at the \
         L2, which forwards other SMs' reads of them there) and drops only what an L1 does not own; \
         the L1 write policy then applies to nothing. The what-if keeps every line, even ones another \
         SM overwrote: no real machine does that."),
    number("denovo.remote_l1_latency", KERNEL_BOUNDARIES, "Remote L1 answer time", "cycles", 0, LATENCY,
        "DeNovo only: cycles the owning L1 takes to answer a read the L2 forwarded to it."),
    choice("denovo.read_only", KERNEL_BOUNDARIES, "Read-only data", READ_ONLY,
        "DeNovo only: what a kernel boundary does to valid data of buffers no store or atomic reached \
         since the previous boundary. Plain DeNovo drops it with everything else an L1 does not own; \
         DeNovo's read-only regions keep it (the IKRA paper does not say which it used)."),
    choice("device_launch.path", DEVICE_LAUNCHES, "Launch path", LAUNCH_PATHS,
        "How a grid launched by a device thread reaches the dispatcher. Idealised: a new kernel a fixed \
         latency later, nothing waits. CDP: the launching warp stalls in the device runtime's calls \
         and the child kernel queues for one of the KDU's entries. DTBL: the warp stalls briefly and \
         the blocks join a running kernel with the same function and block shape."),
    number("device_launch.latency", DEVICE_LAUNCHES, "Launch latency", "cycles", 0, 1_000_000,
        "Idealised: cycles from a device-side launch until the child grid may be dispatched. DTBL: \
         cycles the launching warp stalls before its thread-block group is queued."),
    number("device_launch.kdu_entries", DEVICE_LAUNCHES, "KDU entries", "kernels", 1, 1024,
        "CDP and DTBL: kernels the kernel distributor holds at once, host kernels included; others \
         wait in the kernel management unit."),
    choice("device_launch.kdu_release", DEVICE_LAUNCHES, "KDU entry freed", KDU_RELEASE,
        "CDP and DTBL: when a kernel gives its KDU entry back."),
    number("device_launch.kernel_launch_latency", DEVICE_LAUNCHES, "Kernel launch latency", "cycles", 0, 1_000_000,
        "CDP: cycles from the end of the launch call until the child kernel may take a KDU entry."),
    number("device_launch.cdp_stream_create", DEVICE_LAUNCHES, "Stream creation", "cycles", 0, 1_000_000,
        "CDP: the launching warp's stall creating the child's stream."),
    number("device_launch.cdp_parameter_buffer", DEVICE_LAUNCHES, "Parameter buffer", "cycles", 0, 1_000_000,
        "CDP: the stall getting the parameter buffer, fixed part."),
    number("device_launch.cdp_parameter_buffer_per_lane", DEVICE_LAUNCHES, "Parameter buffer per lane", "cycles", 0, 100_000,
        "CDP: the stall getting the parameter buffer, per lane that launches."),
    number("device_launch.cdp_launch", DEVICE_LAUNCHES, "Launch call", "cycles", 0, 1_000_000,
        "CDP: the stall in the launch call, fixed part."),
    number("device_launch.cdp_launch_per_lane", DEVICE_LAUNCHES, "Launch call per lane", "cycles", 0, 100_000,
        "CDP: the stall in the launch call, per lane that launches."),
    number("device_launch.cdp_latency_percent", DEVICE_LAUNCHES, "Device runtime cost", "%", 0, 1000,
        "CDP: the device runtime's stalls above, scaled by this percentage."),
    number("device_launch.group_entries_per_sm", DEVICE_LAUNCHES, "Group table entries", "per SM", 0, 65_536,
        "DTBL: thread-block group records each SM's on-chip table holds until their last block is \
         dispatched, counted on the launching SM (0: unbounded)."),
    number("device_launch.overflow_latency", DEVICE_LAUNCHES, "Overflow latency", "cycles", 0, 1_000_000,
        "DTBL: extra cycles before a group whose SM's table was full is queued (its record goes \
         through global memory)."),
    choice("device_launch.insert_search", DEVICE_LAUNCHES, "Group insert search", INSERT_SEARCH,
        "DTBL: whether finding a group's place in its SM's level-ordered table costs visible cycles \
         (the paper hides the search, at most 128 cycles, behind the group's set-up)."),
    number("window.cycles", RUN_LENGTH, "Measurement window", "cycles", 0, 100_000_000,
        "0 runs the launch sequence once, to its end. Otherwise the run lasts exactly this many cycles \
         and each stream starts its launches again whenever its last one completes, so that kernels \
         sharing the GPU are measured over the same window (the concurrent-kernel papers' protocol)."),
];

/// Every user-settable field, grouped, in the order a form shows them. The name is not here.
pub fn fields() -> &'static [FieldInfo] {
    FIELDS
}

/// The field with `path`, if there is one.
pub fn field(path: &str) -> Option<&'static FieldInfo> {
    FIELDS.iter().find(|f| f.path == path)
}

/// Generates the by-path accessors of the numeric fields that are plain struct members, one
/// list for reading and writing so that the two cannot disagree.
macro_rules! plain_numbers {
    ($($path:literal => $($member:ident).+;)*) => {
        fn number_ref<'a>(config: &'a GpuConfig, path: &str) -> Option<&'a u32> {
            match path {
                $($path => Some(&config.$($member).+),)*
                _ => mesh_dimension(&config.interconnect.topology, path),
            }
        }

        fn number_mut<'a>(config: &'a mut GpuConfig, path: &str) -> Option<&'a mut u32> {
            match path {
                $($path => Some(&mut config.$($member).+),)*
                _ => mesh_dimension_mut(&mut config.interconnect.topology, path),
            }
        }
    };
}

plain_numbers! {
    "core.sm_count" => core.sm_count;
    "core.warp_size" => core.warp_size;
    "core.max_warps_per_sm" => core.max_warps_per_sm;
    "core.max_tbs_per_sm" => core.max_tbs_per_sm;
    "core.max_threads_per_sm" => core.max_threads_per_sm;
    "core.registers_per_sm" => core.registers_per_sm;
    "core.shared_memory_per_sm" => core.shared_memory_per_sm;
    "core.schedulers_per_sm" => core.schedulers_per_sm;
    "core.issue_width" => core.issue_width;
    "pipeline.alu.latency" => pipeline.alu.latency;
    "pipeline.alu.interval" => pipeline.alu.interval;
    "pipeline.sfu.latency" => pipeline.sfu.latency;
    "pipeline.sfu.interval" => pipeline.sfu.interval;
    "pipeline.control.latency" => pipeline.control.latency;
    "pipeline.control.interval" => pipeline.control.interval;
    "pipeline.fp64.latency" => pipeline.fp64.latency;
    "pipeline.fp64.interval" => pipeline.fp64.interval;
    "l1.size_bytes" => l1.size_bytes;
    "l1.line_bytes" => l1.line_bytes;
    "l1.sector_bytes" => l1.sector_bytes;
    "l1.ways" => l1.ways;
    "l1.hit_latency" => l1.hit_latency;
    "l1.mshr_entries" => l1.mshr_entries;
    "l1.ucp_period" => l1.ucp_period;
    "l1.mshr_max_merge" => l1.mshr_max_merge;
    "l1.miss_queue_entries" => l1.miss_queue_entries;
    "l1.fill_bytes_per_cycle" => l1.fill_bytes_per_cycle;
    "shared_memory.banks" => shared_memory.banks;
    "shared_memory.latency" => shared_memory.latency;
    "interconnect.hop_latency" => interconnect.hop_latency;
    "interconnect.flit_bytes" => interconnect.flit_bytes;
    "interconnect.flits_per_cycle" => interconnect.flits_per_cycle;
    "l2.size_bytes" => l2.size_bytes;
    "l2.banks" => l2.banks;
    "l2.ways" => l2.ways;
    "l2.hit_latency" => l2.hit_latency;
    "l2.mshr_entries" => l2.mshr_entries;
    "l2.mshr_max_merge" => l2.mshr_max_merge;
    "l2.sector_bytes" => l2.sector_bytes;
    "l2.bytes_per_cycle" => l2.bytes_per_cycle;
    "l2.atomic_update_cycles" => l2.atomic_update_cycles;
    "dram.channels" => dram.channels;
    "dram.latency" => dram.latency;
    "dram.bytes_per_cycle" => dram.bytes_per_cycle;
    "dram.queue_entries" => dram.queue_entries;
    "clocks.core_mhz" => clocks.core_mhz;
    "window.cycles" => window.cycles;
    "clocks.memory_mhz" => clocks.memory_mhz;
    "device_launch.latency" => device_launch.latency;
    "device_launch.kdu_entries" => device_launch.kdu_entries;
    "device_launch.kernel_launch_latency" => device_launch.kernel_launch_latency;
    "device_launch.cdp_stream_create" => device_launch.cdp_stream_create;
    "device_launch.cdp_parameter_buffer" => device_launch.cdp_parameter_buffer;
    "device_launch.cdp_parameter_buffer_per_lane" => device_launch.cdp_parameter_buffer_per_lane;
    "device_launch.cdp_launch" => device_launch.cdp_launch;
    "device_launch.cdp_launch_per_lane" => device_launch.cdp_launch_per_lane;
    "device_launch.cdp_latency_percent" => device_launch.cdp_latency_percent;
    "device_launch.group_entries_per_sm" => device_launch.group_entries_per_sm;
    "device_launch.overflow_latency" => device_launch.overflow_latency;
    "denovo.remote_l1_latency" => denovo.remote_l1_latency;
}

/// A mesh's columns or rows; `None` on a crossbar, which has neither.
fn mesh_dimension<'a>(topology: &'a Topology, path: &str) -> Option<&'a u32> {
    match (path, topology) {
        ("interconnect.topology.columns", Topology::Mesh { columns, .. }) => Some(columns),
        ("interconnect.topology.rows", Topology::Mesh { rows, .. }) => Some(rows),
        _ => None,
    }
}

fn mesh_dimension_mut<'a>(topology: &'a mut Topology, path: &str) -> Option<&'a mut u32> {
    match (path, topology) {
        ("interconnect.topology.columns", Topology::Mesh { columns, .. }) => Some(columns),
        ("interconnect.topology.rows", Topology::Mesh { rows, .. }) => Some(rows),
        _ => None,
    }
}

/// The most nodes a mesh may have (64 × 64, the largest `validate` accepts).
const MESH_MAX_SIDE: u32 = 64;

/// The smallest near-square mesh with a node for every SM and every L2 bank: what choosing
/// "Mesh" on a crossbar starts from (15 SMs and 16 banks give 4 × 4).
fn smallest_mesh(config: &GpuConfig) -> Topology {
    let needed = config.core.sm_count.max(config.l2.banks).clamp(1, MESH_MAX_SIDE * MESH_MAX_SIDE);
    let mut columns = 1;
    while columns * columns < needed {
        columns += 1;
    }
    Topology::Mesh { columns, rows: needed.div_ceil(columns) }
}

fn replacement_id(r: Replacement) -> &'static str {
    match r {
        Replacement::Lru => "Lru",
        Replacement::Fifo => "Fifo",
        Replacement::Belady => "Belady",
    }
}

fn replacement_from(id: &str) -> Option<Replacement> {
    match id {
        "Lru" => Some(Replacement::Lru),
        "Fifo" => Some(Replacement::Fifo),
        "Belady" => Some(Replacement::Belady),
        _ => None,
    }
}

fn set_index_id(index: SetIndex) -> &'static str {
    match index {
        SetIndex::Linear => "Linear",
        SetIndex::FermiHash => "FermiHash",
    }
}

fn set_index_from(id: &str) -> Option<SetIndex> {
    match id {
        "Linear" => Some(SetIndex::Linear),
        "FermiHash" => Some(SetIndex::FermiHash),
        _ => None,
    }
}

fn choice_of(config: &GpuConfig, path: &str) -> Option<&'static str> {
    Some(match path {
        "core.tb_dispatch" => match config.core.tb_dispatch {
            TbDispatchRate::OnePerSmPerCycle => "OnePerSmPerCycle",
            TbDispatchRate::OnePerCycle => "OnePerCycle",
        },
        "l1.replacement" => replacement_id(config.l1.replacement),
        "l1.index" => set_index_id(config.l1.index),
        "l1.write_policy" => match config.l1.write_policy {
            L1WritePolicy::WriteEvict => "WriteEvict",
            L1WritePolicy::WriteThrough => "WriteThrough",
        },
        "l1.partition" => match config.l1.partition {
            L1Partition::None => "None",
            L1Partition::Ucp => "Ucp",
        },
        "l1.mshr_partition" => match config.l1.mshr_partition {
            MshrPartition::Shared => "Shared",
            MshrPartition::PerKernel => "PerKernel",
        },
        "interconnect.topology" => match config.interconnect.topology {
            Topology::Crossbar => "Crossbar",
            Topology::Mesh { .. } => "Mesh",
        },
        "l2.replacement" => replacement_id(config.l2.replacement),
        "l2.index" => set_index_id(config.l2.index),
        "coherence" => match config.coherence {
            Coherence::InvalidateL1 => "InvalidateL1",
            Coherence::DeNovo => "DeNovo",
            Coherence::KeepL1 => "KeepL1",
        },
        "denovo.read_only" => match config.denovo.read_only {
            ReadOnlyData::SelfInvalidate => "SelfInvalidate",
            ReadOnlyData::Keep => "Keep",
        },
        "device_launch.path" => match config.device_launch.path {
            LaunchPath::Fixed => "Fixed",
            LaunchPath::Cdp => "Cdp",
            LaunchPath::Dtbl => "Dtbl",
        },
        "device_launch.kdu_release" => match config.device_launch.kdu_release {
            KduRelease::AllCompleted => "AllCompleted",
            KduRelease::AllDispatched => "AllDispatched",
        },
        "device_launch.insert_search" => match config.device_launch.insert_search {
            InsertSearch::Hidden => "Hidden",
            InsertSearch::Linear => "Linear",
        },
        _ => return None,
    })
}

/// Stores option `id` of the choice at `path`; `None` if either is unknown.
fn set_choice(config: &mut GpuConfig, path: &str, id: &str) -> Option<()> {
    match path {
        "core.tb_dispatch" => {
            config.core.tb_dispatch = match id {
                "OnePerSmPerCycle" => TbDispatchRate::OnePerSmPerCycle,
                "OnePerCycle" => TbDispatchRate::OnePerCycle,
                _ => return None,
            }
        }
        "l1.replacement" => config.l1.replacement = replacement_from(id)?,
        "l1.index" => config.l1.index = set_index_from(id)?,
        "l1.write_policy" => {
            config.l1.write_policy = match id {
                "WriteEvict" => L1WritePolicy::WriteEvict,
                "WriteThrough" => L1WritePolicy::WriteThrough,
                _ => return None,
            }
        }
        "l1.partition" => {
            config.l1.partition = match id {
                "None" => L1Partition::None,
                "Ucp" => L1Partition::Ucp,
                _ => return None,
            }
        }
        "l1.mshr_partition" => {
            config.l1.mshr_partition = match id {
                "Shared" => MshrPartition::Shared,
                "PerKernel" => MshrPartition::PerKernel,
                _ => return None,
            }
        }
        "interconnect.topology" => {
            config.interconnect.topology = match (id, config.interconnect.topology) {
                ("Crossbar", _) => Topology::Crossbar,
                // Choosing the mesh it already is keeps its shape.
                ("Mesh", mesh @ Topology::Mesh { .. }) => mesh,
                ("Mesh", Topology::Crossbar) => smallest_mesh(config),
                _ => return None,
            }
        }
        "l2.replacement" => config.l2.replacement = replacement_from(id)?,
        "l2.index" => config.l2.index = set_index_from(id)?,
        "coherence" => {
            config.coherence = match id {
                "InvalidateL1" => Coherence::InvalidateL1,
                "DeNovo" => Coherence::DeNovo,
                "KeepL1" => Coherence::KeepL1,
                _ => return None,
            }
        }
        "denovo.read_only" => {
            config.denovo.read_only = match id {
                "SelfInvalidate" => ReadOnlyData::SelfInvalidate,
                "Keep" => ReadOnlyData::Keep,
                _ => return None,
            }
        }
        "device_launch.path" => {
            config.device_launch.path = match id {
                "Fixed" => LaunchPath::Fixed,
                "Cdp" => LaunchPath::Cdp,
                "Dtbl" => LaunchPath::Dtbl,
                _ => return None,
            }
        }
        "device_launch.kdu_release" => {
            config.device_launch.kdu_release = match id {
                "AllCompleted" => KduRelease::AllCompleted,
                "AllDispatched" => KduRelease::AllDispatched,
                _ => return None,
            }
        }
        "device_launch.insert_search" => {
            config.device_launch.insert_search = match id {
                "Hidden" => InsertSearch::Hidden,
                "Linear" => InsertSearch::Linear,
                _ => return None,
            }
        }
        _ => return None,
    }
    Some(())
}

/// Longest piece of rejected input quoted back in an error, so a pasted essay stays readable.
const QUOTE_CHARS: usize = 24;

fn shortened(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.into(),
    }
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", shortened(text))
}

/// Reads a whole number typed by a person; the error is the reason, phrased like `validate`'s.
fn parse_number(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("needs a number between {min} and {max}"));
    }
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if unsigned.is_empty() || !all_digits(unsigned) {
        let decimal = unsigned.split_once('.').is_some_and(|(whole, fraction)| {
            !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction)
        });
        let expected = if decimal { "a whole number" } else { "a number" };
        return Err(format!("must be {expected}, got {}", quoted(text)));
    }
    // Digits only from here, so they need no quotes; a negative number is never in range.
    let out_of_range = || format!("must be between {min} and {max}, got {}", shortened(text));
    match text.parse::<u64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(out_of_range()),
    }
}

fn options_list(options: &[(&str, &str)]) -> String {
    let ids: Vec<&str> = options.iter().map(|(id, _)| *id).collect();
    ids.join(", ")
}

impl GpuConfig {
    /// The value of the field at `path`; `None` for an unknown path and for the mesh's columns
    /// and rows when the topology is a crossbar.
    pub fn get_field(&self, path: &str) -> Option<FieldValue> {
        match field(path)?.kind {
            FieldKind::Number { .. } => number_ref(self, path).map(|n| FieldValue::Number(u64::from(*n))),
            FieldKind::Choice(_) => choice_of(self, path).map(FieldValue::Choice),
        }
    }

    /// Sets the field at `path` from the text a person typed (digits, or an option id).
    ///
    /// Checks only the field's own range; limits between fields are [`GpuConfig::validate`]'s
    /// job, so that a person can change two related fields one after the other. Choosing the
    /// mesh topology on a crossbar starts from the smallest mesh that holds every SM and bank.
    /// On error the configuration is unchanged.
    pub fn set_field(&mut self, path: &str, text: &str) -> Result<(), ConfigError> {
        let info = field(path).ok_or_else(|| ConfigError::new(path, "is not a hardware setting"))?;
        let reject = |reason: String| ConfigError::new(path, reason);
        match info.kind {
            FieldKind::Number { min, max } => {
                let value = parse_number(text, min, max).map_err(reject)?;
                let value = u32::try_from(value).map_err(|_| reject(format!("must be at most {}", u32::MAX)))?;
                let slot = number_mut(self, path).ok_or_else(|| {
                    reject("applies only to a mesh: set interconnect.topology to Mesh first".to_string())
                })?;
                *slot = value;
            }
            FieldKind::Choice(options) => {
                let text = text.trim();
                let id =
                    options.iter().map(|(id, _)| *id).find(|id| *id == text).ok_or_else(|| {
                        reject(format!("must be one of {}, got {}", options_list(options), quoted(text)))
                    })?;
                set_choice(self, path, id).ok_or_else(|| reject(format!("cannot be set to {id}")))?;
            }
        }
        Ok(())
    }

    /// The fields whose values differ from `base`, in table order, as `(path, text)` pairs that
    /// [`GpuConfig::apply`] turns back into this configuration (the name aside).
    pub fn diff(&self, base: &GpuConfig) -> Vec<(&'static str, String)> {
        FIELDS
            .iter()
            .filter_map(|f| {
                let mine = self.get_field(f.path)?;
                (base.get_field(f.path) != Some(mine)).then(|| (f.path, mine.to_string()))
            })
            .collect()
    }

    /// Sets every `(path, text)` pair in order, as [`GpuConfig::set_field`] does; either all are
    /// applied or, on the first error, none.
    pub fn apply<P: AsRef<str>, T: AsRef<str>>(
        &mut self,
        pairs: impl IntoIterator<Item = (P, T)>,
    ) -> Result<(), ConfigError> {
        let mut changed = self.clone();
        for (path, text) in pairs {
            changed.set_field(path.as_ref(), text.as_ref())?;
        }
        *self = changed;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::presets;
    use super::*;
    use alloc::vec;

    fn all_presets() -> Vec<GpuConfig> {
        presets::ALL.iter().map(|p| (p.build)()).collect()
    }

    fn is_mesh_dimension(path: &str) -> bool {
        path.starts_with("interconnect.topology.")
    }

    fn numbers() -> impl Iterator<Item = (&'static str, u64, u64)> {
        FIELDS.iter().filter_map(|f| match f.kind {
            FieldKind::Number { min, max } => Some((f.path, min, max)),
            FieldKind::Choice(_) => None,
        })
    }

    /// Writes a raw value, bypassing the table's range, to see what `validate` makes of it.
    fn force(config: &mut GpuConfig, path: &str, value: u32) {
        *number_mut(config, path).unwrap_or_else(|| panic!("{path} has no slot")) = value;
    }

    #[test]
    fn paths_are_unique_and_groups_are_contiguous_in_order() {
        let order = [
            CORES,
            PIPELINE,
            L1,
            SHARED_MEMORY,
            INTERCONNECT,
            L2,
            DRAM,
            CLOCKS,
            KERNEL_BOUNDARIES,
            DEVICE_LAUNCHES,
            RUN_LENGTH,
        ];
        let mut seen_groups: Vec<&str> = Vec::new();
        for (i, f) in FIELDS.iter().enumerate() {
            assert!(FIELDS[..i].iter().all(|g| g.path != f.path), "{} twice", f.path);
            if seen_groups.last() != Some(&f.group) {
                assert!(!seen_groups.contains(&f.group), "group {} is split", f.group);
                seen_groups.push(f.group);
            }
            assert!(f.help.ends_with('.'), "{}: help is a sentence", f.path);
            if let FieldKind::Number { min, max } = f.kind {
                assert!(min <= max && max <= u64::from(u32::MAX), "{}", f.path);
            }
        }
        assert_eq!(seen_groups, order);
        assert_eq!(field("l1.ways").map(|f| f.label), Some("Associativity"));
        assert_eq!(field("name"), None);
    }

    /// The accessors agree with the serialised form, which names every member by itself.
    #[test]
    fn values_match_what_serde_writes_at_the_same_path() {
        for config in all_presets() {
            let json = serde_json::to_value(&config).unwrap();
            for f in FIELDS {
                let pointer = match f.path {
                    "interconnect.topology.columns" => "/interconnect/topology/Mesh/columns".into(),
                    "interconnect.topology.rows" => "/interconnect/topology/Mesh/rows".into(),
                    path => format!("/{}", path.replace('.', "/")),
                };
                let expected = json.pointer(&pointer);
                match config.get_field(f.path) {
                    Some(FieldValue::Number(n)) => assert_eq!(expected.and_then(|v| v.as_u64()), Some(n), "{}", f.path),
                    // A unit variant is a string, a variant with data an object keyed by it.
                    Some(FieldValue::Choice(id)) => match expected {
                        Some(serde_json::Value::String(s)) => assert_eq!(s, id, "{}", f.path),
                        Some(serde_json::Value::Object(o)) => assert!(o.contains_key(id), "{}", f.path),
                        other => panic!("{}: {other:?}", f.path),
                    },
                    None => assert!(is_mesh_dimension(f.path) && expected.is_none(), "{} unreadable", f.path),
                }
            }
        }
    }

    #[test]
    fn every_option_id_is_the_serde_variant_name() {
        let mut config = presets::ikra_denovo();
        for f in FIELDS {
            let FieldKind::Choice(options) = f.kind else { continue };
            let pointer = format!("/{}", f.path.replace('.', "/"));
            for (id, _) in options {
                config.set_field(f.path, id).unwrap();
                assert_eq!(config.get_field(f.path), Some(FieldValue::Choice(id)));
                let json = serde_json::to_value(&config).unwrap();
                let written = json.pointer(&pointer).unwrap();
                let name =
                    written.as_str().or_else(|| written.as_object().and_then(|o| o.keys().next()?.as_str().into()));
                assert_eq!(name, Some(*id), "{}", f.path);
            }
        }
    }

    #[test]
    fn every_field_reads_on_every_preset_and_lies_in_range() {
        for config in all_presets() {
            let mesh = matches!(config.interconnect.topology, Topology::Mesh { .. });
            for f in FIELDS {
                let value = config.get_field(f.path);
                if is_mesh_dimension(f.path) && !mesh {
                    assert_eq!(value, None, "{} on a crossbar", f.path);
                    continue;
                }
                match (f.kind, value) {
                    (FieldKind::Number { min, max }, Some(FieldValue::Number(n))) => {
                        assert!((min..=max).contains(&n), "{}: {n} outside {min}..={max} in {}", f.path, config.name)
                    }
                    (FieldKind::Choice(options), Some(FieldValue::Choice(id))) => {
                        assert!(options.iter().any(|(o, _)| *o == id), "{}", f.path)
                    }
                    other => panic!("{}: {other:?}", f.path),
                }
            }
        }
    }

    #[test]
    fn setting_a_field_to_its_own_value_changes_nothing() {
        for config in all_presets() {
            for f in FIELDS {
                let Some(value) = config.get_field(f.path) else { continue };
                let mut copy = config.clone();
                assert_eq!(copy.set_field(f.path, &value.to_string()), Ok(()), "{}", f.path);
                assert_eq!(copy, config, "{}", f.path);
            }
        }
    }

    /// Every minimum at once, on a mesh with linear indexing, is a machine `validate` accepts.
    fn smallest_machine() -> GpuConfig {
        let mut config = presets::fermi_gtx480();
        config.set_field("interconnect.topology", "Mesh").unwrap();
        config.apply([("l1.index", "Linear"), ("l2.index", "Linear")]).unwrap();
        for (path, min, _) in numbers() {
            config.set_field(path, &min.to_string()).unwrap();
        }
        config
    }

    /// Every maximum at once, except the L2 capacity (its largest value needs one bank).
    fn largest_machine() -> GpuConfig {
        let mut config = smallest_machine();
        for (path, _, max) in numbers().filter(|(path, ..)| *path != "l2.size_bytes") {
            config.set_field(path, &max.to_string()).unwrap();
        }
        // 1024 banks of 64 ways of 4 KiB lines: 256 MiB.
        config.set_field("l2.size_bytes", "268435456").unwrap();
        config
    }

    #[test]
    fn the_table_minimums_and_maximums_are_accepted_by_validate() {
        assert_eq!(smallest_machine().validate(), Ok(()));
        assert_eq!(largest_machine().validate(), Ok(()));
        let mut biggest_l2 = smallest_machine();
        biggest_l2.set_field("l2.size_bytes", &L2_MAX_BYTES.to_string()).unwrap();
        assert_eq!(biggest_l2.validate(), Ok(()));
    }

    #[test]
    fn one_beyond_the_table_range_is_rejected_by_validate_naming_the_field() {
        let mut bases = all_presets();
        // Crossbar presets, so that a larger SM or bank count is not first reported as a mesh
        // too small; the mesh's own dimensions are tried on the meshes.
        bases.retain(|c| c.interconnect.topology == Topology::Crossbar);
        let meshes = [presets::ikra_denovo(), smallest_machine(), largest_machine()];
        for (path, min, max) in numbers() {
            let bases = if is_mesh_dimension(path) { &meshes[..] } else { &bases[..] };
            for base in bases {
                let mut beyond = vec![max + 1];
                if min > 0 {
                    beyond.push(min - 1);
                }
                for value in beyond {
                    let Ok(raw) = u32::try_from(value) else { continue };
                    let mut config = base.clone();
                    force(&mut config, path, raw);
                    assert_eq!(config.validate().map_err(|e| e.field), Err(path.into()), "{path} = {value}");
                }
            }
        }
    }

    #[test]
    fn set_field_refuses_values_outside_the_range_and_says_which() {
        let mut config = presets::fermi_gtx480();
        for (path, min, max) in numbers().filter(|(path, ..)| !is_mesh_dimension(path)) {
            let outside = [Some(max + 1), min.checked_sub(1)];
            for value in outside.into_iter().flatten() {
                let e = config.set_field(path, &value.to_string()).unwrap_err();
                assert_eq!(e.field, path);
                assert!(e.reason.contains(&format!("between {min} and {max}")), "{}", e.reason);
            }
        }
        assert_eq!(config, presets::fermi_gtx480());
    }

    #[test]
    fn every_path_validate_can_name_is_in_the_table() {
        let source = include_str!("mod.rs");
        let validate =
            &source[source.find("fn cache_geometry").unwrap()..source.find("fn warps_per_scheduler").unwrap()];
        let literals: Vec<&str> = validate.split('"').skip(1).step_by(2).collect();
        let is_path = |s: &str| {
            s.split('.').count() > 1
                && s.split('.').all(|p| {
                    !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                })
        };
        let mut named = Vec::new();
        for literal in literals.iter().copied().filter(|s| is_path(s)) {
            // `unit("pipeline.alu", …)` names `pipeline.alu.latency` and `.interval`.
            if literal.starts_with("pipeline.") {
                named.extend([format!("{literal}.latency"), format!("{literal}.interval")]);
            } else {
                named.push(literal.into());
            }
        }
        // `cache_geometry("l1", …)` builds its paths from the prefix.
        for prefix in ["l1", "l2"] {
            assert!(validate.contains(&format!("cache_geometry(\"{prefix}\"")), "{prefix}");
            named.extend(["ways", "size_bytes", "index"].map(|member| format!("{prefix}.{member}")));
        }
        assert!(named.len() > 40, "the scan found only {named:?}");
        for path in &named {
            assert!(field(path).is_some(), "validate can name {path}, which the table lacks");
        }
    }

    #[test]
    fn limits_between_fields_are_left_to_validate() {
        // Three ways: in range on its own, but 16 KiB is not a multiple of 128 B × 3.
        let mut config = presets::fermi_gtx480();
        config.set_field("l1.ways", "3").unwrap();
        assert_eq!(config.validate().unwrap_err().field, "l1.size_bytes");
        config.set_field("l1.size_bytes", "12288").unwrap(); // 32 sets × 3 ways × 128 B
        assert_eq!(config.validate(), Ok(()));
        config.set_field("l1.size_bytes", "24576").unwrap(); // 64 sets
        assert_eq!(config.validate(), Ok(()));
        config.set_field("l1.size_bytes", "6144").unwrap(); // 16 sets: not for the Fermi hash
        assert_eq!(config.validate().unwrap_err().field, "l1.index");
        config.set_field("l1.index", "Linear").unwrap();
        assert_eq!(config.validate(), Ok(()));

        // Threads per SM are bounded by warp slots × warp size.
        let mut config = presets::fermi_gtx480();
        config.set_field("core.warp_size", "16").unwrap();
        let e = config.validate().unwrap_err();
        assert_eq!(e.field, "core.max_threads_per_sm");
        assert!(e.reason.contains("between 16 and 768"), "{}", e.reason);
        config.set_field("core.max_threads_per_sm", "768").unwrap();
        assert_eq!(config.validate(), Ok(()));

        // The L2 splits evenly into banks; DRAM channels are at most the banks.
        let mut config = presets::ccws_fermi(); // 1 MiB in 8 banks, 8 channels, linear index
        config.set_field("l2.banks", "5").unwrap();
        assert_eq!(config.validate().unwrap_err().field, "l2.size_bytes");
        config.set_field("l2.banks", "4").unwrap();
        assert_eq!(config.validate().unwrap_err().field, "dram.channels");
        config.set_field("dram.channels", "4").unwrap();
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn choosing_a_mesh_starts_from_the_smallest_that_holds_everything() {
        let mut config = presets::fermi_gtx480(); // 15 SMs, 12 L2 banks
        assert_eq!(config.get_field("interconnect.topology.columns"), None);
        let e = config.set_field("interconnect.topology.columns", "4").unwrap_err();
        assert!(e.reason.contains("Mesh first"), "{}", e.reason);
        config.set_field("interconnect.topology", "Mesh").unwrap();
        assert_eq!(config.interconnect.topology, Topology::Mesh { columns: 4, rows: 4 });
        assert_eq!(config.validate(), Ok(()));
        config.set_field("interconnect.topology.columns", "3").unwrap(); // 12 nodes for 15 SMs
        assert_eq!(config.validate().unwrap_err().field, "interconnect.topology");
        config.set_field("interconnect.topology", "Crossbar").unwrap();
        assert_eq!(config.validate(), Ok(()));

        let mut config = presets::h100(); // 132 SMs, 80 banks: 12 × 11 = 132 nodes
        config.set_field("interconnect.topology", "Mesh").unwrap();
        assert_eq!(config.interconnect.topology, Topology::Mesh { columns: 12, rows: 11 });
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn typed_text_is_parsed_or_refused_with_a_reason() {
        let mut config = presets::fermi_gtx480();
        config.set_field("l1.ways", " 8 ").unwrap();
        assert_eq!(config.l1.ways, 8);
        let reason = |config: &mut GpuConfig, path: &str, text: &str| config.set_field(path, text).unwrap_err().reason;
        assert_eq!(reason(&mut config, "l1.ways", ""), "needs a number between 1 and 1024");
        assert_eq!(reason(&mut config, "l1.ways", "eight"), "must be a number, got \"eight\"");
        assert_eq!(reason(&mut config, "l1.ways", "-"), "must be a number, got \"-\"");
        assert_eq!(reason(&mut config, "l1.ways", "."), "must be a number, got \".\"");
        assert_eq!(reason(&mut config, "l1.ways", "1.5"), "must be a whole number, got \"1.5\"");
        assert_eq!(reason(&mut config, "l2.ways", "-3"), "must be between 1 and 64, got -3");
        assert_eq!(reason(&mut config, "l2.ways", "65"), "must be between 1 and 64, got 65");
        assert_eq!(
            reason(&mut config, "l2.ways", "123456789012345678901234567890"),
            "must be between 1 and 64, got 123456789012345678901234…"
        );
        assert_eq!(reason(&mut config, "l1.ways", "٣"), "must be a number, got \"٣\"");
        assert_eq!(reason(&mut config, "l1.replacement", "lru"), "must be one of Lru, Fifo, Belady, got \"lru\"");
        assert_eq!(reason(&mut config, "l2.replacement", "Belady"), "must be one of Lru, Fifo, got \"Belady\"");
        let e = config.set_field("l1.colour", "red").unwrap_err();
        assert_eq!((e.field.as_str(), e.reason.as_str()), ("l1.colour", "is not a hardware setting"));
        assert_eq!(config.l1.ways, 8, "refused edits leave the value alone");
    }

    #[test]
    fn a_diff_lists_changed_fields_and_applies_back() {
        let base = presets::fermi_gtx480();
        assert_eq!(base.diff(&base), vec![]);
        let mut changed = base.clone();
        changed.l1.ways = 8;
        changed.coherence = Coherence::KeepL1;
        assert_eq!(changed.diff(&base), vec![("l1.ways", "8".into()), ("coherence", "KeepL1".into())]);

        for from in all_presets() {
            for to in all_presets() {
                let mut rebuilt = from.clone();
                rebuilt.apply(to.diff(&from)).unwrap();
                rebuilt.name = to.name.clone();
                assert_eq!(rebuilt, to, "{} → {}", from.name, to.name);
            }
        }
    }

    #[test]
    fn apply_changes_nothing_when_a_pair_is_refused() {
        let mut config = presets::fermi_gtx480();
        let e = config.apply([("l1.ways", "8"), ("l2.ways", "many")]).unwrap_err();
        assert_eq!(e.field, "l2.ways");
        assert_eq!(config, presets::fermi_gtx480());
    }

    #[test]
    fn odd_text_on_any_path_is_refused_without_a_change() {
        let long = "é".repeat(100);
        let odd = [
            "",
            " ",
            "-",
            "+1",
            "1e3",
            "0x10",
            "1_000",
            "١٢",
            "∞",
            "NaN",
            "18446744073709551616",
            "4294967296",
            "99999999999999999999999999999999999999999",
            "Lru\u{0}",
            "mesh",
            "1\u{202F}536",
            &long,
        ];
        for original in [presets::fermi_gtx480(), presets::ikra_denovo()] {
            for f in FIELDS {
                for text in &odd {
                    let mut config = original.clone();
                    let e = config.set_field(f.path, text).unwrap_err();
                    assert_eq!(e.field, f.path);
                    assert!(e.reason.chars().count() < 120, "{}", e.reason);
                    assert_eq!(config, original, "{} = {text:?}", f.path);
                }
            }
        }
        let mut config = presets::fermi_gtx480();
        for path in ["", ".", "l1.", ".l1", "l1..ways", "L1.WAYS", "name", "interconnect.topology.Mesh"] {
            assert_eq!(config.get_field(path), None, "{path}");
            assert!(config.set_field(path, "1").is_err(), "{path}");
        }
    }
}
