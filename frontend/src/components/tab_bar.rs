//! A row of tabs that behaves as a WAI-ARIA tablist: one tab stop (the selected tab), ← and →
//! select and focus the previous and next tab (wrapping), Home and End the first and last.

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Props of [`TabBar`].
#[derive(Properties, PartialEq)]
pub struct TabBarProps {
    /// `(id, label)` of each tab: its button is `tab-{id}`, the panel it shows `view-{id}`.
    pub tabs: Vec<(&'static str, &'static str)>,
    /// Index of the selected tab.
    pub selected: usize,
    /// A tab was chosen (by click or key).
    pub on_select: Callback<usize>,
    /// What the tabs switch between, for screen readers ("Views").
    pub label: AttrValue,
}

/// The tab a key moves to from `current` of `count`, if the key moves at all.
pub fn tab_for_key(key: &str, current: usize, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match key {
        "ArrowRight" => Some((current + 1) % count),
        "ArrowLeft" => Some((current + count - 1) % count),
        "Home" => Some(0),
        "End" => Some(count - 1),
        _ => None,
    }
}

/// The tabs.
#[function_component(TabBar)]
pub fn tab_bar(props: &TabBarProps) -> Html {
    let onkeydown = {
        let (tabs, selected, on_select) = (props.tabs.clone(), props.selected, props.on_select.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(next) = tab_for_key(&e.key(), selected, tabs.len()) else { return };
            e.prevent_default();
            on_select.emit(next);
            let button = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&format!("tab-{}", tabs[next].0)))
                .and_then(|element| element.dyn_into::<HtmlElement>().ok());
            if let Some(button) = button {
                let _ = button.focus();
            }
        })
    };
    html! {
        <nav class="tabs" role="tablist" aria-label={props.label.clone()} {onkeydown}>
            { for props.tabs.iter().enumerate().map(|(i, &(id, label))| {
                let selected = i == props.selected;
                html! {
                    <button type="button" role="tab" id={format!("tab-{id}")} aria-selected={selected.to_string()}
                        aria-controls={selected.then(|| format!("view-{id}"))} tabindex={if selected { "0" } else { "-1" }}
                        class={classes!("tab", selected.then_some("active"))}
                        onclick={props.on_select.reform(move |_| i)}>{ label }</button>
                }
            }) }
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_wrap_and_home_end_jump() {
        assert_eq!(tab_for_key("ArrowRight", 0, 3), Some(1));
        assert_eq!(tab_for_key("ArrowRight", 2, 3), Some(0));
        assert_eq!(tab_for_key("ArrowLeft", 0, 3), Some(2));
        assert_eq!(tab_for_key("Home", 2, 3), Some(0));
        assert_eq!(tab_for_key("End", 0, 3), Some(2));
        assert_eq!(tab_for_key("Enter", 0, 3), None);
        assert_eq!(tab_for_key("ArrowRight", 0, 0), None);
    }
}
