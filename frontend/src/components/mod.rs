//! The app's pieces, one per file.

pub mod breakdown;
pub mod chart_parts;
pub mod charts;
pub mod chunk_panel;
pub mod compare;
pub mod defines_panel;
pub mod editor;
pub mod gallery_view;
pub mod hardware_panel;
pub mod heatmap;
pub mod interference;
pub mod launch_queues;
pub mod launches_panel;
pub mod lost_locality;
pub mod playback;
pub mod policy_picker;
pub mod queue_panel;
pub mod run_view;
pub mod setup_bar;
pub mod sm_view;
pub mod smc_strip;
pub mod stats_table;
pub mod sweep_panel;
pub mod tab_bar;
pub mod timeline;
pub mod xy_chart;
