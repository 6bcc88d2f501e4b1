//! One run on the page: its progress while it runs, then everything it measured — statistics,
//! the thread-block timeline, animated playback of the machine (with a scoring warp policy's
//! lost-locality panel, CIAO's interference panel, a chunked TB scheduler's chunks and steal queues,
//! LaPerm's priority queues), charts over time (with the launch queues under CDP and DTBL), and
//! the warp-limit sweep one click away.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::charts::Charts;
use crate::components::chunk_panel::{has_chunks, ChunkPanel};
use crate::components::held_back::HeldBack;
use crate::components::interference::{has_interference, InterferencePanel};
use crate::components::launch_queues::{has_launch_queues, LaunchQueues};
use crate::components::lost_locality::{has_scores, LostLocality};
use crate::components::playback::Playback;
use crate::components::program_series::ProgramSeries;
use crate::components::queue_panel::{has_queues, QueuePanel};
use crate::components::sm_view::SmOccupancy;
use crate::components::stats_table::StatsTable;
use crate::components::sweep_panel::SweepPanel;
use crate::components::timeline::Timeline;
use crate::download::download_text;
use crate::export;
use crate::format::{grouped, short};
use crate::identity::Same;
use crate::state::{RunResult, RunView};
use crate::swl_sweep::Sweep;
use warpscope_core::stats::Report;
use warpscope_wasm::protocol::{CatalogPolicy, JobId};

/// Props of [`RunPanel`].
#[derive(Properties, PartialEq)]
pub struct RunPanelProps {
    /// What to show.
    pub view: RunView,
    /// SMs of the machine it runs on.
    pub sm_count: u32,
    /// Text when nothing has run yet.
    #[prop_or(AttrValue::Static("Press Run to simulate this set-up."))]
    pub idle_text: AttrValue,
    /// Show only the timeline, playback and key numbers (the embed view).
    #[prop_or_default]
    pub compact: bool,
    /// The warp-limit sweep of this run, once started.
    #[prop_or_default]
    pub sweep: Option<Sweep>,
    /// Offers the sweep (the Simulate view; not the embed view), with the warp policies'
    /// menu to name the run's own, the pool's size, and the callbacks that start and stop it.
    #[prop_or_default]
    pub sweeper: Option<Sweeper>,
    /// Asks the worker that ran a finished run for a buffer's contents: (worker generation,
    /// job, buffer index). `None`: the run's buffers are not offered.
    #[prop_or_default]
    pub on_buffer: Option<Callback<(u32, JobId, u32)>>,
}

/// What the run panel needs to offer a warp-limit sweep.
#[derive(Clone, PartialEq)]
pub struct Sweeper {
    /// The warp policies' menu entries.
    pub warp_policies: Rc<Vec<CatalogPolicy>>,
    /// Workers the page runs at most.
    pub workers: usize,
    /// Starts a sweep of the finished run.
    pub on_start: Callback<()>,
    /// Stops it.
    pub on_cancel: Callback<()>,
}

/// Progress, then results.
#[function_component(RunPanel)]
pub fn run_panel(props: &RunPanelProps) -> Html {
    match &props.view {
        RunView::Idle => html! { <p id="status" class="status">{ props.idle_text.clone() }</p> },
        RunView::Queued => {
            html! { <p id="status" class="status" aria-live="polite">{ "Waiting for the simulator…" }</p> }
        }
        RunView::Running { cycle, fraction, started_ms, latest_ms, snapshots, .. } => {
            let seconds = (latest_ms - started_ms) / 1000.0;
            let rate =
                if seconds > 0.05 { format!(" · {} cycles/s", short(*cycle as f64 / seconds)) } else { String::new() };
            html! {
                <>
                    <ProgressBar fraction={*fraction} />
                    <p id="status" class="status" aria-live="polite">
                        { format!("Running: cycle {}{rate} · {:.0} % of the launches done", grouped(*cycle), fraction * 100.0) }
                    </p>
                    if let Some(latest) = snapshots.last() {
                        <SmOccupancy snapshot={latest.clone()} />
                    }
                </>
            }
        }
        RunView::Finished(result) => {
            html! { <Finished result={result.clone()} sm_count={props.sm_count} compact={props.compact}
            sweep={props.sweep.clone()} sweeper={props.sweeper.clone()} on_buffer={props.on_buffer.clone()} /> }
        }
        RunView::Cancelled { cycle } => html! {
            <p id="status" class="status" aria-live="polite">{ format!("Cancelled at cycle {}.", grouped(*cycle)) }</p>
        },
        RunView::Failed { message, .. } => html! {
            <p id="status" class="status error" role="alert">{ message.clone() }</p>
        },
    }
}

#[derive(Properties, PartialEq)]
struct FinishedProps {
    result: Rc<RunResult>,
    sm_count: u32,
    compact: bool,
    sweep: Option<Sweep>,
    sweeper: Option<Sweeper>,
    on_buffer: Option<Callback<(u32, JobId, u32)>>,
}

#[function_component(Finished)]
fn finished(props: &FinishedProps) -> Html {
    let result = &props.result;
    let report = &result.report;
    // The playback position, shared by the timeline's cursor, the charts and the scrubber.
    let cursor = use_state(|| None::<u64>);
    let series = use_memo(Same(report.clone()), |report| Rc::new(report.0.series.clone()));
    let on_seek = {
        let cursor = cursor.clone();
        Callback::from(move |cycle: u64| cursor.set(Some(cycle)))
    };
    let status = html! {
        <p id="status" class={classes!("status", "done", result.stopped_early.is_some().then_some("warning"))} aria-live="polite">
            { match &result.stopped_early {
                Some(why) => format!("Stopped early: {why}. The numbers below cover the {} cycles simulated.", grouped(report.cycles)),
                None => format!("Finished: {} cycles, IPC {:.2}, simulated in {:.2} s ({} cycles/s).",
                    grouped(report.cycles), report.ipc, result.elapsed_ms / 1000.0,
                    short(report.cycles as f64 / (result.elapsed_ms / 1000.0).max(1e-3))),
            } }
        </p>
    };
    // What looks wrong in how the kernels ran (a barrier only part of a block reached).
    let warnings = (!report.warnings.is_empty()).then(|| {
        html! {
            <ul class="run-warnings" aria-label="Warnings about the run">
                { for report.warnings.iter().map(|w| html! { <li class="warning">{ w.clone() }</li> }) }
            </ul>
        }
    });
    let status = html! { <>{ status }{ warnings.unwrap_or_default() }</> };
    let timeline = html! {
        <section class="panel" aria-label="Thread blocks over time">
            <Timeline report={report.clone()} sm_count={props.sm_count} cursor={*cursor} on_seek={Some(on_seek.clone())} />
        </section>
    };
    let playback = html! {
        <section class="panel" aria-labelledby="playback-title">
            <h3 id="playback-title">{ "Playback" }</h3>
            <Playback snapshots={result.snapshots.clone()} cursor={*cursor} on_seek={on_seek.clone()} />
        </section>
    };
    if props.compact {
        return html! { <>{ status }{ timeline }{ playback }</> };
    }
    let locality = has_scores(&result.snapshots).then(|| {
        html! { <LostLocality snapshots={result.snapshots.clone()} cursor={*cursor} /> }
    });
    let interference = has_interference(&result.snapshots).then(|| {
        html! { <InterferencePanel snapshots={result.snapshots.clone()} cursor={*cursor} /> }
    });
    let chunks = has_chunks(&result.snapshots).then(|| {
        html! { <ChunkPanel snapshots={result.snapshots.clone()} cursor={*cursor} /> }
    });
    let queues = has_queues(&result.snapshots).then(|| {
        html! { <QueuePanel snapshots={result.snapshots.clone()} cursor={*cursor} /> }
    });
    let launch_queues = has_launch_queues(&series).then(|| {
        html! { <LaunchQueues series={(*series).clone()} cursor={*cursor} /> }
    });
    let parts = use_memo(Same(report.clone()), |report| Rc::new(report.0.parts.clone()));
    let blocking = use_memo(Same(report.clone()), |report| report.0.memory_blocking.clone().map(Rc::new));
    let held_back = (*blocking).clone().map(|blocking| {
        html! { <HeldBack series={(*series).clone()} {blocking} sm_count={props.sm_count} cursor={*cursor} /> }
    });
    let programs = (!parts.is_empty()).then(|| {
        html! { <ProgramSeries series={(*series).clone()} parts={(*parts).clone()} sm_count={props.sm_count} cursor={*cursor} /> }
    });
    let sweep = props.sweeper.as_ref().map(|s| {
        html! {
            <SweepPanel origin={result.clone()} sweep={props.sweep.clone()} warp_policies={s.warp_policies.clone()}
                workers={s.workers} on_start={s.on_start.clone()} on_cancel={s.on_cancel.clone()} />
        }
    });
    let warp_policy = result.job.as_ref().map(|j| AttrValue::from(j.policies.warp.clone()));
    let save = |name: &'static str, mime: &'static str, build: fn(&Report) -> String| {
        let report = report.clone();
        Callback::from(move |_: MouseEvent| download_text(&build(&report), mime, name))
    };
    let json = save("warpscope-report.json", "application/json", export::report_json);
    let summary_csv = save("warpscope-summary.csv", "text/csv", export::summary_csv);
    let blocks_csv = save("warpscope-blocks.csv", "text/csv", export::blocks_csv);
    let series_csv = save("warpscope-series.csv", "text/csv", |r| crate::csv::series_csv(&r.series));
    // A buffer's final contents, one element per line, from the worker that ran it.
    let chosen_buffer = use_state(|| 0u32);
    let buffer_export = props.on_buffer.clone().filter(|_| !result.buffers.is_empty()).map(|on_buffer| {
        let on_choose = {
            let chosen_buffer = chosen_buffer.clone();
            Callback::from(move |e: Event| {
                let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
                chosen_buffer.set(select.value().parse().unwrap_or(0));
            })
        };
        let (ran_on, chosen) = (result.ran_on, *chosen_buffer);
        let ask = Callback::from(move |_: MouseEvent| on_buffer.emit((ran_on.0, ran_on.1, chosen)));
        html! {
            <span class="buffer-export">
                <label for="export-buffer-choice">{ "buffer" }</label>
                <select id="export-buffer-choice" onchange={on_choose}>
                    { for result.buffers.iter().enumerate().map(|(i, name)| html! {
                        <option value={i.to_string()} selected={i as u32 == chosen}>{ name.clone() }</option>
                    }) }
                </select>
                <button type="button" class="link" id="export-buffer" onclick={ask}>{ "contents (text)" }</button>
            </span>
        }
    });
    html! {
        <>
            { status }
            <div class="exports" role="group" aria-label="Export">
                <span>{ "Export:" }</span>
                <button type="button" class="link" id="export-json" onclick={json}>{ "report (JSON)" }</button>
                <button type="button" class="link" id="export-summary" onclick={summary_csv}>{ "statistics (CSV)" }</button>
                <button type="button" class="link" id="export-blocks" onclick={blocks_csv}>{ "thread blocks (CSV)" }</button>
                <button type="button" class="link" id="export-series" onclick={series_csv}>{ "time series (CSV)" }</button>
                { buffer_export.unwrap_or_default() }
            </div>
            { timeline }
            { playback }
            { locality.unwrap_or_default() }
            { interference.unwrap_or_default() }
            { chunks.unwrap_or_default() }
            { queues.unwrap_or_default() }
            <section class="panel" aria-labelledby="charts-title">
                <h3 id="charts-title">{ "Over time" }</h3>
                <Charts series={(*series).clone()} cursor={*cursor} />
                { programs.unwrap_or_default() }
                { held_back.unwrap_or_default() }
                { launch_queues.unwrap_or_default() }
            </section>
            <section class="panel" aria-labelledby="stats-title">
                <h3 id="stats-title">{ "Statistics" }</h3>
                <StatsTable report={report.clone()} {warp_policy} />
            </section>
            { sweep.unwrap_or_default() }
        </>
    }
}

/// Props of [`ProgressBar`].
#[derive(Properties, PartialEq)]
pub struct ProgressBarProps {
    /// Done share, 0..=1.
    pub fraction: f64,
    /// Its accessible name.
    #[prop_or(AttrValue::Static("Simulation progress"))]
    pub label: AttrValue,
}

/// An accessible progress bar.
#[function_component(ProgressBar)]
pub fn progress_bar(props: &ProgressBarProps) -> Html {
    let percent = (props.fraction.clamp(0.0, 1.0) * 100.0).round();
    html! {
        <div class="progress" role="progressbar" aria-label={props.label.clone()} aria-valuemin="0" aria-valuemax="100"
            aria-valuenow={percent.to_string()}>
            // Scaled rather than sized, and not animated: an update then lays out nothing, and
            // no frames are drawn between updates (a transition cost the main thread a third of
            // its time while a card's runs reported from two workers).
            <div class="progress-fill" style={format!("transform: scaleX({})", percent / 100.0)}></div>
        </div>
    }
}
