//! Fuzzing warpscope at its boundaries: every way text from outside reaches the engine.
//!
//! A structured mutational fuzzer, deterministic from a seed: each case takes an input from
//! the target's seeds (real inputs: the library's kernel files, GPGPU-Sim configurations,
//! share links and worker requests made by the app's own encoders, and the files under
//! `fuzz/corpus/<target>/`), applies a few mutations that hostile or careless input makes
//! (spans deleted, duplicated or spliced from another seed, tokens of the format inserted,
//! numbers replaced by boundary values, bytes replaced by odd characters), and hands it to the
//! same code the CLI or the page would. A case fails if that code panics; anything else
//! (an error, a fault, a run that hits its cycle budget) is the boundary doing its job.
//!
//! Targets: `kernel` (compile, then run what compiles, a bounded number of cycles), `config`
//! (`gpgpusim.config` import, then a short run on the machine), `set` (`--set path=value`
//! sequences, then a short run), `link` (a share link's query, restored as the page restores
//! it, then its job started and advanced), `worker` (a request as the worker reads it, then
//! handled as the worker handles it).

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use warpscope_core::config::{gpgpusim, presets, GpuConfig};
use warpscope_core::footprint;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::rng::SplitMix64;
use warpscope_core::{Policies, RunOptions, Simulation};
use warpscope_frontend::setup::Setup;
use warpscope_frontend::share;
use warpscope_wasm::catalog::catalog;
use warpscope_wasm::compile::compile_reply;
use warpscope_wasm::protocol::{Catalog, Job, Request, SimulateJob};
use warpscope_wasm::runner::JobRunner;

/// Cycles a case may simulate: enough to dispatch blocks, miss in the caches and retire warps.
const CASE_CYCLES: u64 = 3_000;
/// A mutated machine is run only if its memory estimate is below this (a case must be quick;
/// validation's own budget is tested elsewhere).
const CASE_MEMORY: u64 = 64 << 20;

/// The boundaries fuzzed.
pub const TARGETS: [&str; 5] = ["kernel", "config", "set", "link", "worker"];

/// What a run of one target found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Cases run.
    pub cases: u64,
    /// Cases whose input the boundary accepted (compiled, imported, restored, handled).
    pub accepted: u64,
    /// Cases that got as far as simulating.
    pub simulated: u64,
    /// Inputs that made the code panic, with the panic's message.
    pub panics: Vec<(String, String)>,
    /// Seed inputs the cases were made from.
    pub inputs: usize,
}

/// Runs `cases` cases of `target` from `seed`, calling `progress` with the findings so far
/// every 1000 cases.
pub fn fuzz(
    target: &str,
    seed: u64,
    cases: u64,
    extra_seeds: &[String],
    mut progress: impl FnMut(&Findings),
) -> Findings {
    let catalog = catalog();
    let mut seeds = seeds(target, &catalog);
    seeds.extend(extra_seeds.iter().cloned());
    let dictionary = dictionary(target);
    let mut rng = SplitMix64::new(seed ^ fxhash(target));
    let mut findings = Findings { inputs: seeds.len(), ..Findings::default() };
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for case in 0..cases {
        let input = mutate(&mut rng, &seeds, dictionary);
        let result = catch_unwind(AssertUnwindSafe(|| run_case(target, &input, &catalog, case)));
        findings.cases += 1;
        match result {
            Ok(Outcome::Refused) => {}
            Ok(Outcome::Accepted) => findings.accepted += 1,
            Ok(Outcome::Simulated) => {
                findings.accepted += 1;
                findings.simulated += 1;
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                findings.panics.push((input, message));
            }
        }
        if (case + 1) % 1000 == 0 {
            progress(&findings);
        }
    }
    std::panic::set_hook(quiet);
    findings
}

/// How far one case got.
enum Outcome {
    /// The boundary refused it with an error.
    Refused,
    /// Accepted, not simulated.
    Accepted,
    /// Accepted and simulated for a while.
    Simulated,
}

fn run_case(target: &str, input: &str, catalog: &Catalog, case: u64) -> Outcome {
    match target {
        "kernel" => kernel_case(input, &presets::fermi_gtx480()),
        "config" => config_case(input),
        "set" => set_case(input),
        "link" => link_case(input, catalog),
        "worker" => worker_case(input, case),
        _ => Outcome::Refused,
    }
}

fn kernel_case(source: &str, config: &GpuConfig) -> Outcome {
    let Ok(program) = compile(source, &CompileOptions { config, defines: &[], optimize: true }) else {
        return Outcome::Refused;
    };
    simulate(config.clone(), program.workload)
}

fn simulate(config: GpuConfig, workload: warpscope_core::workload::Workload) -> Outcome {
    let options = RunOptions { max_cycles: CASE_CYCLES, ..RunOptions::default() };
    match Simulation::new(config, workload, &Policies::default(), options) {
        Ok(mut sim) => {
            sim.run();
            let _ = sim.report();
            Outcome::Simulated
        }
        Err(_) => Outcome::Accepted,
    }
}

/// A small workload to try a machine with: a kernel that loads, stores, branches and syncs.
fn probe_workload(config: &GpuConfig) -> Option<warpscope_core::workload::Workload> {
    const PROBE: &str = "
__global__ void k(float* a, int n) {
    __shared__ float t[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x % 64] = a[i % n];
    __syncthreads();
    if (i % 3 == 0) { a[(i * 7) % n] = t[(threadIdx.x + 1) % 64] + 1.0f; }
}
host { float a[4096]; k<<<32, 128>>>(a, 4096); }
";
    compile(PROBE, &CompileOptions { config, defines: &[], optimize: true }).ok().map(|p| p.workload)
}

fn machine_case(config: GpuConfig) -> Outcome {
    if config.validate().is_err() {
        return Outcome::Accepted;
    }
    let Some(workload) = probe_workload(&config) else { return Outcome::Accepted };
    let estimate = footprint::total(&footprint::estimate(&config, &workload, 0));
    if estimate > CASE_MEMORY {
        return Outcome::Accepted;
    }
    simulate(config, workload)
}

fn config_case(text: &str) -> Outcome {
    match gpgpusim::import(text, presets::fermi_gtx480()) {
        Ok(imported) => machine_case(imported.config),
        Err(_) => Outcome::Refused,
    }
}

/// One `path=value` per line, applied in order to a preset named on the first line.
fn set_case(text: &str) -> Outcome {
    let mut lines = text.lines();
    let preset = lines.next().unwrap_or_default();
    let Some(preset) = presets::ALL.iter().find(|p| p.id == preset.trim()) else { return Outcome::Refused };
    let mut config = (preset.build)();
    for line in lines {
        let Some((path, value)) = line.split_once('=') else { return Outcome::Refused };
        if config.set_field(path.trim(), value.trim()).is_err() {
            return Outcome::Refused;
        }
    }
    machine_case(config)
}

fn link_case(query: &str, catalog: &Catalog) -> Outcome {
    let Ok(Some(shared)) = share::decode(query) else { return Outcome::Refused };
    let (setup, _notes, _refused) = Setup::from_shared(catalog, &shared);
    let _ = setup.to_shared(catalog, shared.embed);
    let mut job = setup.job();
    job.max_cycles = job.max_cycles.min(CASE_CYCLES);
    advance(Job::Simulate(Box::new(job)))
}

fn advance(job: Job) -> Outcome {
    match JobRunner::new(0, job, 1_000) {
        Ok(mut runner) => {
            for _ in 0..4 {
                runner.advance(CASE_CYCLES / 4, &mut |_| {});
            }
            let _ = runner.progress();
            let _ = runner.done(1.0);
            Outcome::Simulated
        }
        Err(_) => Outcome::Accepted,
    }
}

fn worker_case(json: &str, case: u64) -> Outcome {
    let Ok(request) = serde_json::from_str::<Request>(json) else { return Outcome::Refused };
    match request {
        Request::Run { id, job, frame_every } => {
            let job = match job {
                Job::Simulate(mut job) => {
                    job.max_cycles = job.max_cycles.min(CASE_CYCLES);
                    Job::Simulate(job)
                }
                other => other,
            };
            match JobRunner::new(id, job, frame_every) {
                Ok(mut runner) => {
                    for _ in 0..4 {
                        runner.advance(CASE_CYCLES / 4 + case % 7, &mut |_| {});
                    }
                    let _ = runner.cancelled();
                    Outcome::Simulated
                }
                Err(_) => Outcome::Accepted,
            }
        }
        Request::Compile { id, source, defines, config } => {
            let _ = compile_reply(id, &source, &defines, &config);
            Outcome::Accepted
        }
        _ => Outcome::Accepted,
    }
}

/// The inputs each target starts from, made by the real encoders where there are some.
pub fn seeds(target: &str, catalog: &Catalog) -> Vec<String> {
    match target {
        "kernel" => library::all().map(|w| w.source.to_string()).collect(),
        "config" => Vec::new(),
        "set" => presets::ALL
            .iter()
            .map(|p| {
                let config = (p.build)();
                let mut text = format!("{}\n", p.id);
                for (i, field) in
                    warpscope_core::config::fields::fields().iter().enumerate().filter(|(i, _)| i % 5 == 0)
                {
                    if let Some(value) = config.get_field(field.path) {
                        let _ = writeln!(text, "{}={}", field.path, value);
                    }
                    if i > 40 {
                        break;
                    }
                }
                text
            })
            .collect(),
        "link" => link_seeds(catalog),
        "worker" => worker_seeds(catalog),
        _ => Vec::new(),
    }
}

fn link_seeds(catalog: &Catalog) -> Vec<String> {
    let mut out = Vec::new();
    for (i, workload) in catalog.workloads.iter().enumerate().step_by(5) {
        let mut setup = Setup::initial(catalog);
        setup.load_workload(catalog, &workload.id);
        if i % 2 == 0 {
            setup.edited = true;
        }
        let _ = setup.config.set_field("l1.ways", "8");
        out.push(share::encode(&setup.to_shared(catalog, i % 3 == 0)));
    }
    out
}

fn worker_seeds(catalog: &Catalog) -> Vec<String> {
    let setup = Setup::initial(catalog);
    let job: SimulateJob = setup.job();
    let requests = [
        Request::Run { id: 1, job: Job::Simulate(Box::new(job.clone())), frame_every: 500 },
        Request::Compile {
            id: 2,
            source: job.source.clone(),
            defines: job.defines.clone(),
            config: Box::new(job.config.clone()),
        },
        Request::Run { id: 3, job: Job::CacheSweep(Default::default()), frame_every: 4096 },
        Request::Run {
            id: 4,
            job: Job::Bench { workload: "streaming".into(), preset: "fermi-gtx480".into(), tiny: true },
            frame_every: 0,
        },
        Request::Cancel { id: 1 },
        Request::Catalog,
    ];
    requests.iter().map(|r| serde_json::to_string(r).expect("a request encodes")).collect()
}

/// Tokens of each format, inserted by mutations.
fn dictionary(target: &str) -> &'static [&'static str] {
    match target {
        "kernel" => &[
            "__global__",
            "__device__",
            "__shared__",
            "__syncthreads();",
            "host {",
            "}",
            "{",
            "(",
            ")",
            "[",
            "]",
            ";",
            "<<<",
            ">>>",
            "for (int i = 0; i < n; i++)",
            "while (1)",
            "return",
            "float",
            "int",
            "unsigned",
            "#define N ",
            "atomicAdd(",
            "blockIdx.x",
            "threadIdx.x",
            "blockDim.x",
            "gridDim.x",
            "1e39",
            "0x7fffffff",
            "-2147483648",
            "4294967296",
            "/ 0",
            "% 0",
            "<< 40",
            "f(f(f(x)))",
            "int x[32];",
            "x[i]",
            "1.5f",
            "'",
            "\"",
            "//",
            "/*",
            "*/",
            "\\",
            "\u{FEFF}",
            "\0",
            "é",
            "🙂",
            "k<<<65535, 1024>>>(a);",
            "random(0.0, 1.0, 1)",
            "?",
            ":",
        ],
        "config" => &[
            "-gpgpu_n_clusters ",
            "-gpgpu_shader_core_pipeline ",
            "-gpgpu_cache:dl1 ",
            "-gpgpu_cache:dl2 ",
            "-gpgpu_clock_domains ",
            "-gpgpu_n_mem ",
            "-gpgpu_dram_buswidth ",
            "-gpgpu_shader_cta ",
            "-gpgpu_shmem_size ",
            "-gpgpu_scheduler ",
            "S:",
            "N:",
            ":",
            ",",
            "\n",
            "#",
            "0",
            "4294967295",
            "18446744073709551616",
            "-1",
            "1e308",
            "nan",
            "inf",
            "0.0",
            " ",
            "\t",
            "\r\n",
        ],
        "set" => &[
            "core.sm_count=",
            "l1.size_bytes=",
            "l1.ways=",
            "l1.line_bytes=",
            "l2.banks=",
            "l2.size_bytes=",
            "core.max_warps_per_sm=",
            "interconnect.topology=",
            "Mesh",
            "Crossbar",
            "=",
            "\n",
            "0",
            "1",
            "4294967295",
            "-1",
            "1e9",
            "1.5",
            "true",
            "Lru",
            "Belady",
            "FermiHash",
            "Linear",
            "WriteThrough",
            " ",
            "\u{FEFF}",
        ],
        "link" => &[
            "&",
            "=",
            "?",
            "w=",
            "src=",
            "n=",
            "max=",
            "hw=",
            "d=",
            "tb=",
            "warp=",
            "gpu=",
            "embed=1",
            "%",
            "%00",
            "%ZZ",
            "+",
            "9007199254740993",
            "0",
            "-1",
            "l1.ways:",
            "gto",
            "ccws",
            "rr",
            "~",
            ",",
            ";",
        ],
        "worker" => &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "null",
            "true",
            "false",
            "0",
            "-1",
            "1e400",
            "18446744073709551615",
            "9007199254740993",
            "\"Run\"",
            "\"Compile\"",
            "\"Cancel\"",
            "\"Crash\"",
            "\"Simulate\"",
            "\"CacheSweep\"",
            "\"max_cycles\"",
            "\"source\"",
            "\"config\"",
            "\"frame_every\"",
            "\\u0000",
            "\\ud800",
        ],
        _ => &[],
    }
}

/// Boundary numbers that replace a number of the input.
const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "-1",
    "2",
    "31",
    "32",
    "33",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
];

/// Bytes that a mutation writes over one of the input's.
const ODD_BYTES: &[u8] = b"\0\n\t{}()[];,=&%\"'\\#<>*/-+.0";

/// One input: a seed with 1 to 4 mutations.
fn mutate(rng: &mut SplitMix64, seeds: &[String], dictionary: &[&str]) -> String {
    let mut bytes = seeds[rng.below(seeds.len() as u64) as usize].clone().into_bytes();
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len() as u64;
        let at = if len == 0 { 0 } else { rng.below(len + 1) as usize };
        let span = (1 + rng.below(24)) as usize;
        match rng.below(8) {
            0 => {
                let end = (at + span).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let end = (at + span).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                let to = if bytes.is_empty() { 0 } else { rng.below(bytes.len() as u64 + 1) as usize };
                bytes.splice(to..to, copy);
            }
            2 | 3 if !dictionary.is_empty() => {
                let token = dictionary[rng.below(dictionary.len() as u64) as usize];
                bytes.splice(at..at, token.bytes());
            }
            4 => {
                // The number at or after `at` becomes a boundary value.
                let Some(start) = bytes[at..].iter().position(u8::is_ascii_digit).map(|p| at + p) else { continue };
                let end = bytes[start..].iter().position(|b| !b.is_ascii_digit()).map_or(bytes.len(), |p| start + p);
                let number = NUMBERS[rng.below(NUMBERS.len() as u64) as usize];
                bytes.splice(start..end, number.bytes());
            }
            5 => {
                let other = &seeds[rng.below(seeds.len() as u64) as usize];
                let from = rng.below(other.len() as u64 + 1) as usize;
                let end = (from + span * 4).min(other.len());
                bytes.splice(at..at, other.as_bytes()[from..end].iter().copied());
            }
            6 if at < bytes.len() => bytes[at] = ODD_BYTES[rng.below(ODD_BYTES.len() as u64) as usize],
            _ => bytes.truncate(at.max(bytes.len().saturating_sub(span))),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A stable hash of a target's name, so that each target draws its own cases from one seed.
fn fxhash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}
