//! The cache-sensitivity workloads compute what plain Rust computes on the same inputs.
// The references index arrays by loop counters on purpose: they mirror the kernels' loops.
#![allow(clippy::needless_range_loop)]

mod library_common;

use library_common::*;
use warpscope_core::workload::Workload;

/// A graph's CSR buffers, read from the initial memory.
struct Csr {
    offsets: Vec<usize>,
    columns: Vec<usize>,
}

impl Csr {
    fn read(w: &Workload, start: &[Vec<u32>], name: &str) -> Csr {
        let words = |part: &str| start[index(w, &format!("{name}.{part}"))].clone();
        Csr {
            offsets: words("offsets").iter().map(|&x| x as usize).collect(),
            columns: words("columns").iter().map(|&x| x as usize).collect(),
        }
    }

    fn vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.columns[self.offsets[v]..self.offsets[v + 1]].iter().copied()
    }
}

#[test]
fn bfs_finds_the_bfs_levels() {
    let levels = 8;
    let w = compile_at("bfs", 1024);
    assert_eq!(w.launches.len(), 1 + 2 * levels);
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    let n = g.vertices();
    let mut cost = vec![-1i32; n];
    cost[0] = 0;
    let mut frontier = vec![0];
    for depth in 0..levels as i32 {
        let mut next = Vec::new();
        for &v in &frontier {
            for u in g.neighbours(v) {
                if cost[u] < 0 {
                    cost[u] = depth + 1;
                    next.push(u);
                }
            }
        }
        frontier = next;
    }
    assert!(cost.iter().filter(|&&c| c >= 0).count() > n / 2, "the search reaches most vertices");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "cost")]), cost);
    let visited: Vec<i32> = cost.iter().map(|&c| (c >= 0) as i32).collect();
    assert_eq!(ints(&end[index(&w, "visited")]), visited);
    let mask: Vec<i32> = cost.iter().map(|&c| (c == levels as i32) as i32).collect();
    assert_eq!(ints(&end[index(&w, "mask")]), mask);
    assert!(ints(&end[index(&w, "updating")]).iter().all(|&u| u == 0));
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// Wellons' lowbias32, as the kernels' `mix`.
#[test]
fn memcached_gets_the_value_of_every_stored_key() {
    let n = 1024usize;
    let w = compile_at("memcached", n as u32);
    let start = initial(&w);
    let target = ints(&start[index(&w, "target")]);
    let end = run_reference(&w);
    let items = &end[index(&w, "items")];
    let buckets = (n * 2 / 5) as u32;

    // Every stored key hashes to its item's bucket, and the keys are distinct.
    let key = |words: &[u32]| words.iter().fold(0u32, |h, &k| (h * 31 + k) % buckets);
    let mut seen = std::collections::HashSet::new();
    for i in 0..n {
        let stored = &items[i * 32..i * 32 + 16];
        assert_eq!(key(stored), i as u32 % buckets, "item {i}");
        assert!(seen.insert(stored.to_vec()), "item {i}'s key is unique");
    }

    // A request for a stored item gets its value, any other request -1.
    let mut hits = 0;
    let expected: Vec<i32> = target
        .iter()
        .map(|&t| {
            let t = t as usize;
            if t < n {
                hits += 1;
                (mix(t as u32 ^ 0x5bd1e995) & 0x7fff_ffff) as i32
            } else {
                -1
            }
        })
        .collect();
    assert!(hits > n / 2 && hits < n);
    assert_eq!(ints(&end[index(&w, "out")]), expected);
    assert_eq!(run_engine(&w, machine()), end);
}

#[test]
fn coloring_colours_the_graph_by_jones_plassmann_rounds() {
    let w = compile_at("coloring", 1024);
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    let n = g.vertices();
    let prio: Vec<u32> = (0..n as u32).map(mix).collect();
    let mut color = vec![-1i32; n];
    for round in 0..32 {
        let mut nmax = vec![0u32; n];
        for v in (0..n).filter(|&v| color[v] < 0) {
            for u in g.neighbours(v).filter(|&u| color[u] < 0) {
                nmax[v] = nmax[v].max(prio[u]);
                nmax[u] = nmax[u].max(prio[v]);
            }
        }
        for v in 0..n {
            if color[v] < 0 && prio[v] >= nmax[v] {
                color[v] = round;
            }
        }
    }
    assert!(color.iter().all(|&c| c >= 0), "32 rounds colour every vertex at this size");
    for v in 0..n {
        for u in g.neighbours(v) {
            assert_ne!(color[v], color[u], "edge {v} -> {u}");
        }
    }
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "color")]), color);
    assert_eq!(end[index(&w, "prio")], prio);
    assert_eq!(run_engine(&w, machine()), end);
}

#[test]
fn backprop_matches_rodinia_in_rust() {
    let (input_units, hid) = (256usize, 16usize);
    let w = compile_at("backprop", input_units as u32);
    let start = initial(&w);
    let input = floats(&start[index(&w, "input")]);
    let mut weights = floats(&start[index(&w, "weights")]);
    let mut oldw = floats(&start[index(&w, "oldw")]);
    let delta = floats(&start[index(&w, "delta")]);
    let cols = hid + 1;
    let blocks = input_units / 16;

    // Layer forward: per block of 16 inputs, a tree reduction over the 16 rows.
    let mut partial = vec![0.0f32; blocks * hid];
    for by in 0..blocks {
        for tx in 0..16 {
            let mut m: Vec<f32> =
                (0..16).map(|ty| weights[(16 * by + ty + 1) * cols + tx + 1] * input[16 * by + ty + 1]).collect();
            for i in 1..=4 {
                let p = 1 << i;
                for ty in (0..16).step_by(p) {
                    m[ty] += m[ty + p / 2];
                }
            }
            partial[by * hid + tx] = m[0];
        }
    }
    let mut hidden = vec![0.0f32; hid + 1];
    for j in 0..hid {
        let mut sum = 0.0f32;
        for k in 0..blocks {
            sum += partial[k * hid + j];
        }
        sum += weights[j + 1];
        hidden[j + 1] = 1.0 / (1.0 + (-sum).exp());
    }
    // Weight adjustment.
    let (eta, momentum) = (0.3f32, 0.3f32);
    for row in 1..=input_units {
        for x in 1..cols {
            let i = row * cols + x;
            // The first product fuses with the addition (`--fmad=true`, docs/language.md).
            let change = (eta * delta[x]).mul_add(input[row], momentum * oldw[i]);
            weights[i] += change;
            oldw[i] = change;
        }
    }
    for x in 1..cols {
        let change = eta.mul_add(delta[x], momentum * oldw[x]);
        weights[x] += change;
        oldw[x] = change;
    }

    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "partial")]), partial);
    assert_close("hidden", &floats(&end[index(&w, "hidden")]), &hidden, 1e-6);
    assert_eq!(floats(&end[index(&w, "weights")]), weights);
    assert_eq!(floats(&end[index(&w, "oldw")]), oldw);
    assert_eq!(run_engine(&w, machine()), end);
}

/// Rodinia's blocked LU decomposition on an `n` x `n` row-major matrix, kernel by kernel in the
/// kernels' order of float operations.
fn lud_blocked(m: &mut [f32], n: usize) {
    const B: usize = 16;
    let diagonal = |m: &mut [f32], off: usize| {
        let mut s = [[0.0f32; B]; B];
        for i in 0..B {
            for j in 0..B {
                s[i][j] = m[(off + i) * n + off + j];
            }
        }
        for i in 0..B - 1 {
            for t in i + 1..B {
                for j in 0..i {
                    s[t][i] -= s[t][j] * s[j][i];
                }
                s[t][i] /= s[i][i];
            }
            for t in i + 1..B {
                for j in 0..=i {
                    s[i + 1][t] -= s[i + 1][j] * s[j][t];
                }
            }
        }
        for i in 1..B {
            for j in 0..B {
                m[(off + i) * n + off + j] = s[i][j];
            }
        }
    };
    let mut off = 0;
    while off < n - B {
        diagonal(m, off);
        let tiles = (n - off) / B - 1;
        let mut dia = [[0.0f32; B]; B];
        for i in 0..B {
            for j in 0..B {
                dia[i][j] = m[(off + i) * n + off + j];
            }
        }
        for t in 0..tiles {
            // The row strip right of the diagonal tile, then the column strip below it.
            let col0 = off + (t + 1) * B;
            for idx in 0..B {
                for i in 1..B {
                    for j in 0..i {
                        m[(off + i) * n + col0 + idx] -= dia[i][j] * m[(off + j) * n + col0 + idx];
                    }
                }
            }
            let row0 = off + (t + 1) * B;
            for idx in 0..B {
                for i in 0..B {
                    for j in 0..i {
                        m[(row0 + idx) * n + off + i] -= m[(row0 + idx) * n + off + j] * dia[j][i];
                    }
                    m[(row0 + idx) * n + off + i] /= dia[i][i];
                }
            }
        }
        for ty in 0..tiles {
            for tx in 0..tiles {
                let (r0, c0) = (off + (ty + 1) * B, off + (tx + 1) * B);
                for y in 0..B {
                    for x in 0..B {
                        let mut sum = 0.0f32;
                        for i in 0..B {
                            sum = m[(r0 + y) * n + off + i].mul_add(m[(off + i) * n + c0 + x], sum);
                            // fused, as the kernel's `sum +=`
                        }
                        m[(r0 + y) * n + c0 + x] -= sum;
                    }
                }
            }
        }
        off += B;
    }
    diagonal(m, n - B);
}

#[test]
fn lud_factors_the_matrix_as_rodinia_does() {
    let n = 32;
    let w = compile_at("lud", n as u32);
    assert_eq!(w.launches.len(), 1 + 3 + 1);
    let start = initial(&w);
    let mut a = floats(&start[index(&w, "m")]);
    for i in 0..n {
        a[i * n + i] += n as f32;
    }
    let mut lu = a.clone();
    lud_blocked(&mut lu, n);
    let end = run_reference(&w);
    let got = floats(&end[index(&w, "m")]);
    assert_eq!(got, lu);

    // And it is an LU decomposition: L (unit lower) times U gives the matrix back.
    let mut product = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut sum = 0.0f32;
            for k in 0..=i.min(j) {
                let l = if k == i { 1.0 } else { got[i * n + k] };
                sum += l * got[k * n + j];
            }
            product[i * n + j] = sum;
        }
    }
    assert_close("L * U", &product, &a, 1e-5);
    assert_eq!(run_engine(&w, machine()), end);
}

#[test]
fn nbody_integrates_two_steps() {
    let n = 256;
    let w = compile_at("nbody", n as u32);
    assert_eq!(w.launches.len(), 2);
    let start = initial(&w);
    let mut p: Vec<Vec<f32>> = ["px", "py", "pz"].iter().map(|b| floats(&start[index(&w, b)])).collect();
    let mass = floats(&start[index(&w, "mass")]);
    let mut v = vec![vec![0.0f32; n]; 3];
    for _ in 0..2 {
        let mut q = vec![vec![0.0f32; n]; 3];
        for i in 0..n {
            let mut a = [0.0f32; 3];
            for k in 0..n {
                let d = [p[0][k] - p[0][i], p[1][k] - p[1][i], p[2][k] - p[2][i]];
                // Products fuse into the additions that take them in (`--fmad=true`, docs/language.md).
                let d2 = d[2].mul_add(d[2], d[0].mul_add(d[0], d[1] * d[1])) + 0.01;
                let inv = 1.0 / d2.sqrt();
                let s = mass[k] * inv * inv * inv;
                for c in 0..3 {
                    a[c] = d[c].mul_add(s, a[c]);
                }
            }
            for c in 0..3 {
                v[c][i] = a[c].mul_add(0.01, v[c][i]);
                q[c][i] = v[c][i].mul_add(0.01, p[c][i]);
            }
        }
        p = q;
    }
    let end = run_reference(&w);
    // Two swaps: the latest positions are in the buffers declared as px, py, pz.
    for (c, name) in ["px", "py", "pz"].iter().enumerate() {
        assert_eq!(floats(&end[index(&w, name)]), p[c], "{name}");
    }
    for (c, name) in ["vx", "vy", "vz"].iter().enumerate() {
        assert_eq!(floats(&end[index(&w, name)]), v[c], "{name}");
    }
}

/// The mark phase of `gc` from what the heap holds: objects at distance `r` from a root form
/// round `r`'s queue, and everything within `ROUNDS` of a root ends up marked.
#[test]
fn gc_marks_what_the_roots_reach_round_by_round() {
    let (n, words, rounds) = (1024usize, 64usize, 6usize);
    let w = compile_at("gc", n as u32);
    let start = initial(&w);
    let heap = ints(&start[index(&w, "heap")]);
    let roots = ints(&start[index(&w, "roots")]);
    let heap = &heap;
    let children = |o: usize| {
        let used = 16 + heap[o * words] as usize % 33;
        (1..=used).map(move |f| heap[o * words + f] as usize)
    };

    // Round by round: the queue of each round and the objects marked.
    let mut marked = vec![false; n];
    let mut queue: Vec<usize> = Vec::new();
    for &r in &roots {
        if !std::mem::replace(&mut marked[r as usize], true) {
            queue.push(r as usize);
        }
    }
    let mut levels = vec![queue.clone()];
    for _ in 0..rounds {
        let mut next = Vec::new();
        for &o in &queue {
            for c in children(o) {
                if !std::mem::replace(&mut marked[c], true) {
                    next.push(c);
                }
            }
        }
        levels.push(next.clone());
        queue = next;
    }
    assert!(
        levels[1].len() > n / 2,
        "the second round is the big one: {:?}",
        levels.iter().map(Vec::len).collect::<Vec<_>>()
    );
    let mark_words: Vec<u32> =
        (0..n / 32).map(|i| (0..32).filter(|&b| marked[i * 32 + b]).fold(0u32, |m, b| m | 1 << b)).collect();

    // Queues are filled by atomicAdd, so their order depends on timing: compare them as sets.
    let check = |end: &[Vec<u32>], who: &str| {
        assert_eq!(end[index(&w, "mark")], mark_words, "{who}: the mark bitmap");
        let counts = ints(&end[index(&w, "counts")]);
        let expected: Vec<i32> = levels.iter().map(|l| l.len() as i32).collect();
        assert_eq!(counts, expected, "{who}: each round's queue length");
        let round = |r: usize| {
            let q = ints(&end[index(&w, if r % 2 == 0 { "queue_a" } else { "queue_b" })]);
            let mut got: Vec<usize> = q[..levels[r].len()].iter().map(|&o| o as usize).collect();
            got.sort_unstable();
            got
        };
        // Rounds 1 and 2 are the big ones; the later rounds find nothing left, so their
        // queues' buffers still hold them.
        for r in [1, 2] {
            assert!(levels[r + 2..].iter().all(|l| l.is_empty()), "nothing overwrites round {r}'s queue");
            let mut expected = levels[r].clone();
            expected.sort_unstable();
            assert_eq!(round(r), expected, "{who}: round {r}'s queue");
        }
    };
    check(&run_reference(&w), "reference");
    check(&run_engine(&w, machine()), "timing engine");
}

/// `phased`: each thread digests its own record PASSES times, then folds in the lines of its
/// warp's chain of HOPS steps through the table, whose lines step by a full-period linear
/// congruence.
#[test]
fn phased_digests_each_record_then_walks_the_table() {
    let (n, record_words, passes, hops, lines) = (1024usize, 64usize, 4, 1024, 4096u32);
    let w = compile_at("phased", n as u32);
    let start = initial(&w);
    let records = &start[index(&w, "records")];
    let next = |line: u32| (line * 1021 + 12345) % lines;
    // Every line is on one cycle: no chain can close early and stay in the L1.
    let (mut line, mut steps) = (next(0), 1);
    while line != 0 {
        line = next(line);
        steps += 1;
    }
    assert_eq!(steps, lines, "the successor function has full period");
    let expected: Vec<u32> = (0..n)
        .map(|t| {
            let mut h = t as u32;
            for _ in 0..passes {
                for word in &records[t * record_words..(t + 1) * record_words] {
                    h = mix(h ^ word);
                }
            }
            let mut line = (t / 32) as u32 % lines;
            for _ in 0..hops {
                line = next(line);
                h = h.wrapping_add(line << 5 | (t % 32) as u32);
            }
            h
        })
        .collect();
    let end = run_reference(&w);
    let table = &end[index(&w, "table")];
    for (i, &word) in table.iter().enumerate() {
        assert_eq!(word, next(i as u32 / 32) << 5 | (i % 32) as u32, "table word {i}");
    }
    assert_eq!(end[index(&w, "out")], expected);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// `sssp`: Harish and Narayanan's rounds — the marked vertices relax their edges into
/// `updating`, then every lower `updating` becomes the cost and marks its vertex.
#[test]
fn sssp_relaxes_round_by_round_from_vertex_0() {
    let (n, iterations, inf) = (1024usize, 8, 1_000_000_000i32);
    let w = compile_at("sssp", n as u32);
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    let weights = ints(&start[index(&w, "g.weights")]);
    let mut mask = vec![0i32; n];
    let mut cost = vec![inf; n];
    let mut updating = vec![inf; n];
    (mask[0], cost[0], updating[0]) = (1, 0, 0);
    for _ in 0..iterations {
        for v in 0..n {
            if mask[v] != 0 {
                mask[v] = 0;
                for e in g.offsets[v]..g.offsets[v + 1] {
                    let u = g.columns[e];
                    updating[u] = updating[u].min(cost[v] + weights[e]);
                }
            }
        }
        for v in 0..n {
            if updating[v] < cost[v] {
                cost[v] = updating[v];
                mask[v] = 1;
            }
            updating[v] = cost[v];
        }
    }
    let reached = cost.iter().filter(|&&c| c < inf).count();
    assert!(reached > n / 2 && reached < n, "eight rounds reach most, not all, vertices: {reached}");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "cost")]), cost);
    assert_eq!(ints(&end[index(&w, "mask")]), mask);
    assert_eq!(ints(&end[index(&w, "updating")]), updating);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// `streamcluster`: for each candidate centre, every point's weighted squared distance to it,
/// booked against the point's row of `work_mem` as Rodinia's gain kernel does (the rows are
/// cleared before each candidate, so the last candidate's are left).
#[test]
fn streamcluster_books_each_points_gain_for_the_candidate() {
    let (n, dim, centres, candidates, record) = (1024usize, 32usize, 10usize, 8usize, 8usize);
    let w = compile_at("streamcluster", n as u32);
    let start = initial(&w);
    let coord = floats(&start[index(&w, "coord")]);
    let pick = ints(&start[index(&w, "pick")]);
    // Sums of squares in the kernels' order, each product fused into the running sum.
    let distance = |a: usize, b: usize| {
        (0..dim).fold(0.0f32, |sum, i| {
            let d = coord[i * n + a] - coord[i * n + b];
            d.mul_add(d, sum)
        })
    };
    let mut p = vec![0.0f32; record * n];
    for t in 0..n {
        let centre = pick[t] as usize;
        assert!(centre < centres);
        p[t * record] = 1.0;
        p[t * record + 4] = centre as f32;
        p[t * record + 6] = distance(t, centre);
    }
    let stride = centres + 1;
    let (mut work_mem, mut switched) = (vec![0.0f32; stride * n], vec![0i32; n]);
    let mut opened = 0;
    for c in 0..candidates {
        let x = centres + (c * 7919) % (n - centres);
        work_mem.fill(0.0);
        switched.fill(0);
        for t in 0..n {
            let x_cost = distance(t, x) * p[t * record];
            let cost = p[t * record + 6];
            if x_cost < cost {
                switched[t] = 1;
                work_mem[t * stride + centres] += x_cost - cost;
                opened += 1;
            } else {
                work_mem[t * stride + p[t * record + 4] as usize] += cost - x_cost;
            }
        }
    }
    assert!(opened > 0 && opened < candidates * n, "some points would move, most not: {opened}");
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "p")]), p);
    assert_eq!(floats(&end[index(&w, "work_mem")]), work_mem);
    assert_eq!(ints(&end[index(&w, "switch_membership")]), switched);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// `wp`: each column's saturation adjustment, then its rain falling through the levels in three
/// sub-steps, in plain f32 (the transcendental functions may differ from Rust's in the last bit,
/// so the comparison allows a few units in the last place).
#[test]
fn wp_saturates_each_column_and_lets_its_rain_fall() {
    let (n, levels, steps, dz, dt) = (1024usize, 28usize, 3, 500.0f32, 10.0f32);
    let w = compile_at("wp", n as u32);
    let start = initial(&w);
    let t = floats(&start[index(&w, "t")]);
    let p = floats(&start[index(&w, "p")]);
    let mut qv = floats(&start[index(&w, "qv")]);
    let qr_start = floats(&start[index(&w, "qr")]);
    let mut rain = vec![0.0f32; levels * n];
    let mut surface = vec![0.0f32; n];
    let mut condensing = 0;
    for col in 0..n {
        for k in 0..levels {
            let at = k * n + col;
            let es = 611.2 * (17.67 * (t[at] - 273.15) / (t[at] - 29.65)).exp();
            let qs = 0.622 * es / (p[at] - es);
            let excess = qv[at] - qs;
            let mut condensed = 0.0;
            if excess > 0.0 {
                qv[at] = qs;
                condensed = excess;
                condensing += 1;
            }
            rain[at] = qr_start[at] + condensed;
        }
        let mut fallen = 0.0f32;
        for _ in 0..steps {
            let mut incoming = 0.0f32;
            for k in (0..levels).rev() {
                let at = k * n + col;
                let q = rain[at];
                let density = 1.225 * (-(k as f32) * dz / 8000.0).exp();
                let mut outgoing = 0.0;
                if q > 0.0 {
                    let velocity = 841.99667 * (0.8 * (density * q).ln()).exp() * (1.225 / density).sqrt();
                    outgoing = q * (velocity * dt / dz).min(1.0);
                }
                rain[at] = q - outgoing + incoming;
                incoming = outgoing;
            }
            fallen += incoming;
        }
        surface[col] = fallen;
    }
    assert!(
        condensing > levels * n / 20 && condensing < levels * n * 19 / 20,
        "some levels condense, not all: {condensing}"
    );
    assert!(surface.iter().all(|&r| r > 0.0), "rain reaches the ground under every column");
    let end = run_reference(&w);
    assert_close("qv", &floats(&end[index(&w, "qv")]), &qv, 1e-5);
    assert_close("qr", &floats(&end[index(&w, "qr")]), &rain, 1e-5);
    assert_close("surface_rain", &floats(&end[index(&w, "surface_rain")]), &surface, 1e-5);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// `cfd`: Rodinia's euler3d, iteration by iteration, in plain f32 (products fused where the
/// language fuses them differ in the last bits, so the comparison allows for rounding).
#[test]
fn cfd_steps_the_euler_equations_as_rodinia_does() {
    let (n, iterations, rk, window, gamma) = (1536usize, 2, 3usize, 128i64, 1.4f32);
    let (ff_density, ff_mx, ff_energy) = (1.4f32, 1.68f32, 3.508f32);
    let w = compile_at("cfd", n as u32);
    let start = initial(&w);
    let draw = ints(&start[index(&w, "draw")]);
    let normals = floats(&start[index(&w, "normals")]);
    let areas = floats(&start[index(&w, "areas")]);
    let noise = floats(&start[index(&w, "disturbance")]);
    let mut neighbours = vec![0i32; 4 * n];
    for i in 0..n {
        for j in 0..4 {
            let r = draw[i + j * n] as i64;
            let mut nb = i as i64 + r % (2 * window + 1) - window;
            nb = nb.rem_euclid(n as i64);
            neighbours[i + j * n] = match r % 128 {
                0 => -1,
                1 => -2,
                _ => nb as i32,
            };
        }
    }
    let faces = |kind: i32| neighbours.iter().filter(|&&nb| nb == kind).count();
    assert!(faces(-1) > 0 && faces(-2) > 0, "both kinds of boundary face occur");
    let mut var = vec![0.0f32; 5 * n];
    for i in 0..n {
        var[i] = ff_density * (1.0 + noise[i]);
        var[i + n] = ff_mx * (1.0 + noise[i + n]);
        var[i + 2 * n] = 0.1 * noise[i + 2 * n];
        var[i + 3 * n] = 0.1 * noise[i + 3 * n];
        var[i + 4 * n] = ff_energy * (1.0 + noise[i + 4 * n]);
    }
    let pressure = |d: f32, e: f32, s: f32| (gamma - 1.0) * (e - 0.5 * d * s);
    // Per cell: density, momenta, energy, velocities, pressure, speed of sound, energy + pressure.
    let state = |var: &[f32], c: usize| {
        let (d, mx, my, mz, e) = (var[c], var[c + n], var[c + 2 * n], var[c + 3 * n], var[c + 4 * n]);
        let (vx, vy, vz) = (mx / d, my / d, mz / d);
        let s = vx * vx + vy * vy + vz * vz;
        let pr = pressure(d, e, s);
        ([d, mx, my, mz, e], [vx, vy, vz], s, pr, (gamma * pr / d).sqrt(), e + pr)
    };
    let ff_vx = ff_mx / ff_density;
    let ff_p = pressure(ff_density, ff_energy, ff_vx * ff_vx);
    let ff_de_p = ff_energy + ff_p;
    let mut step = vec![0.0f32; n];
    let mut flux = vec![0.0f32; 5 * n];
    for _ in 0..iterations {
        let old = var.clone();
        for i in 0..n {
            let (_, _, s, _, c, _) = state(&var, i);
            step[i] = 0.5 / (areas[i].sqrt() * (s.sqrt() + c));
        }
        for stage in 0..rk {
            for i in 0..n {
                let (m_i, v_i, s_i, p_i, c_i, dep_i) = state(&var, i);
                let mut f = [0.0f32; 5]; // density, mx, my, mz, energy
                for j in 0..4 {
                    let nb = neighbours[i + j * n];
                    let nrm = [normals[i + j * n], normals[i + (j + 4) * n], normals[i + (j + 8) * n]];
                    let len = (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]).sqrt();
                    // The flux contribution tensor of a state: row a, component b.
                    let fc = |m: &[f32; 5], v: &[f32; 3], pr: f32, a: usize, b: usize| {
                        v[b] * m[1 + a] + if a == b { pr } else { 0.0 }
                    };
                    if nb >= 0 {
                        let (m_n, v_n, s_n, p_n, c_n, dep_n) = state(&var, nb as usize);
                        let factor = -len * 0.2 * 0.5 * (s_i.sqrt() + s_n.sqrt() + c_i + c_n);
                        f[0] += factor * (m_i[0] - m_n[0]);
                        f[4] += factor * (m_i[4] - m_n[4]);
                        for a in 0..3 {
                            f[1 + a] += factor * (m_i[1 + a] - m_n[1 + a]);
                        }
                        for b in 0..3 {
                            let factor = 0.5 * nrm[b];
                            f[0] += factor * (m_n[1 + b] + m_i[1 + b]);
                            f[4] += factor * (v_n[b] * dep_n + v_i[b] * dep_i);
                            for a in 0..3 {
                                f[1 + a] += factor * (fc(&m_n, &v_n, p_n, a, b) + fc(&m_i, &v_i, p_i, a, b));
                            }
                        }
                    } else if nb == -1 {
                        for a in 0..3 {
                            f[1 + a] += nrm[a] * p_i;
                        }
                    } else {
                        let m_ff = [ff_density, ff_mx, 0.0, 0.0, ff_energy];
                        let v_ff = [ff_vx, 0.0, 0.0];
                        for b in 0..3 {
                            let factor = 0.5 * nrm[b];
                            f[0] += factor * (m_ff[1 + b] + m_i[1 + b]);
                            f[4] += factor * (v_ff[b] * ff_de_p + v_i[b] * dep_i);
                            for a in 0..3 {
                                f[1 + a] += factor * (fc(&m_ff, &v_ff, ff_p, a, b) + fc(&m_i, &v_i, p_i, a, b));
                            }
                        }
                    }
                }
                for v in 0..5 {
                    flux[i + v * n] = f[v];
                }
            }
            for i in 0..n {
                let factor = step[i] / (rk + 1 - stage) as f32;
                for v in 0..5 {
                    var[i + v * n] = old[i + v * n] + factor * flux[i + v * n];
                }
            }
        }
    }
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "neighbours")]), neighbours);
    assert_close("step_factors", &floats(&end[index(&w, "step_factors")]), &step, 1e-5);
    assert_close("fluxes", &floats(&end[index(&w, "fluxes")]), &flux, 1e-4);
    assert_close("variables", &floats(&end[index(&w, "variables")]), &var, 1e-5);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}
