//! The app's pieces, one per file.

pub mod compare;
pub mod gallery_view;
pub mod playback;
pub mod run_view;
pub mod setup_bar;
pub mod stats_table;
