//! A small SVG chart of labelled series against cycles or against warp limits, with
//! horizontal reference rules, ringed markers and the playback cursor: the lost-locality
//! panel's counts over time and the warp-limit sweep's curves. Same look as [`super::charts`]
//! (colours and fonts as SVG attributes, so an exported file looks as the page does), with
//! SVG/PNG export.
//!
//! Marked points carry their exact values (`data-x`, `data-y`, written as Rust prints an
//! `f64`: the shortest text that reads back to the same number), and a step series its values
//! in order (`data-values`), so a test can hold a chart against the native CLI.

use std::rc::Rc;

use web_sys::{Element, MouseEvent};
use yew::prelude::*;

use crate::canvas::use_element_width;
use crate::components::chart_parts::{
    cursor_line, legend, legend_positions, Axes, Key, BOTTOM, FONT, LEFT, LEGEND_LINE, RIGHT,
};
use crate::download::{download_svg, download_svg_png};
use crate::plot::path::steps;
use crate::plot::scale::{format_cycles, format_tick, nice_ceiling, nice_step, nice_ticks, LinearScale};
use crate::plot::sweep::{limit_scale, limit_ticks, LimitScale};

const DEFAULT_WIDTH: f64 = 560.0;
const MIN_WIDTH: f64 = 280.0;
const PLOT_HEIGHT: f64 = 150.0;

/// What runs along the x axis.
#[derive(Clone, Debug, PartialEq)]
pub enum XAxis {
    /// Cycles, from 0 to `end`.
    Cycles {
        /// The last cycle.
        end: f64,
    },
    /// Warp limits, on a log₂ scale, labelled where labels fit.
    Limits(Rc<Vec<u32>>),
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Values sampled at moments that hold until the next (counts at snapshots).
    Steps,
    /// Measured points joined by lines, each point a dot carrying its values.
    Points,
}

/// One labelled series.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// CSS colour.
    pub colour: String,
    /// `(x, y)` in data units, in x order.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn.
    pub shape: Shape,
}

/// A horizontal line across the plot at `y`, labelled at its right end.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Where.
    pub y: f64,
    /// Its label (and legend text).
    pub label: String,
    /// CSS colour; drawn dashed.
    pub colour: String,
}

/// A ringed point with a label above it (the best limit; the run's own limit).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Where, in data units.
    pub x: f64,
    /// Where, in data units.
    pub y: f64,
    /// Text beside it.
    pub label: String,
    /// CSS colour.
    pub colour: String,
    /// An id for tests and links.
    pub id: Option<AttrValue>,
}

/// Props of [`XyChart`].
#[derive(Properties, PartialEq, Clone)]
pub struct XyChartProps {
    /// The `<svg>`'s id.
    pub id: AttrValue,
    /// The caption above it.
    pub caption: AttrValue,
    /// What it shows, in words (its accessible name).
    pub description: AttrValue,
    /// The x axis.
    pub x: XAxis,
    /// The x axis' title.
    pub x_title: AttrValue,
    /// The y axis' title (with its unit).
    pub y_title: AttrValue,
    /// The series.
    pub series: Rc<Vec<Series>>,
    /// Reference lines.
    #[prop_or_default]
    pub rules: Rc<Vec<Rule>>,
    /// Marked points.
    #[prop_or_default]
    pub markers: Rc<Vec<Marker>>,
    /// Whether y is a count (whole-number ticks).
    #[prop_or_default]
    pub whole: bool,
    /// The playback cycle, drawn as a vertical line (a cycle axis only).
    #[prop_or_default]
    pub cursor: Option<u64>,
}

/// Where a chart's parts go.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    width: f64,
    height: f64,
    top: f64,
}

/// x in data units → pixels, for either axis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum XScale {
    Cycles(LinearScale),
    Limits(LimitScale),
}

impl XScale {
    fn map(&self, x: f64) -> f64 {
        match self {
            XScale::Cycles(s) => s.map(x),
            XScale::Limits(s) => s.map(x),
        }
    }
}

/// A chart without the cursor: what changes only with the data and the width.
struct Plot {
    body: Html,
    layout: Layout,
    x: XScale,
}

/// One chart with its caption and export buttons.
#[function_component(XyChart)]
pub fn xy_chart(props: &XyChartProps) -> Html {
    let node = use_node_ref();
    let measured = use_element_width(node.clone());
    let width = if measured > 0.0 { measured.max(MIN_WIDTH).floor() } else { DEFAULT_WIDTH };
    let plot = {
        let p = props.clone();
        // Playback moves only the cursor: the plot is built once per data and width.
        use_memo(
            (
                p.x.clone(),
                p.series.clone(),
                p.rules.clone(),
                p.markers.clone(),
                p.whole,
                p.y_title.clone(),
                p.x_title.clone(),
                width,
            ),
            move |_| build(&p, width),
        )
    };
    let id = props.id.clone();
    let caption = props.caption.clone();
    let export = |png: bool| {
        let (node, layout, id) = (node.clone(), plot.layout, id.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(svg) = node.cast::<Element>() else { return };
            if png {
                download_svg_png(&svg, &format!("{id}.png"), layout.width, layout.height, 2.0);
            } else {
                download_svg(&svg, &format!("{id}.svg"));
            }
        })
    };
    let cursor = match (props.cursor, plot.x) {
        (Some(c), XScale::Cycles(x)) if (c as f64) <= x.domain().1 => {
            cursor_line(x.map(c as f64), plot.layout.top, plot.layout.height)
        }
        _ => Html::default(),
    };
    let Layout { width, height, .. } = plot.layout;
    html! {
        <figure class="viz chart-card">
            <div class="viz-toolbar">
                <figcaption>{ caption.clone() }</figcaption>
                <button type="button" class="viz-export" onclick={export(false)}
                    title={format!("Save “{caption}” as an SVG file")} aria-label={format!("Save “{caption}” as an SVG file")}>{ "SVG" }</button>
                <button type="button" class="viz-export" onclick={export(true)}
                    title={format!("Save “{caption}” as a PNG image")} aria-label={format!("Save “{caption}” as a PNG image")}>{ "PNG" }</button>
            </div>
            <div ref={node} class="viz-svg-frame" data-chart={props.id.clone()}>
                <svg id={props.id.clone()} xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {width} {height}")}
                    class="viz-chart" role="img" aria-label={props.description.clone()} font-family={FONT}>
                    <title>{ props.description.clone() }</title>
                    { plot.body.clone() }
                    { cursor }
                </svg>
            </div>
        </figure>
    }
}

fn build(props: &XyChartProps, width: f64) -> Plot {
    let keys: Vec<Key> = props
        .series
        .iter()
        .map(|s| Key { label: s.label.clone(), colour: s.colour.clone(), dashed: false, area: false })
        .chain(props.rules.iter().map(|r| Key {
            label: r.label.clone(),
            colour: r.colour.clone(),
            dashed: true,
            area: false,
        }))
        .collect();
    let positions = legend_positions(&keys, width);
    let lines = positions.last().map_or(1, |&(_, line)| line + 1);
    let top = 12.0 + LEGEND_LINE * lines as f64 + 8.0;
    let layout = Layout { width, height: top + PLOT_HEIGHT + BOTTOM, top };
    let (left, right, bottom) = (LEFT, width - RIGHT, layout.height - BOTTOM);

    let peak = props
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .chain(props.rules.iter().map(|r| r.y))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let y_top = if props.whole { nice_ceiling(peak.max(1.0), 4).ceil() } else { nice_ceiling(peak, 4) };
    let y = LinearScale::new((0.0, y_top), (bottom, top));
    let y_step = nice_step(y_top, 4);
    let y_ticks: Vec<f64> =
        nice_ticks(0.0, y_top, 4).into_iter().filter(|v| !props.whole || v.fract() == 0.0).collect();

    let (x, x_ticks): (XScale, Vec<(f64, String)>) = match &props.x {
        XAxis::Cycles { end } => {
            let scale = LinearScale::new((0.0, *end), (left, right));
            let ticks = nice_ticks(0.0, *end, ((right - left) / 80.0).clamp(2.0, 6.0) as usize);
            (XScale::Cycles(scale), ticks.into_iter().map(|c| (c, format_cycles(c))).collect())
        }
        XAxis::Limits(limits) => {
            // Half a step of room at each end, so the first and last dots are not on the frame.
            let scale = limit_scale(limits, (left + 10.0, right - 10.0));
            let ticks = limit_ticks(limits, &scale, 22.0);
            (XScale::Limits(scale), ticks.into_iter().map(|l| (l as f64, l.to_string())).collect())
        }
    };

    let x_ticks: Vec<(f64, String)> = x_ticks.into_iter().map(|(v, label)| (x.map(v), label)).collect();
    let y_label = |v: f64| if props.whole { format!("{v:.0}") } else { format_tick(v, y_step) };
    let axes = Axes {
        height: layout.height,
        x_range: (left, right),
        y: &y,
        y_ticks: &y_ticks,
        y_label: &y_label,
        x_ticks: &x_ticks,
        x_title: &props.x_title,
        y_title: &props.y_title,
    }
    .html();

    let series = props.series.iter().map(|s| {
        let d = match (s.shape, &x) {
            (Shape::Steps, XScale::Cycles(scale)) => steps(&s.points, scale.domain().1, scale, &y),
            _ => s
                .points
                .iter()
                .enumerate()
                .map(|(i, &(px, py))| format!("{}{:.1},{:.1}", if i == 0 { 'M' } else { 'L' }, x.map(px), y.map(py)))
                .collect(),
        };
        // A step series' values, in order, for a test to hold against the native series.
        let values = (s.shape == Shape::Steps)
            .then(|| s.points.iter().map(|p| p.1.to_string()).collect::<Vec<_>>().join(" "));
        let dots = (s.shape == Shape::Points).then(|| {
            html! {
                <g class="points">
                    { for s.points.iter().map(|&(px, py)| html! {
                        <circle class="point" cx={format!("{:.1}", x.map(px))} cy={format!("{:.1}", y.map(py))} r="3.5"
                            fill="#fff" stroke={s.colour.clone()} stroke-width="2"
                            data-x={px.to_string()} data-y={py.to_string()}>
                            <title>{ format!("{}: {} at {}", s.label, format_value(py), px) }</title>
                        </circle>
                    }) }
                </g>
            }
        });
        html! {
            <g class="series" data-series={s.label.clone()} data-values={values}>
                <path d={d} fill="none" stroke={s.colour.clone()} stroke-width="2" stroke-linejoin="round" stroke-linecap="round" />
                { dots.unwrap_or_default() }
            </g>
        }
    });

    let rules = props.rules.iter().map(|r| {
        let py = format!("{:.1}", y.map(r.y));
        html! {
            <g class="rule">
                <line x1={left.to_string()} x2={right.to_string()} y1={py.clone()} y2={py.clone()} stroke={r.colour.clone()}
                    stroke-width="1.5" stroke-dasharray="6 4" />
            </g>
        }
    });

    let markers = props.markers.iter().map(|m| {
        let (cx, cy) = (x.map(m.x), y.map(m.y));
        // The label sits above the point, kept inside the plot at its ends.
        let anchor = if cx > right - 60.0 { "end" } else if cx < left + 60.0 { "start" } else { "middle" };
        html! {
            <g class="marker" id={m.id.clone()}>
                <circle cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="7" fill="none" stroke={m.colour.clone()} stroke-width="2" />
                <text x={format!("{cx:.1}")} y={format!("{:.1}", (cy - 12.0).max(top + 10.0))} text-anchor={anchor}
                    font-size="11" font-weight="600" fill={m.colour.clone()}
                    stroke="#fff" stroke-width="3" paint-order="stroke">{ m.label.clone() }</text>
            </g>
        }
    });

    let body = html! {
        <>
            { axes }
            { for rules }
            { for series }
            { for markers }
            { legend(&keys, width) }
        </>
    };
    Plot { body, layout, x }
}

/// A value for a tooltip: three significant decimals below 10, one above.
fn format_value(v: f64) -> String {
    if v.abs() < 10.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.1}")
    }
}
