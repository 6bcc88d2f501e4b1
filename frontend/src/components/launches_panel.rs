//! The host's launch sequence as a table: per launch (or run of identical launches) the kernel,
//! grid and block as numbers and as written, how many blocks of it one SM of the machine holds
//! and which resource stops it holding more, and how many waves the grid takes. A row leads to
//! its line in the editor; a `#define` named in a grid or block leads to its Parameters field.

use std::rc::Rc;

use warpscope_core::isa::Dim3;
use warpscope_core::sched::tb::{Limit, Occupancy};
use warpscope_wasm::protocol::{CompileSummary, DimSource, LaunchRow};
use yew::prelude::*;

use crate::format::{bytes, grouped};

/// Props of [`LaunchesPanel`].
#[derive(Properties, PartialEq)]
pub struct LaunchesPanelProps {
    /// The newest summary of a compile that succeeded (`None`: none yet).
    pub summary: Option<Rc<CompileSummary>>,
    /// The file no longer compiles: `summary` is the last good one, shown dimmed.
    #[prop_or_default]
    pub stale: bool,
    /// A row was chosen: its launch statement's (line, column).
    pub on_select: Callback<(u32, u32)>,
}

/// The launch table, with a line of totals above it and notes below.
#[function_component(LaunchesPanel)]
pub fn launches_panel(props: &LaunchesPanelProps) -> Html {
    let Some(summary) = &props.summary else {
        return html! { <p class="note" id="launches">{ "The launch sequence appears here once the file compiles." }</p> };
    };
    let listed: u64 = summary.sequence.iter().map(|r| u64::from(r.count)).sum();
    let unlisted = u64::from(summary.launches).saturating_sub(listed);
    let device: Vec<String> = summary
        .kernels
        .iter()
        .filter(|k| !k.device_launches.is_empty())
        .map(|k| format!("{} launches {}", k.name, k.device_launches.join(", ")))
        .collect();
    html! {
        <div id="launches" class={classes!("launches", props.stale.then_some("stale"))}>
            if props.stale {
                <p class="launches-stale" role="status">
                    { "The file has errors: this is the last launch sequence that compiled." }
                </p>
            }
            <p class="launches-total" id="launches-total">
                { totals_text(summary.launches, summary.sequence.len(), summary.sm_count) }
            </p>
            <div class="launches-scroll">
                <table class="launches-table" id="launches-table">
                    <thead>
                        <tr>
                            <th scope="col">{ "Line" }</th>
                            <th scope="col">{ "Kernel" }</th>
                            <th scope="col">{ "Grid" }</th>
                            <th scope="col">{ "Block" }</th>
                            <th scope="col" title="Blocks of the launch one SM holds at once, and the resource that runs out first">
                                { "Blocks / SM" }</th>
                            <th scope="col" title="Blocks in the grid ÷ blocks the whole GPU holds at once">{ "Waves" }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for summary.sequence.iter().map(|row| launch_row(row, summary, &props.on_select)) }
                    </tbody>
                </table>
            </div>
            if unlisted > 0 {
                <p class="note">{ format!("The first {} launches are listed; {} more follow in the same host program.",
                    grouped(listed), grouped(unlisted)) }</p>
            }
            if !device.is_empty() {
                <p class="note" id="launches-device">
                    { format!("Also from the device: {}. Those grids are sized at run time, so they are not listed.",
                        device.join("; ")) }
                </p>
            }
        </div>
    }
}

/// One row: clicking anywhere on it, or Enter on its line button, selects it.
fn launch_row(row: &LaunchRow, summary: &CompileSummary, on_select: &Callback<(u32, u32)>) -> Html {
    let (line, column) = (row.at.line, row.at.column);
    let onclick = on_select.reform(move |_: MouseEvent| (line, column));
    let kernel = summary.kernels.iter().find(|k| k.name == row.kernel);
    let registers = kernel.map(|k| k.registers);
    let spill_bytes = kernel.map_or(0, |k| k.spill_bytes);
    let blocks = row.grid.count();
    let threads = row.block.count();
    let occupancy = &row.occupancy;
    let mut block_detail = format!("{} threads", grouped(threads));
    if let Some(registers) = registers {
        block_detail.push_str(&format!(" · {registers} regs"));
    }
    if spill_bytes > 0 {
        block_detail.push_str(&format!(" · {} spilled per thread", bytes(u64::from(spill_bytes))));
    }
    if row.shared_bytes > 0 {
        block_detail.push_str(&format!(" · {} shared", bytes(u64::from(row.shared_bytes))));
    }
    let waves = waves(blocks, occupancy.blocks_per_sm, summary.sm_count);
    html! {
        <tr class="launch" {onclick} data-line={line.to_string()} data-column={column.to_string()}
            data-grid={dims_data(row.grid)} data-block={dims_data(row.block)}
            data-blocks-per-sm={occupancy.blocks_per_sm.to_string()}>
            <td>
                <button type="button" class="launch-go mono"
                    aria-label={format!("Show the launch of {} at line {line}, column {column} in the editor", row.kernel)}>
                    { line }
                </button>
            </td>
            <td>
                <span class="mono launch-kernel">{ &row.kernel }</span>
                if row.count > 1 {
                    <span class="launch-repeat" title={format!("{} consecutive identical launches", row.count)}>
                        { format!("×{}", row.count) }</span>
                }
                <div class="sub">
                    { sequence_text(row.first, row.count) }
                    if row.stream != 0 { { format!(" · stream {}", row.stream) } }
                </div>
            </td>
            <td>
                <span class="mono launch-dims">{ dims_text(row.grid) }</span>
                <div class="sub">{ format!("{} block{} · {} threads", grouped(blocks), plural(blocks),
                    grouped(blocks.saturating_mul(threads))) }</div>
                { source_line(&row.grid_source) }
            </td>
            <td>
                <span class="mono launch-dims">{ dims_text(row.block) }</span>
                <div class="sub">{ block_detail }</div>
                { source_line(&row.block_source) }
            </td>
            <td title={limits_text(occupancy, summary.max_warps_per_sm)}>
                <strong class="launch-occupancy">{ occupancy.blocks_per_sm }</strong>
                <div class="sub">{ format!("{} · {}", occupancy.limited_by.label(),
                    occupancy_percent(occupancy, summary.max_warps_per_sm)) }</div>
            </td>
            <td title={waves_title(blocks, occupancy.blocks_per_sm, summary.sm_count)}>
                { waves.map_or_else(|| "–".to_string(), waves_text) }
            </td>
        </tr>
    }
}

/// "= N / TILE" under a grid or block, each `#define` a button to its Parameters field; nothing
/// when the text says no more than the number beside it.
fn source_line(source: &DimSource) -> Html {
    if !names_something(&source.text) {
        return Html::default();
    }
    let pieces = source_pieces(&source.text, &source.defines).into_iter().map(|(text, is_define)| {
        if !is_define {
            return html! { text };
        }
        let onclick = {
            let name = text.clone();
            Callback::from(move |e: MouseEvent| {
                // The row behind would move the editor's caret away again.
                e.stop_propagation();
                focus_define(&name);
            })
        };
        html! {
            <button type="button" class="define-ref" {onclick}
                title={format!("#define {text}: change it in Parameters")}>{ text }</button>
        }
    });
    html! { <div class="launch-src mono" title={format!("as written: {}", source.text)}>{ "= " }{ for pieces }</div> }
}

/// Focuses the Parameters field of `#define name` and selects its value.
fn focus_define(name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(element) = document.get_element_by_id(&format!("define-{name}")) else { return };
    if let Ok(input) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(element) {
        let _ = input.focus();
        input.select();
    }
}

/// `16 × 16`, `256`, `8 × 8 × 4`: the dimensions that are not 1 (x alone when all are).
pub fn dims_text(d: Dim3) -> String {
    match (d.y, d.z) {
        (1, 1) => d.x.to_string(),
        (_, 1) => format!("{} × {}", d.x, d.y),
        _ => format!("{} × {} × {}", d.x, d.y, d.z),
    }
}

/// `16,16,1`: for the browser tests.
fn dims_data(d: Dim3) -> String {
    format!("{},{},{}", d.x, d.y, d.z)
}

/// "#3" or "#1–20": the launches' positions in the host's sequence, from 1.
pub fn sequence_text(first: u32, count: u32) -> String {
    let first = u64::from(first) + 1;
    match count {
        0 | 1 => format!("#{first}"),
        _ => format!("#{first}–{}", first + u64::from(count) - 1),
    }
}

/// Blocks in the grid over blocks the whole GPU holds at once (`None`: a block does not fit).
pub fn waves(blocks: u64, blocks_per_sm: u32, sm_count: u32) -> Option<f64> {
    let at_once = u64::from(blocks_per_sm) * u64::from(sm_count);
    (at_once > 0).then(|| blocks as f64 / at_once as f64)
}

/// Two decimals below 10 waves (a fraction of a wave is a machine left partly idle), whole
/// numbers above.
pub fn waves_text(waves: f64) -> String {
    if waves < 10.0 {
        format!("{waves:.2}")
    } else {
        grouped(waves.round() as u64)
    }
}

fn waves_title(blocks: u64, blocks_per_sm: u32, sm_count: u32) -> String {
    let at_once = u64::from(blocks_per_sm) * u64::from(sm_count);
    if at_once == 0 {
        return "A block of this shape does not fit on an SM".into();
    }
    let full = blocks / at_once;
    let rest = blocks % at_once;
    let mut text = format!(
        "{} blocks, {} at a time ({blocks_per_sm} per SM × {sm_count} SMs): {full} full wave{}",
        grouped(blocks),
        grouped(at_once),
        plural(full)
    );
    if rest > 0 {
        text.push_str(&format!(" and a last one {} % full", rest * 100 / at_once));
    }
    text
}

/// Resident warps as a share of the SM's warp slots: the occupancy CUDA's calculator reports.
pub fn occupancy_percent(occupancy: &Occupancy, max_warps_per_sm: u32) -> String {
    if max_warps_per_sm == 0 {
        return "–".into();
    }
    format!("{} % of warps", u64::from(occupancy.warps_per_sm) * 100 / u64::from(max_warps_per_sm))
}

/// What each resource alone would allow, for the tooltip.
pub fn limits_text(occupancy: &Occupancy, max_warps_per_sm: u32) -> String {
    let each: Vec<String> = Limit::ALL
        .iter()
        .map(|&limit| match occupancy.allowed_by(limit) {
            Some(blocks) => format!("{} allow {blocks}", limit.label()),
            None => format!("{} not used", limit.label()),
        })
        .collect();
    format!(
        "{} block{} per SM, limited by {} ({} of {max_warps_per_sm} warp slots busy). Per resource: {}.",
        occupancy.blocks_per_sm,
        plural(u64::from(occupancy.blocks_per_sm)),
        occupancy.limited_by.label(),
        occupancy.warps_per_sm,
        each.join("; ")
    )
}

fn totals_text(launches: u32, rows: usize, sm_count: u32) -> String {
    let launches = u64::from(launches);
    let grouping =
        if rows as u64 == launches { String::new() } else { format!(" in {} row{}", rows, plural(rows as u64)) };
    format!(
        "{} host launch{}{grouping} · occupancy for this machine's {sm_count} SMs · click a row to see it in the editor",
        grouped(launches),
        if launches == 1 { "" } else { "es" }
    )
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Whether a grid or block as written names anything (a macro, a variable) rather than being
/// a plain number or `dim3` of numbers, which the figures beside it already show.
fn names_something(text: &str) -> bool {
    identifiers(text).any(|word| word != "dim3")
}

/// `text` cut into pieces, each marked whether it is one of `defines`.
pub fn source_pieces(text: &str, defines: &[String]) -> Vec<(String, bool)> {
    let mut pieces: Vec<(String, bool)> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let word_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let (piece, is_define, len) = if word_len > 0 {
            let word = &rest[..word_len];
            (word, defines.iter().any(|d| d == word), word_len)
        } else {
            let other = rest.find(|c: char| c.is_ascii_alphanumeric() || c == '_').unwrap_or(rest.len());
            (&rest[..other], false, other)
        };
        match pieces.last_mut() {
            Some((last, false)) if !is_define => last.push_str(piece),
            _ => pieces.push((piece.to_string(), is_define)),
        }
        rest = &rest[len..];
    }
    pieces
}

fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_show_only_what_is_not_one() {
        assert_eq!(dims_text(Dim3::linear(256)), "256");
        assert_eq!(dims_text(Dim3 { x: 16, y: 16, z: 1 }), "16 × 16");
        assert_eq!(dims_text(Dim3 { x: 8, y: 1, z: 4 }), "8 × 1 × 4");
    }

    #[test]
    fn positions_count_from_one() {
        assert_eq!(sequence_text(0, 1), "#1");
        assert_eq!(sequence_text(0, 20), "#1–20");
        assert_eq!(sequence_text(4, 3), "#5–7");
    }

    #[test]
    fn waves_are_the_grid_over_what_the_gpu_holds_at_once() {
        // vecadd at 65536: 256 blocks of 256 threads, 6 per SM on 15 SMs → 90 at a time.
        assert_eq!(waves(256, 6, 15).map(waves_text).as_deref(), Some("2.84"));
        assert_eq!(waves(4, 6, 15).map(waves_text).as_deref(), Some("0.04"));
        assert_eq!(waves(9000, 6, 15).map(waves_text).as_deref(), Some("100"));
        assert_eq!(waves(4, 0, 15), None);
        assert_eq!(
            waves_title(256, 6, 15),
            "256 blocks, 90 at a time (6 per SM × 15 SMs): 2 full waves and a last one 84 % full"
        );
    }

    #[test]
    fn the_tooltip_lists_every_limit() {
        let occupancy = Occupancy {
            blocks_per_sm: 6,
            limited_by: Limit::Warps,
            allowed: [Some(8), Some(6), Some(6), Some(6), None],
            warps_per_sm: 48,
        };
        assert_eq!(occupancy_percent(&occupancy, 48), "100 % of warps");
        assert_eq!(
            limits_text(&occupancy, 48),
            "6 blocks per SM, limited by warp slots (48 of 48 warp slots busy). Per resource: thread-block slots \
             allow 8; warp slots allow 6; thread slots allow 6; registers allow 6; shared memory not used."
        );
    }

    #[test]
    fn defines_in_the_source_text_become_their_own_pieces() {
        let defines = vec!["N".to_string(), "TILE".to_string()];
        assert_eq!(
            source_pieces("dim3(N / TILE, NN)", &defines),
            [
                ("dim3(".to_string(), false),
                ("N".to_string(), true),
                (" / ".to_string(), false),
                ("TILE".to_string(), true),
                (", NN)".to_string(), false)
            ]
        );
        assert!(names_something("(N + 255) / 256") && names_something("blocks"));
        assert!(!names_something("dim3(16, 16)") && !names_something("256"));
    }
}
