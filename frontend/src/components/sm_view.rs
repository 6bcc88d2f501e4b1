//! Warp-slot occupancy of every SM at one cycle: a compact row of cells per SM coloured by what
//! each warp slot is doing, the number of resident blocks, and a bar of the whole machine's
//! shares of warp states.

use std::rc::Rc;

use warpscope_core::stats::{Snapshot, WarpState};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use crate::canvas::{fill_rect, prepare, use_cell_hover, use_element_width, use_pixel_ratio};
use crate::draw_timing::timed;
use crate::format::grouped;
use crate::plot::cell_grid::{CellGrid, GridSpec};
use crate::plot::occupancy::{block_in_slot, resident_blocks, state_counts};
use crate::plot::palette::{warp_state_colour, INK_SOFT};
use crate::plot::scale::label_stride;

/// Props of [`SmOccupancy`].
#[derive(Properties, PartialEq, Clone)]
pub struct SmOccupancyProps {
    /// The machine at one cycle.
    pub snapshot: Rc<Snapshot>,
}

const FONT: &str = "11px system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif";
const HEADER: f64 = 16.0;
const LABEL_WIDTH: f64 = 48.0;
const COUNT_WIDTH: f64 = 44.0;
/// Rows at least this tall (with the gap below them) carry an "SM n" label each.
const LABELLED_ROW: f64 = 12.0;

/// Where the SM rows go for a canvas `width` wide.
fn layout(snapshot: &Snapshot, width: f64) -> CellGrid {
    CellGrid::fit(
        GridSpec {
            rows: snapshot.sm_count(),
            cols: snapshot.warps_per_sm as usize,
            lead: LABEL_WIDTH,
            trail: COUNT_WIDTH,
            gap: 20.0,
            top: HEADER,
            row_gap: 1.0,
            cell_min: 2.0,
            // Rows tall enough for a label each, when the height allows: the cells of a narrow
            // view become thin bars rather than dots.
            row_min: LABELLED_ROW - 1.0,
            cell_max: 12.0,
            cell_enough: 6.0,
            max_height: 460.0,
        },
        width,
    )
}

/// Warp slots of every SM by state, with resident-block counts and machine-wide shares.
#[function_component(SmOccupancy)]
pub fn sm_occupancy(props: &SmOccupancyProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let width = use_element_width(container.clone());
    let ratio = use_pixel_ratio();
    let snapshot = props.snapshot.clone();
    let grid = layout(&snapshot, width);
    let (hover, onmousemove, onmouseleave) = use_cell_hover(grid);

    {
        let (canvas, snapshot) = (canvas.clone(), snapshot.clone());
        use_effect_with((snapshot.clone(), width, ratio), move |_| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                if let Some(context) = prepare(&element, grid.width, grid.height, ratio) {
                    timed("sm-occupancy:draw", || draw(&context, &snapshot, &grid));
                }
            }
        });
    }

    let counts = state_counts(&snapshot);
    let slots: u64 = counts.iter().sum();
    let share = |state: WarpState| if slots == 0 { 0.0 } else { counts[state as usize] as f64 / slots as f64 };
    let description = format!(
        "Warp slots of {} SMs at cycle {}: {}",
        snapshot.sm_count(),
        grouped(snapshot.cycle),
        WarpState::ALL
            .iter()
            .filter(|&&s| counts[s as usize] > 0)
            .map(|&s| format!("{} {}", grouped(counts[s as usize]), s.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let size = format!("width: {}px; height: {}px;", grid.width, grid.height);
    html! {
        <figure class="viz sm-occupancy" id="sm-occupancy">
            <div class="viz-toolbar">
                <figcaption>{ format!("Warp slots per SM at cycle {}", grouped(snapshot.cycle)) }</figcaption>
            </div>
            <div class="viz-state-bar" role="img" aria-label={format!("Machine-wide shares. {description}")}>
                { for WarpState::ALL.iter().filter(|&&s| counts[s as usize] > 0).map(|&s| html! {
                    <span style={format!("flex-grow: {}; background: {};", counts[s as usize], warp_state_colour(s))}
                        title={format!("{}: {:.1} %", s.label(), 100.0 * share(s))} />
                }) }
            </div>
            <ul class="viz-legend" aria-label="Warp states">
                { for WarpState::ALL.iter().map(|&s| html! {
                    <li><span class="swatch" style={format!("background: {};", warp_state_colour(s))} />
                        { s.label() }<span class="share">{ format!("{:.0} %", 100.0 * share(s)) }</span></li>
                }) }
            </ul>
            <div class="viz-canvas-frame" ref={container}>
                if slots > 0 {
                    <canvas ref={canvas} style={size} role="img" aria-label={description}
                        {onmousemove} {onmouseleave} />
                    { hover.map(|(sm, slot, x, y)| tooltip(&snapshot, sm, slot, x, y, grid.width)).unwrap_or_default() }
                } else {
                    <p class="viz-empty">{ "This snapshot has no warp slots." }</p>
                }
            </div>
        </figure>
    }
}

/// Rows of cells, SM labels, block counts and column headers.
fn draw(context: &CanvasRenderingContext2d, snapshot: &Snapshot, grid: &CellGrid) {
    let sms = snapshot.sm_count();
    let slots = snapshot.warps_per_sm as usize;
    let inset = if grid.cell >= 5.0 { 1.0 } else { 0.0 };
    let (width, height) = (grid.cell - inset, grid.cell_height);

    // Cells batched by state, so each colour is set once.
    for state in WarpState::ALL {
        context.set_fill_style_str(warp_state_colour(state));
        context.begin_path();
        for sm in 0..sms {
            for slot in 0..slots {
                if snapshot.warp(sm, slot) == state {
                    let (x, y) = grid.cell_origin(sm, slot);
                    context.rect(x, y, width, height);
                }
            }
        }
        context.fill();
    }

    context.set_font(FONT);
    context.set_fill_style_str(INK_SOFT);
    let cells_width = slots as f64 * grid.cell;
    for panel in 0..grid.panels.min(sms.div_ceil(grid.rows_per_panel.max(1))) {
        let (x, _) = grid.row_origin(panel * grid.rows_per_panel);
        context.set_text_baseline("alphabetic");
        context.set_text_align("left");
        let _ = context.fill_text("warp slots", x + LABEL_WIDTH, HEADER - 5.0);
        context.set_text_align("right");
        let _ = context.fill_text("blocks", x + LABEL_WIDTH + cells_width + COUNT_WIDTH, HEADER - 5.0);
    }
    // Every row labelled when rows are tall enough, else every 2nd, 5th, 10th…; the tooltip
    // names the SM under the pointer either way.
    let every = label_stride((LABELLED_ROW / grid.row_pitch()).ceil() as usize);
    context.set_text_baseline("middle");
    for sm in 0..sms {
        let (x, y) = grid.row_origin(sm);
        let mid = y + height / 2.0;
        let blocks = resident_blocks(snapshot, sm);
        if sm % every == 0 {
            context.set_text_align("right");
            let _ = context.fill_text(&format!("SM {sm}"), x + LABEL_WIDTH - 6.0, mid);
            context.set_text_align("right");
            let _ = context.fill_text(&blocks.to_string(), x + LABEL_WIDTH + cells_width + COUNT_WIDTH, mid);
        } else if blocks > 0 {
            // Too tight for digits: a tick whose length shows the count relative to the slots.
            let length = (blocks as f64 / slots.max(1) as f64 * (COUNT_WIDTH - 8.0)).clamp(2.0, COUNT_WIDTH - 8.0);
            fill_rect(
                context,
                INK_SOFT,
                x + LABEL_WIDTH + cells_width + COUNT_WIDTH - length,
                y,
                length,
                height.max(1.0),
            );
        }
    }
}

fn tooltip(snapshot: &Snapshot, sm: usize, slot: usize, x: f64, y: f64, width: f64) -> Html {
    let state = snapshot.warp(sm, slot);
    let block = block_in_slot(snapshot, sm, slot)
        .map_or_else(|| "none".to_owned(), |(run, block)| format!("kernel run {run}, block {}", grouped(block as u64)));
    let flip = x > width - 240.0;
    let style = format!(
        "left: {}px; top: {}px;{}",
        x + if flip { -12.0 } else { 12.0 },
        y + 12.0,
        if flip { " transform: translateX(-100%);" } else { "" }
    );
    html! {
        <div class="viz-tooltip" {style} role="status">
            <strong>{ format!("SM {sm}, warp slot {slot}") }</strong>
            <dl>
                <dt>{ "state" }</dt><dd>{ state.label() }</dd>
                <dt>{ "block" }</dt><dd>{ block }</dd>
                <dt>{ "resident blocks" }</dt><dd>{ resident_blocks(snapshot, sm) }</dd>
            </dl>
        </div>
    }
}
