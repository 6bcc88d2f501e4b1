//! One SM's L1 line by line: sets as rows, ways as columns, each line coloured by the warp slot
//! (or thread block) that filled it, with lines hit or refilled since the previous snapshot
//! flashed. Large caches fold into side-by-side panels of sets, and a set wider than
//! [`WAYS_PER_ROW`] ways (the H100-like L1 has 256) wraps onto several rows.

use std::collections::HashMap;
use std::rc::Rc;

use warpscope_core::stats::snapshot::NONE;
use warpscope_core::stats::Snapshot;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use crate::canvas::{fill_rect, prepare, use_cell_hover, use_element_width, use_pixel_ratio};
use crate::draw_timing::timed;
use crate::format::grouped;
use crate::plot::cell_grid::{CellGrid, GridSpec};
use crate::plot::occupancy::block_in_slot;
use crate::plot::palette::{block_colour, categorical, flash_alpha, rgba, FILL_FLASH, HIT_FLASH, INK_SOFT, STALE};

/// Props of [`L1Heatmap`].
#[derive(Properties, PartialEq, Clone)]
pub struct L1HeatmapProps {
    /// The machine at one cycle; its `l1_*` fields picture one SM's L1.
    pub snapshot: Rc<Snapshot>,
    /// Colour lines by the thread block now in their owner's warp slot instead of by the slot.
    #[prop_or_default]
    pub colour_by_block: bool,
}

const FONT: &str = "11px system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif";
/// Panels of sets are headed by their range.
const HEADER: f64 = 16.0;
/// Cells at least this big get flashes as outlines; smaller ones are tinted whole.
const OUTLINE_FROM: f64 = 6.0;

/// Most ways drawn on one row: a wider set continues on the rows below.
const WAYS_PER_ROW: usize = 32;

/// How a set's ways are laid out on rows of the grid.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wrap {
    ways: usize,
    per_row: usize,
    rows_per_set: usize,
}

impl Wrap {
    fn of(snapshot: &Snapshot) -> Self {
        let ways = snapshot.l1_ways as usize;
        let per_row = ways.clamp(1, WAYS_PER_ROW);
        Wrap { ways, per_row, rows_per_set: ways.div_ceil(per_row).max(1) }
    }

    /// The grid row and column of a line.
    fn cell(&self, set: usize, way: usize) -> (usize, usize) {
        (set * self.rows_per_set + way / self.per_row, way % self.per_row)
    }

    /// The line at a grid row and column, if the cell holds one.
    fn line(&self, row: usize, col: usize) -> Option<(usize, usize)> {
        let way = (row % self.rows_per_set) * self.per_row + col;
        (col < self.per_row && way < self.ways).then_some((row / self.rows_per_set, way))
    }
}

/// Where the cache lines go for a canvas `width` wide.
fn layout(snapshot: &Snapshot, width: f64) -> CellGrid {
    let wrap = Wrap::of(snapshot);
    CellGrid::fit(
        GridSpec {
            rows: snapshot.l1_sets as usize * wrap.rows_per_set,
            cols: wrap.per_row,
            lead: 0.0,
            trail: 0.0,
            gap: 14.0,
            top: HEADER,
            row_gap: 0.0,
            cell_min: 2.0,
            row_min: 0.0,
            cell_max: 16.0,
            cell_enough: 9.0,
            max_height: 420.0,
        },
        width,
    )
}

/// A line's owner and recent activity, read off the snapshot.
struct Line {
    owner: u32,
    hits: u32,
    fills: u32,
}

fn line(snapshot: &Snapshot, set: usize, way: usize) -> Line {
    let i = set * snapshot.l1_ways as usize + way;
    Line {
        owner: snapshot.l1_owner.get(i).copied().unwrap_or(NONE),
        hits: snapshot.l1_hits_since.get(i).copied().unwrap_or(0),
        fills: snapshot.l1_fills_since.get(i).copied().unwrap_or(0),
    }
}

/// The colour of a line filled by warp slot `owner`: by slot, or by the block now in that slot
/// (a neutral shade when the slot holds no block any more).
fn owner_colour(snapshot: &Snapshot, owner: u32, by_block: bool) -> String {
    if !by_block {
        return categorical(owner as u64).css();
    }
    match block_in_slot(snapshot, snapshot.l1_sm as usize, owner as usize) {
        Some((run, block)) => block_colour(run, block).css(),
        None => STALE.to_owned(),
    }
}

/// The L1 of the snapshot's pictured SM.
#[function_component(L1Heatmap)]
pub fn l1_heatmap(props: &L1HeatmapProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let width = use_element_width(container.clone());
    let ratio = use_pixel_ratio();
    let snapshot = props.snapshot.clone();
    let grid = layout(&snapshot, width);
    let (hover, onmousemove, onmouseleave) = use_cell_hover(grid);

    {
        let (canvas, snapshot) = (canvas.clone(), snapshot.clone());
        use_effect_with((snapshot.clone(), props.colour_by_block, width, ratio), move |(_, by_block, _, _)| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                if let Some(context) = prepare(&element, grid.width, grid.height, ratio) {
                    timed("heatmap:draw", || draw(&context, &snapshot, &grid, *by_block));
                }
            }
        });
    }

    let has_picture = snapshot.l1_sets > 0 && snapshot.l1_ways > 0 && !snapshot.l1_owner.is_empty();
    let caption = format!(
        "L1 of SM {} at cycle {}: {} sets × {} ways",
        snapshot.l1_sm,
        grouped(snapshot.cycle),
        grouped(snapshot.l1_sets as u64),
        snapshot.l1_ways
    );
    let valid = snapshot.l1_owner.iter().filter(|&&o| o != NONE).count();
    let description = format!(
        "{caption}. {} of {} lines hold data; {} were hit and {} filled since the previous picture.",
        grouped(valid as u64),
        grouped(snapshot.l1_owner.len() as u64),
        grouped(snapshot.l1_hits_since.iter().filter(|&&h| h > 0).count() as u64),
        grouped(snapshot.l1_fills_since.iter().filter(|&&f| f > 0).count() as u64),
    );
    let size = format!("width: {}px; height: {}px;", grid.width, grid.height);
    html! {
        <figure class="viz heatmap" id="l1-heatmap">
            <div class="viz-toolbar"><figcaption>{ caption }</figcaption></div>
            <div class="viz-canvas-frame" ref={container}>
                if has_picture {
                    <canvas ref={canvas} style={size} role="img" aria-label={description}
                        {onmousemove} {onmouseleave} />
                    { hover
                        .and_then(|(row, col, x, y)| Wrap::of(&snapshot).line(row, col).map(|(set, way)| (set, way, x, y)))
                        .map(|(set, way, x, y)| tooltip(&snapshot, set, way, x, y, grid.width))
                        .unwrap_or_default() }
                } else {
                    <p class="viz-empty">{ "This snapshot has no picture of an L1." }</p>
                }
            </div>
            <ul class="viz-legend" aria-label="Legend">
                <li><span class="swatch empty" />{ "no data" }</li>
                <li><span class="swatch owners" />
                    { if props.colour_by_block { "colour: block in the owner's warp slot" } else { "colour: warp slot that filled the line" } }
                </li>
                if props.colour_by_block {
                    <li><span class="swatch" style={format!("background: {STALE};")} />{ "owner slot now holds no block" }</li>
                }
                <li><span class="swatch outline hit" />{ "hit since the previous picture" }</li>
                <li><span class="swatch outline fill" />{ "filled since the previous picture (old line evicted)" }</li>
            </ul>
        </figure>
    }
}

/// Panels of lines with their headers.
fn draw(context: &CanvasRenderingContext2d, snapshot: &Snapshot, grid: &CellGrid, by_block: bool) {
    let (sets, ways) = (snapshot.l1_sets as usize, snapshot.l1_ways as usize);
    let wrap = Wrap::of(snapshot);
    let rows = sets * wrap.rows_per_set;
    let inset = if grid.cell >= 5.0 { 1.0 } else { 0.0 };
    let side = grid.cell - inset;
    let origin = |set: usize, way: usize| {
        let (row, col) = wrap.cell(set, way);
        grid.cell_origin(row, col)
    };

    context.set_font(FONT);
    context.set_fill_style_str(INK_SOFT);
    context.set_text_baseline("alphabetic");
    for panel in 0..grid.panels {
        let first_row = panel * grid.rows_per_panel;
        if first_row >= rows {
            break;
        }
        let last_row = (first_row + grid.rows_per_panel).min(rows) - 1;
        let (x, y) = grid.row_origin(first_row);
        let height = (last_row - first_row + 1) as f64 * grid.row_pitch() + inset;
        fill_rect(context, "#e2e8f0", x, y, wrap.per_row as f64 * grid.cell + inset, height);
        context.set_fill_style_str(INK_SOFT);
        let (first, last) = (first_row / wrap.rows_per_set, last_row / wrap.rows_per_set);
        let label = if first == last { format!("set {first}") } else { format!("sets {first}–{last}") };
        let _ = context.fill_text(&label, x, HEADER - 5.0);
    }

    // Lines batched by colour, so each colour is set once.
    let mut by_colour: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
    let mut empty = Vec::new();
    let mut colours: HashMap<u32, String> = HashMap::new();
    for set in 0..sets {
        for way in 0..ways {
            let (x, y) = origin(set, way);
            let owner = line(snapshot, set, way).owner;
            if owner == NONE {
                empty.push((x, y));
            } else {
                let colour = colours.entry(owner).or_insert_with(|| owner_colour(snapshot, owner, by_block)).clone();
                by_colour.entry(colour).or_default().push((x, y));
            }
        }
    }
    fill_cells(context, "#ffffff", &empty, inset, side);
    for (colour, cells) in &by_colour {
        fill_cells(context, colour, cells, inset, side);
    }

    let max_hits = snapshot.l1_hits_since.iter().copied().max().unwrap_or(0);
    let max_fills = snapshot.l1_fills_since.iter().copied().max().unwrap_or(0);
    for set in 0..sets {
        for way in 0..ways {
            let l = line(snapshot, set, way);
            let (x, y) = origin(set, way);
            let (x, y) = (x + inset, y + inset);
            // Fills (evictions) take precedence: a line refilled and then hit shows both rings.
            if l.fills > 0 {
                flash(context, FILL_FLASH, flash_alpha(l.fills, max_fills), x, y, side, 0.0);
            }
            if l.hits > 0 {
                let ring = if l.fills > 0 { 2.0 } else { 0.0 };
                flash(context, HIT_FLASH, flash_alpha(l.hits, max_hits), x, y, side, ring);
            }
        }
    }
}

fn fill_cells(context: &CanvasRenderingContext2d, colour: &str, cells: &[(f64, f64)], inset: f64, side: f64) {
    context.set_fill_style_str(colour);
    context.begin_path();
    for &(x, y) in cells {
        context.rect(x + inset, y + inset, side, side);
    }
    context.fill();
}

/// Marks a cell: an outline `ring` pixels inside its edge when cells are big enough, else a tint.
fn flash(context: &CanvasRenderingContext2d, rgb: (u8, u8, u8), alpha: f64, x: f64, y: f64, side: f64, ring: f64) {
    if side >= OUTLINE_FROM {
        context.set_stroke_style_str(&rgba(rgb, alpha));
        context.set_line_width(1.5);
        let edge = 0.75 + ring;
        if side > 2.0 * edge {
            context.stroke_rect(x + edge, y + edge, side - 2.0 * edge, side - 2.0 * edge);
        }
    } else {
        context.set_fill_style_str(&rgba(rgb, alpha * 0.85));
        context.fill_rect(x, y, side, side);
    }
}

fn tooltip(snapshot: &Snapshot, set: usize, way: usize, x: f64, y: f64, width: f64) -> Html {
    let l = line(snapshot, set, way);
    let owner = if l.owner == NONE {
        "no data".to_owned()
    } else {
        match block_in_slot(snapshot, snapshot.l1_sm as usize, l.owner as usize) {
            Some((run, block)) => format!("warp slot {} (now kernel run {run}, block {block})", l.owner),
            None => format!("warp slot {} (now empty)", l.owner),
        }
    };
    let flip = x > width - 260.0;
    let style = format!(
        "left: {}px; top: {}px;{}",
        x + if flip { -12.0 } else { 12.0 },
        y + 12.0,
        if flip { " transform: translateX(-100%);" } else { "" }
    );
    html! {
        <div class="viz-tooltip" {style} role="status">
            <strong>{ format!("set {set}, way {way}") }</strong>
            <dl>
                <dt>{ "owner" }</dt><dd>{ owner }</dd>
                <dt>{ "hits" }</dt><dd>{ grouped(l.hits as u64) }</dd>
                <dt>{ "fills" }</dt><dd>{ grouped(l.fills as u64) }</dd>
            </dl>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap(sets: u32, ways: u32) -> Wrap {
        let snapshot = Snapshot { l1_sets: sets, l1_ways: ways, ..Snapshot::default() };
        Wrap::of(&snapshot)
    }

    #[test]
    fn narrow_sets_are_one_row_each_and_wide_ones_wrap_every_32_ways() {
        // The GTX 480's 32 sets × 4 ways: a row per set, a column per way.
        let fermi = wrap(32, 4);
        assert_eq!((fermi.per_row, fermi.rows_per_set), (4, 1));
        assert_eq!(fermi.cell(5, 3), (5, 3));
        // The H100-like 4 sets × 256 ways: 8 rows of 32 per set.
        let h100 = wrap(4, 256);
        assert_eq!((h100.per_row, h100.rows_per_set), (32, 8));
        assert_eq!(h100.cell(0, 255), (7, 31));
        assert_eq!(h100.cell(1, 0), (8, 0));
        assert_eq!(h100.cell(3, 40), (25, 8));
        // Every line has its own cell, and each cell names it back.
        for (sets, ways) in [(32, 4), (4, 256), (2, 48), (1, 1)] {
            let w = wrap(sets, ways);
            for set in 0..sets as usize {
                for way in 0..ways as usize {
                    let (row, col) = w.cell(set, way);
                    assert_eq!(w.line(row, col), Some((set, way)), "{sets}×{ways}: set {set}, way {way}");
                }
            }
        }
        // 48 ways: the second row of a set has 16 lines, and the rest of it is no line.
        assert_eq!(wrap(2, 48).line(1, 20), None);
    }
}
