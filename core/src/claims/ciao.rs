//! CIAO: cache-interference-aware redirection and throttling, the 6 orderings of `ciao.md` §8.
//!
//! The machine is `fermi-gtx480`, the paper's GPGPU-Sim GTX 480 (Table I, notes §5: 15 SMs of 48 warps with 2 GTO
//! schedulers, a 16 KB 4-way L1D with the Fermi XOR hash, 48 KB of shared memory, a 768 KB L2, 6 DRAM channels).
//! `ccws-fermi` is CCWS's machine instead (30 cores of 32 warps, a 32 KB 8-way L1D, 16 KB of shared memory): twice the
//! L1 would blunt the thrashing and a third of the shared memory would leave CIAO-P little unused space to redirect to.
//!
//! The library's stand-ins: large working set (LWS) `atax`, `bicg`, `mvt` (the paper's ATAX, BICG, MVT: every lane
//! walks its own row, 32 lines per warp re-read over 32 iterations); small working set (SWS) `gesummv`, `syr2k`
//! (GESUMMV and SYR2K/SYRK) and `mapreduce` (the Mars applications WC, SM, II, PVC, SS: each thread scans its own
//! record); compute-intensive (CI) `2dconv`, `backprop`, `hotspot`, `lud` (the paper's 2DCONV, Backprop, Hotspot, Lud),
//! with `3dconv` and `gemm` as further coalesced controls. KMN and kmeans (LWS) have no stand-in.
//!
//! Policies, all on GTO's order, by spec id: `ccws` (with its default 16 victim-tag entries per warp, CIAO's CCWS
//! baseline); Best-SWL (the best static warp limit, Table II's N_warp), to become an oracle variant over an SWL sweep
//! as in the CCWS rows; `ciao-p`, `ciao-t` and `ciao-c` (`sched/warp/ciao/`); `statpcal`, still to come.

use super::Across::{Each, GeometricMean};
use super::Relation::*;
use super::{check, on, warp, with, workload, Claim, Metric, Paper, Status, Variant, WorkloadSize};

/// Every class: LWS, SWS, then CI.
const ALL: &[WorkloadSize] = &[
    workload("atax"),
    workload("bicg"),
    workload("mvt"),
    workload("gesummv"),
    workload("syr2k"),
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
const LWS_IDS: &[&str] = &["atax", "bicg", "mvt"];
const SWS_IDS: &[&str] = &["gesummv", "syr2k", "mapreduce"];
const MEMORY_IDS: &[&str] = &["atax", "bicg", "mvt", "gesummv", "syr2k", "mapreduce"];

/// GTO, the paper's baseline and the order every other scheduler keeps.
const GTO: Variant = warp("GTO", "gto");
const CCWS: Variant = warp("CCWS", "ccws");
const BEST_SWL: Variant = warp("Best-SWL", "best-swl");
const STATPCAL: Variant = warp("statPCAL", "statpcal");
const CIAO_P: Variant = warp("CIAO-P", "ciao-p");
const CIAO_T: Variant = warp("CIAO-T", "ciao-t");
const CIAO_C: Variant = warp("CIAO-C", "ciao-c");

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
        settings: &[],
        variants: &[GTO, CCWS, BEST_SWL, STATPCAL, CIAO_P, CIAO_T, CIAO_C],
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
        ],
        status: Status::Pending(
            "statPCAL, Best-SWL as the best of an SWL sweep in the row (an oracle variant, as the CCWS rows have), and \
             the stand-ins at sizes long enough for CIAO's epochs (at their default sizes each SM issues too \
             few warp instructions for more than a handful of 5000-instruction high epochs; the notes ask for 200 K \
             an SM or more)",
        ),
        headline: true,
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
        settings: &[],
        variants: &[GTO, CCWS, CIAO_T, CIAO_C],
        checks: &[
            check(Metric::Ipc, Each, Close { a: "CIAO-T", b: "GTO", tolerance: 0.05 }),
            check(Metric::Ipc, Each, Close { a: "CIAO-C", b: "GTO", tolerance: 0.05 }),
            // Ours: CCWS at least 2 % slower over the class, and at least 20 % slower on Backprop (the paper's
            // 0.3–0.64).
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "CCWS", b: "GTO", max: 0.98 }),
            on(&["backprop"], Metric::Ipc, Each, RatioAtMost { a: "CCWS", b: "GTO", max: 0.8 }),
        ],
        status: Status::Pending(
            "the stand-ins at sizes long enough for CIAO's epochs (at their default sizes each SM issues too \
             few warp instructions for more than a handful of 5000-instruction high epochs; the notes ask for 200 K \
             an SM or more)",
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
        settings: &[],
        variants: &[CIAO_P, CIAO_T, CIAO_C],
        checks: &[
            // Ours: a 5 % margin each way, well inside the paper's 1.28 and 1.48.
            on(SWS_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-P", b: "CIAO-T", min: 1.05 }),
            on(LWS_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "CIAO-T", b: "CIAO-P", min: 1.05 }),
            // The 3 % of ordering 1.
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-P", min: 0.97 }),
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "CIAO-T", min: 0.97 }),
        ],
        status: Status::Pending(
            "the stand-ins at sizes long enough for CIAO's epochs (at their default sizes each SM issues too \
             few warp instructions for more than a handful of 5000-instruction high epochs; the notes ask for 200 K \
             an SM or more)",
        ),
        headline: false,
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
        settings: &[],
        variants: &[CCWS, BEST_SWL, CIAO_P, CIAO_T, CIAO_C],
        checks: &[
            // Ours: ties allowed (CIAO-P never stalls a warp, so it can only tie with a scheme that stalls none).
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CCWS", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "Best-SWL", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CIAO-T", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-P", b: "CIAO-C", min: 1.0 }),
            check(Metric::ActiveWarps, Each, RatioAtLeast { a: "CIAO-T", b: "CCWS", min: 1.0 }),
        ],
        status: Status::Pending(
            "the active-warp statistics, Best-SWL as the best of an SWL sweep in the row, and the stand-ins at sizes \
             long enough for CIAO's epochs",
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
        settings: &[],
        variants: &[BEST_SWL, CCWS, CIAO_C],
        checks: &[
            // Ours: +10 % where the paper has +49 % for CCWS on ATAX.
            check(Metric::Ipc, Each, RatioAtLeast { a: "CCWS", b: "Best-SWL", min: 1.1 }),
            check(Metric::Ipc, Each, RatioAtLeast { a: "CIAO-C", b: "Best-SWL", min: 1.1 }),
        ],
        status: Status::Pending(
            "Best-SWL as the best of an SWL sweep in the row, and the stand-ins at sizes long enough for CIAO's epochs",
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
        settings: &[],
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
        status: Status::Pending(
            "the stand-ins at sizes long enough for CIAO's epochs (at their default sizes each SM issues too \
             few warp instructions for more than a handful of 5000-instruction high epochs; the notes ask for 200 K \
             an SM or more)",
        ),
        headline: false,
    },
];
