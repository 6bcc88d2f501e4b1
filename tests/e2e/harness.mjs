// Shared set-up for the browser tests: serve dist/ under a sub-path on loopback, launch Debian's
// Chromium headless through playwright-core, and collect every console error of a page.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const artifacts = join(here, 'artifacts');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * Serves dist/ (or the build in $WARPSCOPE_DIST, to compare two builds) at
 * http://127.0.0.1:<free port>/demo/warpscope/ and resolves to that URL.
 */
export async function serveDist() {
  const dist = process.env.WARPSCOPE_DIST ?? join(root, 'dist');
  const server = spawn('python3', [join(root, 'scripts', 'serve.py'), dist,
    '--port', '0', '--prefix', '/demo/warpscope/', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolveUrl, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/127\.0\.0\.1:\d+\/\S*/);
      if (match) resolveUrl(match[0]);
    });
    server.on('exit', (code) => reject(new Error(`serve.py exited with ${code} before printing its URL`)));
  });
  return { url, stop: () => server.kill() };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A new page whose console errors and warnings and uncaught exceptions are recorded in
 * `page.errors`. `options` may set the `viewport` (a laptop's 1280×900 unless given) and the
 * `deviceScaleFactor`.
 */
export async function openPage(browser, url, options = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') page.errors.push(`console ${msg.type()}: ${msg.text()}`);
  });
  await page.goto(url);
  await page.locator('#engine-status', { hasText: 'Engine: ready' }).waitFor({ timeout: 20000 });
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  // What a laptop screen shows first, for the README.
  await page.screenshot({ path: join(artifacts, `${name}-screen.png`) });
}

/** Runs the native CLI (`target/debug/warpscope`) and returns its JSON report. */
export function nativeSweep(args) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  return JSON.parse(execFileSync(cli, ['sweep', ...args, '--json'], { encoding: 'utf8' }));
}

/** Fills the sweep form; `fields` maps element ids to values. */
export async function fillForm(page, fields) {
  for (const [id, value] of Object.entries(fields)) {
    const element = page.locator(`#${id}`);
    if (await element.evaluate((e) => e.tagName === 'SELECT')) {
      await element.selectOption(String(value));
    } else {
      await element.fill(String(value));
    }
  }
}

/** The integer shown in element `#id` (digits separated by thin spaces). */
export async function shownInteger(page, id) {
  const text = await page.locator(`#${id}`).textContent();
  return Number(text.replace(/[^0-9]/g, ''));
}

/**
 * Runs an engine benchmark workload in a fresh Web Worker of the served app, speaking the
 * worker protocol directly; resolves to `{ report, elapsed_ms }` from the `Done` reply.
 */
export async function runBenchInWorker(page, workload, tiny) {
  return page.evaluate(async ({ workload, tiny }) => {
    const worker = new Worker('./worker_loader.js', { type: 'module' });
    try {
      return await new Promise((resolve, reject) => {
        worker.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
        worker.onmessage = ({ data }) => {
          if (data.type === 'Ready') {
            const job = { kind: 'Bench', workload, preset: 'fermi-gtx480', tiny };
            worker.postMessage({ type: 'Run', id: 1, job, frame_every: 0 });
          } else if (data.type === 'Done') {
            resolve({ report: JSON.parse(data.report), elapsed_ms: data.elapsed_ms });
          } else if (data.type === 'Failed') {
            reject(new Error(`worker failed: ${JSON.stringify(data.error)}`));
          }
        };
      });
    } finally {
      worker.terminate();
    }
  }, { workload, tiny });
}

/** The native engine's report for a small benchmark workload, from the CLI. */
export function nativeBenchReport(workload) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  return JSON.parse(execFileSync(cli, ['bench', '--only', workload, '--report'], { encoding: 'utf8' }));
}

/** The native CLI's JSON report for `warpscope run ARGS`. */
export function nativeRun(args) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  return JSON.parse(execFileSync(cli, ['run', ...args, '--json'], { encoding: 'utf8' }));
}

/** The native CLI's `--dump` of buffer `buffer` after `warpscope run ARGS`: its text. */
export function nativeDump(args, buffer) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  const path = join(artifacts, `dump-${process.pid}-${buffer}.txt`);
  mkdirSync(artifacts, { recursive: true });
  execFileSync(cli, ['run', ...args, '--json', '--dump', `${buffer}=${path}`], { encoding: 'utf8' });
  return readFileSync(path, 'utf8');
}

/** The native CLI's points of `warpscope swl-sweep ARGS --json`: `[{ limit, cycles, ipc, l1_mpki, l1_hit_rate }]`. */
export function nativeSwlSweep(args) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  return JSON.parse(execFileSync(cli, ['swl-sweep', ...args, '--json'], { encoding: 'utf8' }));
}

/** The native CLI's JSON verdict of claim row `id` (`warpscope reproduce --claim ID --json`). */
export function nativeReproduce(id) {
  const cli = process.env.WARPSCOPE_CLI ?? join(root, 'target', 'debug', 'warpscope');
  const run = execFileSync(cli, ['reproduce', '--claim', id, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const out = JSON.parse(run);
  return out.claims.find((c) => c.id === id);
}

/** A gallery card by its claim's id (ids hold dots, so not a `#` selector). */
export function card(page, id) {
  return page.locator(`[id="card-${id}"]`);
}

/**
 * What card `locator` shows once judged: the verdict and, check by check, the metric, the
 * expectation and what was seen, in the native report's shape.
 */
export async function cardOutcome(locator) {
  await locator.locator('.verdict').waitFor({ timeout: 300000 });
  const holds = (await locator.locator('.verdict').getAttribute('data-holds')) === 'true';
  const checks = await locator.locator('.claim-check').evaluateAll((items) => items.map((item) => ({
    metric: item.querySelector('.metric').textContent,
    expected: item.querySelector('.relation').textContent,
    holds: item.dataset.holds === 'true',
    seen: item.querySelector('.seen').textContent,
  })));
  return { holds, checks };
}

/** Waits until the app has its menus and the editor (the catalog has arrived). */
export async function waitForApp(page) {
  await page.locator('#source').waitFor({ timeout: 20000 });
}

/** Picks option `value` of the select `#id` and waits for the page to settle. */
export async function choose(page, id, value) {
  await page.selectOption(`#${id}`, String(value));
}

/** Presses Run and waits for the run's statistics; returns the shown cycle count. */
export async function runAndWait(page, timeout = 60000) {
  await page.click('#run');
  await page.locator('#stat-cycles').waitFor({ timeout });
  return shownInteger(page, 'stat-cycles');
}
