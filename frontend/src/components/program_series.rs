//! Programs side by side over time: each program's warp instructions per cycle, and the share
//! of the SMs' cycles their LSUs stalled on its requests (the concurrent-kernel paper's §2: a
//! request the L1 cannot take holds the LSU, and every program's memory instructions on that
//! SM wait behind it). Shown for co-runs only, as step charts with the playback cursor.

use std::rc::Rc;

use warpscope_core::stats::{PartReport, TimeSeries};
use yew::prelude::*;

use crate::components::xy_chart::{Series, Shape, XAxis, XyChart};
use crate::format::grouped;
use crate::plot::palette::kernel_shade;
use crate::plot::series::{extent, program_rates};

/// Props of [`ProgramSeries`].
#[derive(Properties, PartialEq)]
pub struct ProgramSeriesProps {
    /// The run's time series.
    pub series: Rc<TimeSeries>,
    /// The programs' totals, in program order.
    pub parts: Rc<Vec<PartReport>>,
    /// SMs of the machine.
    pub sm_count: u32,
    /// The playback cycle.
    pub cursor: Option<u64>,
}

/// The charts.
#[function_component(ProgramSeries)]
pub fn program_series(props: &ProgramSeriesProps) -> Html {
    let charts = use_memo((props.series.clone(), props.parts.clone(), props.sm_count), |(series, parts, sms)| {
        let rates = program_rates(series, parts.len(), *sms);
        // Each program in its timeline colour (the middle of its ramp).
        let colour = |p: usize| kernel_shade(p, 3).css();
        let step = |p: usize, points: Vec<(f64, f64)>| Series {
            label: parts[p].name.clone(),
            colour: colour(p),
            points,
            shape: Shape::Steps,
        };
        let ipc = Rc::new(rates.iter().enumerate().map(|(p, r)| step(p, r.ipc.clone())).collect::<Vec<_>>());
        let stalled = Rc::new(
            rates
                .iter()
                .enumerate()
                .map(|(p, r)| step(p, r.lsu_stalled.iter().map(|&(x, y)| (x, 100.0 * y)).collect()))
                .collect::<Vec<_>>(),
        );
        (ipc, stalled, extent(series))
    });
    let (ipc, stalled, end) = (*charts).clone();
    if props.parts.is_empty() || props.series.windows.is_empty() {
        return Html::default();
    }
    let x = XAxis::Cycles { end };
    let totals: Vec<String> =
        props.parts.iter().map(|p| format!("{} {} stalled SM cycles", p.name, grouped(p.lsu_stall_cycles))).collect();
    html! {
        <div class="program-series" id="program-series">
            <h4>{ "Programs over time" }</h4>
            <p class="viz-hint">{ "Each program's issue rate, and how often the SMs' load-store units stood stalled on one of \
                its requests that the L1 could not take (no MSHR, no line to allocate, a full miss queue). While the LSU \
                is stalled on one program's request, every program's memory instructions on that SM wait behind it." }</p>
            <div class="viz-charts">
                <XyChart id="chart-program-ipc" caption="Warp instructions per cycle, by program"
                    description={format!("Each program's warp instructions per cycle over {} windows.", props.series.windows.len())}
                    x={x.clone()} x_title="cycle" y_title="IPC" series={ipc} cursor={props.cursor} />
                <XyChart id="chart-program-lsu" caption="LSU stalled on the program's requests"
                    description={format!("The share of SM cycles the LSU stalled on each program's request; over the run, {}.", totals.join("; "))}
                    {x} x_title="cycle" y_title="% of SM cycles" series={stalled} cursor={props.cursor} />
            </div>
        </div>
    }
}
