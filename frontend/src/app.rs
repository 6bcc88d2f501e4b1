//! The app: three views (Simulate, Compare, Gallery) and the embed view, wired to the pool of
//! engine workers.
//!
//! The set-up being edited lives here; everything the workers say goes through the reducer in
//! [`crate::state`], whose [`crate::pool::Pool`] says which Web Workers should exist and which
//! job each runs: the app spawns, replaces and feeds them to match. The page's address always holds the set-up (see [`crate::share`]), so a
//! reload or a copied address restores it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use warpscope_core::claims::plan;
use warpscope_core::config::GpuConfig;
use warpscope_core::{ConfigError, Policies};
use warpscope_wasm::protocol::{Catalog, Job, JobId, Reply, Request};
use yew::prelude::*;

use crate::components::compare::{CompareView, Variant, MAX_VARIANTS};
use crate::components::defines_panel::DefinesPanel;
use crate::components::editor::{Editor, GoTo};
use crate::components::gallery_view::GalleryView;
use crate::components::hardware_panel::HardwarePanel;
use crate::components::launches_panel::LaunchesPanel;
use crate::components::pair_view::PairView;
use crate::components::policy_picker::describe;
use crate::components::run_view::{RunPanel, Sweeper};
use crate::components::setup_bar::{SetupBar, SetupChange};
use crate::components::tab_bar::TabBar;
use crate::gallery;
use crate::identity::Same;
use crate::pair_matrix::{self, MatrixSpec, PairMatrix};
use crate::pool::pool_size;
use crate::setup::Setup;
use crate::share;
use crate::state::{Action, AppState, QueuedJob, RunView, Scope, Target, WorkerStatus};
use crate::swl_sweep;
use crate::worker::WorkerClient;

/// Milliseconds of quiet typing before the file is compiled for the editor's markers.
const COMPILE_DELAY_MS: u32 = 250;

/// Page time in milliseconds.
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// The set-up part of the page's address: its fragment (`#w=…`, what share links carry, so
/// that a long kernel text never reaches a server's limit on request lines), or for links
/// made before fragments its query string (`?w=…`), or "".
fn link_query() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    match location.hash().ok().filter(|hash| hash.len() > 1) {
        Some(hash) => hash,
        None => location.search().unwrap_or_default(),
    }
    .get(1..)
    .unwrap_or_default()
    .to_string()
}

/// One parameter of the page's address, from the link's fragment or the query string.
fn query_param(name: &str) -> Option<String> {
    let from = |text: String| web_sys::UrlSearchParams::new_with_str(&text).ok().and_then(|p| p.get(name));
    from(link_query()).or_else(|| from(web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()))
}

/// The page's address without its query or fragment, for building share links.
fn page_base() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// Puts `query` in the address bar's fragment without reloading or adding a history entry;
/// the query string keeps only what is not the set-up (`?debug=1`, `?workers=2`).
fn replace_link(query: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(history) = window.history() else { return };
    let location = window.location();
    let search = location.search().unwrap_or_default();
    let kept = web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .map(|params| {
            let mut kept = Vec::new();
            for name in ["debug", "workers"] {
                if let Some(value) = params.get(name) {
                    kept.push(format!("{name}={value}"));
                }
            }
            kept
        })
        .unwrap_or_default();
    let search = if kept.is_empty() { String::new() } else { format!("?{}", kept.join("&")) };
    let url = format!("{}{search}#{query}", location.pathname().unwrap_or_default());
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// Copies `text` to the clipboard (best effort: the field stays selectable either way).
fn copy_to_clipboard(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// One Web Worker of the pool: the generation it was spawned as (its slot's in
/// [`crate::pool::Pool::workers`]) and the last job sent to it.
struct PoolWorker {
    generation: u32,
    client: WorkerClient,
    sent: Option<JobId>,
    /// Gives the worker up if it has not said it is ready in time (dropped with it).
    _start_due: Timeout,
}

/// The page's workers, slot by slot (`None`: not spawned, or given up).
type Workers = Rc<RefCell<Vec<Option<PoolWorker>>>>;

/// The worker of `generation`, if it is running.
fn worker_of(workers: &[Option<PoolWorker>], generation: u32) -> Option<&WorkerClient> {
    workers.iter().flatten().find(|w| w.generation == generation).map(|w| &w.client)
}

/// How many workers the browser's cores allow (`?workers=N` in the address overrides it).
fn workers_wanted() -> usize {
    let cores = web_sys::window().map(|w| w.navigator().hardware_concurrency());
    pool_size(cores, query_param("workers").as_deref())
}

/// The views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Edit, run, watch.
    Simulate,
    /// Several policies side by side.
    Compare,
    /// Programs side by side, pair by pair.
    Pairs,
    /// The papers' results.
    Gallery,
}

impl Tab {
    fn id(self) -> &'static str {
        match self {
            Tab::Simulate => "simulate",
            Tab::Compare => "compare",
            Tab::Pairs => "pairs",
            Tab::Gallery => "gallery",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Tab::Simulate => "Simulate",
            Tab::Compare => "Compare",
            Tab::Pairs => "Co-runs",
            Tab::Gallery => "Paper gallery",
        }
    }
}

/// The two variants a new compare view starts with: the set-up's thread-block scheduler
/// under each of the first two warp schedulers.
fn default_variants(setup: &Setup, catalog: &Catalog) -> Vec<Variant> {
    let warps: Vec<String> = catalog.warp_policies.iter().map(|p| p.id.clone()).collect();
    let pick = |i: usize| warps.get(i).cloned().unwrap_or_else(|| setup.policies.warp.clone());
    vec![Variant::policies(setup.policies.tb.clone(), pick(0)), Variant::policies(setup.policies.tb.clone(), pick(1))]
}

/// The job running `setup` under `variant`.
fn variant_job(setup: &Setup, variant: &Variant) -> Job {
    let mut config: GpuConfig = setup.config.clone();
    if let Some(coherence) = variant.coherence {
        config.coherence = coherence;
    }
    for (path, value) in &variant.settings {
        // A card's variants only (claim rows, whose settings core's tests check); a value the
        // machine refused would leave the field as it was, and the run says what it ran.
        let _ = config.set_field(path, value);
    }
    let mut job = setup.job_with(Policies { tb: variant.tb.clone(), warp: variant.warp.clone() }, config);
    for (name, value) in &variant.defines {
        job.defines.retain(|(n, _)| n != name);
        job.defines.push((name.clone(), value.clone()));
    }
    Job::Simulate(Box::new(job))
}

/// The set-up being edited, once the catalog has arrived. A reducer, so that several edits
/// dispatched in one event (a group reset) each apply to the latest set-up.
#[derive(Default, PartialEq)]
struct SetupSlot(Option<Rc<Setup>>);

/// A change to [`SetupSlot`].
enum SetupEdit {
    /// A whole new set-up (restored from the address, or a gallery card's).
    Replace(Box<Setup>),
    /// An edit of the current one.
    Edit(Rc<dyn Fn(&mut Setup)>),
}

impl Reducible for SetupSlot {
    type Action = SetupEdit;

    fn reduce(self: Rc<Self>, action: SetupEdit) -> Rc<Self> {
        match (action, &self.0) {
            (SetupEdit::Replace(setup), _) => Rc::new(SetupSlot(Some(Rc::new(*setup)))),
            (SetupEdit::Edit(edit), Some(current)) => {
                let mut next = (**current).clone();
                edit(&mut next);
                Rc::new(SetupSlot(Some(Rc::new(next))))
            }
            (SetupEdit::Edit(_), None) => self,
        }
    }
}

/// The whole page below the header.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState::with_workers(workers_wanted()));
    let setup_slot = use_reducer(SetupSlot::default);
    let setup = setup_slot.0.clone();
    let tab = use_state(|| Tab::Simulate);
    let variants = use_state(Vec::<Variant>::new);
    // The co-runs view's programs.
    let pair_programs = use_state(Vec::<String>::new);
    let link_notes = use_state(Vec::<String>::new);
    let refused_fields = use_state(crate::setup::RefusedFields::default);
    let share_open = use_state(|| false);
    let go_to = use_state(|| None::<GoTo>);
    let workers: Workers = use_mut_ref(Vec::new);
    let next_id = use_mut_ref(|| 1u32);
    let compile_timer = use_mut_ref(|| None::<Timeout>);
    let embed = use_memo((), |_| query_param("embed").is_some_and(|v| v == "1"));
    let debug = use_memo((), |_| query_param("debug").is_some_and(|v| v == "1"));
    // The compare rows' scheduler lists, copied once per catalog rather than on every render.
    let policy_lists = use_memo(state.catalog.clone().map(Same), |catalog| {
        catalog.as_ref().map(|c| {
            (Rc::new(c.0.tb_policies.clone()), Rc::new(c.0.warp_policies.clone()), Rc::new(c.0.memory_gates.clone()))
        })
    });
    let fresh_id = {
        let next_id = next_id.clone();
        move || {
            let mut next = next_id.borrow_mut();
            *next += 1;
            *next - 1
        }
    };

    // Keep one Web Worker per slot of the pool: spawn the ones it starts (more as jobs wait,
    // a fresh one where one crashed), drop (terminate) the ones it replaced or gave up. The
    // first slot's worker is asked for the menus.
    {
        let dispatcher = state.dispatcher();
        let workers = workers.clone();
        let diagnostics = *debug;
        let wanted: Vec<Option<u32>> =
            state.pool.workers().iter().map(|w| (w.status != WorkerStatus::Gone).then_some(w.generation)).collect();
        use_effect_with(wanted, move |wanted| {
            let mut workers = workers.borrow_mut();
            if workers.len() < wanted.len() {
                workers.resize_with(wanted.len(), || None);
            }
            for (slot, &want) in wanted.iter().enumerate() {
                if workers[slot].as_ref().map(|w| w.generation) == want {
                    continue;
                }
                workers[slot] = None;
                let Some(generation) = want else { continue };
                let on_reply = {
                    let dispatcher = dispatcher.clone();
                    Callback::from(move |reply: Reply| {
                        // A buffer asked for is saved as it arrives (a refusal goes on to the state).
                        if let Reply::Buffer { name, contents: Ok(text), .. } = &reply {
                            crate::download::download_text(text, "text/plain", &format!("{name}.txt"));
                            return;
                        }
                        dispatcher.dispatch(Action::Reply { generation, reply, at_ms: now_ms() })
                    })
                };
                let on_died = {
                    let dispatcher = dispatcher.clone();
                    Callback::from(move |message| dispatcher.dispatch(Action::WorkerDied { generation, message }))
                };
                match WorkerClient::spawn(on_reply, on_died, diagnostics) {
                    Ok(client) => {
                        if slot == 0 {
                            client.send(Request::Catalog);
                        }
                        let start_due = {
                            let dispatcher = dispatcher.clone();
                            Timeout::new(crate::state::WORKER_START_TIMEOUT_MS, move || {
                                dispatcher.dispatch(Action::WorkerStartDue { generation })
                            })
                        };
                        workers[slot] = Some(PoolWorker { generation, client, sent: None, _start_due: start_due });
                    }
                    Err(message) => dispatcher.dispatch(Action::WorkerUnavailable { generation, message }),
                }
            }
        });
    }

    // Once the menus are known: restore the set-up from the address, or start the default one.
    {
        let (setup_slot, link_notes, variants) = (setup_slot.clone(), link_notes.clone(), variants.clone());
        let refused_fields = refused_fields.clone();
        use_effect_with(state.catalog.clone(), move |catalog| {
            if let (Some(catalog), None) = (catalog, &setup_slot.0) {
                let restored = match share::decode(&link_query()) {
                    Ok(Some(shared)) => {
                        let (restored, notes, refused) = Setup::from_shared(catalog, &shared);
                        link_notes.set(notes);
                        refused_fields.set(refused);
                        restored
                    }
                    Ok(None) => Setup::initial(catalog),
                    Err(reason) => {
                        link_notes.set(vec![reason]);
                        Setup::initial(catalog)
                    }
                };
                variants.set(default_variants(&restored, catalog));
                setup_slot.dispatch(SetupEdit::Replace(Box::new(restored)));
            }
        });
    }

    // Keep the address in step with the set-up.
    {
        let catalog = state.catalog.clone();
        let embed = *embed;
        use_effect_with(setup.clone(), move |setup| {
            if let (Some(setup), Some(catalog)) = (setup, catalog) {
                replace_link(&share::encode(&setup.to_shared(&catalog, embed)));
            }
        });
    }

    // Compile as the person types (debounced) for the editor's markers.
    {
        let (workers, dispatcher, compile_timer) = (workers.clone(), state.dispatcher(), compile_timer.clone());
        let key = setup.as_ref().map(|s| (s.source.clone(), s.defines.clone(), s.config.clone()));
        // Compiles go to the first ready worker (a job may be running there: it answers
        // between two slices).
        let primary = state.pool.primary().map(|w| w.generation);
        let ready = primary.is_some();
        let embed = *embed;
        let fresh_id = fresh_id.clone();
        use_effect_with((key, ready), move |(key, ready)| {
            if let (Some((source, defines, config)), true, false) = (key.clone(), *ready, embed) {
                let timer = Timeout::new(COMPILE_DELAY_MS, move || {
                    let workers = workers.borrow();
                    if let Some(worker) = primary.and_then(|g| worker_of(&workers, g)) {
                        let id = fresh_id();
                        dispatcher.dispatch(Action::Compiling { id });
                        worker.send(Request::Compile { id, source, defines, config: Box::new(config) });
                    }
                });
                // Replacing the pending timer cancels it.
                *compile_timer.borrow_mut() = Some(timer);
            }
        });
    }

    // Send each worker the job the pool gave it.
    {
        let (workers, state) = (workers.clone(), state.clone());
        let assigned: Vec<Option<(u32, JobId)>> =
            state.pool.workers().iter().map(|w| w.job.as_ref().map(|j| (w.generation, j.id))).collect();
        use_effect_with(assigned, move |_| {
            let mut workers = workers.borrow_mut();
            for slot in state.pool.workers() {
                let Some(job) = &slot.job else { continue };
                let Some(worker) = workers.iter_mut().flatten().find(|w| w.generation == slot.generation) else {
                    continue;
                };
                if worker.sent != Some(job.id) {
                    worker.sent = Some(job.id);
                    // Sweep frames do not apply: a Simulate job streams snapshots at its own interval.
                    worker.client.send(Request::Run { id: job.id, job: job.job.clone(), frame_every: 0 });
                }
            }
        });
    }

    let cancel = {
        let (workers, dispatcher, state) = (workers.clone(), state.dispatcher(), state.clone());
        move |scope: Scope| {
            for (generation, id) in state.pool.running_matching(|t| scope.matches(t)) {
                if let Some(worker) = worker_of(&workers.borrow(), generation) {
                    worker.send(Request::Cancel { id });
                }
            }
            dispatcher.dispatch(Action::Cancel(scope));
        }
    };

    // The Simulate view's run offers its buffers' final contents, asked of the worker that ran it.
    let on_buffer = {
        let workers = workers.clone();
        Callback::from(move |(generation, id, buffer): (u32, JobId, u32)| {
            if let Some(worker) = worker_of(&workers.borrow(), generation) {
                worker.send(Request::Buffer { id, buffer });
            }
        })
    };

    let (Some(current_setup), Some(catalog)) = (setup.clone(), state.catalog.clone()) else {
        return html! {
            <main class="app">
                if let Some(notice) = &state.notice {
                    <p class="notice error" role="alert">{ notice.clone() }</p>
                }
                <p class="loading" id="engine-status">{ engine_status(&state) }</p>
            </main>
        };
    };

    let update_setup = {
        let setup_slot = setup_slot.clone();
        move |edit: Rc<dyn Fn(&mut Setup)>| setup_slot.dispatch(SetupEdit::Edit(edit))
    };
    let on_setup_change = {
        let (update, catalog) = (update_setup.clone(), catalog.clone());
        Callback::from(move |change: SetupChange| {
            let catalog = catalog.clone();
            update(Rc::new(move |s: &mut Setup| match &change {
                SetupChange::Workload(id) => {
                    s.load_workload(&catalog, id);
                }
                SetupChange::Size(size) => s.set_size(&catalog, *size),
                SetupChange::AddCoRunner(id) => {
                    s.add_co_runner(&catalog, id);
                }
                SetupChange::RemoveCoRunner(i) => {
                    if *i < s.co_runners.len() {
                        s.co_runners.remove(*i);
                    }
                }
                SetupChange::Machine(id) => {
                    s.load_machine(&catalog, id);
                }
                SetupChange::Tb(id) => s.policies.tb = id.clone(),
                SetupChange::Warp(id) => s.policies.warp = id.clone(),
                SetupChange::MaxCycles(n) => s.max_cycles = *n,
                SetupChange::HeatSm(sm) => s.heat_sm = *sm,
            }))
        })
    };
    let on_source = {
        let update = update_setup.clone();
        Callback::from(move |text: String| {
            update(Rc::new(move |s: &mut Setup| {
                if s.source != text {
                    s.source = text.clone();
                    s.edited = true;
                }
            }))
        })
    };
    let on_define = {
        let update = update_setup.clone();
        Callback::from(move |(name, value): (String, Option<String>)| {
            update(Rc::new(move |s: &mut Setup| {
                s.defines.retain(|(n, _)| *n != name);
                if let Some(value) = &value {
                    s.defines.push((name.clone(), value.clone()));
                }
            }))
        })
    };
    let on_hardware = {
        let update = update_setup.clone();
        Callback::from(move |(path, text): (&'static str, String)| {
            // The panel only sends text the field accepts; rules between fields are checked
            // below, on the whole machine, and marked at the field they name.
            update(Rc::new(move |s: &mut Setup| {
                let _ = s.config.set_field(path, &text);
            }))
        })
    };
    let on_run = {
        let (dispatcher, setup, fresh_id, cancel) =
            (state.dispatcher(), current_setup.clone(), fresh_id.clone(), cancel.clone());
        Callback::from(move |_: ()| {
            // A new run clears the last run's warp-limit sweep: stop the workers running it.
            cancel(Scope::Sweep);
            let job = QueuedJob { id: fresh_id(), target: Target::Main, job: Job::Simulate(Box::new(setup.job())) };
            dispatcher.dispatch(Action::Enqueue(vec![job]));
        })
    };
    // The finished run's warp-limit sweep: the job it ran, under each limit, on the pool.
    let on_sweep = {
        let (dispatcher, fresh_id, main) = (state.dispatcher(), fresh_id.clone(), state.main.clone());
        Callback::from(move |_: ()| {
            let Some(origin) = main.result().and_then(|r| r.job.clone()) else { return };
            let limits = swl_sweep::limits(origin.config.core.max_warps_per_sm);
            let serial = fresh_id();
            let jobs = swl_sweep::jobs(&origin, &limits)
                .into_iter()
                .enumerate()
                .map(|(point, job)| QueuedJob {
                    id: fresh_id(),
                    target: Target::Sweep { sweep: serial, point },
                    job: Job::Simulate(Box::new(job)),
                })
                .collect();
            dispatcher.dispatch(Action::StartSweep { serial, limits, jobs });
        })
    };
    let on_cancel_sweep = {
        let cancel = cancel.clone();
        Callback::from(move |_: ()| cancel(Scope::Sweep))
    };
    let on_cancel_main = {
        let cancel = cancel.clone();
        Callback::from(move |_: MouseEvent| cancel(Scope::Main))
    };

    let hw_error = current_setup.config.validate().err();
    let field_error: Option<ConfigError> = hw_error.clone().or_else(|| match &state.main {
        RunView::Failed { field: Some(field), message } => Some(ConfigError::new(field, message)),
        _ => None,
    });
    let compile_errors = state.compile.has_errors();
    let main_busy = state.main.busy();
    let can_run = !compile_errors && hw_error.is_none() && state.engine_ready();
    // While a run goes on, Run and Cancel take turns being inert (aria-disabled, clicks ignored)
    // rather than disabled: disabling the focused button would drop keyboard focus to the page.
    let run_click = if main_busy { Callback::noop() } else { on_run.reform(|_| ()) };
    let cancel_click = if main_busy { on_cancel_main } else { Callback::noop() };
    let inert = |yes: bool| yes.then_some("true");
    let preset = Rc::new(current_setup.preset(&catalog).cloned().unwrap_or_else(|| current_setup.config.clone()));
    let workload_name = current_setup
        .library_entry(&catalog)
        .map(|w| if current_setup.edited { format!("{} (edited)", w.id) } else { w.id.clone() })
        .unwrap_or_else(|| "your kernel".into());
    let machine_name = catalog
        .machines
        .iter()
        .find(|m| m.id == current_setup.machine)
        .map_or(current_setup.machine.clone(), |m| m.label.clone());
    // Links deflate the kernel text: build them only where they are shown, not on every keystroke.
    let link = |embed: bool| format!("{}#{}", page_base(), share::encode(&current_setup.to_shared(&catalog, embed)));
    let notices = html! {
        <>
            if let Some(notice) = &state.notice {
                <p class="notice error" role="alert">{ notice.clone() }</p>
            }
            if !link_notes.is_empty() {
                <div class="notice" role="status" id="link-notes">
                    { "Parts of this link could not be restored: " }
                    { link_notes.join("; ") }{ "." }
                </div>
            }
        </>
    };

    if *embed {
        // No page chrome in an iframe: the masthead belongs to the full app.
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            body.set_class_name("embedded");
        }
        return html! {
            <main class="app embed">
                { notices }
                <section class="card" aria-labelledby="embed-title">
                    <div class="embed-head">
                        <h2 id="embed-title">{ format!("{workload_name} on {machine_name}") }</h2>
                        <span class="summary">{ format!("{} · {}", describe(&current_setup.policies.tb, &catalog.tb_policies), describe(&current_setup.policies.warp, &catalog.warp_policies)) }</span>
                        <button id="run" type="button" class="primary" disabled={!can_run} aria-disabled={inert(main_busy)}
                            onclick={run_click}>{ "Run" }</button>
                        <button id="cancel" type="button" aria-disabled={inert(!main_busy)} onclick={cancel_click}>{ "Cancel" }</button>
                        <a class="open-full" href={link(false)} target="_blank" rel="noopener">{ "Open in warpscope ↗" }</a>
                    </div>
                    <details class="embed-source">
                        <summary>{ "Kernel file" }</summary>
                        <Editor source={AttrValue::from(current_setup.source.clone())} diagnostics={Vec::new()}
                            on_change={Callback::noop()} readonly=true id={Some(AttrValue::Static("source"))} />
                    </details>
                    <RunPanel view={state.main.clone()} sm_count={current_setup.config.core.sm_count} compact=true
                        idle_text={AttrValue::Static("Press Run to simulate; the run happens in your browser.")} />
                </section>
                <footer class="footer"><span id="engine-status">{ engine_status(&state) }</span></footer>
            </main>
        };
    }

    let tabs = [Tab::Simulate, Tab::Compare, Tab::Pairs, Tab::Gallery];
    let tab_bar = html! {
        <TabBar tabs={tabs.iter().map(|t| (t.id(), t.label())).collect::<Vec<_>>()}
            selected={tabs.iter().position(|&t| t == *tab).unwrap_or(0)} label="Views"
            on_select={{
                let (tab, dispatcher) = (tab.clone(), state.dispatcher());
                let (pair_programs, setup) = (pair_programs.clone(), current_setup.clone());
                Callback::from(move |i: usize| {
                    if tabs[i] == Tab::Pairs && pair_programs.is_empty() {
                        // The set-up's programs to start from: its file's and those beside it.
                        let first = setup.workload.iter().filter(|_| !setup.edited);
                        pair_programs.set(first.chain(&setup.co_runners).cloned().collect());
                    }
                    if matches!(tabs[i], Tab::Compare | Tab::Pairs | Tab::Gallery) {
                        // Their runs go to every worker: start them while the person reads.
                        dispatcher.dispatch(Action::StartWorkers);
                    }
                    tab.set(tabs[i]);
                })
            }} />
    };

    let setup_card = html! {
        <section class="card" aria-label="Set-up">
            <SetupBar catalog={catalog.clone()} setup={current_setup.clone()} on_change={on_setup_change.clone()} busy={state.setup_busy()}
                refused={(*refused_fields).clone()} />
        </section>
    };

    let body = match *tab {
        Tab::Simulate => {
            let summary = state.compile.summary.as_ref().map(|s| {
                let kernels: Vec<String> = s
                    .kernels
                    .iter()
                    .map(|k| {
                        let spilled =
                            if k.spill_bytes > 0 { format!(" + {} B spilled", k.spill_bytes) } else { String::new() };
                        format!("{} ({} regs{spilled}, {} B shared)", k.name, k.registers, k.shared_bytes)
                    })
                    .collect();
                format!(
                    "{} launch{} · {} · {} KiB of buffers",
                    s.launches,
                    if s.launches == 1 { "" } else { "es" },
                    kernels.join(", "),
                    s.buffer_bytes / 1024
                )
            });
            let share_toggle = {
                let share_open = share_open.clone();
                Callback::from(move |_: MouseEvent| share_open.set(!*share_open))
            };
            let on_launch_select = {
                let go_to = go_to.clone();
                Callback::from(move |(line, column): (u32, u32)| {
                    let serial = go_to.map_or(0, |g| g.serial.wrapping_add(1));
                    go_to.set(Some(GoTo { line, column, serial }));
                })
            };
            html! {
                <div id="view-simulate" role="tabpanel" aria-labelledby="tab-simulate">
                    { setup_card }
                    <div class="workbench">
                        <div class="column">
                            <section class="card" aria-labelledby="editor-title">
                                <h2 id="editor-title">{ "Kernel file" }</h2>
                                <Editor source={AttrValue::from(current_setup.source.clone())}
                                    diagnostics={(*state.compile.diagnostics).clone()} on_change={on_source}
                                    id={Some(AttrValue::Static("source"))} label={Some(AttrValue::Static("Kernel file"))}
                                    on_run={Some(on_run.clone())} go_to={*go_to} />
                                <p class="compile-status" id="compile-status" aria-live="polite">
                                    { if state.compile.pending { "Checking…".to_string() }
                                      else if compile_errors { "Fix the errors marked above to run.".to_string() }
                                      else { summary.unwrap_or_default() } }
                                </p>
                                <p class="note">{ "Language reference: " }<a href="language.html" target="_blank">{ "kernel language" }</a></p>
                            </section>
                            <section class="card" aria-labelledby="defines-title">
                                <h2 id="defines-title">{ "Parameters" }</h2>
                                <p class="lede">{ "The file's #define values — grid and block sizes, problem size, iterations. \
                                    A value typed here overrides the file's, like -D." }</p>
                                <DefinesPanel defines={state.compile.defines.clone()} overrides={current_setup.defines.clone()}
                                    on_change={on_define} disabled={state.setup_busy()} />
                            </section>
                            <section class="card" aria-labelledby="launches-title">
                                <h2 id="launches-title">{ "Launches" }</h2>
                                <p class="lede">{ "What the host block launches, in order, and how many blocks of each \
                                    shape one SM of this machine holds at once." }</p>
                                <LaunchesPanel summary={state.compile.last_good.clone()}
                                    stale={state.compile.summary.is_none()} on_select={on_launch_select} />
                            </section>
                            <section class="card" aria-labelledby="hardware-title">
                                <h2 id="hardware-title">{ "Hardware" }</h2>
                                <p class="lede">{ format!("Starting from the {machine_name} preset; changed values are marked.") }</p>
                                <HardwarePanel config={Rc::new(current_setup.config.clone())} preset={preset.clone()}
                                    error={field_error.clone()} on_change={on_hardware} disabled={state.setup_busy()} />
                            </section>
                        </div>
                        <div class="column">
                            // The page's skip link lands here (tabindex -1: focusable by the link only).
                            <section class="card" id="run-panel" tabindex="-1" aria-labelledby="run-title">
                                <div class="run-head">
                                    <h2 id="run-title">{ "Run" }</h2>
                                    <div class="actions">
                                        <button id="run" type="button" class="primary" disabled={!can_run} aria-disabled={inert(main_busy)}
                                            onclick={run_click}
                                            title={if compile_errors { "the kernel file has errors" } else { "simulate this set-up" }}>
                                            { "Run" }
                                        </button>
                                        <button id="cancel" type="button" aria-disabled={inert(!main_busy)} onclick={cancel_click}>{ "Cancel" }</button>
                                        <button id="share" type="button" aria-expanded={(*share_open).to_string()} onclick={share_toggle}>{ "Share" }</button>
                                    </div>
                                </div>
                                if *share_open {
                                    <ShareBox url={link(false)} embed_url={link(true)} />
                                }
                                <RunPanel view={state.main.clone()} sm_count={current_setup.config.core.sm_count}
                                    on_buffer={Some(on_buffer.clone())}
                                    sweep={state.sweep.clone()} sweeper={Some(Sweeper {
                                        warp_policies: (*policy_lists).as_ref().map(|l| l.1.clone()).unwrap_or_default(),
                                        workers: state.pool.size(),
                                        on_start: on_sweep.clone(),
                                        on_cancel: on_cancel_sweep.clone(),
                                    })} />
                            </section>
                        </div>
                    </div>
                </div>
            }
        }
        Tab::Compare => {
            let on_change = {
                let variants = variants.clone();
                let dispatcher = state.dispatcher();
                Callback::from(move |(index, change): (usize, Option<Variant>)| {
                    let mut next = (*variants).clone();
                    match change {
                        Some(v) if index < next.len() => next[index] = v,
                        None if index < next.len() => {
                            next.remove(index);
                        }
                        _ => {}
                    }
                    dispatcher.dispatch(Action::ResizeCompare(0));
                    variants.set(next);
                })
            };
            let on_add = {
                let (variants, setup) = (variants.clone(), current_setup.clone());
                Callback::from(move |_| {
                    let mut next = (*variants).clone();
                    if next.len() < MAX_VARIANTS {
                        next.push(Variant::policies(setup.policies.tb.clone(), setup.policies.warp.clone()));
                        variants.set(next);
                    }
                })
            };
            let on_run_all = {
                let (variants, setup, dispatcher, fresh_id) =
                    (variants.clone(), current_setup.clone(), state.dispatcher(), fresh_id.clone());
                Callback::from(move |_| {
                    dispatcher.dispatch(Action::ResizeCompare(variants.len()));
                    let jobs = variants
                        .iter()
                        .enumerate()
                        .map(|(i, v)| QueuedJob {
                            id: fresh_id(),
                            target: Target::Compare(i),
                            job: variant_job(&setup, v),
                        })
                        .collect();
                    dispatcher.dispatch(Action::Enqueue(jobs));
                })
            };
            let on_cancel = {
                let cancel = cancel.clone();
                Callback::from(move |_| cancel(Scope::Compare))
            };
            html! {
                <div id="view-compare" role="tabpanel" aria-labelledby="tab-compare">
                    { setup_card }
                    <section class="card" aria-labelledby="compare-title">
                        <h2 id="compare-title">{ "Compare policies" }</h2>
                        <CompareView variants={(*variants).clone()} runs={state.compare.clone()}
                            tb_policies={(*policy_lists).as_ref().map(|l| l.0.clone()).unwrap_or_default()}
                            warp_policies={(*policy_lists).as_ref().map(|l| l.1.clone()).unwrap_or_default()}
                            memory_gates={(*policy_lists).as_ref().map(|l| l.2.clone()).unwrap_or_default()}
                            subject={AttrValue::from(format!("{workload_name} on {machine_name}"))}
                            {on_change} {on_add} on_run={on_run_all} {on_cancel}
                            busy={state.compare.iter().any(|r| r.busy())} />
                    </section>
                </div>
            }
        }
        Tab::Pairs => {
            let on_run_pairs = {
                let (dispatcher, fresh_id, setup, programs) =
                    (state.dispatcher(), fresh_id.clone(), current_setup.clone(), pair_programs.clone());
                Callback::from(move |window: u32| {
                    let spec = MatrixSpec {
                        programs: (*programs).clone(),
                        scheme: setup.policies.clone(),
                        config: setup.config.clone(),
                        window,
                    };
                    if spec.problem().is_some() {
                        return;
                    }
                    let matrix = fresh_id();
                    let jobs = spec
                        .jobs()
                        .into_iter()
                        .enumerate()
                        .map(|(run, job)| QueuedJob {
                            id: fresh_id(),
                            target: Target::Pair { matrix, run },
                            job: Job::Simulate(Box::new(job)),
                        })
                        .collect();
                    dispatcher.dispatch(Action::StartPairs { matrix: Box::new(PairMatrix::new(matrix, spec)), jobs });
                })
            };
            let on_cancel_pairs = {
                let cancel = cancel.clone();
                Callback::from(move |_: ()| cancel(Scope::Pairs))
            };
            let on_programs = {
                let programs = pair_programs.clone();
                Callback::from(move |list: Vec<String>| programs.set(list))
            };
            let scheme = format!(
                "{} · {}",
                describe(&current_setup.policies.tb, &catalog.tb_policies),
                describe(&current_setup.policies.warp, &catalog.warp_policies)
            );
            let default_window = match current_setup.config.window.cycles {
                0 => pair_matrix::DEFAULT_WINDOW,
                w => w,
            };
            html! {
                <div id="view-pairs" role="tabpanel" aria-labelledby="tab-pairs">
                    { setup_card }
                    <section class="card" aria-labelledby="pairs-title">
                        <h2 id="pairs-title">{ "Programs side by side, pair by pair" }</h2>
                        <PairView catalog={catalog.clone()} programs={(*pair_programs).clone()} {on_programs}
                            scheme={scheme} machine={AttrValue::from(machine_words(&current_setup, &catalog, &machine_name))}
                            default_window={default_window} matrix={state.pairs.clone()} workers={state.pool.size()}
                            on_run={on_run_pairs} on_cancel={on_cancel_pairs}
                            blocked={hw_error.as_ref().map(|e| AttrValue::from(format!("the machine is invalid: {}", e.reason)))} />
                    </section>
                </div>
            }
        }
        Tab::Gallery => {
            let on_run_card = {
                let (dispatcher, fresh_id) = (state.dispatcher(), fresh_id.clone());
                Callback::from(move |index: usize| {
                    let Some(card) = gallery::cards().get(index) else { return };
                    let mut jobs = Vec::with_capacity(card.runs.len());
                    for (run, spec) in card.runs.iter().enumerate() {
                        match gallery::job(spec) {
                            Ok(job) => jobs.push(QueuedJob {
                                id: fresh_id(),
                                target: Target::Card { card: index, run },
                                job: Job::Simulate(Box::new(job)),
                            }),
                            // Core's tests check every row's machine; say so loudly if one slips.
                            Err(e) => web_sys::console::error_1(
                                &format!("warpscope: {} has an invalid machine: {e}", card.claim.id).into(),
                            ),
                        }
                    }
                    dispatcher.dispatch(Action::Enqueue(jobs));
                })
            };
            let on_cancel_card = {
                let cancel = cancel.clone();
                Callback::from(move |index: usize| cancel(Scope::Card(index)))
            };
            let on_open = {
                let (setup_slot, current, variants, tab, catalog, dispatcher) = (
                    setup_slot.clone(),
                    current_setup.clone(),
                    variants.clone(),
                    tab.clone(),
                    catalog.clone(),
                    state.dispatcher(),
                );
                Callback::from(move |(index, workload): (usize, usize)| {
                    let Some(card) = gallery::cards().get(index) else { return };
                    let Some(spec) = card.runs.get(plan::index(card.claim, workload, 0)) else { return };
                    setup_slot.dispatch(SetupEdit::Replace(Box::new(card_setup(&current, &catalog, card, spec))));
                    variants.set(card.claim.variants.iter().map(Variant::from_claim).collect());
                    dispatcher.dispatch(Action::ResizeCompare(0));
                    tab.set(Tab::Compare);
                })
            };
            html! {
                <div id="view-gallery" role="tabpanel" aria-labelledby="tab-gallery">
                    <GalleryView runs={state.gallery.clone()} on_run={on_run_card} on_cancel={on_cancel_card}
                        {on_open} workers={state.pool.size()} />
                </div>
            }
        }
    };

    let on_crash = {
        let (workers, primary) = (workers.clone(), state.pool.primary().map(|w| w.generation));
        Callback::from(move |_: MouseEvent| {
            let workers = workers.borrow();
            if let Some(worker) = primary.and_then(|g| worker_of(&workers, g)) {
                worker.send(Request::Crash);
            }
        })
    };
    html! {
        <main class="app">
            { notices }
            { tab_bar }
            { body }
            <footer class="footer">
                <span id="engine-status">{ engine_status(&state) }</span>
                if *debug {
                    <span class="diagnostics">
                        <button id="crash-worker" type="button" class="link" onclick={on_crash}>{ "Crash the worker" }</button>
                        <button id="crash-page" type="button" class="link"
                            onclick={|_| panic!("the page was asked to crash (diagnostic)")}>{ "Crash the page" }</button>
                    </span>
                }
            </footer>
        </main>
    }
}

/// The set-up of a gallery card's run `spec` for the compare view: its workload, size,
/// machine and the claim's settings, the rest as it was (each variant brings its own
/// settings and policies).
fn card_setup(base: &Setup, catalog: &Catalog, card: &gallery::Card, spec: &plan::RunSpec) -> Setup {
    let mut s = base.clone();
    // Programs side by side: the first is the file, the others run beside it.
    let mut programs = spec.workload.split('+');
    s.load_workload(catalog, programs.next().unwrap_or_default());
    s.set_size(catalog, spec.size);
    s.co_runners.clear();
    for id in programs {
        s.add_co_runner(catalog, id);
    }
    s.load_machine(catalog, spec.machine);
    for (path, value) in card.claim.settings {
        let _ = s.config.set_field(path, value);
    }
    s
}

/// The machine as the co-runs view names it: the preset, and its SM count where the person
/// changed it (a preset's name may give its own).
fn machine_words(setup: &Setup, catalog: &Catalog, name: &str) -> String {
    let sms = setup.config.core.sm_count;
    match setup.preset(catalog) {
        Some(preset) if preset.core.sm_count != sms => {
            format!("the {name} preset with {sms} SMs instead of {}", preset.core.sm_count)
        }
        _ => format!("the {name} preset"),
    }
}

fn engine_status(state: &AppState) -> String {
    match state.pool.size() {
        _ if state.pool.workers().iter().all(|w| w.status == WorkerStatus::Gone) => {
            "Engine: unavailable (its worker did not start)".into()
        }
        _ if !state.engine_ready() => "Engine: starting…".into(),
        1 => "Engine: ready".into(),
        n => format!("Engine: ready · up to {n} workers"),
    }
}

#[derive(Properties, PartialEq)]
struct ShareBoxProps {
    url: String,
    embed_url: String,
}

/// The share link and the embed snippet, each with a Copy button.
#[function_component(ShareBox)]
fn share_box(props: &ShareBoxProps) -> Html {
    let snippet = format!(
        "<iframe src=\"{}\" width=\"100%\" height=\"720\" style=\"border:0\" title=\"warpscope simulation\" loading=\"lazy\"></iframe>",
        props.embed_url
    );
    let copy = |text: String| Callback::from(move |_: MouseEvent| copy_to_clipboard(&text));
    html! {
        <div class="share-box" id="share-box">
            <label for="share-url">{ "Link to this set-up" }</label>
            <div class="copy-row">
                <input id="share-url" type="text" readonly=true value={props.url.clone()} onfocus={select_all()} />
                <button type="button" onclick={copy(props.url.clone())} aria-label="Copy the link">{ "Copy" }</button>
            </div>
            <label for="embed-snippet">{ "Embed in a page (read-only run-and-watch view)" }</label>
            <div class="copy-row">
                <textarea id="embed-snippet" readonly=true rows="3" value={snippet.clone()} onfocus={select_all()} />
                <button type="button" onclick={copy(snippet)} aria-label="Copy the embed snippet">{ "Copy" }</button>
            </div>
        </div>
    }
}

fn select_all() -> Callback<FocusEvent> {
    Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            input.select();
        } else if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            area.select();
        }
    })
}
