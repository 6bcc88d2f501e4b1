//! LaPerm, locality-aware scheduling for dynamic parallelism: the 8 claims of `laperm.md` §8.3.
//!
//! The library's stand-ins: the graph kernels are `bfs-dp` and `sssp-dp-powerlaw` (R-MAT graphs
//! with their vertex ids scattered: the paper's graph500 input, the notes' `rmat`), `sssp-dp` (a
//! road mesh whose neighbours are close in id) and `clr-dp`, CLR on the notes' scaled inputs: a
//! `banded` graph (cage15), and under `GRAPH` a `citation` graph (citationCiteseer) and an R-MAT
//! graph of scale 15 and edge factor 16 (graph500). `amr-hotspot` is AMR on the notes' input (a
//! hot spot: balanced launches) and `amr` AMR on a ring-shaped front (three nested levels),
//! `join` is JOIN (power-law key multiplicities, probed in key order, make a few parents launch
//! most children, like the Gaussian input) and `regex` is REGX. The library has no BHT or PRE.
//!
//! The machine is `laperm-k20c` (the paper's Table I: 13 SMXs, 32 KB L1s, a 1.5 MB L2, GTO warp
//! scheduling, one TB dispatched per cycle). Each row names its launch path,
//! `device_launch.path` = `Dtbl` (TB groups coalesced into a running kernel) or `Cdp` (a new
//! kernel through the 32-entry kernel table, with CDP's API latencies): the setting the LaPerm
//! issue added (the idealised `Fixed` path makes a child grid visible a fixed latency later).
//! Normalised IPC is averaged as a geometric mean (the ratio of geometric means is the geometric
//! mean of the ratios to RR); the paper says only "on average".

use super::summary::{Figure, Line, Quantity, Summary};
use super::Across::{Each, GeometricMean, Mean};
use super::Relation::*;
use super::{check, on, policies, with, Claim, Metric, Paper, Setting, Status, Variant};
use super::{sized, workload, WorkloadSize};

/// The baseline: kernels first-come first-served, blocks round-robin over the SMXs.
const RR: Variant = policies("RR", "rr", "gto");
/// Child blocks one priority level above their parent, dispatched first.
const TB_PRI: Variant = policies("TB-Pri", "tb-pri", "gto");
/// TB-Pri with children queued on their direct parent's SMX.
const SMX_BIND: Variant = policies("SMX-Bind", "smx-bind", "gto");
/// SMX-Bind where an SMX with nothing of its own left drains another SMX's queues.
const ADAPTIVE: Variant = policies("Adaptive", "adaptive-bind", "gto");
const ALL_FOUR: &[Variant] = &[RR, TB_PRI, SMX_BIND, ADAPTIVE];

// Every row states the launch model's settings the paper leaves open (laperm.md §3.3–3.4, §9):
// a KDU entry is freed when the last block of its kernel completes, a DTBL launch stalls its warp
// 500 cycles, a group that finds its SM's 128-entry table full waits 400 cycles more, and finding
// a group's place in that table costs nothing visible (the paper hides it).
const DTBL: &[Setting] = &[
    ("device_launch.path", "Dtbl"),
    ("device_launch.latency", "500"),
    ("device_launch.kdu_release", "AllCompleted"),
    ("device_launch.overflow_latency", "400"),
    ("device_launch.insert_search", "Hidden"),
];
const CDP: &[Setting] = &[("device_launch.path", "Cdp"), ("device_launch.kdu_release", "AllCompleted")];
/// The path alone, for variants of a row whose settings are `OPEN`.
const CDP_PATH: &[Setting] = &[("device_launch.path", "Cdp")];
const DTBL_PATH: &[Setting] = &[("device_launch.path", "Dtbl")];
/// The open settings of both paths, for rows whose variants choose the path.
const OPEN: &[Setting] = &[
    ("device_launch.latency", "500"),
    ("device_launch.kdu_release", "AllCompleted"),
    ("device_launch.overflow_latency", "400"),
    ("device_launch.insert_search", "Hidden"),
];
/// DTBL with the launch latency left to the variants (the sweep).
const DTBL_SWEPT: &[Setting] = &[
    ("device_launch.path", "Dtbl"),
    ("device_launch.kdu_release", "AllCompleted"),
    ("device_launch.overflow_latency", "400"),
    ("device_launch.insert_search", "Hidden"),
];

/// CLR on the notes' three scaled inputs (laperm.md §6): banded (the file's default), citation-like
/// and R-MAT.
const CLR_BANDED: WorkloadSize = workload("clr-dp");
const CLR_CITATION: WorkloadSize =
    workload("clr-dp").with_defines(&[("GRAPH", "citation(N, 512, 3)")]).named("clr-dp-citation");
const CLR_RMAT: WorkloadSize =
    workload("clr-dp").with_defines(&[("GRAPH", "powerlaw(N, 16 * N, 3)")]).named("clr-dp-rmat");

/// The graph kernels.
const GRAPHS: &[WorkloadSize] = &[workload("bfs-dp"), workload("sssp-dp"), workload("sssp-dp-powerlaw"), CLR_BANDED];
const GRAPH_IDS: &[&str] = &["bfs-dp", "sssp-dp", "sssp-dp-powerlaw", "clr-dp"];
/// Every dynamic-parallelism workload of the library, CLR also on the citation-like input.
const ALL_DP: &[WorkloadSize] = &[
    workload("bfs-dp"),
    workload("sssp-dp"),
    workload("sssp-dp-powerlaw"),
    CLR_BANDED,
    CLR_CITATION,
    workload("amr"),
    workload("join"),
    workload("regex"),
];

/// The DTBL launch-latency sweep (cycles from the launch until the TB group may be dispatched).
const LATENCY_0: &[Setting] = &[("device_launch.latency", "0")];
const LATENCY_500: &[Setting] = &[("device_launch.latency", "500")];
const LATENCY_5000: &[Setting] = &[("device_launch.latency", "5000")];
const LATENCY_30000: &[Setting] = &[("device_launch.latency", "30000")];

/// A check over some of the claim's workloads.
pub(super) const CLAIMS: &[Claim] = &[
    Claim {
        id: "laperm-8.3-1",
        paper: Paper::Laperm,
        statement: "On the notes' hand-worked launch scenarios every policy places and orders the blocks exactly as \
                    computed (Toys A and B), and the child L1 hit rates of Toy C stay within their bounds.",
        paper_says: "Toy A is Fig. 4 (8 parents, 6 children, 4 SMXs); worked out in the notes, SMX-Bind keeps all \
                     6 children home but finishes last (cycle 600 against 401); Toys B (nesting) and C (L1 counts) \
                     are the notes' own (§10).",
        // bfs-dp: few parents launch unevenly (Toy A); amr: one parent block, three nested levels (Toy B).
        workloads: &[sized("bfs-dp", 1024), sized("amr", 16)],
        machine: "laperm-k20c",
        settings: DTBL,
        variants: ALL_FOUR,
        // In both toys SMX-Bind finishes after Adaptive-Bind (600 vs 401, 500 vs 400).
        checks: &[check(Metric::Cycles, Each, RatioAtLeast { a: "SMX-Bind", b: "Adaptive", min: 1.0 })],
        status: Status::KnownFailure(
            "the toys themselves reproduce exactly in the unit tests (`sched::tb::laperm_toys`: Toy A's four \
             round tables, child placements, round gaps and finish cycles 401/401/600/401; Toy B, whose SMX-Bind \
             row in the notes drops A1 and is corrected to finish at 600), and Toy C's bounds hold in the engine \
             (`core/tests/laperm_toy_c.rs`: child L1 hits 100 % under SMX-Bind and Adaptive-Bind, 31 % under RR \
             and TB-Pri); this row's engine check fails on bfs-dp at 1,024 vertices, where SMX-Bind finishes \
             1.1 % before Adaptive-Bind: a child is dispatched about 550 cycles after its launch there, so \
             there is no tail for stealing to shorten, and the steals (74 of 104 child blocks run away from \
             their parent's SM) only cost L1 hits",
        ),
        headline: false,
    },
    Claim {
        id: "laperm-8.3-2",
        paper: Paper::Laperm,
        statement: "With DTBL launches Adaptive-Bind gives the graph kernels the most IPC, ahead of TB-Pri (itself \
                    ahead of RR) and of SMX-Bind, which drops below RR where a few parents launch most children.",
        paper_says: "DTBL normalised IPC: TB-Pri 1.13, SMX-Bind ≈ 1.08, Adaptive-Bind 1.27 (best sssp_cage15, \
                     1.51); SMX-Bind below RR on bfs_citation, clr_citation and join (§V-B, Fig. 9b).",
        workloads: &[
            workload("bfs-dp"),
            workload("sssp-dp"),
            workload("sssp-dp-powerlaw"),
            CLR_BANDED,
            workload("join"),
        ],
        machine: "laperm-k20c",
        settings: DTBL,
        variants: ALL_FOUR,
        checks: &[
            on(GRAPH_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "Adaptive", b: "RR", min: 1.10 }),
            // The orderings without a margin (the notes give none; the paper's are 1.12× and 1.18×).
            on(GRAPH_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "TB-Pri", b: "RR", min: 1.0 }),
            on(GRAPH_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "Adaptive", b: "TB-Pri", min: 1.0 }),
            on(GRAPH_IDS, Metric::Ipc, GeometricMean, RatioAtLeast { a: "Adaptive", b: "SMX-Bind", min: 1.0 }),
            // "At least one imbalanced input": join, one of the paper's own cases.
            on(&["join"], Metric::Ipc, Each, RatioAtMost { a: "SMX-Bind", b: "RR", max: 1.0 }),
        ],
        status: Status::KnownFailure(
            "Adaptive-Bind loses 4 % instead of gaining 10 %. On the older graph kernels children do only 10–16 % \
             of the warp instructions (bfs-dp 11.8 %, sssp-dp 15.9 %, sssp-dp-powerlaw 10.2 %) and start 8,000–10,000 \
             cycles after their launch, in which each SM fills 3–4 times its 256-line L1, so binding them home \
             wins nothing. CLR on the banded input (`clr-dp`), where children do 40 % of the work and binding \
             does raise the L1 hit rate (30.9 % under RR, 35.5 % under SMX-Bind), runs slower under every \
             LaPerm policy (TB-Pri 0.96, SMX-Bind 0.77, Adaptive-Bind 0.83 of RR's IPC): its parent blocks are \
             long (100,000–110,000 cycles each, a thread scanning its vertex's edges with atomics), and the 48 of \
             256 that do not fit in the first wave are dispatched at cycle 177,000 under TB-Pri against 119,000 \
             under RR, after the children queued ahead of them, so they end the round late (the longest job \
             last); binding adds idle SMs to that (no warp to issue in 38 % of SMX-Bind's scheduler cycles, 9 % \
             of RR's). JOIN, outside the graph mean, shows the paper's pattern: its probes are sorted by key, so \
             the parent blocks holding the big keys launch most children, and Adaptive-Bind runs 1.18 times \
             RR's IPC, SMX-Bind 0.98 times",
        ),
        headline: true,
    },
    Claim {
        id: "laperm-8.3-3",
        paper: Paper::Laperm,
        statement: "Binding children to their parent's SMX raises the L1 hit rate most (SMX-Bind, then \
                    Adaptive-Bind, with TB-Pri no worse than RR), while prioritising children alone raises the L2 \
                    hit rate where a graph's neighbours are close in id.",
        paper_says: "L1 vs RR (CDP/DTBL): TB-Pri +1.1/+2.1 pts, SMX-Bind +6.6/+13.6, Adaptive ≈ +4.3/+10.5; L2: \
                     TB-Pri +6.7/+8.7 pts, SMX-Bind and Adaptive only slightly different (§V-B).",
        workloads: ALL_DP,
        machine: "laperm-k20c",
        settings: DTBL,
        variants: ALL_FOUR,
        checks: &[
            check(Metric::L1HitRate, Mean, RatioAtLeast { a: "SMX-Bind", b: "Adaptive", min: 1.0 }),
            check(Metric::L1HitRate, Mean, RatioAtLeast { a: "Adaptive", b: "TB-Pri", min: 1.0 }),
            // −0.5 pt at the ≈ 60 % mean L1 hit rate these six show under RR today.
            check(Metric::L1HitRate, Mean, RatioAtLeast { a: "TB-Pri", b: "RR", min: 0.99 }),
            // +2 pts is at least a ratio of 1.02 (at the 86–98 % L2 hit rates of these two under RR).
            on(
                &["clr-dp", "clr-dp-citation"],
                Metric::L2HitRate,
                Each,
                RatioAtLeast { a: "TB-Pri", b: "RR", min: 1.02 },
            ),
        ],
        status: Status::KnownFailure(
            "the L1 orderings hold (SMX-Bind ≥ Adaptive-Bind ≥ TB-Pri ≥ RR on the mean; on banded CLR 35.5, \
             34.7, 32.4 and 30.9 %), but TB-Pri raises the L2 hit rate by 1.5 points on banded CLR (85.6 to \
             87.1 %), not 2, and not at all on the citation input, whose L2 hit rate is 98.3 % under every \
             policy (no headroom)",
        ),
        headline: false,
    },
    Claim {
        id: "laperm-8.3-4",
        paper: Paper::Laperm,
        statement: "Under CDP, whose launches take tens of thousands of cycles and whose kernel table holds 32 \
                    kernels, every policy gains less than under DTBL: SMX-Bind is no faster than RR and \
                    Adaptive-Bind gains at most about 15 %.",
        paper_says: "CDP normalised IPC: TB-Pri 1.04, SMX-Bind ≈ 0.95 (below RR on almost every code), \
                     Adaptive-Bind 1.06, against 1.13 / 1.08 / 1.27 under DTBL (§V-B, §V-C).",
        workloads: GRAPHS,
        machine: "laperm-k20c",
        settings: OPEN,
        variants: &[
            with("RR CDP", "rr", "gto", CDP_PATH),
            with("TB-Pri CDP", "tb-pri", "gto", CDP_PATH),
            with("SMX-Bind CDP", "smx-bind", "gto", CDP_PATH),
            with("Adaptive CDP", "adaptive-bind", "gto", CDP_PATH),
            with("RR DTBL", "rr", "gto", DTBL_PATH),
            with("TB-Pri DTBL", "tb-pri", "gto", DTBL_PATH),
            with("SMX-Bind DTBL", "smx-bind", "gto", DTBL_PATH),
            with("Adaptive DTBL", "adaptive-bind", "gto", DTBL_PATH),
        ],
        checks: &[
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "SMX-Bind CDP", b: "RR CDP", max: 1.0 }),
            check(Metric::Ipc, GeometricMean, RatioBetween { a: "Adaptive CDP", b: "RR CDP", min: 1.0, max: 1.15 }),
            // Each policy's gain over RR is smaller under CDP than under DTBL.
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling { pairs: &[("TB-Pri DTBL", "RR DTBL"), ("TB-Pri CDP", "RR CDP")], slack: 0.0 },
            ),
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling { pairs: &[("SMX-Bind DTBL", "RR DTBL"), ("SMX-Bind CDP", "RR CDP")], slack: 0.0 },
            ),
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling { pairs: &[("Adaptive DTBL", "RR DTBL"), ("Adaptive CDP", "RR CDP")], slack: 0.0 },
            ),
        ],
        status: Status::KnownFailure(
            "under CDP Adaptive-Bind gains nothing (1.000 of RR), and SMX-Bind loses less under CDP (0.981) \
             than under DTBL (0.915), against the paper's ordering; but the DTBL figures they are compared with \
             are losses themselves (row 2's reasons), and under CDP the children wait longer still: on bfs-dp \
             37,000 cycles from launch to dispatch, 6,700 of them in the KMU behind a full KDU, and on banded CLR \
             176,000 cycles, with up to 3,176 kernels waiting in the KMU",
        ),
        headline: true,
    },
    Claim {
        id: "laperm-8.3-5",
        paper: Paper::Laperm,
        statement: "Lengthening the DTBL launch latency from 0 to 30,000 cycles steadily shrinks the IPC gains of \
                    Adaptive-Bind and TB-Pri over RR, as children start further from their parents in time.",
        paper_says: "Launch latency separates parent and child and kills their locality: gains fall from 27 % \
                     under DTBL to 6 % under CDP (≈ 29,000 cycles a launch); DTBL's own latency is not given \
                     (§IV-D, §V-C).",
        workloads: GRAPHS,
        machine: "laperm-k20c",
        settings: DTBL_SWEPT,
        variants: &[
            with("RR 0", "rr", "gto", LATENCY_0),
            with("TB-Pri 0", "tb-pri", "gto", LATENCY_0),
            with("Adaptive 0", "adaptive-bind", "gto", LATENCY_0),
            with("RR 500", "rr", "gto", LATENCY_500),
            with("TB-Pri 500", "tb-pri", "gto", LATENCY_500),
            with("Adaptive 500", "adaptive-bind", "gto", LATENCY_500),
            with("RR 5000", "rr", "gto", LATENCY_5000),
            with("TB-Pri 5000", "tb-pri", "gto", LATENCY_5000),
            with("Adaptive 5000", "adaptive-bind", "gto", LATENCY_5000),
            with("RR 30000", "rr", "gto", LATENCY_30000),
            with("TB-Pri 30000", "tb-pri", "gto", LATENCY_30000),
            with("Adaptive 30000", "adaptive-bind", "gto", LATENCY_30000),
        ],
        checks: &[
            // The ends of the sweep: at 0 cycles at least claim 2's DTBL gain; at 30,000 (CDP's latency)
            // no more than claim 4's CDP bound, and TB-Pri within 10 % (paper CDP 1.04; the notes give none).
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "Adaptive 0", b: "RR 0", min: 1.10 }),
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "TB-Pri 0", b: "RR 0", min: 1.0 }),
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "Adaptive 30000", b: "RR 30000", max: 1.15 }),
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "TB-Pri 30000", b: "RR 30000", max: 1.10 }),
            // Monotone along the sweep ("fall monotonically", laperm.md §8.3), with no slack.
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling {
                    pairs: &[
                        ("Adaptive 0", "RR 0"),
                        ("Adaptive 500", "RR 500"),
                        ("Adaptive 5000", "RR 5000"),
                        ("Adaptive 30000", "RR 30000"),
                    ],
                    slack: 0.0,
                },
            ),
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling {
                    pairs: &[
                        ("TB-Pri 0", "RR 0"),
                        ("TB-Pri 500", "RR 500"),
                        ("TB-Pri 5000", "RR 5000"),
                        ("TB-Pri 30000", "RR 30000"),
                    ],
                    slack: 0.0,
                },
            ),
        ],
        status: Status::KnownFailure(
            "there is no gain to lose: at zero latency Adaptive-Bind and TB-Pri are 4 % and 1 % below RR \
             (row 2's reasons), and along the sweep the ratios stay flat to 5,000 cycles (0.960, 0.961, 0.961 \
             and 0.990, 0.995, 0.992) before falling at 30,000",
        ),
        headline: false,
    },
    Claim {
        id: "laperm-8.3-6",
        paper: Paper::Laperm,
        statement: "Binding's L1 gain over TB-Pri is clear on a graph whose neighbours are close in id and about \
                    nil on graphs whose neighbours are scattered over the id range.",
        paper_says: "SMX-Bind's L1 hit rates are highest on pre and sssp_cage15; on graph500 inputs it shows no \
                     clear L1 gain over TB-Pri, their reuse being spread over many parents (§V-B).",
        // One program, three inputs: the notes' "with the input structure fixed".
        workloads: &[CLR_BANDED, CLR_CITATION, CLR_RMAT],
        machine: "laperm-k20c",
        settings: DTBL,
        variants: &[TB_PRI, SMX_BIND],
        checks: &[
            // "Clear" (the notes give no number): twice the 1 pt that counts as nil below, +2 pts, a ratio
            // of 1.07 at the 30 % banded shows under RR (1.10 at citation's 19 %).
            on(
                &["clr-dp", "clr-dp-citation"],
                Metric::L1HitRate,
                Each,
                RatioAtLeast { a: "SMX-Bind", b: "TB-Pri", min: 1.07 },
            ),
            // "≈ 0 (≤ 1 pt)": within 8 % at the 12.5 % it shows under RR.
            on(&["clr-dp-rmat"], Metric::L1HitRate, Each, Close { a: "SMX-Bind", b: "TB-Pri", tolerance: 0.08 }),
        ],
        status: Status::KnownFailure(
            "binding's L1 gain is clear on the banded input (+3.1 points, 32.4 to 35.5 %) but 1.2 points on \
             the citation input (18.5 to 19.7 %), short of the 2 asked for, and on the R-MAT input binding \
             costs 1.4 points (12.3 to 10.9 %) rather than nothing: there a few hubs launch most children, and \
             the SMs they are bound to run them while the others idle (no warp to issue in 24 % of SMX-Bind's \
             scheduler cycles, 8.5 % of TB-Pri's)",
        ),
        headline: false,
    },
    Claim {
        id: "laperm-8.3-7",
        paper: Paper::Laperm,
        statement: "Where launches are spread evenly (AMR) SMX-Bind and Adaptive-Bind run equally fast; where a few \
                    parents launch most children (JOIN) Adaptive-Bind is far faster.",
        paper_says: "amr and pre: IPC rises with SMX-Bind and stays flat with Adaptive-Bind (balanced launching); \
                     join: SMX-Bind below RR under DTBL, Adaptive-Bind recovers the balance (§V-B).",
        // The notes' balanced AMR input, the hot spot (the ring of `amr` launches unevenly once bound).
        workloads: &[workload("amr-hotspot"), workload("join")],
        machine: "laperm-k20c",
        settings: DTBL,
        variants: &[SMX_BIND, ADAPTIVE],
        checks: &[
            on(&["amr-hotspot"], Metric::Ipc, Each, Close { a: "SMX-Bind", b: "Adaptive", tolerance: 0.03 }),
            // "Far faster": 1.2× (the notes give no number).
            on(&["join"], Metric::Ipc, Each, RatioAtLeast { a: "Adaptive", b: "SMX-Bind", min: 1.2 }),
        ],
        status: Status::KnownFailure(
            "JOIN behaves as the paper says (Adaptive-Bind 1.21 times SMX-Bind's IPC: its sorted probes put \
             the big keys' launches in a few parent blocks, and bound to their SMs the children leave the \
             other SMs without a warp to issue in 21 % of SMX-Bind's scheduler cycles, 0.5 % of \
             Adaptive-Bind's), and on the notes' hot-spot AMR both policies raise IPC (SMX-Bind 1.07, \
             Adaptive-Bind 1.11 times RR's), but SMX-Bind trails by 3.6 %, not within 3 %: the launches are \
             balanced only to 2,002–2,464 child blocks per SM (the busiest 1.12 times the mean), and binding \
             leaves SMs without a warp in 8.2 % of scheduler cycles against Adaptive-Bind's 1.5 %. (The \
             library's other AMR, the ring-shaped front of `amr`, is unbalanced once bound: two parent blocks \
             start twice the subtree of any other, and SMX-Bind runs 1.9 times Adaptive-Bind's cycles.)",
        ),
        headline: false,
    },
    Claim {
        id: "laperm-8.3-8",
        paper: Paper::Laperm,
        statement: "Under CDP, cutting the kernel table from 32 entries to 4 hides more child kernels from the \
                    scheduler and shrinks TB-Pri's gain over RR.",
        paper_says: "The 32-entry KDU limits which children TB-Pri can see, one reason the CDP gain (1.04) trails \
                     DTBL's (1.13); no table-size sweep is reported (§IV-C, §V-C).",
        workloads: GRAPHS,
        machine: "laperm-k20c",
        settings: CDP,
        variants: &[
            RR,
            TB_PRI,
            with("RR KDU 4", "rr", "gto", &[("device_launch.kdu_entries", "4")]),
            with("TB-Pri KDU 4", "tb-pri", "gto", &[("device_launch.kdu_entries", "4")]),
        ],
        checks: &[
            // With 32 entries TB-Pri still gains (paper 1.04); with 4 it stays below the paper's 32-entry gain.
            check(Metric::Ipc, GeometricMean, RatioAtLeast { a: "TB-Pri", b: "RR", min: 1.0 }),
            check(Metric::Ipc, GeometricMean, RatioAtMost { a: "TB-Pri KDU 4", b: "RR KDU 4", max: 1.04 }),
            // The gain shrinks with the table.
            check(
                Metric::Ipc,
                GeometricMean,
                RatiosFalling { pairs: &[("TB-Pri", "RR"), ("TB-Pri KDU 4", "RR KDU 4")], slack: 0.0 },
            ),
        ],
        status: Status::KnownFailure(
            "TB-Pri does not gain under CDP even with 32 KDU entries (0.994 of RR): the children wait \
             37,000 cycles from launch to dispatch on bfs-dp, most of it the runtime's 28,900-cycle stall and \
             the KMU, by which time the parents have long run, so there is nothing left to overtake; with 4 \
             entries the ratio is 0.999, within the noise of the first",
        ),
        headline: false,
    },
];

/// One line of the headline table: `$policy`'s figure against RR's on each launch path (row 4's
/// variants are labelled "<policy> CDP" and "<policy> DTBL").
macro_rules! both_paths {
    ($kind:ident, $metric:expr, $quantity:literal, $policy:literal, $cdp:literal, $dtbl:literal) => {
        Line {
            quantity: $quantity,
            figures: &[
                Figure {
                    ours: Quantity::$kind { metric: $metric, a: concat!($policy, " CDP"), b: "RR CDP" },
                    paper: $cdp,
                },
                Figure {
                    ours: Quantity::$kind { metric: $metric, a: concat!($policy, " DTBL"), b: "RR DTBL" },
                    paper: $dtbl,
                },
            ],
        }
    };
}

/// The paper's headline table (laperm.md §8.1) beside ours, on row 4's runs: the graph kernels
/// under each policy on both launch paths.
pub(super) const SUMMARY: Summary = Summary {
    paper: Paper::Laperm,
    claim: "laperm-8.3-4",
    columns: &["CDP", "DTBL"],
    lines: &[
        both_paths!(Ratio, Metric::Ipc, "TB-Pri: normalised IPC", "TB-Pri", "1.04", "1.13"),
        both_paths!(Ratio, Metric::Ipc, "SMX-Bind: normalised IPC", "SMX-Bind", "≈ 0.95", "≈ 1.08"),
        both_paths!(Ratio, Metric::Ipc, "Adaptive-Bind: normalised IPC", "Adaptive", "1.06", "1.27"),
        both_paths!(Points, Metric::L1HitRate, "TB-Pri: L1 hit rate vs RR (points)", "TB-Pri", "+1.1", "+2.1"),
        both_paths!(Points, Metric::L1HitRate, "SMX-Bind: L1 hit rate vs RR (points)", "SMX-Bind", "+6.6", "+13.6"),
        both_paths!(
            Points,
            Metric::L1HitRate,
            "Adaptive-Bind: L1 hit rate vs RR (points)",
            "Adaptive",
            "≈ +4.3",
            "≈ +10.5"
        ),
        both_paths!(Points, Metric::L2HitRate, "TB-Pri: L2 hit rate vs RR (points)", "TB-Pri", "+6.7", "+8.7"),
        both_paths!(
            Points,
            Metric::L2HitRate,
            "SMX-Bind: L2 hit rate vs RR (points)",
            "SMX-Bind",
            "≈ TB-Pri's",
            "≈ TB-Pri's"
        ),
        both_paths!(
            Points,
            Metric::L2HitRate,
            "Adaptive-Bind: L2 hit rate vs RR (points)",
            "Adaptive",
            "≈ TB-Pri's",
            "≈ TB-Pri's"
        ),
        both_paths!(
            Ratio,
            Metric::Cycles,
            "TB-Pri: cycles / RR's (below 1 is faster)",
            "TB-Pri",
            "not given",
            "not given"
        ),
        both_paths!(
            Ratio,
            Metric::Cycles,
            "SMX-Bind: cycles / RR's (below 1 is faster)",
            "SMX-Bind",
            "not given",
            "not given"
        ),
        both_paths!(
            Ratio,
            Metric::Cycles,
            "Adaptive-Bind: cycles / RR's (below 1 is faster)",
            "Adaptive",
            "not given",
            "not given"
        ),
    ],
    note: "Ours are over the graph kernels of laperm-8.3-4 (bfs-dp, sssp-dp, sssp-dp-powerlaw and banded clr-dp), \
           each policy against RR on the same launch path (the paper's Fig. 9(a) is CDP over CDP-RR, 9(b) DTBL over \
           DTBL-RR): ratios as geometric means, hit-rate changes in percentage points as arithmetic means. The \
           cycle ratios are there because the graph kernels' work depends on the schedule (the notes' §7). The \
           paper averages over its 16 benchmark-input pairs; the figures marked ≈ are derived in the notes (§8.1).",
};
