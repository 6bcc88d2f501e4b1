//! warpscope-frontend: the web app on the page's main thread.
//!
//! The app never steps a simulation itself: it sends requests to the engine's Web Worker
//! ([`worker`]) and folds the replies into one state ([`state`]) that the components draw.
//! The set-up being edited ([`setup`]) travels in the page's address ([`share`]). Pure
//! helpers ([`format`], [`export`], [`gallery`], [`pool`]) are tested natively.

pub mod app;
pub mod canvas;
pub mod components;
pub mod csv;
pub mod diagnostic_marks;
pub mod download;
pub mod draw_timing;
pub mod edit_commands;
pub mod export;
pub mod format;
pub mod gallery;
pub mod highlight;
pub mod identity;
pub mod pair_matrix;
pub mod plot;
pub mod pool;
pub mod setup;
pub mod share;
pub mod state;
pub mod swl_sweep;
pub mod text_position;
pub mod worker;

use wasm_bindgen::prelude::*;

/// Entry point run by `index.html`: installs the panic banner and mounts the app.
#[wasm_bindgen(start)]
pub fn start() {
    // Through Yew, which would otherwise replace any hook of ours with its console-only one.
    yew::set_custom_panic_hook(Box::new(|info| show_fatal_error(&info.to_string())));
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => show_fatal_error("the page has no element with id \"app\" to mount into"),
    }
}

/// Shows an internal error over the page so that a crash never leaves it silently dead.
fn show_fatal_error(message: &str) {
    web_sys::console::error_1(&format!("warpscope: {message}").into());
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(banner) = document.get_element_by_id("fatal") else { return };
    banner.set_text_content(Some(&format!(
        "warpscope stopped because of an internal error. Reload the page to continue; if it happens again, \
         please report it with this message: {message}"
    )));
    let _ = banner.remove_attribute("hidden");
}
