//! A list of library programs chosen one by one: each a chip with a remove button, then a menu
//! that adds one more (the programs run beside the set-up's file, the pair matrix's programs).

use std::rc::Rc;

use warpscope_wasm::protocol::Catalog;
use yew::prelude::*;

/// Props of [`ProgramChips`].
#[derive(Properties, PartialEq)]
pub struct ProgramChipsProps {
    /// DOM id of the menu.
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// What the chips are, for screen readers ("Programs run beside the file").
    pub list_label: AttrValue,
    /// The library.
    pub catalog: Rc<Catalog>,
    /// The programs chosen, in order.
    pub chosen: Vec<String>,
    /// Most programs.
    pub max: usize,
    /// Add one.
    pub on_add: Callback<String>,
    /// Remove the one at this place.
    pub on_remove: Callback<usize>,
    /// Locks the field.
    #[prop_or_default]
    pub busy: bool,
    /// Under the field.
    pub hint: AttrValue,
    /// The hint is a problem.
    #[prop_or_default]
    pub error: bool,
}

/// The chips and the menu, as one field.
#[function_component(ProgramChips)]
pub fn program_chips(props: &ProgramChipsProps) -> Html {
    let full = props.chosen.len() >= props.max;
    let on_add = {
        let on_add = props.on_add.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let id = select.value();
            // The menu is an action, not a choice: it goes back to its prompt.
            select.set_value("");
            if !id.is_empty() {
                on_add.emit(id);
            }
        })
    };
    let chips = props.chosen.iter().enumerate().map(|(i, id)| {
        let remove = props.on_remove.reform(move |_: MouseEvent| i);
        html! {
            <li class="chip">
                <span>{ id.clone() }</span>
                <button type="button" class="chip-remove" onclick={remove} disabled={props.busy}
                    aria-label={format!("Remove {id}")} title="Remove">{ "×" }</button>
            </li>
        }
    });
    let mut categories: Vec<&str> = Vec::new();
    for w in &props.catalog.workloads {
        if !categories.contains(&w.category.as_str()) {
            categories.push(&w.category);
        }
    }
    let hint_id = format!("{}-hint", props.id);
    html! {
        <div class="field wide program-chips">
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <div class="chips-row">
                if !props.chosen.is_empty() {
                    <ul class="chips" aria-label={props.list_label.clone()}>{ for chips }</ul>
                }
                <select id={props.id.clone()} onchange={on_add} disabled={props.busy || full} aria-describedby={hint_id.clone()}>
                    <option value="" selected=true>{ if full { "(as many as there can be)" } else { "add a program…" } }</option>
                    { for categories.iter().map(|category| html! {
                        <optgroup label={category.to_string()}>
                            { for props.catalog.workloads.iter().filter(|w| w.category == *category)
                                .filter(|w| !props.chosen.contains(&w.id)).map(|w| html! {
                                <option value={w.id.clone()} title={w.summary.clone()}>{ format!("{} — {}", w.id, w.title) }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
            </div>
            <span id={hint_id} class={classes!("hint", props.error.then_some("error"))} title={props.hint.clone()}>{ props.hint.clone() }</span>
        </div>
    }
}
