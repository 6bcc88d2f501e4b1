//! Random kernel-language programs compute the same bits unoptimised and optimised. The
//! generator writes loops with constant and variable trip counts (nested, with `break`;
//! straight-line ones whose count differs between threads, 0..=9, up and down),
//! nested `if`s, branches that diverge on `threadIdx`, shared memory between barriers, and
//! `int`, `unsigned` and `float` arithmetic with address arithmetic into global buffers. Each
//! thread writes only its own output words, so no result depends on how warps interleave
//! (which optimisation changes).

use warpscope_core::config::presets;
use warpscope_core::exec::reference;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::rng::SplitMix64;

const PROGRAMS: u64 = 300;
const THREADS: u32 = 64;
const IN_WORDS: u32 = 1024;

struct Gen {
    rng: SplitMix64,
    src: String,
    /// Integer names in scope (loop counters come and go).
    ints: Vec<String>,
    loops: u32,
    depth: u32,
    /// Inside a loop, for `break`.
    in_loop: bool,
    /// Code runs for every thread of the block together (no divergent `if`, no loop whose
    /// trip count differs between threads): barriers are allowed.
    uniform: bool,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    fn int_atom(&mut self) -> String {
        match self.below(4) {
            0 => format!("{}", self.below(40) as i32 - 8),
            _ => {
                let k = self.below(self.ints.len() as u64) as usize;
                self.ints[k].clone()
            }
        }
    }

    fn int_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            return self.int_atom();
        }
        let (l, r) = (self.int_expr(depth - 1), self.int_expr(depth - 1));
        match self.below(12) {
            0..=2 => format!("({l} + {r})"),
            3 => format!("({l} - {r})"),
            4 | 5 => format!("({l} * {r})"),
            6 => format!("({l} ^ {r})"),
            7 => format!("({l} & {r})"),
            8 => format!("({l} << {})", self.below(5)),
            9 => format!("({l} >> {})", self.below(5)),
            10 => format!("({l} / ({r} | 1))"),
            _ => format!("in[({l}) & {}]", IN_WORDS - 1),
        }
    }

    fn float_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            return match self.below(4) {
                0 => format!("{}.{}", self.below(9), self.below(100)),
                1 => format!("(float){}", self.int_atom()),
                2 => "f".into(),
                _ => "g_f".into(),
            };
        }
        let (l, r) = (self.float_expr(depth - 1), self.float_expr(depth - 1));
        match self.below(8) {
            0 | 1 => format!("({l} + {r})"),
            2 => format!("({l} - {r})"),
            3 | 4 => format!("({l} * {r})"),
            5 => format!("({l} * {r} + {})", self.float_expr(depth - 1)),
            6 => format!("fmaxf({l}, {r})"),
            _ => format!("sqrtf(fabsf({l}))"),
        }
    }

    fn cond(&mut self) -> (String, bool) {
        match self.below(4) {
            0 => (format!("(threadIdx.x & {}) == {}", self.below(8), self.below(4)), false),
            1 => (format!("threadIdx.x < {}", self.below(THREADS as u64 + 8)), false),
            2 => (format!("{} > {}", self.int_expr(1), self.int_expr(1)), false),
            _ => (format!("f < {}.5", self.below(50)), false),
        }
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.depth + 1 {
            self.src.push_str("    ");
        }
        self.src.push_str(s);
        self.src.push('\n');
    }

    fn stmts(&mut self, n: u32) {
        for _ in 0..n {
            self.stmt();
        }
    }

    fn stmt(&mut self) {
        let nested = self.depth < 3;
        match self.below(16) {
            14 | 15 if nested && self.loops < 6 => self.runtime_loop(),
            0..=2 => {
                let e = self.int_expr(3);
                let op = self.pick(&["=", "+=", "^=", "-="]);
                self.line(&format!("a {op} {e};"));
            }
            3 => {
                let e = self.int_expr(2);
                self.line(&format!("u = u * 3u + (unsigned)({e}) / 7u;"));
            }
            4 | 5 => {
                let e = self.float_expr(3);
                let op = self.pick(&["=", "+="]);
                self.line(&format!("f {op} {e};"));
            }
            6 => {
                let e = self.int_expr(2);
                self.line(&format!("b = b + in[(g * 5 + {e}) & {}];", IN_WORDS - 1));
                // An index a constant away from another value, in a variable (offsets).
                let (c, d) = (self.below(300), self.below(8));
                match self.below(3) {
                    0 => self.line(&format!("{{ int j = g + {c}; b = b + in[j]; }}")),
                    1 => self.line(&format!("{{ int j = g + {c} + 8; b = b ^ in[j - {d}]; }}")),
                    _ => self.line(&format!("{{ int j = g + {c}; b = b + in[2 * j + {d}]; }}")),
                }
            }
            7 | 8 if nested => {
                let (c, _) = self.cond();
                self.line(&format!("if ({c}) {{"));
                let uniform = self.uniform;
                self.uniform = false;
                self.depth += 1;
                let n = 1 + self.below(3) as u32;
                self.stmts(n);
                self.depth -= 1;
                if self.below(2) == 0 {
                    self.line("} else {");
                    self.depth += 1;
                    let n = 1 + self.below(2) as u32;
                    self.stmts(n);
                    self.depth -= 1;
                }
                self.line("}");
                self.uniform = uniform;
            }
            9 | 10 if nested && self.loops < 6 => {
                let name = format!("i{}", self.loops);
                self.loops += 1;
                let constant = self.below(2) == 0;
                let bound = if constant {
                    format!("{}", 1 + self.below(12))
                } else {
                    format!("(threadIdx.x & {}) + n", self.below(8))
                };
                let step = self.pick(&["++", " += 2", "++"]);
                self.line(&format!("for (int {name} = 0; {name} < {bound}; {name}{step}) {{"));
                let (uniform, in_loop) = (self.uniform, self.in_loop);
                self.uniform &= constant;
                self.in_loop = true;
                self.ints.push(name);
                self.depth += 1;
                let n = 1 + self.below(3) as u32;
                self.stmts(n);
                self.line(&format!("out[g * 8 + 4] += {} + a;", self.ints.last().cloned().unwrap_or_default()));
                self.depth -= 1;
                self.ints.pop();
                self.line("}");
                self.uniform = uniform;
                self.in_loop = in_loop;
            }
            11 if self.in_loop && !self.uniform => {
                let (c, _) = self.cond();
                self.line(&format!("if ({c}) break;"));
            }
            12 if self.uniform => {
                let e = self.int_expr(2);
                self.line(&format!("sh[threadIdx.x] = {e};"));
                self.line("__syncthreads();");
                let shift = self.below(64);
                self.line(&format!("a += sh[(threadIdx.x + {shift}) & {}];", THREADS - 1));
                self.line("__syncthreads();");
            }
            _ => {
                let e = self.int_expr(2);
                let slot = self.below(4);
                self.line(&format!("out[g * 8 + {slot}] = {e};"));
            }
        }
    }
}

impl Gen {
    /// A loop whose trip count differs between threads, 0..=9, with a straight-line body
    /// (the kind unrolled by four at run time): counting up or down, by one or two, with
    /// `<`, `<=`, `>`, `>=`, over `int` or `unsigned`.
    fn runtime_loop(&mut self) {
        let name = format!("i{}", self.loops);
        self.loops += 1;
        let c = self.below(10);
        let head = match self.below(7) {
            0 => format!("int {name} = 0; {name} < (t * 7 + {c}) % 10; {name}++"),
            1 => format!("int {name} = {c}; {name} <= {c} + (t % 10) - 1; {name}++"),
            2 => format!("int {name} = (t * 3 + {c}) % 10; {name} > 0; {name}--"),
            3 => format!("int {name} = (t * 5 + {c}) % 10 - 3; {name} >= -3; {name} -= 1"),
            4 => format!("unsigned {name} = 0u; {name} < (unsigned)((t * 7 + {c}) % 10); {name}++"),
            5 => format!("int {name} = 0; {name} < (t * 7 + {c}) % 19; {name} += 2"),
            _ => format!("int {name} = -{c}; {name} < b % 10 - {c}; {name}++"),
        };
        self.line(&format!("for ({head}) {{"));
        let uniform = self.uniform;
        self.uniform = false;
        self.ints.push(format!("(int){name}"));
        self.depth += 1;
        for _ in 0..1 + self.below(3) {
            match self.below(3) {
                0 => {
                    let e = self.int_expr(2);
                    self.line(&format!("a += {e};"));
                }
                1 => {
                    let e = self.float_expr(2);
                    self.line(&format!("f += {e} * (float)({name});"));
                }
                _ => self.line(&format!("b = b + in[(g + (int){name} * 3) & {}];", IN_WORDS - 1)),
            }
        }
        self.line(&format!("out[g * 8 + 4] += (int){name} + a;"));
        self.depth -= 1;
        self.ints.pop();
        self.line("}");
        self.uniform = uniform;
    }
}

fn program(seed: u64) -> String {
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        src: String::new(),
        ints: vec!["a".into(), "b".into(), "t".into(), "g".into(), "n".into()],
        loops: 0,
        depth: 0,
        in_loop: false,
        uniform: true,
    };
    let count = 3 + g.below(8) as u32;
    g.stmts(count);
    format!(
        r#"
__global__ void k(const int* in, int* out, float* fout, float g_f, int n) {{
    __shared__ int sh[{THREADS}];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int a = in[g];
    int b = in[g + 7] * 3;
    unsigned u = (unsigned)(a * 2654435761u);
    float f = (float)a * 0.25;
{}    out[g * 8 + 5] = a;
    out[g * 8 + 6] = b;
    out[g * 8 + 7] = (int)u;
    fout[g] = f;
}}
host {{
    int in[{IN_WORDS}] = random(-1000, 1000, {seed});
    int out[{}];
    float fout[{}];
    k<<<2, {THREADS}>>>(in, out, fout, 1.75, 3);
}}
"#,
        g.src,
        2 * THREADS * 8,
        2 * THREADS
    )
}

#[test]
fn random_programs_compute_the_same_bits_optimised() {
    let config = presets::fermi_gtx480();
    for seed in 0..PROGRAMS {
        let src = program(seed);
        let build = |optimize| {
            compile(&src, &CompileOptions { config: &config, defines: &[], optimize })
                .unwrap_or_else(|e| panic!("seed {seed} does not compile: {}\n{src}", e[0]))
                .workload
        };
        let (plain, optimised) = (build(false), build(true));
        let run = |w| reference::run_workload(w, 32, 1 << 28).unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{src}"));
        let (a, b) = (run(&plain), run(&optimised));
        for (ra, rb) in a.regions.iter().zip(&b.regions) {
            assert_eq!(a.memory.words(*ra), b.memory.words(*rb), "seed {seed}:\n{src}");
        }
    }
}
