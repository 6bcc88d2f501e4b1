//! The co-runs view: choose library programs, and every pair of them runs side by side under
//! the set-up's thread-block and warp schedulers (the sharing scheme) on the page's workers,
//! each program also alone; then a matrix of weighted speedups, with ANTT, fairness and each
//! program's share of its speed alone in every cell's details ([`crate::pair_matrix`]).

use std::rc::Rc;

use warpscope_wasm::protocol::Catalog;
use yew::prelude::*;

use crate::components::program_chips::ProgramChips;
use crate::components::run_view::ProgressBar;
use crate::format::grouped;
use crate::pair_matrix::{pairs, Cell, PairMatrix, MAX_PROGRAMS, MIN_PROGRAMS};
use crate::setup::parse_in_range;
use crate::state::RunView;

/// The windows the field accepts (the machine's own limit is higher; a page run of more than
/// 100 M cycles per pair would take hours).
pub const WINDOW_RANGE: (u64, u64) = (1_000, 100_000_000);

/// Props of [`PairView`].
#[derive(Properties, PartialEq)]
pub struct PairViewProps {
    /// The library.
    pub catalog: Rc<Catalog>,
    /// The programs chosen.
    pub programs: Vec<String>,
    /// A new list of programs.
    pub on_programs: Callback<Vec<String>>,
    /// The scheme, as a person reads it ("Warped-Slicer · Greedy-then-oldest + DMIL").
    pub scheme: AttrValue,
    /// The machine's name and SM count.
    pub machine: AttrValue,
    /// The window the field starts at (the machine's, else the papers').
    pub default_window: u32,
    /// The matrix, once run.
    pub matrix: Option<PairMatrix>,
    /// Workers the page runs at most.
    pub workers: usize,
    /// Run the chosen programs in pairs over this window.
    pub on_run: Callback<u32>,
    /// Stop.
    pub on_cancel: Callback<()>,
    /// The set-up cannot run (a hardware field is invalid): why.
    #[prop_or_default]
    pub blocked: Option<AttrValue>,
}

/// The view.
#[function_component(PairView)]
pub fn pair_view(props: &PairViewProps) -> Html {
    let window_text = use_state(|| None::<String>);
    let window_shown = (*window_text).clone().unwrap_or_else(|| props.default_window.to_string());
    let window = parse_in_range(&window_shown, WINDOW_RANGE.0, WINDOW_RANGE.1, "the window");
    let busy = props.matrix.as_ref().is_some_and(PairMatrix::busy);
    let n = props.programs.len();
    let problem = if n < MIN_PROGRAMS {
        Some(format!("choose at least {MIN_PROGRAMS} programs"))
    } else {
        window.as_ref().err().cloned().or_else(|| props.blocked.as_ref().map(|b| b.to_string()))
    };
    let on_add = {
        let (on_programs, programs) = (props.on_programs.clone(), props.programs.clone());
        Callback::from(move |id: String| {
            let mut next = programs.clone();
            if !next.contains(&id) && next.len() < MAX_PROGRAMS {
                next.push(id);
                on_programs.emit(next);
            }
        })
    };
    let on_remove = {
        let (on_programs, programs) = (props.on_programs.clone(), props.programs.clone());
        Callback::from(move |i: usize| {
            let mut next = programs.clone();
            if i < next.len() {
                next.remove(i);
                on_programs.emit(next);
            }
        })
    };
    let on_window = {
        let window_text = window_text.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            window_text.set(Some(input.value()));
        })
    };
    let run = match (&window, &problem, busy) {
        (Ok(w), None, false) => {
            let w = *w as u32;
            props.on_run.reform(move |_: MouseEvent| w)
        }
        _ => Callback::noop(),
    };
    let cancel = if busy { props.on_cancel.reform(|_: MouseEvent| ()) } else { Callback::noop() };
    let runs = n + pairs(n).len();
    let chips_hint = match n {
        0 | 1 => format!("choose {MIN_PROGRAMS} to {MAX_PROGRAMS} library programs"),
        2 => "1 pair and 2 runs alone: 3 runs".to_string(),
        _ => format!("{} pairs and {n} runs alone: {runs} runs", pairs(n).len()),
    };
    let status = props.matrix.as_ref().map(|m| {
        let (done, _) = m.progress();
        let total = m.runs.len();
        let failed = m.runs.iter().filter(|r| matches!(r, RunView::Failed { .. })).count();
        match () {
            _ if m.busy() => format!("{done} of {total} runs done…"),
            _ if failed > 0 => format!("{done} of {total} runs ran; {failed} failed."),
            _ if done == total => format!("All {total} runs done."),
            _ => format!("Stopped: {done} of {total} runs ran."),
        }
    });
    let fraction = props.matrix.as_ref().map_or(0.0, |m| m.progress().1);
    html! {
        <>
            <p class="lede">{ format!(
                "Each pair of the programs you choose runs side by side on {} under the set-up's schedulers — {} — and \
                 each program runs alone under round-robin blocks and the same warp scheduler without its memory-issue \
                 gates. Every run lasts the same window, each program relaunched when it completes, and a pair's \
                 weighted speedup is the sum of its programs' IPCs beside each other over their IPCs alone (1 is no \
                 better than running them one after the other). The runs spread over up to {} worker{}.",
                props.machine, props.scheme, props.workers, if props.workers == 1 { "" } else { "s" }) }</p>
            <div class="setup-bar pair-fields">
                <ProgramChips id="pair-program-add" label="Programs" list_label="Programs of the matrix"
                    catalog={props.catalog.clone()} chosen={props.programs.clone()} max={MAX_PROGRAMS}
                    {on_add} {on_remove} busy={busy} hint={chips_hint} />
                <div class="field">
                    <label for="pair-window">{ "Window" }</label>
                    <div class="input-with-unit">
                        <input id="pair-window" type="text" inputmode="numeric" value={window_shown} oninput={on_window}
                            disabled={busy} aria-invalid={window.is_err().to_string()} aria-describedby="pair-window-hint" />
                        <span class="unit">{ "cycles" }</span>
                    </div>
                    <span id="pair-window-hint" class={classes!("hint", window.is_err().then_some("error"))}>
                        { window.as_ref().err().cloned().unwrap_or_else(|| "per run; the papers' 2 000 000".into()) }
                    </span>
                </div>
            </div>
            <div class="actions">
                <button type="button" id="pair-run" class="primary"
                    aria-disabled={(busy || problem.is_some()).then_some("true")} onclick={run}
                    title={problem.clone()}>
                    { if props.matrix.is_some() { "Run the pairs again" } else { "Run every pair" } }
                </button>
                <button type="button" id="pair-cancel" aria-disabled={(!busy).then_some("true")} onclick={cancel}>{ "Cancel" }</button>
                <span class="summary" id="pair-status" aria-live="polite">
                    { status.or_else(|| problem.clone().map(|p| format!("To run: {p}."))).unwrap_or_default() }
                </span>
            </div>
            if busy {
                <ProgressBar fraction={fraction} label="Pair matrix progress" />
            }
            if let Some(matrix) = &props.matrix {
                { table(matrix) }
            }
        </>
    }
}

/// The matrix: a row and a column per program, the pairs' weighted speedups off the diagonal,
/// each program's IPC alone on it.
fn table(matrix: &PairMatrix) -> Html {
    let programs = &matrix.spec.programs;
    let n = programs.len();
    let mean = matrix.mean_weighted_speedup();
    let stopped = (0..n).any(|i| (0..n).any(|j| i != j && matrix.cell(i, j).is_some_and(|c| c.stopped_early)));
    let failures: Vec<String> = matrix
        .runs
        .iter()
        .enumerate()
        .filter_map(|(k, r)| match r {
            RunView::Failed { message, .. } => Some(format!("{}: {message}", run_name(matrix, k))),
            _ => None,
        })
        .collect();
    html! {
        <>
            <div class="table-scroll">
                <table class="pair-matrix" id="pair-matrix">
                    <caption>{ format!(
                        "Weighted speedup of each pair over a window of {} cycles; hover a cell for its details.",
                        grouped(matrix.spec.window as u64)) }</caption>
                    <thead>
                        <tr>
                            <th scope="col"><span class="sr-only">{ "Program" }</span></th>
                            { for programs.iter().map(|p| html! { <th scope="col">{ p.clone() }</th> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for (0..n).map(|i| html! {
                            <tr>
                                <th scope="row">{ programs[i].clone() }</th>
                                { for (0..n).map(|j| cell(matrix, i, j)) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if let Some(mean) = mean {
                <p class="summary" id="pair-mean">{ format!("Geometric mean over the pairs that ran: {mean:.2}.") }</p>
            }
            if stopped {
                <p class="hint error">{ "Some runs stopped at the engine's cycle limit before the window ended: their figures (marked *) cover less than the window." }</p>
            }
            if !failures.is_empty() {
                <ul class="sweep-failures">
                    { for failures.iter().map(|f| html! { <li class="error">{ f.clone() }</li> }) }
                </ul>
            }
        </>
    }
}

/// "backprop alone" or "backprop + spmv".
fn run_name(matrix: &PairMatrix, k: usize) -> String {
    let programs = &matrix.spec.programs;
    match programs.get(k) {
        Some(p) => format!("{p} alone"),
        None => pairs(programs.len())
            .get(k - programs.len())
            .map_or_else(String::new, |&(i, j)| format!("{} + {}", programs[i], programs[j])),
    }
}

/// One cell: the program's IPC alone on the diagonal, else the pair's figures (or where its
/// runs stand).
fn cell(matrix: &PairMatrix, i: usize, j: usize) -> Html {
    let programs = &matrix.spec.programs;
    if i == j {
        let text = match matrix.alone(i) {
            RunView::Finished(r) => format!("alone: IPC {:.2}", r.report.ipc),
            other => progress_words(other),
        };
        return html! { <td class="alone" id={format!("pair-{i}-{i}")}>{ text }</td> };
    }
    match matrix.cell(i, j) {
        Some(c) => {
            let title = cell_title(&programs[i], &programs[j], &c);
            html! {
                // The exact figures for tests (an f64 as Rust prints it: the shortest text that
                // reads back to the same number).
                <td class="wspd" style={format!("background: {};", wspd_colour(c.weighted_speedup))} {title}
                    id={format!("pair-{i}-{j}")} data-wspd={c.weighted_speedup.to_string()}
                    data-normalized={format!("{},{}", c.normalized[0], c.normalized[1])}>
                    { format!("{:.2}{}", c.weighted_speedup, if c.stopped_early { "*" } else { "" }) }
                </td>
            }
        }
        None => {
            let runs = [matrix.together(i, j), Some(matrix.alone(i)), Some(matrix.alone(j))];
            let failed = runs.iter().flatten().any(|r| matches!(r, RunView::Failed { .. }));
            let text = if failed {
                "failed".to_string()
            } else {
                matrix.together(i, j).map(progress_words).unwrap_or_default()
            };
            html! { <td class={classes!("pending", failed.then_some("error"))}>{ text }</td> }
        }
    }
}

/// A run not yet measured, in a word or two.
fn progress_words(run: &RunView) -> String {
    match run {
        RunView::Running { fraction, .. } => format!("{:.0} %", fraction * 100.0),
        RunView::Queued => "waiting".into(),
        RunView::Finished(_) => "…".into(),
        RunView::Cancelled { .. } | RunView::Idle => "not run".into(),
        RunView::Failed { .. } => "failed".into(),
    }
}

/// A cell's details on hover.
fn cell_title(row: &str, column: &str, c: &Cell) -> String {
    format!(
        "{row} beside {column}: weighted speedup {:.3}; {row} runs at {:.2} of its IPC alone, {column} at {:.2}; \
         ANTT {:.2}; fairness {:.2}",
        c.weighted_speedup, c.normalized[0], c.normalized[1], c.antt, c.fairness
    )
}

/// A weighted speedup's background: red below 1 (worse than running the programs one after
/// the other), white at 1, green above, saturating a half away.
pub fn wspd_colour(wspd: f64) -> String {
    let strength = ((wspd - 1.0) / 0.5).clamp(-1.0, 1.0);
    let (hue, amount) = if strength >= 0.0 { (152.0, strength) } else { (0.0, -strength) };
    // Lightness from 100 % (white) down to 82 %: dark text stays readable on every cell.
    format!("hsl({hue:.0} 70% {:.1}%)", 100.0 - 18.0 * amount)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_are_green_losses_red_and_one_is_white() {
        assert_eq!(wspd_colour(1.0), "hsl(152 70% 100.0%)");
        assert_eq!(wspd_colour(1.25), "hsl(152 70% 91.0%)");
        assert_eq!(wspd_colour(9.0), "hsl(152 70% 82.0%)", "saturates");
        assert_eq!(wspd_colour(0.75), "hsl(0 70% 91.0%)");
        assert_eq!(wspd_colour(0.0), "hsl(0 70% 82.0%)");
    }
}
