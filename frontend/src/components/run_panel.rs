//! Progress of the running job, then its result.

use yew::prelude::*;

use crate::components::hit_rate_chart::HitRateChart;
use crate::format::{grouped, percent, short};
use crate::state::RunView;

/// Props of [`RunPanel`].
#[derive(Properties, PartialEq)]
pub struct RunPanelProps {
    /// What to show.
    pub run: RunView,
}

/// Progress bar, status line, report table and chart.
#[function_component(RunPanel)]
pub fn run_panel(props: &RunPanelProps) -> Html {
    match &props.run {
        RunView::Idle => html! {
            <p id="status" class="status">{ "Set up a sweep and press Run." }</p>
        },
        RunView::Running { cycle, total, started_ms, latest_ms, frames, .. } => {
            let fraction = *cycle as f64 / (*total).max(1) as f64;
            let seconds = (latest_ms - started_ms) / 1000.0;
            let rate = if seconds > 0.0 {
                format!(" · {} accesses/s", short(*cycle as f64 / seconds))
            } else {
                String::new()
            };
            html! {
                <>
                    <ProgressBar {fraction} />
                    <p id="status" class="status" aria-live="polite">
                        { format!("Running: {} of {} accesses ({:.0} %){rate}", short(*cycle as f64), short(*total as f64), fraction * 100.0) }
                    </p>
                    <HitRateChart frames={frames.clone()} total={*total} />
                </>
            }
        }
        RunView::Finished { report, frames, elapsed_ms, spec, .. } => {
            let rate = report.accesses as f64 / (elapsed_ms / 1000.0).max(1e-3);
            html! {
                <>
                    <ProgressBar fraction={1.0} />
                    <p id="status" class="status done" aria-live="polite">
                        { format!("Done in {:.2} s ({} accesses/s in the worker, including messaging).",
                            elapsed_ms / 1000.0, short(rate)) }
                    </p>
                    <table class="report" id="report">
                        <tbody>
                            <tr><th scope="row">{ "Accesses" }</th><td id="result-accesses">{ grouped(report.accesses) }</td><td></td></tr>
                            <tr><th scope="row">{ "Hits" }</th><td id="result-hits">{ grouped(report.hits) }</td>
                                <td id="result-hit-rate">{ percent(report.hits, report.accesses) }</td></tr>
                            <tr><th scope="row">{ "Misses" }</th><td id="result-misses">{ grouped(report.misses) }</td>
                                <td>{ percent(report.misses, report.accesses) }</td></tr>
                            <tr><th scope="row">{ "Evictions" }</th><td id="result-evictions">{ grouped(report.evictions) }</td><td></td></tr>
                        </tbody>
                    </table>
                    <HitRateChart frames={frames.clone()} total={spec.total_accesses()} />
                </>
            }
        }
        RunView::Cancelled { cycle, total } => html! {
            <p id="status" class="status cancelled" aria-live="polite">
                { format!("Cancelled after {} of {} accesses.", grouped(*cycle), grouped(*total)) }
            </p>
        },
        RunView::Failed { message, .. } => html! {
            <p id="status" class="status error" role="alert">{ message }</p>
        },
    }
}

#[derive(Properties, PartialEq)]
struct ProgressBarProps {
    fraction: f64,
}

#[function_component(ProgressBar)]
fn progress_bar(props: &ProgressBarProps) -> Html {
    let percent = (props.fraction * 100.0).clamp(0.0, 100.0);
    html! {
        <div id="progress" class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
            aria-valuenow={format!("{percent:.0}")} aria-label="Simulation progress">
            <div class="bar" style={format!("width: {percent:.2}%")}></div>
        </div>
    }
}
