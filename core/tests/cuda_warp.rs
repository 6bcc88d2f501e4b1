//! Warp shuffles and votes as CUDA kernels use them, each result checked against the same
//! computation written out in Rust over the kernel's own input.

mod language_common;

use language_common::{expect_first_error, Run};

/// The classic warp sum: `__shfl_down_sync` halving the distance; lane 0 of each warp holds
/// the sum of its 32 values. A block of 96 threads: three full warps.
#[test]
fn a_warp_sum_with_shfl_down() {
    let run = Run::new(
        r#"
__inline__ __device__ int warp_sum(int v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}
__global__ void k(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = warp_sum(in[i]);
    if ((threadIdx.x & 31) == 0) out[i / 32] = s;
}
host { int in[192] = random(-1000, 1000, 5); int out[6]; k<<<2, 96>>>(in, out); }
"#,
    );
    let input = run.ints("in");
    let expected: Vec<i32> = input.chunks(32).map(|w| w.iter().sum()).collect();
    assert_eq!(run.ints("out"), expected);
}

/// An all-reduce by butterfly (`__shfl_xor_sync`): every lane ends with its warp's maximum.
/// And a broadcast within segments of 8 lanes: each lane reads lane 3 of its segment.
#[test]
fn a_butterfly_maximum_and_a_segment_broadcast() {
    let run = Run::new(
        r#"
__global__ void k(const float* in, float* best, float* third) {
    int i = threadIdx.x;
    float v = in[i];
    for (int m = 16; m >= 1; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));
    best[i] = v;
    third[i] = __shfl_sync(0xffffffff, in[i], 3, 8);
}
host { float in[64] = random(-1.0, 1.0, 9); float best[64]; float third[64]; k<<<1, 64>>>(in, best, third); }
"#,
    );
    let input = run.floats("in");
    let best = run.floats("best");
    let third = run.floats("third");
    for i in 0..64 {
        let warp = &input[i / 32 * 32..i / 32 * 32 + 32];
        assert_eq!(best[i], warp.iter().copied().fold(f32::MIN, f32::max), "lane {i}");
        assert_eq!(third[i], input[i / 8 * 8 + 3], "lane {i}");
    }
}

/// An inclusive scan with `__shfl_up_sync` (Hillis and Steele): a lane below the distance
/// keeps its value, which the `if` leaves out of the sum.
#[test]
fn an_inclusive_scan_with_shfl_up() {
    let run = Run::new(
        r#"
__global__ void k(const int* in, int* out) {
    int lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    for (int d = 1; d < 32; d *= 2) {
        int n = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += n;
    }
    out[threadIdx.x] = v;
}
host { int in[64] = random(0, 9, 2); int out[64]; k<<<1, 64>>>(in, out); }
"#,
    );
    let input = run.ints("in");
    let mut expected = Vec::new();
    for warp in input.chunks(32) {
        let mut sum = 0;
        expected.extend(warp.iter().map(|v| {
            sum += v;
            sum
        }));
    }
    assert_eq!(run.ints("out"), expected);
}

/// Votes count the lanes that run them: a ballot over the whole warp, a ballot and
/// `__activemask` inside a branch only some lanes take, `__all` and `__any` with a mask, and
/// the partial last warp of a 48-thread block (16 lanes).
#[test]
fn votes_see_the_active_lanes_and_their_mask() {
    let run = Run::new(
        r#"
__global__ void k(const int* in, unsigned* ballot, unsigned* odd, unsigned* active, int* all, int* any) {
    int i = threadIdx.x;
    ballot[i] = __ballot_sync(0xffffffff, in[i] > 50);
    odd[i] = 0u;
    if (i % 2 == 1) {
        odd[i] = __ballot_sync(0xffffffff, in[i] > 50);
    }
    active[i] = __activemask();
    // Only the lanes in the mask vote: the first four all hold, no upper lane does.
    all[i] = __all_sync(0x0000000f, i % 32 < 4);
    any[i] = __any_sync(0xffff0000, i % 32 < 16);
}
host {
    int in[48] = random(0, 99, 4);
    unsigned ballot[48]; unsigned odd[48]; unsigned active[48]; int all[48]; int any[48];
    k<<<1, 48>>>(in, ballot, odd, active, all, any);
}
"#,
    );
    let input = run.ints("in");
    let mask_where = |lanes: &[i32], p: &dyn Fn(usize, i32) -> bool| -> u32 {
        lanes.iter().enumerate().filter(|&(l, &v)| p(l, v)).fold(0, |m, (l, _)| m | 1 << l)
    };
    for (w, warp) in input.chunks(32).enumerate() {
        let big = mask_where(warp, &|_, v| v > 50);
        let odd_big = mask_where(warp, &|l, v| l % 2 == 1 && v > 50);
        let live = if warp.len() == 32 { u32::MAX } else { (1 << warp.len()) - 1 };
        for l in 0..warp.len() {
            let i = w * 32 + l;
            assert_eq!(run.words("ballot")[i], big, "thread {i}");
            assert_eq!(run.words("odd")[i], if l % 2 == 1 { odd_big } else { 0 }, "thread {i}");
            assert_eq!(run.words("active")[i], live, "thread {i}");
            assert_eq!(run.ints("all")[i], 1, "thread {i}");
            assert_eq!(run.ints("any")[i], 0, "thread {i}");
        }
    }
}

/// The names before CUDA 9 (`__shfl_down`, `__ballot`) are the same calls over the whole
/// warp; `__syncwarp` and the fences compile and change nothing here.
#[test]
fn the_older_names_syncwarp_and_fences() {
    let run = Run::new(
        r#"
__global__ void k(const int* in, int* out, unsigned* b) {
    int v = in[threadIdx.x];
    __syncwarp();
    __threadfence();
    __threadfence_block();
    out[threadIdx.x] = v + __shfl_down(v, 1);
    __syncwarp(0xffffffff);
    b[threadIdx.x] = __ballot(v % 2 == 0);
}
host { int in[32] = iota(); int out[32]; unsigned b[32]; k<<<1, 32>>>(in, out, b); }
"#,
    );
    let expected: Vec<i32> = (0..32).map(|i| i + if i < 31 { i + 1 } else { i }).collect();
    assert_eq!(run.ints("out"), expected);
    assert!(run.words("b").iter().all(|&b| b == 0x5555_5555));
}

#[test]
fn shuffle_mistakes_are_named() {
    let src =
        |body: &str| format!("__global__ void k(float* a) {{ {body} }}\nhost {{ float a[32]; k<<<1, 32>>>(a); }}");
    let cases = [
        (
            "a[0] = __shfl_sync(0xffffffff, a[1], 0, 3);",
            "the width of `__shfl_sync` must be a power of two from 1 to 32, not 3",
        ),
        ("a[0] = __shfl_down_sync(0xffffffff, a[1]);", "`__shfl_down_sync` takes 3 or 4 arguments, got 2"),
        (
            "a[0] = __shfl_xor_sync(0xffffffff, a, 1);",
            "`__shfl_xor_sync` exchanges a 32- or 64-bit number, not a `float*`",
        ),
        ("a[0] = __shfl_sync(0xffffffff, a[1], 1.5f);", "`__shfl_sync` needs an integer here, found a `float`"),
        ("a[0] = __ballot_sync(a[1]);", "`__ballot_sync` takes 2 arguments, got 1"),
    ];
    for (body, message) in cases {
        expect_first_error(&src(body), message);
    }
}
