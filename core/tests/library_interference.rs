//! The cache-interference workloads compute what plain Rust computes on the same inputs, with
//! the same order of float operations, so the comparisons are exact.
// The references index arrays by loop counters on purpose: they mirror the kernels' loops.
#![allow(clippy::needless_range_loop)]

mod library_common;

use library_common::*;
use warpscope_core::exec::reference;
use warpscope_core::library;

const ALPHA: f32 = 1.5;
const BETA: f32 = 1.2;

/// `init[i] + sum_j a[i][j] x[j]`, summed in order of `j` (a thread walking row `i`), each
/// step one fused multiply-add (`sum += a * x` contracts in the kernel language, as with
/// nvcc's default `--fmad=true`).
fn row_walk(a: &[f32], x: &[f32], init: &[f32], n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let mut sum = init[i];
            for j in 0..n {
                sum = a[i * n + j].mul_add(x[j], sum);
            }
            sum
        })
        .collect()
}

/// `init[j] + sum_i a[i][j] x[i]`, summed in order of `i` (a thread walking column `j`).
fn column_walk(a: &[f32], x: &[f32], init: &[f32], n: usize) -> Vec<f32> {
    (0..n)
        .map(|j| {
            let mut sum = init[j];
            for i in 0..n {
                sum = a[i * n + j].mul_add(x[i], sum);
            }
            sum
        })
        .collect()
}

fn float_buffer(w: &warpscope_core::workload::Workload, words: &[Vec<u32>], name: &str) -> Vec<f32> {
    floats(&words[index(w, name)])
}

#[test]
fn every_workload_is_in_the_interference_category() {
    let ids: Vec<&str> =
        library::all().filter(|w| w.category == library::Category::CacheInterference).map(|w| w.id).collect();
    assert_eq!(ids, ["atax", "bicg", "mvt", "gesummv", "2dconv", "3dconv", "syr2k", "gemm", "kmn", "mapreduce"]);
}

fn check_atax(n: usize) {
    let w = compile_at("atax", n as u32);
    assert_eq!(w.launches.len(), 2);
    let start = initial(&w);
    let a = float_buffer(&w, &start, "A");
    let x = float_buffer(&w, &start, "x");
    let zeros = vec![0.0f32; n];
    let tmp = row_walk(&a, &x, &zeros, n);
    let y = column_walk(&a, &tmp, &zeros, n);
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "tmp"), tmp);
    assert_eq!(float_buffer(&w, &end, "y"), y);
    assert_eq!(float_buffer(&w, &end, "A"), a, "A is only read");
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn atax_matches_rust() {
    check_atax(64);
}

#[test]
fn atax_guards_a_partial_last_block() {
    check_atax(100);
}

#[test]
fn bicg_matches_rust() {
    let n = 64;
    let w = compile_at("bicg", n as u32);
    assert_eq!(w.launches.len(), 2);
    let start = initial(&w);
    let a = float_buffer(&w, &start, "A");
    let zeros = vec![0.0f32; n];
    let s = column_walk(&a, &float_buffer(&w, &start, "r"), &zeros, n);
    let q = row_walk(&a, &float_buffer(&w, &start, "p"), &zeros, n);
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "s"), s);
    assert_eq!(float_buffer(&w, &end, "q"), q);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn mvt_matches_rust() {
    let n = 64;
    let w = compile_at("mvt", n as u32);
    assert_eq!(w.launches.len(), 2);
    let start = initial(&w);
    let a = float_buffer(&w, &start, "a");
    let x1 = row_walk(&a, &float_buffer(&w, &start, "y1"), &float_buffer(&w, &start, "x1"), n);
    // Thread i of mvt_kernel2 walks column i: x2[i] += a[j][i] y2[j] in order of j.
    let x2 = column_walk(&a, &float_buffer(&w, &start, "y2"), &float_buffer(&w, &start, "x2"), n);
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "x1"), x1);
    assert_eq!(float_buffer(&w, &end, "x2"), x2);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn gesummv_matches_rust() {
    let n = 64;
    let w = compile_at("gesummv", n as u32);
    assert_eq!(w.launches.len(), 1);
    let start = initial(&w);
    let (a, b, x) = (float_buffer(&w, &start, "A"), float_buffer(&w, &start, "B"), float_buffer(&w, &start, "x"));
    let zeros = vec![0.0f32; n];
    let tmp = row_walk(&a, &x, &zeros, n);
    let bx = row_walk(&b, &x, &zeros, n);
    let y: Vec<f32> = tmp.iter().zip(&bx).map(|(t, s)| ALPHA.mul_add(*t, BETA * s)).collect();
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "tmp"), tmp);
    assert_eq!(float_buffer(&w, &end, "y"), y);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// `c1 * x1 + c2 * x2 + …` as the kernel language computes it: the first product fuses with
/// the addition of the second, each later one with the addition that takes it in.
fn fused_sum(terms: &[(f32, f32)]) -> f32 {
    let mut sum = terms[0].0.mul_add(terms[0].1, terms[1].0 * terms[1].1);
    for &(c, x) in &terms[2..] {
        sum = c.mul_add(x, sum);
    }
    sum
}

#[test]
fn conv2d_matches_rust() {
    for n in [32usize, 45] {
        let w = compile_at("2dconv", n as u32);
        assert_eq!(w.launches.len(), 1);
        let start = initial(&w);
        let a = float_buffer(&w, &start, "A");
        let (c11, c21, c31) = (0.2f32, 0.5f32, -0.8f32);
        let (c12, c22, c32) = (-0.3f32, 0.6f32, -0.9f32);
        let (c13, c23, c33) = (0.4f32, 0.7f32, 0.1f32);
        let mut b = vec![0.0f32; n * n];
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                b[i * n + j] = fused_sum(&[
                    (c11, a[(i - 1) * n + (j - 1)]),
                    (c21, a[(i - 1) * n + j]),
                    (c31, a[(i - 1) * n + (j + 1)]),
                    (c12, a[i * n + (j - 1)]),
                    (c22, a[i * n + j]),
                    (c32, a[i * n + (j + 1)]),
                    (c13, a[(i + 1) * n + (j - 1)]),
                    (c23, a[(i + 1) * n + j]),
                    (c33, a[(i + 1) * n + (j + 1)]),
                ]);
            }
        }
        let end = run_reference(&w);
        assert_eq!(float_buffer(&w, &end, "B"), b, "n = {n}");
        if n == 32 {
            assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
        }
    }
}

#[test]
fn conv3d_launches_one_kernel_per_plane_and_matches_rust() {
    let n = 8;
    let w = compile_at("3dconv", n as u32);
    assert_eq!(w.launches.len(), n - 2, "one launch per interior plane");
    let start = initial(&w);
    let a = float_buffer(&w, &start, "A");
    let (c11, c21, c31) = (2.0f32, 5.0f32, -8.0f32);
    let (c12, c22, c32) = (-3.0f32, 6.0f32, -9.0f32);
    let (c13, c23, c33) = (4.0f32, 7.0f32, 10.0f32);
    let p = n * n;
    let at = |i: usize, j: usize, k: usize| a[i * p + j * n + k];
    let mut b = vec![0.0f32; n * n * n];
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            for k in 1..n - 1 {
                b[i * p + j * n + k] = fused_sum(&[
                    (c11, at(i - 1, j - 1, k - 1)),
                    (c13, at(i + 1, j - 1, k - 1)),
                    (c21, at(i - 1, j - 1, k - 1)),
                    (c23, at(i + 1, j - 1, k - 1)),
                    (c31, at(i - 1, j - 1, k - 1)),
                    (c33, at(i + 1, j - 1, k - 1)),
                    (c12, at(i, j - 1, k)),
                    (c22, at(i, j, k)),
                    (c32, at(i, j + 1, k)),
                    (c11, at(i - 1, j - 1, k + 1)),
                    (c13, at(i + 1, j - 1, k + 1)),
                    (c21, at(i - 1, j, k + 1)),
                    (c23, at(i + 1, j, k + 1)),
                    (c31, at(i - 1, j + 1, k + 1)),
                    (c33, at(i + 1, j + 1, k + 1)),
                ]);
            }
        }
    }
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "B"), b);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn syr2k_matches_rust() {
    let n = 32;
    let w = compile_at("syr2k", n as u32);
    assert_eq!(w.launches.len(), 1);
    let start = initial(&w);
    let (a, b, c0) = (float_buffer(&w, &start, "a"), float_buffer(&w, &start, "b"), float_buffer(&w, &start, "c"));
    let mut c = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut sum = c0[i * n + j] * BETA;
            for k in 0..n {
                // The first product fuses with the addition of the second; `sum +=` of that
                // sum is a plain addition (its operand is no product).
                sum += (ALPHA * a[i * n + k]).mul_add(b[j * n + k], ALPHA * b[i * n + k] * a[j * n + k]);
            }
            c[i * n + j] = sum;
        }
    }
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "c"), c);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn gemm_matches_rust() {
    let n = 32;
    let w = compile_at("gemm", n as u32);
    assert_eq!(w.launches.len(), 1);
    let start = initial(&w);
    let (a, b, c0) = (float_buffer(&w, &start, "a"), float_buffer(&w, &start, "b"), float_buffer(&w, &start, "c"));
    let mut c = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut sum = c0[i * n + j] * BETA;
            for k in 0..n {
                sum = (ALPHA * a[i * n + k]).mul_add(b[k * n + j], sum);
            }
            c[i * n + j] = sum;
        }
    }
    let end = run_reference(&w);
    assert_eq!(float_buffer(&w, &end, "c"), c);
}

const REC_LEN: usize = 32;
const MAX_WORDS: usize = 16;
const LETTER: i32 = 4;
const BUCKETS: u32 = 1024;
const BLOCK: usize = 256;

/// The buckets of the words of one record, in order.
fn record_keys(record: &[i32]) -> Vec<i32> {
    let mut keys = Vec::new();
    let (mut h, mut len) = (0u32, 0);
    for &c in record {
        if c >= LETTER {
            h = h.wrapping_mul(31).wrapping_add(c as u32);
            len += 1;
        } else if len > 0 {
            keys.push((h % BUCKETS) as i32);
            h = 0;
            len = 0;
        }
    }
    if len > 0 {
        keys.push((h % BUCKETS) as i32);
    }
    keys
}

fn check_mapreduce(records: usize, engine: bool) {
    let w = compile_at("mapreduce", records as u32);
    assert_eq!(w.launches.len(), 2, "a map and a reduce");
    let start = initial(&w);
    let text = ints(&start[index(&w, "text")]);
    assert_eq!(text.len(), records * REC_LEN);
    assert!(text.iter().all(|&c| (0..=26).contains(&c)));

    let blocks = records.div_ceil(BLOCK);
    let mut keys = vec![0i32; records * MAX_WORDS];
    let mut block_words = vec![0i32; blocks];
    let mut counts = vec![0i32; BUCKETS as usize];
    for b in 0..blocks {
        let mut slot = b * BLOCK * MAX_WORDS;
        for r in b * BLOCK..((b + 1) * BLOCK).min(records) {
            let emitted = record_keys(&text[r * REC_LEN..(r + 1) * REC_LEN]);
            assert!(emitted.len() <= MAX_WORDS);
            for k in emitted {
                keys[slot] = k;
                slot += 1;
                counts[k as usize] += 1;
                block_words[b] += 1;
            }
        }
    }
    let total: i32 = block_words.iter().sum();
    assert!(total as usize > records * 3, "about five words per record, got {total} in {records}");

    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "block_words")]), block_words);
    assert_eq!(ints(&end[index(&w, "keys")]), keys);
    assert_eq!(ints(&end[index(&w, "counts")]), counts);
    assert_eq!(ints(&end[index(&w, "counts")]).iter().sum::<i32>(), total, "every emitted key is counted once");
    if engine {
        assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
    }
}

#[test]
fn mapreduce_counts_words_like_rust() {
    check_mapreduce(256, true);
}

#[test]
fn mapreduce_guards_a_partial_last_block() {
    check_mapreduce(300, true);
}

/// KMN's nearest centroid of every point, as a thread computes it: per cluster the squared
/// distance summed over the features in order (each step a fused multiply-add), the first
/// cluster taken and then any strictly nearer one.
fn nearest_centroids(points: &[f32], centroids: &[f32], features: usize) -> Vec<i32> {
    let clusters = centroids.len() / features;
    points
        .chunks(features)
        .map(|point| {
            let (mut best, mut best_dist) = (0, 0.0f32);
            for c in 0..clusters {
                let mut dist = 0.0f32;
                for f in 0..features {
                    let diff = point[f] - centroids[c * features + f];
                    dist = diff.mul_add(diff, dist);
                }
                if c == 0 || dist < best_dist {
                    (best, best_dist) = (c as i32, dist);
                }
            }
            best
        })
        .collect()
}

fn check_kmn(points: usize) {
    const FEATURES: usize = 32;
    let w = compile_at("kmn", points as u32);
    let start = initial(&w);
    let coordinates = float_buffer(&w, &start, "points");
    let centroids = float_buffer(&w, &start, "centroids");
    assert_eq!((coordinates.len(), centroids.len()), (points * FEATURES, 8 * FEATURES));
    let expected = nearest_centroids(&coordinates, &centroids, FEATURES);
    let mut used: Vec<i32> = expected.clone();
    used.sort_unstable();
    used.dedup();
    assert!(used.len() > 4, "the points spread over the clusters: {used:?}");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "membership")]), expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn kmn_assigns_every_point_its_nearest_centroid_like_rust() {
    check_kmn(256);
}

#[test]
fn kmn_guards_a_partial_last_block() {
    check_kmn(300);
}

#[test]
fn the_smallest_sizes_are_small() {
    // Every workload at its knob's minimum stays well under 200k warp instructions.
    for w in library::all().filter(|w| w.category == library::Category::CacheInterference) {
        let workload = compile_at(w.id, w.size.min);
        let run = reference::run_workload(&workload, 32, 1 << 32).unwrap_or_else(|e| panic!("{}: {e:?}", w.id));
        assert!(
            run.warp_instructions < 200_000,
            "{} at {}: {} warp instructions",
            w.id,
            w.size.min,
            run.warp_instructions
        );
    }
}

/// The row walk (every lane its own line, re-read over 32 iterations) is what the warps fight
/// over: with one block of 8 warps (32 lines each against a 128-line L1) it takes several times
/// the cycles of the coalesced column walk over the same matrix, for the same instructions.
#[test]
fn row_walks_thrash_the_l1_and_column_walks_do_not() {
    use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};
    for (id, row_kernel) in [("atax", 0), ("bicg", 1), ("mvt", 0)] {
        // About the cache, not the compiler: unoptimised, the two walks run the same instructions
        // (optimised, the column walk's stride costs one more multiplication per thread).
        let w = compile_unoptimised_at(id, 256);
        let mut sim = Simulation::new(machine(), w, &Policies::default(), RunOptions::default()).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        let report = sim.report();
        assert_eq!(report.kernels.len(), 2);
        let (row, column) = (&report.kernels[row_kernel], &report.kernels[1 - row_kernel]);
        assert_eq!(row.warp_instructions, column.warp_instructions, "{id}");
        let cycles = |k: &warpscope_core::stats::KernelReport| k.end_cycle - k.start_cycle;
        assert!(
            cycles(row) > 3 * cycles(column),
            "{id}: the row walk takes {} cycles, the column walk {}",
            cycles(row),
            cycles(column)
        );
    }
}
