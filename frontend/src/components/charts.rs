//! Charts of a run's time series: IPC, L1/L2 hit rates and the stall breakdown over cycles,
//! as SVG with axes, legends and SVG/PNG export. With an `overlay` (the compare view) the IPC
//! and hit-rate charts show one line per labelled run.
//!
//! Colours and fonts are SVG attributes rather than CSS so that an exported file looks the
//! same outside the page.

use std::rc::Rc;

use warpscope_core::stats::TimeSeries;
use web_sys::{Element, MouseEvent};
use yew::prelude::*;

use crate::canvas::use_element_width;
use crate::components::chart_parts::{
    cursor_line, legend, legend_positions, Axes, Key, BOTTOM, FONT, LEFT, LEGEND_LINE, RIGHT, STROKE,
};
use crate::download::{download_svg, download_svg_png};
use crate::plot::palette::{qualitative, ACCENT};
use crate::plot::path::{band, line};
use crate::plot::scale::{format_cycles, format_tick, nice_ceiling, nice_step, nice_ticks, LinearScale};
use crate::plot::series::{extent, hit_rate, ipc, stall_shares, Level, DEVICE_LAUNCH_CATEGORY, STALL_CATEGORIES};

/// Props of [`Charts`].
#[derive(Properties, PartialEq, Clone)]
pub struct ChartsProps {
    /// The run's time series.
    pub series: Rc<TimeSeries>,
    /// The playback cycle, drawn as a vertical line.
    #[prop_or_default]
    pub cursor: Option<u64>,
    /// Runs to compare: when not empty, the IPC and hit-rate charts draw one line per labelled
    /// series instead of just `series`.
    #[prop_or_default]
    pub overlay: Vec<(AttrValue, Rc<TimeSeries>)>,
}

/// Chart sizes, in viewBox units, which are CSS pixels: a chart is drawn at its frame's width
/// so that its text keeps its size on a phone.
const DEFAULT_WIDTH: f64 = 720.0;
/// Narrower frames scroll sideways rather than squeeze the plot.
const MIN_WIDTH: f64 = 300.0;
const PLOT_HEIGHT: f64 = 162.0;
/// The L2's colour next to the L1's accent when only one run is shown.
const L2_COLOUR: &str = "#d97706";

/// The three charts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ChartKind {
    Ipc,
    HitRate,
    Stalls,
}

impl ChartKind {
    fn id(self) -> &'static str {
        match self {
            ChartKind::Ipc => "chart-ipc",
            ChartKind::HitRate => "chart-hit-rate",
            ChartKind::Stalls => "chart-stalls",
        }
    }

    fn caption(self) -> &'static str {
        match self {
            ChartKind::Ipc => "Instructions per cycle",
            ChartKind::HitRate => "Cache hit rate",
            ChartKind::Stalls => "Scheduler cycles by outcome",
        }
    }
}

/// Where a chart's parts go: as wide as its frame, with room above the plot for the legend's
/// lines.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    width: f64,
    height: f64,
    /// Top of the plot area.
    top: f64,
}

impl Layout {
    fn new(width: f64, keys: &[Key]) -> Self {
        let lines = legend_positions(keys, width).last().map_or(1, |&(_, line)| line + 1);
        let top = 12.0 + LEGEND_LINE * lines as f64;
        Layout { width, height: top + PLOT_HEIGHT + BOTTOM, top }
    }

    /// Cycles → x, over the longest of the runs.
    fn x(&self, runs: &[(String, Rc<TimeSeries>)]) -> LinearScale {
        let end = runs.iter().map(|(_, s)| extent(s)).fold(0.0, f64::max);
        LinearScale::new((0.0, end), (LEFT, self.width - RIGHT))
    }

    /// `domain` → y, upwards across the plot.
    fn y(&self, domain: (f64, f64)) -> LinearScale {
        LinearScale::new(domain, (self.height - BOTTOM, self.top))
    }
}

/// A chart without the playback cursor: what only changes with the series and the width.
struct Plot {
    description: String,
    body: Html,
    layout: Layout,
    x: LinearScale,
}

/// IPC, hit-rate and stall-breakdown charts of a time series.
#[function_component(Charts)]
pub fn charts(props: &ChartsProps) -> Html {
    let runs: Vec<(String, Rc<TimeSeries>)> = if props.overlay.is_empty() {
        vec![(String::new(), props.series.clone())]
    } else {
        props.overlay.iter().map(|(label, s)| (label.to_string(), s.clone())).collect()
    };
    if runs.iter().all(|(_, s)| s.windows.is_empty()) {
        return html! { <p class="viz-empty">{ "No time series yet: the run has not recorded a window." }</p> };
    }
    let chart = |kind| {
        html! { <ChartCard {kind} runs={runs.clone()} series={props.series.clone()} cursor={props.cursor} /> }
    };
    html! {
        <div class="viz-charts">
            { chart(ChartKind::Ipc) }
            { chart(ChartKind::HitRate) }
            { chart(ChartKind::Stalls) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ChartCardProps {
    kind: ChartKind,
    /// Labelled runs (one unlabelled run outside the compare view).
    runs: Vec<(String, Rc<TimeSeries>)>,
    /// The run whose stalls are shown.
    series: Rc<TimeSeries>,
    cursor: Option<u64>,
}

/// One chart with its caption and export buttons.
#[function_component(ChartCard)]
fn chart_card(props: &ChartCardProps) -> Html {
    let node = use_node_ref();
    let measured = use_element_width(node.clone());
    let width = if measured > 0.0 { measured.max(MIN_WIDTH).floor() } else { DEFAULT_WIDTH };
    // Paths over every window are costly to format; playback moves only the cursor, so a plot
    // is built once per set of series and width.
    let plot = use_memo(
        (props.kind, props.runs.clone(), props.series.clone(), width),
        |(kind, runs, series, width)| match kind {
            ChartKind::Ipc => ipc_chart(runs, *width),
            ChartKind::HitRate => hit_rate_chart(runs, *width),
            ChartKind::Stalls => stall_chart(runs, series, *width),
        },
    );
    let (id, caption) = (props.kind.id(), props.kind.caption());
    let export = |png: bool| {
        let (node, layout) = (node.clone(), plot.layout);
        Callback::from(move |_: MouseEvent| {
            let Some(svg) = node.cast::<Element>() else { return };
            if png {
                download_svg_png(&svg, &format!("{id}.png"), layout.width, layout.height, 2.0);
            } else {
                download_svg(&svg, &format!("{id}.svg"));
            }
        })
    };
    let cursor = props.cursor.map(|c| c as f64).filter(|&c| c <= plot.x.domain().1);
    let svg = chart_svg(id, &plot, playback_cursor(&plot, cursor));
    html! {
        <figure class="viz chart-card">
            <div class="viz-toolbar">
                <figcaption>{ caption }</figcaption>
                <button type="button" class="viz-export" onclick={export(false)}
                    title={format!("Save “{caption}” as an SVG file")} aria-label={format!("Save “{caption}” as an SVG file")}>{ "SVG" }</button>
                <button type="button" class="viz-export" onclick={export(true)}
                    title={format!("Save “{caption}” as a PNG image")} aria-label={format!("Save “{caption}” as a PNG image")}>{ "PNG" }</button>
            </div>
            <div ref={node} class="viz-svg-frame" data-chart={id}>{ svg }</div>
        </figure>
    }
}

/// The colour of run `i` among several, or the accent for a single run.
fn run_colour(i: usize, runs: usize) -> String {
    if runs == 1 {
        ACCENT.to_owned()
    } else {
        qualitative(i).css()
    }
}

/// IPC over time, one line per run.
fn ipc_chart(runs: &[(String, Rc<TimeSeries>)], width: f64) -> Plot {
    let lines: Vec<Vec<(f64, Option<f64>)>> =
        runs.iter().map(|(_, s)| ipc(s).into_iter().map(|(span, v)| (span.mid(), Some(v))).collect()).collect();
    let peak = lines.iter().flatten().filter_map(|p| p.1).fold(0.0, f64::max);
    let top = nice_ceiling(peak, 4);
    let y_ticks = nice_ticks(0.0, top, 4);
    let step = nice_step(top, 4);
    let keys: Vec<Key> = runs
        .iter()
        .enumerate()
        .filter(|_| runs.len() > 1)
        .map(|(i, (label, _))| Key {
            label: label.clone(),
            colour: run_colour(i, runs.len()),
            dashed: false,
            area: false,
        })
        .collect();
    let layout = Layout::new(width, &keys);
    let (x, y) = (&layout.x(runs), layout.y((0.0, top)));
    let description = if runs.len() == 1 {
        let values: Vec<f64> = lines[0].iter().filter_map(|p| p.1).collect();
        let mean = if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 };
        format!(
            "Instructions per cycle over {} cycles in {} windows: peak {:.2}, mean of windows {:.2}.",
            format_cycles(x.domain().1),
            values.len(),
            peak,
            mean
        )
    } else {
        format!("Instructions per cycle over time for {} runs: {}.", runs.len(), labels(runs))
    };
    let single_area = (runs.len() == 1).then(|| {
        let mut d = line(&lines[0], x, &y);
        if let (Some(first), Some(last)) = (lines[0].first(), lines[0].last()) {
            d.push_str(&format!("L{:.1},{:.1}L{:.1},{:.1}Z", x.map(last.0), y.map(0.0), x.map(first.0), y.map(0.0)));
        }
        html! { <path d={d} fill={ACCENT} fill-opacity="0.10" stroke="none" /> }
    });
    let body = html! {
        <>
            { frame(&layout, x, &y, &y_ticks, |v| format_tick(v, step), "IPC (warp instructions / cycle)") }
            { single_area.unwrap_or_default() }
            { for lines.iter().enumerate().map(|(i, points)| html! {
                <path d={line(points, x, &y)} fill="none" stroke={run_colour(i, runs.len())} stroke-width={STROKE}
                    stroke-linejoin="round" stroke-linecap="round" />
            }) }
            { legend(&keys, width) }
        </>
    };
    Plot { description, body, layout, x: *x }
}

/// L1 and L2 hit rates over time: two colours for one run, or a colour per run with L1 solid
/// and L2 dashed when comparing.
fn hit_rate_chart(runs: &[(String, Rc<TimeSeries>)], width: f64) -> Plot {
    let y_ticks = [0.0, 0.25, 0.5, 0.75, 1.0];
    let single = runs.len() == 1;
    let level_key = |i: usize, label: &str, level: Level| {
        let dashed = level == Level::L2 && !single;
        let colour = match (single, level) {
            (true, Level::L1) => ACCENT.to_owned(),
            (true, Level::L2) => L2_COLOUR.to_owned(),
            (false, _) => run_colour(i, runs.len()),
        };
        let name = if single { level.label().to_owned() } else { format!("{label} {}", level.label()) };
        Key { label: name, colour, dashed, area: false }
    };
    let keys: Vec<Key> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, (label, _))| [Level::L1, Level::L2].map(|level| level_key(i, label, level)))
        .collect();
    let layout = Layout::new(width, &keys);
    let (x, y) = (&layout.x(runs), layout.y((0.0, 1.0)));
    let paths = runs.iter().zip(keys.chunks(2)).flat_map(|((_, series), keys)| {
        [Level::L1, Level::L2].into_iter().zip(keys).map(|(level, key)| {
            let points: Vec<(f64, Option<f64>)> =
                hit_rate(series, level).into_iter().map(|(span, rate)| (span.mid(), rate)).collect();
            html! {
                <path d={line(&points, x, &y)} fill="none" stroke={key.colour.clone()} stroke-width={STROKE}
                    stroke-dasharray={key.dashed.then_some("6 4")} stroke-linejoin="round" stroke-linecap="round" />
            }
        })
    });
    let description = if single {
        "L1 and L2 hit rates (hits per access) over time; gaps where a cache had no accesses.".to_owned()
    } else {
        format!("L1 (solid) and L2 (dashed) hit rates over time for {} runs: {}.", runs.len(), labels(runs))
    };
    let body = html! {
        <>
            { frame(&layout, x, &y, &y_ticks, |v| format!("{:.0}%", v * 100.0), "hit rate") }
            { for paths }
            { legend(&keys, width) }
        </>
    };
    Plot { description, body, layout, x: *x }
}

/// Shares of scheduler cycles by outcome, stacked to 100 %.
fn stall_chart(runs: &[(String, Rc<TimeSeries>)], series: &TimeSeries, width: f64) -> Plot {
    let y_ticks = [0.0, 0.25, 0.5, 0.75, 1.0];
    let launches = series.windows.iter().any(|w| w.stalls.device_launch > 0);
    let keys: Vec<Key> = STALL_CATEGORIES
        .iter()
        .enumerate()
        .filter(|&(k, _)| launches || k != DEVICE_LAUNCH_CATEGORY)
        .map(|(_, (label, colour))| Key {
            label: (*label).to_owned(),
            colour: (*colour).to_owned(),
            dashed: false,
            area: true,
        })
        .collect();
    // The x axis spans every compared run, so that the charts line up.
    let layout = Layout::new(width, &keys);
    let (x, y) = (&layout.x(runs), layout.y((0.0, 1.0)));
    let shares = stall_shares(series);
    let spans: Vec<(f64, f64)> = shares.iter().map(|(s, _)| (s.start, s.end)).collect();
    let mut lower = vec![0.0; shares.len()];
    let mut bands = Vec::new();
    for (k, (_, colour)) in STALL_CATEGORIES.iter().enumerate() {
        let upper: Vec<f64> = lower.iter().zip(&shares).map(|(l, (_, s))| l + s[k]).collect();
        bands.push(html! { <path d={band(&spans, &lower, &upper, x, &y)} fill={*colour} stroke="none" /> });
        lower = upper;
    }
    let description = "Share of scheduler cycles that issued an instruction or stalled (waiting on a result, the \
                       memory pipeline, a barrier, the throttle, a device launch call, or with no warp), stacked to \
                       100 % per window.";
    let body = html! {
        <>
            { for bands }
            { frame(&layout, x, &y, &y_ticks, |v| format!("{:.0}%", v * 100.0), "share of scheduler cycles") }
            { legend(&keys, width) }
        </>
    };
    Plot { description: description.to_owned(), body, layout, x: *x }
}

/// A chart's `<svg>`: its viewBox, accessibility attributes and font, around the plot and the
/// playback cursor.
fn chart_svg(id: &'static str, plot: &Plot, cursor: Html) -> Html {
    let Layout { width, height, .. } = plot.layout;
    html! {
        <svg {id} xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {width} {height}")} class="viz-chart"
            role="img" aria-label={plot.description.clone()} font-family={FONT}>
            <title>{ plot.description.clone() }</title>
            { plot.body.clone() }
            { cursor }
        </svg>
    }
}

/// Grid lines, tick labels and axis titles of a plot (cycles along x).
fn frame(
    layout: &Layout,
    x: &LinearScale,
    y: &LinearScale,
    y_ticks: &[f64],
    y_label: impl Fn(f64) -> String,
    y_title: &str,
) -> Html {
    let (left, right) = x.range();
    // A label per 80 pixels or so, at most six.
    let x_ticks: Vec<(f64, String)> =
        nice_ticks(x.domain().0, x.domain().1, ((right - left) / 80.0).clamp(2.0, 6.0) as usize)
            .into_iter()
            .map(|c| (x.map(c), format_cycles(c)))
            .collect();
    Axes {
        height: layout.height,
        x_range: (left, right),
        y,
        y_ticks,
        y_label: &y_label,
        x_ticks: &x_ticks,
        x_title: "cycle",
        y_title,
    }
    .html()
}

/// The playback cursor across the plot, when inside it.
fn playback_cursor(plot: &Plot, cursor: Option<f64>) -> Html {
    let Some(c) = cursor else { return Html::default() };
    cursor_line(plot.x.map(c), plot.layout.top, plot.layout.height)
}

/// Run labels joined for descriptions.
fn labels(runs: &[(String, Rc<TimeSeries>)]) -> String {
    runs.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join(", ")
}
