//! C++ classes in kernels: member functions (with `this`, unqualified members, `const`),
//! `static` member functions, constructors with initializer lists, `operator()` function
//! objects, `operator[]` returning a reference, a struct deriving from another, objects in
//! `__shared__` memory, and reference variables. Each kernel's output is checked against
//! what C++ computes, worked out here; the timing engine computes the same as the reference
//! runner.

mod language_common;
use language_common::*;

const OBJECTS: &str = r#"
struct Scale {
    float k;
    __device__ Scale(float k) : k(k) {}
    __device__ float operator()(float x) const { return k * x; }
};

class Counter {
  public:
    int count;
    int step;
    __device__ Counter(int s) : count(0), step(s) {}
    __device__ void bump() { count += step; }
    __device__ int twice() const { return 2 * count; }
    __device__ static int square(int v) { return v * v; }
    __device__ int squared() { return square(count); }
};

struct Tile {
    float data[64];
    __device__ float& operator[](int i) { return data[i]; }
    __device__ void fill(float v) { data[threadIdx.x] = v; }
};

struct Base {
    int a;
    __device__ int get() const { return a; }
};
struct Derived : public Base {
    int b;
    __device__ int sum() const { return get() + this->b; }
};

__device__ float apply(const Scale& s, float x) { return s(x); }

__global__ void objects(float* out, int* ints) {
    int i = threadIdx.x;
    Scale s(3.0f);
    Counter c(i);
    c.bump();
    c.bump();
    __shared__ Tile t;
    t.fill(float(i));
    t[i] = t[i] + 1.0f;
    __syncthreads();
    float& r = out[i];
    r = apply(s, t[63 - i]) + apply(Scale(0.5f), 2.0f);
    Derived d;
    d.a = i;
    d.b = 10;
    ints[i] = c.twice() + Counter::square(2) + d.sum() + c.squared();
}

host {
    float out[64];
    int ints[64];
    objects<<<1, 64>>>(out, ints);
}
"#;

#[test]
fn members_constructors_operators_and_bases_compute_what_cpp_computes() {
    let run = Run::new(OBJECTS);
    // t[j] = j + 1 after the fill and the increment; out = 3 t[63 - i] + 0.5 * 2.
    let out: Vec<f32> = (0..64).map(|i| 3.0 * (64 - i) as f32 + 1.0).collect();
    assert_eq!(run.floats("out"), out);
    // count = 2i: twice 4i, square(2) 4, sum i + 10, squared (2i)².
    let ints: Vec<i32> = (0..64).map(|i| 4 * i + 4 + i + 10 + 4 * i * i).collect();
    assert_eq!(run.ints("ints"), ints);
    assert_timing_matches_reference(OBJECTS);
}

/// One lifting step of a wavelet, written as dwt2d writes it: a loader class deriving from
/// an I/O class (whose `static` helper mirrors indices at the edge), function objects passed
/// by `const` reference, and a shared buffer object whose elements are bound to references.
const LIFTING: &str = r#"
struct Predict {
    __device__ void operator()(const float p, float& c, const float n) const { c -= 0.5f * (p + n); }
};
struct Update {
    float w;
    __device__ Update(float w) : w(w) {}
    __device__ void operator()(const float p, float& c, const float n) const { c += w * (p + n); }
};
class IO {
  protected:
    int stride;
    __device__ static void mirror(int& d, const int& size) {
        if (d >= size) d = 2 * size - 2 - d;
        else if (d < 0) d = -d;
    }
};
class Loader : protected IO {
    int last;
  public:
    __device__ void init(int first, int s) { this->mirror(first, 64); stride = s; last = first - s; }
    __device__ float load(const float* in) { last += this->stride; return in[last]; }
};
struct Line {
    float data[130];
    __device__ float& operator[](const int i) { return data[i]; }
    __device__ void predict(const Predict& f) {
        const float prev = data[threadIdx.x * 2];
        const float next = data[threadIdx.x * 2 + 2];
        float& center = data[threadIdx.x * 2 + 1];
        f(prev, center, next);
    }
    __device__ void update(const Update& f) {
        const float prev = data[threadIdx.x * 2 + 1];
        const float next = (*this)[threadIdx.x * 2 + 3];
        float& center = data[threadIdx.x * 2 + 2];
        f(prev, center, next);
    }
};
__global__ void lift(const float* in, float* out) {
    __shared__ Line line;
    Loader l;
    l.init(threadIdx.x, 64);
    line[threadIdx.x] = l.load(in);
    line[threadIdx.x + 64] = l.load(in);
    if (threadIdx.x < 2) line[128 + threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    line.predict(Predict());
    __syncthreads();
    if (threadIdx.x < 63) line.update(Update(0.25f));
    __syncthreads();
    out[threadIdx.x] = line[threadIdx.x];
    out[threadIdx.x + 64] = line[threadIdx.x + 64];
}
host {
    float in[128] = random(0.0, 16.0, 3);
    float out[128];
    lift<<<1, 64>>>(in, out);
}
"#;

#[test]
fn a_lifting_step_written_with_classes_matches_one_written_out() {
    let run = Run::new(LIFTING);
    let input = run.floats("in");
    let mut x: Vec<f32> = input.clone();
    x.extend_from_slice(&input[..2]);
    // The odd elements first (every thread's, before the barrier), then the even ones.
    for t in 0..64 {
        let c = 2 * t + 1;
        x[c] -= 0.5 * (x[c - 1] + x[c + 1]);
    }
    for t in 0..63 {
        let c = 2 * t + 2;
        x[c] += 0.25 * (x[c - 1] + x[c + 1]);
    }
    assert_eq!(run.floats("out"), x[..128].to_vec());
    assert_timing_matches_reference(LIFTING);
}

#[test]
fn a_reference_to_a_struct_member_and_a_reference_returning_function_are_places() {
    let src = r#"
struct Pair { int a; int b; };
__device__ int& first(Pair& p) { return p.a; }
__global__ void k(int* out) {
    Pair p = {3, int(threadIdx.x)};
    int& b = p.b;
    b += 1;
    first(p) = first(p) * 10;
    out[threadIdx.x] = p.a + 100 * p.b;
}
host { int out[8]; k<<<1, 8>>>(out); }
"#;
    let run = Run::new(src);
    let expected: Vec<i32> = (0..8).map(|t| 30 + 100 * (t + 1)).collect();
    assert_eq!(run.ints("out"), expected);
}

#[test]
fn mistakes_with_classes_are_named() {
    let class =
        "struct P {\n  int v;\n  __device__ void inc() { v++; }\n  __device__ int get() const { return v; }\n  \
                 int host_only() { return 3; }\n};\n";
    let kernel = |body: &str| {
        format!("{class}__global__ void k(int* o) {{ P p; p.v = 1; {body} }}\nhost {{ int o[1]; k<<<1, 1>>>(o); }}")
    };
    expect_first_error(
        &format!(
            "{class}__device__ int f(const P& p) {{ p.inc(); return 0; }}\n__global__ void k(int* o) {{ o[0] = 1; }}"
        ),
        "`P::inc` may change its object, which is `const` here",
    );
    expect_first_error(&kernel("o[0] = p.gte();"), "struct `P` has no member function `gte`");
    expect_first_error(
        &kernel("o[0] = p.host_only();"),
        "`P::host_only` is a host function (line 5), which device code cannot call",
    );
    expect_first_error(&kernel("o[0] = p(1);"), "struct `P` has no `operator()`: it cannot be called");
    expect_first_error(&kernel("o[0] = p[1];"), "struct `P` has no `operator[]`: it cannot be indexed");
    expect_first_error(&kernel("o[0] = P::get();"), "`P::get` is a member function: it is called on an object");
    expect_first_error(&kernel("o[0] = this;"), "`this` is the object of a member function, and this is not one");
    expect_first_error(&kernel("P q(1, 2); o[0] = q.v;"), "struct `P` has no constructor to take these arguments");
    expect_first_error(
        &kernel("int& r = 4; o[0] = r;"),
        "`r` is a reference: bind it to a variable, an element or a member, not a value",
    );
    let at = |src: &str| errors(&format!("{src}\n__global__ void k(int* o) {{ o[0] = 1; }}"))[0].clone();
    assert_eq!(
        at("struct P {\n  __device__ P operator+(const P& o) const { return o; }\n};"),
        (2, 16, "`operator+` is not supported".to_string())
    );
    assert_eq!(
        at("struct P {\n  int v;\n  __device__ int& pick(int w) { if (w) return v; return v; }\n};"),
        (3, 57, "`P::pick` returns a reference from a second `return`".to_string())
    );
    assert_eq!(
        at("struct P {\n  virtual int f();\n};"),
        (2, 3, "virtual functions are not supported: calls are resolved when compiling".to_string())
    );
    assert_eq!(
        at("struct P {\n  __device__ int f();\n};"),
        (2, 18, "`P::f` is declared but not defined here".to_string())
    );
    assert_eq!(
        at("struct A { int a; };\nstruct B { int b; };\nstruct C : A, B { int c; };"),
        (3, 13, "deriving from more than one struct is not supported".to_string())
    );
}

#[test]
fn member_templates_take_written_arguments_and_types_defined_after_the_struct() {
    // `each<Twice>` is made inside `P` although `Twice` comes after it, as C++ instantiates
    // where the template is used.
    let src = r#"
struct P {
    int a;
    template <int N> __device__ int times() const { return N * a; }
    template <typename F> __device__ void each(const F& fn) { a = fn(a); }
};
struct Twice { __device__ int operator()(int x) const { return 2 * x; } };
__global__ void k(int* o) {
    P p;
    p.a = threadIdx.x;
    p.each<Twice>(Twice());
    o[threadIdx.x] = p.times<3>() + p.template times<1>();
}
host { int o[8]; k<<<1, 8>>>(o); }
"#;
    let run = Run::new(src);
    assert_eq!(run.ints("o"), (0..8).map(|t| 8 * t).collect::<Vec<i32>>());
}

#[test]
fn class_templates_with_member_templates_inside_one_another() {
    // `Grid<W, H>` holds a `Buf<int, W * H>` and calls its member template with a struct
    // template's instance as the argument; `Grid<4, 2>` and `Buf<int, 4 * 2>` are made from
    // the kernel template's instance `k<4>`.
    let src = r#"
template <typename T, int N>
struct Buf {
    T data[N];
    template <typename F>
    __device__ void apply(const F& f) { data[threadIdx.x] = f(data[threadIdx.x]); }
    __device__ T& operator[](int i) { return data[i]; }
    __device__ static int size() { return N; }
};
template <int K>
struct Add { __device__ int operator()(int x) const { return x + K; } };
template <int W, int H>
class Grid {
    Buf<int, W * H> cells;
  public:
    __device__ static void run(int* out) {
        __shared__ Grid<W, H> g;
        g.cells[threadIdx.x] = threadIdx.x;
        g.cells.apply<Add<5> >(Add<5>());
        out[threadIdx.x] = g.cells[threadIdx.x] * Buf<int, W * H>::size();
    }
};
template <int W>
__global__ void k(int* out) { Grid<W, 2>::run(out); }
host { int out[8]; k<4><<<1, 8>>>(out); }
"#;
    let run = Run::new(src);
    assert_eq!(run.ints("out"), (0..8).map(|t| (t + 5) * 8).collect::<Vec<i32>>());
    assert_timing_matches_reference(src);
}
