//! The dynamic-parallelism workloads compute what plain Rust computes on the same inputs, and
//! launch the child grids they claim to.

mod library_common;

use library_common::*;
use warpscope_core::exec::reference;
use warpscope_core::workload::Workload;

const INF: i32 = 1_000_000_000;

/// The grids launched from the device in a reference run.
fn device_launches(w: &Workload) -> u64 {
    reference::run_workload(w, 32, 1 << 32).expect("reference run").device_launches
}

/// A graph's CSR buffers, read from the initial memory.
struct Csr {
    offsets: Vec<usize>,
    columns: Vec<usize>,
    weights: Vec<i32>,
}

impl Csr {
    fn read(w: &Workload, start: &[Vec<u32>], name: &str) -> Csr {
        let words = |part: &str| start[index(w, &format!("{name}.{part}"))].clone();
        Csr {
            offsets: words("offsets").iter().map(|&x| x as usize).collect(),
            columns: words("columns").iter().map(|&x| x as usize).collect(),
            weights: ints(&words("weights")),
        }
    }

    fn vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    fn edges(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v]..self.offsets[v + 1]
    }

    fn degree(&self, v: usize) -> usize {
        self.offsets[v + 1] - self.offsets[v]
    }
}

/// BFS levels from `source`, at most `levels` levels deep (deeper vertices stay `INF`).
fn bfs_levels(g: &Csr, source: usize, levels: i32) -> Vec<i32> {
    let mut level = vec![INF; g.vertices()];
    level[source] = 0;
    let mut frontier = vec![source];
    for depth in 0..levels {
        let mut next = Vec::new();
        for &v in &frontier {
            for e in g.edges(v) {
                let u = g.columns[e];
                if level[u] == INF {
                    level[u] = depth + 1;
                    next.push(u);
                }
            }
        }
        frontier = next;
    }
    level
}

#[test]
fn bfs_dp_finds_the_bfs_levels_and_launches_children_for_hubs() {
    let w = compile_at("bfs-dp", 1024);
    assert_eq!(w.launches.len(), 1 + 8, "an init launch, then one launch per level");
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    let expected = bfs_levels(&g, 0, 8);
    assert!(expected.iter().filter(|&&l| l < INF).count() > g.vertices() / 2, "the search reaches most vertices");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "level")]), expected);

    // A frontier vertex with 32 or more out-edges launches exactly one child grid.
    let hubs = (0..g.vertices()).filter(|&v| expected[v] < 8 && g.degree(v) >= 32).count() as u64;
    assert!(hubs > 0);
    assert_eq!(device_launches(&w), hubs);
    assert_eq!(run_engine(&w, machine()), end, "the timing engine computes the same");
}

/// Jones-Plassmann as `clr-dp` runs it, for `rounds` rounds: each edge counts both ways, and a
/// vertex takes the round as its colour when its priority is at least every uncoloured
/// neighbour's. Returns the colours and the device launches (an uncoloured vertex with at
/// least 32 edges launches one child a round).
fn jones_plassmann(g: &Csr, rounds: i32) -> (Vec<i32>, u64) {
    let n = g.vertices();
    let prio: Vec<u32> = (0..n as u32).map(mix).collect();
    let mut color = vec![-1i32; n];
    let mut launches = 0;
    for round in 0..rounds {
        let mut nmax = vec![0u32; n];
        for v in (0..n).filter(|&v| color[v] < 0) {
            launches += u64::from(g.degree(v) >= 32);
            for u in g.edges(v).map(|e| g.columns[e]).filter(|&u| color[u] < 0) {
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
    (color, launches)
}

#[test]
fn clr_dp_colours_each_input_by_jones_plassmann_rounds() {
    for graph in ["banded(N, 64, 3)", "citation(N, 512, 3)", "powerlaw(N, 16 * N, 3)"] {
        let w = compile_with("clr-dp", 1024, &[("GRAPH", graph), ("ROUNDS", "40")]);
        assert_eq!(w.launches.len(), 1 + 2 * 40, "{graph}: an init launch, then two a round");
        let start = initial(&w);
        let g = Csr::read(&w, &start, "g");
        let (expected, launches) = jones_plassmann(&g, 40);
        let coloured = expected.iter().filter(|&&c| c >= 0).count();
        assert!(coloured > g.vertices() / 2, "{graph}: 40 rounds colour most vertices ({coloured})");
        // The colouring is proper: no edge joins two vertices of one colour.
        for v in 0..g.vertices() {
            for e in g.edges(v) {
                let u = g.columns[e];
                assert!(expected[v] < 0 || expected[v] != expected[u], "{graph}: edge {v} -> {u}");
            }
        }
        let end = run_reference(&w);
        assert_eq!(ints(&end[index(&w, "color")]), expected, "{graph}");
        assert!(launches > 0, "{graph}: hubs launch children");
        assert_eq!(device_launches(&w), launches, "{graph}");
        assert_eq!(run_engine(&w, machine()), end, "{graph}: the timing engine computes the same");
    }
}

/// Bellman-Ford by rounds, as the kernels do it: in each round the vertices whose distance
/// improved in the previous round relax their out-edges against the distances at the start of
/// the round. Returns (dist, active) after `rounds` rounds and, per round, the active vertices.
fn sssp_rounds(g: &Csr, source: usize, rounds: usize) -> (Vec<i32>, Vec<bool>, Vec<Vec<usize>>) {
    let n = g.vertices();
    let mut dist = vec![INF; n];
    dist[source] = 0;
    let mut active = vec![false; n];
    active[source] = true;
    let mut history = Vec::new();
    for _ in 0..rounds {
        let mut next = dist.clone();
        let relaxing: Vec<usize> = (0..n).filter(|&v| active[v]).collect();
        for &v in &relaxing {
            for e in g.edges(v) {
                let u = g.columns[e];
                next[u] = next[u].min(dist[v] + g.weights[e]);
            }
        }
        for v in 0..n {
            active[v] = next[v] < dist[v];
        }
        dist = next;
        history.push(relaxing);
    }
    (dist, active, history)
}

/// Exact shortest distances (Dijkstra), for the converged cases.
fn dijkstra(g: &Csr, source: usize) -> Vec<i32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut dist = vec![INF; g.vertices()];
    dist[source] = 0;
    let mut heap = BinaryHeap::from([Reverse((0, source))]);
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v] {
            continue;
        }
        for e in g.edges(v) {
            let u = g.columns[e];
            let nd = d + g.weights[e];
            if nd < dist[u] {
                dist[u] = nd;
                heap.push(Reverse((nd, u)));
            }
        }
    }
    dist
}

#[test]
fn sssp_dp_on_a_mesh_converges_to_the_shortest_distances() {
    let side = 32;
    let w = compile_at("sssp-dp", side as u32);
    let rounds = side + side / 4;
    assert_eq!(w.launches.len(), 1 + 2 * rounds);
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    assert_eq!(g.vertices(), side * side);
    assert!((0..g.vertices()).all(|v| g.degree(v) <= 4), "a mesh");
    let source = (side / 2) * side + side / 2;
    let (dist, active, history) = sssp_rounds(&g, source, rounds);
    assert_eq!(dist, dijkstra(&g, source), "enough rounds to converge at this size");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "dist")]), dist);
    assert_eq!(ints(&end[index(&w, "next")]), dist);
    let active: Vec<i32> = active.iter().map(|&a| a as i32).collect();
    assert_eq!(ints(&end[index(&w, "active")]), active);

    // A segment of 32 vertices with at least 4 active ones launches one child per round.
    let busy: u64 = history
        .iter()
        .map(|relaxing| {
            let mut per_segment = vec![0; g.vertices().div_ceil(32)];
            for &v in relaxing {
                per_segment[v / 32] += 1;
            }
            per_segment.iter().filter(|&&c| c >= 4).count() as u64
        })
        .sum();
    assert!(busy > 0);
    assert_eq!(device_launches(&w), busy);
    assert_eq!(run_engine(&w, machine()), end);
}

#[test]
fn sssp_dp_powerlaw_computes_the_shortest_distances() {
    let w = compile_at("sssp-dp-powerlaw", 1024);
    assert_eq!(w.launches.len(), 1 + 2 * 12);
    let start = initial(&w);
    let g = Csr::read(&w, &start, "g");
    let (dist, active, history) = sssp_rounds(&g, 0, 12);
    assert_eq!(dist, dijkstra(&g, 0), "12 rounds converge at this size");
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "dist")]), dist);
    assert_eq!(ints(&end[index(&w, "next")]), dist);
    let active: Vec<i32> = active.iter().map(|&a| a as i32).collect();
    assert_eq!(ints(&end[index(&w, "active")]), active);

    let hubs: u64 = history.iter().map(|relaxing| relaxing.iter().filter(|&&v| g.degree(v) >= 32).count() as u64).sum();
    assert!(hubs > 0);
    assert_eq!(device_launches(&w), hubs);
    assert_eq!(run_engine(&w, machine()), end);
}

/// The AMR workload in Rust, in the kernels' order of float operations.
struct Amr {
    n: usize,
    val: Vec<f32>,
    fuel: Vec<f32>,
    fine: Vec<f32>,
    cells: Vec<i32>,
    err: Vec<i32>,
    launched: Vec<i32>,
}

const AMR_PEAK: f32 = 6000.0;
const AMR_WIDTH: f32 = 0.035;
const AMR_THRESHOLD: f32 = 100.0;
const AMR_GROWTH: f32 = 6.0;
const AMR_MAX_LEVEL: i32 = 4;

fn front(px: f32, py: f32, n: usize) -> f32 {
    let centre = n as f32 * 0.5;
    let radius = n as f32 * 0.25;
    let dx = px - centre;
    let dy = py - centre;
    let d = dx.mul_add(dx, dy * dy).sqrt(); // fused, as the kernel language does (docs/language.md)
    let s = (d - radius).abs() / AMR_WIDTH;
    AMR_PEAK / (1.0 + s)
}

impl Amr {
    #[allow(clippy::too_many_arguments)]
    fn refine(&mut self, root: usize, x0: f32, y0: f32, w: f32, h: f32, level: i32, thr: f32) {
        let n = self.n;
        for t in 0..32 {
            let (ix, iy) = (t % 8, t / 8);
            let cw = w / 8.0;
            let ch = h / 4.0;
            let cx = (ix as f32).mul_add(cw, x0);
            let cy = (iy as f32).mul_add(ch, y0);
            let px = 0.5f32.mul_add(cw, cx);
            let py = 0.5f32.mul_add(ch, cy);
            let gx = (px - 0.5).max(0.0).min((n - 1) as f32);
            let gy = (py - 0.5).max(0.0).min((n - 1) as f32);
            let bx = (gx as usize).min(n - 2);
            let by = (gy as usize).min(n - 2);
            let fx = gx - bx as f32;
            let fy = gy - by as f32;
            let b = by * n + bx;
            let v = &self.val;
            let top = v[b].mul_add(1.0 - fx, v[b + 1] * fx);
            let bottom = v[b + n].mul_add(1.0 - fx, v[b + n + 1] * fx);
            let coarse = top.mul_add(1.0 - fy, bottom * fy);
            let value = front(px, py, n) * self.fuel[root];
            self.cells[root] += 1;
            self.err[root] += ((value - coarse).abs() * 16.0) as i32;
            if level == 1 {
                self.fine[root * 32 + t] = value;
            }
            if level + 1 < AMR_MAX_LEVEL && value >= thr {
                self.launched[(level + 1) as usize] += 1;
                self.refine(root, cx, cy, cw, ch, level + 1, thr * AMR_GROWTH);
            }
        }
    }
}

#[test]
fn amr_refines_the_front_in_nested_levels() {
    let n = 16;
    let w = compile_at("amr", n as u32);
    let start = initial(&w);
    let fuel = floats(&start[index(&w, "fuel")]);
    let val: Vec<f32> = (0..n * n).map(|i| front((i % n) as f32 + 0.5, (i / n) as f32 + 0.5, n) * fuel[i]).collect();
    let mut amr = Amr {
        n,
        val,
        fuel,
        fine: vec![0.0; n * n * 32],
        cells: vec![0; n * n],
        err: vec![0; n * n],
        launched: vec![0; 4],
    };
    for i in 0..n * n {
        if amr.val[i] >= AMR_THRESHOLD {
            amr.launched[1] += 1;
            amr.refine(i, (i % n) as f32, (i / n) as f32, 1.0, 1.0, 1, AMR_THRESHOLD * AMR_GROWTH);
        }
    }
    let end = run_reference(&w);
    assert_eq!(floats(&end[index(&w, "val")]), amr.val);
    assert_eq!(floats(&end[index(&w, "fine")]), amr.fine);
    assert_eq!(ints(&end[index(&w, "cells")]), amr.cells);
    assert_eq!(ints(&end[index(&w, "err")]), amr.err);
    assert_eq!(ints(&end[index(&w, "launched")]), amr.launched);

    // Three nested levels of children, each level refining a narrower band of the front.
    let l = &amr.launched;
    assert!(l[1] > 0 && l[2] > 0 && l[3] > 0, "launches per level: {l:?}");
    assert_eq!(device_launches(&w), (l[1] + l[2] + l[3]) as u64);
    assert_eq!(run_engine(&w, machine()), end);
}

/// The hot spot's energy at coarse cell `i` of an `n` x `n` grid, in the kernel's order of float
/// operations (`dx * dx + dy * dy` fused, as the kernel language does; libm's expf, as the engine).
fn hotspot_energy(i: usize, n: usize) -> f32 {
    let centre = n as f32 * 0.5;
    let dx = (i % n) as f32 + 0.5 - centre;
    let dy = (i / n) as f32 + 0.5 - centre;
    let sigma = n as f32 * 0.15625;
    6000.0 * libm::expf(-dx.mul_add(dx, dy * dy) / (sigma * sigma))
}

/// The sub-cell energies a cell of `energy` at `level` refines into, its descendants' after
/// them, and the refined cells per level.
fn hotspot_refine(energy: f32, level: usize, fine: &mut Vec<f32>, cells: &mut [i32]) {
    cells[level] += 1;
    for t in 0..32 {
        let value = energy * (t + 1) as f32 / 528.0;
        fine.push(value);
        if value >= 100.0 && level + 1 < 4 {
            hotspot_refine(value, level + 1, fine, cells);
        }
    }
}

#[test]
fn amr_hotspot_splits_the_hot_cells_energy_into_regions_of_their_own() {
    let n = 32;
    let w = compile_at("amr-hotspot", n as u32);
    let val: Vec<f32> = (0..n * n).map(|i| hotspot_energy(i, n)).collect();
    let (mut fine, mut cells) = (Vec::new(), vec![0i32; 4]);
    for &energy in val.iter().filter(|&&e| e >= 100.0) {
        hotspot_refine(energy, 1, &mut fine, &mut cells);
    }
    assert!(cells[1] > 0 && cells[2] > 0, "cells refined per level: {cells:?}");
    let grids = cells.iter().sum::<i32>();
    assert!(32 * grids as usize <= 64 * n * n, "the regions fit in `fine`");
    let sorted = |mut v: Vec<f32>| {
        v.sort_by(f32::total_cmp);
        v
    };
    let expected_fine = sorted(fine);
    let check = |end: &[Vec<u32>], what: &str| {
        assert_eq!(floats(&end[index(&w, "val")]), val, "{what}");
        assert_eq!(ints(&end[index(&w, "cells")]), cells, "{what}");
        let used = ints(&end[index(&w, "alloc")])[0] as usize;
        assert_eq!(used, 32 * grids as usize, "{what}: every child took a region of its own");
        let fine = floats(&end[index(&w, "fine")]);
        // The layout follows the order of the atomics; the contents do not.
        assert_eq!(sorted(fine[..used].to_vec()), expected_fine, "{what}");
        let ptr = ints(&end[index(&w, "ptr")]);
        for i in 0..n * n {
            if val[i] >= 100.0 {
                let at = ptr[i] as usize;
                for t in 0..32 {
                    assert_eq!(fine[at + t], val[i] * (t + 1) as f32 / 528.0, "{what}: cell {i}, sub-cell {t}");
                }
            } else {
                assert_eq!(ptr[i], -1, "{what}: cell {i} is not refined");
            }
        }
    };
    check(&run_reference(&w), "reference");
    assert_eq!(device_launches(&w), grids as u64);
    check(&run_engine(&w, machine()), "engine");
}

#[test]
fn join_sums_the_matching_outer_rows_per_inner_row() {
    for sorted in [false, true] {
        let keys = 256;
        let w = compile_with("join", keys as u32, &[("SORTED", if sorted { "1" } else { "0" })]);
        let start = initial(&w);
        let s = Csr::read(&w, &start, "s");
        assert_eq!(s.vertices(), keys);
        let rkey = ints(&start[index(&w, "rkey")]);
        let rlimit = ints(&start[index(&w, "rlimit")]);
        let rqty = ints(&start[index(&w, "rqty")]);
        assert_eq!(rkey.len(), 4 * keys);
        let mut total = vec![0i32; s.columns.len()];
        let mut launching = 0u64;
        for r in 0..rkey.len() {
            // Sorted: every key probed 4 times, in key order; else the drawn keys.
            let key = if sorted { r / 4 } else { rkey[r] as usize };
            if s.degree(key) >= 32 {
                launching += 1;
            }
            for e in s.edges(key) {
                if s.weights[e] <= rlimit[r] {
                    total[e] += rqty[r];
                }
            }
        }
        let end = run_reference(&w);
        assert_eq!(ints(&end[index(&w, "total")]), total, "sorted {sorted}");
        assert!(launching > 0);
        assert_eq!(device_launches(&w), launching, "sorted {sorted}");
        assert_eq!(run_engine(&w, machine()), end, "sorted {sorted}");
    }
}

/// Whether one of the motifs GATT[AC]*G and GACA[CG]T+A matches `text` from its start
/// (letters A = 0, C = 1, G = 2, T = 3).
fn motif_at(text: &[i32]) -> bool {
    let (a, c, g, t) = (0, 1, 2, 3);
    let first = || -> bool {
        if !text.starts_with(&[g, a, t, t]) {
            return false;
        }
        let mut p = 4;
        while p < text.len() && (text[p] == a || text[p] == c) {
            p += 1;
        }
        p < text.len() && text[p] == g
    };
    let second = || -> bool {
        if !text.starts_with(&[g, a, c, a]) || text.len() < 6 || !(text[4] == c || text[4] == g) || text[5] != t {
            return false;
        }
        let mut p = 6;
        while p < text.len() && text[p] == t {
            p += 1;
        }
        p < text.len() && text[p] == a
    };
    first() || second()
}

#[test]
fn regex_finds_every_motif() {
    let strings = 32;
    let slen = 256;
    let w = compile_at("regex", strings as u32);
    let start = initial(&w);
    let text = ints(&start[index(&w, "text")]);
    assert_eq!(text.len(), strings * slen);
    let mut matches = vec![0i32; strings];
    let mut first = vec![slen as i32; strings];
    let mut blocks = 0u64;
    for s in 0..strings {
        let string = &text[s * slen..(s + 1) * slen];
        for p in 0..slen {
            if motif_at(&string[p..]) {
                matches[s] += 1;
                first[s] = first[s].min(p as i32);
            }
        }
        // A child per 32-offset block holding an offset where GATT or GACA starts.
        blocks += (0..slen / 32)
            .filter(|&b| {
                (b * 32..(b * 32 + 32).min(slen - 3))
                    .any(|p| string[p..p + 4] == [2, 0, 3, 3] || string[p..p + 4] == [2, 0, 1, 0])
            })
            .count() as u64;
    }
    assert!(matches.iter().sum::<i32>() > 0);
    let end = run_reference(&w);
    assert_eq!(ints(&end[index(&w, "matches")]), matches);
    assert_eq!(ints(&end[index(&w, "first")]), first);
    assert_eq!(device_launches(&w), blocks);
    assert_eq!(run_engine(&w, machine()), end);
}
