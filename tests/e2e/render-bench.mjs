// Rendering benchmark: how fast the page draws a big run's views in headless Chromium (release
// dist/). Prints figures for BENCHMARKS.md; asserts nothing about speed.
//
// The run: hotspot with 4×4-thread tiles over 25 steps, 102 400 thread blocks in 25 kernel runs.
// For each interaction (seeking on the timeline with the arrow keys, dragging the playback
// scrubber, hovering over the timeline, playing) it reports
//   script  input event → the app's handlers, Yew's render and the canvas draws have run;
//   paint   the browser's own work for the frame that shows it (style, layout, paint);
//   draw    the app's `performance.measure` entries around each canvas draw (draw_timing.rs).
// A frame budget at 60 Hz is 16.7 ms for script + paint together.
//
// Usage: make build && node tests/e2e/render-bench.mjs [--dpr 2]
import { launchBrowser, serveDist } from './harness.mjs';

const dprArg = process.argv.indexOf('--dpr');
const dpr = dprArg > 0 ? Number(process.argv[dprArg + 1]) : 1;
const RUN = '?w=hotspot&d=TILE:4,STEPS:25';
const SAMPLES = 40;

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: dpr });
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => { if (['error', 'warning'].includes(msg.type())) errors.push(msg.text()); });
  // Every draw measure from page load on, kept in the page for the figures below.
  await page.addInitScript(() => {
    window.drawTimes = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.drawTimes.push({ name: e.name, ms: e.duration });
    }).observe({ type: 'measure' });
  });
  await page.goto(server.url + RUN);
  await page.locator('#run:not([disabled])').waitFor({ timeout: 30000 });
  const started = Date.now();
  await page.click('#run');
  await page.locator('#stat-cycles').waitFor({ timeout: 600000 });
  const simulated = (Date.now() - started) / 1000;
  await page.locator('#timeline canvas').first().waitFor();
  const facts = await page.evaluate(() => ({
    blocks: document.querySelector('#stat-blocks').textContent,
    cycles: document.querySelector('#stat-cycles').textContent,
    frames: Number(document.querySelector('#scrubber').max) + 1,
  }));
  console.log(`run: hotspot TILE=4 STEPS=25 on the default machine: ${facts.blocks} thread blocks, `
    + `${facts.cycles} cycles, ${facts.frames} snapshots (simulated in ${simulated.toFixed(1)} s)`);
  console.log(`viewport 1440×900 CSS px, device pixel ratio ${dpr}; times in ms\n`);

  const takeDraws = () => page.evaluate(() => window.drawTimes.splice(0));
  const report = (label, draws, frames) => {
    const names = [...new Set(draws.map((d) => d.name))].sort();
    const parts = [];
    if (frames?.length) {
      parts.push(`script ${stats(frames.map((f) => f.script))}`, `paint ${stats(frames.map((f) => f.paint))}`,
        `script+paint ${stats(frames.map((f) => f.script + f.paint))}`);
    }
    for (const name of names) parts.push(`${name} ${stats(draws.filter((d) => d.name === name).map((d) => d.ms))}`);
    console.log(`${label}\n    ${parts.join('\n    ')}`);
  };

  report('first draw after the run (index built, blocks drawn)', await takeDraws());

  // Redraws of the blocks layer: new widths as the window is resized.
  for (const width of [1400, 1360, 1320, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  report('timeline redrawn at five window widths', await takeDraws());

  // Installs `window.interact(fire)`: fires an input and measures the frame that shows it.
  await page.evaluate(() => {
    const macrotask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    window.interact = async (fire) => {
      const t0 = performance.now();
      fire();
      await macrotask(); // Yew renders and runs effects (the draws) in microtasks before this
      const t1 = performance.now();
      const t2 = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      await macrotask(); // after the frame's style, layout and paint
      const t3 = performance.now();
      return { script: t1 - t0, paint: t3 - t2 };
    };
  });

  // From the start of the run (no cursor means its end, where → has nowhere to go).
  await page.focus('#timeline .viz-canvas-frame');
  await page.keyboard.press('Home');
  await takeDraws();
  const seek = await page.evaluate(async (n) => {
    const frame = document.querySelector('#timeline .viz-canvas-frame');
    const out = [];
    for (let i = 0; i < n; i++) {
      out.push(await window.interact(() => frame.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))));
    }
    return out;
  }, SAMPLES);
  report(`seek on the timeline with → (${SAMPLES} presses; cursor, playback views and charts follow)`, await takeDraws(), seek);

  const scrub = await page.evaluate(async (n) => {
    const input = document.querySelector('#scrubber');
    const max = Number(input.max);
    const out = [];
    for (let i = 0; i < n; i++) {
      out.push(await window.interact(() => {
        input.value = String(Math.round((i * 7919) % (max + 1)));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }));
    }
    return out;
  }, SAMPLES);
  report(`drag the playback scrubber (${SAMPLES} jumps)`, await takeDraws(), scrub);

  const hover = await page.evaluate(async (n) => {
    // The topmost canvas takes the pointer (an overlay canvas in builds before the cursor became an element).
    const canvas = [...document.querySelectorAll('#timeline canvas')].at(-1);
    const box = canvas.getBoundingClientRect();
    const out = [];
    for (let i = 0; i < n; i++) {
      const clientX = box.left + 60 + (i / n) * (box.width - 80);
      const clientY = box.top + 6 + ((i * 37) % 200);
      out.push(await window.interact(() => canvas.dispatchEvent(new MouseEvent('mousemove', { clientX, clientY, bubbles: true }))));
    }
    const tooltip = document.querySelector('#timeline .viz-tooltip') !== null;
    canvas.dispatchEvent(new MouseEvent('mouseleave'));
    return { out, tooltip };
  }, SAMPLES);
  report(`hover over the timeline (${SAMPLES} pointer moves)`, await takeDraws(), hover.out);

  // Playing: frame intervals while snapshots advance on their timer.
  await page.locator('#scrubber').fill('0');
  await takeDraws();
  await page.click('#play');
  const intervals = await page.evaluate(() => new Promise((resolve) => {
    const times = [];
    const tick = (t) => {
      times.push(t);
      if (t - times[0] < 4000) requestAnimationFrame(tick);
      else resolve(times.slice(1).map((x, i) => x - times[i]));
    };
    requestAnimationFrame(tick);
  }));
  await page.click('#play');
  const long = intervals.filter((t) => t > 1000 / 60 + 2).length;
  report('play for 4 s (one snapshot per 90 ms timer tick)', await takeDraws());
  console.log(`    frame intervals ${stats(intervals)}; ${long} of ${intervals.length} frames over 18.7 ms`);

  if (!hover.tooltip) console.log('\nnote: no tooltip showed during the hover sweep');
  if (errors.length) console.log(`\nconsole errors and warnings:\n  ${errors.join('\n  ')}`);
} finally {
  await browser.close();
  server.stop();
}

/** "median 1.2, p95 3.4, max 5.6 (n=40)". */
function stats(values) {
  if (!values.length) return '(none)';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)}, p95 ${at(0.95).toFixed(2)}, max ${sorted.at(-1).toFixed(2)} (n=${sorted.length})`;
}
