//! Layout of the thread-block timeline: one row per SM, split into lanes so that blocks
//! resident at the same time do not hide each other; boxes in pixels with sub-pixel boxes
//! merged; hit-testing by binary search within a lane.

use warpscope_core::stats::{BlockRecord, KernelReport, RunGroup};

use super::palette::shade_level;
use super::scale::{label_stride, LinearScale};

/// Blocks of a report arranged per SM and lane, built once per report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockIndex {
    /// Per SM: lanes, each a list of block indices (into the report's blocks) sorted by start
    /// and not overlapping in time.
    pub sms: Vec<Vec<Vec<u32>>>,
    /// Per block: its end cycle, with unfinished blocks (end before start) extended to the
    /// horizon.
    pub ends: Vec<u64>,
    /// Per block: its shade level across its kernel run's grid.
    pub shades: Vec<u8>,
    /// The last cycle anything happened (at least 1 so scales stay finite).
    pub horizon: u64,
}

impl BlockIndex {
    /// Arranges `blocks` into `sm_count` rows (more if a block names a higher SM) of a run
    /// `cycles` long. Each block takes the lowest lane free at its start. `kernels` gives grid
    /// sizes for shading.
    pub fn build(blocks: &[BlockRecord], kernels: &[KernelReport], sm_count: u32, cycles: u64) -> Self {
        let horizon = blocks.iter().map(|b| b.end.max(b.start)).max().unwrap_or(0).max(cycles).max(1);
        let ends: Vec<u64> = blocks.iter().map(|b| if b.end < b.start { horizon } else { b.end }).collect();
        let grid_sizes = grid_sizes(blocks, kernels);
        let shades = blocks.iter().map(|b| shade_level(b.block, grid_sizes[b.kernel as usize])).collect();
        let rows = blocks.iter().map(|b| b.sm as usize + 1).max().unwrap_or(0).max(sm_count as usize);
        // Sorting the keys themselves, not indices looked up through a closure, keeps the sort
        // of a 100k-block run within a frame.
        let mut per_sm: Vec<Vec<(u64, u64, u32)>> = vec![Vec::new(); rows];
        for (i, b) in blocks.iter().enumerate() {
            per_sm[b.sm as usize].push((b.start, ends[i], i as u32));
        }
        let sms = per_sm
            .into_iter()
            .map(|mut keyed| {
                keyed.sort_unstable();
                let mut lanes: Vec<Vec<u32>> = Vec::new();
                let mut lane_free_at: Vec<u64> = Vec::new();
                for (start, end, i) in keyed {
                    let lane = match lane_free_at.iter().position(|&free| free <= start) {
                        Some(lane) => lane,
                        None => {
                            lanes.push(Vec::new());
                            lane_free_at.push(0);
                            lanes.len() - 1
                        }
                    };
                    lanes[lane].push(i);
                    lane_free_at[lane] = end;
                }
                lanes
            })
            .collect();
        BlockIndex { sms, ends, shades, horizon }
    }
}

/// Margins and sizes of the timeline, in CSS pixels.
pub const LABEL_WIDTH: f64 = 52.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 6.0;
/// Space under the rows for the cycle axis.
pub const AXIS_HEIGHT: f64 = 26.0;
/// The rows' combined height aimed at; rows shrink to fit it, within limits.
const ROWS_HEIGHT_TARGET: f64 = 540.0;
const ROW_PITCH_MIN: f64 = 4.0;
const ROW_PITCH_MAX: f64 = 24.0;
/// Labels at least this far apart vertically.
const LABEL_SPACING: f64 = 13.0;

/// Where rows and the axis go for a given width.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// Canvas width.
    pub width: f64,
    /// Canvas height.
    pub height: f64,
    /// Cycle → x.
    pub x: LinearScale,
    /// Top of the first row.
    pub top: f64,
    /// Distance between row tops.
    pub row_pitch: f64,
    /// Drawn height of a row (the pitch minus a separating gap when rows are tall enough).
    pub row_height: f64,
    /// Label every `label_every`-th SM (a round stride: SM 0, 5, 10, …).
    pub label_every: usize,
    /// Number of rows.
    pub rows: usize,
}

impl Geometry {
    /// The layout of `index` on a canvas `width` pixels wide.
    pub fn new(index: &BlockIndex, width: f64) -> Self {
        let rows = index.sms.len();
        let row_pitch = (ROWS_HEIGHT_TARGET / rows.max(1) as f64).floor().clamp(ROW_PITCH_MIN, ROW_PITCH_MAX);
        let row_height = if row_pitch >= 8.0 {
            row_pitch - 2.0
        } else if row_pitch >= 5.0 {
            row_pitch - 1.0
        } else {
            row_pitch
        };
        let width = width.max(LABEL_WIDTH + RIGHT + 1.0);
        let x = LinearScale::new((0.0, index.horizon as f64), (LABEL_WIDTH, width - RIGHT));
        let label_every = label_stride((LABEL_SPACING / row_pitch).ceil() as usize);
        let height = TOP + rows as f64 * row_pitch + AXIS_HEIGHT;
        Geometry { width, height, x, top: TOP, row_pitch, row_height, label_every, rows }
    }

    /// Top of row `row`.
    pub fn row_top(&self, row: usize) -> f64 {
        self.top + row as f64 * self.row_pitch
    }

    /// Bottom of the last row, where the axis starts.
    pub fn rows_bottom(&self) -> f64 {
        self.row_top(self.rows)
    }

    /// Height of one lane of a row split into `lanes`.
    pub fn lane_height(&self, lanes: usize) -> f64 {
        self.row_height / lanes.max(1) as f64
    }
}

/// A box to fill: one block, or several consecutive sub-pixel blocks of the same colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxRect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// Kernel run (palette index), or under [`boxes_by`] the colour class.
    pub kernel: u32,
    /// Shade level across the kernel's grid, or under [`boxes_by`] the level.
    pub shade: u8,
}

/// Boxes narrower than this are candidates for merging with their neighbour.
const MERGE_BELOW: f64 = 1.0;
/// Boxes at least this wide get a one-pixel gap at their right so neighbours stay apart.
const GAP_FROM: f64 = 4.0;
/// Narrow boxes closer than this to their same-coloured neighbour join it: no seam would show.
const SEAM: f64 = 0.5;

/// The boxes to draw for `blocks` (indexed by `index`) at `geometry`. Consecutive boxes in a lane that share a colour and touch become one box
/// when they are too narrow to be drawn apart (narrower than a pixel, or than the width that
/// earns a gap), so the count stays near the number of colour changes however many blocks: a
/// 100k-block run is some ten thousand fills, not a hundred thousand.
pub fn boxes(index: &BlockIndex, blocks: &[BlockRecord], geometry: &Geometry) -> Vec<BoxRect> {
    boxes_by(index, blocks, geometry, |i| (blocks[i].kernel, index.shades[i]))
}

/// [`boxes`] under another colouring: `colour` gives block `i`'s (class, level), which the
/// boxes carry as `kernel` and `shade` and merge by, as they do by kernel run and shade.
pub fn boxes_by(
    index: &BlockIndex,
    blocks: &[BlockRecord],
    geometry: &Geometry,
    colour: impl Fn(usize) -> (u32, u8),
) -> Vec<BoxRect> {
    let mut out = Vec::new();
    for (row, lanes) in index.sms.iter().enumerate() {
        let lane_h = geometry.lane_height(lanes.len());
        for (lane, ids) in lanes.iter().enumerate() {
            let y = geometry.row_top(row) + lane as f64 * lane_h;
            let h = lane_h.max(1.0);
            // The box being extended, and whether it is one block wide enough for a gap.
            let mut pending: Option<(BoxRect, bool)> = None;
            for &i in ids {
                let b = &blocks[i as usize];
                let x0 = geometry.x.map(b.start as f64);
                let x1 = geometry.x.map(index.ends[i as usize] as f64);
                let (kernel, shade) = colour(i as usize);
                let next = BoxRect { x: x0, y, w: x1 - x0, h, kernel, shade };
                if let Some((cur, gapped)) = pending.as_mut() {
                    let end = cur.x + cur.w;
                    let same = cur.kernel == next.kernel && cur.shade == next.shade;
                    let sub_pixel = next.w < MERGE_BELOW && next.x <= end + MERGE_BELOW;
                    let seamless = next.w < GAP_FROM && !*gapped && next.x <= end + SEAM;
                    if same && (sub_pixel || seamless) {
                        cur.w = (next.x + next.w).max(end) - cur.x;
                        continue;
                    }
                    // A sliver inside the pixel the previous box already paints adds nothing.
                    if next.w < MERGE_BELOW && next.x + next.w <= cur.x + cur.w.max(MERGE_BELOW) {
                        continue;
                    }
                    out.push(finish(*cur, *gapped));
                }
                pending = Some((next, next.w >= GAP_FROM));
            }
            if let Some((cur, gapped)) = pending {
                out.push(finish(cur, gapped));
            }
        }
    }
    out
}

/// Gives a box its final width: minus a gap for one wide block, else at least one pixel.
fn finish(mut b: BoxRect, gapped: bool) -> BoxRect {
    b.w = if gapped { b.w - 1.0 } else { b.w.max(MERGE_BELOW) };
    b
}

/// Blocks per grid of each kernel run: from the kernel reports, else the highest block seen.
fn grid_sizes(blocks: &[BlockRecord], kernels: &[KernelReport]) -> Vec<u32> {
    let runs = blocks.iter().map(|b| b.kernel as usize + 1).max().unwrap_or(0).max(kernels.len());
    let mut sizes: Vec<u32> = (0..runs).map(|k| kernels.get(k).map_or(0, |r| r.blocks)).collect();
    for b in blocks {
        let size = &mut sizes[b.kernel as usize];
        *size = (*size).max(b.block + 1);
    }
    sizes
}

/// The block (index into `blocks`) under pixel `(px, py)`, within a couple of pixels
/// horizontally so that thin boxes can still be pointed at.
pub fn hit(index: &BlockIndex, blocks: &[BlockRecord], geometry: &Geometry, px: f64, py: f64) -> Option<usize> {
    if py < geometry.top || px < LABEL_WIDTH - 2.0 {
        return None;
    }
    let row = ((py - geometry.top) / geometry.row_pitch).floor() as usize;
    let lanes = index.sms.get(row)?;
    let within = py - geometry.row_top(row);
    if within > geometry.row_height {
        return None;
    }
    let lane = ((within / geometry.lane_height(lanes.len())).floor() as usize).min(lanes.len().checked_sub(1)?);
    let ids = &lanes[lane];
    let cycle = geometry.x.invert(px);
    let tolerance = 2.0 * geometry.x.per_pixel();
    // Lanes do not overlap in time, so the candidates are the last blocks starting before the
    // pointer (plus tolerance).
    let after = ids.partition_point(|&i| blocks[i as usize].start as f64 <= cycle + tolerance);
    let distance = |i: u32| {
        let (start, end) = (blocks[i as usize].start as f64, index.ends[i as usize] as f64);
        if cycle < start {
            start - cycle
        } else if cycle > end {
            cycle - end
        } else {
            0.0
        }
    };
    ids[after.saturating_sub(2)..after]
        .iter()
        .copied()
        .filter(|&i| distance(i) <= tolerance)
        .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
        .map(|i| i as usize)
}

/// The kernel runs of one kernel, for the legend: a kernel launched twenty times is one entry.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelGroup {
    /// Kernel name.
    pub name: String,
    /// Its runs kept whole (indices into the report's kernels, which are also their palette
    /// indices).
    pub runs: Vec<usize>,
    /// Its runs the report summarised ([`RunGroup`]): their ids are not kept.
    pub summarised: u64,
    /// Thread blocks over all its runs.
    pub blocks: u64,
}

impl KernelGroup {
    /// Its runs, kept whole or summarised.
    pub fn total_runs(&self) -> u64 {
        self.runs.len() as u64 + self.summarised
    }
}

/// The runs of `kernels`, then the runs the report summarised (`summarised`), grouped by
/// kernel name, in the order each name first ran.
pub fn kernel_groups(kernels: &[KernelReport], summarised: &[RunGroup]) -> Vec<KernelGroup> {
    let mut groups: Vec<KernelGroup> = Vec::new();
    for (run, kernel) in kernels.iter().enumerate() {
        let g = group_named(&mut groups, &kernel.name);
        g.runs.push(run);
        g.blocks += kernel.blocks as u64;
    }
    for summary in summarised {
        let g = group_named(&mut groups, &summary.name);
        g.summarised += summary.runs;
        g.blocks += summary.blocks;
    }
    groups
}

/// The group of kernel `name`, added at the end if it is new.
fn group_named<'a>(groups: &'a mut Vec<KernelGroup>, name: &str) -> &'a mut KernelGroup {
    let i = groups.iter().position(|g| g.name == name).unwrap_or_else(|| {
        groups.push(KernelGroup { name: name.to_owned(), runs: Vec::new(), summarised: 0, blocks: 0 });
        groups.len() - 1
    });
    &mut groups[i]
}

/// Where block `i` is drawn, `(x, y, w, h)`, for outlining the hovered block.
pub fn block_rect(
    index: &BlockIndex,
    blocks: &[BlockRecord],
    geometry: &Geometry,
    i: usize,
) -> Option<(f64, f64, f64, f64)> {
    let b = blocks.get(i)?;
    let lanes = index.sms.get(b.sm as usize)?;
    let lane = lanes.iter().position(|ids| {
        let from = ids.partition_point(|&j| blocks[j as usize].start < b.start);
        ids[from..].iter().take_while(|&&j| blocks[j as usize].start == b.start).any(|&j| j as usize == i)
    })?;
    let lane_h = geometry.lane_height(lanes.len());
    let x0 = geometry.x.map(b.start as f64);
    let x1 = geometry.x.map(index.ends[i] as f64);
    Some((x0, geometry.row_top(b.sm as usize) + lane as f64 * lane_h, (x1 - x0).max(1.0), lane_h.max(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(kernel: u32, block: u32, sm: u32, start: u64, end: u64) -> BlockRecord {
        BlockRecord { kernel, block, sm, start, end }
    }

    #[test]
    fn concurrent_blocks_take_separate_lanes_and_reuse_freed_ones() {
        let blocks = [block(0, 0, 0, 0, 100), block(0, 1, 0, 0, 50), block(0, 2, 0, 50, 120), block(0, 3, 1, 10, 20)];
        let index = BlockIndex::build(&blocks, &[], 2, 120);
        assert_eq!(index.sms, vec![vec![vec![1, 2], vec![0]], vec![vec![3]]]);
        assert_eq!(index.horizon, 120);
    }

    #[test]
    fn rows_cover_every_sm_and_unfinished_blocks_run_to_the_horizon() {
        let blocks = [block(0, 0, 5, 10, 0)];
        let index = BlockIndex::build(&blocks, &[], 2, 300);
        assert_eq!(index.sms.len(), 6);
        assert_eq!(index.ends, vec![300]);
    }

    #[test]
    fn empty_reports_lay_out_without_panicking() {
        let index = BlockIndex::build(&[], &[], 0, 0);
        let g = Geometry::new(&index, 0.0);
        assert!(g.height.is_finite() && g.width > 0.0);
        assert!(boxes(&index, &[], &g).is_empty());
        assert_eq!(hit(&index, &[], &g, 60.0, 10.0), None);
    }

    #[test]
    fn the_x_scale_spans_the_run_between_the_margins() {
        let blocks = [block(0, 0, 0, 0, 1000)];
        let index = BlockIndex::build(&blocks, &[], 1, 1000);
        let g = Geometry::new(&index, 1066.0);
        assert_eq!(g.x.map(0.0), LABEL_WIDTH);
        assert_eq!(g.x.map(1000.0), 1066.0 - RIGHT);
        assert_eq!(g.rows, 1);
        assert_eq!(g.row_pitch, ROW_PITCH_MAX);
    }

    #[test]
    fn many_sms_get_thin_rows_and_sparse_labels() {
        let index = BlockIndex::build(&[], &[], 132, 10);
        let g = Geometry::new(&index, 800.0);
        assert_eq!(g.row_pitch, ROW_PITCH_MIN);
        assert_eq!(g.label_every, 5);
        assert_eq!(g.height, TOP + 132.0 * 4.0 + AXIS_HEIGHT);
    }

    #[test]
    fn sub_pixel_boxes_merge_but_wide_ones_do_not() {
        // 10 000 one-cycle blocks of one kernel in a row over 1 000 pixels: 10 per pixel.
        let tiny: Vec<BlockRecord> = (0..10_000).map(|i| block(0, i, 0, i as u64, i as u64 + 1)).collect();
        let index = BlockIndex::build(&tiny, &[], 1, 10_000);
        let g = Geometry::new(&index, 1000.0 + LABEL_WIDTH + RIGHT);
        let b = boxes(&index, &tiny, &g);
        assert!(b.len() <= super::super::palette::SHADES as usize * 2, "{} boxes", b.len());
        let covered: f64 = b.iter().map(|r| r.w).sum();
        assert!((covered - 1000.0).abs() < 10.0, "merged boxes cover the run: {covered}");

        let wide = [block(0, 0, 0, 0, 500), block(0, 1, 0, 500, 1000)];
        let index = BlockIndex::build(&wide, &[], 1, 1000);
        let b = boxes(&index, &wide, &Geometry::new(&index, 1000.0 + LABEL_WIDTH + RIGHT));
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].w, 499.0, "a one-pixel gap separates neighbours");
        assert_eq!((b[0].shade, b[1].shade), (0, super::super::palette::SHADES - 1));
    }

    #[test]
    fn narrow_boxes_of_one_colour_join_but_keep_apart_from_other_colours_and_gaps() {
        // 2-pixel blocks back to back, the second kernel's after a pause.
        let mut blocks: Vec<BlockRecord> = (0..100).map(|i| block(0, 0, 0, 2 * i, 2 * i + 2)).collect();
        blocks.extend((0..10).map(|i| block(1, 0, 0, 300 + 2 * i, 302 + 2 * i)));
        let index = BlockIndex::build(&blocks, &[], 1, 320);
        let g = Geometry::new(&index, 320.0 + LABEL_WIDTH + RIGHT);
        let b = boxes(&index, &blocks, &g);
        assert_eq!(b.len(), 2, "one bar per kernel: {b:?}");
        assert_eq!((b[0].x, b[0].w), (g.x.map(0.0), 200.0), "no gap cut into a bar of narrow blocks");
        assert_eq!((b[1].kernel, b[1].x), (1, g.x.map(300.0)));
    }

    #[test]
    fn different_kernels_never_merge_and_slivers_are_bounded() {
        let one_run_after_another: Vec<BlockRecord> =
            (0..2000).map(|i| block(i / 1000, i % 1000, 0, i as u64, i as u64 + 1)).collect();
        let index = BlockIndex::build(&one_run_after_another, &[], 1, 2000);
        let b = boxes(&index, &one_run_after_another, &Geometry::new(&index, 500.0));
        assert!(b.iter().any(|r| r.kernel == 0) && b.iter().any(|r| r.kernel == 1));
        assert!(b.len() <= 2 * super::super::palette::SHADES as usize + 2, "{} boxes", b.len());

        let interleaved_in_one_pixel: Vec<BlockRecord> =
            (0..100).map(|i| block(i % 2, i / 2, 0, i as u64, i as u64 + 1)).collect();
        let index = BlockIndex::build(&interleaved_in_one_pixel, &[], 1, 100_000);
        let b = boxes(&index, &interleaved_in_one_pixel, &Geometry::new(&index, 500.0));
        assert_eq!(b.len(), 1, "slivers inside an already painted pixel add nothing");
    }

    #[test]
    fn the_legend_lists_each_kernel_once_with_its_runs() {
        let run = |name: &str, blocks| KernelReport { name: name.into(), blocks, ..Default::default() };
        let kernels = [run("step", 4), run("swap", 1), run("step", 4), run("step", 4)];
        let groups = kernel_groups(&kernels, &[]);
        assert_eq!(groups.len(), 2);
        assert_eq!((groups[0].name.as_str(), groups[0].runs.clone(), groups[0].blocks), ("step", vec![0, 2, 3], 12));
        assert_eq!((groups[1].name.as_str(), groups[1].runs.clone(), groups[1].blocks), ("swap", vec![1], 1));
        assert!(kernel_groups(&[], &[]).is_empty());
    }

    #[test]
    fn the_legend_counts_the_runs_a_report_summarised() {
        let run = |name: &str, blocks| KernelReport { name: name.into(), blocks, ..Default::default() };
        let summary = |name: &str, runs, blocks| RunGroup { name: name.into(), runs, blocks, ..Default::default() };
        let groups =
            kernel_groups(&[run("parent", 8), run("child", 1)], &[summary("child", 900, 900), summary("leaf", 5, 10)]);
        let seen: Vec<_> = groups.iter().map(|g| (g.name.as_str(), g.runs.clone(), g.summarised, g.blocks)).collect();
        assert_eq!(seen, [("parent", vec![0], 0, 8), ("child", vec![1], 900, 901), ("leaf", vec![], 5, 10)]);
        assert_eq!(groups[1].total_runs(), 901);
    }

    #[test]
    fn hovering_finds_the_block_in_its_lane() {
        let blocks = [block(0, 0, 0, 0, 100), block(0, 1, 0, 0, 50), block(0, 2, 0, 50, 120), block(1, 0, 1, 10, 20)];
        let index = BlockIndex::build(&blocks, &[], 2, 120);
        let g = Geometry::new(&index, 120.0 + LABEL_WIDTH + RIGHT);
        let lane_h = g.lane_height(2);
        let in_lane = |row: usize, lane: f64| g.row_top(row) + lane * lane_h + lane_h / 2.0;
        assert_eq!(hit(&index, &blocks, &g, g.x.map(30.0), in_lane(0, 1.0)), Some(0));
        assert_eq!(hit(&index, &blocks, &g, g.x.map(30.0), in_lane(0, 0.0)), Some(1));
        assert_eq!(hit(&index, &blocks, &g, g.x.map(80.0), in_lane(0, 0.0)), Some(2));
        assert_eq!(hit(&index, &blocks, &g, g.x.map(15.0), in_lane(1, 0.0)), Some(3));
        assert_eq!(hit(&index, &blocks, &g, g.x.map(90.0), in_lane(1, 0.0)), None);
        assert_eq!(hit(&index, &blocks, &g, 10.0, in_lane(0, 0.0)), None, "over the labels");
        assert_eq!(hit(&index, &blocks, &g, g.x.map(30.0), g.height), None, "below the rows");
        let (x, y, w, h) = block_rect(&index, &blocks, &g, 2).unwrap();
        assert_eq!((x, w), (g.x.map(50.0), g.x.map(120.0) - g.x.map(50.0)));
        assert_eq!((y, h), (g.row_top(0), lane_h));
        assert_eq!(block_rect(&index, &blocks, &g, 0).unwrap().1, g.row_top(0) + lane_h);
        assert_eq!(block_rect(&index, &blocks, &g, 9), None);
    }
}
