//! The page's handle on the engine's Web Worker.
//!
//! Requests are queued until the worker says `Ready`. Replies and script errors are passed to
//! callbacks; dropping the client terminates the worker, which is also the hard way to stop a
//! job that does not yield.

use std::cell::RefCell;
use std::rc::Rc;

use warpscope_wasm::protocol::{Reply, Request};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

/// Script that loads the worker's wasm module, relative to the page so that `dist/` works
/// from any sub-path.
const WORKER_SCRIPT: &str = "./worker_loader.js";
/// The same for a page in diagnostic mode (`?debug=1`): only such a worker honours the
/// diagnostic `Crash` request.
const DIAGNOSTIC_WORKER_SCRIPT: &str = "./worker_loader.js?diagnostics=1";

/// Requests waiting for the worker to become ready, or `None` once it is.
type Pending = Rc<RefCell<Option<Vec<Request>>>>;

/// A running worker.
pub struct WorkerClient {
    worker: Worker,
    pending: Pending,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl WorkerClient {
    /// Starts a worker. `on_reply` gets every reply; `on_died` gets the message of a script
    /// error that killed the worker. With `diagnostics` it honours the `Crash` request.
    pub fn spawn(on_reply: Callback<Reply>, on_died: Callback<String>, diagnostics: bool) -> Result<Self, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let script = if diagnostics { DIAGNOSTIC_WORKER_SCRIPT } else { WORKER_SCRIPT };
        let worker = Worker::new_with_options(script, &options)
            .map_err(|err| format!("the browser refused to start the simulation worker: {err:?}"))?;
        let pending: Pending = Rc::new(RefCell::new(Some(Vec::new())));

        let on_message = {
            let (worker, pending) = (worker.clone(), pending.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let reply = match serde_wasm_bindgen::from_value::<Reply>(event.data()) {
                    Ok(reply) => reply,
                    Err(err) => {
                        web_sys::console::error_1(&format!("warpscope: unreadable worker reply: {err}").into());
                        return;
                    }
                };
                if matches!(reply, Reply::Ready { .. }) {
                    for request in pending.borrow_mut().take().unwrap_or_default() {
                        post(&worker, &request);
                    }
                }
                on_reply.emit(reply);
            })
        };
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            // The worker reports its own panics as `Failed`; this catches what it could not.
            event.prevent_default();
            on_died.emit(event.message());
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(WorkerClient { worker, pending, _on_message: on_message, _on_error: on_error })
    }

    /// Sends `request` now, or once the worker is ready.
    pub fn send(&self, request: Request) {
        match self.pending.borrow_mut().as_mut() {
            Some(queue) => queue.push(request),
            None => post(&self.worker, &request),
        }
    }
}

impl Drop for WorkerClient {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

fn post(worker: &Worker, request: &Request) {
    match serde_wasm_bindgen::to_value(request) {
        Ok(value) => {
            if let Err(err) = worker.post_message(&value) {
                web_sys::console::error_1(&format!("warpscope: could not post to the worker: {err:?}").into());
            }
        }
        Err(err) => web_sys::console::error_1(&format!("warpscope: could not encode a request: {err}").into()),
    }
}
