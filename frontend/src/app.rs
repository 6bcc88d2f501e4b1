//! The app: the sweep form, Run and Cancel, and the run panel, wired to the worker.

use warpscope_wasm::protocol::{Job, Request};
use yew::prelude::*;

use crate::components::run_panel::RunPanel;
use crate::components::sweep_form::SweepFormView;
use crate::form::{Field, FieldError, SweepForm};
use crate::state::{Action, AppState, RunView, WorkerStatus};
use crate::worker::WorkerClient;

/// Frames recorded per run: enough for a smooth chart, few enough to redraw every progress.
const FRAMES_PER_RUN: u64 = 200;

/// Page time in milliseconds.
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// Whether the page was opened with `?debug=1`, which shows diagnostics such as "Crash the worker".
fn debug_mode() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|search| web_sys::UrlSearchParams::new_with_str(&search).ok())
        .and_then(|params| params.get("debug"))
        .is_some_and(|v| v == "1")
}

/// The whole page below the header.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(AppState::default);
    let form = use_state(SweepForm::default);
    let client = use_mut_ref(|| None::<WorkerClient>);
    let next_id = use_mut_ref(|| 1u32);
    let debug = use_memo((), |_| debug_mode());

    // Start a worker, and a fresh one whenever the last one crashed.
    {
        let dispatcher = state.dispatcher();
        let client = client.clone();
        use_effect_with(state.worker_generation, move |&generation| {
            let on_reply = {
                let dispatcher = dispatcher.clone();
                Callback::from(move |reply| dispatcher.dispatch(Action::Reply { generation, reply, at_ms: now_ms() }))
            };
            let on_died = {
                let dispatcher = dispatcher.clone();
                Callback::from(move |message| dispatcher.dispatch(Action::WorkerDied { generation, message }))
            };
            let spawned = WorkerClient::spawn(on_reply, on_died);
            // Replacing the old client terminates the dead worker.
            *client.borrow_mut() = match spawned {
                Ok(worker) => Some(worker),
                Err(message) => {
                    dispatcher.dispatch(Action::WorkerUnavailable { message });
                    None
                }
            };
        });
    }

    let parsed = form.parse();
    let running = state.running_id();
    let field_error = match (&parsed, &state.run) {
        (Err(err), _) => Some(err.clone()),
        (Ok(_), RunView::Failed { field: Some(path), message }) => {
            Field::for_config_path(path).map(|field| FieldError { field, reason: message.clone() })
        }
        _ => None,
    };

    let on_change = {
        let form = form.clone();
        Callback::from(move |(field, value): (Field, String)| {
            let mut next = (*form).clone();
            next.set(field, value);
            form.set(next);
        })
    };
    let on_run = {
        let (client, dispatcher, next_id, spec) =
            (client.clone(), state.dispatcher(), next_id.clone(), parsed.clone().ok());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let client = client.borrow();
            let (Some(spec), Some(worker)) = (spec, client.as_ref()) else { return };
            let id = {
                let mut next = next_id.borrow_mut();
                *next += 1;
                *next - 1
            };
            let frame_every = spec.total_accesses().div_ceil(FRAMES_PER_RUN).max(1);
            dispatcher.dispatch(Action::Started { id, spec, at_ms: now_ms() });
            worker.send(Request::Run { id, job: Job::CacheSweep(spec), frame_every });
        })
    };
    let on_cancel = {
        let client = client.clone();
        Callback::from(move |_: MouseEvent| {
            if let (Some(id), Some(worker)) = (running, client.borrow().as_ref()) {
                worker.send(Request::Cancel { id });
            }
        })
    };
    let on_crash = {
        let client = client.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(worker) = client.borrow().as_ref() {
                worker.send(Request::Crash);
            }
        })
    };

    html! {
        <main class="app">
            <section class="card" aria-labelledby="sweep-title">
                <h2 id="sweep-title">{ "Cache sweep" }</h2>
                <p class="lede">
                    { "Drive one set-associative cache with a synthetic address stream and count its hits and misses. \
                       The engine runs in a Web Worker in slices of a few milliseconds, so the page stays responsive \
                       and Cancel takes effect at once." }
                </p>
                <form onsubmit={on_run} novalidate=true>
                    <SweepFormView form={(*form).clone()} error={field_error} {on_change} disabled={running.is_some()} />
                    <div class="actions">
                        <button id="run" type="submit" class="primary" disabled={parsed.is_err() || running.is_some()}>
                            { "Run" }
                        </button>
                        <button id="cancel" type="button" onclick={on_cancel} disabled={running.is_none()}>{ "Cancel" }</button>
                        if let Ok(spec) = &parsed {
                            <span class="summary">
                                { format!("{} accesses", crate::format::grouped(spec.total_accesses())) }
                            </span>
                        }
                    </div>
                </form>
            </section>
            <section class="card" aria-labelledby="run-title">
                <h2 id="run-title">{ "Run" }</h2>
                <RunPanel run={state.run.clone()} />
            </section>
            <footer class="footer">
                <span id="engine-status">
                    { match state.worker {
                        WorkerStatus::Starting => "Engine: starting…",
                        WorkerStatus::Ready => "Engine: ready",
                    } }
                </span>
                if *debug {
                    <span class="diagnostics">
                        <button id="crash-worker" type="button" class="link" onclick={on_crash}>
                            { "Crash the worker" }
                        </button>
                        <button id="crash-page" type="button" class="link"
                            onclick={|_| panic!("the page was asked to crash (diagnostic)")}>
                            { "Crash the page" }
                        </button>
                    </span>
                }
            </footer>
        </main>
    }
}
