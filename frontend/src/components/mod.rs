//! The app's pieces, one per file.

pub mod hardware_panel;
pub mod hit_rate_chart;
pub mod run_panel;
pub mod sweep_form;
