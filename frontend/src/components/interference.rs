//! The interference panel: what CIAO holds on the pictured SM during playback. At the cursor,
//! who evicts whom — each live warp's worst interferer as its interference list names it, with
//! the list's confidence, the warp's victim-tag hits and whether its interference score passes
//! the high cutoff — and each warp's state (active, isolated: loads to the shared-memory cache,
//! stalled); over the run's snapshots, how many warps were isolated and stalled. Shown only for
//! runs whose snapshots carry the picture ([`warpscope_core::stats::InterferenceView`]).

use std::rc::Rc;

use warpscope_core::stats::snapshot::NONE;
use warpscope_core::stats::{InterferenceView, Snapshot, WarpRole};
use yew::prelude::*;

use crate::components::playback::snapshot_index;
use crate::components::xy_chart::{Series, Shape, XAxis, XyChart};
use crate::format::grouped;
use crate::identity::Same;
use crate::plot::palette::ACCENT;

/// Colours of the warp states (the stalled one is the warp strip's "throttled").
const ISOLATED: &str = "#7c3aed";
const STALLED: &str = "#ef4444";

/// Props of [`InterferencePanel`].
#[derive(Properties, PartialEq)]
pub struct InterferenceProps {
    /// The run's snapshots, in cycle order.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// The shared playback position (`None`: the end of the run).
    pub cursor: Option<u64>,
}

/// Whether a run's snapshots carry CIAO's picture (the panel has something to show).
pub fn has_interference(snapshots: &[Rc<Snapshot>]) -> bool {
    snapshots.iter().any(|s| s.interference.is_some())
}

/// One row of the "who evicts whom" table: a live warp that an interferer has been named for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The victim's warp slot and state.
    pub victim: usize,
    pub victim_role: WarpRole,
    /// Its worst interferer and that warp's state.
    pub interferer: usize,
    pub interferer_role: WarpRole,
    /// The interference list's 2-bit counter.
    pub confidence: u8,
    /// The victim's victim-tag hits in the counting window.
    pub hits: u64,
    /// Whether the victim's interference score is above the high cutoff.
    pub above_high: bool,
}

/// The victims with a named interferer, most victim-tag hits first (ties by slot).
pub fn pairs(view: &InterferenceView) -> Vec<Pair> {
    let role = |slot: usize| view.role(slot);
    let mut pairs: Vec<Pair> = (0..view.role.len())
        .filter(|&s| role(s) != WarpRole::Empty && view.interferer[s] != NONE)
        .map(|s| Pair {
            victim: s,
            victim_role: role(s),
            interferer: view.interferer[s] as usize,
            interferer_role: role(view.interferer[s] as usize),
            confidence: view.confidence[s],
            hits: view.vta_hits[s],
            above_high: view.above_high[s],
        })
        .collect();
    pairs.sort_by_key(|p| (std::cmp::Reverse(p.hits), p.victim));
    pairs
}

/// Warps in each state in one picture: (live, isolated, stalled).
pub fn counts(view: &InterferenceView) -> (usize, usize, usize) {
    let of = |r: WarpRole| (0..view.role.len()).filter(|&s| view.role(s) == r).count();
    let (isolated, stalled) = (of(WarpRole::Isolated), of(WarpRole::Stalled));
    (of(WarpRole::Active) + isolated + stalled, isolated, stalled)
}

fn role_word(role: WarpRole) -> &'static str {
    match role {
        WarpRole::Empty => "gone",
        WarpRole::Active => "active",
        WarpRole::Isolated => "isolated",
        WarpRole::Stalled => "stalled",
    }
}

/// The panel.
#[function_component(InterferencePanel)]
pub fn interference_panel(props: &InterferenceProps) -> Html {
    let over_time = use_memo(Same(props.snapshots.clone()), |snapshots| {
        let samples: Vec<(f64, (usize, usize, usize))> =
            snapshots.0.iter().filter_map(|s| s.interference.as_ref().map(|v| (s.cycle as f64, counts(v)))).collect();
        let end = snapshots.0.last().map_or(0, |s| s.cycle) as f64;
        let series = |label: &str, colour: &str, f: fn(&(usize, usize, usize)) -> usize| Series {
            label: label.into(),
            colour: colour.into(),
            points: samples.iter().map(|(c, n)| (*c, f(n) as f64)).collect(),
            shape: Shape::Steps,
        };
        let warps = Rc::new(vec![
            series("live warps", ACCENT, |n| n.0),
            series("isolated", ISOLATED, |n| n.1),
            series("stalled", STALLED, |n| n.2),
        ]);
        let most = samples.iter().map(|(_, n)| (n.1, n.2)).fold((0, 0), |a, b| (a.0.max(b.0), a.1.max(b.1)));
        (end, warps, most)
    });
    let index = snapshot_index(&props.snapshots, props.cursor);
    let Some(snapshot) = props.snapshots.get(index) else { return Html::default() };
    let sm = snapshot.l1_sm;
    let (end, warps, (most_isolated, most_stalled)) = (*over_time).clone();
    let now = match &snapshot.interference {
        Some(view) => at_cursor(view, snapshot.cycle),
        None => html! { <p class="viz-empty">{ format!("No picture at cycle {}.", grouped(snapshot.cycle)) }</p> },
    };
    html! {
        <section class="panel interference" id="interference" aria-labelledby="interference-title">
            <h3 id="interference-title">{ format!("Interference (CIAO) on SM {sm}") }</h3>
            <p class="lede">{ "A warp whose load misses on a line it lost (a hit in its victim tags) learns from the tag \
                which warp evicted the line, and its interference list keeps the worst such warp. At each epoch boundary \
                CIAO examines a warp whose interference score passes the high cutoff and acts on its interferer: isolates it \
                (its global loads go to a cache in unused shared memory) or stalls it; it lets go when the victim's score \
                falls below the low cutoff or the victim leaves. The picture follows the playback position." }</p>
            { now }
            <div class="viz-charts">
                <XyChart id="chart-interference-warps" caption="Isolated and stalled warps"
                    description={format!("Live, isolated and stalled warps on SM {sm} at each of {} snapshots; at most {} \
                        isolated and {} stalled at once.", warps[0].points.len(), most_isolated, most_stalled)}
                    x={XAxis::Cycles { end }} x_title="cycle" y_title="warps" series={warps} whole=true
                    cursor={props.cursor.or(Some(snapshot.cycle))} />
            </div>
        </section>
    }
}

/// The numbers and the pairs at one snapshot.
fn at_cursor(view: &InterferenceView, cycle: u64) -> Html {
    let (live, isolated, stalled) = counts(view);
    let pairs = pairs(view);
    let slot_cell = |slot: usize, role: WarpRole| {
        let colour = match role {
            WarpRole::Isolated => ISOLATED,
            WarpRole::Stalled => STALLED,
            _ => "transparent",
        };
        html! {
            <td class="num" data-role={role_word(role)}>
                <span class="swatch" style={format!("background: {colour};")} />{ format!("{slot} ({})", role_word(role)) }
            </td>
        }
    };
    html! {
        <div class="interference-now">
            <dl class="locality-numbers">
                <div><dt>{ "cycle" }</dt><dd id="interference-cycle">{ grouped(cycle) }</dd></div>
                <div><dt>{ "live warps" }</dt><dd id="interference-live">{ live }</dd></div>
                <div><dt>{ "isolated" }</dt><dd id="interference-isolated">{ isolated }</dd></div>
                <div><dt>{ "stalled" }</dt><dd id="interference-stalled">{ stalled }</dd></div>
                <div><dt>{ "shared-memory cache" }</dt><dd id="interference-smc">
                    { if view.smc_lines == 0 { "none".to_string() } else { format!("{} lines", view.smc_lines) } }</dd></div>
                <div><dt>{ "victim-tag hits so far" }</dt><dd id="interference-vta-hits" data-value={view.detections.to_string()}>
                    { grouped(view.detections) }</dd></div>
            </dl>
            if pairs.is_empty() {
                <p class="viz-empty">{ "No warp has lost a line to another warp yet: the interference lists are empty." }</p>
            } else {
                <div class="table-scroll">
                    <table class="report" id="interference-table">
                        <caption>{ "Who evicts whom: each victim's worst interferer" }</caption>
                        <thead><tr><th scope="col">{ "Victim (slot)" }</th><th scope="col">{ "Worst interferer (slot)" }</th>
                            <th scope="col"><abbr title="the interference list's 2-bit counter: how steadily this interferer has been the one">{ "Confidence" }</abbr></th>
                            <th scope="col">{ "Victim-tag hits" }</th><th scope="col">{ "Above high cutoff" }</th></tr></thead>
                        <tbody>
                            { for pairs.iter().map(|p| html! {
                                <tr>
                                    { slot_cell(p.victim, p.victim_role) }
                                    { slot_cell(p.interferer, p.interferer_role) }
                                    <td class="num">{ format!("{} of 3", p.confidence) }</td>
                                    <td class="num">{ grouped(p.hits) }</td>
                                    <td>{ if p.above_high { "yes" } else { "no" } }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four slots: 0 active, victim of 2 (isolated) with 5 hits; 1 stalled, victim of 0 with 9;
    /// 2 isolated with no interferer named; 3 empty.
    fn view() -> InterferenceView {
        InterferenceView {
            role: vec![
                WarpRole::Active as u8,
                WarpRole::Stalled as u8,
                WarpRole::Isolated as u8,
                WarpRole::Empty as u8,
            ],
            interferer: vec![2, 0, NONE, 1],
            confidence: vec![1, 3, 0, 2],
            vta_hits: vec![5, 9, 0, 4],
            above_high: vec![false, true, false, true],
            smc_lines: 256,
            detections: 18,
        }
    }

    #[test]
    fn pairs_list_live_victims_with_an_interferer_most_hits_first() {
        let p = pairs(&view());
        assert_eq!(p.len(), 2, "slot 2 names nobody, slot 3 is empty");
        assert_eq!((p[0].victim, p[0].interferer, p[0].interferer_role, p[0].confidence), (1, 0, WarpRole::Active, 3));
        assert_eq!((p[1].victim, p[1].interferer, p[1].interferer_role, p[1].hits), (0, 2, WarpRole::Isolated, 5));
        assert!(p[0].above_high && !p[1].above_high);
    }

    #[test]
    fn counts_are_live_isolated_and_stalled() {
        assert_eq!(counts(&view()), (3, 1, 1));
        assert_eq!(counts(&InterferenceView::default()), (0, 0, 0));
    }
}
