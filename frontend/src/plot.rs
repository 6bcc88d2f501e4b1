//! Pure geometry behind the visualisations: scales and axis ticks, SVG path strings, colour
//! palettes, and the layouts (with hit-testing) of the canvas views. Nothing here touches the
//! browser, so all of it is tested natively.

pub mod breakdown;
pub mod cell_grid;
pub mod chunks;
pub mod lineage;
pub mod occupancy;
pub mod palette;
pub mod path;
pub mod previous_sm;
pub mod programs;
pub mod queues;
pub mod scale;
pub mod scores;
pub mod series;
pub mod sweep;
pub mod timeline;
