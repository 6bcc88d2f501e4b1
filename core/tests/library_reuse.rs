//! The inter-kernel reuse workloads compute what plain Rust computes on the same inputs.

mod library_common;

use library_common::*;

#[test]
fn vecadd_adds() {
    let w = compile_at("vecadd", 1024);
    let start = initial(&w);
    let (a, b, c) = (index(&w, "a"), index(&w, "b"), index(&w, "c"));
    let expected: Vec<f32> = floats(&start[a]).iter().zip(floats(&start[b])).map(|(x, y)| x + y).collect();
    let end = run_reference(&w);
    assert_eq!(floats(&end[c]), expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// One hotspot step on an `n` x `n` grid, in the kernel's order of operations.
fn hotspot_step(power: &[f32], temp: &[f32], n: usize) -> Vec<f32> {
    let mut out = vec![0.0; n * n];
    for row in 0..n {
        for col in 0..n {
            let i = row * n + col;
            let c = temp[i];
            let north = if row > 0 { temp[i - n] } else { c };
            let south = if row < n - 1 { temp[i + n] } else { c };
            let west = if col > 0 { temp[i - 1] } else { c };
            let east = if col < n - 1 { temp[i + 1] } else { c };
            out[i] = c + 0.1f32 * (north + south + east + west - 4.0f32 * c) + 0.05f32 * power[i];
        }
    }
    out
}

#[test]
fn hotspot_matches_twenty_steps_in_rust() {
    let n = 32;
    let w = compile_at("hotspot", n as u32);
    assert_eq!(w.launches.len(), 20);
    let start = initial(&w);
    let power = floats(&start[index(&w, "power")]);
    let mut temp = floats(&start[index(&w, "temp")]);
    for _ in 0..20 {
        temp = hotspot_step(&power, &temp, n);
    }
    let end = run_reference(&w);
    // An even number of swaps: the last step wrote the buffer declared as `temp`.
    assert_eq!(floats(&end[index(&w, "temp")]), temp);
    assert_eq!(run_engine(&w, machine()), end);
}

/// The workload's launches as (kernel name, grid blocks) pairs.
fn launch_shapes(w: &warpscope_core::workload::Workload) -> Vec<(String, u64)> {
    w.launches.iter().map(|l| (w.kernels[l.kernel as usize].name.clone(), l.grid.count())).collect()
}

#[test]
fn pathfinder_matches_ten_rows_in_rust() {
    let cols = 512;
    let w = compile_at("pathfinder", cols as u32);
    let shapes = launch_shapes(&w);
    assert_eq!(shapes.len(), 10);
    assert!(shapes.iter().all(|(name, blocks)| name == "pathfinder" && *blocks == 3), "{shapes:?}");
    let start = initial(&w);
    let wall = ints(&start[index(&w, "wall")]);
    let mut cost = ints(&start[index(&w, "cost")]);
    for row in 0..10 {
        let mut next = vec![0; cols];
        for x in 0..cols {
            let mut best = cost[x];
            if x > 0 {
                best = best.min(cost[x - 1]);
            }
            if x < cols - 1 {
                best = best.min(cost[x + 1]);
            }
            next[x] = best + wall[row * cols + x];
        }
        cost = next;
    }
    let end = run_reference(&w);
    // Ten swaps: the last launch wrote the buffer declared as `cost`.
    assert_eq!(ints(&end[index(&w, "cost")]), cost);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// The neighbour of `i` in direction (`dr`, `dc`) on an `n` x `n` image, or `i` itself at the
/// edge.
fn clamped(i: usize, n: usize, dr: isize, dc: isize) -> usize {
    let (row, col) = ((i / n) as isize + dr, (i % n) as isize + dc);
    if row < 0 || col < 0 || row >= n as isize || col >= n as isize {
        i
    } else {
        row as usize * n + col as usize
    }
}

#[test]
fn srad_matches_ten_iterations_in_rust() {
    let n = 32;
    let w = compile_at("srad", n as u32);
    let shapes = launch_shapes(&w);
    assert_eq!(shapes.len(), 20, "two kernels per iteration");
    for (k, (name, blocks)) in shapes.iter().enumerate() {
        assert_eq!(name, if k % 2 == 0 { "srad1" } else { "srad2" });
        assert_eq!(*blocks, 4);
    }
    let start = initial(&w);
    let mut j = floats(&start[index(&w, "J")]);
    let (q0sqr, lambda) = (0.05f32, 0.5f32);
    let mut d = [vec![0.0f32; n * n], vec![0.0; n * n], vec![0.0; n * n], vec![0.0; n * n]];
    let mut c = vec![0.0f32; n * n];
    for _ in 0..10 {
        for i in 0..n * n {
            let jc = j[i];
            let dn = j[clamped(i, n, -1, 0)] - jc;
            let ds = j[clamped(i, n, 1, 0)] - jc;
            let dw = j[clamped(i, n, 0, -1)] - jc;
            let de = j[clamped(i, n, 0, 1)] - jc;
            // Products fuse into the additions that take them in (`--fmad=true`, docs/language.md);
            // a product subtracted from another does not.
            let g2 = de.mul_add(de, dw.mul_add(dw, dn.mul_add(dn, ds * ds))) / (jc * jc);
            let l = (dn + ds + dw + de) / jc;
            let num = 0.5f32 * g2 - 0.0625f32 * (l * l);
            let den = 0.25f32.mul_add(l, 1.0);
            let qsqr = num / (den * den);
            let den = (qsqr - q0sqr) / (q0sqr * (1.0f32 + q0sqr));
            c[i] = (1.0f32 / (1.0f32 + den)).clamp(0.0, 1.0);
            d[0][i] = dn;
            d[1][i] = ds;
            d[2][i] = dw;
            d[3][i] = de;
        }
        for i in 0..n * n {
            let (cc, cs, ce) = (c[i], c[clamped(i, n, 1, 0)], c[clamped(i, n, 0, 1)]);
            let sum = ce.mul_add(d[3][i], cc.mul_add(d[2][i], cc.mul_add(d[0][i], cs * d[1][i])));
            j[i] = (0.25f32 * lambda).mul_add(sum, j[i]);
        }
    }
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "J")]), j);
    assert_eq!(floats(&end[index(&w, "C")]), c);
    for (name, expected) in ["dN", "dS", "dW", "dE"].iter().zip(&d) {
        assert_eq!(&floats(&end[index(&w, name)]), expected, "{name}");
    }
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn stencil_matches_ten_jacobi_steps_in_rust() {
    let n = 32;
    let w = compile_at("stencil", n as u32);
    let shapes = launch_shapes(&w);
    assert_eq!(shapes.len(), 10);
    assert!(shapes.iter().all(|(_, blocks)| *blocks == 2), "{shapes:?}");
    assert_eq!(w.launches[0].block.count(), 128, "32 x 4 threads per block");
    let start = initial(&w);
    let mut grid = floats(&start[index(&w, "grid")]);
    for _ in 0..10 {
        let mut next = grid.clone();
        for row in 1..n - 1 {
            for col in 1..n - 1 {
                let i = row * n + col;
                next[i] = 0.5f32 * grid[i] + 0.125f32 * (grid[i - n] + grid[i + n] + grid[i - 1] + grid[i + 1]);
            }
        }
        grid = next;
    }
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "grid")]), grid);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn nw_matches_the_alignment_matrix_in_rust() {
    let n = 64;
    let w = compile_at("nw", n as u32);
    // One launch to set the borders, then one per anti-diagonal of 16 x 16 tiles.
    let blocks: Vec<u64> = launch_shapes(&w).iter().skip(1).map(|s| s.1).collect();
    assert_eq!(blocks, [1, 2, 3, 4, 3, 2, 1], "the wavefront rises then falls");
    let start = initial(&w);
    let reference = ints(&start[index(&w, "reference")]);
    let (cols, penalty) = (n + 1, 10);
    let mut score = vec![0i32; cols * cols];
    for i in 0..cols {
        score[i] = -(i as i32) * penalty;
        score[i * cols] = -(i as i32) * penalty;
    }
    for row in 1..cols {
        for col in 1..cols {
            let i = row * cols + col;
            let diagonal = score[i - cols - 1] + reference[i] - 4;
            score[i] = diagonal.max(score[i - 1] - penalty).max(score[i - cols] - penalty);
        }
    }
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "score")]), score);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// The nearest of the centroid set `set` for every point (features stored feature-major).
fn kmeans_assign(features: &[f32], centroids: &[f32], points: usize, set: usize) -> Vec<i32> {
    let (features_per_point, clusters) = (34, 5);
    (0..points)
        .map(|p| {
            let mut best = (0, 0.0f32);
            for k in 0..clusters {
                let mut dist = 0.0f32;
                for f in 0..features_per_point {
                    let diff = features[f * points + p] - centroids[(set * clusters + k) * features_per_point + f];
                    dist += diff * diff;
                }
                if k == 0 || dist < best.1 {
                    best = (k as i32, dist);
                }
            }
            best.0
        })
        .collect()
}

#[test]
fn kmeans_assigns_every_point_to_its_nearest_centroid() {
    let points = 256;
    let w = compile_at("kmeans", points as u32);
    assert_eq!(w.launches.len(), 5);
    assert!(launch_shapes(&w).iter().all(|(_, blocks)| *blocks == 4));
    let start = initial(&w);
    let features = floats(&start[index(&w, "features")]);
    let centroids = floats(&start[index(&w, "centroids")]);
    let first = kmeans_assign(&features, &centroids, points, 0);
    let last = kmeans_assign(&features, &centroids, points, 4);
    assert_ne!(first, last, "the memberships change from launch to launch");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "membership")]), last);
    // The control: nothing but `membership` is written, and no launch reads it.
    assert_eq!(end[index(&w, "features")], start[index(&w, "features")]);
    assert_eq!(end[index(&w, "centroids")], start[index(&w, "centroids")]);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn ubench_adds_sixteen_to_every_word_of_every_slice() {
    let w = compile_at("ubench", 6);
    let shapes = launch_shapes(&w);
    assert_eq!(shapes.len(), 16);
    assert!(shapes.iter().all(|(_, blocks)| *blocks == 6), "{shapes:?}");
    let a = index(&w, "a");
    let start = floats(&initial(&w)[a]);
    assert_eq!(start.len(), 6 * 8 * 256, "8 KB a block");
    let expected: Vec<f32> = start.iter().map(|x| (0..16).fold(*x, |v, _| v + 1.0)).collect();
    let end = run_reference(&w);
    assert_eq!(floats(&end[a]), expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

#[test]
fn ubench_ws_updates_block_b_1_to_64_times_rising_with_b() {
    let t = 8;
    let w = compile_at("ubench-ws", t as u32);
    let a = index(&w, "a");
    let start = floats(&initial(&w)[a]);
    let mut expected = start.clone();
    for _ in 0..16 {
        for b in 0..t {
            let n = 1 + (63 * b) / (t - 1);
            for j in 0..n {
                for x in 0..256 {
                    let i = (b * 8 + j % 8) * 256 + x;
                    expected[i] += 1.0;
                }
            }
        }
    }
    // Block 0 updates row 0 of its slice once a launch, block 7 every row 8 times (64 updates).
    let added = |i: usize| expected[i] - start[i];
    assert_eq!((added(0), added(256), added(7 * 2048), added(7 * 2048 + 7 * 256)), (16.0, 0.0, 128.0, 128.0));
    let end = run_reference(&w);
    assert_eq!(floats(&end[a]), expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}
