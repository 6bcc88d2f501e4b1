//! What the standard headers define: `#include <limits.h>`, `<float.h>`, `<math.h>`,
//! `<stdint.h>` and CUDA's `<math_constants.h>` give their macros, with the values Rust's own
//! constants have; CUDA's bit casts (`__int_as_float` and kin) read bits as another type.

mod language_common;

use language_common::{errors, Run};

const SRC: &str = r#"
#include <limits.h>
#include <cfloat>          // the C++ spelling works too
#include <math.h>
#include <stdint.h>
#include <math_constants.h>

__global__ void limits(int* i, unsigned* u, long long* l, float* f, double* d) {
    i[0] = INT_MAX;  i[1] = INT_MIN;  i[2] = SHRT_MIN; i[3] = CHAR_BIT; i[4] = INT16_MAX;
    u[0] = UINT_MAX; u[1] = UINT32_MAX; u[2] = USHRT_MAX;
    l[0] = LLONG_MAX; l[1] = LLONG_MIN; l[2] = INT64_MIN; l[3] = LONG_MAX;
    f[0] = FLT_MAX;  f[1] = FLT_MIN;  f[2] = FLT_EPSILON; f[3] = INFINITY; f[4] = NAN;
    f[5] = CUDART_PI_F; f[6] = CUDART_NAN_F; f[7] = -HUGE_VALF;
    d[0] = M_PI; d[1] = DBL_MAX; d[2] = DBL_EPSILON; d[3] = M_SQRT2; d[4] = CUDART_INF;
}

__global__ void casts(const float* x, int* bits, float* back, double* wide, long long* raw) {
    int t = threadIdx.x;
    bits[t] = __float_as_int(x[t]);
    back[t] = __uint_as_float(__float_as_uint(x[t]) ^ 0x80000000u);
    raw[t] = __double_as_longlong((double)x[t]);
    wide[t] = __longlong_as_double(raw[t] + 1);
}

host {
    int i[5]; unsigned u[3]; long long l[4]; float f[8]; double d[5];
    limits<<<1, 1>>>(i, u, l, f, d);
    float x[4] = {1.5, -0.0, 3.0e-39, 1.0e30};
    int bits[4]; float back[4]; double wide[4]; long long raw[4];
    casts<<<1, 4>>>(x, bits, back, wide, raw);
}
"#;

fn u64s(run: &Run, name: &str) -> Vec<u64> {
    run.words(name).chunks_exact(2).map(|p| p[0] as u64 | (p[1] as u64) << 32).collect()
}

#[test]
fn standard_headers_define_their_macros() {
    let run = Run::new(SRC);
    assert_eq!(run.ints("i"), [i32::MAX, i32::MIN, i16::MIN as i32, 8, i16::MAX as i32]);
    assert_eq!(run.words("u"), [u32::MAX, u32::MAX, u16::MAX as u32]);
    let l: Vec<i64> = u64s(&run, "l").into_iter().map(|v| v as i64).collect();
    assert_eq!(l, [i64::MAX, i64::MIN, i64::MIN, i64::MAX]);
    let f: Vec<u32> = run.words("f");
    let expected_f = [
        f32::MAX.to_bits(),
        f32::MIN_POSITIVE.to_bits(),
        f32::EPSILON.to_bits(),
        f32::INFINITY.to_bits(),
        0x7fc0_0000,
        "3.141592654".parse::<f32>().unwrap().to_bits(), // CUDART_PI_F as CUDA writes it
        0x7fff_ffff,
        f32::NEG_INFINITY.to_bits(),
    ];
    assert_eq!(f, expected_f);
    let d: Vec<f64> = u64s(&run, "d").into_iter().map(f64::from_bits).collect();
    assert_eq!(d, [std::f64::consts::PI, f64::MAX, f64::EPSILON, std::f64::consts::SQRT_2, f64::INFINITY]);
}

#[test]
fn bit_casts_keep_the_bits() {
    let run = Run::new(SRC);
    let x = [1.5f32, -0.0, 3.0e-39, 1.0e30];
    assert_eq!(run.words("bits"), x.map(f32::to_bits));
    assert_eq!(run.floats("back").iter().map(|v| v.to_bits()).collect::<Vec<_>>(), x.map(|v| (-v).to_bits()));
    let raw = u64s(&run, "raw");
    assert_eq!(raw, x.map(|v| (v as f64).to_bits()));
    let wide = u64s(&run, "wide");
    assert_eq!(wide, x.map(|v| (v as f64).to_bits() + 1));
}

/// A header's macros exist only where it is included, as in C.
#[test]
fn a_macro_needs_its_header() {
    let src = "__global__ void k(int* o) { o[0] = INT_MAX; }\nhost { int o[1]; k<<<1, 1>>>(o); }";
    assert_eq!(errors(src), [(1, 36, "undefined name `INT_MAX`".to_string())]);
}
