//! The app's pieces, one per file.

pub mod charts;
pub mod heatmap;
pub mod hit_rate_chart;
pub mod run_panel;
pub mod sm_view;
pub mod sweep_form;
pub mod timeline;
