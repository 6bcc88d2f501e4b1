//! The concurrent-kernel workloads compute what plain Rust computes on the same inputs, and
//! the pair really launches its two kernels into two streams.

mod library_common;

use library_common::*;
use warpscope_core::exec::reference;

/// The Abramowitz-Stegun coefficients and 1/sqrt(2 pi), as the kernel writes them (its float
/// literals round to the nearest `f32`).
const CND: [f64; 6] = [0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429, 0.39894228];

/// The cumulative normal distribution as the kernel computes it.
fn cnd(d: f32) -> f32 {
    let [a1, a2, a3, a4, a5, rsqrt2pi] = CND.map(|c| c as f32);
    let k = 1.0f32 / (1.0f32 + 0.2316419f32 * d.abs());
    let poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    let c = rsqrt2pi * (-0.5f32 * d * d).exp() * poly;
    if d > 0.0 {
        1.0 - c
    } else {
        c
    }
}

#[test]
fn blackscholes_prices_every_option() {
    let options = 512;
    let w = compile_at("blackscholes", options as u32);
    assert_eq!(w.launches.len(), 1);
    assert_eq!(w.launches[0].grid.count() * w.launches[0].block.count() * 4, options as u64, "four options per thread");
    let start = initial(&w);
    let price = floats(&start[index(&w, "price")]);
    let strike = floats(&start[index(&w, "strike")]);
    let years = floats(&start[index(&w, "years")]);
    let (r, v) = (0.02f32, 0.30f32);
    let mut call = Vec::new();
    let mut put = Vec::new();
    for i in 0..options {
        let (s, x, t) = (price[i], strike[i], years[i]);
        let sqrt_t = t.sqrt();
        let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * sqrt_t);
        let d2 = d1 - v * sqrt_t;
        let (cnd1, cnd2) = (cnd(d1), cnd(d2));
        let exp_rt = (-r * t).exp();
        call.push(s * cnd1 - x * exp_rt * cnd2);
        put.push(x * exp_rt * (1.0 - cnd2) - s * (1.0 - cnd1));
    }
    let end = run_reference(&w);
    // expf and logf may differ from Rust's in the last bit.
    assert_close("call", &floats(&end[index(&w, "call")]), &call, 1e-4);
    assert_close("put", &floats(&end[index(&w, "put")]), &put, 1e-4);
    assert!(
        call.iter().any(|&c| c > 1.0) && put.iter().any(|&p| p > 1.0),
        "the inputs price both in and out of the money"
    );
    let run = reference::run_workload(&w, 32, 1 << 32).unwrap();
    let memory_ops = 5 * options as u64 / 32;
    assert!(run.warp_instructions > 12 * memory_ops, "compute-intensive: {} warp instructions", run.warp_instructions);
}

#[test]
fn matmul_multiplies() {
    let n = 32;
    let w = compile_at("matmul", n as u32);
    assert_eq!(w.launches[0].grid.count(), 4);
    let start = initial(&w);
    let a = floats(&start[index(&w, "A")]);
    let b = floats(&start[index(&w, "B")]);
    let mut c = vec![0.0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            let mut sum = 0.0f32;
            for k in 0..n {
                // `sum += a * b` is one fused multiply-add in the kernel language, as in nvcc
                // (`--fmad=true`, docs/language.md): one rounding, which `mul_add` also does.
                sum = a[row * n + k].mul_add(b[k * n + col], sum);
            }
            c[row * n + col] = sum;
        }
    }
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "C")]), c);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn copy_copies() {
    let n = 4096;
    let w = compile_at("copy", n as u32);
    assert_eq!(w.launches[0].grid.count(), 4);
    let start = initial(&w);
    let end = run_reference(&w);
    assert_eq!(end[index(&w, "dst")], start[index(&w, "src")]);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn histogram_counts_every_value() {
    let n = 4096;
    let w = compile_at("histogram", n as u32);
    assert_eq!(w.launches[0].grid.count(), 2);
    let start = initial(&w);
    let mut hist = vec![0i32; 256];
    for v in ints(&start[index(&w, "data")]) {
        hist[(v * v / 256) as usize] += 1;
    }
    assert!(hist[0] > 4 * hist[255], "the low bins are hot: {} against {}", hist[0], hist[255]);
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "hist")]), hist);
    assert_eq!(run_engine(&w, machine()), end, "integer atomics: the same counts in any order");
}

#[test]
fn spmv_multiplies_the_banded_jagged_diagonal_matrix() {
    let (n, ndiag, window) = (384, 32, 224);
    let w = compile_at("spmv", n as u32);
    assert_eq!(w.launches[0].grid.count(), 2);
    let start = initial(&w);
    let diag_start = ints(&start[index(&w, "diag_start")]);
    assert_eq!(diag_start, (0..ndiag as i32).collect::<Vec<_>>());
    let offset = ints(&start[index(&w, "offset")]);
    assert!(offset.iter().all(|&o| (0..window).contains(&o)), "columns within the band");
    let value = floats(&start[index(&w, "value")]);
    let x = floats(&start[index(&w, "x")]);
    let y: Vec<f32> = (0..n)
        .map(|row| {
            let mut sum = 0.0f32;
            for d in 0..ndiag {
                let p = d * n + row;
                let col = (row + offset[p] as usize) % n;
                // `sum += a * b` is one fused multiply-add, as in nvcc.
                sum = value[p].mul_add(x[col], sum);
            }
            sum
        })
        .collect();
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "y")]), y);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn kmeans_transpose_swaps_points_and_features() {
    let (points, features) = (256, 34);
    let w = compile_at("kmeans-transpose", points as u32);
    assert_eq!(w.launches[0].grid.count(), 1);
    let start = initial(&w);
    let input = &start[index(&w, "points_major")];
    let mut expected = vec![0u32; points * features];
    for p in 0..points {
        for f in 0..features {
            expected[f * points + p] = input[p * features + f];
        }
    }
    let end = run_reference(&w);
    assert_eq!(end[index(&w, "features_major")], expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn the_pair_runs_a_compute_and_a_memory_kernel_in_two_streams() {
    let points = 256;
    let w = compile_at("pair-compute-memory", points as u32);
    let names: Vec<&str> = w.launches.iter().map(|l| w.kernels[l.kernel as usize].name.as_str()).collect();
    assert_eq!(names, ["transpose_strided"].into_iter().chain(["compute_heavy"; 8]).collect::<Vec<_>>());
    let memory_stream = w.launches[0].stream;
    let compute_stream = w.launches[1].stream;
    assert!(memory_stream != 0 && compute_stream != 0 && memory_stream != compute_stream, "two non-default streams");
    assert!(
        w.launches[1..].iter().all(|l| l.stream == compute_stream),
        "the compute kernel is relaunched in its stream"
    );

    let start = initial(&w);
    let seeds = floats(&start[index(&w, "seeds")]);
    let table = floats(&start[index(&w, "table")]);
    let results: Vec<f32> = (0..points)
        .map(|i| {
            let (mut x, mut acc) = (seeds[i], 0.0f32);
            for k in 0..64 {
                x = x.mul_add(0.75, table[(k % 4) * points + i]);
                acc = acc + x.sin() * 0.5 + x * x;
            }
            acc
        })
        .collect();
    let points_major = &start[index(&w, "points_major")];
    let mut features_major = vec![0u32; points * 34];
    for p in 0..points {
        for f in 0..34 {
            features_major[f * points + p] = points_major[p * 34 + f];
        }
    }
    let end = run_reference(&w);
    // sinf may differ from Rust's in the last bit.
    assert_close("results", &floats(&end[index(&w, "results")]), &results, 1e-5);
    assert_eq!(end[index(&w, "features_major")], features_major);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}
