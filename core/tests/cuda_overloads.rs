//! Overloaded device functions, chosen by the arguments' types as C++ chooses among them:
//! pointers by element type (Rodinia's dwt2d `storeComponents` for `float*` and `int*`),
//! numbers by exact type before conversion, by arity, and for struct returns; a tie or no fit
//! is an error naming it. Results are checked against the same arithmetic in Rust.

mod language_common;

use language_common::{errors, Run};

const SRC: &str = r#"
struct P { float x; int n; };
__device__ void store(float* p, float v) { *p = v + 0.5f; }
__device__ void store(int* p, int v) { *p = v * 2; }
__device__ float pick(float a) { return a + 1.0f; }
__device__ float pick(double a) { return (float)(a * 4.0); }
__device__ int pick(int a, int b) { return a - b; }
__device__ P make(float x) { P p; p.x = x; p.n = 1; return p; }
__device__ P make(int n) { P p; p.x = 0.0f; p.n = n; return p; }
__global__ void k(float* f, int* i, P* ps) {
    __shared__ float s[32];
    int t = threadIdx.x;
    store(&f[t], (float)t);              // float*
    store(i + t, t);                     // int*
    s[t] = pick((float)t) + pick(0.25) + (float)pick(t, 1);
    __syncthreads();
    store(f + 32 + t, s[t]);
    ps[t] = make(t);                     // int: the exact match, not the float one
    ps[32 + t] = make(1.5f);
}
host { float f[64]; int i[32]; P ps[64]; k<<<1, 32>>>(f, i, ps); }
"#;

#[test]
fn the_overload_whose_parameters_fit_the_arguments_is_called() {
    let run = Run::new(SRC);
    let f = run.floats("f");
    let i = run.ints("i");
    let ps = run.words("ps");
    for t in 0..32 {
        assert_eq!(f[t], t as f32 + 0.5, "f[{t}]");
        assert_eq!(i[t], 2 * t as i32, "i[{t}]");
        let s = (t as f32 + 1.0) + 1.0 + (t as i32 - 1) as f32;
        assert_eq!(f[32 + t], s + 0.5, "f[32 + {t}]");
        assert_eq!((f32::from_bits(ps[2 * t]), ps[2 * t + 1]), (0.0, t as u32), "ps[{t}]");
        assert_eq!((f32::from_bits(ps[64 + 2 * t]), ps[64 + 2 * t + 1]), (1.5, 1), "ps[32 + {t}]");
    }
}

#[test]
fn overloads_that_cannot_be_told_apart_are_errors() {
    let with = |body: &str| format!("{body}\nhost {{ float f[1]; k<<<1, 1>>>(f); }}");
    let tie = "__device__ float g(float a, int b) { return a; }\n__device__ float g(int a, float b) { return b; }\n\
               __global__ void k(float* f) { f[0] = g(1, 2); }";
    assert_eq!(errors(&with(tie))[0].2, "the call of `g` fits several overloads equally (line 1, line 2)");
    let none = "__device__ float g(float* a) { return a[0]; }\n__device__ float g(int* a) { return 1.0f; }\n\
                __global__ void k(float* f) { f[0] = g(f + 0) + g(7); }";
    assert_eq!(errors(&with(none))[0].2, "no overload of `g` takes (int)");
    let same = "__device__ float g(float a) { return a; }\n__device__ float g(float b) { return b; }\n\
                __global__ void k(float* f) { f[0] = g(1.0f); }";
    assert_eq!(errors(&with(same))[0].2, "`g` is already defined at line 1");
    let kernels = "__global__ void k(float* f) { }\n__global__ void k(int* f) { }";
    assert_eq!(errors(&with(kernels))[0].2, "`k` is already defined at line 1");
}
