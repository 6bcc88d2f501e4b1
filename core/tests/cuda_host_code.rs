//! A `.cu` file pasted whole: its host code (`main`, helpers, host globals, host-only types
//! and prototypes, written in C++ the kernel language does not have) is set aside with one
//! warning, the device code compiles and runs, and device code that uses a set-aside name is
//! told why.

mod language_common;
use language_common::*;
use warpscope_core::kernel::Severity;

/// A file written as the benchmark suites write them: a host struct of `float**`, a host
/// class, `std::` types, a host template and its explicit instantiation, `extern "C"`, host
/// globals with initializers, prototypes before `main`, and a `__host__` helper. The kernel
/// and the struct it uses stay; our host block launches it.
const PASTED: &str = r#"
#include <stdio.h>
#include <stdlib.h>   // malloc
#include <vector>
#include <limits.h>

#define BLOCK 32

typedef std::vector<bool> Flags;              // host only: set aside unread
typedef struct { float **w; int rows; } Net;  // host only: a pointer to pointers

class Timer {
  public:
    virtual ~Timer() {}
    double elapsed() const { return 0.0; }
};

struct Pair { float a; float b; };            // the kernel's: kept

int num_points = 1024;                        // host globals
float *d_in, *d_out;
static const char *name = "pasted";
struct timeval start_time;
extern "C" void setup(int n);
extern int verbose;

template <typename T> T clamp_host(T x) { return x < 0 ? 0 : x; }
template int clamp_host<int>(int);

__host__ float scale_host(float x) { return x * 2.0f; }

extern "C" {
__device__ float twice(float x) { return x + x; }
void host_only_helper(Net* net) { net->rows = 0; }
}

__global__ void combine(const Pair* in, float* out, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) out[i] = twice(in[i].a) - in[i].b;
}

int main(int argc, char** argv) {
    std::vector<float> host(num_points);
    Timer t;
    combine<<<num_points / BLOCK, BLOCK>>>(nullptr, d_out, num_points);
    printf("%s: %f\n", name, t.elapsed());
    return 0;
}

host {
    Pair in[4] = {0, 1, 1, 1, 2, 1, 3, 1};
    float out[4];
    combine<<<1, BLOCK>>>(in, out, 4);
}
"#;

#[test]
fn a_pasted_files_host_code_is_set_aside_and_its_kernels_run() {
    let program = compiled(PASTED);
    let warnings: Vec<&str> = program
        .warnings
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.message.starts_with("host code"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        warnings,
        ["host code is set aside (`num_points`, `d_in`, `d_out`, `name`, and 7 more): warpscope simulates the \
          device code, and the `host { … }` block says what to launch"]
    );
    let run = Run::new(PASTED);
    let expected: Vec<f32> = (0..4).map(|i| 2.0 * i as f32 - 1.0).collect();
    assert_eq!(run.floats("out"), expected);
}

/// Device code that names host code is told which it is and where; so is the host block.
#[test]
fn device_code_that_uses_host_code_is_told_so() {
    let call = "float halve(float x) { return x / 2; }\n\
                __global__ void k(float* o) { o[0] = halve(3.0f); }\n\
                host { float o[1]; k<<<1, 1>>>(o); }";
    assert_eq!(
        errors(call),
        [(2, 38, "`halve` is a host function (line 1), which device code cannot call".to_string())]
    );
    let read = "int limit = 4;\n\
                __global__ void k(int* o) { o[0] = limit; }\n\
                host { int o[1]; k<<<1, 1>>>(o); }";
    assert_eq!(
        errors(read),
        [(2, 36, "`limit` is a host variable (line 1), which device code cannot read".to_string())]
    );
    let host_block = "void init(int* a) { a[0] = 1; }\n\
                      __global__ void k(int* o) { o[0] = 1; }\n\
                      host { int o[1]; init(o); k<<<1, 1>>>(o); }";
    assert_eq!(
        errors(host_block),
        [(3, 18, "`init` is the file's host function (line 1), which is set aside, not run".to_string())]
    );
}

/// Only a whole declaration is host code: one cut short (a stray word at the end of the
/// file, or before the host block) is kept, so the parser says what is wrong with it.
#[test]
fn a_stray_word_is_an_error_not_host_code() {
    let kernel = "void helper() {}\n\
                  __global__ void k(int* o) { o[0] = 1; }\n";
    let expected = "expected a `__global__` kernel, a `__device__` function or the `host` block, found `broken`";
    let at_end = format!("{kernel}host {{ int o[1]; k<<<1, 1>>>(o); }}\nbroken");
    assert_eq!(errors(&at_end), [(4, 1, expected.to_string())]);
    let before_host = format!("{kernel}int missing_semicolon\nhost {{ int o[1]; k<<<1, 1>>>(o); }}");
    assert_eq!(errors(&before_host)[0].0, 3, "{:?}", errors(&before_host));
}

/// Without host code, every type of the file is kept and checked, used or not; with host
/// code, a type no device code names is set aside (it may be a host class), and one a kept
/// type uses is kept too.
#[test]
fn types_are_kept_by_what_device_code_uses() {
    let own = "struct Unused { float*** p; };\n\
               __global__ void k(int* o) { o[0] = 1; }\n\
               host { int o[1]; k<<<1, 1>>>(o); }";
    assert_eq!(errors(own)[0].2, "pointers to pointers to pointers are not supported");
    let pasted = "struct Inner { int v; };\n\
                  struct Outer { Inner in; int w; };\n\
                  struct HostOnly { float*** p; };\n\
                  void host_helper() {}\n\
                  __global__ void k(const Outer* s, int* o) { o[0] = s->in.v + s->w; }\n\
                  host { Outer s[1] = {5, 2}; int o[1]; k<<<1, 1>>>(s, o); }";
    assert_eq!(Run::new(pasted).ints("o"), [7]);
}
