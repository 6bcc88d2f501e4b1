//! Kernels that take a struct by value, as CUDA programs pass their parameters (Rodinia's
//! lavaMD passes `par_str` and `dim_str`): the host block builds the value (`Params p = {…};`,
//! `p.n = …;`), the launch passes its members as argument words in layout order (a 64-bit
//! member as two), and the kernel reads them as a struct. Checked against the same arithmetic
//! in Rust.

mod language_common;

use language_common::{errors, Run};

const SRC: &str = r#"
typedef struct { float x, y; } Vec2;
typedef struct {
    float alpha;
    Vec2 shift;        // a nested struct
    long long big;     // a 64-bit member: two argument words
    double scale;
    int n;
} Params;

__global__ void apply(Params p, const float* in, float* out, long long* wide) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) {
        out[i] = p.alpha * in[i] + p.shift.x - p.shift.y;
        wide[i] = p.big + i + (long long)(p.scale * i);
    }
}

host {
    float in[40] = iota();
    float out[40];
    long long wide[40];
    Params p = {0.5, 3.0, 1.0};   // the rest are zero
    p.n = 30;
    p.n += 2;
    p.big = -7;
    p.scale = 2.5;
    Params q = p;                  // a copy: later changes to p do not reach it
    p.alpha = 100;
    apply<<<2, 32>>>(q, in, out, wide);
}
"#;

#[test]
fn a_struct_passed_by_value_reaches_the_kernel() {
    let run = Run::new(SRC);
    let out = run.floats("out");
    let wide: Vec<i64> =
        run.words("wide").chunks_exact(2).map(|p| (p[0] as u64 | (p[1] as u64) << 32) as i64).collect();
    for i in 0..40 {
        if i < 32 {
            assert_eq!(out[i], 0.5 * i as f32 + 3.0 - 1.0, "out[{i}]");
            assert_eq!(wide[i], -7 + i as i64 + (2.5 * i as f64) as i64, "wide[{i}]");
        } else {
            assert_eq!((out[i], wide[i]), (0.0, 0), "past n, at {i}");
        }
    }
}

#[test]
fn struct_values_in_the_host_block_say_what_is_wrong() {
    let head = "struct S { int a; float b; };\n__global__ void k(S s, int* o) { o[0] = s.a; }\n";
    let cases = [
        ("host { S s; s.c = 1; int o[1]; k<<<1, 1>>>(s, o); }", "struct `S` has no member `c`"),
        ("host { S s = {1, 2, 3}; int o[1]; k<<<1, 1>>>(s, o); }", "too many initializers for `s` (2 members)"),
        (
            "host { const S s = {1, 2}; s.a = 3; int o[1]; k<<<1, 1>>>(s, o); }",
            "cannot assign to a member of a `const` struct value",
        ),
        ("host { int o[1]; k<<<1, 1>>>(5, o); }", "argument 1 of `k` must be a `S`, found an `int`"),
    ];
    for (host, message) in cases {
        let found = errors(&format!("{head}{host}"));
        assert_eq!(found[0].2, message, "{host}: {found:?}");
    }
    let array = "struct A { int v[4]; };\n__global__ void k(A a, int* o) { o[0] = 1; }\nhost { int o[1]; A a[1]; k<<<1, 1>>>(a, o); }";
    assert_eq!(errors(array)[0].2, "a kernel cannot take a struct with an array member (`A.v`) by value");
}
