//! What the run's charts ([`super::charts`]) and the small x-y charts ([`super::xy_chart`])
//! draw alike: the margins, the legend above the plot, the axes (grid, ticks, titles) and the
//! playback cursor. Colours and fonts are SVG attributes, so an exported file looks as the page
//! does.

use yew::prelude::*;

use crate::plot::palette::{ACCENT, INK_SOFT, LINE};
use crate::plot::scale::LinearScale;

/// Room left of the plot, for the y labels and title.
pub const LEFT: f64 = 56.0;
/// Room right of the plot.
pub const RIGHT: f64 = 16.0;
/// Room below the plot, for the x labels and title.
pub const BOTTOM: f64 = 38.0;
/// Height of one line of the legend above the plot.
pub const LEGEND_LINE: f64 = 18.0;
/// The charts' font.
pub const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
/// Line width of data series and legend swatches.
pub const STROKE: &str = "2";

/// One entry of a chart legend.
pub struct Key {
    /// Its text.
    pub label: String,
    /// CSS colour.
    pub colour: String,
    /// A dashed line (a rule or a second cache level).
    pub dashed: bool,
    /// A filled swatch (a stacked area) instead of a line.
    pub area: bool,
}

/// Where each legend entry goes, `(x, line)`: entries left to right, wrapping onto further
/// lines at the chart's right edge. Widths are estimated from character counts, which is close
/// enough for the short labels used here.
pub fn legend_positions(keys: &[Key], width: f64) -> Vec<(f64, usize)> {
    let (mut x, mut line) = (LEFT, 0);
    keys.iter()
        .map(|k| {
            let item = 26.0 + 6.2 * k.label.chars().count() as f64;
            if x > LEFT && x + item > width - RIGHT {
                (x, line) = (LEFT, line + 1);
            }
            let at = (x, line);
            x += item;
            at
        })
        .collect()
}

/// The legend above the plot.
pub fn legend(keys: &[Key], width: f64) -> Html {
    let items = keys.iter().zip(legend_positions(keys, width)).map(|(k, (at, line))| {
        let y = LEGEND_LINE * line as f64;
        let swatch = if k.area {
            html! { <rect x={at.to_string()} y={(y + 8.0).to_string()} width="14" height="10" rx="2" fill={k.colour.clone()} /> }
        } else {
            html! {
                <line x1={at.to_string()} x2={(at + 16.0).to_string()} y1={(y + 13.0).to_string()} y2={(y + 13.0).to_string()}
                    stroke={k.colour.clone()} stroke-width={STROKE} stroke-dasharray={k.dashed.then_some("5 3")} />
            }
        };
        html! {
            <g>
                { swatch }
                <text x={(at + 20.0).to_string()} y={(y + 17.0).to_string()} font-size="11" fill={INK_SOFT}>{ k.label.clone() }</text>
            </g>
        }
    });
    html! { <g class="legend">{ for items }</g> }
}

/// A plot's axes: grid lines and labels at `y_ticks`, the x axis with its ticks (pixel position
/// and label each) and both titles.
pub struct Axes<'a> {
    /// The chart's whole height (the x title sits at its bottom).
    pub height: f64,
    /// The plot's left and right edges.
    pub x_range: (f64, f64),
    /// Data → y, whose range is the plot's bottom and top.
    pub y: &'a LinearScale,
    /// Where the grid lines go, in data units.
    pub y_ticks: &'a [f64],
    /// A grid line's label.
    pub y_label: &'a dyn Fn(f64) -> String,
    /// The x ticks: pixel position and label.
    pub x_ticks: &'a [(f64, String)],
    /// Under the x axis.
    pub x_title: &'a str,
    /// Beside the y axis.
    pub y_title: &'a str,
}

impl Axes<'_> {
    /// The axes as SVG.
    pub fn html(&self) -> Html {
        let (left, right) = self.x_range;
        let (bottom, top) = self.y.range();
        let y = self.y;
        html! {
            <g class="axes" font-size="11" fill={INK_SOFT}>
                { for self.y_ticks.iter().map(|&v| html! {
                    <g>
                        <line x1={left.to_string()} x2={right.to_string()} y1={format!("{:.1}", y.map(v))}
                            y2={format!("{:.1}", y.map(v))} stroke={LINE} stroke-width="1" />
                        <text x={(left - 6.0).to_string()} y={format!("{:.1}", y.map(v) + 4.0)} text-anchor="end">
                            { (self.y_label)(v) }
                        </text>
                    </g>
                }) }
                <line x1={left.to_string()} x2={right.to_string()} y1={bottom.to_string()} y2={bottom.to_string()}
                    stroke={INK_SOFT} stroke-width="1" />
                { for self.x_ticks.iter().map(|(at, label)| {
                    let px = format!("{at:.1}");
                    html! {
                        <g>
                            <line x1={px.clone()} x2={px.clone()} y1={bottom.to_string()} y2={(bottom + 4.0).to_string()}
                                stroke={INK_SOFT} stroke-width="1" />
                            <text x={px} y={(bottom + 16.0).to_string()} text-anchor="middle">{ label.clone() }</text>
                        </g>
                    }
                }) }
                <text x={((left + right) / 2.0).to_string()} y={(self.height - 4.0).to_string()} text-anchor="middle">
                    { self.x_title.to_owned() }
                </text>
                <text transform={format!("translate(12 {:.1}) rotate(-90)", (top + bottom) / 2.0)} text-anchor="middle">
                    { self.y_title.to_owned() }
                </text>
            </g>
        }
    }
}

/// The playback cursor at x pixel `px`, from the plot's `top` down to the x axis of a chart
/// `height` high.
pub fn cursor_line(px: f64, top: f64, height: f64) -> Html {
    let px = format!("{px:.1}");
    html! {
        <line class="cursor" x1={px.clone()} x2={px} y1={top.to_string()}
            y2={(height - BOTTOM).to_string()} stroke={ACCENT} stroke-width="1.5" />
    }
}
