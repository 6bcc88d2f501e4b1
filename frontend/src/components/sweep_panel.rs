//! The warp-limit sweep of a finished run: one button reruns its set-up under the static warp
//! limit for each limit of [`swl_sweep::limits`] on the page's workers; while they run, the
//! progress and a Cancel; then IPC and L1 misses per thousand instructions against the limit,
//! the best limit (Best-SWL) ringed and the run's own policy marked, with the numbers in a
//! table.

use std::rc::Rc;

use warpscope_wasm::protocol::CatalogPolicy;
use yew::prelude::*;

use crate::components::policy_picker::describe;
use crate::components::run_view::ProgressBar;
use crate::components::xy_chart::{Marker, Rule, Series, Shape, XAxis, XyChart};
use crate::format::grouped;
use crate::plot::palette::ACCENT;
use crate::plot::scores::slot_ranges;
use crate::state::{RunResult, RunView};
use crate::swl_sweep::{self, best, limit_of, Point, Sweep};

/// L1 misses' colour (the charts' L2 colour: a second quantity beside the accent).
const MISSES: &str = "#d97706";
/// The best limit's ring.
const BEST: &str = "#b45309";
/// The run's own policy.
const OWN: &str = "#7c3aed";

/// Props of [`SweepPanel`].
#[derive(Properties, PartialEq)]
pub struct SweepPanelProps {
    /// The run swept (its job and report).
    pub origin: Rc<RunResult>,
    /// The sweep, once started.
    pub sweep: Option<Sweep>,
    /// The warp policies' menu entries, to name the run's own.
    pub warp_policies: Rc<Vec<CatalogPolicy>>,
    /// Workers the page runs at most.
    pub workers: usize,
    /// Start (or restart) the sweep.
    pub on_start: Callback<()>,
    /// Stop it.
    pub on_cancel: Callback<()>,
}

/// The sweep's panel.
#[function_component(SweepPanel)]
pub fn sweep_panel(props: &SweepPanelProps) -> Html {
    let Some(job) = props.origin.job.as_ref() else { return Html::default() };
    let slots = job.config.core.max_warps_per_sm;
    let limits = swl_sweep::limits(slots);
    let own_spec = job.policies.warp.as_str();
    let own_label = describe(own_spec, &props.warp_policies);
    let busy = props.sweep.as_ref().is_some_and(Sweep::busy);
    let (done, fraction) = props.sweep.as_ref().map_or((0, 0.0), Sweep::progress);
    let total = props.sweep.as_ref().map_or(limits.len(), |s| s.limits.len());
    let status = match &props.sweep {
        None => String::new(),
        Some(_) if busy => format!("{done} of {total} limits done…"),
        Some(_) if done == total => format!("All {total} limits done."),
        Some(s) => {
            let failed = s.runs.iter().filter(|r| matches!(r, RunView::Failed { .. })).count();
            match failed {
                0 => format!("Stopped: {done} of {total} limits ran."),
                n => format!("{done} of {total} limits ran; {n} failed."),
            }
        }
    };
    let start = if busy { Callback::noop() } else { props.on_start.reform(|_: MouseEvent| ()) };
    let cancel = if busy { props.on_cancel.reform(|_: MouseEvent| ()) } else { Callback::noop() };
    html! {
        <section class="panel sweep-panel" id="swl-panel" aria-labelledby="swl-title">
            <h3 id="swl-title">{ "Static warp limit sweep (Best-SWL)" }</h3>
            <p class="lede">{ format!(
                "Runs this set-up again — same kernel file, parameters, machine and thread-block scheduler — with \
                 greedy-then-oldest limited to the SM's L oldest warps, for L = {} ({} runs, of up to {} warps each SM \
                 holds), spread over up to {} worker{}. The best limit is the CCWS paper's Best-SWL, an oracle chosen \
                 per workload; the dashed line is this run, under {own_label}.",
                limits_text(&limits), limits.len(), slots, props.workers, if props.workers == 1 { "" } else { "s" }) }</p>
            <div class="actions">
                <button type="button" id="swl-sweep" aria-disabled={busy.then_some("true")} onclick={start}>
                    { if props.sweep.is_some() { "Sweep again" } else { "Sweep warp limits" } }
                </button>
                <button type="button" id="swl-cancel" aria-disabled={(!busy).then_some("true")} onclick={cancel}>{ "Cancel" }</button>
                <span class="summary" id="swl-status" aria-live="polite">{ status }</span>
            </div>
            if busy {
                <ProgressBar fraction={fraction} label="Warp-limit sweep progress" />
            }
            if let Some(sweep) = &props.sweep {
                { results(sweep, &props.origin, own_spec, &own_label) }
            }
        </section>
    }
}

/// `1–8, 12, 16, 24, 32`.
fn limits_text(limits: &[u32]) -> String {
    slot_ranges(&limits.iter().map(|&l| l as usize).collect::<Vec<_>>())
}

/// The summary, the two charts and the table, from the limits that finished.
fn results(sweep: &Sweep, origin: &RunResult, own_spec: &str, own_label: &str) -> Html {
    let points = sweep.points();
    let failures: Vec<(u32, String)> = sweep
        .limits
        .iter()
        .zip(&sweep.runs)
        .filter_map(|(&l, r)| match r {
            RunView::Failed { message, .. } => Some((l, message.clone())),
            _ => None,
        })
        .collect();
    let failures = html! {
        if !failures.is_empty() {
            <ul class="sweep-failures">
                { for failures.iter().map(|(l, m)| html! { <li class="error">{ format!("Limit {l}: {m}") }</li> }) }
            </ul>
        }
    };
    if points.is_empty() {
        return failures;
    }
    let own = Point::measure(0, &origin.report, origin.stopped_early.is_some());
    let own_limit = limit_of(own_spec).filter(|l| sweep.limits.contains(l));
    let best = best(&points).copied();
    let widest = points.iter().max_by_key(|p| p.limit).copied();
    let ratio = |a: f64, b: f64| if b > 0.0 { format!("{:.2}×", a / b) } else { "–".into() };
    let summary = match best {
        Some(b) => {
            let against_all = widest
                .filter(|w| w.limit != b.limit)
                .map(|w| format!(", {} the IPC with all {} warps", ratio(b.ipc, w.ipc), w.limit))
                .unwrap_or_default();
            format!(
                "Best-SWL: {} warp{} — IPC {:.3}{against_all}. This run, under {own_label}: IPC {:.3}, {} Best-SWL's; L1 MPKI \
                 {:.1} against {:.1}.",
                b.limit,
                if b.limit == 1 { "" } else { "s" },
                b.ipc,
                own.ipc,
                ratio(own.ipc, b.ipc),
                own.l1_mpki,
                b.l1_mpki
            )
        }
        None => "No limit ran to the end within the cycle budget, so none is the best.".into(),
    };
    let limits = Rc::new(sweep.limits.clone());
    let markers = |value: fn(&Point) -> f64| {
        let mut m = Vec::new();
        if let Some(b) = best {
            m.push(Marker {
                x: b.limit as f64,
                y: value(&b),
                label: format!("Best-SWL {}", b.limit),
                colour: BEST.into(),
                id: None,
            });
        }
        if let Some(p) = own_limit.and_then(|l| points.iter().find(|p| p.limit == l)) {
            if best.map(|b| b.limit) != Some(p.limit) {
                m.push(Marker {
                    x: p.limit as f64,
                    y: value(p),
                    label: "this run".into(),
                    colour: OWN.into(),
                    id: None,
                });
            }
        }
        Rc::new(m)
    };
    let own_rule = |value: f64, shown: String| {
        Rc::new(vec![Rule { y: value, label: format!("this run, {own_label}: {shown}"), colour: OWN.into() }])
    };
    let series = |label: &str, colour: &str, value: fn(&Point) -> f64| {
        Rc::new(vec![Series {
            label: label.into(),
            colour: colour.into(),
            points: points.iter().map(|p| (p.limit as f64, value(p))).collect(),
            shape: Shape::Points,
        }])
    };
    let ipc = |p: &Point| p.ipc;
    let mpki = |p: &Point| p.l1_mpki;
    let describe_curve = |what: &str, value: fn(&Point) -> f64, decimals: usize| {
        let list: Vec<String> = points.iter().map(|p| format!("{} warps {:.decimals$}", p.limit, value(p))).collect();
        format!(
            "{what} against the warp limit: {}. This run, under {own_label}: {:.decimals$}.",
            list.join(", "),
            value(&own)
        )
    };
    html! {
        <>
            <p class="sweep-summary" id="swl-summary">{ summary }</p>
            <div class="viz-charts sweep-charts">
                <XyChart id="swl-ipc" caption="Performance against the warp limit"
                    description={describe_curve("IPC", ipc, 3)} x={XAxis::Limits(limits.clone())}
                    x_title="warp limit (warps per SM that may issue; log scale)" y_title="IPC (warp instructions / cycle)"
                    series={series("IPC", ACCENT, ipc)} rules={own_rule(own.ipc, format!("IPC {:.3}", own.ipc))} markers={markers(ipc)} />
                <XyChart id="swl-mpki" caption="L1 misses against the warp limit"
                    description={describe_curve("L1 misses per thousand warp instructions", mpki, 1)} x={XAxis::Limits(limits)}
                    x_title="warp limit (warps per SM that may issue; log scale)" y_title="L1 misses / 1000 warp instr."
                    series={series("L1 MPKI", MISSES, mpki)} rules={own_rule(own.l1_mpki, format!("{:.1} MPKI", own.l1_mpki))} markers={markers(mpki)} />
            </div>
            <div class="table-scroll">
                <table class="report sweep-table" id="swl-table">
                    <thead><tr>
                        <th scope="col">{ "Warp limit" }</th><th scope="col">{ "Cycles" }</th><th scope="col">{ "IPC" }</th>
                        <th scope="col">{ "vs this run" }</th><th scope="col">{ "L1 MPKI" }</th><th scope="col">{ "L1 hit rate" }</th>
                    </tr></thead>
                    <tbody>
                        { for points.iter().map(|p| {
                            let is_best = best.is_some_and(|b| b.limit == p.limit);
                            html! {
                                <tr id={format!("swl-row-{}", p.limit)} class={classes!(is_best.then_some("best"))}>
                                    <th scope="row">{ p.limit }
                                        if is_best { <span class="badge">{ " Best-SWL" }</span> }
                                        if p.stopped_early { <span class="badge warning" title="stopped at the cycle budget">{ " budget" }</span> }
                                    </th>
                                    <td class="num">{ grouped(p.cycles) }</td>
                                    <td class="num">{ format!("{:.3}", p.ipc) }</td>
                                    <td class="num">{ ratio(p.ipc, own.ipc) }</td>
                                    <td class="num">{ format!("{:.1}", p.l1_mpki) }</td>
                                    <td class="num">{ format!("{:.1} %", 100.0 * p.l1_hit_rate) }</td>
                                </tr>
                            }
                        }) }
                        <tr class="own">
                            <th scope="row">{ format!("this run: {own_label}") }</th>
                            <td class="num">{ grouped(own.cycles) }</td>
                            <td class="num">{ format!("{:.3}", own.ipc) }</td>
                            <td class="num">{ "1.00×" }</td>
                            <td class="num">{ format!("{:.1}", own.l1_mpki) }</td>
                            <td class="num">{ format!("{:.1} %", 100.0 * own.l1_hit_rate) }</td>
                        </tr>
                    </tbody>
                </table>
            </div>
            { failures }
        </>
    }
}
