//! Shared helpers for the workspace-level tests (see `native/` and `e2e/`).
