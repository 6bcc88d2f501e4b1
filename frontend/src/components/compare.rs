//! The compare view: the current workload and machine under two to six policy/coherence
//! choices (a gallery card may bring more, with hardware settings of their own), run side by
//! side on the page's workers, with a summary table (speedup against the first) and the same
//! charts overlaid.

use std::rc::Rc;

use warpscope_core::config::Coherence;
use warpscope_wasm::protocol::CatalogPolicy;
use yew::prelude::*;

use crate::components::breakdown::Breakdown;
use crate::components::charts::Charts;
use crate::components::policy_picker::{describe, PolicyPicker};
use crate::components::run_view::ProgressBar;
use crate::format::{grouped, percent};
use crate::plot::breakdown::{accesses, energy, traffic, Scale, ACCESS_PARTS, ENERGY_PARTS, TRAFFIC_PARTS};
use crate::state::RunView;

/// Fewest and most variants.
pub const MIN_VARIANTS: usize = 2;
/// Most variants side by side.
pub const MAX_VARIANTS: usize = 6;

/// One column of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Thread-block scheduler (a policy spec, parameters included).
    pub tb: String,
    /// Warp scheduler (a policy spec).
    pub warp: String,
    /// L1 at kernel boundaries; `None`: as the machine is configured.
    pub coherence: Option<Coherence>,
    /// Hardware settings changed for this variant only (path, value), after the machine's:
    /// a gallery card's variants bring them (a larger L1, say).
    pub settings: Vec<(String, String)>,
    /// `#define`s overridden for this variant only, after the set-up's.
    pub defines: Vec<(String, String)>,
}

impl Variant {
    /// A short name: "Round-robin · Greedy-then-oldest · DeNovo", with parameters that differ
    /// from their defaults.
    pub fn label(&self, tb: &[CatalogPolicy], warp: &[CatalogPolicy]) -> String {
        let mut label = format!("{} · {}", describe(&self.tb, tb), describe(&self.warp, warp));
        match self.coherence {
            Some(Coherence::KeepL1) => label.push_str(" · every L1 line kept (what-if)"),
            Some(Coherence::InvalidateL1) => label.push_str(" · GPU coherence"),
            Some(Coherence::DeNovo) => label.push_str(" · DeNovo"),
            None => {}
        }
        for (name, value) in self.settings.iter().chain(&self.defines) {
            label.push_str(&format!(" · {name}={value}"));
        }
        label
    }

    /// A variant with only the policies chosen.
    pub fn policies(tb: impl Into<String>, warp: impl Into<String>) -> Variant {
        Variant { tb: tb.into(), warp: warp.into(), coherence: None, settings: Vec::new(), defines: Vec::new() }
    }

    /// A claim row's variant (a gallery card's).
    pub fn from_claim(v: &warpscope_core::claims::Variant) -> Variant {
        let pairs = |list: &[(&str, &str)]| list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        Variant { settings: pairs(v.settings), defines: pairs(v.defines), ..Variant::policies(v.tb, v.warp) }
    }
}

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// The variants.
    pub variants: Vec<Variant>,
    /// Their runs, index for index.
    pub runs: Vec<RunView>,
    /// Menus.
    pub tb_policies: Rc<Vec<CatalogPolicy>>,
    /// Menus.
    pub warp_policies: Rc<Vec<CatalogPolicy>>,
    /// The memory-issue gates a warp scheduler may carry.
    #[prop_or_default]
    pub memory_gates: Rc<Vec<CatalogPolicy>>,
    /// What is being compared ("hotspot on Fermi GTX 480").
    pub subject: AttrValue,
    /// A variant changed: (index, new value), or removed (None).
    pub on_change: Callback<(usize, Option<Variant>)>,
    /// Add a variant.
    pub on_add: Callback<()>,
    /// Run every variant.
    pub on_run: Callback<()>,
    /// Stop.
    pub on_cancel: Callback<()>,
    /// Whether a job runs (menus are locked).
    pub busy: bool,
}

/// Variant editor, summary table and overlaid charts.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareProps) -> Html {
    let coherence_select = |index: usize, options: Vec<(String, String)>, value: String| {
        let (variants, on_change) = (props.variants.clone(), props.on_change.clone());
        let onchange = Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let mut v = variants[index].clone();
            v.coherence = match select.value().as_str() {
                "keep" => Some(Coherence::KeepL1),
                "invalidate" => Some(Coherence::InvalidateL1),
                "denovo" => Some(Coherence::DeNovo),
                _ => None,
            };
            on_change.emit((index, Some(v)));
        });
        html! {
            <select id={format!("cmp-coherence-{index}")} aria-label={format!("L1 coherence of variant {}", index + 1)}
                disabled={props.busy} {onchange}>
                { for options.into_iter().map(|(id, label)| html! {
                    <option value={id.clone()} selected={id == value}>{ label }</option>
                }) }
            </select>
        }
    };
    let picker = |index: usize, kind: &'static str, policies: &Rc<Vec<CatalogPolicy>>, spec: &str| {
        let (variants, on_change) = (props.variants.clone(), props.on_change.clone());
        let on_spec = Callback::from(move |spec: String| {
            let mut v = variants[index].clone();
            if kind == "tb" {
                v.tb = spec;
            } else {
                v.warp = spec;
            }
            on_change.emit((index, Some(v)));
        });
        let what = if kind == "tb" { "thread-block scheduler" } else { "warp scheduler" };
        html! {
            <PolicyPicker id={format!("cmp-{kind}-{index}")} label={format!("{what} of variant {}", index + 1)}
                show_label={false} policies={policies.clone()} spec={spec.to_string()} on_change={on_spec}
                disabled={props.busy} gates={if kind == "warp" { props.memory_gates.clone() } else { Rc::default() }} />
        }
    };
    let coherence_options = vec![
        ("machine".to_string(), "as the machine is set".to_string()),
        ("invalidate".to_string(), "GPU coherence: invalidated at kernel boundaries".to_string()),
        ("denovo".to_string(), "DeNovo: owned data kept".to_string()),
        ("keep".to_string(), "What-if: every line kept".to_string()),
    ];
    let baseline = props.runs.first().and_then(|r| r.result()).map(|r| r.report.cycles);
    let labels: Vec<String> =
        props.variants.iter().map(|v| v.label(&props.tb_policies, &props.warp_policies)).collect();
    let finished: Vec<(AttrValue, &warpscope_core::stats::Report)> = props
        .runs
        .iter()
        .zip(&labels)
        .filter_map(|(run, label)| run.result().map(|r| (AttrValue::from(label.clone()), &*r.report)))
        .collect();
    let overlay: Vec<(AttrValue, Rc<warpscope_core::stats::TimeSeries>)> = props
        .runs
        .iter()
        .zip(&labels)
        .filter_map(|(run, label)| {
            run.result().map(|r| (AttrValue::from(label.clone()), Rc::new(r.report.series.clone())))
        })
        .collect();
    let done = props.runs.iter().filter(|r| r.result().is_some()).count();
    html! {
        <div class="compare">
            <p class="lede">{ format!("The same set-up — {} — under different choices, run side by side \
                on the page's workers. Speedups are against the first variant.", props.subject) }</p>
            <div class="table-scroll">
                <table class="report compare-table" id="compare-table">
                    <thead><tr>
                        <th scope="col">{ "Variant" }</th><th scope="col">{ "Thread blocks" }</th><th scope="col">{ "Warps" }</th>
                        <th scope="col">{ "Coherence" }</th><th scope="col">{ "Cycles" }</th><th scope="col">{ "Speedup" }</th>
                        <th scope="col">{ "IPC" }</th><th scope="col">{ "L1 hits" }</th><th scope="col">{ "L2 hits" }</th>
                        <th scope="col">{ "DRAM lines" }</th><th scope="col"></th>
                    </tr></thead>
                    <tbody>
                        { for props.variants.iter().enumerate().map(|(i, v)| {
                            let run = props.runs.get(i).cloned().unwrap_or(RunView::Idle);
                            let coherence = match v.coherence {
                                Some(Coherence::KeepL1) => "keep",
                                Some(Coherence::InvalidateL1) => "invalidate",
                                Some(Coherence::DeNovo) => "denovo",
                                None => "machine",
                            };
                            let cells = match &run {
                                RunView::Finished(r) => {
                                    let rep = &r.report;
                                    let speedup = baseline.filter(|_| rep.cycles > 0).map(|b| b as f64 / rep.cycles as f64);
                                    html! { <>
                                        <td class="num" id={format!("cmp-cycles-{i}")}>{ grouped(rep.cycles) }
                                            if r.stopped_early.is_some() { <span class="badge warning" title="stopped at the cycle budget">{ " budget" }</span> }</td>
                                        <td class="num" id={format!("cmp-speedup-{i}")}>{ speedup.map_or("–".into(), |s| format!("{s:.2}×")) }</td>
                                        <td class="num">{ format!("{:.2}", rep.ipc) }</td>
                                        <td class="num">{ percent(rep.l1.hits + rep.l1.owned_writes, rep.l1.accesses) }</td>
                                        <td class="num">{ percent(rep.l2.hits, rep.l2.hits + rep.l2.misses) }</td>
                                        <td class="num">{ grouped(rep.dram.reads + rep.dram.writes) }</td>
                                    </> }
                                }
                                RunView::Running { fraction, .. } => html! { <td colspan="6"><ProgressBar fraction={*fraction} /></td> },
                                RunView::Queued => html! { <td colspan="6" class="note">{ "waiting…" }</td> },
                                RunView::Failed { message, .. } => html! { <td colspan="6" class="error">{ message.clone() }</td> },
                                RunView::Cancelled { .. } => html! { <td colspan="6" class="note">{ "cancelled" }</td> },
                                RunView::Idle => html! { <td colspan="6" class="note">{ "not run" }</td> },
                            };
                            let remove = {
                                let on_change = props.on_change.clone();
                                Callback::from(move |_: MouseEvent| on_change.emit((i, None)))
                            };
                            html! {
                                <tr>
                                    <th scope="row">{ labels[i].clone() }</th>
                                    <td class="policy-cell">{ picker(i, "tb", &props.tb_policies, &v.tb) }</td>
                                    <td class="policy-cell">{ picker(i, "warp", &props.warp_policies, &v.warp) }</td>
                                    <td>{ coherence_select(i, coherence_options.clone(), coherence.to_string()) }</td>
                                    { cells }
                                    <td>
                                        if props.variants.len() > MIN_VARIANTS {
                                            <button type="button" class="link" onclick={remove} disabled={props.busy}
                                                aria-label={format!("Remove variant {}", i + 1)}>{ "Remove" }</button>
                                        }
                                    </td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            <div class="actions">
                // Inert rather than disabled while runs go on, so that keyboard focus stays put.
                <button type="button" id="compare-run" class="primary" aria-disabled={props.busy.then_some("true")}
                    onclick={if props.busy { Callback::noop() } else { props.on_run.reform(|_| ()) }}>{ "Run all" }</button>
                <button type="button" id="compare-cancel" aria-disabled={(!props.busy).then_some("true")}
                    onclick={if props.busy { props.on_cancel.reform(|_| ()) } else { Callback::noop() }}>{ "Cancel" }</button>
                <button type="button" id="compare-add" disabled={props.busy || props.variants.len() >= MAX_VARIANTS}
                    onclick={props.on_add.reform(|_| ())}>{ "Add a variant" }</button>
                <span class="summary">{ format!("{done} of {} finished", props.variants.len()) }</span>
            </div>
            if !overlay.is_empty() {
                <section class="panel" aria-labelledby="compare-charts-title">
                    <h3 id="compare-charts-title">{ "Over time" }</h3>
                    <Charts series={overlay[0].1.clone()} overlay={overlay.clone()} />
                </section>
            }
            if !finished.is_empty() {
                <section class="panel" aria-labelledby="compare-breakdowns-title">
                    <h3 id="compare-breakdowns-title">{ "Accesses, traffic and energy" }</h3>
                    <Breakdown id="breakdown-accesses" title="Where accesses were served"
                        note="Shares of each variant's global accesses served by its own L1 (under DeNovo, writes to owned data too), another SM's L1 (DeNovo's forwarded reads), the L2, or memory."
                        parts={&ACCESS_PARTS[..]} scale={Scale::Shares}
                        rows={finished.iter().map(|(label, r)| (label.clone(), accesses(r).to_vec())).collect::<Vec<_>>()} />
                    <Breakdown id="breakdown-traffic" title="Network traffic by class"
                        note="Flit-hops (flits times the hops each travelled), each bar against the top bar's total."
                        parts={&TRAFFIC_PARTS[..]} scale={Scale::RelativeToFirst}
                        rows={finished.iter().map(|(label, r)| (label.clone(), traffic(r).to_vec())).collect::<Vec<_>>()} />
                    <Breakdown id="breakdown-energy" title="Dynamic energy by component"
                        note="The IKRA paper's components (no DRAM, idle or static energy), each bar against the top bar's total."
                        parts={&ENERGY_PARTS[..]} scale={Scale::RelativeToFirst}
                        rows={finished.iter().map(|(label, r)| (label.clone(), energy(r).to_vec())).collect::<Vec<_>>()} />
                </section>
            }
        </div>
    }
}
