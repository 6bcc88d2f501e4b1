//! The lost-locality panel: what a scoring warp policy (CCWS) holds on the pictured SM during
//! playback. At the cursor, the paper's Fig. 6 picture — each live warp's lost-locality
//! score, largest first, stacked against the cutoff (live warps × base score), the warps whose
//! share starts past it held back from issuing loads — with the numbers behind it; over the
//! run's snapshots, how many warps could load and the victim-tag hits so far. Shown only for
//! runs whose snapshots carry scores ([`warpscope_core::stats::WarpScores`]).

use std::rc::Rc;

use warpscope_core::stats::{Snapshot, WarpScores};
use yew::prelude::*;

use crate::canvas::use_element_width;
use crate::components::playback::snapshot_index;
use crate::components::xy_chart::{Series, Shape, XAxis, XyChart};
use crate::format::grouped;
use crate::identity::Same;
use crate::plot::palette::{ACCENT, INK_SOFT, LINE};
use crate::plot::scale::{format_cycles, nice_step, nice_ticks, LinearScale};
use crate::plot::scores::{samples, slot_ranges, Stack};

/// Colours of the warps that may load (alternating, so neighbours show apart) and of those
/// held back (the warp strip's "throttled").
const MAY_LOAD: [&str; 2] = ["#0f766e", "#2a9d8f"];
const HELD_BACK: [&str; 2] = ["#ef4444", "#f87171"];
/// The cutoff's line.
const CUTOFF: &str = "#1e293b";
/// Live warps in the chart over time.
const LIVE: &str = "#94a3b8";
/// Victim-tag hits in the chart over time.
const DETECTIONS: &str = "#7c3aed";

/// Props of [`LostLocality`].
#[derive(Properties, PartialEq)]
pub struct LostLocalityProps {
    /// The run's snapshots, in cycle order.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// The shared playback position (`None`: the end of the run).
    pub cursor: Option<u64>,
}

/// Whether a run's snapshots carry a policy's scores (the panel has something to show).
pub fn has_scores(snapshots: &[Rc<Snapshot>]) -> bool {
    snapshots.iter().any(|s| s.warp_scores.is_some())
}

/// The panel.
#[function_component(LostLocality)]
pub fn lost_locality(props: &LostLocalityProps) -> Html {
    // Over time: counted once per run, not per frame of playback.
    let over_time = use_memo(Same(props.snapshots.clone()), |snapshots| {
        let samples = samples(&snapshots.0);
        let end = snapshots.0.last().map_or(0, |s| s.cycle) as f64;
        let point = |f: &dyn Fn(&crate::plot::scores::ScoreSample) -> f64| {
            samples.iter().map(|s| (s.cycle as f64, f(s))).collect::<Vec<_>>()
        };
        let warps = Rc::new(vec![
            Series {
                label: "live warps".into(),
                colour: LIVE.into(),
                points: point(&|s| s.live as f64),
                shape: Shape::Steps,
            },
            Series {
                label: "may issue loads".into(),
                colour: ACCENT.into(),
                points: point(&|s| s.loading as f64),
                shape: Shape::Steps,
            },
        ]);
        let hits = Rc::new(vec![Series {
            label: "victim-tag hits so far".into(),
            colour: DETECTIONS.into(),
            points: point(&|s| s.detections as f64),
            shape: Shape::Steps,
        }]);
        let fewest = samples.iter().filter(|s| s.live > 0).map(|s| s.loading).min();
        (end, warps, hits, fewest, samples.last().map_or(0, |s| s.detections))
    });
    let index = snapshot_index(&props.snapshots, props.cursor);
    let Some(snapshot) = props.snapshots.get(index) else { return Html::default() };
    let sm = snapshot.l1_sm;
    let (end, warps, hits, fewest, total_hits) = (*over_time).clone();
    let at = match &snapshot.warp_scores {
        Some(scores) => html! { <AtCursor scores={Rc::new(scores.clone())} cycle={snapshot.cycle} {sm} /> },
        None => html! { <p class="viz-empty">{ format!("No scores at cycle {}.", grouped(snapshot.cycle)) }</p> },
    };
    let x = XAxis::Cycles { end };
    html! {
        <section class="panel lost-locality" id="lost-locality" aria-labelledby="locality-title">
            <h3 id="locality-title">{ format!("Lost locality (CCWS) on SM {sm}") }</h3>
            <p class="lede">{ "A warp whose load misses on a line it brought in itself and lost (a hit in its victim tags) \
                has its lost-locality score raised; the scores decay a point a cycle. Largest first, the scores are stacked \
                against the cutoff (live warps × base score): warps whose share starts past it may not issue global loads, \
                everything else issues as under greedy-then-oldest. The picture follows the playback position." }</p>
            { at }
            <div class="viz-charts locality-charts">
                <XyChart id="chart-locality-warps" caption="Warps that may issue loads"
                    description={format!("Live warps on SM {sm} and how many of them may issue global loads, at each of {} \
                        snapshots{}.", warps[0].points.len(),
                        fewest.map_or(String::new(), |f| format!("; at fewest {f} could load")))}
                    x={x.clone()} x_title="cycle" y_title="warps" series={warps} whole=true cursor={props.cursor.or(Some(snapshot.cycle))} />
                <XyChart id="chart-locality-hits" caption="Victim-tag hits"
                    description={format!("Victim-tag hits on SM {sm} so far, at each snapshot: {} by the end of the run \
                        (cycle {}).", grouped(total_hits), format_cycles(end))}
                    {x} x_title="cycle" y_title="hits so far (SM)" series={hits} whole=true cursor={props.cursor.or(Some(snapshot.cycle))} />
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct AtCursorProps {
    scores: Rc<WarpScores>,
    cycle: u64,
    sm: u32,
}

/// The numbers and the stacked picture at one snapshot.
#[function_component(AtCursor)]
fn at_cursor(props: &AtCursorProps) -> Html {
    let node = use_node_ref();
    let measured = use_element_width(node.clone());
    let width = if measured > 0.0 { measured.floor().max(280.0) } else { 640.0 };
    let scores = &props.scores;
    let stack = Stack::of(scores);
    let live = stack.segments.len();
    let held = stack.held_back();
    let base = stack.base();
    let cutoff_text = match base {
        Some(base) => format!("{} = {live} live warps × base {}", grouped(stack.cutoff), grouped(base)),
        None => grouped(stack.cutoff),
    };
    let raised: Vec<String> = stack
        .segments
        .iter()
        .filter(|s| base.is_some_and(|b| s.score > b))
        .map(|s| format!("slot {} {}", s.slot, grouped(s.score)))
        .collect();
    let description = if live == 0 {
        format!("No live warps on SM {} at cycle {}.", props.sm, grouped(props.cycle))
    } else {
        format!(
            "Lost-locality scores of {live} warps on SM {} at cycle {}, stacked largest first{}; cutoff {}; {} may \
             issue loads{}.",
            props.sm,
            grouped(props.cycle),
            if raised.is_empty() { ", all at the base".to_string() } else { format!(": {}", raised.join(", ")) },
            grouped(stack.cutoff),
            live - held.len(),
            if held.is_empty() {
                String::new()
            } else {
                format!(", {} held back (slots {})", held.len(), slot_ranges(&held))
            },
        )
    };
    html! {
        <div class="locality-now">
            <dl class="locality-numbers">
                <div><dt>{ "cycle" }</dt><dd id="locality-cycle">{ grouped(props.cycle) }</dd></div>
                <div><dt>{ "live warps" }</dt><dd id="locality-live">{ live }</dd></div>
                <div><dt>{ "may issue loads" }</dt><dd id="locality-may-load">{ live - held.len() }</dd></div>
                <div><dt>{ "held back" }</dt><dd id="locality-held">
                    { if held.is_empty() { "none".to_string() } else { format!("{} (slot{} {})", held.len(), if held.len() == 1 { "" } else { "s" }, slot_ranges(&held)) } }
                </dd></div>
                <div><dt>{ "cutoff" }</dt><dd id="locality-cutoff" data-value={stack.cutoff.to_string()}>{ cutoff_text }</dd></div>
                <div><dt><abbr title="lost-locality detected score: what a victim-tag hit sets a warp's score to now (Eq. 1)">{ "LLDS" }</abbr>{ " now" }</dt>
                    <dd id="locality-llds">{ grouped(scores.detection_score) }</dd></div>
                <div><dt>{ "victim-tag hits so far" }</dt><dd id="locality-vta-hits" data-value={scores.detections.to_string()}>{ grouped(scores.detections) }</dd></div>
            </dl>
            // Always there, so its width is measured from the first render on.
            <div ref={node} class="locality-body">
            if live == 0 {
                <p class="viz-empty">{ format!("No warps on SM {} at this cycle: nothing to rank.", props.sm) }</p>
            } else {
            <figure class="viz locality-stack">
                <div class="viz-toolbar">
                    <figcaption>{ "Scores, largest first, against the cutoff" }</figcaption>
                </div>
                <ul class="viz-legend" aria-hidden="true">
                    <li><span class="swatch" style={format!("background: {};", MAY_LOAD[0])} />{ "may issue loads" }</li>
                    <li><span class="swatch" style={format!("background: {};", HELD_BACK[0])} />{ "held back (throttled)" }</li>
                    <li><span class="swatch rule" style={format!("background: {CUTOFF};")} />{ "cutoff" }</li>
                </ul>
                <div class="viz-svg-frame">
                    { stack_svg(&stack, width, &description) }
                </div>
            </figure>
            <details class="locality-table">
                <summary>{ "Scores by warp slot" }</summary>
                <div class="table-scroll">
                    <table class="report" id="locality-table">
                        <thead><tr><th scope="col">{ "Rank" }</th><th scope="col">{ "Warp slot" }</th>
                            <th scope="col">{ "Score" }</th><th scope="col">{ "Stacked from" }</th><th scope="col">{ "Loads" }</th></tr></thead>
                        <tbody>
                            { for stack.segments.iter().enumerate().map(|(rank, s)| html! {
                                <tr>
                                    <td class="num">{ rank + 1 }</td><td class="num">{ s.slot }</td><td class="num">{ grouped(s.score) }</td>
                                    <td class="num">{ grouped(s.start) }</td>
                                    <td>{ if s.may_load { "may issue" } else { "held back" } }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
            </details>
            }
            </div>
        </div>
    }
}

/// The stacked bar: one rectangle per live warp (its slot written in it where it fits), the
/// cutoff as a labelled line, an axis of cumulative score below.
fn stack_svg(stack: &Stack, width: f64, description: &str) -> Html {
    let (left, right) = (12.0, width - 16.0);
    let (bar_top, bar_height, height) = (26.0, 34.0, 96.0);
    let axis_y = bar_top + bar_height + 6.0;
    // Room past the cutoff when nobody is raised, so the line does not sit on the frame.
    let extent = (stack.extent() as f64 * 1.04).max(1.0);
    let x = LinearScale::new((0.0, extent), (left, right));
    let step = nice_step(extent, ((right - left) / 90.0).clamp(2.0, 8.0) as usize);
    let ticks = nice_ticks(0.0, extent, ((right - left) / 90.0).clamp(2.0, 8.0) as usize);
    let cutoff_x = x.map(stack.cutoff as f64);
    let (mut loading, mut held) = (0, 0);
    let segments = stack.segments.iter().map(|s| {
        let colour = if s.may_load {
            loading += 1;
            MAY_LOAD[(loading - 1) % 2]
        } else {
            held += 1;
            HELD_BACK[(held - 1) % 2]
        };
        let (x0, x1) = (x.map(s.start as f64), x.map(s.end as f64));
        let label_fits = x1 - x0 >= 8.0 + 6.5 * s.slot.to_string().len() as f64;
        html! {
            <g class="segment" data-slot={s.slot.to_string()} data-score={s.score.to_string()} data-start={s.start.to_string()}
                data-may-load={s.may_load.to_string()}>
                <rect x={format!("{x0:.2}")} y={bar_top.to_string()} width={format!("{:.2}", (x1 - x0).max(0.5))}
                    height={bar_height.to_string()} fill={colour} stroke="#fff" stroke-width="1">
                    <title>{ format!("warp slot {}: score {}, stacked from {} to {}; {}", s.slot, grouped(s.score),
                        grouped(s.start), grouped(s.end), if s.may_load { "may issue loads" } else { "held back from loads" }) }</title>
                </rect>
                if label_fits {
                    <text x={format!("{:.1}", (x0 + x1) / 2.0)} y={(bar_top + bar_height / 2.0 + 4.0).to_string()}
                        text-anchor="middle" font-size="11" fill="#fff" pointer-events="none">{ s.slot }</text>
                }
            </g>
        }
    });
    let label_anchor = if cutoff_x > right - 90.0 { "end" } else { "middle" };
    html! {
        <svg id="locality-stack" xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {width} {height}")}
            class="viz-chart" role="img" aria-label={description.to_string()}
            font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">
            <title>{ description.to_string() }</title>
            <g class="axes" font-size="11" fill={INK_SOFT}>
                <line x1={left.to_string()} x2={right.to_string()} y1={axis_y.to_string()} y2={axis_y.to_string()} stroke={LINE} />
                { for ticks.iter().map(|&v| html! {
                    <g>
                        <line x1={format!("{:.1}", x.map(v))} x2={format!("{:.1}", x.map(v))} y1={axis_y.to_string()}
                            y2={(axis_y + 4.0).to_string()} stroke={INK_SOFT} />
                        <text x={format!("{:.1}", x.map(v))} y={(axis_y + 16.0).to_string()} text-anchor="middle">
                            { if step >= 1000.0 { format_cycles(v) } else { format!("{v:.0}") } }
                        </text>
                    </g>
                }) }
                <text x={right.to_string()} y={(height - 2.0).to_string()} text-anchor="end">{ "cumulative score (points)" }</text>
            </g>
            { for segments }
            <g class="cutoff">
                <line x1={format!("{cutoff_x:.1}")} x2={format!("{cutoff_x:.1}")} y1="14" y2={(bar_top + bar_height + 4.0).to_string()}
                    stroke={CUTOFF} stroke-width="2" />
                <text x={format!("{cutoff_x:.1}")} y="10" text-anchor={label_anchor} font-size="11" font-weight="600" fill={CUTOFF}>
                    { format!("cutoff {}", grouped(stack.cutoff)) }
                </text>
            </g>
        </svg>
    }
}
