//! The shared-memory cache beside the L1 heat map (CIAO-P, CIAO-C): its direct-mapped lines in
//! slot order, each coloured by the warp slot that filled it as the heat map colours the L1's,
//! so a line redirected out of the L1 shows where it went. Shown when the pictured SM has one.

use std::rc::Rc;

use warpscope_core::stats::snapshot::NONE;
use warpscope_core::stats::Snapshot;
use yew::prelude::*;

use crate::plot::palette::categorical;

/// Lines drawn on one row: as many as the heat map draws ways, so the strip sits as wide as
/// it beside it (256 lines make 8 rows).
const PER_ROW: usize = 32;
/// A line's cell, in SVG units.
const CELL: f64 = 9.0;

/// Props of [`SmcStrip`].
#[derive(Properties, PartialEq, Clone)]
pub struct SmcStripProps {
    /// The machine at one cycle; `smc_owner` pictures the shared-memory cache of SM `l1_sm`.
    pub snapshot: Rc<Snapshot>,
}

/// Lines holding data, and the distinct warp slots that filled them.
pub fn occupancy(owners: &[u32]) -> (usize, usize) {
    let mut slots: Vec<u32> = owners.iter().copied().filter(|&o| o != NONE).collect();
    let filled = slots.len();
    slots.sort_unstable();
    slots.dedup();
    (filled, slots.len())
}

/// The strip; nothing when the SM has no shared-memory cache.
#[function_component(SmcStrip)]
pub fn smc_strip(props: &SmcStripProps) -> Html {
    let owners = &props.snapshot.smc_owner;
    if owners.is_empty() {
        return Html::default();
    }
    let (filled, warps) = occupancy(owners);
    let rows = owners.len().div_ceil(PER_ROW);
    let (width, height) = (PER_ROW as f64 * CELL, rows as f64 * CELL);
    let description = format!(
        "Shared-memory cache of SM {}: {} lines, {filled} holding data redirected by {warps} warp slot{}.",
        props.snapshot.l1_sm,
        owners.len(),
        if warps == 1 { "" } else { "s" }
    );
    html! {
        <figure class="viz smc-strip" id="smc-strip">
            <figcaption>{ format!("Shared-memory cache: {} lines in unused shared memory ({filled} in use)", owners.len()) }</figcaption>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {width} {height}")} class="viz-chart"
                role="img" aria-label={description.clone()}>
                <title>{ description }</title>
                { for owners.iter().enumerate().map(|(i, &owner)| {
                    let (x, y) = ((i % PER_ROW) as f64 * CELL, (i / PER_ROW) as f64 * CELL);
                    let (fill, title) = match owner {
                        NONE => ("#ffffff".to_string(), format!("line {i}: empty")),
                        slot => (categorical(slot as u64).css(), format!("line {i}: filled for warp slot {slot}")),
                    };
                    html! {
                        <rect x={x.to_string()} y={y.to_string()} width={(CELL - 1.0).to_string()} height={(CELL - 1.0).to_string()}
                            fill={fill} stroke="#cbd5e1" stroke-width="0.5" data-owner={if owner == NONE { String::new() } else { owner.to_string() }}>
                            <title>{ title }</title>
                        </rect>
                    }
                }) }
            </svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_counts_filled_lines_and_distinct_owners() {
        assert_eq!(occupancy(&[NONE, 3, 3, 7, NONE]), (3, 2));
        assert_eq!(occupancy(&[NONE; 4]), (0, 0));
    }
}
