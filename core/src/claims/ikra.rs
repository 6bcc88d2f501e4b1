//! Inter-kernel reuse-aware thread-block scheduling: the 11 claims of `ikra.md` §5.2.
//!
//! The library's stand-ins: the paper's regular iterative apps HS, PF, SD2 and ST are `hotspot`,
//! `pathfinder`, `srad` and `stencil` (ping-pong arrays, block b re-reading what block b wrote
//! the launch before), NW is `nw` (compute- and scratchpad-bound wavefronts). The irregular
//! Pannotia apps are `bfs` (two kernels per level, an R-MAT frontier: unbalanced like cond_mat)
//! and `coloring` (the paper's CL, on a uniform graph: balanced like olesnik0). The
//! non-iterative BP, CP and SG are `backprop`, `2dconv` and `gemm`, with the streaming `vecadd`
//! as a fourth control. The microbenchmarks of §5.4.1 are `ubench` (load-add-store on each
//! block's private 8 KB slice, 16 launches in place: 12, 36 and 96 blocks are GPU-small,
//! -medium and -large on the 3-SM system) and `ubench-ws` (the same with 1 to 64 updates a
//! block, rising with the block id: Work-Stealing).
//!
//! The machine is `ikra-denovo` (the paper's Table 2: 15 CUs, 128 KB L1s, a 4 MB L2 on a 4×4
//! mesh). The paper evaluates everything under DeNovo coherence, which keeps owned words in the
//! L1 across kernels and serves a read of a word another L1 owns from that L1 (a remote-L1 hit,
//! slower than an L2 hit); the preset uses it, and the rows name it too (`coherence = DeNovo`).
//! The preset's core is GPGPU-Sim's Fermi (two warp schedulers per SM), as the paper ran
//! GPGPU-Sim v3.2.1 at the GTX 480's halved clock. The microbenchmark rows (5.2-1 to 5.2-4) run
//! on `ikra-micro`, the paper's microbenchmark system (§5.4.1: 3 CUs, 32 KB L1s, a 256 KB L2, here
//! in 4 banks on a 2×2 mesh). Every variant uses GTO warp scheduling, as the paper does (§5.2).

use super::Across::{Each, GeometricMean, Mean};
use super::Relation::*;
use super::{check, on, policies, with, Claim, Metric, Paper, Setting, Status, Variant};
use super::{sized, workload, WorkloadSize};

/// G: GPGPU-Sim's round-robin dispatch, the paper's baseline.
const G: Variant = policies("G", "rr", "gto");
/// C: one contiguous chunk of blocks per SM, the assignment rotating from kernel to kernel.
const C: Variant = policies("C", "chunk", "gto");
/// R: C with chunk j always on SM j, so block i runs on the same SM in every kernel.
const R: Variant = policies("R", "reset", "gto");
/// F: R with each SM's chunk run in the opposite direction at every launch.
const F: Variant = policies("F", "flip", "gto");
/// S: F plus locality-preserving work stealing with per-SM steal queues.
const S: Variant = policies("S", "steal", "gto");
const ALL_FIVE: &[Variant] = &[G, C, R, F, S];
/// G, C, F and S under GPU coherence ("GC") and under DeNovo (the row's setting).
const BOTH_PROTOCOLS: &[Variant] = &[
    with("G GC", "rr", "gto", GPU_COHERENCE),
    with("C GC", "chunk", "gto", GPU_COHERENCE),
    with("F GC", "flip", "gto", GPU_COHERENCE),
    with("S GC", "steal", "gto", GPU_COHERENCE),
    policies("G DeNovo", "rr", "gto"),
    policies("C DeNovo", "chunk", "gto"),
    policies("F DeNovo", "flip", "gto"),
    policies("S DeNovo", "steal", "gto"),
];

/// DeNovo coherence (owned words survive a kernel boundary; reads of another L1's words are
/// remote-L1 hits).
/// Read-only data are dropped at kernel boundaries like other valid data (plain DeNovo): the paper
/// does not say it used DeNovo's read-only regions (ikra.md §6), so the rows state the setting.
const DENOVO: &[Setting] = &[("coherence", "DeNovo"), ("denovo.read_only", "SelfInvalidate")];
/// GPU coherence: every L1 is invalidated at a kernel boundary, so reuse across kernels is L2-only.
const GPU_COHERENCE: &[Setting] = &[("coherence", "InvalidateL1")];

/// The regular iterative apps (HS, PF, SD2, ST, NW).
const REGULAR: &[WorkloadSize] =
    &[workload("hotspot"), workload("pathfinder"), workload("srad"), workload("stencil"), workload("nw")];
/// The four of them with ping-pong, stencil-like reuse.
const STENCILS: &[WorkloadSize] = &[workload("hotspot"), workload("pathfinder"), workload("srad"), workload("stencil")];
const STENCIL_IDS: &[&str] = &["hotspot", "pathfinder", "srad", "stencil"];
/// The irregular graph apps: two kernels per iteration of different balance.
const IRREGULAR: &[WorkloadSize] = &[workload("bfs"), workload("coloring")];
/// Single-pass kernels with no reuse across kernels (the paper's BP, CP, SG; `vecadd` streams).
const NO_REUSE: &[WorkloadSize] = &[workload("vecadd"), workload("backprop"), workload("2dconv"), workload("gemm")];

/// The L1 sweep of §7.1 keeps the L2 at 32 × the L1; 128 KB with 4 MB is the preset.
const L1_32K: &[Setting] = &[("l1.size_bytes", "32768"), ("l2.size_bytes", "1048576")];
const L1_512K: &[Setting] = &[("l1.size_bytes", "524288"), ("l2.size_bytes", "16777216")];

/// A check over some of the claim's workloads.
pub(super) const CLAIMS: &[Claim] = &[
    Claim {
        id: "ikra-5.2-1",
        paper: Paper::Ikra,
        statement: "When blocks re-read only their own data and each SM's share fits its L1, keeping every block on \
                    the same SM (R, F, S) makes almost every L1 access hit after the first launch, all but silences \
                    the network and runs far faster than G, with R, F and S alike.",
        paper_says: "GPU-small: R hits 100 % in L1 once warm and sends no traffic, −68 % time and −61 % energy vs G; \
                     F and S equal R (§6.1, Fig. 4).",
        // 12 blocks of 8 KB: 4 per SM, 32 KB, its L1's size.
        workloads: &[sized("ubench", 12)],
        machine: "ikra-micro",
        settings: DENOVO,
        variants: &[G, R, F, S],
        checks: &[
            // The whole run's hit rate includes the cold first launch (one in sixteen): 0.8, not 1.
            check(Metric::L1HitRate, Each, Between { variant: "R", min: 0.8, max: 1.0 }),
            check(Metric::L1HitRate, Each, Between { variant: "F", min: 0.8, max: 1.0 }),
            check(Metric::L1HitRate, Each, Between { variant: "S", min: 0.8, max: 1.0 }),
            // Loose bounds (the notes give none): the paper's R has no traffic at all and 0.32× G's time.
            check(Metric::NetworkFlits, Each, RatioAtMost { a: "R", b: "G", max: 0.3 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "R", b: "G", max: 0.7 }),
            check(Metric::Cycles, Each, Close { a: "F", b: "R", tolerance: 0.05 }),
            check(Metric::Cycles, Each, Close { a: "S", b: "R", tolerance: 0.05 }),
        ],
        // R, F and S hit as the paper's R does (15 of 16 launches warm). But G places the 12 blocks
        // exactly as R does at every launch: round-robin over 3 SMs, 4 blocks each, comes back to
        // the same SM every 12 blocks, under either rotation rule of ikra.md §6 (the SM that took
        // the last block, or `rr:rotate_from_finished`, the one whose block finished last: both
        // measured identical here), so G keeps R's reuse, time and traffic.
        status: Status::KnownFailure(
            "G keeps the same mapping as R at every launch here (12 blocks round-robin over 3 SMs return to the \
             same SMs, under either rotation rule of ikra.md §6), so it has R's L1 hits, time and traffic; how the \
             paper's G lost this reuse is not said",
        ),
        headline: false,
    },
    Claim {
        id: "ikra-5.2-2",
        paper: Paper::Ikra,
        statement: "When each SM's share of the data overflows its L1 but everything fits in the L1s and the L2, \
                    running each chunk in reverse at every launch (F) beats pinning alone (R), which beats G, in L1 \
                    hit rate and run time.",
        paper_says: "GPU-medium: F cuts time and energy by 31 % against R and doubles its L1 hit rate; R still \
                     improves on G (§6.1, Fig. 4).",
        // 36 blocks of 8 KB: 288 KB, 96 KB per SM over its 32 KB L1, under the 352 KB of L1s and L2.
        workloads: &[sized("ubench", 36)],
        machine: "ikra-micro",
        settings: DENOVO,
        variants: &[G, R, F],
        checks: &[
            // Loose bounds (the notes give none): the paper has F/R = 2 on hits and about 0.7 on time.
            check(Metric::L1HitRate, Each, RatioAtLeast { a: "F", b: "R", min: 1.5 }),
            check(Metric::L1HitRate, Each, RatioAtLeast { a: "R", b: "G", min: 1.0 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "F", b: "R", max: 0.85 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "R", b: "G", max: 1.0 }),
        ],
        // F beats R in time (the bound holds) and R beats G, but R's L1 hit rate is 0, as G's is,
        // so the R/G hit ratio is undefined and the check fails.
        status: Status::KnownFailure(
            "R has no L1 hits here, as G has none: each SM re-reads its 96 KB in the same order at every launch \
             through a 32 KB LRU L1, which keeps none of it; the paper gives R some hits without saying from where",
        ),
        headline: false,
    },
    Claim {
        id: "ikra-5.2-3",
        paper: Paper::Ikra,
        statement: "When the data exceed the L1s and the L2 together, LRU caches keep nothing for pinned blocks run \
                    in the same order (R reads memory as much as G), while reversing the order (F) hits in both \
                    caches and about halves the memory reads.",
        paper_says: "GPU-large: R serves every access from memory, like G; F about halves main-memory accesses \
                     (L1 17 %, L2 29 % hits) and runs 23 % faster than R (§6.1, Fig. 4).",
        // 96 blocks of 8 KB: 768 KB, beyond the 352 KB of L1s and L2 (both LRU in the preset).
        workloads: &[sized("ubench", 96)],
        machine: "ikra-micro",
        settings: DENOVO,
        variants: &[G, R, F],
        checks: &[
            // Loose bounds (the notes give none): the paper has R = G and F/R ≈ 0.5 on memory accesses.
            check(Metric::DramReads, Each, Close { a: "R", b: "G", tolerance: 0.1 }),
            check(Metric::DramReads, Each, RatioAtMost { a: "F", b: "R", max: 0.75 }),
            // R's hit rates are about 0, as the paper's: F's are checked relative to them.
            check(Metric::L1HitRate, Each, RatioAtLeast { a: "F", b: "R", min: 1.05 }),
            check(Metric::L2HitRate, Each, RatioAtLeast { a: "F", b: "R", min: 1.05 }),
        ],
        status: Status::Pass,
        headline: false,
    },
    Claim {
        id: "ikra-5.2-4",
        paper: Paper::Ikra,
        statement: "When blocks carry unequal work, static chunks make C and R slower than G and F about as fast, \
                    while stealing that keeps stolen blocks on the thief (S) is clearly fastest, at the same dynamic \
                    energy as F.",
        paper_says: "Work-Stealing: C and R slow down, F is slightly faster, S takes 26 % less time than G; F and \
                     S use the same energy, idle energy excluded (§6.1, Fig. 4).",
        // 96 blocks of 8 KB (GPU-large's 768 KB), 1 to 64 updates a block rising with the block id.
        workloads: &[sized("ubench-ws", 96)],
        machine: "ikra-micro",
        settings: DENOVO,
        variants: ALL_FIVE,
        checks: &[
            // Loose bounds (the notes give none): the paper has S/G = 0.74.
            check(Metric::Cycles, Each, RatioAtLeast { a: "C", b: "G", min: 1.0 }),
            check(Metric::Cycles, Each, RatioAtLeast { a: "R", b: "G", min: 1.0 }),
            check(Metric::Cycles, Each, RatioBetween { a: "F", b: "G", min: 0.9, max: 1.02 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "S", b: "G", max: 0.9 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "S", b: "F", max: 0.95 }),
            check(Metric::Energy, Each, Close { a: "S", b: "F", tolerance: 0.05 }),
        ],
        // S beats G and F, and F and S spend the same energy, but F is slower than G. The work
        // distribution is the notes' suggestion (rising with the block; the paper's input is not
        // given): the last of three static chunks then holds over half the updates, which Flip's
        // locality does not win back, while G balances by placing blocks as SMs free up.
        status: Status::KnownFailure(
            "F is slower than G here (paper: about as fast): with work rising with the block id (the notes' \
             suggested input; the paper's is not given) the last of three static chunks holds over half the \
             updates, more than Flip's locality wins back, while G places blocks as SMs free up",
        ),
        headline: false,
    },
    Claim {
        id: "ikra-5.2-5",
        paper: Paper::Ikra,
        statement: "On iterated stencil-like kernels under DeNovo, running each block where its index ran the launch \
                    before (R, F, S) cuts time, network traffic and energy against G, with F and S alike, while \
                    chunking alone (C) gains little, G barely hits in L1, and the compute-bound nw hardly changes.",
        paper_says: "S vs G: −19 % time (max −43 %), −11 % energy (max −21 %), −42 % traffic (max −86 %); S vs C \
                     −16 % time; F ≈ S; S doubles the mean L1 hit rate; G near 0 % L1 hits on HS, NW, ST; NW \
                     gains little (§6.2, Fig. 5).",
        workloads: REGULAR,
        machine: "ikra-denovo",
        settings: DENOVO,
        variants: ALL_FIVE,
        checks: &[
            // Loose bounds (the notes give none), each well inside the paper's average.
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, RatioAtMost { a: "S", b: "G", max: 0.95 }),
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, RatioAtMost { a: "F", b: "G", max: 0.95 }),
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, RatioAtMost { a: "R", b: "G", max: 1.0 }),
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, Close { a: "F", b: "S", tolerance: 0.1 }),
            // C vs G is about 0.96 in the paper (derived from S vs G and S vs C).
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, RatioBetween { a: "C", b: "G", min: 0.85, max: 1.02 }),
            on(STENCIL_IDS, Metric::Cycles, GeometricMean, RatioAtMost { a: "S", b: "C", max: 0.95 }),
            on(STENCIL_IDS, Metric::NetworkFlits, GeometricMean, RatioAtMost { a: "S", b: "G", max: 0.8 }),
            on(STENCIL_IDS, Metric::Energy, GeometricMean, RatioAtMost { a: "S", b: "G", max: 0.97 }),
            on(STENCIL_IDS, Metric::L1HitRate, Mean, RatioAtLeast { a: "S", b: "G", min: 1.5 }),
            // hotspot and nw read global memory once per tile (through shared memory), as the paper's
            // near-zero cases do; the library's stencil reads its neighbours from global memory.
            on(&["hotspot", "nw"], Metric::L1HitRate, Each, Between { variant: "G", min: 0.0, max: 0.2 }),
            on(&["nw"], Metric::Cycles, Each, Close { a: "S", b: "G", tolerance: 0.1 }),
        ],
        status: Status::Pass,
        headline: true,
    },
    Claim {
        id: "ikra-5.2-6",
        paper: Paper::Ikra,
        statement: "Under GPU coherence, which empties the L1s at every kernel boundary, S's lead over C on the \
                    stencil-like kernels shrinks to what chunking and Flip's L2 ordering still give.",
        paper_says: "Regular apps under GPU coherence: S −13 % time vs G and −7 % vs C, against −16 % vs C under \
                     DeNovo (§7.2, Fig. 8).",
        workloads: STENCILS,
        machine: "ikra-denovo",
        settings: DENOVO,
        // RR, Chunk, Flip and Steal under both protocols, for the gallery's card on a regular
        // iterative workload; the checks use five of the eight.
        variants: BOTH_PROTOCOLS,
        checks: &[
            // The two S/C bounds meet at 0.9 (paper 0.93 and 0.84), so together they say the gain shrinks.
            check(Metric::Cycles, GeometricMean, RatioBetween { a: "S GC", b: "C GC", min: 0.9, max: 1.0 }),
            check(Metric::Cycles, GeometricMean, RatioAtMost { a: "S DeNovo", b: "C DeNovo", max: 0.9 }),
            // Loose (the notes give none): paper 0.87.
            check(Metric::Cycles, GeometricMean, RatioAtMost { a: "S GC", b: "G GC", max: 0.97 }),
        ],
        // Under DeNovo S/C holds; under GPU coherence S gains nothing over C or G. The stencils'
        // working sets sit in the 4 MB L2 (96–99 % L2 hits; pathfinder's misses are its once-read
        // input), whose banks are interleaved by line, so neither where a block runs nor in which
        // order leaves anything in the L2 to gain, and Steal's chunks keep fewer halo neighbours
        // together in an L1 within a kernel than Chunk's (stencil: 55 % against 60 % L1 hits).
        status: Status::KnownFailure(
            "under GPU coherence S gains nothing over C or G here: every stencil's working set sits in the L2 \
             (96–99 % hits), so no L2 ordering effect is left for Flip, and Steal keeps fewer halo neighbours \
             together in an L1 within a kernel than Chunk",
        ),
        headline: true,
    },
    Claim {
        id: "ikra-5.2-7",
        paper: Paper::Ikra,
        statement: "On graph kernels whose two kernels per iteration differ in balance, static chunks (C, R) slow \
                    down, F is about G, and S is fastest, but its steal queues never settle, so it sends more \
                    network traffic than F.",
        paper_says: "Irregular apps (4 apps × 2 graphs): C slower in 6 of 8 runs, F −1 % on average, S −10 % time \
                     (max −18 %) and −16 % traffic vs G; S's traffic above F's in every run (§6.3, Fig. 6).",
        workloads: IRREGULAR,
        machine: "ikra-denovo",
        settings: DENOVO,
        variants: ALL_FIVE,
        checks: &[
            // Loose bounds (the notes give none).
            check(Metric::Cycles, GeometricMean, RatioAtLeast { a: "C", b: "G", min: 1.0 }),
            check(Metric::Cycles, GeometricMean, RatioAtLeast { a: "R", b: "G", min: 1.0 }),
            check(Metric::Cycles, GeometricMean, Close { a: "F", b: "G", tolerance: 0.05 }),
            check(Metric::Cycles, GeometricMean, RatioAtMost { a: "S", b: "G", max: 0.95 }),
            check(Metric::Cycles, GeometricMean, RatioAtMost { a: "S", b: "F", max: 1.0 }),
            check(Metric::NetworkFlits, Each, RatioAtLeast { a: "S", b: "F", min: 1.0 }),
        ],
        // Measured: bfs's SMs have no warp to issue in 74 % of scheduler cycles under every
        // policy (small frontiers with long tails, which stealing cannot split: only blocks not
        // yet dispatched move), and coloring's reuse is between graph neighbours' colours, which
        // placement by block index does not keep (L1 hit rate 17.7 % under G, 18.0 % under S).
        status: Status::KnownFailure(
            "S is no faster than G here: bfs's SMs sit without warps most of the time whatever the policy (long \
             tails in small frontiers, which stealing undispatched blocks cannot split), and coloring reuses its \
             graph neighbours' data, which placement by block index does not keep together",
        ),
        headline: false,
    },
    Claim {
        id: "ikra-5.2-8",
        paper: Paper::Ikra,
        statement: "Under GPU coherence S gives the irregular graph kernels about nothing over G.",
        paper_says: "Irregular apps under GPU coherence: S equals G on average (0 %, against −10 % under DeNovo) \
                     (§7.2, Fig. 8).",
        workloads: IRREGULAR,
        machine: "ikra-denovo",
        settings: DENOVO,
        // The four schedulers under both protocols, for the gallery's card on irregular
        // workloads; the check compares two of them.
        variants: BOTH_PROTOCOLS,
        // Loose (the notes give none): the paper's average is exactly G's. It holds for the
        // paper's reason: with every L1 emptied at each boundary nothing a block wrote survives
        // to the next launch, so keeping it on the same SM gains only chunking's neighbours.
        // The contrast the paper draws, −10 % under DeNovo, is row 5.2-7's, which fails here:
        // our S gains about nothing under DeNovo either.
        checks: &[check(Metric::Cycles, GeometricMean, Close { a: "S GC", b: "G GC", tolerance: 0.05 })],
        status: Status::Pass,
        headline: true,
    },
    Claim {
        id: "ikra-5.2-9",
        paper: Paper::Ikra,
        statement: "Because a remote-L1 hit costs more than an L2 hit, a larger L1 can slow G down as more of its \
                    reads become remote-L1 hits, while S only gains from the larger L1.",
        paper_says: "L1 16–512 KB with the L2 at 32× the L1: G's time rises with the L1 at some sizes on SD2 and \
                     DJ2 (more remote-L1 hits, 35–83 against 29–61 cycles); the IKRA schedulers do not (§7.1, Fig. 7).",
        workloads: &[workload("srad")],
        machine: "ikra-denovo",
        settings: DENOVO,
        variants: &[
            with("G 32K", "rr", "gto", L1_32K),
            policies("G 128K", "rr", "gto"),
            with("G 512K", "rr", "gto", L1_512K),
            with("S 32K", "steal", "gto", L1_32K),
            policies("S 128K", "steal", "gto"),
            with("S 512K", "steal", "gto", L1_512K),
        ],
        checks: &[
            // The paper does not say between which sizes G slows; 128 → 512 KB is where remote hits should
            // grow most. Slack 2 % (the notes give none).
            check(Metric::Cycles, Each, RatioAtLeast { a: "G 512K", b: "G 128K", min: 1.0 }),
            check(Metric::RemoteL1Hits, Each, Rising { variants: &["G 32K", "G 128K", "G 512K"], slack: 0.02 }),
            check(Metric::Cycles, Each, Falling { variants: &["S 32K", "S 128K", "S 512K"], slack: 0.02 }),
        ],
        status: Status::Pass,
        headline: false,
    },
    Claim {
        id: "ikra-5.2-10",
        paper: Paper::Ikra,
        statement: "On kernels with no reuse across kernels no IKRA scheduler is slower than G, and chunking's \
                    intra-kernel reuse gains a few per cent.",
        paper_says: "Non-iterative apps (BP, CP, LM, NN, SG): no scheduler worse than G; S −5 % time on average \
                     (max −16 % on BP), mostly from C; energy unchanged (§6.4).",
        workloads: NO_REUSE,
        machine: "ikra-denovo",
        settings: DENOVO,
        variants: ALL_FIVE,
        checks: &[
            // 2 % slack for "no worse" (the notes give none).
            check(Metric::Cycles, Each, RatioAtMost { a: "C", b: "G", max: 1.02 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "R", b: "G", max: 1.02 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "F", b: "G", max: 1.02 }),
            check(Metric::Cycles, Each, RatioAtMost { a: "S", b: "G", max: 1.02 }),
            check(Metric::Cycles, GeometricMean, RatioAtMost { a: "S", b: "G", max: 1.0 }),
        ],
        status: Status::Pass,
        headline: false,
    },
    Claim {
        id: "ikra-5.2-11",
        paper: Paper::Ikra,
        statement: "Steal's chunk entries and steal queues always split the grid's blocks between the SMs without \
                    overlap or gap, and it re-chunks only when a steal queue overflows or the grid's shape changes.",
        paper_says: "A steal moves a block's ownership for good; re-initialise on a full 32-entry steal queue (at \
                     most about once per run) or on new grid dimensions (§4.3, Algorithm 1).",
        // stencil keeps its grid, so steal state carries over, and at its default size (128
        // blocks, more than the 120 slots) blocks wait and are stolen; bfs's two kernels share
        // a shape but not a balance, so steals go on; nw changes the grid at every launch.
        workloads: &[workload("stencil"), workload("bfs"), sized("nw", 64)],
        machine: "ikra-denovo",
        settings: &[],
        variants: &[S],
        // The policy checks its invariant at every launch it begins without re-chunking, and
        // counts overflows ("about once per run" at most). The re-chunk causes (first launch,
        // new dimensions, overflow) are counted by construction; the unit tests of
        // `sched::tb::steal` check the partition after every dispatch and the re-chunks on
        // hand-made shapes and a one-entry queue.
        checks: &[
            check(Metric::UnpartitionedLaunches, Each, Between { variant: "S", min: 0.0, max: 0.0 }),
            check(Metric::StealOverflows, Each, Between { variant: "S", min: 0.0, max: 1.0 }),
        ],
        status: Status::Pass,
        headline: false,
    },
];
