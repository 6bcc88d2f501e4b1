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

/// Rodinia's BFS as it is written: `bool*` masks, one byte per vertex, read and written by
/// neighbouring threads in the same words.
const BFS: &str = r#"
struct Node { int starting; int no_of_edges; };
__global__ void Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask, bool* g_updating_graph_mask,
                       bool* g_graph_visited, int* g_cost, int no_of_nodes) {
    int tid = blockIdx.x * 64 + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}
__global__ void Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited, bool* g_over, int no_of_nodes) {
    int tid = blockIdx.x * 64 + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}
host {
    graph g = mesh(12, 10, 3);
    Node nodes[120];
    init<<<2, 64>>>(g.offsets, nodes, mask, visited, cost, 120);
    for (int level = 0; level < 40; level++) {
        Kernel<<<2, 64>>>(nodes, g.columns, mask, updating, visited, cost, 120);
        Kernel2<<<2, 64>>>(mask, updating, visited, over, 120);
    }
}
"#;

const BFS_INIT: &str = r#"
__global__ void init(int* offsets, Node* nodes, bool* mask, bool* visited, int* cost, int n) {
    int v = blockIdx.x * 64 + threadIdx.x;
    if (v < n) {
        nodes[v].starting = offsets[v];
        nodes[v].no_of_edges = offsets[v + 1] - offsets[v];
        mask[v] = v == 0;
        visited[v] = v == 0;
        cost[v] = v == 0 ? 0 : -1;
    }
}
"#;

fn bfs_source() -> String {
    // The kernels, then `init`, then the host block with its byte buffers declared first.
    let (kernels, host) = BFS.split_at(BFS.find("host {").unwrap());
    let host = host.replace(
        "    Node nodes[120];",
        "    Node nodes[120]; bool mask[120]; bool updating[120]; bool visited[120]; bool over[1]; int cost[120];",
    );
    format!("{kernels}{BFS_INIT}{host}")
}

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
    let run = Run::new(&bfs_source());
    let graph = |name: &str| {
        let b = run.program.workload.buffers.iter().position(|b| b.name == name).unwrap();
        run.memory.words(run.regions[b]).iter().map(|&w| w as i32).collect::<Vec<_>>()
    };
    let (offsets, columns) = (graph("g.offsets"), graph("g.columns"));
    let expected = levels(&offsets, &columns);
    assert!(expected.iter().all(|&c| c >= 0), "the mesh is connected from vertex 0");
    assert_eq!(run.ints("cost")[..120], expected[..]);
    // Every byte of `visited` is 1, and the padding past the last element untouched.
    assert!(run.bytes("visited")[..120].iter().all(|&b| b == 1));
    assert_eq!(run.words("visited").len(), 30, "120 bytes are 30 words");
    assert_eq!(run.bytes("over")[..4], [1, 0, 0, 0]);
}

#[test]
fn bfs_runs_the_same_in_the_timing_engine() {
    let program = compiled(&bfs_source());
    let reference = Run::new(&bfs_source());
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

/// Rodinia's huffman histogram shape: bytes in, a `__shared__` histogram of 256 bins,
/// pointer arithmetic on `unsigned char*`.
#[test]
fn a_byte_histogram_through_shared_memory() {
    let run = Run::new(
        r#"
__global__ void histo_kernel(unsigned char* buffer, int size, unsigned int* histo) {
    __shared__ unsigned int temp[256];
    temp[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    const unsigned char* p = buffer + i;
    while (i < size) {
        atomicAdd(&temp[*p], 1);
        i += offset;
        p += offset;
    }
    __syncthreads();
    atomicAdd(&(histo[threadIdx.x]), temp[threadIdx.x]);
}
host {
    unsigned char buffer[5000] = random(0, 255, 11);
    unsigned int histo[256];
    histo_kernel<<<4, 256>>>(buffer, 5000, histo);
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
