//! Entry point of the worker module: `worker_loader.js` initialises the wasm module, which runs
//! this `main` and installs the message handler.

fn main() {
    warpscope_wasm::worker::start();
}
