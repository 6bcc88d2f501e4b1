//! A scheduler menu with the chosen policy's parameters as number fields beside it. The value
//! is a policy spec (`swl:limit=6`, see `warpscope_core::sched::PolicySpec`), the same text
//! the command line takes and share links carry; values are checked by the engine's own rule
//! as they are typed, and a bad one is marked at its field with the reason.

use std::collections::HashMap;
use std::rc::Rc;

use warpscope_core::sched::params::check_value;
use warpscope_core::sched::PolicySpec;
use warpscope_wasm::protocol::{CatalogParam, CatalogPolicy};
use yew::prelude::*;

/// Props of [`PolicyPicker`].
#[derive(Properties, PartialEq)]
pub struct PolicyPickerProps {
    /// DOM id of the menu; a parameter's field is `{id}-{name}`.
    pub id: AttrValue,
    /// What is being chosen ("Warp scheduler").
    pub label: AttrValue,
    /// Show the label above the menu (off in tables, where the column says it).
    #[prop_or(true)]
    pub show_label: bool,
    /// The registry's policies.
    pub policies: Rc<Vec<CatalogPolicy>>,
    /// The current spec.
    pub spec: AttrValue,
    /// A new spec.
    pub on_change: Callback<String>,
    /// Locks the fields (a run goes on).
    #[prop_or_default]
    pub disabled: bool,
}

/// The values a spec gives the parameters of `policy`, defaults for the rest (a spec that does
/// not fit is the engine's to report at run time; here it shows what it can).
pub fn param_values(spec: &str, policy: &CatalogPolicy) -> Vec<u32> {
    let given = PolicySpec::parse(spec).map(|s| s.given).unwrap_or_default();
    policy
        .params
        .iter()
        .map(|p| {
            given
                .iter()
                .find(|(name, _)| *name == p.name)
                .and_then(|(_, text)| check_value(&p.name, p.min, p.max, text).ok())
                .unwrap_or(p.default)
        })
        .collect()
}

/// The spec of `policy` with `values` (defaults left out).
pub fn compose(policy: &CatalogPolicy, values: &[u32]) -> String {
    PolicySpec::compose(&policy.id, policy.params.iter().zip(values).map(|(p, &v)| (p.name.as_str(), v, p.default)))
}

/// How a person reads a spec: the policy's menu name, and the parameters that differ from
/// their defaults ("Static warp limit (limit 6)"); an unknown id is shown as written.
pub fn describe(spec: &str, policies: &[CatalogPolicy]) -> String {
    let Some(policy) = policies.iter().find(|p| p.id == spec_id(spec)) else { return spec.to_string() };
    let changed: Vec<String> = policy
        .params
        .iter()
        .zip(param_values(spec, policy))
        .filter(|(p, v)| *v != p.default)
        .map(|(p, v)| format!("{} {v}", p.name))
        .collect();
    if changed.is_empty() {
        policy.label.clone()
    } else {
        format!("{} ({})", policy.label, changed.join(", "))
    }
}

/// The id a spec names.
pub fn spec_id(spec: &str) -> &str {
    spec.split_once(':').map_or(spec, |(id, _)| id).trim()
}

/// The menu and the parameter fields, as siblings (so they flow with the other fields).
#[function_component(PolicyPicker)]
pub fn policy_picker(props: &PolicyPickerProps) -> Html {
    // What the person typed, per parameter, until it is valid (and after, so the caret stays).
    let texts = use_state(HashMap::<String, String>::new);
    let id = spec_id(&props.spec).to_string();
    {
        let texts = texts.clone();
        use_effect_with(id.clone(), move |_| texts.set(HashMap::new()));
    }
    let policy = props.policies.iter().find(|p| p.id == id).cloned();
    let description = policy.as_ref().map(|p| p.description.clone()).unwrap_or_default();

    let on_select = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_change.emit(select.value());
        })
    };
    let menu = html! {
        <div class="field">
            if props.show_label {
                <label for={props.id.clone()}>{ props.label.clone() }</label>
            }
            <select id={props.id.clone()} onchange={on_select} disabled={props.disabled}
                aria-label={(!props.show_label).then(|| props.label.clone())}
                title={policy.as_ref().map(|p| p.description.clone())}>
                { for props.policies.iter().map(|p| html! {
                    <option value={p.id.clone()} selected={p.id == id} title={p.description.clone()}>{ p.label.clone() }</option>
                }) }
            </select>
            if props.show_label {
                // What the chosen policy does (in full on hover where it is cut short).
                <span class="hint" title={description.clone()}>{ description.clone() }</span>
            }
        </div>
    };
    let Some(policy) = policy else { return menu };
    let values = param_values(&props.spec, &policy);
    let policy = Rc::new(policy);
    let fields =
        policy.params.iter().enumerate().map(|(k, param)| param_field(props, &texts, &policy, &values, k, param));
    html! { <>{ menu }{ for fields }</> }
}

fn param_field(
    props: &PolicyPickerProps,
    texts: &UseStateHandle<HashMap<String, String>>,
    policy: &Rc<CatalogPolicy>,
    values: &[u32],
    k: usize,
    param: &CatalogParam,
) -> Html {
    let field_id = format!("{}-{}", props.id, param.name);
    let hint_id = format!("{field_id}-hint");
    let shown = texts.get(&param.name).cloned().unwrap_or_else(|| values[k].to_string());
    let error = check_value(&param.name, param.min, param.max, &shown).err().map(|e| e.0);
    let oninput = {
        let (texts, on_change, policy, values) =
            (texts.clone(), props.on_change.clone(), policy.clone(), values.to_vec());
        let name = param.name.clone();
        let (min, max) = (param.min, param.max);
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let text = input.value();
            if let Ok(v) = check_value(&name, min, max, &text) {
                let mut values = values.clone();
                values[k] = v;
                on_change.emit(compose(&policy, &values));
            }
            let mut next = (*texts).clone();
            next.insert(name.clone(), text);
            texts.set(next);
        })
    };
    let label = if props.show_label {
        html! { <label for={field_id.clone()} title={param.description.clone()}>{ param.label.clone() }</label> }
    } else {
        html! {}
    };
    html! {
        <div class="field policy-param">
            { label }
            <div class="input-with-unit">
                <input id={field_id} type="number" min={param.min.to_string()} max={param.max.to_string()}
                    value={shown} {oninput} disabled={props.disabled} title={param.description.clone()}
                    aria-label={(!props.show_label).then(|| format!("{} of {}", param.label, policy.label))}
                    aria-invalid={error.is_some().to_string()} aria-describedby={hint_id.clone()} />
                if !param.unit.is_empty() {
                    <span class="unit">{ param.unit.clone() }</span>
                }
            </div>
            <span id={hint_id} class={classes!("hint", error.is_some().then_some("error"))}>
                { error.unwrap_or_else(|| format!("{}–{}, default {}", param.min, param.max, param.default)) }
            </span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swl() -> CatalogPolicy {
        CatalogPolicy {
            id: "swl".into(),
            label: "Static warp limit".into(),
            description: String::new(),
            params: vec![
                CatalogParam {
                    name: "limit".into(),
                    label: "Warp limit".into(),
                    unit: "warps".into(),
                    description: String::new(),
                    min: 1,
                    max: 64,
                    default: 64,
                },
                CatalogParam {
                    name: "group".into(),
                    label: "Group".into(),
                    unit: String::new(),
                    description: String::new(),
                    min: 1,
                    max: 8,
                    default: 2,
                },
            ],
        }
    }

    #[test]
    fn a_spec_gives_the_fields_their_values_and_the_fields_give_back_the_spec() {
        let p = swl();
        assert_eq!(param_values("swl", &p), [64, 2]);
        assert_eq!(param_values("swl:group=4,limit=6", &p), [6, 4]);
        assert_eq!(param_values("swl:limit=0", &p), [64, 2], "a value out of range shows the default");
        assert_eq!(compose(&p, &[6, 2]), "swl:limit=6");
        assert_eq!(compose(&p, &[64, 2]), "swl");
        assert_eq!(spec_id(" swl : limit=6"), "swl");
        let list = [p];
        assert_eq!(describe("swl:limit=6", &list), "Static warp limit (limit 6)");
        assert_eq!(describe("swl", &list), "Static warp limit");
        assert_eq!(describe("psychic", &list), "psychic");
        assert_eq!(spec_id("gto"), "gto");
    }
}
