//! The sweep settings, grouped as a person thinks of them: the cache, then the access stream.

use yew::prelude::*;

use crate::form::{Field, FieldError, SweepForm};

/// Props of [`SweepFormView`].
#[derive(Properties, PartialEq)]
pub struct SweepFormProps {
    /// Current text of every field.
    pub form: SweepForm,
    /// The field at fault, if any, with the reason shown under it.
    pub error: Option<FieldError>,
    /// Called with every edit.
    pub on_change: Callback<(Field, String)>,
    /// Whether editing is disabled (while a job runs).
    pub disabled: bool,
}

/// Input groups for a cache sweep.
#[function_component(SweepFormView)]
pub fn sweep_form_view(props: &SweepFormProps) -> Html {
    let number = |field: Field, label: &str, unit: &str, hint: &str| {
        let on_change = props.on_change.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_change.emit((field, input.value()));
        });
        let error = props.error.as_ref().filter(|e| e.field == field);
        let hint_id = format!("{}-hint", field.id());
        html! {
            <div class={classes!("field", error.is_some().then_some("invalid"))}>
                <label for={field.id()}>{ label }</label>
                <div class="input-with-unit">
                    <input id={field.id()} type="text" inputmode="decimal" value={props.form.get(field).to_string()}
                        {oninput} disabled={props.disabled} aria-invalid={error.is_some().to_string()}
                        aria-describedby={hint_id.clone()} />
                    <span class="unit">{ unit }</span>
                </div>
                <p class="hint" id={hint_id}>{ error.map(|e| e.reason.clone()).unwrap_or_else(|| hint.to_string()) }</p>
            </div>
        }
    };
    let select = |field: Field, label: &str, options: &[(&str, &str)], hint: &str| {
        let on_change = props.on_change.clone();
        let onchange = Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_change.emit((field, select.value()));
        });
        let current = props.form.get(field);
        html! {
            <div class="field">
                <label for={field.id()}>{ label }</label>
                <select id={field.id()} {onchange} disabled={props.disabled}>
                    { for options.iter().map(|(value, text)| html! {
                        <option value={value.to_string()} selected={*value == current}>{ *text }</option>
                    }) }
                </select>
                <p class="hint">{ hint }</p>
            </div>
        }
    };
    let random = props.form.is_random();
    html! {
        <div class="form-groups">
            <fieldset>
                <legend>{ "Cache" }</legend>
                { number(Field::CacheKib, "Capacity", "KiB", "Total data capacity.") }
                { number(Field::LineBytes, "Line size", "B", "GPU L1 lines are 128 B.") }
                { number(Field::Ways, "Associativity", "ways", "Lines per set.") }
                { select(Field::Replacement, "Replacement", &[("lru", "LRU"), ("fifo", "FIFO")],
                    "Which line of a full set is evicted.") }
            </fieldset>
            <fieldset>
                <legend>{ "Access stream" }</legend>
                { select(Field::Pattern, "Pattern", &[("random", "Random"), ("strided", "Strided")],
                    if random { "Uniform random 4-byte words." } else { "0, stride, 2×stride, … each pass." }) }
                { number(Field::FootprintKib, "Footprint", "KiB", "Memory the stream covers.") }
                if random {
                    { number(Field::AccessesPerPass, "Lookups per pass", "", "Random accesses in one pass.") }
                    { number(Field::Seed, "Seed", "", "Same seed, same addresses.") }
                } else {
                    { number(Field::StrideBytes, "Stride", "B", "Distance between accesses.") }
                }
                { number(Field::Passes, "Passes", "×", "Times the stream is repeated.") }
            </fieldset>
        </div>
    }
}
