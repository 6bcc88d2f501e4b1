//! `char`, `short` and `bool` as CUDA has them: 1- and 2-byte elements in memory, loaded
//! sign- or zero-extended into 32-bit registers, stored as their low bytes, promoted to `int`
//! by every operator and wrapped by every conversion back. Each result is checked against the
//! same computation written out in Rust.

mod language_common;

use language_common::{compiled, config, expect_first_error, Run};
use warpscope_core::exec::memory::AccessError;
use warpscope_core::exec::FaultKind;
use warpscope_core::isa::Space;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

impl Run {
    /// A buffer's bytes, little-endian.
    fn bytes(&self, name: &str) -> Vec<u8> {
        self.words(name).iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// A level-synchronous breadth-first search in the style of GPU graph benchmarks: `bool*`
/// frontier and visited flags, one byte per vertex, read and written by neighbouring threads
/// in the same words, and a vertex record struct.
const BFS: &str = r#"
struct Vertex { int first_edge; int degree; };
__global__ void setup(const int* offsets, Vertex* vertices, bool* frontier, bool* seen, int* level, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    vertices[v].first_edge = offsets[v];
    vertices[v].degree = offsets[v + 1] - offsets[v];
    bool root = v == 0;
    frontier[v] = root;
    seen[v] = root;
    level[v] = root ? 0 : -1;
}
__global__ void expand(const Vertex* vertices, const int* targets, bool* frontier, bool* next,
                       const bool* seen, int* level, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v]) return;
    frontier[v] = false;
    Vertex me = vertices[v];
    for (int e = me.first_edge; e < me.first_edge + me.degree; e++) {
        int u = targets[e];
        if (!seen[u]) {
            level[u] = level[v] + 1;
            next[u] = true;
        }
    }
}
__global__ void advance(bool* frontier, bool* next, bool* seen, bool* changed, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && next[v]) {
        next[v] = false;
        frontier[v] = true;
        seen[v] = true;
        *changed = true;
    }
}
host {
    graph g = mesh(12, 10, 3);
    Vertex vertices[120]; bool frontier[120]; bool next[120]; bool seen[120]; bool changed[1]; int level[120];
    setup<<<2, 64>>>(g.offsets, vertices, frontier, seen, level, 120);
    for (int step = 0; step < 40; step++) {
        expand<<<2, 64>>>(vertices, g.columns, frontier, next, seen, level, 120);
        advance<<<2, 64>>>(frontier, next, seen, changed, 120);
    }
}
"#;

/// Breadth-first levels of the graph whose CSR arrays are `offsets` and `columns`, from 0.
fn levels(offsets: &[i32], columns: &[i32]) -> Vec<i32> {
    let n = offsets.len() - 1;
    let mut cost = vec![-1; n];
    cost[0] = 0;
    let mut frontier = vec![0usize];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &v in &frontier {
            for &u in &columns[offsets[v] as usize..offsets[v + 1] as usize] {
                if cost[u as usize] < 0 {
                    cost[u as usize] = cost[v] + 1;
                    next.push(u as usize);
                }
            }
        }
        frontier = next;
    }
    cost
}

#[test]
fn bfs_with_byte_masks_finds_every_level() {
    let run = Run::new(BFS);
    let graph = |name: &str| {
        let b = run.program.workload.buffers.iter().position(|b| b.name == name).unwrap();
        run.memory.words(run.regions[b]).iter().map(|&w| w as i32).collect::<Vec<_>>()
    };
    let (offsets, columns) = (graph("g.offsets"), graph("g.columns"));
    let expected = levels(&offsets, &columns);
    assert!(expected.iter().all(|&c| c >= 0), "the mesh is connected from vertex 0");
    assert_eq!(run.ints("level")[..120], expected[..]);
    // Every vertex was seen: each byte of `seen` is 1.
    assert!(run.bytes("seen")[..120].iter().all(|&b| b == 1));
    assert_eq!(run.words("seen").len(), 30, "120 bytes are 30 words");
    assert_eq!(run.bytes("changed")[..4], [1, 0, 0, 0]);
}

#[test]
fn bfs_runs_the_same_in_the_timing_engine() {
    let program = compiled(BFS);
    let reference = Run::new(BFS);
    let mut sim = Simulation::new(config(), program.workload, &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    let buffers = &reference.program.workload.buffers;
    for (i, b) in buffers.iter().enumerate() {
        assert_eq!(sim.buffer(i), reference.words(&b.name), "buffer {}", b.name);
    }
}

#[test]
fn narrow_values_wrap_extend_and_promote_as_in_c() {
    let run = Run::new(
        r#"
__global__ void k(const int* in, int* out, char* c, unsigned char* uc, short* s, unsigned short* us) {
    int i = threadIdx.x;
    int x = in[i];
    char a = x;                 // the low byte, signed
    unsigned char b = x;        // the low byte, unsigned
    short h = x;
    unsigned short uh = x;
    c[i] = x; uc[i] = x; s[i] = x; us[i] = x;
    out[6 * i] = a;
    out[6 * i + 1] = b;
    out[6 * i + 2] = h + uh;    // both promote to int: no 16-bit wrap
    char sum = a + a;           // computed in int, wrapped when stored back
    out[6 * i + 3] = sum;
    unsigned char n = b;
    n++;                        // 255 + 1 wraps to 0
    out[6 * i + 4] = n;
    out[6 * i + 5] = (char)(x * 0.5f) + (c[i] < 0);  // float to char; a loaded char compares signed
}
host {
    int in[8] = {0, 127, 128, 255, -1, 300, 40000, -70000};
    int out[48]; char c[8]; unsigned char uc[8]; short s[8]; unsigned short us[8];
    k<<<1, 8>>>(in, out, c, uc, s, us);
}
"#,
    );
    let input = [0i32, 127, 128, 255, -1, 300, 40000, -70000];
    let out = run.ints("out");
    for (i, &x) in input.iter().enumerate() {
        let (a, b, h, uh) = (x as i8, x as u8, x as i16, x as u16);
        let expected = [
            a as i32,
            b as i32,
            h as i32 + uh as i32,
            a.wrapping_add(a) as i32,
            b.wrapping_add(1) as i32,
            ((x as f32 * 0.5) as i32 as i8) as i32 + (a < 0) as i32,
        ];
        assert_eq!(out[6 * i..6 * i + 6], expected, "input {x}");
    }
    let c: Vec<i8> = run.bytes("c")[..8].iter().map(|&b| b as i8).collect();
    assert_eq!(c, input.map(|x| x as i8));
    assert_eq!(run.bytes("uc")[..8], input.map(|x| x as u8));
    let halves = |name: &str| -> Vec<u16> {
        run.bytes(name).chunks(2).take(8).map(|p| u16::from_le_bytes([p[0], p[1]])).collect()
    };
    assert_eq!(halves("s"), input.map(|x| x as i16 as u16));
    assert_eq!(halves("us"), input.map(|x| x as u16));
}

/// A byte histogram: `unsigned char` input read through a stepped pointer, counts gathered
/// per block in a `__shared__` table of 256 bins, then added to the global table.
#[test]
fn a_byte_histogram_through_shared_memory() {
    let run = Run::new(
        r#"
__global__ void count_bytes(const unsigned char* bytes, int n, unsigned int* bins) {
    __shared__ unsigned int local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    int stride = gridDim.x * blockDim.x;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    for (const unsigned char* p = bytes + k; k < n; k += stride, p += stride) {
        atomicAdd(&local[*p], 1u);
    }
    __syncthreads();
    atomicAdd(bins + threadIdx.x, local[threadIdx.x]);
}
host {
    unsigned char buffer[5000] = random(0, 255, 11);
    unsigned int histo[256];
    count_bytes<<<4, 256>>>(buffer, 5000, histo);
}
"#,
    );
    let data = &run.bytes("buffer")[..5000];
    let mut expected = vec![0u32; 256];
    for &b in data {
        expected[b as usize] += 1;
    }
    assert!(expected.iter().filter(|&&n| n > 0).count() > 200, "the data covers most byte values");
    assert_eq!(run.words("histo"), expected);
}

#[test]
fn structs_with_narrow_members_are_laid_out_as_c_does() {
    let run = Run::new(
        r#"
struct Rec { char tag; int value; short a; char b; };   // offsets 0, 4, 8, 10; size 12
struct Pair { unsigned char x, y; };                      // size 2
__global__ void k(Rec* recs, Pair* pairs, int* out) {
    int i = threadIdx.x;
    Rec r = recs[i];
    out[4 * i] = r.tag;
    out[4 * i + 1] = r.value;
    out[4 * i + 2] = r.a + r.b;
    recs[i].b = r.tag + 1;
    pairs[i].y = pairs[i].x * 2;
    Pair* p = pairs + i;
    out[4 * i + 3] = p->y;
}
host {
    Rec recs[2] = {-3, 1000, -2000, 7,   100, -5, 30000, -128};
    Pair pairs[4] = {1, 0, 2, 0, 200, 0, 3, 0};
    int out[8];
    k<<<1, 2>>>(recs, pairs, out);
}
"#,
    );
    assert_eq!(run.ints("out"), [-3, 1000, -1993, 2, 100, -5, 29872, 4]);
    let recs = run.bytes("recs");
    assert_eq!(recs.len(), 24, "two 12-byte records");
    assert_eq!((recs[0] as i8, recs[10] as i8, recs[11]), (-3, -2, 0), "b = tag + 1, at offset 10, then padding");
    assert_eq!(i16::from_le_bytes([recs[20], recs[21]]), 30000, "the second record's `a` at 12 + 8");
    assert_eq!(recs[22] as i8, 101);
    assert_eq!(run.bytes("pairs")[..8], [1, 2, 2, 4, 200, 0, 3, 0], "two threads: the first two pairs");
}

#[test]
fn host_buffers_of_narrow_elements_are_packed() {
    let run = Run::new(
        r#"
__global__ void k(const char* a, const unsigned short* b, const bool* f, int* out) {
    int i = threadIdx.x;
    out[3 * i] = a[i];
    out[3 * i + 1] = b[i];
    out[3 * i + 2] = f[i];
}
host {
    char a[6] = {-1, 2, -3, 4, 130, 6};
    unsigned short b[6] = iota();
    bool f[6] = fill(true);
    int out[18];
    k<<<1, 6>>>(a, b, f, out);
}
"#,
    );
    let a = [-1i32, 2, -3, 4, 130i32 as i8 as i32, 6];
    let out = run.ints("out");
    for i in 0..6 {
        assert_eq!(out[3 * i..3 * i + 3], [a[i], i as i32, 1]);
    }
    // Narrow buffers are whole words: 6 bytes become 8 elements, and `fill` covers them all.
    assert_eq!(run.words("a").len(), 2);
    assert_eq!(run.bytes("f"), [1; 8]);
}

#[test]
fn narrow_mistakes_are_named() {
    // A narrow access must be aligned to its size: a short at an odd address faults.
    let program = compiled(
        "__global__ void k(char* c) { short* s = (short*)(c + 1); s[0] = 1; }\nhost { char c[8]; k<<<1, 1>>>(c); }",
    );
    let mut sim = Simulation::new(config(), program.workload, &Policies::default(), RunOptions::default()).unwrap();
    let outcome = sim.run();
    let StepOutcome::Fault { fault, .. } = &outcome else { panic!("expected a fault: {outcome:?}") };
    let base = sim.memory().regions()[0].base;
    let expected = FaultKind::Memory { space: Space::Global, address: base + 1, error: AccessError::Misaligned };
    assert_eq!(fault.kind, expected);
    expect_first_error(
        "__device__ void k2(int* p) {}\n__global__ void k(char* c) { k2(c); }\nhost { char c[4]; k<<<1, 1>>>(c); }",
        "argument 1 of `k2` must be an `int*`, found a `char*`",
    );
}
