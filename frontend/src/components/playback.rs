//! Animated playback over a run's snapshots: a scrubber (keyboard-operable range input) with
//! Play/Pause, the SMs' warp states and one SM's L1 at the chosen moment.

use std::rc::Rc;

use gloo_timers::callback::Interval;
use warpscope_core::stats::Snapshot;
use yew::prelude::*;

use crate::components::heatmap::L1Heatmap;
use crate::components::sm_view::SmOccupancy;
use crate::components::smc_strip::SmcStrip;
use crate::format::grouped;

/// Milliseconds between frames while playing.
const FRAME_MS: u32 = 90;

/// Props of [`Playback`].
#[derive(Properties, PartialEq)]
pub struct PlaybackProps {
    /// Snapshots in cycle order.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// The shared playback position (a cycle); `None`: the end of the run.
    pub cursor: Option<u64>,
    /// Moves the shared position.
    pub on_seek: Callback<u64>,
}

/// The snapshot shown for `cursor`: the last one at or before it (the first if none is).
pub fn snapshot_index(snapshots: &[Rc<Snapshot>], cursor: Option<u64>) -> usize {
    let Some(cycle) = cursor else { return snapshots.len().saturating_sub(1) };
    snapshots.partition_point(|s| s.cycle <= cycle).saturating_sub(1)
}

/// Scrubber, Play/Pause, warp states and the L1 heat map.
#[function_component(Playback)]
pub fn playback(props: &PlaybackProps) -> Html {
    let playing = use_state(|| false);
    let by_block = use_state(|| false);
    let index = snapshot_index(&props.snapshots, props.cursor);
    let last = props.snapshots.len().saturating_sub(1);

    // While playing, step one snapshot per tick; stop at the end.
    {
        let (snapshots, on_seek, playing_handle) = (props.snapshots.clone(), props.on_seek.clone(), playing.clone());
        use_effect_with((*playing, index, props.snapshots.len()), move |&(is_playing, index, _)| {
            let timer = is_playing.then(|| {
                Interval::new(FRAME_MS, move || match snapshots.get(index + 1) {
                    Some(next) => on_seek.emit(next.cycle),
                    None => playing_handle.set(false),
                })
            });
            move || drop(timer)
        });
    }

    let Some(snapshot) = props.snapshots.get(index).cloned() else {
        return html! { <p class="note">{ "This run recorded no snapshots." }</p> };
    };
    let on_input = {
        let (snapshots, on_seek) = (props.snapshots.clone(), props.on_seek.clone());
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(s) = input.value().parse::<usize>().ok().and_then(|i| snapshots.get(i)) {
                on_seek.emit(s.cycle);
            }
        })
    };
    let toggle = {
        let (playing, snapshots, on_seek) = (playing.clone(), props.snapshots.clone(), props.on_seek.clone());
        Callback::from(move |_: MouseEvent| {
            if !*playing && index >= last {
                // Play from the start when at the end.
                if let Some(first) = snapshots.first() {
                    on_seek.emit(first.cycle);
                }
            }
            playing.set(!*playing);
        })
    };
    let toggle_colour = {
        let by_block = by_block.clone();
        Callback::from(move |_: Event| by_block.set(!*by_block))
    };
    html! {
        <div class="playback">
            <div class="scrubber">
                <button type="button" id="play" onclick={toggle}>
                    <span aria-hidden="true">{ if *playing { "❚❚ " } else { "▶ " } }</span>
                    { if *playing { "Pause" } else { "Play" } }
                </button>
                <input type="range" id="scrubber" min="0" max={last.to_string()} value={index.to_string()}
                    aria-label="Playback position" aria-valuetext={format!("cycle {}", snapshot.cycle)} oninput={on_input} />
                <span class="mono" id="playback-cycle">{ format!("cycle {}", grouped(snapshot.cycle)) }</span>
            </div>
            <div class="playback-views">
                <div>
                    <SmOccupancy snapshot={snapshot.clone()} />
                </div>
                <div>
                    <label class="check">
                        <input type="checkbox" id="heat-by-block" checked={*by_block} onchange={toggle_colour} />
                        { " colour lines by thread block instead of warp" }
                    </label>
                    <L1Heatmap snapshot={snapshot.clone()} colour_by_block={*by_block} />
                    <SmcStrip {snapshot} />
                </div>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cycles: &[u64]) -> Vec<Rc<Snapshot>> {
        cycles.iter().map(|&cycle| Rc::new(Snapshot { cycle, ..Default::default() })).collect()
    }

    #[test]
    fn the_cursor_picks_the_last_snapshot_at_or_before_it() {
        let s = at(&[0, 500, 1000, 1700]);
        assert_eq!(snapshot_index(&s, None), 3, "no cursor: the end");
        assert_eq!(snapshot_index(&s, Some(0)), 0);
        assert_eq!(snapshot_index(&s, Some(999)), 1);
        assert_eq!(snapshot_index(&s, Some(1000)), 2);
        assert_eq!(snapshot_index(&s, Some(99_999)), 3);
        assert_eq!(snapshot_index(&[], Some(5)), 0);
    }
}
