//! The Web Worker's event loop.
//!
//! A job runs in slices of about [`SLICE_MS`] of wall time. After each slice the worker posts
//! any completed `Frame`s, and the `Snapshots` taken since the last batch with `Progress` if
//! [`PROGRESS_MS`] have passed since the last (and always before the job's last reply), so
//! that the page handles and draws a few batches a second, not one per snapshot. Then it
//! yields a full macrotask before the next slice, so that a `Cancel` posted by the page is
//! delivered in between;
//! `Catalog` and `Compile` requests are answered there too. The yield goes through a
//! `MessageChannel` rather than `setTimeout(0)`: browsers clamp nested zero-delay timers to
//! 4 ms, which would idle the worker for a quarter of the time.
//!
//! Until its first job arrives, a new worker runs the warm-up ([`crate::warm_up`]) in the same
//! kind of slices; the job's `Run` drops it before setting the job up.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

use crate::catalog::catalog;
use crate::compile::compile_reply;
use crate::protocol::{Failure, JobId, Reply, Request, PROTOCOL_VERSION};
use crate::runner::{buffer_reply, Advance, JobRunner, SIMULATION_QUANTUM};
use crate::warm_up::WarmUp;
use warpscope_core::Simulation;

/// Wall time one slice of work may take before the worker yields.
pub const SLICE_MS: f64 = 12.0;

/// Least wall time between two `Progress` replies of a job, each with the snapshots taken
/// since the last. Each is a task on the page's main thread that draws the running view again
/// (a few milliseconds); with several workers reporting after every slice, that thread would
/// keep busy a good part of a core the workers need, for a progress bar that moves too little
/// to see. The page shows progress at most this often too (`PROGRESS_EVERY_MS`).
pub const PROGRESS_MS: f64 = 100.0;

/// The job now running: its id and its cancel flag.
struct Current {
    id: JobId,
    cancel: Rc<Cell<bool>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
    /// The last engine run that finished, for `Buffer` requests; dropped when the next job
    /// starts, so the worker holds at most one run's memory besides the running one's.
    static FINISHED: RefCell<Option<(JobId, Box<Simulation>)>> = const { RefCell::new(None) };
    /// The warm-up while it runs ([`crate::warm_up`]); a job's arrival drops it.
    static WARMING: RefCell<Option<WarmUp>> = const { RefCell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Whether the page started this worker for diagnostics (`worker_loader.js?diagnostics=1`, from
/// a page opened with `?debug=1`): only then does it honour the `Crash` request.
fn started_for_diagnostics() -> bool {
    scope().location().search().split(['?', '&']).any(|p| p == "diagnostics=1")
}

/// Encodes a reply as a plain JS object; `None` becomes `null`, as in the CLI's JSON.
fn encode(reply: &Reply) -> Result<JsValue, serde_wasm_bindgen::Error> {
    reply.serialize(&serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true))
}

/// Posts `reply` to the page.
fn post(reply: &Reply) {
    let value = encode(reply).unwrap_or_else(|err| {
        // Only a number beyond 2^53 can fail here; say so rather than go quiet.
        let fallback = Reply::Failed {
            id: None,
            error: Failure::BadRequest { message: format!("a reply could not be encoded: {err}") },
        };
        encode(&fallback).unwrap_or(JsValue::NULL)
    });
    // Posting to our own page cannot fail for plain objects.
    let _ = scope().post_message(&value);
}

/// Installs the panic hook and the message handler, then tells the page it is ready.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let id = CURRENT.with(|c| c.borrow().as_ref().map(|c| c.id));
        post(&Reply::Failed { id, error: Failure::Crashed { message: info.to_string() } });
    }));
    let on_message =
        Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
            match serde_wasm_bindgen::from_value::<Request>(event.data()) {
                Ok(request) => handle(request),
                Err(err) => post(&Reply::Failed {
                    id: None,
                    error: Failure::BadRequest { message: format!("the worker could not read a request: {err}") },
                }),
            }
        });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    post(&Reply::Ready { protocol: PROTOCOL_VERSION });
    WARMING.with(|w| *w.borrow_mut() = Some(WarmUp::new()));
    wasm_bindgen_futures::spawn_local(warm_up());
}

/// Runs the warm-up in slices, yielding between them, until it is done or a job has dropped it.
async fn warm_up() {
    loop {
        let slice_start = js_sys::Date::now();
        let more = WARMING.with(|w| {
            let mut w = w.borrow_mut();
            let Some(warm) = w.as_mut() else { return false };
            // Encoded as a Run's replies are, and dropped.
            while warm.step(SIMULATION_QUANTUM, &mut |reply| drop(encode(&reply))) {
                if js_sys::Date::now() - slice_start >= SLICE_MS {
                    return true;
                }
            }
            *w = None;
            false
        });
        if !more {
            break;
        }
        yield_to_event_loop().await;
    }
}

fn handle(request: Request) {
    match request {
        Request::Run { id, job, frame_every } => {
            WARMING.with(|w| w.borrow_mut().take());
            FINISHED.with(|f| f.borrow_mut().take());
            let runner = match JobRunner::new(id, job, frame_every) {
                Ok(runner) => runner,
                Err(error) => return post(&Reply::Failed { id: Some(id), error }),
            };
            // Timed from here: compiling the file and filling device memory are not simulation
            // (and the native benchmark times `Simulation::run` alone).
            let started = js_sys::Date::now();
            let cancel = Rc::new(Cell::new(false));
            let previous = CURRENT.with(|c| c.replace(Some(Current { id, cancel: cancel.clone() })));
            if let Some(previous) = previous {
                previous.cancel.set(true);
            }
            wasm_bindgen_futures::spawn_local(drive(runner, cancel, started));
        }
        Request::Cancel { id } => CURRENT.with(|c| {
            if let Some(current) = c.borrow().as_ref().filter(|c| c.id == id) {
                current.cancel.set(true);
            }
        }),
        // Answered at once: a request is handled between two slices of a running job.
        Request::Catalog => post(&Reply::Catalog { catalog: Box::new(catalog()) }),
        Request::Compile { id, source, defines, config } => post(&compile_reply(id, &source, &defines, &config)),
        Request::Buffer { id: job, buffer } => FINISHED.with(|f| {
            let kept = f.borrow();
            post(&buffer_reply(job, buffer, kept.as_ref().map(|(id, sim)| (*id, &**sim))));
        }),
        Request::Memory => {
            let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
            let bytes = memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64;
            post(&Reply::Memory { bytes });
        }
        Request::Crash if started_for_diagnostics() => {
            panic!("the page asked the worker to crash (diagnostic request)")
        }
        Request::Crash => web_sys::console::warn_1(
            &"warpscope: a Crash request was ignored: only a worker started for diagnostics honours it".into(),
        ),
    }
}

/// Runs `runner` to completion or cancellation, slice by slice.
async fn drive(mut runner: JobRunner, cancel: Rc<Cell<bool>>, started: f64) {
    let quantum = runner.quantum();
    let mut reported = f64::NEG_INFINITY;
    loop {
        let slice_start = js_sys::Date::now();
        let state = loop {
            match runner.advance(quantum, &mut |frame| post(&frame)) {
                Advance::Running if js_sys::Date::now() - slice_start < SLICE_MS => continue,
                state => break state,
            }
        };
        let now = js_sys::Date::now();
        if state != Advance::Running || now - reported >= PROGRESS_MS {
            post_snapshots(&mut runner);
            post(&runner.progress());
            reported = now;
        }
        match state {
            Advance::Finished => {
                post(&runner.done(js_sys::Date::now() - started));
                let id = runner.id();
                if let Some(sim) = runner.into_simulation() {
                    FINISHED.with(|f| *f.borrow_mut() = Some((id, sim)));
                }
                return clear_current(id);
            }
            Advance::Stopped(error) => {
                post(&Reply::Failed { id: Some(runner.id()), error });
                break;
            }
            Advance::Running => {}
        }
        yield_to_event_loop().await;
        if cancel.get() {
            post_snapshots(&mut runner);
            post(&runner.cancelled());
            break;
        }
    }
    clear_current(runner.id());
}

/// Posts the snapshots `runner` has taken since the last batch, if any.
fn post_snapshots(runner: &mut JobRunner) {
    if let Some(snapshots) = runner.take_snapshots() {
        post(&snapshots);
    }
}

/// Forgets job `id` as the one running, unless another has replaced it.
fn clear_current(id: JobId) {
    CURRENT.with(|c| {
        let mut current = c.borrow_mut();
        if current.as_ref().is_some_and(|c| c.id == id) {
            *current = None;
        }
    });
}

/// Resolves after one macrotask, letting queued messages (such as `Cancel`) in first.
async fn yield_to_event_loop() {
    let Ok(channel) = MessageChannel::new() else { return };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        channel.port2().set_onmessage(Some(&resolve));
        let _ = channel.port1().post_message(&JsValue::NULL);
    });
    let _ = JsFuture::from(promise).await;
}
