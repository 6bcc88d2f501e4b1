//! The paper gallery: the headline claim rows as cards, grouped by paper. Each card shows the
//! claim, the paper's number, the set-up and the row's recorded status; a card that can run
//! reproduces its runs in the page's workers and shows, check by check, what was expected and
//! what was seen, with the verdict computed here by the native test's own judge.

use warpscope_core::claims::judge::num;
use warpscope_core::claims::{Claim, Status};
use yew::prelude::*;

use crate::components::run_view::ProgressBar;
use crate::gallery::{self, Card, Progress};
use crate::state::RunView;

/// Props of [`GalleryView`].
#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// Per card (in [`gallery::cards`] order), per run.
    pub runs: Vec<Vec<RunView>>,
    /// Reproduce card `n`.
    pub on_run: Callback<usize>,
    /// Stop card `n`'s runs.
    pub on_cancel: Callback<usize>,
    /// Load card `n`'s workload `w` and its variants into the compare view.
    pub on_open: Callback<(usize, usize)>,
    /// Most workers the page runs at once.
    pub workers: usize,
}

/// The cards, paper by paper.
#[function_component(GalleryView)]
pub fn gallery_view(props: &GalleryProps) -> Html {
    let cards = gallery::cards();
    let runnable = cards.iter().filter(|c| c.runnable()).count();
    let workers = match props.workers {
        1 => "one Web Worker".to_string(),
        n => format!("up to {n} Web Workers at once"),
    };
    html! {
        <div class="gallery">
            <p class="lede">{ "Each card is one of the papers' headline claims, straight from the table of claims that \
                the native test checks (REPRODUCTION.md). Reproduce runs the claim's simulations in your browser, on " }
                { workers }{ ", and judges them with the test's own code. The papers' machines and benchmarks are \
                larger, so expect the same direction and a similar order of magnitude, not the same digits." }</p>
            <p class="gallery-summary">
                { format!("{} headline claims; {} wait for the mechanisms their paper's issue adds. Runnable today: ",
                    cards.len(), cards.len() - runnable) }
                { for cards.iter().filter(|c| c.runnable()).enumerate().map(|(i, c)| html! {
                    <>
                        if i > 0 { { " · " } }
                        <a href={format!("#{}", c.element_id())}>{ c.claim.id }</a>
                    </>
                }) }
                { "." }
            </p>
            { for gallery::by_paper().into_iter().map(|(paper, indices)| html! {
                <section class="paper-group" aria-labelledby={format!("paper-{}", paper.id())}>
                    <div class="paper-head">
                        <h2 id={format!("paper-{}", paper.id())}>{ paper.title() }</h2>
                        <span class="source">{ format!("claims of {}", paper.source()) }</span>
                    </div>
                    <div class="cards">
                        { for indices.into_iter().map(|i| card_html(i, &cards[i], props)) }
                    </div>
                </section>
            }) }
        </div>
    }
}

fn status_badge(status: Status) -> (&'static str, &'static str) {
    match status {
        Status::Pass => ("pass", "Pass"),
        Status::KnownFailure(_) => ("known-failure", "Known failure"),
        Status::Pending(_) => ("pending", "Pending"),
    }
}

fn card_html(index: usize, card: &Card, props: &GalleryProps) -> Html {
    let claim = card.claim;
    let id = card.element_id();
    let title_id = format!("{id}-title");
    let runs = props.runs.get(index).cloned().unwrap_or_default();
    let (status_class, status_text) = status_badge(claim.status);
    let busy = runs.iter().any(RunView::busy);
    let recorded = match claim.status {
        Status::Pass => html! { { "Pass: every check holds, and the native test fails if one stops holding." } },
        Status::KnownFailure(why) => html! { <>
            <strong>{ "Known failure" }</strong>{ format!(" (the native test fails if it starts to hold): {why}.") }
        </> },
        Status::Pending(what) => html! { <>
            <strong>{ "Pending" }</strong>{ format!(": waits for {what}. Not run until then.") }
        </> },
    };
    html! {
        <article class={classes!("card", "gallery-card", format!("status-{status_class}"))} id={id.clone()}
            data-claim={claim.id} aria-labelledby={title_id.clone()}>
            <div class="card-top">
                <span class="claim-id">{ claim.id }</span>
                <span class={classes!("status-badge", status_class)}>{ status_text }</span>
            </div>
            <h3 id={title_id.clone()}>{ claim.statement }</h3>
            <dl class="result">
                <dt>{ "Paper" }</dt>
                <dd class="paper-says">{ claim.paper_says }</dd>
                <dt>{ "Set-up" }</dt>
                <dd class="setup">{ setup_html(claim) }</dd>
                <dt>{ "Recorded" }</dt>
                <dd class="recorded">{ recorded }</dd>
                if card.runnable() {
                    <dt>{ "Ours" }</dt>
                    <dd class="ours" aria-live="polite">{ ours_html(card, &runs, props.workers) }</dd>
                }
            </dl>
            if card.runnable() {
                { runs_table(card, &runs) }
                <div class="actions">
                    // Inert rather than disabled while runs go on, so that keyboard focus stays put.
                    <button type="button" class="primary" aria-disabled={busy.then_some("true")}
                        aria-describedby={title_id.clone()}
                        onclick={if busy { Callback::noop() } else { props.on_run.reform(move |_| index) }}>
                        { "Reproduce" }
                    </button>
                    <button type="button" class="cancel" aria-disabled={(!busy).then_some("true")}
                        aria-describedby={title_id.clone()}
                        onclick={if busy { props.on_cancel.reform(move |_| index) } else { Callback::noop() }}>
                        { "Cancel" }
                    </button>
                    { open_buttons(index, claim, &props.on_open, &title_id) }
                </div>
                <p class="rerun">{ "Natively: " }<code>{ format!("warpscope reproduce --claim {}", claim.id) }</code></p>
            }
        </article>
    }
}

/// Machine, workloads and variants.
fn setup_html(claim: &Claim) -> Html {
    let settings = gallery::settings(claim);
    html! {
        <>
            <span class="machine">{ gallery::machine_name(claim.machine) }</span>
            if !settings.is_empty() {
                <span class="settings">{ " with " }<code>{ settings }</code></span>
            }
            { " · " }<span class="workloads">{ gallery::workloads(claim) }</span>
            <ul class="variants" aria-label="Variants">
                { for claim.variants.iter().map(|v| html! {
                    <li><span class="variant">{ v.label }</span>{ " " }<code>{ gallery::variant_flags(v) }</code></li>
                }) }
            </ul>
        </>
    }
}

/// What the page measured: progress, then each check and the verdict.
fn ours_html(card: &Card, runs: &[RunView], workers: usize) -> Html {
    let claim = card.claim;
    let total = card.runs.len();
    match gallery::progress(card, runs) {
        Progress::NotRun => html! {
            <span class="note">{ format!(
                "Not run yet. Reproduce runs its {total} simulations ({} workload{} × {} variants) here, {} at a time.",
                claim.workloads.len(),
                if claim.workloads.len() == 1 { "" } else { "s" },
                claim.variants.len(),
                workers.min(total),
            ) }</span>
        },
        Progress::Running { done, running, fraction } => html! {
            <>
                <ProgressBar {fraction} />
                <span class="note run-count">{ format!("{done} of {total} runs done · {running} running") }</span>
            </>
        },
        Progress::Cancelled => html! { <span class="note">{ "Cancelled. Reproduce starts again." }</span> },
        Progress::Failed(message) => html! { <span class="error">{ format!("A run failed: {message}") }</span> },
        Progress::Judged(verdict) => {
            let agreement = gallery::agrees(claim, &verdict);
            let sentence = match (verdict.holds, claim.status) {
                (true, Status::Pass) => "Holds, as the native test records.",
                (false, Status::KnownFailure(_)) => "Does not hold: a known failure, as the native test records.",
                (true, _) => "Holds.",
                (false, _) => "Does not hold.",
            };
            html! {
                <>
                    <ul class="checks">
                        { for claim.checks.iter().zip(&verdict.checks).map(|(check, outcome)| {
                            let class = if outcome.holds { "holds" } else { "fails" };
                            let parts = gallery::seen_parts(&outcome.seen);
                            let last = parts.len().saturating_sub(1);
                            html! {
                                <li class={classes!("claim-check", class)} data-holds={outcome.holds.to_string()}>
                                    <div class="claim-check-head">
                                        <span class="mark" aria-hidden="true">{ if outcome.holds { "✓" } else { "✗" } }</span>
                                        <span class="metric">{ check.metric.name() }</span>
                                        <span class="expected">{ "expected " }<span class="relation">{ check.relation.describe() }</span></span>
                                        <span class="sr-only">{ if outcome.holds { ": holds" } else { ": does not hold" } }</span>
                                    </div>
                                    <span class="seen">
                                        { for parts.iter().enumerate().map(|(i, part)| html! {
                                            <>
                                                <span class="part">{ *part }</span>
                                                if i < last { <span class="sep">{ "; " }</span> }
                                            </>
                                        }) }
                                    </span>
                                </li>
                            }
                        }) }
                    </ul>
                    <p class={classes!("verdict", if verdict.holds { "holds" } else { "fails" })}
                        data-holds={verdict.holds.to_string()}>
                        <strong>{ "Verdict: " }</strong>{ sentence }
                    </p>
                    if let Err(how) = agreement {
                        <p class="mismatch" role="alert">{ format!(
                            "This card disagrees with its row: {how}. The page and the native test judge with the same \
                             code from reports that should be bit-identical, so this is a bug; please report it with \
                             the claim's id ({}).", claim.id
                        ) }</p>
                    }
                </>
            }
        }
    }
}

/// Every run as a cell: workloads down, variants across, the first check's metric once it
/// finished.
fn runs_table(card: &Card, runs: &[RunView]) -> Html {
    let claim = card.claim;
    let Some(metric) = gallery::table_metric(claim) else { return Html::default() };
    let variants = claim.variants.len();
    html! {
        <div class="table-scroll runs-scroll">
            <table class="runs">
                <caption>{ format!("{} of each run", metric.name()) }</caption>
                <thead><tr>
                    <th scope="col">{ "Workload" }</th>
                    { for claim.variants.iter().map(|v| html! { <th scope="col">{ v.label }</th> }) }
                </tr></thead>
                <tbody>
                    { for claim.workloads.iter().enumerate().map(|(w, workload)| html! {
                        <tr>
                            <th scope="row">{ workload.name() }</th>
                            { for (0..variants).map(|v| {
                                let run = w * variants + v;
                                let (class, text) = match runs.get(run) {
                                    Some(RunView::Finished(r)) => (
                                        "done",
                                        metric.measure(&r.report).map_or_else(|| "n/a".to_string(), num),
                                    ),
                                    Some(RunView::Running { fraction, .. }) => {
                                        ("running", format!("{:.0} %", fraction * 100.0))
                                    }
                                    Some(RunView::Queued) => ("queued", "waiting".to_string()),
                                    Some(RunView::Failed { .. }) => ("failed", "failed".to_string()),
                                    Some(RunView::Cancelled { .. }) => ("cancelled", "cancelled".to_string()),
                                    _ => ("idle", "–".to_string()),
                                };
                                html! { <td class={classes!("num", class)} data-run={run.to_string()}>{ text }</td> }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// "Open in the compare view", per workload when the claim has several.
fn open_buttons(index: usize, claim: &Claim, on_open: &Callback<(usize, usize)>, title_id: &str) -> Html {
    if claim.workloads.len() == 1 {
        return html! {
            <button type="button" aria-describedby={title_id.to_string()} onclick={on_open.reform(move |_| (index, 0))}>
                { "Open in the compare view" }
            </button>
        };
    }
    html! {
        <span class="open-group">
            <span class="open-label">{ "Compare view:" }</span>
            { for claim.workloads.iter().enumerate().map(|(w, workload)| html! {
                <button type="button" class="link" aria-label={format!("Open {} in the compare view", workload.name())}
                    onclick={on_open.reform(move |_| (index, w))}>{ workload.name() }</button>
            }) }
        </span>
    }
}
