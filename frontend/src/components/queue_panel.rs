//! The priority-queue panel: what LaPerm's TB schedulers (TB-Pri, SMX-Bind, Adaptive-Bind)
//! hold at the playback cursor. The shared level-0 queue of host kernels and TB-Pri's global
//! levels as a table of queues; under binding, a row per SM (at most
//! [`MAX_ROWS`](crate::plot::queues::MAX_ROWS)) with its bound levels, highest first, and
//! Adaptive-Bind's backup SM; the steals so far. Shown only for runs whose snapshots carry the
//! queues ([`PriorityQueueView`]); each frame is built from one snapshot.

use std::rc::Rc;

use warpscope_core::sched::tb::PriorityQueueView;
use warpscope_core::stats::Snapshot;
use yew::prelude::*;

use crate::components::playback::snapshot_index;
use crate::format::grouped;
use crate::plot::queues::{capped, cell, global_levels, listed, listed_blocks, sm_rows, QueueCell, SmRow};

/// Props of [`QueuePanel`].
#[derive(Properties, PartialEq)]
pub struct QueuePanelProps {
    /// The run's snapshots, in cycle order.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// The shared playback position (`None`: the end of the run).
    pub cursor: Option<u64>,
}

/// Whether a run's snapshots carry LaPerm's queues.
pub fn has_queues(snapshots: &[Rc<Snapshot>]) -> bool {
    snapshots.iter().any(|s| s.priority_queues.is_some())
}

/// Which of the three policies a view comes from: its shape says.
fn policy(view: &PriorityQueueView) -> &'static str {
    if !view.backup.is_empty() {
        "Adaptive-Bind"
    } else if !view.bound.is_empty() {
        "SMX-Bind"
    } else {
        "TB-Pri"
    }
}

/// The panel.
#[function_component(QueuePanel)]
pub fn queue_panel(props: &QueuePanelProps) -> Html {
    let index = snapshot_index(&props.snapshots, props.cursor);
    let Some(snapshot) = props.snapshots.get(index) else { return Html::default() };
    let Some(view) = &snapshot.priority_queues else {
        return html! {
            <section class="panel queue-panel" id="queues" aria-labelledby="queues-title">
                <h3 id="queues-title">{ "Priority queues" }</h3>
                <p class="viz-empty">{ format!("No picture at cycle {}.", grouped(snapshot.cycle)) }</p>
            </section>
        };
    };
    let name = policy(view);
    let lede = match name {
        "TB-Pri" => "TB-Pri queues each kernel run by priority: host kernels at level 0, a device launch at its parent's \
                     level + 1 (at most L). Every SM takes its next block from the highest non-empty level, so children run \
                     soon after their parents, wherever there is room.",
        "SMX-Bind" => "SMX-Bind queues a device launch on the SM its parent ran on, at its parent's level + 1 (at most L): \
                       each SM takes blocks from its own levels, highest first, then from the host kernels' level 0, so \
                       children run where their parents' data is.",
        _ => "Adaptive-Bind queues a device launch on the SM its parent ran on, at its parent's level + 1 (at most L). An \
              SM takes blocks from its own levels, highest first, then from level 0; with nothing there it drains its \
              backup SM's queues (a steal), so no SM idles while another has children waiting.",
    };
    let rows = sm_rows(view);
    let hidden = view.bound.len().saturating_sub(rows.len());
    // Highest level first: TB-Pri's global levels, then the host kernels'.
    let shared: Vec<(String, QueueCell)> = global_levels(view)
        .into_iter()
        .map(|(level, c)| (format!("Level {level} · global"), c))
        .chain(core::iter::once(("Level 0 · host kernels".to_owned(), cell(&view.host, capped(view)))))
        .collect();
    let bound = !view.bound.is_empty();
    let adaptive = !view.backup.is_empty();
    html! {
        <section class="panel queue-panel" id="queues" aria-labelledby="queues-title">
            <h3 id="queues-title">{ format!("Priority queues ({name})") }</h3>
            <p class="lede">{ lede }{ " The picture follows the playback position." }</p>
            <dl class="locality-numbers">
                <div><dt>{ "cycle" }</dt><dd id="queues-cycle">{ grouped(snapshot.cycle) }</dd></div>
                <div><dt>{ "levels (L)" }</dt><dd id="queues-levels">{ view.levels }</dd></div>
                <div><dt>{ "entries in all" }</dt>
                    <dd id="queues-entries" data-value={view.entries.to_string()}>{ grouped(view.entries) }</dd></div>
                <div><dt>{ if capped(view) { "blocks left, entries listed" } else { "blocks left to dispatch" } }</dt>
                    <dd id="queues-blocks" data-value={listed_blocks(view).to_string()}>{ grouped(listed_blocks(view)) }</dd></div>
                if bound {
                    <div><dt>{ "steals so far" }</dt>
                        <dd id="queues-steals" data-value={view.steals.to_string()}>{ grouped(view.steals) }</dd></div>
                }
                if view.config_switches > 0 {
                    <div><dt>{ "configuration switches" }</dt><dd>{ grouped(view.config_switches) }</dd></div>
                }
            </dl>
            if capped(view) {
                <p class="viz-hint" id="queues-capped">{ format!(
                    "{} entries in all; each queue lists its first 64 here ({} listed).",
                    grouped(view.entries), grouped(listed(view))) }</p>
            }
            <div class="table-scroll">
                <table class="report queue-table" id="queue-shared">
                    <caption>{ if bound { "The shared queue, head first" } else { "The shared queues, highest level first; each head first" } }</caption>
                    <thead><tr>
                        <th scope="col">{ "Queue" }</th><th scope="col">{ "Entries" }</th><th scope="col">{ "Head first" }</th>
                    </tr></thead>
                    <tbody>
                        { for shared.iter().map(|(label, c)| html! {
                            <tr>
                                <th scope="row">{ label.clone() }</th>
                                <td class={classes!("queue-cell", (c.runs > 0).then_some("busy"))} data-queue={c.data.clone()}>{ c.words.clone() }</td>
                                <td class="queue-names" title={c.title.clone()}>{ c.names.clone() }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if bound {
                <div class="table-scroll">
                    <table class="report queue-table" id="queue-bound">
                        <caption>{ "Each SM's own levels, highest first: runs queued and blocks left (hover a cell for its entries)" }</caption>
                        <thead><tr>
                            <th scope="col">{ "SM" }</th>
                            { for (1..=view.levels).rev().map(|l| html! { <th scope="col">{ format!("Level {l}") }</th> }) }
                            if adaptive {
                                <th scope="col"><abbr title="the SM whose queues this SM drains when it has nothing of its own">{ "Backup" }</abbr></th>
                            }
                        </tr></thead>
                        <tbody>
                            { for rows.iter().map(|r| sm_row(r, adaptive)) }
                        </tbody>
                    </table>
                </div>
                if hidden > 0 {
                    <p class="viz-hint">{ format!("SMs 0–{} of {} shown.", rows.len() - 1, grouped(view.bound.len() as u64)) }</p>
                }
            }
            if !bound && view.global.iter().all(|q| q.is_empty()) && view.host.is_empty() {
                <p class="viz-hint" id="queues-empty">{ format!("At cycle {} every queue is empty.", grouped(snapshot.cycle)) }</p>
            }
        </section>
    }
}

/// One SM's row: its levels, highest first, and its backup.
fn sm_row(r: &SmRow, adaptive: bool) -> Html {
    let waiting: usize = r.levels.iter().map(|c| c.runs).sum();
    html! {
        <tr data-sm={r.sm.to_string()} class={classes!((waiting == 0).then_some("idle"))}>
            <th scope="row">{ format!("SM {}", r.sm) }</th>
            { for r.levels.iter().map(|c| html! {
                <td class={classes!("queue-cell", (c.runs > 0).then_some("busy"))} title={c.title.clone()}
                    data-queue={c.data.clone()}>
                    if c.runs > 0 {
                        <span class="runs">{ c.runs_part.clone() }</span>
                        <span class="blocks">{ c.blocks_part.clone() }</span>
                    } else {
                        { "–" }
                    }
                </td>
            }) }
            if adaptive {
                <td class="queue-backup">{ r.backup.map_or_else(|| "none yet".to_owned(), |b| format!("← SM {b}")) }</td>
            }
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::queues::runs_words;

    #[test]
    fn the_policy_is_told_by_the_views_shape() {
        let mut view = PriorityQueueView { levels: 2, global: vec![vec![], vec![]], ..PriorityQueueView::default() };
        assert_eq!(policy(&view), "TB-Pri");
        view.global.clear();
        view.bound = vec![vec![vec![], vec![]]];
        assert_eq!(policy(&view), "SMX-Bind");
        view.backup = vec![None];
        assert_eq!(policy(&view), "Adaptive-Bind");
        assert_eq!(runs_words(1), "1 run");
    }
}
