// Browser benchmark: runs the engine's standard workloads in the app's Web Worker (release
// build in dist/, headless Chromium) and prints the same figures as `warpscope bench`.
// Usage: make build && node tests/e2e/bench.mjs
import { launchBrowser, openPage, runBenchInWorker, serveDist } from './harness.mjs';

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(browser, server.url);
  console.log('workload                       cycles   warp instr   wall s  M instr/s    M cyc/s');
  for (const workload of ['streaming', 'thrashing', 'compute', 'divergent']) {
    let best;
    for (let i = 0; i < 3; i++) {
      const run = await runBenchInWorker(page, workload, false);
      if (!best || run.elapsed_ms < best.elapsed_ms) best = run;
    }
    const s = best.elapsed_ms / 1000;
    const { cycles, warp_instructions: instr } = best.report;
    console.log(`${workload.padEnd(24)} ${String(cycles).padStart(12)} ${String(instr).padStart(12)} `
      + `${s.toFixed(3).padStart(8)} ${(instr / s / 1e6).toFixed(2).padStart(10)} ${(cycles / s / 1e6).toFixed(2).padStart(10)}`);
  }
} finally {
  await browser.close();
  server.stop();
}
