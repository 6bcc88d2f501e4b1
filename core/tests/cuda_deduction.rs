//! Template arguments deduced from a call's arguments, and the names a class declares for
//! itself (enumerators, typedefs, nested structs), as dwt2d's kernels use them: `divRndUp(n,
//! 2)`, `initColumn(column, …)` with `column` a `Column<true>`, `buffer.forEach(offset,
//! Predict())`, and two instances of one class template, each with its own `enum { STRIDE =
//! … }`. Outputs are checked against what C++ computes, worked out here.

mod language_common;
use language_common::*;

const DEDUCED: &str = r#"
template <typename T>
__device__ T divRndUp(const T& n, const T& d) { return n / d + ((n % d) ? 1 : 0); }

template <typename T>
__device__ T total(const T* a, int n) {
    T s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

template <typename T>
__device__ T add(const T& a, const T& b) { return a + b; }

// Its instances call `add`'s, deduced in turn.
template <typename T>
__device__ T twice(T x) { return add(x, x); }

template <bool CHECKED>
struct Column { int offset; };

template <bool CHECKED>
__device__ int clamp(const Column<CHECKED>& c, int limit) {
    return CHECKED ? (c.offset < limit ? c.offset : limit) : c.offset;
}

__global__ void deduced(const float* f, const int* a, float* fout, int* out) {
    int i = threadIdx.x;
    Column<true> checked;
    Column<false> unchecked;
    checked.offset = i;
    unchecked.offset = i;
    out[i] = divRndUp(i, 3) + 100 * clamp(checked, 5) + 10000 * clamp(unchecked, 5);
    out[32 + i] = total(a, i) + twice(i);
    fout[i] = total(f, 4) + twice(0.25f * i);
}

host {
    float f[4] = {0.5, 1.5, 2.5, 3.5};
    int a[32] = iota();
    float fout[32];
    int out[64];
    deduced<<<1, 32>>>(f, a, fout, out);
}
"#;

#[test]
fn calls_deduce_types_pointers_and_class_instance_arguments() {
    let run = Run::new(DEDUCED);
    let div_rnd_up = |n: i32, d: i32| n / d + i32::from(n % d != 0);
    let mut expected: Vec<i32> = (0..32).map(|i| div_rnd_up(i, 3) + 100 * i.min(5) + 10000 * i).collect();
    // total(a, i) = 0 + 1 + … + (i - 1); twice(i) = 2i.
    expected.extend((0..32).map(|i| i * (i - 1) / 2 + 2 * i));
    assert_eq!(run.ints("out"), expected);
    let floats: Vec<f32> = (0..32).map(|i| 8.0 + 0.5 * i as f32).collect();
    assert_eq!(run.floats("fout"), floats);
    assert_timing_matches_reference(DEDUCED);
}

/// A buffer class template whose instances differ in their enumerators, a typedef of one
/// of its instances, and a nested function object, used from two instances of a class
/// template in one kernel — the names each declares are its own.
const SCOPED: &str = r#"
template <typename T, int SIZE>
class Buffer {
  public:
    enum { STRIDE = SIZE + 1 };
  private:
    enum { PADDED = STRIDE * SIZE };
    T data[PADDED];
  public:
    __device__ T& operator[](int i) { return data[i]; }
    template <typename F>
    __device__ void forEach(int offset, const F& f) {
        for (int k = 0; k < SIZE; k++) f(data[offset + k * STRIDE]);
    }
    __device__ int padded() const { return PADDED; }
};

template <int N>
class Stage {
    typedef Buffer<int, N> Inner;
    enum { STEP = Inner::STRIDE };
    Inner buffer;
    struct AddN {
        __device__ void operator()(int& v) const { v += N; }
    };
  public:
    __device__ int run(int x) {
        for (int k = 0; k < buffer.padded(); k++) buffer[k] = x + k;
        buffer.forEach(0, AddN());
        return buffer[STEP] + 1000 * STEP;
    }
};

// Objects with arrays live in memory: one thread a block, each on its own pair.
__global__ void scoped(int* out) {
    __shared__ Stage<3> small;
    __shared__ Stage<5> large;
    out[blockIdx.x] = small.run(blockIdx.x) + 100000 * large.run(blockIdx.x);
}

host {
    int out[8];
    scoped<<<8, 1>>>(out);
}
"#;

#[test]
fn each_class_template_instance_has_its_own_enumerators_typedefs_and_nested_structs() {
    let run = Run::new(SCOPED);
    // Stage<N>: STEP = N + 1; buffer[k] = x + k, then N added at 0, STEP, …, (N-1)·STEP, so
    // buffer[STEP] = x + STEP + N.
    let stage = |n: i32, x: i32| (x + (n + 1) + n) + 1000 * (n + 1);
    let expected: Vec<i32> = (0..8).map(|x| stage(3, x) + 100000 * stage(5, x)).collect();
    assert_eq!(run.ints("out"), expected);
    assert_timing_matches_reference(SCOPED);
}

#[test]
fn a_deduced_argument_that_cannot_be_or_is_two_things_is_named() {
    let program = |call: &str| {
        format!(
            "template <typename T>\n__device__ T mix(T a, T b) {{ return a + b; }}\n\
             template <int N>\n__device__ int scaled(int x) {{ return N * x; }}\n\
             __global__ void k(int* o) {{\n  o[0] = {call};\n}}\nhost {{ int o[1]; k<<<1, 1>>>(o); }}"
        )
    };
    assert_eq!(
        errors(&program("mix(1, 2.5f)"))[0],
        (6, 10, "`T` of `mix` is deduced as both `int` and `float`".to_string())
    );
    assert_eq!(
        errors(&program("scaled(4)"))[0],
        (6, 10, "cannot deduce `N` of `scaled` from the call's arguments".to_string())
    );
    assert_eq!(errors(&program("mix(1)"))[0], (6, 10, "`mix` takes 2 arguments, got 1".to_string()));
    // A template that asks for an ever new instance of itself is stopped and named.
    let endless = "template <typename T> struct Wrap { T inner; };\n\
                   template <typename T>\n__device__ int depth(T x) { Wrap<T> w; w.inner = x; return depth(w); }\n\
                   __global__ void k(int* o) { o[0] = depth(1); }\nhost { int o[1]; k<<<1, 1>>>(o); }";
    assert_eq!(
        errors(endless)[0],
        (
            3,
            60,
            "template instances made for deduced arguments ask for more, 16 times over: does a template call \
             itself with ever new arguments?"
                .to_string()
        )
    );
}

#[test]
fn a_scoped_enumeration_inside_a_struct_is_named_through_it() {
    let src = r#"
struct Step {
    enum class Mode { Add, Keep };
    Mode mode;
    __device__ int apply(int x) const { return mode == Mode::Add ? x + 1 : x; }
};
__global__ void k(int* o) {
    Step s;
    s.mode = threadIdx.x % 2 ? Step::Mode::Add : Step::Mode::Keep;
    o[threadIdx.x] = s.apply(10 * threadIdx.x);
}
host { int o[4]; k<<<1, 4>>>(o); }
"#;
    assert_eq!(Run::new(src).ints("o"), vec![0, 11, 20, 31]);
}
