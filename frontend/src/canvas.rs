//! Canvas plumbing shared by the canvas views: a backing store sized for the screen's pixel
//! density, hooks that follow an element's width as its container resizes and the screen's
//! pixel density as it changes, and one that follows the pointer over a grid of cells.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, ResizeObserver, ResizeObserverEntry};
use yew::prelude::*;

use crate::plot::cell_grid::CellGrid;

/// Sizes `canvas`'s backing store for a `width` × `height` CSS-pixel drawing at `ratio` device
/// pixels per CSS pixel (see [`use_pixel_ratio`]; so lines stay sharp on high-density screens),
/// clears it, and returns a context that draws in CSS pixels. The element's displayed size is
/// left to its `style`.
pub fn prepare(canvas: &HtmlCanvasElement, width: f64, height: f64, ratio: f64) -> Option<CanvasRenderingContext2d> {
    let (w, h) = ((width * ratio).round().max(1.0) as u32, (height * ratio).round().max(1.0) as u32);
    // Assigning a size clears the canvas and costs a reallocation, so only when it changed.
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    context.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).ok()?;
    context.clear_rect(0.0, 0.0, width, height);
    Some(context)
}

/// Fills a rectangle in `colour`.
pub fn fill_rect(context: &CanvasRenderingContext2d, colour: &str, x: f64, y: f64, w: f64, h: f64) {
    context.set_fill_style_str(colour);
    context.fill_rect(x, y, w, h);
}

/// The width in CSS pixels of the element behind `node`, kept up to date with a
/// `ResizeObserver`; 0 until the element is mounted.
#[hook]
pub fn use_element_width(node: NodeRef) -> f64 {
    let width = use_state_eq(|| 0.0f64);
    {
        let width = width.clone();
        use_effect_with(node, move |node| {
            let observer = node.cast::<Element>().and_then(|element| {
                width.set(element.client_width() as f64);
                // The size the observer reports, not `clientWidth`: reading layout here would
                // force a layout whenever an earlier observer's redraw has just changed the page.
                let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    if let Ok(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>() {
                        width.set(entry.content_rect().width().floor());
                    }
                });
                let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
                observer.observe(&element);
                Some((observer, on_resize))
            });
            move || {
                // The closure must outlive the observer, so both are dropped here together.
                if let Some((observer, _on_resize)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    *width
}

/// The screen's device pixels per CSS pixel now (1 where it cannot be read).
fn current_pixel_ratio() -> f64 {
    web_sys::window().map(|w| w.device_pixel_ratio()).filter(|r| r.is_finite() && *r > 0.0).unwrap_or(1.0)
}

/// The screen's device pixels per CSS pixel, followed as it changes (browser zoom, a window
/// moved to another screen), so that a canvas depending on it redraws sharp.
#[hook]
pub fn use_pixel_ratio() -> f64 {
    let ratio = use_state_eq(current_pixel_ratio);
    {
        let ratio = ratio.clone();
        use_effect_with(*ratio, move |&now| {
            // A query for the ratio now stops matching, and says so, when the ratio changes.
            let query =
                web_sys::window().and_then(|w| w.match_media(&format!("(resolution: {now}dppx)")).ok().flatten());
            let listener = query.map(|query| {
                let on_change = Closure::<dyn FnMut()>::new(move || ratio.set(current_pixel_ratio()));
                let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
                (query, on_change)
            });
            move || {
                if let Some((query, on_change)) = listener {
                    let _ = query.remove_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
                }
            }
        });
    }
    *ratio
}

/// The cell of a [`CellGrid`] canvas under the pointer: (row, column, x, y), x and y in CSS
/// pixels for placing a tooltip.
pub type CellHover = Option<(usize, usize, f64, f64)>;

/// Follows the pointer over a canvas drawn as `grid`: the hovered cell, and the
/// `onmousemove` / `onmouseleave` handlers to attach to the canvas.
#[hook]
pub fn use_cell_hover(grid: CellGrid) -> (CellHover, Callback<MouseEvent>, Callback<MouseEvent>) {
    let hover = use_state_eq(|| None);
    let onmousemove = {
        let hover = hover.clone();
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x() as f64, e.offset_y() as f64);
            hover.set(grid.hit(x, y).map(|(row, column)| (row, column, x, y)));
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_: MouseEvent| hover.set(None))
    };
    (*hover, onmousemove, onmouseleave)
}
