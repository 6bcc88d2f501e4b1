//! The set-up's menus: library workload and its size, the programs run beside it, machine
//! preset, schedulers (with memory-issue gates), cycle budget and the SM whose L1 is pictured. Everything listed comes from the worker's catalog,
//! so a new workload, machine or policy appears here without UI work.

use std::rc::Rc;

use warpscope_wasm::protocol::Catalog;
use yew::prelude::*;

use crate::components::policy_picker::PolicyPicker;
use crate::components::program_chips::ProgramChips;
use crate::identity::Same;
use crate::setup::{parse_in_range, RefusedFields, Setup, CYCLE_BUDGET, MAX_CO_RUNNERS};

/// A change the person made.
#[derive(Clone, Debug, PartialEq)]
pub enum SetupChange {
    /// Load a library workload.
    Workload(String),
    /// Size knob (`None`: the file's value).
    Size(Option<u32>),
    /// Run a library workload beside the file.
    AddCoRunner(String),
    /// Stop running the co-runner at this place in the list.
    RemoveCoRunner(usize),
    /// Machine preset.
    Machine(String),
    /// Thread-block scheduler (a policy spec, parameters included).
    Tb(String),
    /// Warp scheduler (a policy spec).
    Warp(String),
    /// Cycle budget.
    MaxCycles(u64),
    /// SM of the heat map.
    HeatSm(u32),
}

/// Props of [`SetupBar`].
#[derive(Properties, PartialEq)]
pub struct SetupBarProps {
    /// Menus.
    pub catalog: Rc<Catalog>,
    /// Current set-up.
    pub setup: Rc<Setup>,
    /// A change.
    pub on_change: Callback<SetupChange>,
    /// Locks the menus while a run goes on.
    pub busy: bool,
    /// Values a share link gave that the fields refuse: shown in them, marked.
    #[prop_or_default]
    pub refused: RefusedFields,
}

/// The menus.
#[function_component(SetupBar)]
pub fn setup_bar(props: &SetupBarProps) -> Html {
    let catalog = &props.catalog;
    let setup = &props.setup;
    let size_text = use_state(|| None::<String>);
    let budget_text = use_state(|| None::<String>);
    // Copied once per catalog, not on every render: the pickers then see the same lists.
    let tb_policies = use_memo(Same(catalog.clone()), |c| c.0.tb_policies.clone());
    let warp_policies = use_memo(Same(catalog.clone()), |c| c.0.warp_policies.clone());
    let memory_gates = use_memo(Same(catalog.clone()), |c| c.0.memory_gates.clone());
    let entry = setup.library_entry(catalog).cloned();

    let select_change = |make: fn(String) -> SetupChange| {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_change.emit(make(select.value()));
        })
    };

    // The size knob: checked against the workload's range as typed, applied when valid.
    let size_input = match &entry {
        Some(entry) => {
            let shown =
                (*size_text).clone().unwrap_or_else(|| setup.size(catalog).map(|s| s.to_string()).unwrap_or_default());
            let error = parse_in_range(&shown, entry.size_min as u64, entry.size_max as u64, "the size").err();
            let oninput = {
                let (size_text, on_change, entry) = (size_text.clone(), props.on_change.clone(), entry.clone());
                Callback::from(move |e: InputEvent| {
                    let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                    let text = input.value();
                    if let Ok(v) = parse_in_range(&text, entry.size_min as u64, entry.size_max as u64, "the size") {
                        on_change.emit(SetupChange::Size((v as u32 != entry.size_default).then_some(v as u32)));
                    }
                    size_text.set(Some(text));
                })
            };
            html! {
                <div class="field">
                    <label for="size">{ format!("Size ({})", entry.size_define) }</label>
                    <div class="input-with-unit">
                        <input id="size" type="number" min={entry.size_min.to_string()} max={entry.size_max.to_string()}
                            value={shown} {oninput} disabled={props.busy} aria-invalid={error.is_some().to_string()}
                            aria-describedby="size-hint" />
                        <span class="unit">{ entry.size_unit.clone() }</span>
                    </div>
                    <span id="size-hint" class={classes!("hint", error.is_some().then_some("error"))}>
                        { error.unwrap_or_else(|| format!("{}–{}, file default {}", entry.size_min, entry.size_max, entry.size_default)) }
                    </span>
                </div>
            }
        }
        None => html! {},
    };
    {
        // A new workload starts from its own default size.
        let size_text = size_text.clone();
        use_effect_with(setup.workload.clone(), move |_| size_text.set(None));
    }
    {
        // A link's refused values appear as if typed, so the fields mark them with the reason
        // (after the reset above: the link's workload arrives with them).
        let (size_text, budget_text) = (size_text.clone(), budget_text.clone());
        use_effect_with(props.refused.clone(), move |refused| {
            if let Some(size) = &refused.size {
                size_text.set(Some(size.clone()));
            }
            if let Some(max) = &refused.max_cycles {
                budget_text.set(Some(max.clone()));
            }
        });
    }

    let budget_shown = (*budget_text).clone().unwrap_or_else(|| setup.max_cycles.to_string());
    let (budget_min, budget_max) = CYCLE_BUDGET;
    let budget_error = parse_in_range(&budget_shown, budget_min, budget_max, "the cycle budget").err();
    let on_budget = {
        let (budget_text, on_change) = (budget_text.clone(), props.on_change.clone());
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(v) = parse_in_range(&input.value(), budget_min, budget_max, "the cycle budget") {
                on_change.emit(SetupChange::MaxCycles(v));
            }
            budget_text.set(Some(input.value()));
        })
    };
    let on_heat = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(sm) = select.value().parse() {
                on_change.emit(SetupChange::HeatSm(sm));
            }
        })
    };

    let mut categories: Vec<&str> = Vec::new();
    for w in &catalog.workloads {
        if !categories.contains(&w.category.as_str()) {
            categories.push(&w.category);
        }
    }
    let current_workload = setup.workload.clone().unwrap_or_default();
    html! {
        <div class="setup-bar">
            <div class="field wide">
                <label for="workload">{ "Workload" }</label>
                <select id="workload" onchange={select_change(SetupChange::Workload)} disabled={props.busy}>
                    if setup.workload.is_none() || setup.edited {
                        <option value="" selected=true disabled=true>
                            { if setup.edited { "(edited file)" } else { "(your file)" } }
                        </option>
                    }
                    { for categories.iter().map(|category| html! {
                        <optgroup label={category.to_string()}>
                            { for catalog.workloads.iter().filter(|w| w.category == *category).map(|w| html! {
                                <option value={w.id.clone()} selected={!setup.edited && w.id == current_workload}
                                    title={w.summary.clone()}>{ format!("{} — {}", w.id, w.title) }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
                if let Some(entry) = &entry {
                    <span class="hint" title={entry.summary.clone()}>{ entry.summary.clone() }</span>
                }
            </div>
            { size_input }
            { co_runners(props) }
            <div class="field">
                <label for="machine">{ "Machine" }</label>
                <select id="machine" onchange={select_change(SetupChange::Machine)} disabled={props.busy}>
                    { for catalog.machines.iter().map(|m| html! {
                        <option value={m.id.clone()} selected={m.id == setup.machine} title={m.source.clone()}>{ m.label.clone() }</option>
                    }) }
                </select>
                <span class="hint">{ format!("{} SMs", setup.config.core.sm_count) }</span>
            </div>
            <PolicyPicker id="tb-policy" label="Thread-block scheduler" policies={tb_policies}
                spec={setup.policies.tb.clone()} on_change={props.on_change.reform(SetupChange::Tb)} disabled={props.busy} />
            <PolicyPicker id="warp-policy" label="Warp scheduler" policies={warp_policies}
                spec={setup.policies.warp.clone()} on_change={props.on_change.reform(SetupChange::Warp)} disabled={props.busy}
                gates={memory_gates} />
            <div class="field">
                <label for="max-cycles">{ "Cycle budget" }</label>
                <input id="max-cycles" type="text" inputmode="numeric" value={budget_shown} oninput={on_budget}
                    disabled={props.busy} aria-invalid={budget_error.is_some().to_string()} aria-describedby="max-cycles-hint" />
                <span id="max-cycles-hint" class={classes!("hint", budget_error.is_some().then_some("error"))}>
                    { budget_error.unwrap_or_else(|| "the run stops here and says so".into()) }
                </span>
            </div>
            <div class="field">
                <label for="heat-sm">{ "L1 pictured" }</label>
                <select id="heat-sm" onchange={on_heat} disabled={props.busy}>
                    { for (0..setup.config.core.sm_count.min(1024)).map(|sm| html! {
                        <option value={sm.to_string()} selected={sm == setup.heat_sm}>{ format!("SM {sm}") }</option>
                    }) }
                </select>
                <span class="hint">{ "the SM whose L1 playback shows" }</span>
            </div>
        </div>
    }
}

/// The programs run beside the file (the concurrent-kernel papers' co-runs; each runs in
/// streams of its own, at its file's size, and the report gives every program's numbers).
fn co_runners(props: &SetupBarProps) -> Html {
    let n = props.setup.co_runners.len();
    let hint = match n {
        0 => "alone; add a program to share the GPU with it".to_string(),
        n => format!("{} programs side by side, each in its own streams at its default size", n + 1),
    };
    html! {
        <ProgramChips id="co-runner-add" label="Run beside" list_label="Programs run beside the file"
            catalog={props.catalog.clone()} chosen={props.setup.co_runners.clone()} max={MAX_CO_RUNNERS}
            on_add={props.on_change.reform(SetupChange::AddCoRunner)}
            on_remove={props.on_change.reform(SetupChange::RemoveCoRunner)} busy={props.busy} hint={hint} />
    }
}
