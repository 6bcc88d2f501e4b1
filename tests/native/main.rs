//! Workspace-level native tests: behaviour that spans crates.

mod determinism;
