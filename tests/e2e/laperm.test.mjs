// End-to-end: LaPerm's Adaptive-Bind on the 13-SM Kepler-like machine with DTBL launches. The
// priority-queue panel follows playback, the launch queues are charted over time, the launch
// counts are told in words, and the timeline colours blocks by their parent's SM and their
// nesting depth; every number shown is checked against the native CLI's report of the same run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choose, nativeRun, openPage, runAndWait, screenshot, waitForApp } from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

/** BFS with dynamic parallelism on a small graph: hundreds of device launches, a few seconds. */
const SIZE = 2048;
const ARGS = ['--workload', 'bfs-dp', '--size', String(SIZE), '--gpu', 'laperm-k20c', '--tb', 'adaptive-bind'];

/** Digits only: the page groups thousands with thin spaces. */
const digits = (text) => Number(text.replace(/[^0-9]/g, ''));

/**
 * Hovers block `b` (a native block record) on the timeline and resolves to the tooltip's rows
 * as `{ label: value }` and the pointer's y within the canvas. Rows are the timeline's
 * (`plot/timeline.rs`): 24 px from 6 px down for 13 SMs, 22 px drawn, split into lanes; the
 * block's lane is found by trying each pixel of its row at the middle of its time span.
 */
async function hoverBlock(page, b, horizon) {
  const canvas = page.locator('#timeline canvas');
  await canvas.scrollIntoViewIfNeeded();
  const x = await canvas.evaluate((element, { b, horizon }) =>
    52 + ((b.start + b.end) / 2 / horizon) * (element.getBoundingClientRect().width - 52 - 14), { b, horizon });
  for (let dy = 0; dy < 22; dy++) {
    const y = 6 + b.sm * 24 + dy;
    await canvas.evaluate((element, { x, y }) => {
      const box = element.getBoundingClientRect();
      element.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + x, clientY: box.top + y, bubbles: true }));
    }, { x, y });
    const tooltip = page.locator('#timeline .viz-tooltip');
    if (await tooltip.count() === 0) continue;
    const shown = await tooltip.evaluate((t) => Object.fromEntries(
      [...t.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    if (digits(shown['kernel run']) === b.kernel && digits(shown.block) === b.block) return { shown, x, y };
  }
  throw new Error(`block ${b.block} of run ${b.kernel} not found under the pointer`);
}

/**
 * Each block's box on the timeline, as `plot/timeline.rs` lays it out: per SM, blocks sorted
 * by (start, end, index) each take the lowest lane free at their start; a row's 22 px are
 * split evenly between its lanes. Resolves to `{ top, height }` per block, in CSS pixels.
 */
function lanes(blocks, horizon) {
  const perSm = new Map();
  blocks.forEach((b, i) => {
    if (!perSm.has(b.sm)) perSm.set(b.sm, []);
    perSm.get(b.sm).push([b.start, b.end < b.start ? horizon : b.end, i]);
  });
  const boxes = [];
  for (const [sm, keyed] of perSm) {
    keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    const free = [];
    const lane = new Map();
    for (const [start, end, i] of keyed) {
      let l = free.findIndex((f) => f <= start);
      if (l < 0) { free.push(0); l = free.length - 1; }
      free[l] = end;
      lane.set(i, l);
    }
    const height = 22 / free.length;
    for (const [i, l] of lane) boxes[i] = { top: 6 + sm * 24 + l * height, height };
  }
  return boxes;
}

/**
 * The canvas's colour at `x` in the first whole device-pixel row at or below `top` (CSS
 * pixels), as [r, g, b]: at twice the density a lane of 1 px or more holds one.
 */
async function pixel(page, x, top) {
  return page.locator('#timeline canvas').evaluate((canvas, { x, top }) => {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    // Read from a copy: reading the page's own canvas back would make Chromium warn.
    const copy = document.createElement('canvas');
    copy.width = 1;
    copy.height = 1;
    const context = copy.getContext('2d', { willReadFrequently: true });
    context.drawImage(canvas, Math.floor(x * ratio), Math.ceil(top * ratio), 1, 1, 0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, { x, top });
}

/** A legend swatch's colour as [r, g, b]. */
async function swatch(page, cls) {
  const css = await page.locator(`#timeline-lineage-legend li[data-class="${cls}"] .swatch`)
    .evaluate((s) => getComputedStyle(s).backgroundColor);
  return css.match(/\d+/g).slice(0, 3).map(Number);
}

const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 3);

test('under Adaptive-Bind the queues follow playback, launches are charted and counted, and blocks show their lineage', async () => {
  const page = await openPage(session.browser, session.server.url, { deviceScaleFactor: 2 });
  await waitForApp(page);
  await choose(page, 'workload', 'bfs-dp');
  await page.fill('#size', String(SIZE));
  await choose(page, 'machine', 'laperm-k20c');
  await choose(page, 'tb-policy', 'adaptive-bind');
  const cycles = await runAndWait(page, 180000);
  const native = nativeRun(ARGS);
  assert.equal(cycles, native.cycles);
  const kernels = native.kernels;
  const launches = native.launches;
  assert.ok(launches && launches.device_launches > 0, 'the run launches from the device');
  assert.ok(kernels.length < 4096, 'the page keeps every run whole');
  assert.equal(native.block_record_stride ?? 1, 1, 'every block is recorded');

  // The launch counts, in the statistics.
  const stat = async (id) => Number(await page.locator(`#${id}`).getAttribute('data-value'));
  const counts = {
    'stat-device-launches': launches.device_launches,
    'stat-new-kernels': launches.new_kernels,
    'stat-coalesced-groups': launches.coalesced_groups,
    'stat-overflowed-groups': launches.overflowed_groups,
    'stat-kdu-peak': launches.kdu_peak,
    'stat-kmu-peak': launches.kmu_peak,
    'stat-group-table-peak': launches.group_table_peak,
    'stat-launch-stall': launches.launch_stall_cycles,
  };
  for (const [id, n] of Object.entries(counts)) assert.equal(await stat(id), n, id);
  const mean = launches.launch_to_dispatch_cycles / launches.children_dispatched;
  assert.ok(Math.abs(await stat('stat-launch-to-dispatch') - mean) < 1e-9);
  assert.equal(await page.locator('#stat-launch-to-dispatch').textContent(), `${Math.round(mean)} cycles`);
  assert.match(await page.locator('#stat-launch-to-dispatch + td').textContent(),
    new RegExp(`longest ${String(launches.launch_to_dispatch_max).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202F')} cycles`));
  assert.ok(Math.abs(await stat('stat-on-parent-sm') - launches.child_blocks_on_parent_sm / launches.child_blocks) < 1e-12);

  // The launch queues over time: each window's gauges, in order.
  const windows = native.series.windows;
  const values = async (chart, series) => (await page.locator(`#${chart} g.series[data-series="${series}"]`)
    .getAttribute('data-values')).split(' ').map(Number);
  assert.deepEqual(await values('chart-launch-kernels', 'kernels in the KDU'), windows.map((w) => w.kdu_kernels ?? 0));
  assert.deepEqual(await values('chart-launch-kernels', 'kernels waiting in the KMU'), windows.map((w) => w.kmu_waiting ?? 0));
  const groups = windows.map((w) => w.group_records ?? 0);
  assert.ok(Math.max(...groups) > 0, 'DTBL keeps group records');
  assert.deepEqual(await values('chart-launch-groups', 'group records, all SMs'), groups);
  assert.ok(Math.max(...windows.map((w) => w.kdu_kernels ?? 0)) <= launches.kdu_peak);
  await page.locator('#launch-queues').scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelector('#launch-queues').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'laperm-launch-queues');
  await page.evaluate(() => document.querySelector('#launch-stats').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'laperm-launch-stats');

  // The priority queues at every snapshot: each entry's blocks left are the blocks of its run
  // the native report shows dispatched at or after the snapshot's cycle; a bound entry sits on
  // its parent's SM at level min(depth, L); level 0 holds host kernels only.
  const panel = page.locator('#queues');
  await panel.waitFor();
  assert.equal(await page.locator('#queues-title').textContent(), 'Priority queues (Adaptive-Bind)');
  assert.equal(await page.locator('#queue-bound tbody tr').count(), 13);
  const levels = Number(await page.locator('#queues-levels').textContent());
  const frames = Number(await page.locator('#scrubber').getAttribute('max'));
  let busiest = { position: 0, entries: 0 };
  let boundSeen = 0;
  let checked = 0;
  for (let position = 0; position <= frames; position++) {
    await page.locator('#scrubber').fill(String(position));
    await page.waitForFunction(() => document.querySelector('#queues-cycle')?.textContent
      === document.querySelector('#playback-cycle')?.textContent.replace('cycle ', ''));
    const cycle = digits(await page.locator('#queues-cycle').textContent());
    const entries = Number(await page.locator('#queues-entries').getAttribute('data-value'));
    const shared = await page.locator('#queue-shared tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      label: tr.querySelector('th').textContent, queue: tr.querySelector('td').dataset.queue })));
    const bound = await page.locator('#queue-bound tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      sm: Number(tr.dataset.sm),
      queues: [...tr.querySelectorAll('td.queue-cell')].map((td) => td.dataset.queue),
      backup: tr.querySelector('td.queue-backup').textContent,
    })));
    const parse = (q) => (q ? q.split(' ').map((e) => e.split(':').map(Number)) : []);
    let listed = 0;
    const left = (run) => native.blocks.filter((b) => b.kernel === run && b.start >= cycle).length;
    assert.equal(shared.length, 1, 'Adaptive-Bind has no global levels');
    assert.equal(shared[0].label, 'Level 0 · host kernels');
    for (const [run, blocksLeft] of parse(shared[0].queue)) {
      assert.equal(kernels[run].parent, null, `run ${run} in level 0 is a host kernel`);
      assert.equal(blocksLeft, left(run), `cycle ${cycle}, host run ${run}`);
      listed++;
    }
    for (const row of bound) {
      assert.equal(row.queues.length, levels);
      assert.match(row.backup, /^(← SM \d+|none yet)$/);
      row.queues.forEach((q, i) => {
        const level = levels - i;
        for (const [run, blocksLeft] of parse(q)) {
          const k = kernels[run];
          assert.equal(k.parent_sm, row.sm, `run ${run} is bound to its parent's SM`);
          assert.equal(Math.min(k.depth, levels), level, `run ${run} at its level`);
          assert.equal(blocksLeft, left(run), `cycle ${cycle}, run ${run} on SM ${row.sm}`);
          assert.ok(blocksLeft > 0);
          listed++;
          boundSeen++;
        }
      });
    }
    if (await page.locator('#queues-capped').count() === 0) assert.equal(listed, entries, `cycle ${cycle}`);
    else assert.ok(listed < entries);
    checked++;
    if (entries > busiest.entries) busiest = { position, entries };
  }
  assert.ok(checked > 3 && boundSeen > 0, `snapshots catch children queued on their SMs (${boundSeen} over ${checked})`);
  await page.locator('#scrubber').fill(String(busiest.position));
  await page.locator('#queues-entries', { hasText: String(busiest.entries) }).waitFor();
  await page.evaluate(() => document.querySelector('#queues').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'laperm-queues');

  // The timeline by parent's SM: the legend counts each class's blocks, the note those on
  // their parent's SM, the tooltip names the parent and the depth, and the canvas draws a
  // child in its parent's SM's colour (with a dark top edge where it ran on that SM).
  await choose(page, 'timeline-colour', 'parent-sm');
  const legend = page.locator('#timeline-lineage-legend');
  await legend.waitFor();
  const classCounts = async () => Object.fromEntries(await legend.locator('li[data-class]').evaluateAll((lis) =>
    lis.map((li) => [li.querySelector('.swatch').nextSibling.textContent, Number(li.querySelector('.runs').textContent.replace(/[^0-9]/g, ''))])));
  const expected = {};
  const add = (label) => { expected[label] = (expected[label] ?? 0) + 1; };
  let same = 0;
  let children = 0;
  for (const b of native.blocks) {
    const k = kernels[b.kernel];
    if (k.parent === null) add('host launches');
    else {
      add(`from SM ${k.parent_sm}`);
      children++;
      if (k.parent_sm === b.sm) same++;
    }
  }
  assert.deepEqual(await classCounts(), expected);
  assert.ok(same > 0 && same < children, 'some children ran on their parent\'s SM, some elsewhere');
  const note = (await page.locator('#timeline-on-parent-sm').textContent()).replace(/\u202F/g, '');
  assert.match(note, new RegExp(`: ${same} of ${children} \\(`));

  const longest = (blocks) => blocks.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
  const childBlocks = native.blocks.filter((b) => kernels[b.kernel].parent !== null);
  const away = longest(childBlocks.filter((b) => kernels[b.kernel].parent_sm !== b.sm));
  const home = longest(childBlocks.filter((b) => kernels[b.kernel].parent_sm === b.sm));
  const boxes = lanes(native.blocks, native.cycles);
  for (const b of [away, home]) {
    const k = kernels[b.kernel];
    const { shown, x } = await hoverBlock(page, b, native.cycles);
    const here = k.parent_sm === b.sm ? ' (this SM)' : '';
    assert.equal(shown.parent, `run ${k.parent}, block ${k.parent_block} on SM ${k.parent_sm}${here}`);
    assert.equal(shown.depth, String(k.depth));
    await page.mouse.move(0, 0);
    const box = boxes[native.blocks.indexOf(b)];
    const colour = await pixel(page, x, box.top);
    if (b === home && box.height >= 3) {
      assert.ok(colour.every((v) => v < 60), `a child on its parent's SM is marked at its top edge: ${colour}`);
    } else {
      // Away from its parent's SM, or in a lane too thin for the mark: its parent's SM's colour.
      assert.ok(close(colour, await swatch(page, 2 + k.parent_sm)), `block drawn in SM ${k.parent_sm}'s colour: ${colour}`);
    }
  }
  // The mark is explained where some lane is tall enough to carry it.
  const marked = boxes.some((box) => box.height >= 3);
  assert.equal(await legend.locator('li.mark').count(), marked ? 1 : 0);
  const host = longest(native.blocks.filter((b) => kernels[b.kernel].parent === null));
  const hostShown = await hoverBlock(page, host, native.cycles);
  assert.equal(hostShown.shown.parent, 'none: a host launch');
  assert.equal(hostShown.shown.depth, '0 (host)');
  await hoverBlock(page, away, native.cycles);
  await page.evaluate(() => document.querySelector('#timeline').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'laperm-timeline-parent-sm');

  // By nesting depth: a class per depth, counted as the native runs' depths say.
  await choose(page, 'timeline-colour', 'depth');
  await page.locator('#timeline-lineage-legend[aria-label="Nesting depth"]').waitFor();
  const byDepth = {};
  for (const b of native.blocks) {
    const d = kernels[b.kernel].depth;
    const label = d === 0 ? 'host launches' : d >= 6 ? 'depth 6 and deeper' : `depth ${d}`;
    byDepth[label] = (byDepth[label] ?? 0) + 1;
  }
  assert.deepEqual(await classCounts(), byDepth);
  assert.ok(Object.keys(byDepth).length >= 2);
  await page.mouse.move(0, 0);
  await screenshot(page, 'laperm-timeline-depth');
  // Back to the kernel colouring: the kernels' legend returns.
  await choose(page, 'timeline-colour', 'kernel');
  await page.locator('#timeline ul.viz-legend[aria-label="Kernels"]').waitFor();
  assert.equal(await page.locator('#timeline-lineage-legend').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});
