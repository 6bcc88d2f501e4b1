//! CIAO: cache-interference-aware redirection and throttling, the 6 orderings of `ciao.md` §8.
//!
//! The machine is `fermi-gtx480`, the paper's GPGPU-Sim GTX 480 (Table I, notes §5: SMs of 48 warps with 2 GTO
//! schedulers, a 16 KB 4-way L1D with the Fermi XOR hash, 48 KB of shared memory), cut to 2 SMs with the memory
//! system cut to their share, as the notes suggest for small runs (§5): the paper's 15 SMs share 6 DRAM channels of
//! 177 GB/s and 768 KB of L2, 16.9 bytes a core cycle and 51 KB of L2 an SM; 2 SMs get one channel of 34 bytes a
//! cycle and 2 L2 banks of 64 KB (the preset's bank, 64 sets of 8 ways; the exact share, 102 KB, is not a whole
//! number of banks). Each SM then issues about 120 K (gesummv) to 500 K warp instructions at the stand-ins' default
//! sizes, 24 to 100 of CIAO's 5000-instruction high epochs, where the full machine gave each SM a handful; the
//! notes ask for 200 K or more, so the shortest runs still start with a few epochs of plain GTO.
//!
//! The library's stand-ins: large working set (LWS) `atax`, `bicg`, `mvt` (the paper's ATAX, BICG, MVT: every lane
//! walks its own row, 32 lines per warp re-read over 32 iterations) and `kmn` (Mars's k-means: every lane re-reads its
//! point's line once per cluster); small working set (SWS) `gesummv`, `syr2k` (GESUMMV and SYR2K/SYRK) and `mapreduce`
//! (the Mars applications WC, SM, II, PVC, SS: each thread scans its own record); compute-intensive (CI) `2dconv`,
//! `backprop`, `hotspot`, `lud` (the paper's 2DCONV, Backprop, Hotspot, Lud), with `3dconv` and `gemm` as further
//! coalesced controls. Rodinia's kmeans (LWS), in the library as `kmeans`, is left out: its features are read
//! coalesced, and on this machine no warp of it loses a line it reuses (CCWS and every CIAO variant run it exactly as
//! GTO does), so it would stand for nothing the paper's kmeans shows. Two stand-ins do not behave as the paper classes
//! them (`core/tests/ciao_classes.rs` measures it): gesummv walks rows like atax and thrashes the shared-memory cache's
//! linear index as atax does, and kmn's lanes read their line's 32 floats back to back, so a redirected warp finds its
//! line there again.
//!
//! Policies, all on GTO's order, by spec id: `ccws` (with its default 16 victim-tag entries per warp, CIAO's CCWS
//! baseline); Best-SWL, per workload the best of a sweep of static warp limits (`swl`), as the paper profiles
//! Table II's N_warp; statPCAL, per workload the best of a sweep of token counts (`statpcal`), as the paper profiles
//! its parameters per benchmark; `ciao-p`, `ciao-t` and `ciao-c` (`sched/warp/ciao/`).

use super::Across::{Each, GeometricMean};
use super::Relation::*;
use super::{best_of, check, on, warp, with, workload, Claim, Metric, Paper, Setting, Status, Variant, WorkloadSize};

/// The paper's GTX 480 cut to 2 SMs and their share of the memory system (see above).
pub const TWO_SMS: &[Setting] = &[
    ("core.sm_count", "2"),
    ("dram.channels", "1"),
    ("dram.bytes_per_cycle", "34"),
    ("l2.banks", "2"),
    ("l2.size_bytes", "131072"),
];

/// Every class: LWS, SWS, then CI.
const ALL: &[WorkloadSize] = &[
    workload("atax"),
    workload("bicg"),
    workload("mvt"),
    workload("gesummv"),
    workload("syr2k"),
    workload("kmn"),
    workload("mapreduce"),
    workload("2dconv"),
    workload("3dconv"),
    workload("gemm"),
    workload("backprop"),
    workload("lud"),
    workload("hotspot"),
];
/// The memory-intensive classes, LWS then SWS.
const MEMORY: &[WorkloadSize] = &[
    workload("atax"),
    workload("bicg"),
    workload("mvt"),
    workload("kmn"),
    workload("gesummv"),
    workload("syr2k"),
    workload("mapreduce"),
];
const CI: &[WorkloadSize] = &[
    workload("2dconv"),
    workload("3dconv"),
    workload("gemm"),
    workload("backprop"),
    workload("lud"),
    workload("hotspot"),
];
const LWS_IDS: &[&str] = &["atax", "bicg", "mvt", "kmn"];
const SWS_IDS: &[&str] = &["gesummv", "syr2k", "mapreduce"];
const MEMORY_IDS: &[&str] = &["atax", "bicg", "mvt", "kmn", "gesummv", "syr2k", "mapreduce"];
/// The kernels whose lanes walk rows of a power-of-two length (PolyBench's row-major matrices, N = 1024).
const ROW_WALK_IDS: &[&str] = &["atax", "bicg", "mvt", "gesummv"];
/// The large-working-set kernels that walk rows.
const LWS_ROW_WALK_IDS: &[&str] = &["atax", "bicg", "mvt"];
/// The small-working-set kernels whose lanes do not walk power-of-two rows, where the shared-memory cache's index is
/// not in the way.
const SWS_NOT_ROW_WALK_IDS: &[&str] = &["syr2k", "mapreduce"];

/// GTO, the paper's baseline and the order every other scheduler keeps.
const GTO: Variant = warp("GTO", "gto");
const CCWS: Variant = warp("CCWS", "ccws");
const CIAO_P: Variant = warp("CIAO-P", "ciao-p");
const CIAO_T: Variant = warp("CIAO-T", "ciao-t");
const CIAO_C: Variant = warp("CIAO-C", "ciao-c");
/// The same with the shared-memory cache indexed by the XOR-folded line (`ciao.md` §9 #13), beside the paper's
/// linear index, which maps lines a power of two apart, such as the rows of the row-walk kernels, onto few slots.
/// No ordering of the paper is judged on them: their checks are the evidence behind rows 3 and 5's reasons.
const CIAO_P_XOR: Variant = warp("CIAO-P (XOR index)", "ciao-p:smc_xor_fold=1");
const CIAO_C_XOR: Variant = warp("CIAO-C (XOR index)", "ciao-c:smc_xor_fold=1");
/// The same with every active warp examined at each high boundary (`exam_high` 2), the other reading of §IV-C's "every
/// high-cut-off epoch, CIAO examines IRS_i ... if warp i is in the active warp list" (notes §9 #5), beside the notes'
/// default of one warp a boundary in round robin. No ordering is judged on them: their checks are the evidence that
/// CIAO's defaults act too seldom here (rows 1 and 3), not a setting chosen for its result.
const CIAO_P_ALL: Variant = warp("CIAO-P (every warp examined)", "ciao-p:exam_high=2");
const CIAO_T_ALL: Variant = warp("CIAO-T (every warp examined)", "ciao-t:exam_high=2");
const CIAO_C_ALL: Variant = warp("CIAO-C (every warp examined)", "ciao-c:exam_high=2");
const CIAO_C_ALL_XOR: Variant = warp("CIAO-C (every warp examined, XOR index)", "ciao-c:exam_high=2,smc_xor_fold=1");

/// The static warp limits swept for Best-SWL: Table II's N_warp values (2, 4, 6, 36, 48) and the points between
/// them where the CCWS sweeps change most.
const SWL_1: Variant = warp("SWL-1", "swl:limit=1");
const SWL_2: Variant = warp("SWL-2", "swl:limit=2");
const SWL_4: Variant = warp("SWL-4", "swl:limit=4");
const SWL_6: Variant = warp("SWL-6", "swl:limit=6");
const SWL_8: Variant = warp("SWL-8", "swl:limit=8");
const SWL_12: Variant = warp("SWL-12", "swl:limit=12");
const SWL_16: Variant = warp("SWL-16", "swl:limit=16");
const SWL_24: Variant = warp("SWL-24", "swl:limit=24");
const SWL_36: Variant = warp("SWL-36", "swl:limit=36");
/// Best-SWL: per workload the fastest limit, or no limit at all (48 warps: GTO).
const BEST_SWL: Variant = best_of("Best-SWL", BEST_SWL_MEMBERS);
const BEST_SWL_MEMBERS: &[&str] =
    &["SWL-1", "SWL-2", "SWL-4", "SWL-6", "SWL-8", "SWL-12", "SWL-16", "SWL-24", "SWL-36", "GTO"];

/// The token counts swept for statPCAL (with every warp a token holder it is GTO).
const PCAL_1: Variant = warp("PCAL-1", "statpcal:tokens=1");
const PCAL_2: Variant = warp("PCAL-2", "statpcal:tokens=2");
const PCAL_4: Variant = warp("PCAL-4", "statpcal:tokens=4");
const PCAL_6: Variant = warp("PCAL-6", "statpcal:tokens=6");
const PCAL_8: Variant = warp("PCAL-8", "statpcal:tokens=8");
const PCAL_12: Variant = warp("PCAL-12", "statpcal:tokens=12");
const PCAL_16: Variant = warp("PCAL-16", "statpcal:tokens=16");
const PCAL_24: Variant = warp("PCAL-24", "statpcal:tokens=24");
/// statPCAL: per workload the fastest token count, or GTO.
const STATPCAL: Variant = best_of("statPCAL", PCAL_MEMBERS);
const PCAL_MEMBERS: &[&str] =
    &["PCAL-1", "PCAL-2", "PCAL-4", "PCAL-6", "PCAL-8", "PCAL-12", "PCAL-16", "PCAL-24", "GTO"];

/// Row 1's variants: every scheme, with both sweeps and their oracles.
const EVERY_SCHEME: &[Variant] = &[
    GTO,
    CCWS,
    CIAO_P,
    CIAO_T,
    CIAO_C,
    SWL_1,
    SWL_2,
    SWL_4,
    SWL_6,
    SWL_8,
    SWL_12,
    SWL_16,
    SWL_24,
    SWL_36,
    BEST_SWL,
    PCAL_1,
    PCAL_2,
    PCAL_4,
    PCAL_6,
    PCAL_8,
    PCAL_12,
    PCAL_16,
    PCAL_24,
    STATPCAL,
    CIAO_C_ALL_XOR,
];

/// GTO, CCWS, the three CIAO variants and the SWL sweep with its oracle.
const WITH_BEST_SWL: &[Variant] =
    &[GTO, CCWS, CIAO_P, CIAO_T, CIAO_C, SWL_1, SWL_2, SWL_4, SWL_6, SWL_8, SWL_12, SWL_16, SWL_24, SWL_36, BEST_SWL];

/// [`WITH_BEST_SWL`] and CIAO-C with the XOR-folded index.
const WITH_BEST_SWL_AND_XOR: &[Variant] = &[
    GTO, CCWS, CIAO_P, CIAO_T, CIAO_C, SWL_1, SWL_2, SWL_4, SWL_6, SWL_8, SWL_12, SWL_16, SWL_24, SWL_36, BEST_SWL,
    CIAO_C_XOR,
];

/// A check on some of the claim's workloads.
pub(super) const CLAIMS: &[Claim] = &[
    Claim {
        id: "ciao-8-1",
        paper: Paper::Ciao,
        statement:
            "Over all classes IPC orders GTO ≤ CCWS < Best-SWL < statPCAL < CIAO-P ≈ CIAO-T < CIAO-C, and CIAO-C is \
             within 3 % of the best scheme on every memory-intensive kernel.",
        paper_says: "Geometric mean over 21 benchmarks, normalised to GTO: CCWS 1.02, Best-SWL 1.16, statPCAL 1.24, \
                     CIAO-P 1.34, CIAO-T 1.34, CIAO-C 1.56 (+54 % over CCWS) (Fig. 8, §V-B).",
        workloads: ALL,
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        variants: EVERY_SCHEME,
        checks: &[
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-C", b: "GTO", min: 1.3 }),
            // Ours: the chain of geometric means, each step allowed to dip by the notes' 3 % (GTO vs CCWS is 1.02).
            check(
                Metric::Ipc,
                GeometricMean,
                Rising { variants: &["GTO", "CCWS", "Best-SWL", "statPCAL", "CIAO-P", "CIAO-C"], slack: 0.03 },
            ),
            // Ours: CIAO-P ≈ CIAO-T (1.34 each) within 10 %.
            check(Metric::Ipc, GeometricMean, Close { a: "CIAO-P", b: "CIAO-T", tolerance: 0.1 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "GTO", min: 0.97 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CCWS", min: 0.97 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "Best-SWL", min: 0.97 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "statPCAL", min: 0.97 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-P", min: 0.97 }),
            on(MEMORY_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-T", min: 0.97 }),
            // Ours, the evidence behind the failure's reason: examining every active warp at each high boundary, with
            // the XOR-folded index, CIAO-C gains over its defaults on the memory-intensive kernels.
            on(
                MEMORY_IDS,
                Metric::Ipc,
                GeometricMean,
                RatioAtLeast { a: "CIAO-C (every warp examined, XOR index)", b: "CIAO-C", min: 1.1 },
            ),
        ],
        status: Status::KnownFailure(
            "CIAO acts too seldom, and CIAO-P too badly, to lead here. With the notes' defaults a high epoch of 5000 \
             warp instructions examines one warp (round robin), so an SM of these runs examines a few dozen warps in \
             the whole run and acts on fewer, and CIAO-T stays close to GTO. CIAO-P is slower than GTO on the row \
             walks (atax, bicg, mvt, gesummv): the paper's linear index of the shared-memory cache puts a warp's 32 \
             rows, a power of two apart, on a few slots, so its redirected loads rarely hit there and wait for each \
             other's fetches (row ciao-8-3 shows the XOR-folded index, the notes' switch, recovering them); it gains \
             over GTO on kmn, syr2k and mapreduce, whose redirected lines fit. CIAO-C behaves as CIAO-P (on kmn \
             nearly so): in the few examinations, a victim's top interferer is hardly ever one already isolated, so \
             its stall step hardly ever comes. CCWS, which reacts to every victim-tag hit, and the best static limit \
             lead instead. Examining every active warp at each high boundary (the other reading of §IV-C) with \
             the XOR-folded index, CIAO-C gains clearly over its defaults (its check here), yet still trails CCWS on \
             syr2k",
        ),
        headline: false,
    },
    Claim {
        id: "ciao-8-2",
        paper: Paper::Ciao,
        statement: "CIAO leaves compute-intensive kernels as fast as GTO, whereas CCWS slows them, Backprop most, by \
                    throttling warps they need for latency hiding.",
        paper_says:
            "CI: CIAO-T as fast as GTO, CCWS notably lower; Backprop: Best-SWL ≈ CIAO-T ≈ 500 IPC, CCWS 320 → 150 \
             with more than 40 warps stalled (§V-B, §V-C, Fig. 9).",
        workloads: CI,
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        variants: &[GTO, CCWS, CIAO_T, CIAO_C],
        checks: &[
            check(Metric::Ipc, Each, Close { a: "CIAO-T", b: "GTO", tolerance: 0.05 }),
            check(Metric::Ipc, Each, Close { a: "CIAO-C", b: "GTO", tolerance: 0.05 }),
            // Ours: CCWS at least 2 % slower over the class, and at least 20 % slower on Backprop (the paper's
            // 0.3–0.64).
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "CCWS", b: "GTO", max: 0.98 }),
            on(&["backprop"], Metric::Ipc, Each, RatioAtMost { a: "CCWS", b: "GTO", max: 0.8 }),
        ],
        status: Status::KnownFailure(
            "CIAO-T and CIAO-C leave every compute-intensive stand-in as fast as GTO, as the paper finds, but CCWS \
             does not slow them either: it never holds a warp of them (row ciao-8-4 counts as many active warps under \
             CCWS as under CIAO-P on backprop). Their global loads are coalesced streams or fill shared-memory tiles, \
             so no warp loses a line it would have reused and CCWS's victim tags never hit; the paper's Backprop \
             evidently loses enough locality to trigger CCWS, which the Rodinia kernel as written here does not",
        ),
        headline: false,
    },
    Claim {
        id: "ciao-8-3",
        paper: Paper::Ciao,
        statement:
            "Redirecting interfering warps to unused shared memory (CIAO-P) beats stalling them (CIAO-T) when the hot \
             data fits there (small working sets), stalling wins when it does not (large working sets), and combining \
             both (CIAO-C) is at least as good as either.",
        paper_says: "SWS: CIAO-P 1.28× CIAO-T; LWS: CIAO-T 1.48× CIAO-P (KMN ≈ 1.5×); CIAO-C 1.16× CIAO-P and 1.17× \
                     CIAO-T overall (§V-B, §V-D, Figs. 8, 10).",
        workloads: MEMORY,
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        // GTO and CCWS are shown beside them, judged by no check here (row ciao-8-1 judges them).
        variants: &[GTO, CCWS, CIAO_P, CIAO_T, CIAO_C, CIAO_P_XOR, CIAO_C_XOR, CIAO_P_ALL, CIAO_T_ALL, CIAO_C_ALL],
        checks: &[
            // Ours: a 5 % margin each way, well inside the paper's 1.28 and 1.48.
            on(SWS_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-P", b: "CIAO-T", min: 1.05 }),
            on(LWS_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-T", b: "CIAO-P", min: 1.05 }),
            // The 3 % of ordering 1.
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-P", min: 0.97 }),
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-T", min: 0.97 }),
            // Ours, the evidence behind the failure's reason: on the row walks, whose rows lie a power of two apart,
            // the XOR-folded index of the shared-memory cache makes redirection pay where the linear one does not.
            on(ROW_WALK_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-P (XOR index)", b: "CIAO-P", min: 1.0 }),
            on(ROW_WALK_IDS, Metric::Ipc, Each, RatioAtLeast { a: "CIAO-P (XOR index)", b: "CIAO-T", min: 1.0 }),
            // Ours, the evidence that CIAO acts too seldom at its defaults: with every active warp examined at each
            // high boundary, redirecting gains over the default on the small working sets whose rows the linear index
            // does not crowd, and beats stalling there, while stalling still wins on the large ones.
            on(
                SWS_NOT_ROW_WALK_IDS,
                Metric::Ipc,
                Each,
                RatioAtLeast { a: "CIAO-P (every warp examined)", b: "CIAO-P", min: 1.05 },
            ),
            on(
                SWS_NOT_ROW_WALK_IDS,
                Metric::Ipc,
                Each,
                RatioAtLeast { a: "CIAO-P (every warp examined)", b: "CIAO-T (every warp examined)", min: 1.05 },
            ),
            on(
                LWS_ROW_WALK_IDS,
                Metric::Ipc,
                Each,
                RatioAtLeast { a: "CIAO-T (every warp examined)", b: "CIAO-P (every warp examined)", min: 1.05 },
            ),
        ],
        status: Status::KnownFailure(
            "Stalling beats redirecting on the large working sets that walk rows (atax, bicg, mvt), as the paper \
             finds, but not on kmn, and redirecting does not win on the small ones; CIAO-C falls below CIAO-T on the \
             row walks. The shared-memory cache's linear index (the paper's Fig. 7c) decides the classes here, not \
             the capacity (`core/tests/ciao_classes.rs` measures it): a row walk's rows, a power of two apart, conflict \
             in a few slots, so gesummv, small-working-set in the paper, thrashes there like atax; kmn, \
             large-working-set in the paper, reads its lines' floats back to back and fits. syr2k and mapreduce \
             redirect rarely, as CIAO acts rarely (row ciao-8-1), and CIAO-C is nearly CIAO-P (its stall step hardly \
             ever comes, row ciao-8-1). The XOR-folded index (the notes' switch; its checks here) turns the row walks' \
             redirection from a loss into a gain over CIAO-T. And CIAO acting more often shows the paper's crossover: \
             with every active warp examined at each high boundary (the other reading of §IV-C; its checks here), \
             redirecting beats stalling on syr2k and mapreduce, whose hot data the linear index does not crowd, while \
             stalling still wins on the row-walking large working sets",
        ),
        headline: true,
    },
    Claim {
        id: "ciao-8-4",
        paper: Paper::Ciao,
        statement:
            "CIAO-P keeps more warps active than any throttling scheme, and CIAO-T stalls fewer warps than CCWS \
             throttles.",
        paper_says:
            "CIAO-P has the highest TLP of the seven schedulers; Backprop: CCWS stalls > 40 warps, CIAO-T only the \
             10–20 most interfering; SYRK: CIAO-T cuts TLP, CIAO-C stalls very few (§V-B, Figs. 9b, 10b).",
        workloads: &[workload("atax"), workload("syr2k"), workload("backprop")],
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        variants: WITH_BEST_SWL,
        checks: &[
            // Ours: ties allowed (CIAO-P never stalls a warp, so it can only tie with a scheme that stalls none).
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CCWS", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "Best-SWL", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CIAO-T", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CIAO-C", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-T", b: "CCWS", min: 1.0 }),
        ],
        status: Status::KnownFailure(
            "CIAO-P keeps as many warps active as any scheme, and CIAO-T far more than CCWS on atax and syr2k, as the \
             paper finds; the one miss is atax against Best-SWL, where the best limit is no limit at all (GTO), which \
             holds no warp either: both keep every live warp active, and the average over the run is lower for CIAO-P \
             only because it runs longer (row ciao-8-3), with fewer warps left in its tail",
        ),
        headline: false,
    },
    Claim {
        id: "ciao-8-5",
        paper: Paper::Ciao,
        statement:
            "On a kernel with a thrashing phase followed by a cache-friendly one (ATAX-like), the dynamic schemes \
             CCWS and CIAO-C beat the best static warp limit, which stays too low in the second phase.",
        paper_says:
            "ATAX: CCWS 1.49× Best-SWL; in its second phase CCWS and CIAO-C ≈ 4× Best-SWL, which keeps 2 warps (§V-B, \
             §V-C, Fig. 9).",
        workloads: &[workload("atax"), workload("bicg"), workload("mvt")],
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        variants: WITH_BEST_SWL_AND_XOR,
        checks: &[
            // Ours: +10 % where the paper has +49 % for CCWS on ATAX.
            check(Metric::Ipc, Each, RatioAtLeast { a: "CCWS", b: "Best-SWL", min: 1.1 }),
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "Best-SWL", min: 1.1 }),
            // Ours, the evidence behind the failure's reason: with the XOR-folded index CIAO-C runs faster than GTO.
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C (XOR index)", b: "GTO", min: 1.0 }),
        ],
        status: Status::KnownFailure(
            "CCWS beats the best static limit on all three two-phase row-walk kernels, as the paper finds; CIAO-C does \
             not, because on these kernels it is CIAO-P with the linear shared-memory-cache index, slower than GTO \
             (row ciao-8-1), and the best limit here is no limit (GTO). The XOR-folded index (its check here) brings \
             CIAO-C above GTO on them",
        ),
        headline: false,
    },
    Claim {
        id: "ciao-8-6",
        paper: Paper::Ciao,
        statement: "Tripling the L1 (48 KB, shared memory cut to 16 KB) speeds GTO up a lot and doubling the \
                    associativity less, but CIAO-C on the 16 KB L1 still beats the larger cache.",
        paper_says:
            "LWS+SWS over GTO: GTO-cap 2.08×, GTO-8way 1.51×; CIAO-C 1.14× GTO-cap and 1.57× GTO-8way (Fig. 12a, \
             §V-E).",
        workloads: MEMORY,
        machine: "fermi-gtx480",
        settings: TWO_SMS,
        variants: &[
            GTO,
            // GPGPU-Sim's 48 KB Fermi L1: 64 sets of 6 ways, the shared memory 16 KB.
            with(
                "GTO-cap",
                "rr",
                "gto",
                &[("l1.size_bytes", "49152"), ("l1.ways", "6"), ("core.shared_memory_per_sm", "16384")],
            ),
            // 16 KB at 8 ways is 16 sets, where the Fermi hash is undefined: linear indexing.
            with("GTO-8way", "rr", "gto", &[("l1.ways", "8"), ("l1.index", "Linear")]),
            CIAO_C,
        ],
        checks: &[
            // Ours: +30 % for GTO-cap where the paper has +108 %; CIAO-C at or above it (paper 1.14×); GTO-8way below
            // GTO-cap (paper 1.51 / 2.08 = 0.73).
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "GTO-cap", b: "GTO", min: 1.3 }),
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-C", b: "GTO-cap", min: 1.0 }),
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "GTO-8way", b: "GTO-cap", max: 1.0 }),
        ],
        status: Status::KnownFailure(
            "The 48 KB L1 speeds GTO up by far more than the paper's 2.08x and 8 ways of 16 sets far less, as the \
             paper orders them, but CIAO-C stays well below the larger cache: the stand-ins' hot sets (atax's 16 warps \
             of 32 lines is 64 KB) nearly fit in 48 KB, while CIAO-C here gains nothing over GTO (row ciao-8-1), where \
             the paper's gains 2.37x",
        ),
        headline: false,
    },
];
