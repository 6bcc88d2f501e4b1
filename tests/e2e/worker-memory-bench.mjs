// The worker's memory against the native engine's: a library workload at a large size run to
// the end in a fresh Web Worker of the served app (release dist/, headless Chromium; the job
// the page would send: its snapshots, the report it shows), then the size of the worker's
// WebAssembly memory (`Request::Memory`: it never shrinks, so this is the run's peak), against
// the peak resident memory of the release CLI's whole `warpscope run` of the same run. The
// issue's target is a ratio of at most 1.5.
// Usage: make build && cargo build --release -p warpscope-cli && node tests/e2e/worker-memory-bench.mjs
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { launchBrowser, openPage, root, serveDist } from './harness.mjs';

const cli = process.env.WARPSCOPE_RELEASE_CLI ?? join(root, 'target', 'release', 'warpscope');
const machine = 'fermi-gtx480';
const runs = [['gesummv', 4096], ['memcached', 131072]];

/** Peak resident memory (bytes) and cycles of the CLI's run, measured by Python's rusage. */
function native(workload, size) {
  const measure = 'import json, resource, subprocess, sys\n'
    + 'out = subprocess.run(sys.argv[1:], capture_output=True, check=True, text=True).stdout\n'
    + 'print(json.dumps({"kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "cycles": json.loads(out)["cycles"]}))';
  const result = JSON.parse(execFileSync('python3', ['-c', measure, cli, 'run', '--workload', workload,
    '--gpu', machine, '-D', `N=${size}`, '--json'], { encoding: 'utf8' }));
  return { bytes: result.kib * 1024, cycles: result.cycles };
}

/** The worker's memory after running `workload` at `size`, and the run's cycles. */
function inWorker(page, workload, size, machineId) {
  return page.evaluate(({ workload, size, machineId }) => new Promise((resolve, reject) => {
    const worker = new Worker('./worker_loader.js', { type: 'module' });
    let cycles;
    const done = (f) => (v) => { worker.terminate(); f(v); };
    worker.onerror = (e) => done(reject)(new Error(`worker error: ${e.message}`));
    worker.onmessage = ({ data }) => {
      if (data.type === 'Ready') worker.postMessage({ type: 'Catalog' });
      else if (data.type === 'Catalog') {
        const entry = data.catalog.workloads.find((w) => w.id === workload);
        const { config } = data.catalog.machines.find((m) => m.id === machineId);
        const job = {
          kind: 'Simulate', source: entry.source, defines: [[entry.size_define, String(size)]], config,
          policies: { tb: 'rr', warp: 'gto' }, max_cycles: 100000000, snapshot_every: 50, heat_sm: 0,
        };
        worker.postMessage({ type: 'Run', id: 1, job, frame_every: 0 });
      } else if (data.type === 'Done') {
        cycles = JSON.parse(data.report).cycles;
        worker.postMessage({ type: 'Memory' });
      } else if (data.type === 'Memory') done(resolve)({ bytes: data.bytes, cycles });
      else if (data.type === 'Failed') done(reject)(new Error(`worker failed: ${JSON.stringify(data.error)}`));
    };
  }), { workload, size, machineId });
}

const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);
const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(browser, server.url);
  console.log('workload         size   native MiB   worker MiB   worker / native');
  for (const [workload, size] of runs) {
    const expected = native(workload, size);
    const worker = await inWorker(page, workload, size, machine);
    if (worker.cycles !== expected.cycles) {
      throw new Error(`${workload}: the worker ran ${worker.cycles} cycles, natively ${expected.cycles}`);
    }
    console.log(`${workload.padEnd(12)} ${String(size).padStart(8)} ${mib(expected.bytes).padStart(12)} `
      + `${mib(worker.bytes).padStart(12)} ${(worker.bytes / expected.bytes).toFixed(2).padStart(16)}×`);
  }
} finally {
  await browser.close();
  server.stop();
}
