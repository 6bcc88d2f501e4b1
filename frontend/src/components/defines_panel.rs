//! The kernel file's `#define`s as fields: grid and block sizes, problem sizes and iteration
//! counts are usually macros, so this is where a person changes them without editing the
//! text. A value typed here overrides the file's, like a compiler's `-D`.

use std::rc::Rc;

use warpscope_core::kernel::Define;
use yew::prelude::*;

/// Props of [`DefinesPanel`].
#[derive(Properties, PartialEq)]
pub struct DefinesPanelProps {
    /// Every `#define` of the file with the value in effect (from the latest compile).
    pub defines: Rc<Vec<Define>>,
    /// The overrides in force: (name, value).
    pub overrides: Vec<(String, String)>,
    /// Set (`Some`) or drop (`None`) the override of a macro.
    pub on_change: Callback<(String, Option<String>)>,
    /// Locks the fields while a run goes on.
    #[prop_or_default]
    pub disabled: bool,
}

/// One text field per `#define`, marked when overridden, with a reset.
#[function_component(DefinesPanel)]
pub fn defines_panel(props: &DefinesPanelProps) -> Html {
    if props.defines.is_empty() {
        return html! { <p class="note">{ "This file has no #define to adjust." }</p> };
    }
    html! {
        <div class="defines" id="defines">
            { for props.defines.iter().map(|define| {
                let overridden = props.overrides.iter().any(|(name, _)| *name == define.name);
                let id = format!("define-{}", define.name);
                let onchange = {
                    let (name, on_change) = (define.name.clone(), props.on_change.clone());
                    Callback::from(move |e: Event| {
                        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                        let value = input.value().trim().to_string();
                        on_change.emit((name.clone(), (!value.is_empty()).then_some(value)));
                    })
                };
                let reset = {
                    let (name, on_change) = (define.name.clone(), props.on_change.clone());
                    Callback::from(move |_: MouseEvent| on_change.emit((name.clone(), None)))
                };
                html! {
                    <div class={classes!("field", "define", overridden.then_some("changed"))}>
                        <label for={id.clone()} class="mono">{ &define.name }</label>
                        <div class="input-with-unit">
                            <input id={id} type="text" class="mono" value={define.value.clone()} {onchange}
                                disabled={props.disabled} title={format!("line {} of the file", define.span.line)} />
                            if overridden {
                                <button type="button" class="link" onclick={reset} disabled={props.disabled}
                                    aria-label={format!("Use the file's value of {}", define.name)}>{ "reset" }</button>
                            }
                        </div>
                        <span class="hint">{ if overridden { "overrides the file (-D)".to_string() } else { format!("line {}", define.span.line) } }</span>
                    </div>
                }
            }) }
        </div>
    }
}
