//! The rest of CUDA's math library: trigonometric, inverse and hyperbolic functions, `cbrt`,
//! `hypot`, `erf`/`erfc`, `expm1`, `log1p` and `exp10`, on `float` (the `f` names, the C++
//! overloads, the fast intrinsics) and on `double`. Each result is checked against Rust's own
//! implementation (a different one from the engine's `libm`) within a few units in the last
//! place, so a function wired to the wrong operation fails.

mod language_common;
use language_common::*;

const KERNEL: &str = r#"
#include <math.h>
#define F 16
__global__ void k(const float* x, float* fo, double* dout) {
    int i = threadIdx.x;
    float v = x[i];          // in (-0.9, 0.9): inside every function's domain
    double w = (double)v;
    float* f = fo + i * F;
    f[0] = tanf(v);   f[1] = asinf(v);  f[2] = acosf(v);   f[3] = atanf(v);
    f[4] = atan2f(v, 0.5f - v);          f[5] = sinhf(v);  f[6] = coshf(v);
    f[7] = cbrtf(v);  f[8] = hypotf(v, 2.0f * v + 1.0f);   f[9] = erff(v);
    f[10] = erfcf(v); f[11] = expm1f(v); f[12] = log1pf(v); f[13] = exp10f(v);
    f[14] = tan(v);   f[15] = __tanf(v) + __exp10f(v);     // C++ overload, intrinsics
    double* d = dout + i * F;
    d[0] = tan(w);    d[1] = asin(w);   d[2] = acos(w);    d[3] = atan(w);
    d[4] = atan2(w, 0.5 - w);           d[5] = sinh(w);    d[6] = cosh(w);
    d[7] = cbrt(w);   d[8] = hypot(w, 2.0 * w + 1.0);      d[9] = erf(w);
    d[10] = erfc(w);  d[11] = expm1(w); d[12] = log1p(w);  d[13] = exp10(w);
    d[14] = atan2(-w, -1.0);            d[15] = erf(w) + erfc(w);
}
host { float x[32] = random(-0.9, 0.9, 5); float fo[32 * F]; double dout[32 * F]; k<<<1, 32>>>(x, fo, dout); }
"#;

/// |got - want| within four units in the last place of `want`, or of 1 where the reference
/// is a difference from 1 (`erfc` as `1 - erf`, which cancels).
fn close(got: f64, want: f64, eps: f64, what: &str) {
    let scale = if what.contains("function 10 ") { 1.0 } else { want.abs() };
    let tolerance = 4.0 * eps * scale + eps * 1e-3;
    assert!((got - want).abs() <= tolerance, "{what}: got {got}, want {want}");
}

/// erf by its Maclaurin series, which converges fast for |x| < 1.
fn erf_series(x: f64) -> f64 {
    let (mut term, mut sum) = (x, x);
    for n in 1..60 {
        term *= -x * x / n as f64;
        sum += term / (2 * n + 1) as f64;
    }
    sum * 2.0 / core::f64::consts::PI.sqrt()
}

#[test]
fn each_function_computes_what_rust_does() {
    let run = Run::new(KERNEL);
    let x = run.floats("x");
    let fo = run.floats("fo");
    let words = run.words("dout");
    let dout: Vec<f64> = words.chunks(2).map(|p| f64::from_bits(p[0] as u64 | (p[1] as u64) << 32)).collect();
    for (i, &v) in x.iter().enumerate() {
        let f = |k: usize| fo[i * 16 + k] as f64;
        let e = f32::EPSILON as f64;
        let w = v as f64;
        let reference = [
            w.tan(),
            w.asin(),
            w.acos(),
            w.atan(),
            w.atan2(0.5 - w),
            w.sinh(),
            w.cosh(),
            w.cbrt(),
            w.hypot(2.0 * w + 1.0),
            erf_series(w),
            1.0 - erf_series(w),
            w.exp_m1(),
            w.ln_1p(),
            10f64.powf(w),
        ];
        for (k, &want) in reference.iter().enumerate() {
            close(f(k), want, e, &format!("float function {k} of {v}"));
        }
        close(f(14), w.tan(), e, "tan(float)");
        close(f(15), w.tan() + 10f64.powf(w), e, "__tanf + __exp10f");
        let d = |k: usize| dout[i * 16 + k];
        for (k, &want) in reference.iter().enumerate() {
            close(d(k), want, f64::EPSILON, &format!("double function {k} of {w}"));
        }
        close(d(14), (-w).atan2(-1.0), f64::EPSILON, "atan2 in the third quadrant");
        close(d(15), 1.0, f64::EPSILON, "erf + erfc");
    }
}
