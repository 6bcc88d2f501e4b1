//! Generated graphs in compressed sparse row (CSR) form, for the graph workloads (BFS, SSSP,
//! graph colouring, …). Every generator is deterministic: the same spec gives the same graph
//! on every platform. All randomness comes from [`SplitMix64`] and every decision is made in
//! integer arithmetic, so native and wasm builds agree bit for bit.
//!
//! # The models
//!
//! **Uniform** (`uniform(V, E, seed)`): exactly `E` directed edges. Each edge draws its source
//! uniformly from the `V` vertices and its destination uniformly from the *other* `V − 1`
//! vertices, so there are no self loops (hence `V ≥ 2` whenever `E > 0`). Duplicate edges
//! (the same source and destination drawn twice) are kept: the graph has exactly `E` edges and
//! out-degrees follow a binomial distribution around `E / V`.
//!
//! **Power-law** (`powerlaw(V, E, seed)`): exactly `E` directed edges from R-MAT (Chakrabarti,
//! Zhan and Faloutsos, 2004) with the Graph500 probabilities `a, b, c, d = 0.57, 0.19, 0.19,
//! 0.05`, over the `2^k × 2^k` adjacency matrix with `2^k` the smallest power of two `≥ V`.
//! At each of the `k` levels one quadrant is chosen from a uniform integer `r` in `0..100`:
//! `r < 57` top-left (source and destination bits 0, 0), `r < 76` top-right (0, 1), `r < 95`
//! bottom-left (1, 0), else bottom-right (1, 1); the bits are taken most significant first.
//! The levels are drawn in pairs from one uniform integer `q` in `0..10 000` (`r = q / 100`
//! for the first level of the pair, `q % 100` for the second); for an odd `k` the last pair's
//! second level is drawn and dropped.
//! An edge with an endpoint `≥ V`, or a self loop, is drawn again whole. Duplicates are kept
//! (as in Graph500). Then the vertices are relabelled: the vertex with the most out-edges
//! (lowest R-MAT label on a tie) becomes vertex 0, so a search from vertex 0 always starts at
//! the biggest hub and explores the giant component; every other vertex gets a label from a
//! seeded random permutation, so the other hubs — and the low-degree vertices — are scattered
//! over the id range instead of packed at the low ids, as in real graphs.
//!
//! **Mesh** (`mesh(W, H, seed)`): a road-like grid of `W × H` vertices, vertex `y·W + x` at
//! column `x`, row `y`, linked to its 4 grid neighbours. Links are undirected: each one is
//! stored as two directed edges with the same weight. A seeded 8 % of the `H(W−1) + W(H−1)`
//! links (rounded down) are removed without ever disconnecting the grid: the links are put in
//! a seeded random order and a spanning tree is grown from them in that order (Kruskal); the
//! removed links are then a seeded uniform choice among the links outside that tree (fewer
//! when there are not enough, as in a single row or column, which has no link to spare).
//!
//! **Banded** (`banded(V, B, seed)`, cage15-like; the LaPerm notes' scaled input): vertex `v`
//! has, with probability 1/10, a degree uniform in `64..=256` (a hub, so that dynamic-parallelism
//! codes launch children), else `8 + g` with `g` geometric with success probability 0.15 (the
//! failures before the first success, each trial a uniform percent `< 15`; capped at 248 so that
//! no degree passes 256). Each edge goes to a vertex drawn uniformly from `[v − B, v + B]` less
//! `v` itself, clamped to `[0, V − 1]`: neighbours are close in id, as in a banded matrix. The
//! edges are directed (not symmetrised), and duplicates are kept. The mean degree is about
//! 0.9 · (8 + 5.67) + 0.1 · 160 ≈ 28.3.
//!
//! **Citation** (`citation(V, W, seed)`, citationCiteseer-like): vertex `v ≥ 1` cites
//! `min(k, v)` earlier vertices, `k = 1 + Binomial(64, 1/8)` (mean 9: the notes' `1 + Poisson(8)`,
//! drawn in integer arithmetic as 64 trials that each succeed when a uniform 3-bit number is 0).
//! Each citation goes, with probability 7/10, to a vertex uniform in `[max(0, v − W), v)`, else
//! by preferential attachment: a uniform pick among the endpoints of all citations made by the
//! vertices before `v` (so in proportion to degree; the window while there are none). Every citation is stored in both
//! directions, and duplicate edges are dropped, so the graph is symmetric and simple.
//!
//! **Weights** are uniform in `1..=100`, drawn from their own stream: for uniform, power-law,
//! banded and citation graphs one per edge in CSR order, for a mesh one per link (shared by both
//! directions).
//!
//! **Layout**: the out-edges of each vertex are sorted by destination, ascending.
//!
//! Sizes are bounded so that memory stays sane: at most [`MAX_VERTICES`] vertices and
//! [`MAX_EDGES`] edges. Generation is linear in the size of the graph (plus sorting each
//! vertex's out-edges).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::rng::SplitMix64;

/// The most vertices a generated graph may have (2²²).
pub const MAX_VERTICES: u32 = 1 << 22;
/// The most directed edges a generated graph may have (2²⁵).
pub const MAX_EDGES: u32 = 1 << 25;
/// The share of mesh links removed, in percent of all links (rounded down).
pub const MESH_REMOVED_PERCENT: u64 = 8;

/// The shape of a generated graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    /// Each edge joins two vertices drawn uniformly (Erdős–Rényi-like); degrees are even.
    Uniform,
    /// R-MAT recursive quadrant sampling: a power-law degree distribution with a few hubs.
    PowerLaw,
    /// A road-like 2-D mesh: `width × height` vertices joined to their grid neighbours.
    Mesh,
    /// Banded, like the cage15 matrix: every neighbour lies within a fixed distance in id, and
    /// a tenth of the vertices are hubs of 64–256 edges.
    Banded,
    /// Citation-like: each vertex cites earlier vertices, most of them recent (close in id), the
    /// rest by preferential attachment; symmetric.
    Citation,
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSpec {
    /// Shape.
    pub kind: GraphKind,
    /// Vertices (for a mesh, `width × height`).
    pub vertices: u32,
    /// Directed edges wanted (uniform, power-law); for a mesh, the mesh width; for a banded
    /// graph, the band (the farthest a neighbour's id lies); for a citation graph, the window of
    /// recent vertices most citations go to.
    pub edges_or_width: u32,
    /// Seed of the random choices.
    pub seed: u32,
}

/// A graph in CSR form: the out-edges of vertex `v` are `columns[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    /// `vertices + 1` offsets into `columns`.
    pub offsets: Vec<u32>,
    /// Destination vertex of each edge.
    pub columns: Vec<u32>,
    /// Weight of each edge.
    pub weights: Vec<u32>,
}

impl Csr {
    /// Number of vertices (`offsets.len() − 1`; 0 for an empty `Csr`).
    pub fn vertices(&self) -> u32 {
        self.offsets.len().saturating_sub(1) as u32
    }

    /// Number of directed edges.
    pub fn edges(&self) -> u32 {
        self.columns.len() as u32
    }

    /// Out-degree of vertex `v` (0 for a vertex out of range).
    pub fn out_degree(&self, v: u32) -> u32 {
        let v = v as usize;
        match (self.offsets.get(v), self.offsets.get(v + 1)) {
            (Some(&start), Some(&end)) => end.saturating_sub(start),
            _ => 0,
        }
    }
}

/// Generates the graph, or says why the spec is impossible.
pub fn generate(spec: &GraphSpec) -> Result<Csr, String> {
    check_vertices(spec.vertices)?;
    match spec.kind {
        GraphKind::Uniform => {
            check_edges(spec.vertices, spec.edges_or_width, "uniform")?;
            Ok(uniform(spec.vertices, spec.edges_or_width, spec.seed))
        }
        GraphKind::PowerLaw => {
            check_edges(spec.vertices, spec.edges_or_width, "power-law")?;
            Ok(power_law(spec.vertices, spec.edges_or_width, spec.seed))
        }
        GraphKind::Mesh => {
            let width = spec.edges_or_width;
            if width == 0 {
                return Err("a mesh needs a width of at least 1, got 0".into());
            }
            if spec.vertices % width != 0 {
                return Err(format!(
                    "a mesh of width {width} cannot have {} vertices: the vertex count must be \
                     width × height",
                    spec.vertices
                ));
            }
            Ok(mesh(width, spec.vertices / width, spec.seed))
        }
        GraphKind::Banded => {
            if spec.edges_or_width == 0 {
                return Err("a banded graph needs a band of at least 1, got 0".into());
            }
            check_mean_degree(spec.vertices, BANDED_MEAN_DEGREE_BOUND, "banded")?;
            Ok(banded(spec.vertices, spec.edges_or_width, spec.seed))
        }
        GraphKind::Citation => {
            if spec.edges_or_width == 0 {
                return Err("a citation graph needs a window of at least 1, got 0".into());
            }
            check_mean_degree(spec.vertices, CITATION_MEAN_DEGREE_BOUND, "citation")?;
            Ok(citation(spec.vertices, spec.edges_or_width, spec.seed))
        }
    }
}

/// A generous bound on a banded graph's mean out-degree (about 28.3), so that a size check
/// before generating keeps the edges under [`MAX_EDGES`].
pub const BANDED_MEAN_DEGREE_BOUND: u32 = 32;
/// The same for a citation graph (mean out-degree about 17).
pub const CITATION_MEAN_DEGREE_BOUND: u32 = 20;

fn check_mean_degree(vertices: u32, bound: u32, what: &str) -> Result<(), String> {
    let most = MAX_EDGES / bound;
    if vertices > most {
        return Err(format!("a {what} graph may have at most {most} vertices, got {vertices}"));
    }
    Ok(())
}

fn check_vertices(vertices: u32) -> Result<(), String> {
    if vertices == 0 {
        return Err("a graph needs at least 1 vertex, got 0".into());
    }
    if vertices > MAX_VERTICES {
        return Err(format!("a graph may have at most {MAX_VERTICES} vertices, got {vertices}"));
    }
    Ok(())
}

fn check_edges(vertices: u32, edges: u32, what: &str) -> Result<(), String> {
    if edges > MAX_EDGES {
        return Err(format!("a graph may have at most {MAX_EDGES} edges, got {edges}"));
    }
    if edges > 0 && vertices < 2 {
        return Err(format!(
            "a {what} graph with edges needs at least 2 vertices (it has no self loops), got \
             {vertices}"
        ));
    }
    Ok(())
}

/// The independent random streams of one graph, one per purpose, so that changing how many
/// numbers one purpose uses never shifts another.
#[derive(Clone, Copy)]
enum Stream {
    Edges = 1,
    Relabel = 2,
    Weights = 3,
    LinkOrder = 4,
    Removal = 5,
    /// Which vertex each edge of a banded or citation graph goes to.
    Neighbours = 6,
}

fn stream(seed: u32, kind: GraphKind, purpose: Stream) -> SplitMix64 {
    let kind = match kind {
        GraphKind::Uniform => 1u64,
        GraphKind::PowerLaw => 2,
        GraphKind::Mesh => 3,
        GraphKind::Banded => 4,
        GraphKind::Citation => 5,
    };
    SplitMix64::new(u64::from(seed) | (purpose as u64) << 32 | kind << 40)
}

/// Uniform integers in `0..BOUND` (`BOUND ≤ 65 536`), up to four from each 64-bit draw: the
/// draw is cut into 16-bit chunks, lowest first; a chunk below the largest multiple of `BOUND`
/// that fits in 16 bits gives `chunk % BOUND` (exactly uniform), a chunk at or above it is
/// skipped.
struct Chunks<const BOUND: u32> {
    rng: SplitMix64,
    bits: u64,
    left: u32,
}

/// Uniform integers in `0..100`.
type Percents = Chunks<100>;

impl<const BOUND: u32> Chunks<BOUND> {
    const LIMIT: u32 = (1 << 16) / BOUND * BOUND;

    fn new(rng: SplitMix64) -> Self {
        Chunks { rng, bits: 0, left: 0 }
    }

    fn next(&mut self) -> u32 {
        loop {
            if self.left == 0 {
                self.bits = self.rng.next_u64();
                self.left = 4;
            }
            let chunk = (self.bits & 0xFFFF) as u32;
            self.bits >>= 16;
            self.left -= 1;
            if chunk < Self::LIMIT {
                return chunk % BOUND;
            }
        }
    }
}

fn uniform(vertices: u32, edges: u32, seed: u32) -> Csr {
    let mut rng = stream(seed, GraphKind::Uniform, Stream::Edges);
    let n = u64::from(vertices);
    let mut sources = Vec::with_capacity(edges as usize);
    let mut destinations = Vec::with_capacity(edges as usize);
    for _ in 0..edges {
        let source = rng.below(n) as u32;
        // Uniform among the other vertices: skip over the source.
        let mut destination = rng.below(n - 1) as u32;
        if destination >= source {
            destination += 1;
        }
        sources.push(source);
        destinations.push(destination);
    }
    let (offsets, columns) = build_csr(vertices, &sources, &destinations);
    let weights = draw_weights(seed, GraphKind::Uniform, columns.len());
    Csr { offsets, columns, weights }
}

/// R-MAT quadrant of a percent `r`, as `source bit << 1 | destination bit`: `r < 57` → 0b00
/// (a = 0.57), `r < 76` → 0b01 (b = 0.19), `r < 95` → 0b10 (c = 0.19), else 0b11 (d = 0.05).
const fn quadrant(r: usize) -> u8 {
    if r < 57 {
        0b00
    } else if r < 76 {
        0b01
    } else if r < 95 {
        0b10
    } else {
        0b11
    }
}

/// Two R-MAT levels from one uniform `r` in `0..10 000`: `r / 100` picks the quadrant of the
/// first (more significant) level, `r % 100` that of the second. The entry is the two source
/// bits `<< 2 |` the two destination bits. A table, not comparisons: the quadrants are
/// unpredictable, and branches on them are slow.
static TWO_LEVELS: [u8; 10_000] = {
    let mut table = [0u8; 10_000];
    let mut r = 0;
    while r < 10_000 {
        let (first, second) = (quadrant(r / 100), quadrant(r % 100));
        let source = (first >> 1) << 1 | second >> 1;
        let destination = (first & 1) << 1 | second & 1;
        table[r] = source << 2 | destination;
        r += 1;
    }
    table
};

fn power_law(vertices: u32, edges: u32, seed: u32) -> Csr {
    // Levels: the smallest k with 2^k >= vertices, drawn two at a time; the spare level of an
    // odd k is drawn and dropped (the levels are independent, so this changes nothing).
    let levels = u32::BITS - (vertices - 1).leading_zeros();
    let spare = levels % 2;
    let mut pairs = Chunks::<10_000>::new(stream(seed, GraphKind::PowerLaw, Stream::Edges));
    let mut sources = Vec::with_capacity(edges as usize);
    let mut destinations = Vec::with_capacity(edges as usize);
    while sources.len() < edges as usize {
        let mut source = 0u32;
        let mut destination = 0u32;
        for _ in 0..levels.div_ceil(2) {
            let bits = TWO_LEVELS[pairs.next() as usize];
            source = (source << 2) | u32::from(bits >> 2);
            destination = (destination << 2) | u32::from(bits & 0b11);
        }
        source >>= spare;
        destination >>= spare;
        if source >= vertices || destination >= vertices || source == destination {
            continue;
        }
        sources.push(source);
        destinations.push(destination);
    }
    let mut out_degree = vec![0u32; vertices as usize];
    for &s in &sources {
        out_degree[s as usize] += 1;
    }

    // Relabel: a seeded permutation (Fisher–Yates), then the biggest hub swapped onto label 0.
    let mut label: Vec<u32> = (0..vertices).collect();
    let mut rng = stream(seed, GraphKind::PowerLaw, Stream::Relabel);
    for i in (1..label.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        label.swap(i, j);
    }
    let mut hub = 0usize;
    for (v, &degree) in out_degree.iter().enumerate() {
        if degree > out_degree[hub] {
            hub = v;
        }
    }
    if let Some(zero) = label.iter().position(|&l| l == 0) {
        label.swap(hub, zero);
    }
    for s in &mut sources {
        *s = label[*s as usize];
    }
    for d in &mut destinations {
        *d = label[*d as usize];
    }

    let (offsets, columns) = build_csr(vertices, &sources, &destinations);
    let weights = draw_weights(seed, GraphKind::PowerLaw, columns.len());
    Csr { offsets, columns, weights }
}

/// Counting sort of the edges by source, then each vertex's destinations sorted.
fn build_csr(vertices: u32, sources: &[u32], destinations: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; vertices as usize + 1];
    for &s in sources {
        offsets[s as usize + 1] += 1;
    }
    for v in 0..vertices as usize {
        offsets[v + 1] += offsets[v];
    }
    let mut cursor: Vec<u32> = offsets[..vertices as usize].to_vec();
    let mut columns = vec![0u32; sources.len()];
    for (&s, &d) in sources.iter().zip(destinations) {
        let slot = &mut cursor[s as usize];
        columns[*slot as usize] = d;
        *slot += 1;
    }
    for v in 0..vertices as usize {
        columns[offsets[v] as usize..offsets[v + 1] as usize].sort_unstable();
    }
    (offsets, columns)
}

fn draw_weights(seed: u32, kind: GraphKind, count: usize) -> Vec<u32> {
    let mut percents = Percents::new(stream(seed, kind, Stream::Weights));
    (0..count).map(|_| percents.next() + 1).collect()
}

/// The degree of a banded graph's hubs and the share of vertices that are hubs, in percent.
const BANDED_HUB_DEGREES: (u32, u32) = (64, 256);
const BANDED_HUB_PERCENT: u32 = 10;
/// Other vertices: 8 plus a geometric number of extra edges (success probability 15 %), capped
/// so that no vertex has more edges than a hub.
const BANDED_BASE_DEGREE: u32 = 8;
const BANDED_GEOMETRIC_PERCENT: u32 = 15;

fn banded(vertices: u32, band: u32, seed: u32) -> Csr {
    let mut percents = Percents::new(stream(seed, GraphKind::Banded, Stream::Edges));
    let mut rng = stream(seed, GraphKind::Banded, Stream::Neighbours);
    let mut offsets = Vec::with_capacity(vertices as usize + 1);
    let mut columns = Vec::new();
    offsets.push(0u32);
    let (hub_low, hub_high) = BANDED_HUB_DEGREES;
    for v in 0..vertices {
        let degree = if percents.next() < BANDED_HUB_PERCENT {
            hub_low + rng.below(u64::from(hub_high - hub_low + 1)) as u32
        } else {
            let mut extra = 0;
            while extra < hub_high - BANDED_BASE_DEGREE && percents.next() >= BANDED_GEOMETRIC_PERCENT {
                extra += 1;
            }
            BANDED_BASE_DEGREE + extra
        };
        // A vertex alone has no neighbour to link to.
        if vertices > 1 {
            let row = columns.len();
            let span = 2 * u64::from(band);
            for _ in 0..degree {
                // Uniform over the 2B offsets in [−B, B] other than 0.
                let mut offset = rng.below(span) as i64 - i64::from(band);
                if offset >= 0 {
                    offset += 1;
                }
                let u = (i64::from(v) + offset).clamp(0, i64::from(vertices) - 1) as u32;
                // Clamping at an end of the id range can land on v itself: take the next vertex in.
                columns.push(if u != v {
                    u
                } else if v == 0 {
                    1
                } else {
                    v - 1
                });
            }
            columns[row..].sort_unstable();
        }
        offsets.push(columns.len() as u32);
    }
    let weights = draw_weights(seed, GraphKind::Banded, columns.len());
    Csr { offsets, columns, weights }
}

/// Citations per vertex: 1 + Binomial(64, 1/8), each trial a 3-bit number that is 0.
const CITATION_TRIALS: u32 = 64;
/// The share of citations to recent vertices (the window), in percent.
const CITATION_RECENT_PERCENT: u32 = 70;

fn citation(vertices: u32, window: u32, seed: u32) -> Csr {
    let mut percents = Percents::new(stream(seed, GraphKind::Citation, Stream::Edges));
    let mut rng = stream(seed, GraphKind::Citation, Stream::Neighbours);
    // Every endpoint of every citation so far: a uniform pick is a pick by degree.
    let mut endpoints: Vec<u32> = Vec::new();
    for v in 1..vertices {
        let mut k = 1;
        let mut bits = 0u64;
        for trial in 0..CITATION_TRIALS {
            if trial % 21 == 0 {
                bits = rng.next_u64();
            }
            k += u32::from(bits & 0b111 == 0);
            bits >>= 3;
        }
        // Only citations made before v's: v cannot cite itself.
        let earlier = endpoints.len() as u64;
        for _ in 0..k.min(v) {
            let cited = if percents.next() < CITATION_RECENT_PERCENT || earlier == 0 {
                let first = v.saturating_sub(window);
                first + rng.below(u64::from(v - first)) as u32
            } else {
                endpoints[rng.below(earlier) as usize]
            };
            endpoints.push(v);
            endpoints.push(cited);
        }
    }
    let (sources, destinations): (Vec<u32>, Vec<u32>) =
        endpoints.chunks_exact(2).flat_map(|pair| [(pair[0], pair[1]), (pair[1], pair[0])]).unzip();
    drop(endpoints);
    let (offsets, columns) = build_csr(vertices, &sources, &destinations);
    let (offsets, columns) = without_duplicates(&offsets, &columns);
    let weights = draw_weights(seed, GraphKind::Citation, columns.len());
    Csr { offsets, columns, weights }
}

/// The same CSR with repeated destinations in a (sorted) row kept once.
fn without_duplicates(offsets: &[u32], columns: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut kept_offsets = Vec::with_capacity(offsets.len());
    let mut kept = Vec::with_capacity(columns.len());
    kept_offsets.push(0u32);
    for row in offsets.windows(2) {
        let start = kept.len();
        for &c in &columns[row[0] as usize..row[1] as usize] {
            if kept.len() == start || kept.last() != Some(&c) {
                kept.push(c);
            }
        }
        kept_offsets.push(kept.len() as u32);
    }
    (kept_offsets, kept)
}

/// Union–find over the vertices, by size with path halving.
struct Components {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Components {
    fn new(n: u32) -> Self {
        Components { parent: (0..n).collect(), size: vec![1; n as usize] }
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.parent[v as usize] != v {
            let grandparent = self.parent[self.parent[v as usize] as usize];
            self.parent[v as usize] = grandparent;
            v = grandparent;
        }
        v
    }

    /// Joins the components of `a` and `b`; false if they were already one.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            core::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

fn mesh(width: u32, height: u32, seed: u32) -> Csr {
    let vertices = width * height;
    // Links 0..horizontal join (y·W + x, y·W + x + 1), numbered y·(W − 1) + x; the rest,
    // horizontal + j, join (j, j + W).
    let horizontal = height * (width - 1);
    let links = horizontal + width * (height - 1);
    let ends = |link: u32| -> (u32, u32) {
        if link < horizontal {
            let (y, x) = (link / (width - 1), link % (width - 1));
            (y * width + x, y * width + x + 1)
        } else {
            let j = link - horizontal;
            (j, j + width)
        }
    };

    // A spanning tree grown from the links in a seeded random order.
    let mut order: Vec<u32> = (0..links).collect();
    let mut rng = stream(seed, GraphKind::Mesh, Stream::LinkOrder);
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let mut components = Components::new(vertices);
    let mut spare: Vec<u32> = Vec::new();
    for &link in &order {
        let (a, b) = ends(link);
        if !components.union(a, b) {
            spare.push(link);
        }
    }
    drop(order);
    spare.sort_unstable();

    // Remove a seeded uniform choice of the spare links (partial Fisher–Yates).
    let wanted = (u64::from(links) * MESH_REMOVED_PERCENT / 100) as usize;
    let removed = wanted.min(spare.len());
    let mut rng = stream(seed, GraphKind::Mesh, Stream::Removal);
    let mut kept = vec![true; links as usize];
    for i in 0..removed {
        let j = i + rng.below((spare.len() - i) as u64) as usize;
        spare.swap(i, j);
        kept[spare[i] as usize] = false;
    }

    let mut percents = Percents::new(stream(seed, GraphKind::Mesh, Stream::Weights));
    let link_weight: Vec<u32> = (0..links).map(|_| percents.next() + 1).collect();

    // Each vertex's neighbours in ascending order: up, left, right, down.
    let mut offsets = Vec::with_capacity(vertices as usize + 1);
    let mut columns = Vec::with_capacity(2 * (links as usize - removed));
    let mut weights = Vec::with_capacity(2 * (links as usize - removed));
    offsets.push(0u32);
    for v in 0..vertices {
        let (y, x) = (v / width, v % width);
        let mut neighbour = |link: u32, other: u32| {
            if kept[link as usize] {
                columns.push(other);
                weights.push(link_weight[link as usize]);
            }
        };
        if y > 0 {
            neighbour(horizontal + v - width, v - width);
        }
        if x > 0 {
            neighbour(y * (width - 1) + x - 1, v - 1);
        }
        if x + 1 < width {
            neighbour(y * (width - 1) + x, v + 1);
        }
        if y + 1 < height {
            neighbour(horizontal + v, v + width);
        }
        offsets.push(columns.len() as u32);
    }
    Csr { offsets, columns, weights }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::VecDeque;

    fn spec(kind: GraphKind, vertices: u32, edges_or_width: u32, seed: u32) -> GraphSpec {
        GraphSpec { kind, vertices, edges_or_width, seed }
    }

    fn assert_well_formed(g: &Csr, vertices: u32) {
        assert_eq!(g.offsets.len(), vertices as usize + 1);
        assert_eq!(g.offsets[0], 0);
        assert_eq!(*g.offsets.last().unwrap() as usize, g.columns.len());
        assert_eq!(g.columns.len(), g.weights.len());
        assert_eq!(g.vertices(), vertices);
        for v in 0..vertices as usize {
            assert!(g.offsets[v] <= g.offsets[v + 1], "offsets fall at {v}");
            let row = &g.columns[g.offsets[v] as usize..g.offsets[v + 1] as usize];
            assert!(row.windows(2).all(|w| w[0] <= w[1]), "row {v} not sorted");
            assert!(row.iter().all(|&c| c < vertices), "column out of range in {v}");
        }
        assert!(g.weights.iter().all(|&w| (1..=100).contains(&w)));
    }

    fn degrees(g: &Csr) -> Vec<u32> {
        (0..g.vertices()).map(|v| g.out_degree(v)).collect()
    }

    #[test]
    fn uniform_graph_is_well_formed_with_exact_edges_and_no_self_loops() {
        let g = generate(&spec(GraphKind::Uniform, 1000, 7777, 3)).unwrap();
        assert_well_formed(&g, 1000);
        assert_eq!(g.edges(), 7777);
        for v in 0..1000 {
            let row = &g.columns[g.offsets[v] as usize..g.offsets[v + 1] as usize];
            assert!(!row.contains(&(v as u32)), "self loop at {v}");
        }
    }

    #[test]
    fn power_law_graph_is_well_formed_with_exact_edges_and_no_self_loops() {
        for vertices in [2, 3, 1000, 4096, 5000] {
            let g = generate(&spec(GraphKind::PowerLaw, vertices, 20_000, 9)).unwrap();
            assert_well_formed(&g, vertices);
            assert_eq!(g.edges(), 20_000);
            for v in 0..vertices as usize {
                let row = &g.columns[g.offsets[v] as usize..g.offsets[v + 1] as usize];
                assert!(!row.contains(&(v as u32)), "self loop at {v}");
            }
        }
    }

    #[test]
    fn mesh_graph_is_well_formed() {
        for (w, h) in [(1, 1), (1, 10), (10, 1), (2, 2), (64, 64), (33, 17)] {
            let g = generate(&spec(GraphKind::Mesh, w * h, w, 5)).unwrap();
            assert_well_formed(&g, w * h);
        }
    }

    #[test]
    fn empty_edge_sets_are_fine() {
        let g = generate(&spec(GraphKind::Uniform, 1, 0, 0)).unwrap();
        assert_well_formed(&g, 1);
        assert_eq!(g.edges(), 0);
        let g = generate(&spec(GraphKind::PowerLaw, 10, 0, 0)).unwrap();
        assert_well_formed(&g, 10);
        assert_eq!(g.edges(), 0);
    }

    #[test]
    fn same_seed_same_graph_other_seed_other_graph() {
        for (kind, vertices, e) in
            [(GraphKind::Uniform, 4096, 32768), (GraphKind::PowerLaw, 4096, 32768), (GraphKind::Mesh, 4096, 64)]
        {
            let a = generate(&spec(kind, vertices, e, 1)).unwrap();
            let b = generate(&spec(kind, vertices, e, 1)).unwrap();
            let c = generate(&spec(kind, vertices, e, 2)).unwrap();
            assert_eq!(a, b, "{kind:?} is not deterministic");
            assert_ne!(a.columns, c.columns, "{kind:?} ignores the seed");
            assert_ne!(a.weights, c.weights, "{kind:?} weights ignore the seed");
        }
    }

    #[test]
    fn pinned_output_stays_the_same_forever() {
        // The generators are part of the reproducibility contract: a saved workload must give
        // the same graph in every future version and on every platform.
        let csr = |offsets: &[u32], columns: &[u32], weights: &[u32]| Csr {
            offsets: offsets.to_vec(),
            columns: columns.to_vec(),
            weights: weights.to_vec(),
        };
        assert_eq!(
            generate(&spec(GraphKind::Uniform, 8, 6, 1)).unwrap(),
            csr(&[0, 1, 2, 2, 4, 4, 5, 5, 6], &[3, 3, 1, 4, 2, 6], &[7, 25, 59, 97, 22, 60])
        );
        assert_eq!(
            generate(&spec(GraphKind::PowerLaw, 8, 6, 1)).unwrap(),
            csr(&[0, 2, 2, 3, 4, 4, 4, 6, 6], &[2, 5, 5, 5, 1, 5], &[24, 41, 51, 95, 86, 32])
        );
        let banded = generate(&spec(GraphKind::Banded, 8, 3, 1)).unwrap();
        assert_eq!(banded.offsets, [0, 9, 20, 30, 48, 64, 72, 83, 93]);
        assert_eq!(
            banded.columns,
            [
                1, 1, 1, 1, 1, 1, 2, 3, 3, 0, 0, 0, 2, 2, 2, 3, 3, 3, 4, 4, 1, 3, 3, 3, 4, 4, 4, 5, 5, 5, 1, 1, 1, 2,
                2, 2, 2, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 2, 2, 2, 3, 3, 5, 5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 3, 4, 6, 7,
                7, 7, 7, 7, 3, 4, 5, 7, 7, 7, 7, 7, 7, 7, 7, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6
            ]
        );
        assert_eq!(banded.weights[..8], [3, 99, 92, 33, 6, 2, 96, 77]);
        assert_eq!(
            generate(&spec(GraphKind::Citation, 8, 3, 1)).unwrap(),
            csr(
                &[0, 4, 7, 12, 16, 22, 26, 31, 34],
                &[1, 2, 3, 4, 0, 4, 7, 0, 3, 4, 5, 6, 0, 2, 5, 6, 0, 1, 2, 5, 6, 7, 2, 3, 4, 6, 2, 3, 4, 5, 7, 1, 4, 6],
                &[
                    39, 1, 74, 27, 27, 53, 45, 68, 50, 100, 59, 50, 55, 79, 23, 11, 71, 67, 58, 24, 76, 9, 8, 31, 99,
                    25, 20, 78, 31, 64, 40, 4, 75, 90
                ]
            )
        );
        let mesh = generate(&spec(GraphKind::Mesh, 25, 5, 1)).unwrap();
        assert_eq!(
            mesh.offsets,
            [0, 2, 5, 8, 11, 13, 16, 20, 24, 28, 30, 33, 37, 40, 42, 43, 46, 50, 54, 58, 61, 63, 66, 69, 72, 74]
        );
        assert_eq!(
            mesh.columns,
            [
                1, 5, 0, 2, 6, 1, 3, 7, 2, 4, 8, 3, 9, 0, 6, 10, 1, 5, 7, 11, 2, 6, 8, 12, 3, 7, 9, 13, 4, 8, 5, 11,
                15, 6, 10, 12, 16, 7, 11, 17, 8, 18, 19, 10, 16, 20, 11, 15, 17, 21, 12, 16, 18, 22, 13, 17, 19, 23,
                14, 18, 24, 15, 21, 16, 20, 22, 17, 21, 23, 18, 22, 24, 19, 23
            ]
        );
        assert_eq!(
            mesh.weights,
            [
                24, 73, 24, 65, 16, 65, 19, 57, 19, 77, 64, 77, 71, 73, 30, 26, 16, 30, 77, 38, 57, 77, 81, 78, 64, 81,
                22, 75, 71, 22, 26, 87, 67, 38, 87, 62, 26, 78, 62, 64, 75, 45, 49, 67, 47, 35, 26, 47, 26, 68, 64, 26,
                16, 96, 45, 16, 1, 66, 49, 1, 18, 35, 41, 68, 41, 42, 96, 42, 34, 66, 34, 92, 18, 92
            ]
        );
    }

    #[test]
    fn uniform_degrees_are_even_and_power_law_has_hubs() {
        let (v, e) = (4096u32, 32768u32);
        let mean = f64::from(e) / f64::from(v);

        let u = degrees(&generate(&spec(GraphKind::Uniform, v, e, 1)).unwrap());
        let variance = u.iter().map(|&d| (f64::from(d) - mean) * (f64::from(d) - mean)).sum::<f64>() / f64::from(v);
        let max = *u.iter().max().unwrap();
        assert!(variance < 2.0 * mean, "uniform variance {variance}");
        assert!(f64::from(max) < 4.0 * mean, "uniform max degree {max}");

        let g = generate(&spec(GraphKind::PowerLaw, v, e, 1)).unwrap();
        let p = degrees(&g);
        let max = *p.iter().max().unwrap();
        assert!(f64::from(max) >= 10.0 * mean, "power-law max degree {max}");
        // The biggest hub is vertex 0; the other hubs are spread out, not packed at low ids.
        assert_eq!(p[0], max);
        let hubs: Vec<usize> = (0..v as usize).filter(|&i| f64::from(p[i]) >= 4.0 * mean).collect();
        assert!(hubs.len() >= 8, "only {} hubs", hubs.len());
        assert!(hubs.iter().any(|&i| i >= v as usize / 2), "hubs all at low ids: {hubs:?}");
    }

    fn bfs_reached(g: &Csr, source: u32) -> usize {
        let mut seen = vec![false; g.vertices() as usize];
        let mut queue = VecDeque::new();
        seen[source as usize] = true;
        queue.push_back(source);
        let mut reached = 1;
        while let Some(v) = queue.pop_front() {
            for &c in &g.columns[g.offsets[v as usize] as usize..g.offsets[v as usize + 1] as usize] {
                if !seen[c as usize] {
                    seen[c as usize] = true;
                    reached += 1;
                    queue.push_back(c);
                }
            }
        }
        reached
    }

    #[test]
    fn mesh_is_a_connected_symmetric_grid_with_a_few_links_missing() {
        for (w, h, seed) in [(64u32, 64u32, 1u32), (100, 7, 2), (1, 50, 3), (50, 1, 4), (2, 2, 5)] {
            let g = generate(&spec(GraphKind::Mesh, w * h, w, seed)).unwrap();
            let links = u64::from(h * (w - 1) + w * (h - 1));
            for v in 0..w * h {
                let (y, x) = (v / w, v % w);
                assert!(g.out_degree(v) <= 4);
                let start = g.offsets[v as usize] as usize;
                for i in start..g.offsets[v as usize + 1] as usize {
                    let c = g.columns[i];
                    let (cy, cx) = (c / w, c % w);
                    assert_eq!(y.abs_diff(cy) + x.abs_diff(cx), 1, "{v} -> {c} is no grid link");
                    // The reverse edge exists, with the same weight.
                    let back = &g.columns[g.offsets[c as usize] as usize..g.offsets[c as usize + 1] as usize];
                    let j = back.binary_search(&v).expect("edge without its reverse");
                    assert_eq!(g.weights[g.offsets[c as usize] as usize + j], g.weights[i]);
                }
            }
            assert_eq!(bfs_reached(&g, 0), (w * h) as usize, "{w}×{h} is not connected");
            let kept = u64::from(g.edges()) / 2;
            let removed = links - kept;
            assert!(removed <= links * 8 / 100);
            if (w, h) == (64, 64) {
                assert_eq!(removed, links * 8 / 100);
                assert!(removed * 100 >= links * 5, "only {removed} of {links} links removed");
            }
            if w == 1 || h == 1 {
                assert_eq!(removed, 0, "a line has no link to spare");
            }
        }
    }

    #[test]
    fn bad_specs_are_refused_with_the_reason() {
        let err = |s: GraphSpec| generate(&s).unwrap_err();
        assert_eq!(
            err(spec(GraphKind::Uniform, 5_000_000, 10, 0)),
            "a graph may have at most 4194304 vertices, got 5000000"
        );
        assert_eq!(err(spec(GraphKind::PowerLaw, 0, 10, 0)), "a graph needs at least 1 vertex, got 0");
        assert_eq!(
            err(spec(GraphKind::PowerLaw, 100, 40_000_000, 0)),
            "a graph may have at most 33554432 edges, got 40000000"
        );
        assert!(err(spec(GraphKind::Uniform, 1, 5, 0)).contains("at least 2 vertices"));
        assert!(err(spec(GraphKind::PowerLaw, 1, 5, 0)).contains("at least 2 vertices"));
        assert_eq!(err(spec(GraphKind::Mesh, 10, 0, 0)), "a mesh needs a width of at least 1, got 0");
        assert!(err(spec(GraphKind::Mesh, 10, 3, 0)).contains("width 3 cannot have 10 vertices"));
        assert!(err(spec(GraphKind::Mesh, 0, 3, 0)).contains("at least 1 vertex"));
        assert!(err(spec(GraphKind::Mesh, MAX_VERTICES * 2, 1024, 0)).contains("at most"));
        // Edge cases at the limits are accepted.
        assert!(generate(&spec(GraphKind::Mesh, 1, 1, 0)).is_ok());
        assert!(generate(&spec(GraphKind::Uniform, 2, 3, 0)).is_ok());
    }

    #[test]
    fn banded_graph_keeps_neighbours_in_the_band_with_a_tenth_hubs() {
        let (n, band) = (32_768u32, 64u32);
        let g = generate(&spec(GraphKind::Banded, n, band, 3)).unwrap();
        assert_well_formed(&g, n);
        for v in 0..n {
            for &c in &g.columns[g.offsets[v as usize] as usize..g.offsets[v as usize + 1] as usize] {
                assert!(c != v && c.abs_diff(v) <= band, "{v} -> {c} leaves the band");
            }
        }
        let d = degrees(&g);
        let hubs = d.iter().filter(|&&x| x >= 64).count();
        // 10 % hubs plus the rare geometric tail past 56 extra edges (0.85^56 ≈ 0.01 %).
        assert!((3000..3560).contains(&hubs), "{hubs} hubs of {n}");
        assert!(d.iter().all(|&x| (8..=256).contains(&x)));
        // Mean 0.9 · (8 + 0.85 / 0.15) + 0.1 · 160 = 28.3.
        let mean = f64::from(g.edges()) / f64::from(n);
        assert!((27.5..29.1).contains(&mean), "mean degree {mean}");
        // Small graphs and the ends of the range: no self loops, nothing out of range.
        for n in [1, 2, 3, 100] {
            let g = generate(&spec(GraphKind::Banded, n, 5, 1)).unwrap();
            assert_well_formed(&g, n);
            for v in 0..n {
                let row = &g.columns[g.offsets[v as usize] as usize..g.offsets[v as usize + 1] as usize];
                assert!(!row.contains(&v), "self loop at {v} of {n}");
            }
        }
    }

    #[test]
    fn citation_graph_is_symmetric_simple_and_mostly_recent() {
        let (n, window) = (16_384u32, 512u32);
        let g = generate(&spec(GraphKind::Citation, n, window, 4)).unwrap();
        assert_well_formed(&g, n);
        let mut near = 0u64;
        for v in 0..n {
            let row = &g.columns[g.offsets[v as usize] as usize..g.offsets[v as usize + 1] as usize];
            assert!(row.windows(2).all(|w| w[0] < w[1]), "duplicate edge at {v}");
            assert!(!row.contains(&v), "self loop at {v}");
            for &c in row {
                let back = &g.columns[g.offsets[c as usize] as usize..g.offsets[c as usize + 1] as usize];
                assert!(back.binary_search(&v).is_ok(), "{v} -> {c} without its reverse");
                near += u64::from(c.abs_diff(v) <= window);
            }
        }
        // About 9 citations per vertex, stored both ways (a few merged as duplicates).
        let mean = f64::from(g.edges()) / f64::from(n);
        assert!((16.0..18.2).contains(&mean), "mean degree {mean}");
        // 70 % of citations go to the window, and some of the rest land there by chance.
        let share = near as f64 / f64::from(g.edges());
        assert!((0.70..0.85).contains(&share), "{share} of edges within the window");
        // Preferential attachment makes hubs: the biggest has far more than the mean.
        let max = degrees(&g).into_iter().max().unwrap();
        assert!(f64::from(max) > 5.0 * mean, "max degree {max}");
        assert_well_formed(&generate(&spec(GraphKind::Citation, 1, 8, 0)).unwrap(), 1);
        assert_well_formed(&generate(&spec(GraphKind::Citation, 2, 8, 0)).unwrap(), 2);
    }

    #[test]
    fn banded_and_citation_are_seeded_and_refuse_bad_specs() {
        for kind in [GraphKind::Banded, GraphKind::Citation] {
            let a = generate(&spec(kind, 4096, 64, 1)).unwrap();
            assert_eq!(a, generate(&spec(kind, 4096, 64, 1)).unwrap(), "{kind:?} is not deterministic");
            assert_ne!(a.columns, generate(&spec(kind, 4096, 64, 2)).unwrap().columns, "{kind:?} ignores the seed");
        }
        let err = |s: GraphSpec| generate(&s).unwrap_err();
        assert_eq!(err(spec(GraphKind::Banded, 10, 0, 0)), "a banded graph needs a band of at least 1, got 0");
        assert_eq!(err(spec(GraphKind::Citation, 10, 0, 0)), "a citation graph needs a window of at least 1, got 0");
        assert_eq!(
            err(spec(GraphKind::Banded, 2_000_000, 64, 0)),
            "a banded graph may have at most 1048576 vertices, got 2000000"
        );
    }

    #[test]
    fn percents_are_uniform() {
        let mut p = Percents::new(SplitMix64::new(11));
        let mut counts = [0u32; 100];
        for _ in 0..100_000 {
            counts[p.next() as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (850..1150).contains(&c)), "{counts:?}");
    }
}
