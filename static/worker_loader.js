// The engine's Web Worker (a module worker). Loading the wasm module runs the worker binary's
// main(), which installs the message handler and posts `Ready`.
import init from './worker.js';

await init();
