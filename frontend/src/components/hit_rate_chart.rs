//! Hit rate per frame window as an SVG line chart.

use yew::prelude::*;

use crate::state::FrameSample;

/// Props of [`HitRateChart`].
#[derive(Properties, PartialEq)]
pub struct HitRateChartProps {
    /// Frames in cycle order.
    pub frames: Vec<FrameSample>,
    /// Cycles of the whole job (the x axis spans it even while running).
    pub total: u64,
}

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 160.0;
const LEFT: f64 = 40.0;
const BOTTOM: f64 = 22.0;

/// A line of hit rate (0–100 %) over simulated cycles.
#[function_component(HitRateChart)]
pub fn hit_rate_chart(props: &HitRateChartProps) -> Html {
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - BOTTOM - 8.0;
    let x = |cycle: u64| LEFT + plot_w * cycle as f64 / props.total.max(1) as f64;
    let y = |rate: f64| 8.0 + plot_h * (1.0 - rate);
    let points: String = props
        .frames
        .iter()
        .filter(|f| f.hits + f.misses > 0)
        .map(|f| {
            let rate = f.hits as f64 / (f.hits + f.misses) as f64;
            format!("{:.1},{:.1} ", x((f.start + f.end) / 2), y(rate))
        })
        .collect();
    let grid = [0.0, 0.25, 0.5, 0.75, 1.0];
    html! {
        <svg class="chart" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
            aria-label="Hit rate per window over the run">
            { for grid.iter().map(|&r| html! {
                <g>
                    <line class="grid" x1={LEFT.to_string()} x2={(LEFT + plot_w).to_string()}
                        y1={y(r).to_string()} y2={y(r).to_string()} />
                    <text class="tick" x={(LEFT - 6.0).to_string()} y={(y(r) + 4.0).to_string()}
                        text-anchor="end">{ format!("{:.0}%", r * 100.0) }</text>
                </g>
            }) }
            <text class="tick" x={LEFT.to_string()} y={(HEIGHT - 4.0).to_string()}>{ "0" }</text>
            <text class="tick" x={(LEFT + plot_w).to_string()} y={(HEIGHT - 4.0).to_string()} text-anchor="end">
                { format!("{} accesses", crate::format::short(props.total as f64)) }
            </text>
            <polyline class="series" points={points} />
        </svg>
    }
}
