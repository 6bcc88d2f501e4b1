//! The app's pieces, one per file.

pub mod editor;
pub mod hit_rate_chart;
pub mod run_panel;
pub mod sweep_form;
