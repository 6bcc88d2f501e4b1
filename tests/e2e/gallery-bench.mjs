// The gallery's wall-clock gain from running a card's runs in parallel Web Workers: the
// two-variant card (ccws-5.2-13, 4 workloads × 2 variants = 8 runs) reproduced with one worker
// (`?workers=1`) and with the page's pool (one worker per core the browser reports, capped),
// in headless Chromium against the release build in dist/. Timed from the click on Reproduce to
// the verdict, three ways:
//   at once  Reproduce clicked as soon as the gallery opens: the pool's other workers, started
//            when the gallery opened, are still loading and compiling the engine;
//   read     clicked 3 s after the gallery opens (a person reading the card): workers are up;
//   again    a second Reproduce on the same page.
// Prints each round, the medians and their ratio. On Linux each measurement first waits (up to
// a minute) for the machine to be quiet, and each time says how many CPU seconds processes other
// than Chromium took meanwhile ("others"): on a shared machine a round with a large figure there
// competed for the cores. Timing is measured here, never asserted by
// a test. Usage: make build && node tests/e2e/gallery-bench.mjs [rounds]
import { readdirSync, readFileSync } from 'node:fs';
import { card, cardOutcome, launchBrowser, openPage, serveDist, waitForApp } from './harness.mjs';

const CLAIM = 'ccws-5.2-13';
const READING_MS = 3000;
const rounds = Number(process.argv[2] ?? 3);

/** CPU seconds used so far by the whole machine and by Chromium's processes (Linux). */
function cpuSeconds() {
  try {
    const tick = 100; // USER_HZ
    const total = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const busy = total.reduce((a, b) => a + b, 0) - total[3] - total[4]; // less idle and iowait
    let chromium = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (!/chrom/i.test(name)) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        chromium += Number(fields[11]) + Number(fields[12]); // utime, stime
      } catch { /* the process ended */ }
    }
    return { busy: busy / tick, chromium: chromium / tick };
  } catch {
    return undefined;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until processes other than Chromium use under a tenth of a core, for up to a minute. */
async function quiet() {
  for (let waited = 0; waited < 60; waited += 2) {
    const before = cpuSeconds();
    if (!before) return;
    await sleep(2000);
    const after = cpuSeconds();
    if ((after.busy - before.busy) - (after.chromium - before.chromium) < 0.2) return;
  }
  console.log('(the machine did not become quiet within a minute; measuring anyway)');
}

/**
 * Seconds from a click on the card's Reproduce to its verdict (timed in the page: from the
 * click event to the mutation that shows the verdict), and the others' CPU seconds.
 */
async function reproduce(box) {
  const cpu = cpuSeconds();
  await box.evaluate((el) => {
    const timing = { start: undefined, end: undefined, cleared: false };
    window.benchTiming = timing;
    // On the window, capturing: before the page's own handler renders the card.
    const button = el.querySelector('button.primary');
    const onClick = (event) => {
      if (event.target !== button) return;
      timing.start = performance.now();
      window.removeEventListener('click', onClick, true);
    };
    window.addEventListener('click', onClick, true);
    const observer = new MutationObserver(() => {
      const shown = el.querySelector('.verdict') !== null;
      if (!shown && timing.start !== undefined) timing.cleared = true;
      if (shown && timing.cleared) {
        timing.end = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(el, { childList: true, characterData: true, subtree: true });
  });
  await box.locator('button', { hasText: 'Reproduce' }).click();
  await cardOutcome(box);
  await box.page().waitForFunction(() => window.benchTiming.end !== undefined);
  const { start, end } = await box.page().evaluate(() => window.benchTiming);
  const after = cpuSeconds();
  const others = cpu && after ? (after.busy - cpu.busy) - (after.chromium - cpu.chromium) : NaN;
  return { seconds: (end - start) / 1000, others };
}

/** A fresh page (`query` appended to its address) on the gallery, after `pauseMs`. */
async function gallery(browser, url, query, pauseMs) {
  await quiet();
  const page = await openPage(browser, `${url}${query}`);
  await waitForApp(page);
  await page.click('#tab-gallery');
  await page.waitForTimeout(pauseMs);
  return page;
}

async function measure(browser, url, query) {
  const first = await gallery(browser, url, query, 0);
  const box = card(first, CLAIM);
  const atOnce = await reproduce(box);
  await quiet();
  const again = await reproduce(box);
  const status = await first.locator('#engine-status').textContent();
  const second = await gallery(browser, url, query, READING_MS);
  const read = await reproduce(card(second, CLAIM));
  for (const page of [first, second]) {
    if (page.errors.length > 0) throw new Error(`page errors: ${page.errors.join('; ')}`);
    await page.close();
  }
  return { atOnce, read, again, status };
}

const shown = ({ seconds, others }) => `${seconds.toFixed(2)} s${Number.isNaN(others) ? '' : ` (others ${others.toFixed(1)})`}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serveDist();
const browser = await launchBrowser();
try {
  const probe = await openPage(browser, server.url);
  const cores = await probe.evaluate(() => navigator.hardwareConcurrency);
  await probe.close();
  console.log(`${CLAIM}: 8 runs; the browser reports ${cores} cores; ${rounds} rounds, alternating`);
  const results = { one: [], pool: [] };
  for (let round = 1; round <= rounds; round++) {
    for (const [name, query] of [['one', '?workers=1'], ['pool', '']]) {
      const r = await measure(browser, server.url, query);
      results[name].push(r);
      console.log(`round ${round}  ${name.padEnd(4)}  at once ${shown(r.atOnce)}  read ${shown(r.read)}  `
        + `again ${shown(r.again)}  [${r.status}]`);
    }
  }
  for (const kind of ['atOnce', 'read', 'again']) {
    const one = median(results.one.map((r) => r[kind].seconds));
    const pool = median(results.pool.map((r) => r[kind].seconds));
    console.log(`median ${kind.padEnd(6)}: 1 worker ${one.toFixed(2)} s, pool ${pool.toFixed(2)} s, `
      + `1 worker / pool = ${(one / pool).toFixed(2)}`);
  }
} finally {
  await browser.close();
  server.stop();
}
