//! Saving what the page shows as files: text (CSV), a canvas as PNG, and an SVG chart as SVG or
//! PNG. Each builds a Blob or data URL and clicks a temporary download link.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, CanvasRenderingContext2d, Element, HtmlAnchorElement, HtmlCanvasElement};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Offers `blob` for download as `filename`.
pub fn download_blob(blob: &Blob, filename: &str) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    click_link(&url, filename);
    // Revoked a moment later: some browsers start reading the URL only after the click returns.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    }
}

/// Offers `text` for download as `filename` with media type `mime` (`text/csv`, ...).
pub fn download_text(text: &str, mime: &str, filename: &str) {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    if let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &options) {
        download_blob(&blob, filename);
    }
}

/// Offers what `canvas` shows, at its full backing resolution, as a PNG file.
pub fn download_canvas_png(canvas: &HtmlCanvasElement, filename: &str) {
    let filename = filename.to_owned();
    let done = Closure::once_into_js(move |blob: JsValue| {
        if let Ok(blob) = blob.dyn_into::<Blob>() {
            download_blob(&blob, &filename);
        }
    });
    let _ = canvas.to_blob(done.unchecked_ref());
}

/// The markup of an SVG element as a standalone file: the element's `outerHTML` with the SVG
/// namespace declared (the DOM knows it, the markup does not always say it) and the one HTML
/// entity its serialiser may write that XML lacks spelled as a number.
pub fn svg_markup(svg: &Element) -> String {
    with_namespace(&svg.outer_html()).replace("&nbsp;", "&#160;")
}

/// `markup` with `xmlns` added to its root `<svg` tag when missing.
pub fn with_namespace(markup: &str) -> String {
    let Some(open_end) = markup.find('>') else { return markup.to_owned() };
    if markup[..open_end].contains("xmlns=") || !markup.starts_with("<svg") {
        return markup.to_owned();
    }
    format!("<svg xmlns=\"{SVG_NS}\"{}", &markup[4..])
}

/// Offers the SVG element `svg` as an `.svg` file.
pub fn download_svg(svg: &Element, filename: &str) {
    download_text(&svg_markup(svg), "image/svg+xml", filename);
}

/// Offers the SVG element `svg` as a PNG `scale` times its `width` × `height` (viewBox units),
/// on white: the markup is loaded into an image, drawn onto a canvas, and encoded.
pub fn download_svg_png(svg: &Element, filename: &str, width: f64, height: f64, scale: f64) {
    let Ok(image) = web_sys::HtmlImageElement::new() else { return };
    let url = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(&svg_markup(svg)));
    let filename = filename.to_owned();
    let loaded = image.clone();
    let on_load = Closure::once_into_js(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(canvas) = document.create_element("canvas").ok().and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width((width * scale).round() as u32);
        canvas.set_height((height * scale).round() as u32);
        let Some(context) =
            canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        context.set_fill_style_str("#ffffff");
        context.fill_rect(0.0, 0.0, width * scale, height * scale);
        let _ =
            context.draw_image_with_html_image_element_and_dw_and_dh(&loaded, 0.0, 0.0, width * scale, height * scale);
        download_canvas_png(&canvas, &filename);
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    image.set_src(&url);
}

/// Clicks a temporary `<a download>` pointing at `href`.
fn click_link(href: &str, filename: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(link) = document.create_element("a").ok().and_then(|a| a.dyn_into::<HtmlAnchorElement>().ok()) else {
        return;
    };
    link.set_href(href);
    link.set_download(filename);
    link.click();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declares_the_svg_namespace_once() {
        assert_eq!(
            with_namespace("<svg viewBox=\"0 0 1 1\"></svg>"),
            format!("<svg xmlns=\"{SVG_NS}\" viewBox=\"0 0 1 1\"></svg>")
        );
        let declared = format!("<svg xmlns=\"{SVG_NS}\"><g></g></svg>");
        assert_eq!(with_namespace(&declared), declared);
        assert_eq!(with_namespace(""), "");
        assert_eq!(with_namespace("<div></div>"), "<div></div>");
    }
}
