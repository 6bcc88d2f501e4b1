//! What a launch in the host block passes: here, part of a buffer, as a program passes
//! `d_a + offset` to a kernel that works on one piece of an array.

mod language_common;

use language_common::{errors, Run};

const KERNELS: &str = r#"
struct Node { int a; float b; };
__global__ void twice(const float* p, float* o, int n) {
    int i = threadIdx.x;
    if (i < n) o[i] = p[i] * 2.0f;
}
__global__ void pick(const Node* q, int* o) { o[0] = q[0].a; o[1] = q[-1].a; }
"#;

#[test]
fn an_elements_address_is_passed_where_a_buffer_would_be() {
    let src = format!(
        "{KERNELS}host {{
    float a[8] = iota();
    float o1[4]; float o2[2]; float o3[2]; float o4[1]; int so[2];
    Node nodes[3] = {{1, 1.0, 2, 2.0, 3, 3.0}};
    twice<<<1, 4>>>(a + 4, o1, 4);
    twice<<<1, 2>>>(&a[6], o2, 2);
    twice<<<1, 2>>>(1 + a, o3, 2);
    twice<<<1, 1>>>(a + 8, o4, 0);
    pick<<<1, 1>>>(nodes + 2, so);
}}"
    );
    let run = Run::new(&src);
    assert_eq!(run.floats("o1"), [8.0, 10.0, 12.0, 14.0]);
    assert_eq!(run.floats("o2"), [12.0, 14.0]);
    assert_eq!(run.floats("o3"), [2.0, 4.0]);
    // One past the end is an address a kernel may be given (and here does not read).
    assert_eq!(run.floats("o4"), [0.0]);
    // A struct buffer's elements are structs: `nodes + 2` is the third.
    assert_eq!(run.ints("so"), [3, 2]);
}

#[test]
fn a_wrong_address_is_named() {
    let host = |body: &str| format!("{KERNELS}host {{ float a[8]; int b[4]; float o[8]; {body} }}");
    assert_eq!(errors(&host("twice<<<1, 1>>>(a + 9, o, 1);"))[0].2, "element 9 is outside `a`, which has 8");
    assert_eq!(errors(&host("twice<<<1, 1>>>(a - 1, o, 1);"))[0].2, "element -1 is outside `a`, which has 8");
    assert_eq!(
        errors(&host("twice<<<1, 1>>>(b + 1, o, 1);"))[0].2,
        "argument 1 of `twice` is a `const float*`, but buffer `b` holds `int` elements"
    );
}
