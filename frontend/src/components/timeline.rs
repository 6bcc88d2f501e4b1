//! The thread-block timeline: one row per SM, a box per thread block from dispatch to finish,
//! coloured by kernel run and shaded across its grid so that block placement shows at a glance.
//!
//! The blocks are drawn on a canvas, redrawn only when the report, the width or the pixel
//! density changes. The playback cursor and the hovered block's outline are small elements
//! over it: moving them repaints a few pixels, where redrawing an overlay canvas the size of
//! the timeline repainted all of it on every frame of playback.

use std::rc::Rc;

use warpscope_core::stats::Report;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, KeyboardEvent, MouseEvent};
use yew::prelude::*;

use crate::canvas::{fill_rect, prepare, use_element_width, use_pixel_ratio};
use crate::download::download_canvas_png;
use crate::draw_timing::timed;
use crate::format::{grouped, percent};
use crate::identity::{same_or_equal, Same};
use crate::plot::lineage::{self, ColourMode, MARK_COLOUR};
use crate::plot::palette::{kernel_shade, INK_SOFT, LINE, QUALITATIVE_LEN, SHADES};
use crate::plot::previous_sm::{Previous, PreviousSm, SameSm};
use crate::plot::programs;
use crate::plot::scale::{format_cycles, nice_ticks};
use crate::plot::timeline::{
    block_rect, boxes, boxes_by, hit, kernel_groups, BlockIndex, BoxRect, Geometry, LABEL_WIDTH,
};

/// Props of [`Timeline`].
#[derive(Properties, Clone)]
pub struct TimelineProps {
    /// The run to show.
    pub report: Rc<Report>,
    /// SMs of the machine (rows; SMs that ran nothing still get one).
    pub sm_count: u32,
    /// The playback cycle, drawn as a vertical line.
    pub cursor: Option<u64>,
    /// Called with a cycle when the timeline is clicked, or moved along with the arrow keys.
    #[prop_or_default]
    pub on_seek: Option<Callback<u64>>,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        // The same report object is the common case and must not cost a deep comparison.
        same_or_equal(&self.report, &other.report)
            && self.sm_count == other.sm_count
            && self.cursor == other.cursor
            && self.on_seek == other.on_seek
    }
}

/// The block under the pointer and where the pointer is.
#[derive(Clone, Copy, PartialEq)]
struct Hover {
    block: usize,
    x: f64,
    y: f64,
}

/// Kernels listed in the legend before "and N more".
const LEGEND_MAX: usize = 16;
const FONT: &str = "11px system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif";

/// The thread-block timeline of a run, with hover details, click-to-seek and PNG export.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let container = use_node_ref();
    let base = use_node_ref();
    let width = use_element_width(container.clone());
    let ratio = use_pixel_ratio();
    let report = props.report.clone();
    let index = use_memo((Same(report.clone()), props.sm_count), |(r, sms)| {
        timed("timeline:index", || BlockIndex::build(&r.0.blocks, &r.0.kernels, *sms, r.0.cycles))
    });
    let previous = use_memo(Same(report.clone()), |r| {
        timed("timeline:previous-sm", || PreviousSm::build(&r.0.blocks, &r.0.kernels))
    });
    let geometry = Rc::new(Geometry::new(&index, width));
    let hover = use_state_eq(|| None::<Hover>);
    let lineage = use_memo(Same(report.clone()), |r| lineage::has_device_launches(&r.0.kernels));
    let offered = ColourMode::offered(!report.run_parts.is_empty(), *lineage);
    let chosen = use_state_eq(|| None::<ColourMode>);
    // The person's choice where this report offers it, else the first offered: programs side
    // by side by program, any other run by kernel run.
    let mode = (*chosen).filter(|m| offered.contains(m)).unwrap_or(offered[0]);

    {
        let (base, report, index, geometry) = (base.clone(), report.clone(), index.clone(), geometry.clone());
        use_effect_with((Same(report.clone()), props.sm_count, width, ratio, mode), move |&(_, _, _, _, mode)| {
            if let Some(canvas) = base.cast::<HtmlCanvasElement>() {
                if let Some(context) = prepare(&canvas, geometry.width, geometry.height, ratio) {
                    timed("timeline:blocks", || draw_blocks(&context, &report, &index, &geometry, mode));
                }
            }
        });
    }
    let on_mode = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(mode) = ColourMode::from_id(&select.value()) {
                chosen.set(Some(mode));
            }
        })
    };
    let onmousemove = {
        let (hover, report, index, geometry) = (hover.clone(), report.clone(), index.clone(), geometry.clone());
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x() as f64, e.offset_y() as f64);
            let block = timed("timeline:hit", || hit(&index, &report.blocks, &geometry, x, y));
            hover.set(block.map(|block| Hover { block, x, y }));
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_: MouseEvent| hover.set(None))
    };
    let onclick = props.on_seek.clone().map(|seek| {
        let geometry = geometry.clone();
        let horizon = index.horizon;
        Callback::from(move |e: MouseEvent| {
            let x = e.offset_x() as f64;
            let (left, right) = geometry.x.range();
            if x >= left - 2.0 && x <= right + 2.0 {
                seek.emit(geometry.x.invert(x).round().clamp(0.0, horizon as f64) as u64);
            }
        })
    });
    // No cursor means the end of the run, as in playback.
    let position = props.cursor.unwrap_or(index.horizon).min(index.horizon);
    let onkeydown = props.on_seek.clone().map(|seek| {
        let (horizon, cursor) = (index.horizon, position);
        Callback::from(move |e: KeyboardEvent| {
            let step = (horizon / if e.shift_key() { 10 } else { 100 }).max(1);
            let target = match e.key().as_str() {
                "ArrowLeft" | "ArrowDown" => cursor.saturating_sub(step),
                "ArrowRight" | "ArrowUp" => (cursor + step).min(horizon),
                "Home" => 0,
                "End" => horizon,
                _ => return,
            };
            e.prevent_default();
            seek.emit(target);
        })
    });
    let export = {
        let base = base.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(canvas) = base.cast::<HtmlCanvasElement>() {
                download_canvas_png(&canvas, "timeline.png");
            }
        })
    };

    let summary = format!(
        "Thread-block timeline: {} blocks of {} kernel runs on {} SMs over {} cycles{}",
        grouped(report.blocks_finished),
        grouped(report.runs_total()),
        index.sms.len(),
        grouped(report.cycles),
        sampled(&report).map(|note| format!("; {note}")).unwrap_or_default(),
    );
    let size = format!("width: {}px; height: {}px;", geometry.width, geometry.height);
    let seekable = props.on_seek.is_some();
    let tooltip = hover.and_then(|h| tooltip(&report, h, &geometry, &previous, *lineage));
    html! {
        <figure class="viz timeline" id="timeline">
            <div class="viz-toolbar">
                <figcaption>{ "Thread blocks over time, per SM" }</figcaption>
                if offered.len() > 1 {
                    <label class="viz-mode">{ "Colour by " }
                        <select id="timeline-colour" onchange={on_mode}>
                            { for offered.iter().map(|m| html! {
                                <option value={m.id()} selected={*m == mode}>{ m.label() }</option>
                            }) }
                        </select>
                    </label>
                }
                <button type="button" class="viz-export" onclick={export}
                    title="Save the timeline as a PNG image" aria-label="Save the timeline as a PNG image">{ "PNG" }</button>
            </div>
            // Seekable, the frame is a slider; a slider's content is hidden from screen readers,
            // so the picture's summary moves to its description.
            <div class="viz-canvas-frame" ref={container}
                tabindex={seekable.then_some("0")}
                role={seekable.then_some("slider")}
                aria-label={seekable.then_some("Playback position on the timeline")}
                aria-describedby={seekable.then_some("timeline-summary timeline-keys")}
                aria-valuemin={seekable.then_some("0")}
                aria-valuemax={seekable.then(|| index.horizon.to_string())}
                aria-valuenow={seekable.then(|| position.to_string())}
                aria-valuetext={seekable.then(|| format!("cycle {} of {}", grouped(position), grouped(index.horizon)))}
                onkeydown={onkeydown}>
                if report.blocks.is_empty() {
                    <p class="viz-empty">{ "No thread block ran in this run." }</p>
                } else {
                    <canvas ref={base} style={size} role="img" aria-label={summary.clone()}
                        class={classes!(seekable.then_some("seekable"))} {onmousemove} {onmouseleave} onclick={onclick} />
                    { cursor_mark(&index, &geometry, props.cursor) }
                    { hover.map(|h| hover_mark(&index, &report, &geometry, h.block)).unwrap_or_default() }
                    { tooltip.unwrap_or_default() }
                }
            </div>
            if mode == ColourMode::Kernel {
                { legend(&report) }
            } else if mode == ColourMode::Program {
                { program_legend(&report) }
            } else {
                { lineage_legend(&report, mode, marks_fit(&index, &geometry)) }
            }
            if let Some(note) = sampled(&report) {
                <p class="viz-hint" id="timeline-sampled">{ note }</p>
            }
            if mode == ColourMode::ParentSm {
                <p class="viz-hint" id="timeline-on-parent-sm">{ on_parent_sm_note(&report) }</p>
            }
            if mode == ColourMode::Depth && report.blocks.iter().any(|b| b.kernel as usize >= report.kernels.len()) {
                <p class="viz-hint" id="timeline-not-kept">{ not_kept_note(&report).trim_start().to_owned() }</p>
            }
            if let Some(note) = same_sm_note(&previous) {
                <p class="viz-hint" id="timeline-same-sm">{ note }</p>
            }
            if seekable {
                <p class="sr-only" id="timeline-summary">{ summary }</p>
                <p class="viz-hint" id="timeline-keys">
                    { "Click to move playback there, or focus the timeline and use ← → (with Shift: bigger steps), Home and End." }
                </p>
            }
        </figure>
    }
}

/// Blocks, row labels and the cycle axis.
fn draw_blocks(
    context: &CanvasRenderingContext2d,
    report: &Report,
    index: &BlockIndex,
    geometry: &Geometry,
    mode: ColourMode,
) {
    let rows_bottom = geometry.rows_bottom();
    let (left, right) = geometry.x.range();
    // Every other row faintly banded, when rows are tall enough for bands to help the eye.
    if geometry.row_pitch >= 8.0 {
        for row in (1..geometry.rows).step_by(2) {
            fill_rect(context, "#f8fafc", left, geometry.row_top(row), right - left, geometry.row_pitch);
        }
    }
    let ticks = nice_ticks(0.0, index.horizon as f64, ((right - left) / 90.0).max(2.0) as usize);
    context.set_stroke_style_str(LINE);
    context.set_line_width(1.0);
    context.begin_path();
    for &t in &ticks {
        let x = geometry.x.map(t).round() + 0.5;
        context.move_to(x, geometry.top);
        context.line_to(x, rows_bottom);
    }
    context.stroke();

    if matches!(mode, ColourMode::Kernel | ColourMode::Program) {
        // One fill per colour: boxes are bucketed by (hue, shade) first. A program's blocks
        // take its hue; a block of no program the last.
        let by_program = |i: usize| (programs::class(report, &report.blocks[i]), index.shades[i]);
        let drawn = if mode == ColourMode::Program {
            boxes_by(index, &report.blocks, geometry, by_program)
        } else {
            boxes(index, &report.blocks, geometry)
        };
        let mut buckets: Vec<Vec<_>> = vec![Vec::new(); QUALITATIVE_LEN * SHADES as usize];
        for b in drawn {
            buckets[(b.kernel as usize % QUALITATIVE_LEN) * SHADES as usize + b.shade as usize].push(b);
        }
        for (key, rects) in buckets.iter().enumerate().filter(|(_, r)| !r.is_empty()) {
            fill_boxes(context, &kernel_shade(key / SHADES as usize, (key % SHADES as usize) as u8).css(), rects);
        }
    } else {
        draw_lineage(context, report, index, geometry, mode);
    }

    context.set_font(FONT);
    context.set_fill_style_str(INK_SOFT);
    context.set_text_align("right");
    context.set_text_baseline("middle");
    for row in (0..geometry.rows).step_by(geometry.label_every) {
        let y = geometry.row_top(row) + geometry.row_height / 2.0;
        let _ = context.fill_text(&format!("SM {row}"), LABEL_WIDTH - 8.0, y);
    }
    if mode == ColourMode::ParentSm {
        // Each row's own colour at its left, so a block in its row's colour reads as a child
        // on its parent's SM even where lanes are too thin for the mark.
        let side = geometry.row_height.min(6.0);
        for row in 0..geometry.rows {
            let y = geometry.row_top(row) + (geometry.row_height - side) / 2.0;
            fill_rect(context, &lineage::sm_colour(row as u32), 1.0, y, side, side);
        }
        context.set_fill_style_str(INK_SOFT);
    }

    context.set_stroke_style_str(INK_SOFT);
    context.begin_path();
    context.move_to(left, rows_bottom + 0.5);
    context.line_to(right, rows_bottom + 0.5);
    for &t in &ticks {
        let x = geometry.x.map(t).round() + 0.5;
        context.move_to(x, rows_bottom);
        context.line_to(x, rows_bottom + 4.0);
    }
    context.stroke();
    context.set_text_baseline("top");
    let _ = context.fill_text("cycle", LABEL_WIDTH - 8.0, rows_bottom + 7.0);
    context.set_text_align("center");
    for (i, &t) in ticks.iter().enumerate() {
        // The first and last labels hug the ends so that they are not cut off.
        let align = if i == 0 && geometry.x.map(t) - left < 20.0 { "left" } else { "center" };
        context.set_text_align(align);
        let _ = context.fill_text(&format_cycles(t), geometry.x.map(t), rows_bottom + 7.0);
    }
}

/// Fills `rects` in `colour` with one path.
fn fill_boxes(context: &CanvasRenderingContext2d, colour: &str, rects: &[BoxRect]) {
    context.set_fill_style_str(colour);
    context.begin_path();
    for r in rects {
        context.rect(r.x, r.y, r.w, r.h);
    }
    context.fill();
}

/// Blocks coloured by their parent's SM or their nesting depth ([`lineage`]); a child that ran
/// on its parent's SM gets a dark bar along its top edge where its lane is tall enough.
fn draw_lineage(
    context: &CanvasRenderingContext2d,
    report: &Report,
    index: &BlockIndex,
    geometry: &Geometry,
    mode: ColourMode,
) {
    let boxes = boxes_by(index, &report.blocks, geometry, |i| lineage::class(mode, &report.kernels, &report.blocks[i]));
    let classes = boxes.iter().map(|b| b.kernel as usize + 1).max().unwrap_or(0);
    let mut buckets: Vec<Vec<BoxRect>> = vec![Vec::new(); classes];
    for b in &boxes {
        buckets[b.kernel as usize].push(*b);
    }
    for (class, rects) in buckets.iter().enumerate().filter(|(_, r)| !r.is_empty()) {
        fill_boxes(context, &lineage::class_colour(mode, class as u32), rects);
    }
    let marks: Vec<BoxRect> = boxes.iter().filter_map(lineage::mark).collect();
    fill_boxes(context, MARK_COLOUR, &marks);
}

/// The playback cursor: a line over the rows with a handle on the axis (see `.timeline-cursor`).
fn cursor_mark(index: &BlockIndex, geometry: &Geometry, cursor: Option<u64>) -> Html {
    let Some(cycle) = cursor else { return Html::default() };
    let x = geometry.x.map(cycle.min(index.horizon) as f64).round();
    let style = format!(
        "transform: translateX({x}px); top: {}px; height: {}px;",
        geometry.top,
        geometry.rows_bottom() - geometry.top
    );
    html! { <div class="timeline-cursor" aria-hidden="true" {style} /> }
}

/// An outline around the hovered block.
fn hover_mark(index: &BlockIndex, report: &Report, geometry: &Geometry, block: usize) -> Html {
    let Some((x, y, w, h)) = block_rect(index, &report.blocks, geometry, block) else { return Html::default() };
    // 1.5 px outside the box, as a 1.5 px border.
    let style = format!("left: {}px; top: {}px; width: {}px; height: {}px;", x - 1.5, y - 1.5, w + 3.0, h + 3.0);
    html! { <div class="timeline-hover" aria-hidden="true" {style} /> }
}

/// For a grid too large to keep every block's record, which blocks the timeline draws.
fn sampled(report: &Report) -> Option<String> {
    let stride = report.block_record_stride;
    (stride > 1).then(|| {
        format!(
            "{} blocks ran, more than a report keeps: one block in every {} is drawn ({} of them), evenly spread \
             over the run in the order blocks finished.",
            grouped(report.blocks_finished),
            grouped(stride),
            grouped(report.blocks.len() as u64)
        )
    })
}

/// How many blocks of host launches after the first ran on the SM their block index ran on in the
/// previous launch (what inter-kernel reuse needs); nothing for a run of one launch.
fn same_sm_note(previous: &PreviousSm) -> Option<String> {
    let SameSm { same, compared } = previous.total;
    (compared > 0).then(|| {
        let launches = previous.runs_compared;
        let left_out = match previous.not_kept {
            0 => String::new(),
            n => format!(
                " {} block{} whose previous launch's record the report did not keep {} left out.",
                grouped(n),
                if n == 1 { "" } else { "s" },
                if n == 1 { "is" } else { "are" }
            ),
        };
        format!(
            "Blocks that ran on the same SM as the same block index in the previous host launch: {} of {} ({}), over {} launch{} \
             after the first.{left_out}",
            grouped(same),
            grouped(compared),
            percent(same, compared),
            grouped(launches),
            if launches == 1 { "" } else { "es" },
        )
    })
}

/// The tooltip's words for where the block's index ran in the previous launch.
fn previous_words(previous: Previous, sm: u32) -> String {
    match previous.sm {
        Some(before) if before == sm => format!("SM {before} in run {} (same SM)", previous.run),
        Some(before) => format!("SM {before} in run {} (moved)", previous.run),
        None => format!("run {} (record not kept)", previous.run),
    }
}

/// The tooltip's words for how many of a run's blocks stayed on their SM: "of the run's
/// blocks" when every one was compared, else "of those compared" (records thinned, or block
/// indices no earlier launch had).
fn stayed_words(run: SameSm, grid: Option<u32>) -> String {
    let (same, compared) = (grouped(run.same), grouped(run.compared));
    if grid.is_some_and(|g| u64::from(g) == run.compared) {
        format!("{same} of {compared} blocks of this run")
    } else {
        format!("{same} of the {compared} blocks compared")
    }
}

/// The hovered block's details, placed beside the pointer.
fn tooltip(report: &Report, hover: Hover, geometry: &Geometry, previous: &PreviousSm, lineage: bool) -> Option<Html> {
    let b = report.blocks.get(hover.block)?;
    // A run the report summarised may have no name kept (several kernels' runs were).
    let name = report.run_name(b.kernel).map_or_else(|| format!("kernel run {}", b.kernel), str::to_owned);
    // Beside the pointer, to its left near the right edge, and above it in the lower half (the
    // frame clips what overflows it).
    let flip = hover.x > geometry.width - 240.0;
    let raise = hover.y > geometry.height / 2.0;
    let style = format!(
        "left: {}px; top: {}px; transform: translate({}, {});",
        hover.x + if flip { -12.0 } else { 12.0 },
        hover.y + if raise { -12.0 } else { 12.0 },
        if flip { "-100%" } else { "0" },
        if raise { "-100%" } else { "0" },
    );
    let end = if b.end < b.start { None } else { Some(b.end) };
    Some(html! {
        <div class="viz-tooltip" {style} role="status">
            <strong>{ name }</strong>
            <dl>
                if let Some(p) = programs::of_run(report, b.kernel) {
                    <dt>{ "program" }</dt><dd class="program">{ report.parts[p].name.clone() }</dd>
                }
                <dt>{ "kernel run" }</dt><dd>{ b.kernel }</dd>
                <dt>{ "block" }</dt><dd>{ grouped(b.block as u64) }</dd>
                <dt>{ "SM" }</dt><dd>{ b.sm }</dd>
                <dt>{ "start" }</dt><dd>{ grouped(b.start) }</dd>
                <dt>{ "end" }</dt><dd>{ end.map_or_else(|| "running".to_owned(), grouped) }</dd>
                <dt>{ "duration" }</dt>
                <dd>{ end.map_or_else(|| "–".to_owned(), |e| format!("{} cycles", grouped(e - b.start))) }</dd>
                if lineage {
                    <dt>{ "parent" }</dt><dd class="parent">{ lineage::parent_words(lineage::origin(&report.kernels, b.kernel), b.sm) }</dd>
                    <dt>{ "depth" }</dt><dd class="depth">{ lineage::depth_words(lineage::origin(&report.kernels, b.kernel)) }</dd>
                }
                if let Some(p) = previous.of(hover.block) {
                    <dt>{ "previous run" }</dt><dd class="previous-run">{ previous_words(p, b.sm) }</dd>
                }
                if let Some(run) = previous.run(b.kernel) {
                    <dt>{ "stayed on their SM" }</dt>
                    <dd class="stayed">{ stayed_words(run, report.kernels.get(b.kernel as usize).map(|k| k.blocks)) }</dd>
                }
            </dl>
        </div>
    })
}

/// Kernels with their colours: one ramp (first blocks light, last dark) for a kernel run once,
/// the hues of its runs side by side for a kernel run several times.
fn legend(report: &Report) -> Html {
    let groups = kernel_groups(&report.kernels, &report.run_groups);
    let shown = groups.len().min(LEGEND_MAX);
    let more = groups.len() - shown;
    html! {
        <ul class="viz-legend" aria-label="Kernels">
            { for groups.iter().take(shown).map(|group| {
                let runs = group.total_runs();
                let (swatch, title) = if runs == 1 && group.summarised == 0 {
                    let k = group.runs[0];
                    let ramp = format!(
                        "background: linear-gradient(to right, {}, {});",
                        kernel_shade(k, 0).css(),
                        kernel_shade(k, SHADES - 1).css()
                    );
                    (ramp, format!("kernel run {k}: {} blocks, lighter → darker by block index", grouped(group.blocks)))
                } else if group.summarised == 0 {
                    (run_stripes(&group.runs), format!(
                        "{runs} runs ({}), {} blocks in all: each run in its own colour, lighter → darker by block index",
                        run_list(&group.runs),
                        grouped(group.blocks)
                    ))
                } else {
                    // The summarised runs' ids are not kept; with this many runs every hue is used.
                    let every_hue: Vec<usize> = (0..QUALITATIVE_LEN).collect();
                    let whole = if group.runs.is_empty() { String::new() } else { format!("{} kept whole, ", run_list(&group.runs)) };
                    (run_stripes(&every_hue), format!(
                        "{} runs ({whole}{} totalled in the report), {} blocks in all: each run in its own colour",
                        grouped(runs),
                        grouped(group.summarised),
                        grouped(group.blocks)
                    ))
                };
                html! {
                    <li {title}>
                        <span class="swatch ramp" style={swatch} />{ group.name.clone() }
                        if runs > 1 {
                            <span class="runs">{ format!("× {}", grouped(runs)) }</span>
                        }
                    </li>
                }
            }) }
            if more > 0 {
                <li class="more">{ format!("and {more} more kernels") }</li>
            }
        </ul>
    }
}

/// Each program of programs side by side with its hue (lighter → darker by block index) and
/// the blocks of it drawn.
fn program_legend(report: &Report) -> Html {
    html! {
        <ul class="viz-legend" id="timeline-program-legend" aria-label="Programs">
            { for programs::legend(report).into_iter().enumerate().map(|(p, (name, blocks))| {
                let ramp = format!(
                    "background: linear-gradient(to right, {}, {});",
                    kernel_shade(p, 0).css(),
                    kernel_shade(p, SHADES - 1).css()
                );
                html! {
                    <li title={format!("{} blocks drawn, lighter → darker by block index", grouped(blocks))}>
                        <span class="swatch ramp" style={ramp} />{ name }
                        <span class="runs">{ grouped(blocks) }</span>
                    </li>
                }
            }) }
        </ul>
    }
}

/// The classes of a lineage colouring with their block counts, and the mark of a child on its
/// parent's SM.
fn lineage_legend(report: &Report, mode: ColourMode, marks: bool) -> Html {
    let entries = lineage::legend(mode, &report.kernels, &report.blocks);
    let shown = entries.len().min(LEGEND_MAX + 2);
    let more = entries.len() - shown;
    let noun = |n: u64| if n == 1 { "block" } else { "blocks" };
    html! {
        <ul class="viz-legend" id="timeline-lineage-legend"
            aria-label={if mode == ColourMode::ParentSm { "Parent's SM" } else { "Nesting depth" }}>
            { for entries.iter().take(shown).map(|e| html! {
                <li data-class={e.class.to_string()} title={format!("{} {} drawn", grouped(e.blocks), noun(e.blocks))}>
                    <span class="swatch" style={format!("background: {};", e.colour)} />{ e.label.clone() }
                    <span class="runs">{ grouped(e.blocks) }</span>
                </li>
            }) }
            if more > 0 {
                <li class="more">{ format!("and {more} more") }</li>
            }
            if mode == ColourMode::ParentSm && marks {
                <li class="mark"><span class="swatch mark" aria-hidden="true" />{ "dark top edge: ran on its parent's SM" }</li>
            }
        </ul>
    }
}

/// Whether some SM's lanes are tall enough for marks ([`lineage::MARK_MIN_HEIGHT`]).
fn marks_fit(index: &BlockIndex, geometry: &Geometry) -> bool {
    index.sms.iter().any(|lanes| !lanes.is_empty() && geometry.lane_height(lanes.len()) >= lineage::MARK_MIN_HEIGHT)
}

/// How many child blocks drawn ran on their direct parent's SM.
fn on_parent_sm_note(report: &Report) -> String {
    let lineage::OnParentSm { children, same } = lineage::on_parent_sm(&report.kernels, &report.blocks);
    if children == 0 {
        return "No block of a device-launched run whose record the page keeps is drawn.".to_owned()
            + &not_kept_note(report);
    }
    let note = format!(
        "Blocks of device-launched runs that ran on the SM their direct parent ran on: {} of {} ({}). Each block's \
         colour is its parent's SM (the squares beside the SMs' names); the row is the SM it ran on.",
        grouped(same),
        grouped(children),
        percent(same, children)
    );
    note + &not_kept_note(report)
}

/// For a report that totals its later runs, what the lineage colourings cannot say.
fn not_kept_note(report: &Report) -> String {
    let not_kept = report.blocks.iter().filter(|b| b.kernel as usize >= report.kernels.len()).count() as u64;
    if not_kept == 0 {
        return String::new();
    }
    format!(
        " The page keeps the first {} runs whole and only totals the others, so {} blocks of later runs are drawn \
         pale, their parents and depths unknown.",
        grouped(report.kernels.len() as u64),
        grouped(not_kept)
    )
}

/// A swatch of the hues a kernel's runs are drawn in, one stripe per distinct hue.
fn run_stripes(runs: &[usize]) -> String {
    let mut hues: Vec<usize> = Vec::new();
    for &run in runs {
        if !hues.contains(&(run % QUALITATIVE_LEN)) {
            hues.push(run % QUALITATIVE_LEN);
        }
    }
    let stripe = 100.0 / hues.len() as f64;
    let stops: Vec<String> = hues
        .iter()
        .enumerate()
        .map(|(i, &hue)| {
            let colour = kernel_shade(hue, SHADES / 2).css();
            format!("{colour} {:.1}% {:.1}%", i as f64 * stripe, (i + 1) as f64 * stripe)
        })
        .collect();
    format!("background: linear-gradient(to right, {});", stops.join(", "))
}

/// "kernel runs 0–19" for consecutive runs, else the first few.
fn run_list(runs: &[usize]) -> String {
    let (first, last) = (runs[0], runs[runs.len() - 1]);
    if last - first + 1 == runs.len() {
        return format!("kernel runs {first}–{last}");
    }
    let shown: Vec<String> = runs.iter().take(6).map(|r| r.to_string()).collect();
    let tail = if runs.len() > 6 { ", …" } else { "" };
    format!("kernel runs {}{tail}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_run_and_the_blocks_that_stayed_in_words() {
        let before = |sm| Previous { run: 4, sm };
        assert_eq!(previous_words(before(Some(3)), 3), "SM 3 in run 4 (same SM)");
        assert_eq!(previous_words(before(Some(7)), 3), "SM 7 in run 4 (moved)");
        assert_eq!(previous_words(before(None), 3), "run 4 (record not kept)");
        let run = SameSm { same: 118, compared: 128 };
        assert_eq!(stayed_words(run, Some(128)), "118 of 128 blocks of this run");
        assert_eq!(stayed_words(run, Some(1024)), "118 of the 128 blocks compared", "a thinned report");
        assert_eq!(stayed_words(run, None), "118 of the 128 blocks compared", "a summarised run");
    }

    #[test]
    fn the_note_under_the_timeline_counts_every_launch_after_the_first() {
        use warpscope_core::stats::{BlockRecord, KernelReport};
        let host = KernelReport { blocks: 4, ..KernelReport::default() };
        let block = |kernel, block, sm| BlockRecord { kernel, block, sm, start: 0, end: 1 };
        let one_launch = PreviousSm::build(&[block(0, 0, 0)], std::slice::from_ref(&host));
        assert_eq!(same_sm_note(&one_launch), None, "one launch: nothing to say");
        // Run 1: blocks 0, 1 and 3 where run 0 had them, block 2 moved; run 0's block 3 is
        // thinned away in the second report.
        let mut blocks: Vec<BlockRecord> = (0..4).map(|b| block(0, b, b)).collect();
        blocks.extend([block(1, 0, 0), block(1, 1, 1), block(1, 2, 0), block(1, 3, 3)]);
        let kernels = [host.clone(), host];
        assert_eq!(
            same_sm_note(&PreviousSm::build(&blocks, &kernels)).as_deref(),
            Some(
                "Blocks that ran on the same SM as the same block index in the previous host launch: 3 of 4 \
                 (75.00 %), over 1 launch after the first."
            )
        );
        blocks.remove(3);
        assert_eq!(
            same_sm_note(&PreviousSm::build(&blocks, &kernels)).as_deref(),
            Some(
                "Blocks that ran on the same SM as the same block index in the previous host launch: 2 of 3 \
                 (66.67 %), over 1 launch after the first. 1 block whose previous launch's record the report did \
                 not keep is left out."
            )
        );
    }
}
