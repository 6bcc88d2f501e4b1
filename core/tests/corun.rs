//! Programs side by side ([`Workload::co_run`]) and the measurement window (`window.cycles`):
//! the concurrent-kernel papers' protocol, in which every kernel starts together, a kernel that
//! completes is launched again at once, and the run lasts a fixed number of cycles.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::Report;
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn machine() -> GpuConfig {
    let mut config = presets::cke_maxwell();
    config.core.sm_count = 2;
    config
}

/// `copy` (memory-bound) launched `launches` times into `stream` (0: the default stream).
fn copier(launches: u32, stream: &str) -> String {
    let declare = if stream.is_empty() { String::new() } else { format!("stream {stream};") };
    let into = if stream.is_empty() { String::new() } else { format!(", 0, {stream}") };
    format!(
        "__global__ void copy(const float* src, float* dst, int n) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {{ dst[i] = src[i] + 1.0f; }}
        }}
        host {{
            float src[8192] = random(0.0, 1.0, 7);
            float dst[8192];
            {declare}
            for (int r = 0; r < {launches}; r++) {{ copy<<<32, 256{into}>>>(src, dst, 8192); }}
        }}"
    )
}

/// A compute-bound kernel: each thread iterates a multiply-add on its own value.
fn spinner(launches: u32, stream: &str) -> String {
    let declare = if stream.is_empty() { String::new() } else { format!("stream {stream};") };
    let into = if stream.is_empty() { String::new() } else { format!(", 0, {stream}") };
    format!(
        "__global__ void spin(float* v, int rounds) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float x = v[i];
            for (int k = 0; k < rounds; k++) {{ x = x * 0.5f + 1.0f; }}
            v[i] = x;
        }}
        host {{
            float v[4096] = random(0.0, 1.0, 9);
            {declare}
            for (int r = 0; r < {launches}; r++) {{ spin<<<16, 256{into}>>>(v, 200); }}
        }}"
    )
}

/// `copy` and `spin` side by side, each launching once into its stream (`""`: the default).
fn copy_beside_spin(config: &GpuConfig, copy_stream: &str, spin_stream: &str) -> Workload {
    let copy = program(&copier(1, copy_stream), config);
    let spin = program(&spinner(1, spin_stream), config);
    Workload::co_run(vec![("copy".into(), copy), ("spin".into(), spin)]).expect("two programs")
}

fn program(source: &str, config: &GpuConfig) -> Workload {
    compile(source, &CompileOptions { config, defines: &[], optimize: true })
        .unwrap_or_else(|e| panic!("does not compile: {}", e[0]))
        .workload
}

fn run(config: GpuConfig, workload: Workload, skip_idle: bool) -> (Report, Vec<Vec<u32>>) {
    let buffers = workload.buffers.len();
    let options = RunOptions { skip_idle, ..RunOptions::default() };
    let mut sim = Simulation::new(config, workload, &Policies::default(), options).expect("a valid set-up");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let contents = (0..buffers).map(|b| sim.buffer(b).to_vec()).collect();
    (sim.report(), contents)
}

fn windowed(cycles: u32) -> GpuConfig {
    let mut config = machine();
    config.window.cycles = cycles;
    config
}

#[test]
fn a_window_relaunches_a_finished_program_and_ends_exactly_on_time() {
    // The reference: the same launch written out four times in a row, run to its end.
    let config = machine();
    let (four, _) = run(config.clone(), program(&copier(4, ""), &config), true);
    assert_eq!(four.kernels.len(), 4);
    // A window closing inside the fourth run.
    let third_end = four.kernels[2].end_cycle;
    let window = third_end + (four.kernels[3].end_cycle - third_end) / 2;
    let (report, _) = run(windowed(window as u32), program(&copier(1, ""), &config), true);
    assert_eq!(report.cycles, window, "the run lasts exactly the window");
    assert_eq!(report.kernels.len(), 4, "three relaunches, the last cut off");
    for (k, (ours, theirs)) in report.kernels.iter().zip(&four.kernels).enumerate() {
        assert_eq!(ours.start_cycle, theirs.start_cycle, "run {k} starts as the written-out launch does");
        if k < 3 {
            assert_eq!(ours.end_cycle, theirs.end_cycle, "run {k} ends as the written-out launch does");
            assert_eq!(ours.warp_instructions, theirs.warp_instructions);
        }
    }
    let cut = &report.kernels[3];
    assert_eq!(cut.end_cycle, 0, "the window closed on the fourth run");
    assert!(cut.warp_instructions > 0 && cut.warp_instructions < four.kernels[3].warp_instructions);
    let issued: u64 = report.kernels.iter().map(|k| k.warp_instructions).sum();
    assert_eq!(report.warp_instructions, issued, "the cut-off run's instructions count");
}

#[test]
fn skipping_idle_cycles_changes_nothing_under_a_window() {
    let config = windowed(30_000);
    let both = copy_beside_spin(&config, "s", "t");
    let (skipping, _) = run(config.clone(), both.clone(), true);
    let (stepping, _) = run(config, both, false);
    assert_eq!(skipping, stepping);
}

#[test]
fn programs_side_by_side_compute_what_each_does_alone_in_streams_of_their_own() {
    let config = machine();
    let copy = program(&copier(2, ""), &config);
    let spin = program(&spinner(3, "mine"), &config);
    let (copy_alone, copy_out) = run(config.clone(), copy.clone(), true);
    let (spin_alone, spin_out) = run(config.clone(), spin.clone(), true);
    let both = Workload::co_run(vec![("copy".into(), copy), ("spin".into(), spin)]).expect("two programs");
    // Each program's streams are its own: copy's default stream and spin's named one.
    let streams: Vec<u32> = both.launches.iter().map(|l| l.stream).collect();
    assert_eq!(streams, [1, 1, 2, 2, 2]);
    assert_eq!(both.parts.iter().map(|p| p.streams.clone()).collect::<Vec<_>>(), [vec![1], vec![2]]);
    let (report, contents) = run(config, both, true);
    // The buffers are copy's two, then spin's one, holding what each computed alone.
    assert_eq!(contents, [copy_out, spin_out].concat());
    // Each part issued what it issues alone (the same code on the same data), and the two
    // overlapped: together they take less than one after the other.
    let parts: Vec<(&str, u64, u64)> =
        report.parts.iter().map(|p| (p.name.as_str(), p.warp_instructions, p.launches_completed)).collect();
    assert_eq!(parts, [("copy", copy_alone.warp_instructions, 2), ("spin", spin_alone.warp_instructions, 3)]);
    assert!(report.cycles < copy_alone.cycles + spin_alone.cycles);
}

#[test]
fn a_part_counts_the_instructions_of_the_runs_cut_off_by_the_window() {
    let config = windowed(20_000);
    let both = copy_beside_spin(&config, "", "");
    let (report, _) = run(config, both, true);
    assert_eq!(report.cycles, 20_000);
    let total: u64 = report.parts.iter().map(|p| p.warp_instructions).sum();
    assert_eq!(total, report.warp_instructions, "every instruction belongs to one part");
    for part in &report.parts {
        let runs = report.kernels.iter().filter(|k| k.name == part.name).count() as u64;
        assert!(part.launches_completed >= 1, "{} relaunched within the window", part.name);
        assert_eq!(part.launches_completed + 1, runs, "{}: every run but the one cut off completed", part.name);
    }
}

/// Each program's L1 counts and LSU stalls are its runs': together they are the GPU's, and the
/// memory-bound copy, not the spinner, is the one whose requests fail.
#[test]
fn each_programs_l1_counts_and_lsu_stalls_add_up_to_the_gpus() {
    let config = windowed(20_000);
    let both = copy_beside_spin(&config, "", "");
    let (report, _) = run(config, both, true);
    let sum = |f: &dyn Fn(&warpscope_core::stats::PartReport) -> u64| report.parts.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|p| p.l1.accesses), report.l1.accesses);
    assert_eq!(sum(&|p| p.l1.misses), report.l1.misses);
    assert_eq!(sum(&|p| p.l1.failures()), report.l1.failures());
    assert_eq!(sum(&|p| p.lsu_stall_cycles), report.sms.iter().map(|s| s.lsu_stall_cycles).sum::<u64>());
    assert!(report.l1.failures() > 0, "the copy's misses fill the MSHRs");
    let (copy, spin) = (&report.parts[0], &report.parts[1]);
    assert!(copy.l1.failures() > spin.l1.failures(), "{} against {}", copy.l1.failures(), spin.l1.failures());
}

/// The time series splits each window's instructions and LSU stalls by program: window by
/// window the programs' instructions are the window's, and over the run each program's are its
/// total. Every run is named with its program (by its name: the copy's runs are `copy`'s).
#[test]
fn each_window_of_the_series_splits_its_counts_by_program() {
    let config = windowed(20_000);
    let both = copy_beside_spin(&config, "", "");
    let (report, _) = run(config, both, true);
    assert!(report.series.windows.len() > 10, "a series to split");
    for w in &report.series.windows {
        let parts: u64 = w.parts.iter().map(|p| p.warp_instructions).sum();
        assert_eq!(parts, w.warp_instructions, "window at {}", w.start);
    }
    for (p, part) in report.parts.iter().enumerate() {
        let over_time = |f: fn(&warpscope_core::stats::parts::PartWindow) -> u64| {
            report.series.windows.iter().map(|w| f(&w.parts[p])).sum::<u64>()
        };
        assert_eq!(over_time(|w| w.warp_instructions), part.warp_instructions, "{}", part.name);
        assert_eq!(over_time(|w| w.lsu_stall_cycles), part.lsu_stall_cycles, "{}", part.name);
    }
    assert_eq!(report.run_parts.len(), report.kernels.len());
    for (run, &part) in report.kernels.iter().zip(&report.run_parts) {
        assert_eq!(report.parts[part as usize].name, if run.name.contains("copy") { "copy" } else { "spin" });
    }
}

#[test]
fn a_program_that_mixes_the_default_stream_with_named_ones_cannot_repeat_stream_by_stream() {
    let config = machine();
    let mixed = program(
        "__global__ void k(float* v) { v[threadIdx.x] = 1.0f; }
         host { float v[64]; stream s; k<<<1, 64>>>(v); k<<<1, 64, 0, s>>>(v); }",
        &config,
    );
    let other = program(&spinner(1, ""), &config);
    let err = Workload::co_run(vec![("mixed".into(), mixed.clone()), ("spin".into(), other.clone())])
        .expect_err("the default stream would order only its own program");
    assert_eq!(err.field, "parts[0]");
    assert!(err.reason.contains("default stream"), "{err}");
    let err = Simulation::new(windowed(10_000), mixed, &Policies::default(), RunOptions::default())
        .err()
        .expect("a window cannot repeat it stream by stream");
    assert_eq!(err.field, "window.cycles", "{err}");
    let err = Workload::co_run(vec![("spin".into(), other.clone())]).expect_err("one program is not a co-run");
    assert_eq!(err.field, "parts");
    // Belady's replay empties the whole L1 at a boundary, which programs side by side do not.
    let mut belady = machine();
    belady.l1.replacement = warpscope_core::config::Replacement::Belady;
    let both = Workload::co_run(vec![("a".into(), other.clone()), ("b".into(), other)]).expect("two programs");
    let err = Simulation::new(belady, both, &Policies::default(), RunOptions::default()).err().expect("refused");
    assert_eq!(err.field, "l1.replacement", "{err}");
}

/// For each SM, the most blocks of each program resident at once (programs by stream of their
/// host runs), from the block records.
fn peak_blocks(report: &Report, sms: usize) -> Vec<[u32; 2]> {
    let program = |run: u32| report.kernels[run as usize].stream as usize - 1;
    let mut peaks = vec![[0u32; 2]; sms];
    for (sm, peak) in peaks.iter_mut().enumerate() {
        // (cycle, +1 / −1, program), ends before starts at the same cycle.
        let mut events: Vec<(u64, i32, usize)> = Vec::new();
        for b in report.blocks.iter().filter(|b| b.sm as usize == sm) {
            events.push((b.start, 1, program(b.kernel)));
            events.push((b.end, -1, program(b.kernel)));
        }
        events.sort();
        let mut now = [0i32; 2];
        for (_, delta, p) in events {
            now[p] += delta;
            peak[p] = peak[p].max(now[p] as u32);
        }
    }
    peaks
}

fn co_run_under(tb: &str) -> Report {
    let config = windowed(30_000);
    let both = copy_beside_spin(&config, "", "");
    let policies = Policies { tb: tb.into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, both, &policies, RunOptions::default()).expect("a valid set-up");
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report()
}

/// Who held up whose memory instructions. Under spatial multitasking the programs never share
/// an SM, so each waits only behind its own accesses, for at most its one SM's cycles; sharing
/// every SM (SMK), the spinner's loads wait behind the copy's accesses too. Either way, every
/// scheduler cycle stalled on the memory pipeline is a cycle in which some kernel waited there.
#[test]
fn memory_instructions_wait_behind_another_programs_accesses_only_where_they_share_an_sm() {
    let waited = |r: &Report| r.memory_blocking.clone().expect("two co-running kernels").waited;
    let spatial = co_run_under("spatial");
    let blocked = waited(&spatial);
    assert_eq!((blocked[0][1], blocked[1][0]), (0, 0), "{blocked:?}");
    assert!(blocked[0][0] > 0, "the copy waits behind its own accesses");
    assert!(blocked[0][0] <= spatial.cycles && blocked[1][1] <= spatial.cycles, "one SM each: {blocked:?}");

    let shared = co_run_under("smk");
    let blocked = waited(&shared);
    assert!(blocked[1][0] > 0, "the spinner waits behind the copy: {blocked:?}");
    let schedulers = shared.sms[0].stalls.total() / shared.cycles;
    for r in [&spatial, &shared] {
        let counted: u64 = waited(r).iter().flatten().sum();
        assert!(
            r.stalls.memory_pipeline <= schedulers * counted,
            "{} > {schedulers} × {counted}",
            r.stalls.memory_pipeline
        );
        // Over time, a kernel's held-back SM cycles count each once, whoever held the LSU: at
        // least those behind any one kernel, at most those behind all together.
        for (k, row) in waited(r).iter().enumerate() {
            let over_time: u64 = r.series.windows.iter().map(|w| w.held_back[k]).sum();
            let (most, all) = (*row.iter().max().unwrap(), row.iter().sum::<u64>());
            assert!(most <= over_time && over_time <= all, "kernel {k}: {most} ≤ {over_time} ≤ {all}");
        }
    }
}

#[test]
fn spatial_multitasking_gives_each_program_its_own_sms() {
    let report = co_run_under("spatial");
    // Two SMs, two programs: SM 0 runs only the first, SM 1 only the second.
    let peaks = peak_blocks(&report, 2);
    assert!(peaks[0][0] > 0 && peaks[0][1] == 0, "{peaks:?}");
    assert!(peaks[1][0] == 0 && peaks[1][1] > 0, "{peaks:?}");
}

#[test]
fn smk_shares_every_sm_between_the_programs_by_dominant_resource() {
    let report = co_run_under("smk");
    // Both programs' blocks are 256 threads, a twelfth of the SM's 3,072 and more than their
    // share of any other resource: Dominant Resource Fairness gives each 6 of the 12 a SM holds.
    // Under round-robin the first program's grid takes what it can and the second the rest.
    for (sm, peak) in peak_blocks(&report, 2).iter().enumerate() {
        assert_eq!(*peak, [6, 6], "SM {sm}");
    }
    let rr = peak_blocks(&co_run_under("rr"), 2);
    assert!(rr.iter().any(|p| p[0] > 6 || p[1] > 6), "the baseline does not split: {rr:?}");
}

/// Warped-Slicer profiles each program alone before the run and holds every SM to the split
/// its curves choose. A curve's last point is the program alone at full occupancy over the
/// profile window, which a run of the program by itself reproduces.
#[test]
fn warped_slicer_holds_every_sm_to_the_split_of_curves_profiled_alone() {
    let report = co_run_under("ws:profile_cycles=5000");
    let sharing = report.sharing.as_ref().expect("Warped-Slicer reports its split");
    let targets: Vec<u32> = sharing.kernels.iter().map(|k| k.blocks_per_sm).collect();
    assert!(targets.iter().all(|&t| t >= 1), "every program keeps a block: {targets:?}");
    for (sm, peak) in peak_blocks(&report, 2).iter().enumerate() {
        assert_eq!(peak.to_vec(), targets, "SM {sm}");
    }
    // 256-thread blocks: 12 fill a Maxwell SM's 3,072 threads, so each curve has 12 points.
    for kernel in &sharing.kernels {
        assert_eq!(kernel.curve.len(), 12, "stream {}", kernel.stream);
        assert!(kernel.curve[0] < kernel.curve[11], "one block per SM does less than twelve: {:?}", kernel.curve);
    }
    // The copy program (stream 1) alone, uncapped, over the same window.
    let mut alone = windowed(5_000);
    alone.window.cycles = 5_000;
    let copy = program(&copier(1, ""), &alone);
    let mut sim = Simulation::new(alone, copy, &Policies::default(), RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    assert_eq!(sharing.kernels[0].curve[11], sim.report().warp_instructions);
    let theory = sharing.theoretical_speedup.expect("the sweet point's prediction");
    let sum: f64 = sharing.kernels.iter().map(|k| k.normalised.expect("a score")).sum();
    assert!((theory - sum).abs() < 1e-12);
}

/// Each thread of one 1024-thread block reads its own word 8 times, with arithmetic between
/// the reads so that the line is back in the L1 by the next: 32 lines, each missed once per
/// run and hit after (the warps' lines are their own, so no warp finds another's).
fn rereader(launches: u32) -> String {
    format!(
        "__global__ void reread(const float* a, float* out) {{
            int i = threadIdx.x;
            float sum = 0.0f;
            for (int p = 0; p < 8; p++) {{
                sum = sum + a[i];
                for (int k = 0; k < 40; k++) {{ sum = sum * 0.999f + 0.5f; }}
            }}
            out[i] = sum;
        }}
        host {{
            float a[1024] = random(0.0, 1.0, 3);
            float out[1024];
            for (int r = 0; r < {launches}; r++) {{ reread<<<1, 1024>>>(a, out); }}
        }}"
    )
}

/// Short kernels that load nothing (their stores do not allocate in the L1).
fn storer(launches: u32) -> String {
    format!(
        "__global__ void fill(float* v) {{ v[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; }}
        host {{
            float v[2048];
            for (int r = 0; r < {launches}; r++) {{ fill<<<8, 256>>>(v); }}
        }}"
    )
}

#[test]
fn a_kernel_boundary_of_one_program_leaves_the_other_programs_lines_in_the_l1() {
    // One SM, so that both programs' blocks share its L1.
    let mut config = machine();
    config.core.sm_count = 1;
    let (alone, _) = run(config.clone(), program(&rereader(3), &config), true);
    let misses = |r: &Report, name: &str| -> Vec<u64> {
        r.kernels.iter().filter(|k| k.name == name).map(|k| k.l1.misses).collect()
    };
    let expected = misses(&alone, "reread");
    assert_eq!(expected.len(), 3);
    let both = Workload::co_run(vec![
        ("reread".into(), program(&rereader(3), &config)),
        ("fill".into(), program(&storer(40), &config)),
    ])
    .expect("two programs");
    let (report, _) = run(config, both, true);
    // The other program's 40 launches start while the re-reads run, and leave their lines be:
    // every run misses exactly as it does alone (its own boundary empties the L1 of its lines).
    assert_eq!(misses(&report, "reread"), expected);
    let overlapping = report.kernels.iter().filter(|k| k.name == "fill").any(|f| {
        report
            .kernels
            .iter()
            .filter(|k| k.name == "reread")
            .any(|r| f.start_cycle > r.start_cycle && f.start_cycle < r.end_cycle)
    });
    assert!(overlapping, "a launch of the other program fell inside a re-read run");
}
