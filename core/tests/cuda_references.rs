//! Reference parameters of device functions and CUDA's vector types, in the style of a CFD
//! solver's helpers (`velocity_of(float& rho, float3& p, float3& v)`): each
//! result checked against the same computation written out in Rust.

mod language_common;

use language_common::{expect_error, Run};

#[test]
fn references_name_the_callers_variables_elements_and_structs() {
    let run = Run::new(
        r#"
// Velocity is momentum per unit of density; the speed squared is its dot product with itself.
__device__ inline void velocity_of(float& rho, float3& p, float3& v) {
    v.x = p.x / rho; v.y = p.y / rho; v.z = p.z / rho;
}
__device__ inline float speed_squared(float3& v) { return v.x * v.x + v.y * v.y + v.z * v.z; }
__device__ void swap(int& a, int& b) { int t = a; a = b; b = t; }
__device__ void bump(int& counter) { counter += 1; }
__device__ float twice(const float& x) { return 2.0f * x; }

__global__ void k(const float* vars, float* speeds, float3* velocities, int* pairs, int* swapped, int* counts, float* t) {
    int i = threadIdx.x;
    float density = vars[4 * i];
    float3 momentum;
    momentum.x = vars[4 * i + 1];
    momentum.y = vars[4 * i + 2];
    momentum.z = vars[4 * i + 3];
    float3 velocity;
    velocity_of(density, momentum, velocity);
    speeds[i] = speed_squared(velocity);
    velocities[i] = velocity;
    // Variables: the callee writes the caller's own.
    int a = pairs[2 * i], b = pairs[2 * i + 1];
    swap(a, b);
    swapped[2 * i] = a;
    swapped[2 * i + 1] = b;
    // Elements in memory, and a struct member in memory.
    swap(pairs[2 * i], pairs[2 * i + 1]);
    int c = 0;
    bump(c);
    bump(c);
    counts[i] = c;
    bump(counts[i]);
    t[i] = twice(density + 1.0f);
    velocity_of(density, momentum, velocities[i]);
    velocities[i].x += 100.0f;
}
host {
    float vars[128] = random(1.0, 2.0, 5); int pairs[64] = random(0, 99, 6);
    float speeds[32]; float3 velocities[32]; int swapped[64]; int counts[32]; float t[32];
    k<<<1, 32>>>(vars, speeds, velocities, pairs, swapped, counts, t);
}
"#,
    );
    let vars = run.floats("vars");
    let (speeds, velocities, t) = (run.floats("speeds"), run.floats("velocities"), run.floats("t"));
    let original = run_pairs_before();
    for i in 0..32 {
        let d = vars[4 * i];
        let v = [vars[4 * i + 1] / d, vars[4 * i + 2] / d, vars[4 * i + 3] / d];
        // `a * b + c` contracts to fused multiply-adds, left to right.
        let speed = v[2].mul_add(v[2], v[1].mul_add(v[1], v[0] * v[0]));
        assert_eq!(speeds[i], speed, "thread {i}");
        assert_eq!(&velocities[3 * i..3 * i + 3], &[v[0] + 100.0, v[1], v[2]], "thread {i}");
        assert_eq!(t[i], 2.0 * (d + 1.0), "thread {i}");
    }
    assert_eq!(run.ints("counts"), vec![3; 32]);
    let (pairs, swapped) = (run.ints("pairs"), run.ints("swapped"));
    for i in 0..32 {
        assert_eq!((swapped[2 * i], swapped[2 * i + 1]), (original[2 * i + 1], original[2 * i]));
        assert_eq!((pairs[2 * i], pairs[2 * i + 1]), (original[2 * i + 1], original[2 * i]));
    }
}

/// The `pairs` buffer as the host block fills it (`random(0, 99, 6)`), from a run of a kernel
/// that leaves it alone.
fn run_pairs_before() -> Vec<i32> {
    Run::new("__global__ void k(int* p) { }\nhost { int pairs[64] = random(0, 99, 6); k<<<1, 1>>>(pairs); }")
        .ints("pairs")
}

/// `float4`, `int2` and `uint3` are structs of `x`, `y`, `z`, `w` with CUDA's sizes; a file may
/// define its own `float3` before using it.
#[test]
fn vector_types_have_cudas_members_and_sizes() {
    let run = Run::new(
        r#"
__global__ void k(const float4* in, int2* pairs, unsigned* sizes) {
    int i = threadIdx.x;
    float4 v = in[i];
    pairs[i].x = (int)(v.x + v.w);
    pairs[i].y = (int)(v.y * v.z);
    sizes[0] = sizeof(float4); sizes[1] = sizeof(int2); sizes[2] = sizeof(uint3); sizes[3] = sizeof(float2);
}
host {
    float4 in[3] = {1.5, 2.0, 3.25, 4.5, -1.0, 0.5, 8.0, 2.75, 9.0, 1.0, 1.0, -3.5};
    int2 pairs[3]; unsigned sizes[4]; k<<<1, 3>>>(in, pairs, sizes);
}
"#,
    );
    let input = run.floats("in");
    let pairs = run.ints("pairs");
    for i in 0..3 {
        let v = &input[4 * i..4 * i + 4];
        assert_eq!(pairs[2 * i], (v[0] + v[3]) as i32);
        assert_eq!(pairs[2 * i + 1], (v[1] * v[2]) as i32);
    }
    assert_eq!(run.words("sizes"), [16, 8, 12, 8]);
    let own = "struct float3 { float a; };\n__global__ void k(float3* p) { p[0].a = 1.0f; }\n\
               host { float3 p[1]; k<<<1, 1>>>(p); }";
    assert_eq!(Run::new(own).floats("p"), [1.0]);
}

/// Device functions return structs, and `make_float4(…)` makes one: a sorting network on a
/// `float4` (as sorting kernels keep four keys in one), a `float3` scaled, and a member of a
/// returned struct read directly.
#[test]
fn device_functions_return_structs_and_make_builds_them() {
    let run = Run::new(
        r#"
// Five compare-exchanges: the pairs (x, y) and (z, w), their minima and maxima, then the middle.
__device__ float4 order(float4 v) {
    float a = fminf(v.x, v.y), b = fmaxf(v.x, v.y), c = fminf(v.z, v.w), d = fmaxf(v.z, v.w);
    float low = fminf(a, c), high = fmaxf(b, d), m1 = fmaxf(a, c), m2 = fminf(b, d);
    return make_float4(low, fminf(m1, m2), fmaxf(m1, m2), high);
}
__device__ float3 scale(float3 v, float s) { return make_float3(v.x * s, v.y * s, v.z * s); }
__global__ void k(const float4* in, float4* out, float3* scaled, float* first) {
    int i = threadIdx.x;
    out[i] = order(in[i]);
    float3 v = make_float3(in[i].x, in[i].y, in[i].z);
    scaled[i] = scale(v, 2.0f);
    first[i] = scale(v, 0.5f).x + order(in[i]).w;
}
host {
    float4 in[3] = {3.0, 1.0, 4.0, 1.5, -2.0, 7.0, 0.5, 0.25, 9.0, 8.0, 7.0, 6.0};
    float4 out[3]; float3 scaled[3]; float first[3];
    k<<<1, 3>>>(in, out, scaled, first);
}
"#,
    );
    let input = run.floats("in");
    for i in 0..3 {
        let v = &input[4 * i..4 * i + 4];
        let mut sorted = v.to_vec();
        sorted.sort_by(f32::total_cmp);
        assert_eq!(&run.floats("out")[4 * i..4 * i + 4], &sorted[..], "thread {i}");
        assert_eq!(&run.floats("scaled")[3 * i..3 * i + 3], &[2.0 * v[0], 2.0 * v[1], 2.0 * v[2]]);
        assert_eq!(run.floats("first")[i], 0.5 * v[0] + sorted[3]);
    }
}

#[test]
fn reference_mistakes_are_named() {
    let f = "__device__ void bump(int& c) { c += 1; }\n";
    let cases = [
        (
            "__global__ void k(float3* a) { a[0] = make_float3(1.0f, 2.0f); }\nhost { float3 a[1]; k<<<1, 1>>>(a); }"
                .to_string(),
            "`make_float3` takes 3 arguments, got 2",
        ),
        (
            "__device__ float f(float3 v) { return v.x; }\n__global__ void k(float* a) { a[0] = f(a[1]); }\nhost { float a[2]; k<<<1, 1>>>(a); }"
                .to_string(),
            "argument 1 of `f` must be a `float3`, found a `float`",
        ),
        (
            "__device__ float2 f() { return 1.0f; }\n__global__ void k(float2* a) { a[0] = f(); }\nhost { float2 a[1]; k<<<1, 1>>>(a); }"
                .to_string(),
            "`f` returns a `float2`, not a `float`",
        ),
        (
            format!("{f}__global__ void k(int* a) {{ bump(a[0] + 1); }}\nhost {{ int a[1]; k<<<1, 1>>>(a); }}"),
            "argument 1 of `bump` is a reference to an `int`: pass a variable or an element, not a value",
        ),
        (
            format!("{f}__global__ void k(float* a) {{ bump(a[0]); }}\nhost {{ float a[1]; k<<<1, 1>>>(a); }}"),
            "argument 1 of `bump` is a reference to an `int`: pass one, not a `float`",
        ),
        (
            "__global__ void k(int& a) { }\nhost { int a[1]; k<<<1, 1>>>(a); }".to_string(),
            "a kernel cannot take a reference; pass a pointer to a buffer",
        ),
        (
            format!("{f}__global__ void k(int* a) {{ int l[4]; l[a[0] & 3] = 0; bump(l[1]); a[0] = l[1]; }}\nhost {{ int a[1]; k<<<1, 1>>>(a); }}"),
            "argument 1 of `bump` is a reference to an `int`: pass one, not an element of a local array",
        ),
    ];
    for (src, message) in cases {
        expect_error(&src, message);
    }
}
