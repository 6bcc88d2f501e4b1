//! Launch-queue occupancy over time, for runs on the CDP and DTBL launch paths: the kernels
//! holding a KDU entry and those waiting in the KMU, and DTBL's group records in the SMs'
//! tables, each window's maximum ([`launch_queues`]), as step charts with the playback cursor.
//! Shown only when some window's gauge is not zero.

use std::rc::Rc;

use warpscope_core::stats::TimeSeries;
use yew::prelude::*;

use crate::components::xy_chart::{Series, Shape, XAxis, XyChart};
use crate::format::grouped;
use crate::plot::palette::ACCENT;
use crate::plot::series::{extent, launch_queues};

/// Props of [`LaunchQueues`].
#[derive(Properties, PartialEq)]
pub struct LaunchQueuesProps {
    /// The run's time series.
    pub series: Rc<TimeSeries>,
    /// The playback cycle.
    pub cursor: Option<u64>,
}

/// The KMU's colour beside the KDU's accent.
const KMU_COLOUR: &str = "#d97706";
/// The group records' colour.
const GROUPS_COLOUR: &str = "#7c3aed";

/// Whether `series` has launch-queue gauges to chart.
pub fn has_launch_queues(series: &TimeSeries) -> bool {
    launch_queues(series).is_some()
}

/// The charts.
#[function_component(LaunchQueues)]
pub fn launch_queues_charts(props: &LaunchQueuesProps) -> Html {
    let charts = use_memo(props.series.clone(), |series| {
        launch_queues(series).map(|[kdu, kmu, groups]| {
            let peak = |points: &[(f64, f64)]| points.iter().map(|p| p.1 as u64).max().unwrap_or(0);
            let (kdu_peak, kmu_peak, groups_peak) = (peak(&kdu), peak(&kmu), peak(&groups));
            let step = |label: &str, colour: &str, points: Vec<(f64, f64)>| Series {
                label: label.to_owned(),
                colour: colour.to_owned(),
                points,
                shape: Shape::Steps,
            };
            let kernels = Rc::new(vec![
                step("kernels in the KDU", ACCENT, kdu),
                step("kernels waiting in the KMU", KMU_COLOUR, kmu),
            ]);
            let groups =
                (groups_peak > 0).then(|| Rc::new(vec![step("group records, all SMs", GROUPS_COLOUR, groups)]));
            (kernels, groups, kdu_peak, kmu_peak, groups_peak, extent(series))
        })
    });
    let Some((kernels, groups, kdu_peak, kmu_peak, groups_peak, end)) = (*charts).clone() else {
        return Html::default();
    };
    let windows = props.series.windows.len();
    let x = XAxis::Cycles { end };
    html! {
        <div class="launch-queues" id="launch-queues">
            <h4>{ "Launch queues" }</h4>
            <p class="viz-hint">{ "Each window's most at any one cycle: kernels holding an entry in the kernel distributor \
                (KDU), kernels waiting in the kernel management unit (KMU) for one, and DTBL's thread-block group \
                records in the SMs' tables." }</p>
            <div class="viz-charts">
                <XyChart id="chart-launch-kernels" caption="Kernels in the KDU and the KMU"
                    description={format!("Kernels holding a KDU entry (at most {}) and waiting in the KMU (at most {}), \
                        each window's maximum over {} windows.", grouped(kdu_peak), grouped(kmu_peak), grouped(windows as u64))}
                    x={x.clone()} x_title="cycle" y_title="kernels" series={kernels} whole=true cursor={props.cursor} />
                if let Some(groups) = groups {
                    <XyChart id="chart-launch-groups" caption="DTBL group records"
                        description={format!("Thread-block group records in the SMs' tables together, each window's \
                            maximum: at most {}.", grouped(groups_peak))}
                        {x} x_title="cycle" y_title="records" series={groups} whole=true cursor={props.cursor} />
                }
            </div>
        </div>
    }
}
