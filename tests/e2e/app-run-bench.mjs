// What pressing Run costs in the app against the same run natively: the time from the click to
// the run's statistics on the page (compiling, the worker's run with its snapshots and
// progress, drawing), and the release CLI's `warpscope run` of the same library workload on the
// same machine (a whole process: compiling, running, printing). The target is a ratio
// of at most 1.3. Usage: make build && cargo build --release -p warpscope-cli &&
// node tests/e2e/app-run-bench.mjs
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { choose, launchBrowser, openPage, root, serveDist, shownInteger, waitForApp } from './harness.mjs';

const cli = process.env.WARPSCOPE_RELEASE_CLI ?? join(root, 'target', 'release', 'warpscope');
const machine = 'fermi-gtx480';

/** The best of three native wall times of `warpscope run --workload ID`, and its cycles. */
function native(workload) {
  let best = Infinity;
  let cycles;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const out = execFileSync(cli, ['run', '--workload', workload, '--gpu', machine, '--json'], { encoding: 'utf8' });
    best = Math.min(best, performance.now() - start);
    cycles = JSON.parse(out).cycles;
  }
  return { ms: best, cycles };
}

const server = await serveDist();
const browser = await launchBrowser();
try {
  console.log('workload          cycles   native s   app s   app / native');
  for (const workload of ['hotspot', 'vecadd', 'gesummv']) {
    const expected = native(workload);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const page = await openPage(browser, server.url);
      await waitForApp(page);
      await choose(page, 'machine', machine);
      await choose(page, 'workload', workload);
      await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 20000 });
      const start = performance.now();
      await page.click('#run');
      await page.locator('#stat-cycles').waitFor({ timeout: 120000 });
      best = Math.min(best, performance.now() - start);
      const cycles = await shownInteger(page, 'stat-cycles');
      if (cycles !== expected.cycles) throw new Error(`${workload}: the page shows ${cycles} cycles, natively ${expected.cycles}`);
      await page.close();
    }
    console.log(`${workload.padEnd(14)} ${String(expected.cycles).padStart(9)} ${(expected.ms / 1000).toFixed(3).padStart(10)} `
      + `${(best / 1000).toFixed(3).padStart(7)} ${(best / expected.ms).toFixed(2).padStart(13)}×`);
  }
} finally {
  await browser.close();
  server.stop();
}
