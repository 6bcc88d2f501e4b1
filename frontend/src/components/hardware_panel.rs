//! Every hardware parameter of the simulated GPU as a form: one collapsible group per section
//! of the field table, each field beside the chosen preset's value.
//!
//! The panel owns only what the person typed and could not be applied; the configuration
//! itself belongs to the parent, which hears of each accepted edit through `on_change`.

mod field_text;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use warpscope_core::config::fields::{field, fields, FieldInfo, FieldKind};
use warpscope_core::config::GpuConfig;
use warpscope_core::ConfigError;
use yew::prelude::*;

use field_text::{describe, field_text, input_id, FieldText};

/// Groups open when the panel first appears; the rest start collapsed so the panel stays short.
const OPEN_GROUPS: [&str; 2] = ["Cores", "L1 data cache"];

/// Props of [`HardwarePanel`].
#[derive(Properties, PartialEq)]
pub struct HardwarePanelProps {
    /// The configuration being edited.
    pub config: Rc<GpuConfig>,
    /// The chosen preset's values, shown beside each field and restored by "reset".
    pub preset: Rc<GpuConfig>,
    /// The engine's verdict on `config`; the field it names is marked with the reason.
    pub error: Option<ConfigError>,
    /// Called with `(path, text)` for each edit that [`GpuConfig::set_field`] accepts. Text it
    /// refuses stays in the panel, marked, and is not sent. "Reset to preset" sends one call per
    /// field in table order, so apply each to the latest configuration (a reducer), not to a
    /// copy captured when the callback was made.
    pub on_change: Callback<(&'static str, String)>,
    /// Whether editing is disabled (while a simulation runs).
    #[prop_or_default]
    pub disabled: bool,
}

/// Text typed into number fields, by path, kept while it differs from what the config holds.
type Drafts = HashMap<&'static str, String>;

/// The hardware settings form.
#[function_component(HardwarePanel)]
pub fn hardware_panel(props: &HardwarePanelProps) -> Html {
    let drafts = use_state(Drafts::new);
    // Groups opened to show an error. They stay open once it is fixed: closing them then
    // would pull the field from under the person's cursor.
    let opened_for_errors = use_mut_ref(HashSet::<&'static str>::new);
    {
        // A new preset replaces every value; text typed before would hide the new ones.
        let drafts = drafts.clone();
        use_effect_with(props.preset.clone(), move |_| {
            if !drafts.is_empty() {
                drafts.set(Drafts::new());
            }
        });
    }

    let on_input = {
        let (drafts, config, on_change) = (drafts.clone(), props.config.clone(), props.on_change.clone());
        Callback::from(move |(path, text): (&'static str, String)| {
            let accepted = GpuConfig::clone(&config).set_field(path, &text).is_ok();
            let mut next = (*drafts).clone();
            next.insert(path, text.clone());
            drafts.set(next);
            if accepted {
                on_change.emit((path, text));
            }
        })
    };
    let on_reset = {
        let (drafts, config, preset, on_change) =
            (drafts.clone(), props.config.clone(), props.preset.clone(), props.on_change.clone());
        Callback::from(move |group: &'static str| {
            let in_group = |path: &str| field(path).is_some_and(|f| f.group == group);
            let mut next = (*drafts).clone();
            next.retain(|path, _| !in_group(path));
            drafts.set(next);
            // The preset's side of the difference, in table order (a topology before its mesh size).
            for (path, text) in preset.diff(&config).into_iter().filter(|(path, _)| in_group(path)) {
                on_change.emit((path, text));
            }
        })
    };

    let engine_error = props.error.as_ref();
    let misplaced_error = engine_error.filter(|e| field(&e.field).is_none());
    html! {
        <div class="hw-panel">
            if let Some(e) = misplaced_error {
                <p class="hw-error" role="alert">{ e.to_string() }</p>
            }
            { for groups().into_iter().map(|(group, infos)| {
                let rows: Vec<FieldRow> = infos.iter().map(|info| {
                    FieldRow::new(info, props, drafts.get(info.path).map(String::as_str))
                }).collect();
                let changed = rows.iter().filter(|row| row.changed).count();
                let resettable = changed > 0 || infos.iter().any(|info| drafts.contains_key(info.path));
                if rows.iter().any(|row| row.error.is_some()) {
                    opened_for_errors.borrow_mut().insert(group);
                }
                let open = OPEN_GROUPS.contains(&group) || opened_for_errors.borrow().contains(group);
                let reset = {
                    let on_reset = on_reset.clone();
                    Callback::from(move |_: MouseEvent| on_reset.emit(group))
                };
                html! {
                    <details class="hw-group" {open}>
                        <summary>
                            <span class="hw-group-name">{ group }</span>
                            if changed > 0 {
                                <span class="hw-changed-count">{ format!("{changed} changed") }</span>
                            }
                        </summary>
                        <fieldset>
                            <legend class="hw-sr-only">{ group }</legend>
                            { for rows.into_iter().map(|row| row.view(props.disabled, &on_input)) }
                        </fieldset>
                        <button type="button" class="link hw-reset" onclick={reset}
                            disabled={props.disabled || !resettable}>
                            { format!("Reset {group} to preset") }
                        </button>
                    </details>
                }
            }) }
        </div>
    }
}

/// The field table cut into its groups, in order.
fn groups() -> Vec<(&'static str, Vec<&'static FieldInfo>)> {
    let mut groups: Vec<(&'static str, Vec<&'static FieldInfo>)> = Vec::new();
    for info in fields() {
        match groups.last_mut() {
            Some((group, infos)) if *group == info.group => infos.push(info),
            _ => groups.push((info.group, vec![info])),
        }
    }
    groups
}

/// Everything one field shows, worked out from the panel's props.
struct FieldRow {
    info: &'static FieldInfo,
    shown: FieldText,
    /// The refusal of the typed text, else the engine's error about this field.
    error: Option<String>,
    /// The current value in friendlier words where the raw number is hard to read (sizes), or
    /// why the field has none.
    value_hint: Option<String>,
    preset_hint: String,
    changed: bool,
    /// False for a crossbar's mesh dimensions.
    applicable: bool,
}

impl FieldRow {
    fn new(info: &'static FieldInfo, props: &HardwarePanelProps, draft: Option<&str>) -> Self {
        let current = props.config.get_field(info.path);
        let preset = props.preset.get_field(info.path);
        let shown = field_text(&props.config, info.path, draft);
        let engine_error = props.error.as_ref().filter(|e| e.field == info.path).map(|e| e.reason.clone());
        FieldRow {
            info,
            error: shown.refusal.clone().or(engine_error),
            shown,
            value_hint: match current {
                // Only a crossbar's mesh dimensions have no value.
                None => Some("mesh only".into()),
                Some(_) if info.unit == "bytes" => Some(describe(info, current)),
                Some(_) => None,
            },
            preset_hint: describe(info, preset),
            changed: current != preset,
            applicable: current.is_some(),
        }
    }

    fn view(self, disabled: bool, on_input: &Callback<(&'static str, String)>) -> Html {
        html! {
            <HardwareField info={self.info} text={self.shown.text} error={self.error} value_hint={self.value_hint}
                preset_hint={self.preset_hint} changed={self.changed} disabled={disabled || !self.applicable}
                on_input={on_input.clone()} />
        }
    }
}

#[derive(Properties, PartialEq)]
struct HardwareFieldProps {
    info: &'static FieldInfo,
    text: String,
    error: Option<String>,
    value_hint: Option<String>,
    preset_hint: String,
    changed: bool,
    disabled: bool,
    on_input: Callback<(&'static str, String)>,
}

/// One labelled input or menu with its unit, its note (error, or value and preset) and its help.
#[function_component(HardwareField)]
fn hardware_field(props: &HardwareFieldProps) -> Html {
    let info = props.info;
    let id = input_id(info.path);
    let (note_id, help_id) = (format!("{id}-note"), format!("{id}-help"));
    let described_by = format!("{note_id} {help_id}");
    let invalid = props.error.is_some();
    let path = info.path;
    let control = match info.kind {
        FieldKind::Number { min, max } => {
            let on_input = props.on_input.clone();
            let oninput = Callback::from(move |e: InputEvent| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                on_input.emit((path, input.value()));
            });
            html! {
                <input id={id.clone()} type="number" inputmode="numeric" step="1" min={min.to_string()}
                    max={max.to_string()} value={props.text.clone()} {oninput} disabled={props.disabled}
                    title={info.help} aria-invalid={invalid.to_string()} aria-describedby={described_by} />
            }
        }
        FieldKind::Choice(options) => {
            let on_input = props.on_input.clone();
            let onchange = Callback::from(move |e: Event| {
                let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
                on_input.emit((path, select.value()));
            });
            html! {
                <select id={id.clone()} {onchange} disabled={props.disabled} title={info.help}
                    aria-invalid={invalid.to_string()} aria-describedby={described_by}>
                    { for options.iter().map(|(value, label)| html! {
                        <option value={*value} selected={*value == props.text}>{ *label }</option>
                    }) }
                </select>
            }
        }
    };
    let note = match (&props.error, &props.value_hint) {
        (Some(reason), _) => reason.clone(),
        (None, Some(value)) => format!("{value} · preset: {}", props.preset_hint),
        (None, None) => format!("preset: {}", props.preset_hint),
    };
    html! {
        <div class={classes!("field", "hw-field", props.changed.then_some("changed"), invalid.then_some("invalid"))}>
            <label for={id} title={info.help}>{ info.label }</label>
            <div class="input-with-unit">
                { control }
                <span class="unit">{ info.unit }</span>
            </div>
            <p class="hint" id={note_id}>{ note }</p>
            <span class="hw-sr-only" id={help_id}>{ info.help }</span>
        </div>
    }
}
