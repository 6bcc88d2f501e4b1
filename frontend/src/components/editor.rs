//! The kernel editor: a `<textarea>` with transparent text over a highlighted copy of the
//! same text, a line-number gutter, the compiler's diagnostics drawn in place, and a list of
//! problems under it.
//!
//! The textarea keeps everything a browser gives text fields for free (caret, selection,
//! undo, IME, spell-check off, accessibility); the layers under it only paint. They share
//! the textarea's font metrics, padding and tab size, never wrap, and follow its scrolling.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use warpscope_core::kernel::{Diagnostic, Severity};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

use crate::diagnostic_marks::{gutter_markers, layout_marks, problem_text, severity_name};
use crate::edit_commands::{indent, newline, outdent, Edit};
use crate::highlight::{highlight, TokenClass};
use crate::text_position::{byte_offset_of, byte_offset_of_utf16, utf16_offset_of, LineIndex};

/// Props of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The text (controlled: the editor shows this and reports edits through `on_change`).
    pub source: AttrValue,
    /// Errors and warnings to draw on the text and list under it.
    pub diagnostics: Vec<Diagnostic>,
    /// Called with the whole new text on every edit.
    pub on_change: Callback<String>,
    /// Shows the text without allowing edits (still highlighted, scrollable and selectable).
    #[prop_or_default]
    pub readonly: bool,
    /// The textarea's id.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// The textarea's accessible name.
    #[prop_or_default]
    pub label: Option<AttrValue>,
    /// Called on Ctrl+Enter (Cmd+Enter on a Mac).
    #[prop_or_default]
    pub on_run: Option<Callback<()>>,
    /// A request from elsewhere on the page to put the caret somewhere (as a problem in the
    /// list under the editor does); each new request moves it once.
    #[prop_or_default]
    pub go_to: Option<GoTo>,
}

/// A place in the text to move the caret to, on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoTo {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
    /// Tells a repeated request for the same place from the last one.
    pub serial: u32,
}

/// Numbers editors on a page, for ids that must be unique.
static NEXT_EDITOR: AtomicUsize = AtomicUsize::new(0);

/// A highlighted code editor for kernel files.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let textarea = use_node_ref();
    let backdrop = use_node_ref();
    let gutter = use_node_ref();
    // Whether Tab indents. Not until the person clicks or types in the editor, so that tabbing
    // through the page passes the editor instead of filling it with tabs; Escape hands Tab back
    // to moving focus.
    let tab_indents = use_mut_ref(|| false);
    let instance = use_memo((), |_| NEXT_EDITOR.fetch_add(1, Ordering::Relaxed));
    let hint_id = format!("editor-hint-{instance}");

    // Everything derived from the text is recomputed only when the text changes.
    let index = use_memo(props.source.clone(), |source| LineIndex::new(source));
    let code = use_memo(props.source.clone(), |source| code_lines(source));
    let numbers = use_memo(index.line_count(), |&count| line_numbers(count));
    let marks = {
        let index = index.clone();
        use_memo((props.source.clone(), props.diagnostics.clone()), move |(source, diagnostics)| {
            layout_marks(source, &index, diagnostics)
        })
    };
    let gutter_marks = use_memo(marks.clone(), |marks| gutter_markers(marks));

    {
        // Layers follow the textarea when the text changes too: a text that shrank may have
        // scrolled it without a scroll event reaching us yet. Not after every render: reading
        // the scroll position forces a layout of the page, and the page re-renders on every
        // progress report of a run.
        let (textarea, backdrop, gutter) = (textarea.clone(), backdrop.clone(), gutter.clone());
        use_effect_with(props.source.clone(), move |_| sync_scroll(&textarea, &backdrop, &gutter));
    }
    let onscroll = {
        let (textarea, backdrop, gutter) = (textarea.clone(), backdrop.clone(), gutter.clone());
        Callback::from(move |_: Event| sync_scroll(&textarea, &backdrop, &gutter))
    };
    let oninput = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: InputEvent| on_change.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value()))
    };
    let onkeydown = {
        let (textarea, tab_indents) = (textarea.clone(), tab_indents.clone());
        let on_change = props.on_change.clone();
        let on_run = props.on_run.clone();
        let readonly = props.readonly;
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if e.is_composing() || matches!(key.as_str(), "Shift" | "Control" | "Alt" | "Meta") {
                return;
            }
            let indents = *tab_indents.borrow();
            if key != "Tab" {
                *tab_indents.borrow_mut() = key != "Escape";
            }
            let command = e.ctrl_key() || e.meta_key();
            let edit: fn(&str, Range<usize>) -> Option<Edit> = match key.as_str() {
                "Enter" if command => {
                    if let Some(run) = &on_run {
                        e.prevent_default();
                        run.emit(());
                    }
                    return;
                }
                // Tab before any editing, after Escape, or in a read-only editor moves focus as usual.
                "Tab" if readonly || !indents || command || e.alt_key() => return,
                "Tab" if e.shift_key() => outdent,
                "Tab" => |text, selection| Some(indent(text, selection)),
                "Enter" if !readonly && !e.shift_key() && !e.alt_key() => {
                    |text, selection| Some(newline(text, selection))
                }
                _ => return,
            };
            e.prevent_default();
            let Some(element) = textarea.cast::<HtmlTextAreaElement>() else { return };
            let text = element.value();
            if let Some(edit) = edit(&text, selection(&element, &text)) {
                apply_edit(&element, &text, &edit, &on_change);
            }
        })
    };
    let (onfocus, onclick) = {
        let (on_focus, on_click) = (tab_indents.clone(), tab_indents);
        (
            Callback::from(move |_: FocusEvent| *on_focus.borrow_mut() = false),
            Callback::from(move |_: MouseEvent| *on_click.borrow_mut() = true),
        )
    };
    let onmousemove = {
        let has_marks = !marks.is_empty();
        Callback::from(move |e: MouseEvent| {
            let Some(element) = e.target_dyn_into::<Element>() else { return };
            let title = if has_marks { mark_tooltip_at(e.client_x(), e.client_y()) } else { None };
            show_tooltip(&element, title);
        })
    };
    let go_to = {
        let textarea = textarea.clone();
        Callback::from(move |(line, column): (u32, u32)| place_caret(&textarea, line, column))
    };
    {
        // A request already there when the editor appears (back from another view) is old.
        let handled = use_mut_ref(|| props.go_to);
        let textarea = textarea.clone();
        use_effect_with(props.go_to, move |request| {
            if *request != handled.replace(*request) {
                if let Some(GoTo { line, column, .. }) = *request {
                    place_caret(&textarea, line, column);
                }
            }
        });
    }

    let source: &str = &props.source;
    let has_errors = props.diagnostics.iter().any(|d| d.severity == Severity::Error);
    let hint = match (props.readonly, props.on_run.is_some()) {
        (true, _) => "Read-only.",
        (false, true) => {
            "Once you click or type in the file, Tab indents and Shift+Tab outdents; Escape, then Tab, leaves it. \
             Ctrl+Enter (Cmd+Enter on a Mac) runs."
        }
        (false, false) => {
            "Once you click or type in the file, Tab indents and Shift+Tab outdents; Escape, then Tab, leaves it."
        }
    };
    let digits = index.line_count().to_string().len();

    html! {
        <div class={classes!("editor", props.readonly.then_some("readonly"))}>
            <div class="editor-frame">
                <div class="editor-gutter" ref={gutter} aria-hidden="true" style={format!("--gutter-digits: {digits}")}>
                    <div class="editor-gutter-inner">
                        <pre class="editor-numbers">{ (*numbers).clone() }</pre>
                        { for gutter_marks.iter().map(|m| html! {
                            <span class={classes!("gutter-marker", severity_name(m.severity))}
                                data-line={m.line.to_string()} title={m.tooltip.clone()}
                                style={format!("--line: {}", m.line - 1)}></span>
                        }) }
                    </div>
                </div>
                <div class="editor-code">
                    <div class="editor-backdrop" ref={backdrop} aria-hidden="true">
                        <div class="editor-layers">
                            <pre class="editor-highlight">{ (*code).clone() }</pre>
                            <div class="editor-marks">
                                { for marks.iter().map(|m| html! {
                                    <div class="editor-mark-line" style={format!("--line: {}", m.line - 1)}>
                                        { &source[m.before.clone()] }
                                        <span class={format!("diag-{}", severity_name(m.severity))}
                                            data-line={m.line.to_string()} data-column={m.column.to_string()}
                                            title={m.tooltip.clone()}>
                                            // Nothing to underline past the end of a line: one blank cell.
                                            { if m.marked.is_empty() { " " } else { &source[m.marked.clone()] } }
                                        </span>
                                    </div>
                                }) }
                            </div>
                        </div>
                    </div>
                    <textarea ref={textarea} class="editor-input" id={props.id.clone()}
                        aria-label={props.label.clone()} aria-describedby={hint_id.clone()}
                        aria-invalid={has_errors.then_some("true")}
                        value={props.source.clone()} readonly={props.readonly}
                        spellcheck="false" autocomplete="off" autocapitalize="off" autocorrect="off"
                        wrap="off" translate="no" data-gramm="false"
                        {oninput} {onkeydown} {onscroll} {onmousemove} {onfocus} {onclick} />
                </div>
            </div>
            <p id={hint_id} class="editor-hint">{ hint }</p>
            <ul id="problems" class="editor-problems" aria-label="Problems" hidden={props.diagnostics.is_empty()}>
                { for props.diagnostics.iter().map(|d| {
                    let position = (d.span.line, d.span.column);
                    html! {
                        <li>
                            <button type="button" class={classes!("problem", severity_name(d.severity))}
                                onclick={go_to.reform(move |_: MouseEvent| position)}>
                                { problem_text(d) }
                            </button>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// Props of [`CodeLine`].
#[derive(Properties, PartialEq)]
struct CodeLineProps {
    /// The line, without its line break.
    text: AttrValue,
    /// The line cut into classified pieces.
    pieces: Pieces,
    /// Whether a line break follows.
    ends_line: bool,
}

/// One highlighted line. A component of its own so that an edit re-renders only the lines
/// it changed: the others compare equal and are skipped.
#[function_component(CodeLine)]
fn code_line(props: &CodeLineProps) -> Html {
    let mut start = 0;
    let pieces = props.pieces.iter().map(|&(end, class)| {
        let text = props.text[start..end].to_string();
        start = end;
        match class.css_class() {
            Some(class) => html! { <span {class}>{ text }</span> },
            None => html! { text },
        }
    });
    html! { <>{ for pieces }{ props.ends_line.then_some("\n") }</> }
}

/// A line's pieces: where each ends (bytes from the line's start) and its class.
type Pieces = Vec<(usize, TokenClass)>;

/// The highlighted text, one [`CodeLine`] per line.
fn code_lines(source: &str) -> Html {
    let lines = highlighted_lines(source);
    let count = lines.len();
    lines
        .into_iter()
        .enumerate()
        .map(|(n, (range, pieces))| {
            let text = AttrValue::from(source[range].to_string());
            html! { <CodeLine {text} {pieces} ends_line={n + 1 < count} /> }
        })
        .collect()
}

/// The highlighter's spans (one pass over the whole text, so that comments spanning lines
/// are right) regrouped by line: each line's bytes, and its pieces as (end relative to the
/// line's start, class).
fn highlighted_lines(source: &str) -> Vec<(Range<usize>, Pieces)> {
    let mut lines = Vec::with_capacity(source.len() / 40 + 1);
    let mut line_start = 0;
    let mut pieces = Vec::new();
    for span in highlight(source) {
        // Line breaks are spans of their own (a guarantee of the highlighter).
        if source.as_bytes()[span.range.start] == b'\n' {
            lines.push((line_start..span.range.start, std::mem::take(&mut pieces)));
            line_start = span.range.end;
        } else {
            pieces.push((span.range.end - line_start, span.class));
        }
    }
    lines.push((line_start..source.len(), pieces));
    lines
}

/// "1\n2\n…\ncount": the gutter's numbers as one text node.
fn line_numbers(count: usize) -> String {
    let mut numbers = String::with_capacity(count * 5);
    for n in 1..=count {
        if n > 1 {
            numbers.push('\n');
        }
        numbers.push_str(&n.to_string());
    }
    numbers
}

/// Scrolls the highlighted layers and the gutter to where the textarea is scrolled.
fn sync_scroll(textarea: &NodeRef, backdrop: &NodeRef, gutter: &NodeRef) {
    let Some(textarea) = textarea.cast::<Element>() else { return };
    let (top, left) = (textarea.scroll_top(), textarea.scroll_left());
    if let Some(backdrop) = backdrop.cast::<Element>() {
        backdrop.set_scroll_top(top);
        backdrop.set_scroll_left(left);
    }
    if let Some(gutter) = gutter.cast::<Element>() {
        gutter.set_scroll_top(top);
    }
}

/// The textarea's selection, in bytes of `text`.
fn selection(element: &HtmlTextAreaElement, text: &str) -> Range<usize> {
    let start = element.selection_start().ok().flatten().unwrap_or(0);
    let end = element.selection_end().ok().flatten().unwrap_or(start);
    byte_offset_of_utf16(text, start)..byte_offset_of_utf16(text, end)
}

/// Makes `edit` in the textarea as if typed, so that it joins the browser's undo history, then
/// selects what it says.
fn apply_edit(element: &HtmlTextAreaElement, old: &str, edit: &Edit, on_change: &Callback<String>) {
    let (start, end) = (utf16_offset_of(old, edit.replace.start), utf16_offset_of(old, edit.replace.end));
    let _ = element.set_selection_range(start, end);
    // `execCommand` is deprecated but still the only way to edit a textarea undoably; it fires
    // the `input` event itself. Where it is missing, set the text directly (losing undo).
    if !insert_text_command(&edit.insert) {
        let _ = element.set_range_text(&edit.insert);
        on_change.emit(element.value());
    }
    let selection = (edit.utf16_in_result(old, edit.selection.start), edit.utf16_in_result(old, edit.selection.end));
    let _ = element.set_selection_range(selection.0, selection.1);
}

/// Replaces the focused field's selection with `text` through `document.execCommand`;
/// whether the browser did it.
fn insert_text_command(text: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return false };
    let Ok(document) = document.dyn_into::<web_sys::HtmlDocument>() else { return false };
    // `insertText` with nothing to insert does nothing; deleting the selection is the same edit.
    let command = if text.is_empty() { "delete" } else { "insertText" };
    document.exec_command_with_show_ui_and_value(command, false, text).unwrap_or(false)
}

/// The tooltip of the diagnostic underline under the pointer, if any. The underlines lie under
/// the textarea, so they never get the hover themselves: the textarea borrows their title.
fn mark_tooltip_at(x: i32, y: i32) -> Option<String> {
    let document = web_sys::window()?.document()?;
    document
        .elements_from_point(x as f32, y as f32)
        .iter()
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .find(|element| element.matches(".diag-error, .diag-warning").unwrap_or(false))?
        .get_attribute("title")
}

/// Sets or clears `element`'s title, touching the DOM only when it changes.
fn show_tooltip(element: &Element, title: Option<String>) {
    if element.get_attribute("title") == title {
        return;
    }
    let _ = match title {
        Some(title) => element.set_attribute("title", &title),
        None => element.remove_attribute("title"),
    };
}

/// Focuses the textarea with the caret at 1-based `line` and `column` (in characters) and
/// scrolls that line into view.
fn place_caret(textarea: &NodeRef, line: u32, column: u32) {
    let Some(element) = textarea.cast::<HtmlTextAreaElement>() else { return };
    let text = element.value();
    let index = LineIndex::new(&text);
    let caret = utf16_offset_of(&text, byte_offset_of(&text, &index, line, column));
    let _ = element.focus();
    let _ = element.set_selection_range(caret, caret);
    // Browsers do not reliably scroll a textarea to a caret set from script.
    let Some((line_height, padding_top)) = line_metrics(&element) else { return };
    let top = padding_top + f64::from(line.max(1) - 1) * line_height;
    let (scrolled, visible) = (f64::from(element.scroll_top()), f64::from(element.client_height()));
    if top < scrolled || top + line_height > scrolled + visible {
        element.set_scroll_top((top - visible / 3.0).max(0.0) as i32);
    }
}

/// The textarea's line height and top padding in pixels, from its computed style.
fn line_metrics(element: &Element) -> Option<(f64, f64)> {
    let style = web_sys::window()?.get_computed_style(element).ok()??;
    let pixels = |property: &str| -> Option<f64> {
        style.get_property_value(property).ok()?.trim().trim_end_matches("px").parse().ok()
    };
    Some((pixels("line-height")?, pixels("padding-top")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlighted_lines_follow_the_line_breaks() {
        use TokenClass::{Comment, Number, Plain, Type};
        assert_eq!(
            highlighted_lines("int a;\n/* x\ny */ 1"),
            [
                (0..6, vec![(3, Type), (6, Plain)]),
                (7..11, vec![(4, Comment)]),
                (12..18, vec![(4, Comment), (5, Plain), (6, Number)])
            ]
        );
        // A final line break starts an empty last line, as in the textarea.
        assert_eq!(highlighted_lines("a\n"), [(0..1, vec![(1, Plain)]), (2..2, vec![])]);
        assert_eq!(highlighted_lines(""), [(0..0, vec![])]);
        assert_eq!(highlighted_lines("\n\n").len(), LineIndex::new("\n\n").line_count());
    }

    #[test]
    fn line_numbers_count_every_line() {
        assert_eq!(line_numbers(1), "1");
        assert_eq!(line_numbers(3), "1\n2\n3");
        assert_eq!(line_numbers(2000).lines().count(), 2000);
        assert!(line_numbers(2000).ends_with("\n1999\n2000"));
    }
}
