//! warpscope-wasm: the engine behind a Web Worker.
//!
//! - [`protocol`] is the message vocabulary between the page and the worker. It is plain serde
//!   data; both sides encode it with serde-wasm-bindgen into ordinary JavaScript objects, so a
//!   message is readable in the browser's developer tools.
//! - [`runner`] advances one job in bounded slices and produces its replies; it is pure Rust,
//!   tested natively, and knows nothing of JavaScript. [`snapshots`] is a `Simulate` job's
//!   snapshot schedule; [`compile`] and [`catalog`] answer the editor and the menus,
//!   [`launch_table`] lists the host's launches for the Launches panel, and [`warm_up`] runs a
//!   few short jobs in a new worker so that the browser optimises the engine before the first
//!   real one.
//! - [`worker`] is the worker's event loop: it runs a job in slices of a few milliseconds,
//!   streams progress and frames, yields to the event loop between slices so that `Cancel`
//!   can arrive, and turns a panic into a `Failed` reply instead of silence.
//!
//! This is the only crate that knows `JsValue` and `postMessage`.

pub mod catalog;
pub mod compile;
pub mod launch_table;
pub mod protocol;
pub mod runner;
pub mod snapshots;
pub mod warm_up;
pub mod worker;
