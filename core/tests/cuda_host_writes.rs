//! Writes into buffers in the host block before the first launch, as a program's
//! `cudaMemcpy` or `cudaMemcpyToSymbol` of values it computed: elements of number, pointer and
//! struct buffers, and members of a file-scope `__constant__` struct holding sizes and
//! buffer addresses (as Rodinia's heartwall passes its parameters).

mod language_common;

use language_common::{errors, Run};

const PARAMS: &str = r#"
struct Params { int n; float scale; const float* data; float* out; };
__constant__ Params params;
__global__ void scaled() {
    int i = threadIdx.x;
    if (i < params.n) params.out[i] = params.data[i] * params.scale;
}
"#;

#[test]
fn a_constant_struct_holds_sizes_and_buffer_addresses() {
    let src = format!(
        "{PARAMS}host {{
    float in[8] = iota();
    float out[8];
    in[2] = 20.0;
    params.n = 6;
    params.scale = 0.5;
    params.data = in;
    params.out = out + 1;
    scaled<<<1, 8>>>();
}}"
    );
    let run = Run::new(&src);
    assert_eq!(run.floats("in"), [0.0, 1.0, 20.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    assert_eq!(run.floats("out"), [0.0, 0.0, 0.5, 10.0, 1.5, 2.0, 2.5, 0.0]);
}

#[test]
fn elements_of_every_kind_of_buffer_are_written_over_their_initializer() {
    let src = r#"
struct Node { int a; float b; };
__global__ void follow(float** rows, float* o) { o[0] = rows[1][0]; o[1] = rows[0][1]; }
host {
    int r[8] = random(0, 9, 3);
    int r0[8] = random(0, 9, 3);
    r[0] = 100;
    r[7] = -1;
    char c[8] = fill(1);
    c[3] = -2;
    double d[4];
    d[1] = 2.5;
    long long big[2] = fill(7);
    big[1] = -3;
    Node nodes[3];
    nodes[1].b = 1.5;
    nodes[2].a = 7;
    float in[8] = iota();
    float* rows[2] = {in, in};
    rows[1] = in + 4;
    float o[2];
    follow<<<1, 1>>>(rows, o);
}
"#;
    let run = Run::new(src);
    let (r, r0) = (run.ints("r"), run.ints("r0"));
    assert_eq!((r[0], r[7]), (100, -1));
    assert_eq!(r[1..7], r0[1..7], "the other elements keep the seeded values");
    assert_eq!(run.words("c"), [0xFE01_0101, 0x0101_0101]);
    let d = run.words("d");
    assert_eq!(u64::from(d[2]) | u64::from(d[3]) << 32, 2.5f64.to_bits());
    assert_eq!((d[0], d[1]), (0, 0));
    let big = run.words("big");
    assert_eq!((big[0], big[1]), (7, 0));
    assert_eq!(u64::from(big[2]) | u64::from(big[3]) << 32, (-3i64) as u64);
    assert_eq!(run.words("nodes"), [0, 0, 0, 1.5f32.to_bits(), 7, 0]);
    assert_eq!(run.floats("o"), [4.0, 1.0], "rows[1] points at in[4]");
}

#[test]
fn wrong_writes_are_named() {
    let host = |body: &str| format!("{PARAMS}host {{ float in[8]; int ints[4]; {body} scaled<<<1, 8>>>(); }}");
    let first = |body: &str| errors(&host(body))[0].2.clone();
    assert_eq!(first("in[2] += 1.0;"), "an element of `in` can only be set");
    assert_eq!(first("in[8] = 1.0;"), "element 8 is outside `in`, which has 8");
    assert_eq!(first("in[1].x = 2;"), "`in` holds numbers, which have no member `x`");
    assert_eq!(first("params.nope = 1;"), "struct `Params` has no member `nope`");
    assert_eq!(first("params.data = ints;"), "buffer `ints` holds `int` elements, so its address is no `const float*`");
    assert_eq!(first("params.n = in;"), "a member needs an `int`, found a buffer");
    assert_eq!(
        errors(&format!("{PARAMS}host {{ float in[8]; scaled<<<1, 8>>>(); in[0] = 1.0; }}"))[0].2,
        "`in` can only be written before the first launch"
    );
}
