//! A scheduler menu with the chosen policy's parameters as number fields beside it. The value
//! is a policy spec (`swl:limit=6`, see `warpscope_core::sched::PolicySpec`), the same text
//! the command line takes and share links carry; values are checked by the engine's own rule
//! as they are typed, and a bad one is marked at its field with the reason. A warp scheduler
//! may carry memory-issue gates (`gto+qbmi+dmil`): a checkbox each, with the checked gates'
//! parameters as fields too, and the whole spec checked by the engine as it is built.

use std::collections::HashMap;
use std::rc::Rc;

use warpscope_core::sched::params::check_value;
use warpscope_core::sched::warp::{WarpPolicy, MEMORY_GATES};
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
    /// Memory-issue gates the policy may carry (a warp scheduler's); none offered when empty.
    #[prop_or_default]
    pub gates: Rc<Vec<CatalogPolicy>>,
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

/// A spec's base policy and its memory-issue gates, in the order written:
/// `gto+dmil:zero_rule=1` gives `gto` and `[dmil:zero_rule=1]`.
pub fn split_gates(spec: &str) -> (&str, Vec<&str>) {
    let mut parts = spec.split('+').map(str::trim);
    let base = parts.next().unwrap_or_default();
    (base, parts.filter(|g| !g.is_empty()).collect())
}

/// The spec of `base` with `gates`.
pub fn join_gates(base: &str, gates: &[String]) -> String {
    std::iter::once(base).chain(gates.iter().map(String::as_str)).collect::<Vec<_>>().join("+")
}

/// The spec with gate `id` checked or not: a checked gate takes its place in `menu` order (the
/// engine applies gates in the order written, and a link should not depend on click order).
pub fn toggle_gate(spec: &str, id: &str, on: bool, menu: &[CatalogPolicy]) -> String {
    let (base, gates) = split_gates(spec);
    let mut kept: Vec<String> = Vec::new();
    for gate in menu {
        match gates.iter().find(|g| spec_id(g) == gate.id) {
            _ if gate.id == id && on => kept.push(gates.iter().find(|g| spec_id(g) == id).unwrap_or(&id).to_string()),
            _ if gate.id == id => {}
            Some(g) => kept.push(g.to_string()),
            None => {}
        }
    }
    join_gates(base, &kept)
}

/// How a person reads a spec: the policy's menu name, and the parameters that differ from
/// their defaults ("Static warp limit (limit 6)"), then its gates by their short names
/// ("Greedy-then-oldest + QBMI + DMIL"); an unknown id is shown as written.
pub fn describe(spec: &str, policies: &[CatalogPolicy]) -> String {
    let (base, gates) = split_gates(spec);
    let mut text = describe_one(base, policies, None);
    for gate in gates {
        let short = spec_id(gate).to_uppercase();
        let info = MEMORY_GATES.iter().find(|g| g.id == spec_id(gate));
        let listed = info.map(warpscope_wasm::catalog::policy);
        text.push_str(" + ");
        text.push_str(&describe_one(gate, listed.as_slice(), Some(&short)));
    }
    text
}

/// One policy of a spec: its label (or `short`) and its changed parameters.
fn describe_one(spec: &str, policies: &[CatalogPolicy], short: Option<&str>) -> String {
    let Some(policy) = policies.iter().find(|p| p.id == spec_id(spec)) else { return spec.to_string() };
    let label = short.map_or_else(|| policy.label.clone(), str::to_string);
    let changed: Vec<String> = policy
        .params
        .iter()
        .zip(param_values(spec, policy))
        .filter(|(p, v)| *v != p.default)
        .map(|(p, v)| format!("{} {v}", p.name))
        .collect();
    if changed.is_empty() {
        label
    } else {
        format!("{label} ({})", changed.join(", "))
    }
}

/// The id a spec names.
pub fn spec_id(spec: &str) -> &str {
    spec.split_once(':').map_or(spec, |(id, _)| id).trim()
}

/// The menu and the parameter fields, as siblings (so they flow with the other fields), then
/// the gates, if any are offered.
#[function_component(PolicyPicker)]
pub fn policy_picker(props: &PolicyPickerProps) -> Html {
    // What the person typed, per parameter (`policy.param`), until it is valid (and after, so
    // the caret stays).
    let texts = use_state(HashMap::<String, String>::new);
    let (base, gates) = split_gates(&props.spec);
    let id = spec_id(base).to_string();
    {
        let texts = texts.clone();
        use_effect_with(id.clone(), move |_| texts.set(HashMap::new()));
    }
    let policy = props.policies.iter().find(|p| p.id == id).cloned();
    let description = policy.as_ref().map(|p| p.description.clone()).unwrap_or_default();
    let gate_specs: Vec<String> = gates.iter().map(|g| g.to_string()).collect();

    let on_select = {
        let (on_change, gate_specs) = (props.on_change.clone(), gate_specs.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_change.emit(join_gates(&select.value(), &gate_specs));
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
    let fields = |policy: &CatalogPolicy, spec: &str, prefix: String, rebuild: Rebuild, label_prefix: String| {
        let values = param_values(spec, policy);
        let policy = Rc::new(policy.clone());
        let form = Form { prefix, texts: texts.clone(), rebuild, on_change: props.on_change.clone(), label_prefix };
        html! { { for policy.params.iter().enumerate().map(|(k, param)| param_field(props, &form, &policy, &values, k, param)) } }
    };
    let base_fields = match &policy {
        Some(policy) => {
            let gate_specs = gate_specs.clone();
            let rebuild = Rc::new(move |base: String| join_gates(&base, &gate_specs));
            fields(policy, base, props.id.to_string(), rebuild, String::new())
        }
        None => html! {},
    };
    html! { <>{ menu }{ base_fields }{ gates_field(props, &gate_specs, &fields) }</> }
}

/// Makes the whole spec from one of its policies' new spec.
type Rebuild = Rc<dyn Fn(String) -> String>;

/// Where a parameter field's value goes: the spec it belongs to is rebuilt into the whole.
struct Form {
    /// The fields' DOM id prefix.
    prefix: String,
    /// What the person typed, by `policy.param`.
    texts: UseStateHandle<HashMap<String, String>>,
    /// The whole spec from this policy's new spec.
    rebuild: Rebuild,
    /// The picker's callback.
    on_change: Callback<String>,
    /// Put before each field's label: whose parameter it is, for a gate's ("DMIL · ").
    label_prefix: String,
}

/// The gates' checkboxes and the checked gates' parameters; nothing when none are offered.
fn gates_field(
    props: &PolicyPickerProps,
    gate_specs: &[String],
    fields: &dyn Fn(&CatalogPolicy, &str, String, Rebuild, String) -> Html,
) -> Html {
    if props.gates.is_empty() {
        return html! {};
    }
    // The engine's own check of the whole spec (two arbiters, a bad value).
    let error = WarpPolicy::from_spec(&props.spec).err().filter(|_| !gate_specs.is_empty()).map(|e| e.0);
    let group = format!("{}-gates", props.id);
    let boxes = props.gates.iter().map(|gate| {
        let checked = gate_specs.iter().any(|g| spec_id(g) == gate.id);
        let onchange = {
            let (on_change, spec, menu, gate) =
                (props.on_change.clone(), props.spec.to_string(), props.gates.clone(), gate.id.clone());
            Callback::from(move |e: Event| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                on_change.emit(toggle_gate(&spec, &gate, input.checked(), &menu));
            })
        };
        html! {
            <label class="check" title={gate.description.clone()}>
                <input type="checkbox" id={format!("{group}-{}", gate.id)} {checked} {onchange} disabled={props.disabled} />
                { gate.id.to_uppercase() }
            </label>
        }
    });
    let gate_fields = gate_specs.iter().enumerate().filter_map(|(i, spec)| {
        let gate = props.gates.iter().find(|g| g.id == spec_id(spec))?;
        let (base, others) = (split_gates(&props.spec).0.to_string(), gate_specs.to_vec());
        let rebuild = Rc::new(move |own: String| {
            let mut gates = others.clone();
            gates[i] = own;
            join_gates(&base, &gates)
        });
        let prefix = format!("{}-{}", props.id, gate.id);
        Some(fields(gate, spec, prefix, rebuild, format!("{} · ", gate.id.to_uppercase())))
    });
    let hint_id = format!("{group}-hint");
    let hint = error.clone().unwrap_or_else(|| match gate_specs.len() {
        0 => "none: every kernel issues memory instructions freely".into(),
        _ => gate_specs
            .iter()
            .filter_map(|g| props.gates.iter().find(|p| p.id == spec_id(g)).map(|p| p.label.clone()))
            .collect::<Vec<_>>()
            .join(" + "),
    });
    html! {
        <>
            <div class={classes!("field", "wide", "gates", error.is_some().then_some("invalid"))} role="group"
                aria-labelledby={format!("{group}-label")} aria-describedby={hint_id.clone()}>
                <span class="label" id={format!("{group}-label")}>{ "Memory-issue gates" }</span>
                <div class="checks">{ for boxes }</div>
                <span id={hint_id} class={classes!("hint", error.is_some().then_some("error"))} title={hint.clone()}>{ hint }</span>
            </div>
            { for gate_fields }
        </>
    }
}

fn param_field(
    props: &PolicyPickerProps,
    form: &Form,
    policy: &Rc<CatalogPolicy>,
    values: &[u32],
    k: usize,
    param: &CatalogParam,
) -> Html {
    let field_id = format!("{}-{}", form.prefix, param.name);
    let hint_id = format!("{field_id}-hint");
    let key = format!("{}.{}", policy.id, param.name);
    let shown = form.texts.get(&key).cloned().unwrap_or_else(|| values[k].to_string());
    let error = check_value(&param.name, param.min, param.max, &shown).err().map(|e| e.0);
    let oninput = {
        let (texts, on_change, rebuild, policy, values) =
            (form.texts.clone(), form.on_change.clone(), form.rebuild.clone(), policy.clone(), values.to_vec());
        let name = param.name.clone();
        let (min, max) = (param.min, param.max);
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let text = input.value();
            if let Ok(v) = check_value(&name, min, max, &text) {
                let mut values = values.clone();
                values[k] = v;
                on_change.emit(rebuild(compose(&policy, &values)));
            }
            let mut next = (*texts).clone();
            next.insert(key.clone(), text);
            texts.set(next);
        })
    };
    let label = if props.show_label {
        html! { <label for={field_id.clone()} title={param.description.clone()}>{ format!("{}{}", form.label_prefix, param.label) }</label> }
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

    fn gates() -> Vec<CatalogPolicy> {
        MEMORY_GATES.iter().map(warpscope_wasm::catalog::policy).collect()
    }

    #[test]
    fn gates_are_checked_into_menu_order_keeping_their_parameters() {
        let menu = gates();
        assert_eq!(split_gates("gto:x=1 + dmil:zero_rule=1+qbmi"), ("gto:x=1", vec!["dmil:zero_rule=1", "qbmi"]));
        assert_eq!(split_gates("lrr"), ("lrr", vec![]));
        // Clicked DMIL first, then QBMI: the spec lists them as the menu does.
        let one = toggle_gate("gto", "dmil", true, &menu);
        assert_eq!(one, "gto+dmil");
        let two = toggle_gate("gto+dmil:zero_rule=1", "qbmi", true, &menu);
        assert_eq!(two, "gto+dmil:zero_rule=1+qbmi", "DMIL's value is kept");
        assert_eq!(toggle_gate(&two, "dmil", false, &menu), "gto+qbmi");
        assert_eq!(toggle_gate(&two, "qbmi", true, &menu), two, "checking a checked gate changes nothing");
        assert_eq!(toggle_gate("swl:limit=6+rbmi", "rbmi", false, &menu), "swl:limit=6");
        // Each spec the boxes make is one the engine builds, but for two arbiters, which it refuses.
        assert!(WarpPolicy::from_spec(&two).is_ok());
        assert!(WarpPolicy::from_spec(&toggle_gate(&two, "rbmi", true, &menu)).is_err());
    }

    #[test]
    fn a_gated_spec_reads_as_its_policy_then_its_gates_short_names() {
        let list = [swl()];
        assert_eq!(describe("swl:limit=6+qbmi+dmil", &list), "Static warp limit (limit 6) + QBMI + DMIL");
        assert_eq!(describe("swl+dmil:zero_rule=2", &list), "Static warp limit + DMIL (zero_rule 2)");
        assert_eq!(describe("swl+psychic", &list), "Static warp limit + psychic", "an unknown gate as written");
    }
}
