//! Writes into buffers in the host block, as a program's `cudaMemcpy` or `cudaMemcpyToSymbol`
//! of values it computed: elements of number, pointer and struct buffers, and members of a
//! file-scope `__constant__` struct holding sizes and buffer addresses (as Rodinia's heartwall
//! passes its parameters); before the first launch, and between launches as a synchronous copy
//! (Rodinia's bfs resets its flag every round, PolyBench's CORR sets one element at the end).

mod language_common;

use language_common::{assert_timing_matches_reference, compiled, config, errors, Run};
use warpscope_core::exec::reference;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

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
        errors(&format!("{PARAMS}host {{ float in[8]; scaled<<<1, 8>>>(); in[0] += 1.0; }}"))[0].2,
        "an element of `in` can only be set",
        "between launches too"
    );
    assert_eq!(
        errors(&format!("{PARAMS}host {{ float in[8]; scaled<<<1, 8>>>(); in = fill(1.0); }}"))[0].2,
        "`in` can only be filled before the first launch"
    );
}

/// Each round logs the flag it finds and bumps it; the host sets it before every round and
/// once more after the last, as bfs's host loop resets `*d_over` (a kernel's own bump shows
/// whether a round saw the host's value or the previous round's).
const ROUNDS: &str = r#"
__global__ void bump(int* flag, int* log, int round) {
    if (threadIdx.x == 0) {
        log[round] = flag[0];
        flag[0] = flag[0] + 1;
    }
}
host {
    int flag[1];
    int log[4];
    for (int r = 0; r < 4; r++) {
        flag[0] = 10 * r;
        bump<<<1, 32>>>(flag, log, r);
    }
    flag[0] = 99;
}
"#;

#[test]
fn writes_between_launches_land_before_the_next_launch_and_after_the_last() {
    let program = compiled(ROUNDS);
    let before: Vec<u32> = program.workload.copies.iter().map(|c| c.before).collect();
    assert_eq!(before, [1, 2, 3, 4], "the first write is part of the initial contents");
    let run = Run::new(ROUNDS);
    assert_eq!(run.ints("log"), [0, 10, 20, 30]);
    assert_eq!(run.ints("flag"), [99]);
    // The timing engine and the whole-workload reference runner apply them alike.
    assert_timing_matches_reference(ROUNDS);
    let whole = reference::run_workload(&program.workload, 32, 1_000_000).expect("runs");
    assert_eq!(whole.memory.words(whole.regions[1]), [0, 10, 20, 30]);
    assert_eq!(whole.memory.words(whole.regions[0]), [99]);
}

#[test]
fn a_write_between_launches_waits_for_every_stream_and_holds_back_what_follows() {
    // `slow` (stream s1) runs long, then reads a[1] and writes a[0]; the host writes a[1]
    // after launching it, and `reader` (stream s2) is launched after that write. As with a
    // synchronous cudaMemcpy, the write lands after `slow` is complete and before `reader`
    // starts, so `slow` sees the old a[1] and `reader` sees both `slow`'s a[0] and the write.
    let src = r#"
__global__ void slow(int* a, int* seen) {
    int x = a[2];
    for (int i = 0; i < 2000; i++) x = x * 3 + 1;
    a[3] = x;
    seen[0] = a[1];
    a[0] = 5;
}
__global__ void reader(int* a, int* seen) {
    seen[1] = a[0];
    seen[2] = a[1];
}
host {
    stream s1, s2;
    int a[4];
    int seen[3];
    slow<<<1, 1, 0, s1>>>(a, seen);
    a[1] = 7;
    reader<<<1, 1, 0, s2>>>(a, seen);
}
"#;
    let program = compiled(src);
    let mut sim = Simulation::new(config(), program.workload.clone(), &Policies::default(), RunOptions::default())
        .expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    assert_eq!(sim.buffer(1), [0, 5, 7]);
    assert_eq!(Run::new(src).ints("seen"), [0, 5, 7]);
}
