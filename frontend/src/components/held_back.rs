//! Co-running kernels held up at the load-store unit over time: for each kernel (host stream),
//! the share of the SMs on which it had a memory instruction ready that the busy LSU did not
//! take (`Window::held_back`), beside the totals of who held up whom in the Statistics panel.
//! Shown when two or more kernels co-run.

use std::rc::Rc;

use warpscope_core::stats::blocking::MemoryBlocking;
use warpscope_core::stats::TimeSeries;
use yew::prelude::*;

use crate::components::xy_chart::{Series, Shape, XAxis, XyChart};
use crate::plot::palette::kernel_shade;
use crate::plot::series::{extent, held_back};

/// Props of [`HeldBack`].
#[derive(Properties, PartialEq)]
pub struct HeldBackProps {
    /// The run's time series.
    pub series: Rc<TimeSeries>,
    /// The co-running kernels and their totals.
    pub blocking: Rc<MemoryBlocking>,
    /// SMs of the machine.
    pub sm_count: u32,
    /// The playback cycle.
    pub cursor: Option<u64>,
}

/// The chart.
#[function_component(HeldBack)]
pub fn held_back_chart(props: &HeldBackProps) -> Html {
    let lines = use_memo((props.series.clone(), props.blocking.clone(), props.sm_count), |(series, blocking, sms)| {
        let rates = held_back(series, blocking.kernels.len(), *sms);
        let lines: Vec<Series> = rates
            .into_iter()
            .enumerate()
            .map(|(k, points)| Series {
                label: blocking.kernels[k].label(),
                colour: kernel_shade(k, 3).css(),
                points: points.into_iter().map(|(x, y)| (x, 100.0 * y)).collect(),
                shape: Shape::Steps,
            })
            .collect();
        (Rc::new(lines), extent(series))
    });
    let (lines, end) = (*lines).clone();
    if props.series.windows.is_empty() {
        return Html::default();
    }
    html! {
        <div class="held-back" id="held-back">
            <h4>{ "Co-running kernels held up at the LSU" }</h4>
            <p class="viz-hint">{ "The share of SMs on which each kernel had a memory instruction ready to issue that the \
                load-store unit did not take, busy with an access (its own or another kernel's, perhaps one the L1 keeps \
                turning away). Who held up whom, in total, is tabled under Statistics." }</p>
            <XyChart id="chart-held-back" caption="Memory instructions waiting at a busy LSU, by kernel"
                description={format!("For each of {} co-running kernels, the share of SMs on which it waited at the LSU.", props.blocking.kernels.len())}
                x={XAxis::Cycles { end }} x_title="cycle" y_title="% of SMs" series={lines} cursor={props.cursor} />
        </div>
    }
}
