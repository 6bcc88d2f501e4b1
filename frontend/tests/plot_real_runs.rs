//! The visualisations' geometry on reports from real engine runs and on a large synthetic one.

use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::stats::{BlockRecord, Report};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};
use warpscope_frontend::csv::series_csv;
use warpscope_frontend::plot::series::{extent, stall_shares};
use warpscope_frontend::plot::timeline::{block_rect, boxes, hit, BlockIndex, Geometry};

/// A run of library workload `id` at its smallest size on the GTX 480 preset.
fn report_of(id: &str) -> (Report, u32) {
    let entry = library::by_id(id).expect("library workload");
    let config = presets::fermi_gtx480();
    let defines = [entry.size_define(entry.size.min)];
    let program = compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: true })
        .expect("compiles");
    let sms = config.core.sm_count;
    let mut sim =
        Simulation::new(config, program.workload, &Policies::default(), RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    (sim.report(), sms)
}

#[test]
fn a_real_run_lays_out_and_every_wide_block_can_be_pointed_at() {
    let (report, sms) = report_of("vecadd");
    assert!(!report.blocks.is_empty());
    let index = BlockIndex::build(&report.blocks, &report.kernels, sms, report.cycles);
    assert_eq!(index.sms.len(), sms as usize);
    let geometry = Geometry::new(&index, 1200.0);
    let drawn = boxes(&index, &report.blocks, &geometry);
    assert!(!drawn.is_empty());
    assert!(drawn.iter().all(|b| [b.x, b.y, b.w, b.h].iter().all(|v| v.is_finite()) && b.w >= 1.0 && b.h >= 1.0));
    for i in 0..report.blocks.len() {
        let (x, y, w, h) = block_rect(&index, &report.blocks, &geometry, i).expect("every block is placed");
        if w >= 6.0 {
            assert_eq!(hit(&index, &report.blocks, &geometry, x + w / 2.0, y + h / 2.0), Some(i), "block {i}");
        }
    }
}

#[test]
fn a_real_series_exports_and_stacks() {
    let (report, _) = report_of("vecadd");
    let csv = series_csv(&report.series);
    assert_eq!(csv.lines().count(), report.series.windows.len() + 1);
    assert!(!csv.contains("NaN") && !csv.contains("inf"));
    for (_, shares) in stall_shares(&report.series) {
        let total: f64 = shares.iter().sum();
        assert!(total == 0.0 || (total - 1.0).abs() < 1e-9);
    }
    let end = extent(&report.series);
    assert!(end > 0.0 && end <= report.cycles as f64 + report.series.every as f64);
}

#[test]
fn a_hundred_thousand_blocks_on_132_sms_stay_within_a_box_per_pixel() {
    // Eight blocks resident per SM, round-robin dispatch, 100 000 blocks of three kernels.
    let blocks: Vec<BlockRecord> = (0..100_000u32)
        .map(|i| {
            let wave = (i / (132 * 8)) as u64;
            BlockRecord { kernel: i / 40_000, block: i % 40_000, sm: i % 132, start: wave * 500, end: wave * 500 + 480 }
        })
        .collect();
    let index = BlockIndex::build(&blocks, &[], 132, 0);
    assert!(index.sms.iter().all(|lanes| lanes.len() == 8));
    for width in [1100.0, 400.0] {
        let geometry = Geometry::new(&index, width);
        let drawn = boxes(&index, &blocks, &geometry);
        assert!(drawn.len() <= blocks.len());
        assert!(drawn.len() as f64 <= 132.0 * 8.0 * width, "{} boxes at {width} px", drawn.len());
        assert!(geometry.height < 700.0);
    }

    // One block at a time per SM: 758 short blocks per row, well under a pixel each at 400 px.
    let serial: Vec<BlockRecord> = (0..100_000u32)
        .map(|i| {
            let wave = (i / 132) as u64;
            BlockRecord { kernel: 0, block: i, sm: i % 132, start: wave * 100, end: wave * 100 + 100 }
        })
        .collect();
    let index = BlockIndex::build(&serial, &[], 132, 0);
    let drawn = boxes(&index, &serial, &Geometry::new(&index, 400.0));
    assert!(drawn.len() <= 132 * 12, "sub-pixel blocks merge by shade: {} boxes", drawn.len());
}
