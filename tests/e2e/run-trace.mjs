// Where the time of one press of Run goes: a Chromium trace of the press, its tasks listed by
// thread (the page's main thread and the engine's worker) with their start after the click and
// their length, and three marks: `shown` (the run's statistics are in the page, where
// `app-run-bench.mjs` stops its clock), `painted` (the frame that shows them has been drawn).
// Usage: make build && node tests/e2e/run-trace.mjs [WORKLOAD] [--presses N] [--wait MS]
//   [--min MS]: the press traced is the last of N in one page (default 3: a warm page; 1 for a
//   first press), after waiting MS (default 1500) so that background compiles settle; tasks
//   shorter than --min (default 1) are left out.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choose, launchBrowser, openPage, serveDist, waitForApp } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const presses = option('--presses', 3);
const wait = option('--wait', 1500);
const shortest = option('--min', 1);
const workload = args[0] ?? 'hotspot';

/** Presses Run and resolves once the statistics are shown and painted; marks both. */
async function press(page) {
  await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 20000 });
  return page.evaluate(async () => {
    const previous = document.querySelector('#stat-cycles');
    performance.mark('click');
    document.querySelector('#run').click();
    await new Promise((resolve) => {
      let cleared = !previous;
      new MutationObserver((_, observer) => {
        const shown = document.querySelector('#stat-cycles');
        cleared ||= !shown;
        if (!shown || !cleared) return;
        observer.disconnect();
        performance.mark('shown');
        // The frame's callbacks run before it is drawn; a message posted from one is handled after.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => { performance.mark('painted'); resolve(); };
          channel.port2.postMessage(0);
        });
      }).observe(document.body, { childList: true, subtree: true });
    });
    const at = (name) => performance.getEntriesByName(name).at(-1).startTime;
    return { shown: at('shown') - at('click'), painted: at('painted') - at('click') };
  });
}

const server = await serveDist();
const browser = await launchBrowser();
const path = join(mkdtempSync(join(tmpdir(), 'warpscope-trace-')), 'trace.json');
try {
  const page = await openPage(browser, server.url);
  await waitForApp(page);
  await choose(page, 'machine', 'fermi-gtx480');
  await choose(page, 'workload', workload);
  for (let i = 1; i < presses; i++) await press(page);
  await page.waitForTimeout(wait);
  await browser.startTracing(page, { path, categories: ['devtools.timeline', 'blink.user_timing'] });
  const marks = await press(page);
  await browser.stopTracing();
  const trace = JSON.parse(readFileSync(path, 'utf8'));
  const events = trace.traceEvents ?? trace;
  const click = events.find((e) => e.name === 'click' && e.cat?.includes('user_timing')).ts;
  const threads = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  console.log(`${workload}, press ${presses} of one page: statistics shown after ${marks.shown.toFixed(1)} ms, `
    + `painted after ${marks.painted.toFixed(1)} ms`);
  for (const name of ['CrRendererMain', 'DedicatedWorker thread']) {
    console.log(`\n${name === 'CrRendererMain' ? 'the page\'s main thread' : 'the worker'} (start ms, length ms, event):`);
    const key = [...threads].find(([, n]) => n === name)?.[0];
    for (const e of events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.ts >= click
      && e.dur >= shortest * 1000).sort((a, b) => a.ts - b.ts)) {
      console.log(`${((e.ts - click) / 1000).toFixed(2).padStart(9)} ${(e.dur / 1000).toFixed(2).padStart(8)}  ${e.name}`);
    }
  }
} finally {
  await browser.close();
  server.stop();
}
