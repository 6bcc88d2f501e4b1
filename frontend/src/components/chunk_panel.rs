//! The chunk panel: what a chunked thread-block scheduler (IKRA's Chunk, Reset, Flip and
//! Steal) holds at the playback cursor. One row per SM: its chunk of the pictured kernel run
//! as a bar over the grid's blocks, the part still to place darker, in words with the
//! direction it is placed in; under Steal, its steal queue's blocks marked on the bar and its
//! entries against the queue's capacity, spelled out on hover. Shown only for runs whose snapshots carry the
//! picture ([`warpscope_core::stats::ChunkView`]); each frame is a table of at most
//! [`MAX_ROWS`](crate::plot::chunks::MAX_ROWS) rows built from one snapshot.

use std::rc::Rc;

use warpscope_core::stats::{ChunkView, Snapshot};
use yew::prelude::*;

use crate::components::playback::snapshot_index;
use crate::format::grouped;
use crate::identity::Same;
use crate::plot::chunks::{rows, totals, ChunkRow};

/// Props of [`ChunkPanel`].
#[derive(Properties, PartialEq)]
pub struct ChunkPanelProps {
    /// The run's snapshots, in cycle order.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// The shared playback position (`None`: the end of the run).
    pub cursor: Option<u64>,
}

/// Whether a run's snapshots carry a chunked scheduler's picture.
pub fn has_chunks(snapshots: &[Rc<Snapshot>]) -> bool {
    snapshots.iter().any(|s| s.chunks.is_some())
}

/// The panel.
#[function_component(ChunkPanel)]
pub fn chunk_panel(props: &ChunkPanelProps) -> Html {
    let index = snapshot_index(&props.snapshots, props.cursor);
    let Some(snapshot) = props.snapshots.get(index) else { return Html::default() };
    // Once per run, not per frame (a view before Steal's first launch has no queues yet).
    let steal = *use_memo(Same(props.snapshots.clone()), |s| {
        s.0.iter().any(|s| s.chunks.as_ref().is_some_and(|v| v.queue_capacity > 0))
    });
    let title = if steal { "Chunks and steal queues" } else { "Chunks" };
    let lede = if steal {
        "Steal gives each SM a contiguous chunk of the grid, placed from one end (→ lowest block first, ← highest \
         first, alternating at each launch). An SM with nothing of its own left takes a block a neighbour would \
         place last and records it in its steal queue; the block stays that SM's in later launches of the same \
         shape, so it runs where its data is. The picture follows the playback position."
    } else {
        "Each SM places only the blocks of its own contiguous chunk of the grid, from one end (→ lowest block \
         first, ← highest first). The picture follows the playback position."
    };
    let now = match &snapshot.chunks {
        Some(view) => at_cursor(view, snapshot.cycle),
        None => html! { <p class="viz-empty">{ format!("No picture at cycle {}.", grouped(snapshot.cycle)) }</p> },
    };
    html! {
        <section class="panel chunk-panel" id="chunks" aria-labelledby="chunks-title">
            <h3 id="chunks-title">{ title }</h3>
            <p class="lede">{ lede }</p>
            { now }
        </section>
    }
}

/// The numbers and the rows at one snapshot.
fn at_cursor(view: &ChunkView, cycle: u64) -> Html {
    let Some(run) = view.run else {
        return html! {
            <p class="viz-empty" id="chunks-none">
                { format!("At cycle {} no kernel run has blocks waiting to be placed.", grouped(cycle)) }
            </p>
        };
    };
    let t = totals(view);
    let steal = view.queue_capacity > 0;
    let rows = rows(view);
    let hidden = view.sms.len().saturating_sub(rows.len());
    let later = match (view.later_runs, steal) {
        (0, _) => String::new(),
        (1, true) => " One later run waits its turn.".to_string(),
        (n, true) => format!(" {n} later runs wait their turn."),
        (1, false) => " One later run is cut into chunks too, not pictured.".to_string(),
        (n, false) => format!(" {n} later runs are cut into chunks too, not pictured."),
    };
    html! {
        <div class="chunks-now">
            <dl class="locality-numbers">
                <div><dt>{ "cycle" }</dt><dd id="chunks-cycle">{ grouped(cycle) }</dd></div>
                <div><dt>{ "kernel run" }</dt><dd id="chunks-run" data-value={run.to_string()}>{ run }</dd></div>
                <div><dt>{ "blocks in its grid" }</dt><dd>{ grouped(u64::from(view.blocks)) }</dd></div>
                <div><dt>{ "left in the chunks" }</dt>
                    <dd id="chunks-left" data-value={t.chunk_blocks_left.to_string()}>{ grouped(t.chunk_blocks_left) }</dd></div>
                if steal {
                    <div><dt>{ "in steal queues" }</dt>
                        <dd id="chunks-queued" data-value={t.queued.to_string()}>{ grouped(t.queued) }</dd></div>
                    <div><dt>{ "queued, still to run" }</dt>
                        <dd id="chunks-queued-left" data-value={t.queued_left.to_string()}>{ grouped(t.queued_left) }</dd></div>
                }
            </dl>
            <div class="table-scroll">
                <table class="report chunk-table" id="chunk-table">
                    <caption>{ format!("Each SM's chunk of kernel run {run} over its grid, the darker part still to be placed{}.{later}",
                        if steal { "; violet marks: the blocks in the SM's steal queue, darker if still to run in this run" } else { "" }) }</caption>
                    <thead><tr>
                        <th scope="col">{ "SM" }</th>
                        <th scope="col">{ format!("Chunk within blocks 0–{}", grouped(u64::from(view.blocks.saturating_sub(1)))) }</th>
                        <th scope="col">{ "Still to place" }</th>
                        if steal {
                            <th scope="col"><abbr title="entries in the SM's steal queue, of its capacity; hover a cell for the blocks">
                                { "Steal queue" }</abbr></th>
                        }
                    </tr></thead>
                    <tbody>
                        { for rows.iter().map(row) }
                    </tbody>
                </table>
            </div>
            if hidden > 0 {
                <p class="viz-hint">{ format!("SMs 0–{} of {} shown.", rows.len() - 1, grouped(view.sms.len() as u64)) }</p>
            }
        </div>
    }
}

/// One SM's row.
fn row(r: &ChunkRow) -> Html {
    // An empty range draws nothing; any other at least 2 px wide (see `.chunk-bar span`).
    let bar = |(start, width): (f64, f64), class: &'static str| {
        if width <= 0.0 {
            return Html::default();
        }
        let style = format!("left: {:.3}%; width: {:.3}%;", start * 100.0, width * 100.0);
        html! { <span class={class} {style} /> }
    };
    html! {
        <tr data-sm={r.sm.to_string()}>
            <th scope="row">{ format!("SM {}", r.sm) }</th>
            <td class="chunk-cell">
                <span class="chunk-bar" aria-hidden="true">
                    { bar(r.chunk, "chunk-owned") }
                    { bar(r.left, "chunk-left") }
                    { for r.queued.iter().map(|&(at, to_run)| bar(at, if to_run { "chunk-queued to-run" } else { "chunk-queued" })) }
                </span>
            </td>
            <td class="chunk-words" data-left={r.blocks_left.to_string()}>{ r.words.clone() }</td>
            if let Some((entries, capacity, to_run)) = r.queue {
                <td class="chunk-queue" title={r.queue_title.clone()} data-entries={entries.to_string()}
                    data-to-run={to_run.to_string()}>
                    { format!("{entries} / {capacity}") }
                    if to_run > 0 {
                        <span class="to-run">{ format!(" · {to_run} to run") }</span>
                    }
                </td>
            }
        </tr>
    }
}
