//! `long long`, `unsigned long long` and `double` as CUDA has them: 64-bit arithmetic in
//! register pairs, 8-byte loads and stores, C's conversions and promotions (an unsuffixed
//! literal is a `double`, so `x * 0.1` on a `float` computes in double precision), the `<cmath>`
//! overloads for doubles, and 64-bit kernel parameters. Each result is checked against the same
//! computation written out in Rust.

mod language_common;

use language_common::{assert_timing_matches_reference, compiled, errors, Run};
use warpscope_core::isa::{Instr, WideOp};

impl Run {
    /// A buffer of 8-byte elements, as 64-bit words (low word first).
    fn u64s(&self, name: &str) -> Vec<u64> {
        self.words(name).chunks_exact(2).map(|p| p[0] as u64 | (p[1] as u64) << 32).collect()
    }

    fn f64s(&self, name: &str) -> Vec<f64> {
        self.u64s(name).into_iter().map(f64::from_bits).collect()
    }
}

/// The finalizer of SplitMix64, spelled out.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const HASH_AND_SERIES: &str = r#"
__device__ unsigned long long mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
__device__ double square(double v) { return v * v; }
__global__ void k(unsigned long long* hash, double* series, long long* ints, float* scaled,
                  double scale, long long offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    hash[i] = mix(0x9E3779B97F4A7C15ULL * (unsigned long long)(i + 1));
    double acc = 0.0;
    for (long long n = 1; n <= i + 1; n++) {
        acc += 1.0 / square((double)n);
    }
    series[i] = acc * scale;
    long long big = (long long)i * -3000000000LL + offset;
    ints[4 * i] = big;
    ints[4 * i + 1] = big / 7 + big % 7;
    ints[4 * i + 2] = (big >> 3) ^ (big << 2);
    ints[4 * i + 3] = (long long)(acc * 1e12) + (big < 0) + (unsigned long long)big % 1000;
    float x = scaled[i];
    scaled[i] = x * 0.1;
}
host {
    unsigned long long hash[64]; double series[64]; long long ints[256];
    float scaled[64] = random(0.0, 1.0, 3);
    k<<<2, 32>>>(hash, series, ints, scaled, 2.5, 5);
}
"#;

#[test]
fn integer_hashing_double_series_and_promotions_match_rust() {
    let before = compiled(HASH_AND_SERIES);
    let (memory, regions) = before.workload.materialize();
    let inputs: Vec<f32> = memory.words(regions[3]).iter().map(|&w| f32::from_bits(w)).collect();
    let run = Run::new(HASH_AND_SERIES);
    let (hash, series, ints, scaled) = (run.u64s("hash"), run.f64s("series"), run.u64s("ints"), run.floats("scaled"));
    for i in 0..64usize {
        assert_eq!(hash[i], mix(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)), "hash {i}");
        let mut acc = 0.0f64;
        for n in 1..=i + 1 {
            acc += 1.0 / ((n as f64) * (n as f64));
        }
        assert_eq!(series[i].to_bits(), (acc * 2.5).to_bits(), "series {i}");
        let big = i as i64 * -3_000_000_000 + 5;
        let want = [
            big,
            big / 7 + big % 7,
            (big >> 3) ^ (big << 2),
            ((acc * 1e12) as i64) + (big < 0) as i64 + ((big as u64) % 1000) as i64,
        ];
        for (k, &w) in want.iter().enumerate() {
            assert_eq!(ints[4 * i + k] as i64, w, "ints[{}]", 4 * i + k);
        }
        // `x * 0.1` is a double product, rounded once to float on the store.
        assert_eq!(scaled[i].to_bits(), ((inputs[i] as f64 * 0.1) as f32).to_bits(), "scaled {i}");
    }
}

const SHARED_AND_LOCAL: &str = r#"
#define THREADS 64
__global__ void reduce(const double* in, double* out, double* picks) {
    __shared__ double part[THREADS];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * THREADS + t];
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = part[0];
    double table[3] = {1.5, 2.5};
    table[t % 3] = table[t % 3] * 2.0 + sqrt((double)t);
    double pick = table[t % 3];
    double sign = t % 2 ? pick : -pick;
    long long c = 10;
    c++;
    ++c;
    c--;
    c += t;
    c <<= 2;
    picks[blockIdx.x * THREADS + t] = sign + floor(2.75) + fabs(-0.5) + pow(2.0, 3.0) + fmin(1.0, sign) + exp(0.0)
        + (double)(c % 7) + min(c, 3LL) + fmax(-1.0, (double)t / 8.0);
}
host {
    double in[256] = random(-1.0, 1.0, 9); double out[4]; double picks[256];
    reduce<<<4, THREADS>>>(in, out, picks);
}
"#;

#[test]
fn shared_and_local_arrays_of_doubles_select_and_reduce_as_in_rust() {
    let run = Run::new(SHARED_AND_LOCAL);
    let input = run.program.workload.clone();
    let (memory, regions) = input.materialize();
    let words = memory.words(regions[0]);
    let values: Vec<f64> = words.chunks_exact(2).map(|p| f64::from_bits(p[0] as u64 | (p[1] as u64) << 32)).collect();
    let (out, picks) = (run.f64s("out"), run.f64s("picks"));
    for b in 0..4 {
        // The same tree: pairs at distance 32, 16, …, 1.
        let mut part: Vec<f64> = values[b * 64..b * 64 + 64].to_vec();
        let mut s = 32;
        while s > 0 {
            for t in 0..s {
                part[t] += part[t + s];
            }
            s >>= 1;
        }
        assert_eq!(out[b].to_bits(), part[0].to_bits(), "block {b}");
        for t in 0..64usize {
            let mut table = [1.5f64, 2.5, 0.0];
            table[t % 3] = table[t % 3] * 2.0 + (t as f64).sqrt();
            let pick = table[t % 3];
            let sign = if t % 2 == 1 { pick } else { -pick };
            let c = (10 + 1 + 1 - 1 + t as i64) << 2;
            let want = sign
                + 2.0
                + 0.5
                + 8.0
                + sign.min(1.0)
                + 1.0
                + (c % 7) as f64
                + c.min(3) as f64
                + (-1.0f64).max(t as f64 / 8.0);
            assert_eq!(picks[b * 64 + t].to_bits(), want.to_bits(), "pick {b} {t}");
        }
    }
}

#[test]
fn the_timing_engine_computes_what_the_reference_runner_does() {
    for src in [HASH_AND_SERIES, ATOMICS64] {
        assert_timing_matches_reference(src);
    }
}

#[test]
fn sixty_four_bit_parameters_take_two_words_low_first() {
    let src = r#"
__global__ void k(double* out, double a, int n, long long b, unsigned long long c) {
    out[0] = a;
    out[1] = (double)n;
    out[2] = (double)b;
    out[3] = (double)c;
}
host { double out[4]; k<<<1, 1>>>(out, 0.75, -3, -5, 4000000000u); }
"#;
    let program = compiled(src);
    assert_eq!(program.workload.kernels[0].params, 1 + 2 + 1 + 2 + 2);
    let run = Run::new(src);
    assert_eq!(run.f64s("out"), vec![0.75, -3.0, -5.0, 4_000_000_000.0]);
}

#[test]
fn literals_take_c_types_and_the_host_block_stays_32_bit() {
    // Decimal literals too big for `int` are `long long`; hexadecimal ones try `unsigned` first.
    let src = r#"
__global__ void k(long long* out) {
    out[0] = 3000000000 + 0;
    out[1] = 0xFFFFFFFF + 1;
    out[2] = 1LL << 40;
    out[3] = -1 + 0ULL;
}
host { long long out[4]; k<<<1, 1>>>(out); }
"#;
    let run = Run::new(src);
    let out: Vec<i64> = run.u64s("out").into_iter().map(|v| v as i64).collect();
    assert_eq!(out, vec![3_000_000_000, 0, 1 << 40, -1]);

    let host_double = "__global__ void k(float* a) {}\nhost { double x = 1.0; float a[1]; k<<<1, 1>>>(a); }";
    assert!(
        errors(host_double).iter().any(|(_, _, m)| m.contains("host block computes in 32 bits")),
        "{:?}",
        errors(host_double)
    );
    let too_big =
        "__global__ void k(long long* a) { a[0] = 99999999999999999999; }\nhost { long long a[1]; k<<<1, 1>>>(a); }";
    assert!(errors(too_big).iter().any(|(_, _, m)| m.contains("does not fit in 64 bits")), "{:?}", errors(too_big));
}

#[test]
fn constant_double_arithmetic_folds_away() {
    use warpscope_core::isa::Instr;
    // The code generator folds constant expressions; the optimiser folds what becomes constant
    // later (`keep` is assigned, so it is a variable until `fold` sees its value).
    let src = r#"
__global__ void k(float* out, double* d) {
    float keep = 1.0;
    keep += 0.5;
    out[threadIdx.x] = keep * 2.0f;
    d[threadIdx.x] = sqrt(2.0) * 3.0 + (double)(5LL << 40);
}
host { float out[32]; double d[32]; k<<<1, 32>>>(out, d); }
"#;
    let run = Run::new(src);
    let code = &run.program.workload.kernels[0].code;
    let wide = code.iter().filter(|i| matches!(i, Instr::Wide { .. } | Instr::WideUnary { .. })).count();
    assert_eq!(wide, 0, "{code:?}");
    assert!(run.floats("out").iter().all(|&v| v == 3.0));
    let want = 2f64.sqrt() * 3.0 + (5i64 << 40) as f64;
    assert!(run.f64s("d").iter().all(|&v| v.to_bits() == want.to_bits()));
}

#[test]
fn host_buffers_of_64_bit_elements_are_widened_exactly() {
    let src = r#"
__global__ void k(long long* l, unsigned long long* u, double* d, double* f) {}
host {
    long long l[4] = {-1, 2, -3, 4}; unsigned long long u[2] = {4294967295u, 7};
    double d[3] = iota(); double f[2] = {0.1, -2.5};
    k<<<1, 1>>>(l, u, d, f);
}
"#;
    let run = Run::new(src);
    assert_eq!(run.u64s("l").iter().map(|&v| v as i64).collect::<Vec<_>>(), [-1, 2, -3, 4]);
    assert_eq!(run.u64s("u"), [4_294_967_295, 7]);
    assert_eq!(run.f64s("d"), [0.0, 1.0, 2.0]);
    // The host block's values are floats, converted exactly.
    assert_eq!(run.f64s("f"), [0.1f32 as f64, -2.5]);
}

#[test]
fn warp_shuffles_move_64_bit_values_whole() {
    // A butterfly sum of doubles across the warp, and a rotation of 64-bit integers.
    let src = r#"
__global__ void k(const double* in, double* sums, long long* rotated) {
    int lane = threadIdx.x;
    double v = in[lane];
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d);
    sums[lane] = v;
    long long mine = ((long long)lane << 40) - lane;
    rotated[lane] = __shfl_sync(0xffffffff, mine, (lane + 1) % 32);
}
host { double in[32] = random(-4.0, 4.0, 5); double sums[32]; long long rotated[32]; k<<<1, 32>>>(in, sums, rotated); }
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let words = memory.words(regions[0]);
    let input: Vec<f64> = words.chunks_exact(2).map(|p| f64::from_bits(p[0] as u64 | (p[1] as u64) << 32)).collect();
    // Each lane adds its partner's running value at distances 16, 8, 4, 2, 1.
    let mut v = input.clone();
    let mut d = 16;
    while d > 0 {
        v = (0..32).map(|l| v[l] + v[l ^ d]).collect();
        d /= 2;
    }
    assert_eq!(
        run.f64s("sums").iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let rotated: Vec<i64> = run.u64s("rotated").into_iter().map(|x| x as i64).collect();
    let want: Vec<i64> = (0..32i64).map(|l| (((l + 1) % 32) << 40) - (l + 1) % 32).collect();
    assert_eq!(rotated, want);
}

#[test]
fn remainders_decimal_logarithms_and_classification_match_libm() {
    let src = r#"
__global__ void k(const float* x, float* fo, double* dout, int* flags) {
    int i = threadIdx.x;
    float v = x[i];
    double w = (double)v * 3.0;
    fo[2 * i] = fmodf(v, 0.75f);
    fo[2 * i + 1] = log10f(fabsf(v) + 1.0f);
    dout[2 * i] = fmod(w, 0.7);
    dout[2 * i + 1] = log10(fabs(w) + 1.0);
    float q = v / (v - v);          // NaN at 0/0, infinite elsewhere
    double r = w / (w - w);
    flags[i] = isnan(q) + 2 * isinf(q) + 4 * isfinite(v) + 8 * isnan(r) + 16 * isinf(r) + 32 * isfinite(r);
}
host { float x[32] = random(-5.0, 5.0, 11); float fo[64]; double dout[64]; int flags[32]; k<<<1, 32>>>(x, fo, dout, flags); }
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let x: Vec<f32> = memory.words(regions[0]).iter().map(|&w| f32::from_bits(w)).collect();
    let (fo, dout, flags) = (run.floats("fo"), run.f64s("dout"), run.ints("flags"));
    for i in 0..32 {
        let (v, w) = (x[i], x[i] as f64 * 3.0);
        assert_eq!(fo[2 * i].to_bits(), libm::fmodf(v, 0.75).to_bits(), "fmodf {i}");
        assert_eq!(fo[2 * i + 1].to_bits(), libm::log10f(v.abs() + 1.0).to_bits(), "log10f {i}");
        assert_eq!(dout[2 * i].to_bits(), libm::fmod(w, 0.7).to_bits(), "fmod {i}");
        assert_eq!(dout[2 * i + 1].to_bits(), libm::log10(w.abs() + 1.0).to_bits(), "log10 {i}");
        let q = v / (v - v);
        let r = w / (w - w);
        let want = q.is_nan() as i32
            + 2 * q.is_infinite() as i32
            + 4 * v.is_finite() as i32
            + 8 * r.is_nan() as i32
            + 16 * r.is_infinite() as i32
            + 32 * r.is_finite() as i32;
        assert_eq!(flags[i], want, "flags {i} for {v}");
    }
}

#[test]
fn a_64_bit_variable_read_before_its_first_write_in_the_text_keeps_its_value() {
    // `prev` is read (from the second iteration on) above the line that writes it.
    let src = r#"
__global__ void k(double* out, long long* sums) {
    double prev;
    long long total;
    for (int i = 0; i < 6; i++) {
        if (i > 0) {
            out[i] = prev * 2.0;
            sums[i] = total + i;
        }
        prev = (double)i + 0.25;
        total = (long long)i << 33;
    }
}
host { double out[6]; long long sums[6]; k<<<1, 1>>>(out, sums); }
"#;
    let run = Run::new(src);
    let out = run.f64s("out");
    let sums: Vec<i64> = run.u64s("sums").into_iter().map(|v| v as i64).collect();
    for i in 1..6usize {
        assert_eq!(out[i], ((i - 1) as f64 + 0.25) * 2.0, "out {i}");
        assert_eq!(sums[i], (((i - 1) as i64) << 33) + i as i64, "sums {i}");
    }
}

const ATOMICS64: &str = r#"
__global__ void k(unsigned long long* count, long long* lo, long long* hi, unsigned long long* bits,
                  double* sum, double* top, unsigned long long* swapped, double* shared_sum) {
    __shared__ double s;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) s = 0.0;
    __syncthreads();
    atomicAdd(count, 3000000000ULL);                 // past 32 bits at the second lane
    atomicMin(lo, (long long)(t - 40) * 100000000000LL);
    atomicMax(hi, (long long)(t - 40) * 100000000000LL);
    atomicOr(bits, 1ULL << (t % 64));
    atomicXor(bits + 1, (unsigned long long)t << 33);
    atomicAnd(bits + 2, ~(1ULL << (t % 64)));
    atomicAdd(sum, 0.25 * t);
    atomicAdd(&s, 0.5);
    // A double maximum by compare-and-swap on its bits.
    double v = (double)((t * 37) % 64) + 0.125;
    unsigned long long* p = (unsigned long long*)top;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        double cur = __longlong_as_double(assumed);
        if (cur >= v) break;
        old = atomicCAS(p, assumed, __double_as_longlong(v));
    } while (old != assumed);
    if (t == 5) swapped[0] = atomicExch(swapped + 1, 77ULL);
    __syncthreads();
    if (threadIdx.x == 0) shared_sum[blockIdx.x] = s;
}
host {
    unsigned long long count[1];
    long long lo[1];
    long long hi[1];
    unsigned long long bits[3] = {0, 0, -1};
    double sum[1];
    double top[1];
    unsigned long long swapped[2] = {0, 9};
    double shared_sum[2];
    k<<<2, 64>>>(count, lo, hi, bits, sum, top, swapped, shared_sum);
}
"#;

/// 64-bit atomics, each lane's update on a register pair: counters past 2^32, signed minima
/// and maxima, bit operations, exchange, a compare-and-swap loop (a double maximum, as code
/// for older GPUs writes it) and `atomicAdd` on doubles (values whose sums are exact in any
/// order), in global and shared memory. Checked against the same updates in Rust.
#[test]
fn atomics_on_64_bit_values_update_the_pair() {
    let src = ATOMICS64;
    let run = Run::new(src);
    let n = 128u64;
    assert_eq!(run.u64s("count"), [3_000_000_000u64.wrapping_mul(n)]);
    let scaled = |t: i64| (t - 40) * 100_000_000_000;
    assert_eq!(run.u64s("lo")[0] as i64, (0..128).map(scaled).min().unwrap().min(0));
    assert_eq!(run.u64s("hi")[0] as i64, (0..128).map(scaled).max().unwrap());
    let mut expected = [0u64, 0, u64::MAX];
    for t in 0..n {
        expected[0] |= 1 << (t % 64);
        expected[1] ^= t << 33;
        expected[2] &= !(1 << (t % 64));
    }
    assert_eq!(run.u64s("bits"), expected);
    assert_eq!(run.f64s("sum"), [(0..n).map(|t| 0.25 * t as f64).sum::<f64>()]);
    assert_eq!(run.f64s("top"), [(0..n).map(|t| ((t * 37) % 64) as f64 + 0.125).fold(0.0, f64::max)]);
    assert_eq!(run.u64s("swapped"), [9, 77]);
    assert_eq!(run.f64s("shared_sum"), [32.0, 32.0]);
    // What CUDA does not have is named.
    assert_eq!(
        errors("__global__ void k(double* d) { atomicMax(d, 1.0); }\nhost { double d[1]; k<<<1, 1>>>(d); }")[0].2,
        "`atomicMax` does not support `double`; CUDA has `atomicAdd` on it"
    );
    assert_eq!(
        errors("__global__ void k(unsigned long long* d) { atomicInc(d, 1ULL); }\nhost { unsigned long long d[1]; k<<<1, 1>>>(d); }")[0].2,
        "`atomicInc` has no 64-bit form; it works on `int` and `unsigned`"
    );
}

#[test]
fn a_struct_buffer_list_fills_64_bit_members_whole() {
    // lavaMD's particles: `double` members given from the host block's list (held in 32 bits
    // there, so values a float holds exactly), both words of each member written.
    let src = r#"
struct P { double v; float q; long long n; };
__global__ void k(const P* p, double* v, float* q, long long* n) {
    int i = threadIdx.x;
    v[i] = p[i].v * 2.0;
    q[i] = p[i].q;
    n[i] = p[i].n - 1;
}
host {
    P p[2] = {0.5, 1.5, -3,  -2.25, 7.0, 4000000};
    double v[2];
    float q[2];
    long long n[2];
    k<<<1, 2>>>(p, v, q, n);
}
"#;
    let run = Run::new(src);
    let words = run.words("v");
    let doubles: Vec<f64> = words.chunks(2).map(|w| f64::from_bits(w[0] as u64 | (w[1] as u64) << 32)).collect();
    assert_eq!(doubles, vec![1.0, -4.5]);
    assert_eq!(run.floats("q"), vec![1.5, 7.0]);
    let words = run.words("n");
    let longs: Vec<i64> = words.chunks(2).map(|w| (w[0] as u64 | (w[1] as u64) << 32) as i64).collect();
    assert_eq!(longs, vec![-4, 3_999_999]);
}

/// `1 + 2^-30` times `1 - 2^-30` is `1 - 2^-60`, which rounds to 1 in a double: subtracting 1
/// after rounding the product gives 0, with one rounding (DFMA) it gives `-2^-60`.
const FUSED: &str = r#"
__global__ void k(const double* e, double* out) {
    double x = 1.0 + e[0], y = 1.0 - e[0];
    out[0] = fma(x, y, -1.0);
    out[1] = x * y + (-1.0);     // contracted, as nvcc does by default
    out[2] = x * y - 1.0;        // a constant subtracted: fma(x, y, -1)
    double p = x * y;            // read twice: rounded on its own
    out[3] = p - 1.0;
    out[4] = p * 2.0;
    out[5] = -1.0 - x * y;       // a product subtracted from something stays two roundings
    out[6] = fma(1.5, 2.0, 0.25); // folded at compile time, the same way
}
host {
    double e[1] = {0.000000000931322574615478515625};   // 2^-30, exact in the host's float
    double out[7];
    k<<<1, 1>>>(e, out);
}
"#;

#[test]
fn double_products_fuse_into_one_rounding_as_nvcc_contracts_them() {
    let (x, y) = (1.0 + 2f64.powi(-30), 1.0 - 2f64.powi(-30));
    assert_eq!(x * y - 1.0, 0.0, "two roundings lose the low bits");
    let fused = x.mul_add(y, -1.0);
    assert_eq!(fused, -(2f64.powi(-60)));
    let run = Run::new(FUSED);
    assert_eq!(run.f64s("e"), [2f64.powi(-30)]);
    assert_eq!(run.f64s("out"), [fused, fused, fused, 0.0, 2.0 * (x * y), -1.0 - x * y, 3.25]);
    assert_timing_matches_reference(FUSED);
    // A multiply-add is one DFMA, with no product left.
    let program = compiled(
        "__global__ void k(const double* a, const double* b, double* c) { int i = threadIdx.x; c[i] = a[i] * b[i] + c[i]; }
         host { double a[32]; double b[32]; double c[32]; k<<<1, 32>>>(a, b, c); }",
    );
    let code = &program.workload.kernels[0].code;
    assert_eq!(code.iter().filter(|i| matches!(i, Instr::WideFma { .. })).count(), 1);
    assert!(!code.iter().any(|i| matches!(i, Instr::Wide { op: WideOp::DMul, .. })), "{code:?}");
}
