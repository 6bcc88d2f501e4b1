//! The paper gallery: one card per paper, its reported result beside the simulated one.

use yew::prelude::*;

use crate::components::run_view::ProgressBar;
use crate::gallery::{simulated_sentence, Card, CARDS};
use crate::state::RunView;

/// Props of [`GalleryView`].
#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// Per card, per variant.
    pub runs: Vec<Vec<RunView>>,
    /// Reproduce card `n`.
    pub on_run: Callback<usize>,
    /// Load card `n` into the compare view.
    pub on_open: Callback<usize>,
    /// Whether a job runs.
    pub busy: bool,
}

/// The cards.
#[function_component(GalleryView)]
pub fn gallery_view(props: &GalleryProps) -> Html {
    html! {
        <div class="gallery">
            <p class="lede">{ "Each card reproduces a key result of one of the papers warpscope models, on a workload \
                from the library, in your browser. The paper's machines and benchmarks are larger, so expect the same \
                direction and a similar order of magnitude, not the same digits." }</p>
            <div class="cards">
                { for CARDS.iter().enumerate().map(|(i, card)| card_html(i, card, props)) }
            </div>
        </div>
    }
}

fn card_html(index: usize, card: &Card, props: &GalleryProps) -> Html {
    let runs = props.runs.get(index).cloned().unwrap_or_default();
    let results: Vec<_> = runs.iter().filter_map(|r| r.result()).collect();
    let finished = results.len() == card.variants.len();
    let running = runs.iter().find_map(|r| match r {
        RunView::Running { fraction, .. } => Some(*fraction),
        _ => None,
    });
    let failed = runs.iter().find_map(|r| match r {
        RunView::Failed { message, .. } => Some(message.clone()),
        _ => None,
    });
    let simulated = finished.then(|| {
        let cycles: Vec<u64> = results.iter().map(|r| r.report.cycles).collect();
        let rates: Vec<f64> = results
            .iter()
            .map(
                |r| if r.report.l1.accesses == 0 { 0.0 } else { r.report.l1.hits as f64 / r.report.l1.accesses as f64 },
            )
            .collect();
        simulated_sentence(card, &cycles, &rates)
    });
    let waiting = runs.iter().any(|r| r.busy());
    html! {
        <article class="card gallery-card" id={format!("card-{}", card.id)} aria-labelledby={format!("card-{}-title", card.id)}>
            <p class="paper">{ card.paper }</p>
            <h3 id={format!("card-{}-title", card.id)}>{ card.title }</h3>
            <p>{ card.explanation }</p>
            <dl class="result">
                <dt>{ "Paper" }</dt><dd>{ card.paper_result }</dd>
                <dt>{ "Simulated" }</dt>
                <dd class="simulated">
                    { match (&simulated, running, &failed) {
                        (Some(text), _, _) => html! { <span class="ok">{ text.clone() }</span> },
                        (None, Some(fraction), _) => html! { <ProgressBar {fraction} /> },
                        (None, None, Some(message)) => html! { <span class="error">{ message.clone() }</span> },
                        _ if waiting => html! { <span class="note">{ "waiting for the simulator…" }</span> },
                        _ => html! { <span class="note">{ format!("{} on {} — press Reproduce ({} runs).",
                            card.workload, card.machine, card.variants.len()) }</span> },
                    } }
                </dd>
            </dl>
            <div class="actions">
                // Inert rather than disabled while runs go on, so that keyboard focus stays put.
                <button type="button" class="primary" aria-disabled={props.busy.then_some("true")}
                    aria-describedby={format!("card-{}-title", card.id)}
                    onclick={if props.busy { Callback::noop() } else { props.on_run.reform(move |_| index) }}>
                    { "Reproduce" }
                </button>
                <button type="button" aria-describedby={format!("card-{}-title", card.id)}
                    onclick={props.on_open.reform(move |_| index)}>{ "Open in the compare view" }</button>
            </div>
        </article>
    }
}
