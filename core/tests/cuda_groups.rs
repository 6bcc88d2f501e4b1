//! Cooperative groups as CUDA's samples and programming guide use them, each result checked
//! against the same computation written out in Rust over the kernel's own input.

mod language_common;

use language_common::{expect_first_error, Run};

/// The CUDA samples' reduction: a thread block and `cg::sync`, then a tile of 32 whose
/// `shfl_down` finishes the sum. Blocks of 16 × 8 threads: `thread_rank` is x + 16 y.
#[test]
fn a_block_reduction_with_a_tile_of_32() {
    let run = Run::new(
        r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, int* out, unsigned* rank) {
    cg::thread_block cta = cg::this_thread_block();
    __shared__ int sdata[128];
    unsigned tid = cta.thread_rank();
    unsigned base = cta.group_index().x * cta.size();
    rank[base + tid] = tid;
    sdata[tid] = in[base + tid];
    cg::sync(cta);
    for (unsigned s = cta.size() / 2; s >= 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        cta.sync();
    }
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (tid < 32) {
        int sum = sdata[tid];
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
            sum += tile32.shfl_down(sum, offset);
        if (tile32.thread_rank() == 0) out[cta.group_index().x] = sum;
    }
}
host { int in[384] = random(-50, 50, 12); int out[3]; unsigned rank[384]; reduce<<<3, dim3(16, 8)>>>(in, out, rank); }
"#,
    );
    let input = run.ints("in");
    assert_eq!(run.ints("out"), input.chunks(128).map(|b| b.iter().sum()).collect::<Vec<i32>>());
    // A thread's rank is its linear index: x + 16 y, block after block.
    let ranks: Vec<u32> = (0..384).map(|i| i % 128).collect();
    assert_eq!(run.words("rank"), ranks);
}

/// `cg::reduce` over tiles of 16: every thread of a tile gets its tile's sum, maximum and
/// bitwise or; `meta_group_rank` numbers the tiles of the block.
#[test]
fn reduce_over_tiles_gives_every_thread_the_result() {
    let run = Run::new(
        r#"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
using namespace cooperative_groups;
namespace cg = cooperative_groups;

__global__ void k(const int* in, const float* f, int* sum, float* best, int* bits, unsigned* tile_of) {
    thread_block block = this_thread_block();
    auto tile = tiled_partition<16>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    sum[i] = cg::reduce(tile, in[i], cg::plus<int>());
    best[i] = cg::reduce(tile, f[i], cg::greater<float>());
    bits[i] = cg::reduce(tile, 1 << (in[i] & 15), cg::bit_or<int>());
    tile_of[i] = tile.meta_group_rank() * 100 + tile.meta_group_size();
}
host {
    int in[128] = random(0, 1000, 3); float f[128] = random(-1.0, 1.0, 4);
    int sum[128]; float best[128]; int bits[128]; unsigned tile_of[128];
    k<<<2, 64>>>(in, f, sum, best, bits, tile_of);
}
"#,
    );
    let (input, f) = (run.ints("in"), run.floats("f"));
    for i in 0..128 {
        let t = i / 16 * 16..i / 16 * 16 + 16;
        assert_eq!(run.ints("sum")[i], input[t.clone()].iter().sum::<i32>(), "thread {i}");
        assert_eq!(run.floats("best")[i], f[t.clone()].iter().copied().fold(f32::MIN, f32::max), "thread {i}");
        assert_eq!(run.ints("bits")[i], input[t].iter().fold(0, |m, v| m | 1 << (v & 15)), "thread {i}");
        assert_eq!(run.words("tile_of")[i], (i as u32 % 64 / 16) * 100 + 4, "thread {i}");
    }
}

/// The programming guide's `reduce_sum(thread_group g, int* temp, int val)`, called with the
/// whole block and with tiles of 8 (each its own stretch of the shared array).
#[test]
fn a_thread_group_parameter_takes_the_group_passed() {
    let run = Run::new(
        r#"
#include <cooperative_groups.h>
using namespace cooperative_groups;

__device__ int reduce_sum(thread_group g, int* temp, int val) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        temp[lane] = val;
        g.sync();
        if (lane < i) val += temp[lane + i];
        g.sync();
    }
    return val;
}

__global__ void k(const int* in, int* block_sums, int* tile_sums) {
    __shared__ int temp[64];
    thread_block block = this_thread_block();
    int v = in[blockIdx.x * 64 + threadIdx.x];
    int total = reduce_sum(block, temp, v);
    if (block.thread_rank() == 0) block_sums[blockIdx.x] = total;
    block.sync();
    thread_group tile = tiled_partition(block, 8);
    int part = reduce_sum(tile, temp + threadIdx.x / 8 * 8, v);
    if (tile.thread_rank() == 0) tile_sums[blockIdx.x * 8 + threadIdx.x / 8] = part;
}
host { int in[128] = random(0, 9, 21); int block_sums[2]; int tile_sums[16]; k<<<2, 64>>>(in, block_sums, tile_sums); }
"#,
    );
    let input = run.ints("in");
    assert_eq!(run.ints("block_sums"), input.chunks(64).map(|b| b.iter().sum()).collect::<Vec<i32>>());
    assert_eq!(run.ints("tile_sums"), input.chunks(8).map(|b| b.iter().sum()).collect::<Vec<i32>>());
}

/// Warp-aggregated atomics (the CUDA blog's `atomicAggInc`): the active lanes of a branch
/// form a coalesced group; its first lane adds the group's size once and every lane takes its
/// own slot. The kept values are the input's values above 50, each once.
#[test]
fn a_coalesced_group_aggregates_an_atomic() {
    let run = Run::new(
        r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int atomicAggInc(int* ctr) {
    cg::coalesced_group g = cg::coalesced_threads();
    int prev;
    if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
    prev = g.thread_rank() + g.shfl(prev, 0);
    return prev;
}

__global__ void filter(const int* in, int* out, int* count, unsigned* sizes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 50) {
        out[atomicAggInc(count)] = in[i];
        sizes[i] = cg::coalesced_threads().size();
    }
}
host { int in[200] = random(0, 99, 17); int out[200]; int count[1]; unsigned sizes[200]; filter<<<4, 64>>>(in, out, count, sizes, 200); }
"#,
    );
    let input = run.ints("in");
    let mut kept: Vec<i32> = input.iter().copied().filter(|&v| v > 50).collect();
    let count = run.ints("count")[0] as usize;
    assert_eq!(count, kept.len());
    let mut out = run.ints("out")[..count].to_vec();
    out.sort();
    kept.sort();
    assert_eq!(out, kept);
    // The size of each lane's group: the lanes of its warp that took the branch.
    for (i, &v) in input.iter().enumerate() {
        if v > 50 {
            let warp = i / 32 * 32..(i / 32 * 32 + 32).min(200);
            let taken = input[warp].iter().filter(|&&x| x > 50).count() as u32;
            assert_eq!(run.words("sizes")[i], taken, "thread {i}");
        }
    }
}

/// A tile's votes cover its own threads, and its ballot numbers them from 0.
#[test]
fn tile_votes_are_the_tiles_own() {
    let run = Run::new(
        r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, unsigned* ballot, int* any, int* all) {
    cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
    int i = threadIdx.x;
    ballot[i] = t.ballot(in[i] > 50);
    any[i] = t.any(in[i] > 90);
    all[i] = t.all(in[i] > 10);
}
host { int in[64] = random(0, 99, 8); unsigned ballot[64]; int any[64]; int all[64]; k<<<1, 64>>>(in, ballot, any, all); }
"#,
    );
    let input = run.ints("in");
    for i in 0..64 {
        let tile = &input[i / 8 * 8..i / 8 * 8 + 8];
        let bits = tile.iter().enumerate().filter(|(_, &v)| v > 50).fold(0u32, |m, (l, _)| m | 1 << l);
        assert_eq!(run.words("ballot")[i], bits, "thread {i}");
        assert_eq!(run.ints("any")[i], tile.iter().any(|&v| v > 90) as i32, "thread {i}");
        assert_eq!(run.ints("all")[i], tile.iter().all(|&v| v > 10) as i32, "thread {i}");
    }
}

#[test]
fn group_mistakes_are_named() {
    let src = |body: &str| {
        format!(
            "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
             __global__ void k(int* a, int n) {{ cg::thread_block b = cg::this_thread_block(); {body} }}\n\
             host {{ int a[64]; k<<<1, 64>>>(a, 3); }}"
        )
    };
    let cases = [
        (
            "cg::this_grid().sync();",
            "grid-wide groups need a cooperative launch (`cudaLaunchCooperativeKernel`), which is not supported",
        ),
        (
            "auto t = cg::tiled_partition<64>(b);",
            "a tile's size must be a power of two up to the warp's 32 threads, not 64",
        ),
        ("auto t = cg::tiled_partition(b, n);", "a tile's size must be a constant"),
        ("a[0] = cg::coalesced_threads().ballot(1);", "a `coalesced_group` has no function `ballot` here"),
        ("a[0] = b.shfl(1, 0);", "a `thread_block` has no function `shfl` here"),
        (
            "a[0] = cg::reduce(b, 1, cg::plus<int>());",
            "`cooperative_groups::reduce` takes a tile (`tiled_partition`), not a `thread_block`",
        ),
        ("auto x;", "`auto` declares one variable from its initializer: `auto x = value;`"),
        ("a[0] = n.size();", "an `int` has no functions; `.size(…)` is for cooperative groups"),
    ];
    for (body, message) in cases {
        expect_first_error(&src(body), message);
    }
}
