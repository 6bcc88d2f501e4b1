// End-to-end: IKRA's Steal thread-block scheduler on the paper's 15-SM machine. The chunk panel
// follows playback, and the timeline says where each block's index ran in the previous launch;
// the numbers shown are checked against the native CLI's report of the same run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choose, nativeRun, openPage, runAndWait, screenshot, shownInteger, waitForApp } from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

/** The work-stealing microbenchmark at its default 96 blocks: 16 launches, blocks left to steal. */
const SIZE = 96;

/** Digits only: the page groups thousands with thin spaces. */
const digits = (text) => Number(text.replace(/[^0-9]/g, ''));
/** `1440` → `"1 440"`, as the page groups thousands (its thin spaces made plain). */
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * Hovers block `b` (a native block record) on the timeline and resolves to the tooltip's rows
 * as `{ label: value }`. The rows' layout is the timeline's (`plot/timeline.rs`): rows of 24 px
 * from 6 px down for 15 SMs, 22 px drawn, split into lanes; the block's lane is found by
 * trying each pixel of its row at the middle of its time span.
 */
async function hoverBlock(page, b, horizon) {
  const canvas = page.locator('#timeline canvas');
  await canvas.scrollIntoViewIfNeeded();
  for (let dy = 1; dy < 22; dy++) {
    await canvas.evaluate((element, { b, horizon, dy }) => {
      const box = element.getBoundingClientRect();
      const x = 52 + ((b.start + b.end) / 2 / horizon) * (box.width - 52 - 14);
      const y = 6 + b.sm * 24 + dy;
      element.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + x, clientY: box.top + y, bubbles: true }));
    }, { b, horizon, dy });
    const tooltip = page.locator('#timeline .viz-tooltip');
    if (await tooltip.count() === 0) continue;
    const shown = await tooltip.evaluate((t) => Object.fromEntries(
      [...t.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    if (digits(shown['kernel run']) === b.kernel && digits(shown.block) === b.block) return shown;
  }
  throw new Error(`block ${b.block} of run ${b.kernel} not found under the pointer`);
}

test('under Steal the chunk panel follows playback, and the timeline says where each block ran the launch before', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await choose(page, 'workload', 'ubench-ws');
  await page.fill('#size', String(SIZE));
  await choose(page, 'machine', 'ikra-denovo');
  await choose(page, 'tb-policy', 'steal');
  const cycles = await runAndWait(page, 120000);
  const native = nativeRun(['--workload', 'ubench-ws', '--size', String(SIZE), '--gpu', 'ikra-denovo', '--tb', 'steal']);
  assert.equal(cycles, native.cycles);
  assert.equal(native.kernels.length, 16);
  assert.ok(native.steal.steals_from_chunks > 0 && native.steal.overflows === 0, 'blocks are stolen, no queue overflows');

  // The panel: one row per SM of the 15.
  const panel = page.locator('#chunks');
  await panel.waitFor();
  assert.equal(await page.locator('#chunks-title').textContent(), 'Chunks and steal queues');
  assert.equal(await page.locator('#chunk-table tbody tr').count(), 15);
  // At the end (the scrubber's last position) the last launch is placed: nothing is left, and
  // the queues hold every block stolen from a chunk (a steal from a queue only moves an entry,
  // and no queue overflowed, so the grid was never cut afresh).
  assert.equal(Number(await page.locator('#chunks-run').getAttribute('data-value')), 15);
  assert.equal(Number(await page.locator('#chunks-left').getAttribute('data-value')), 0);
  assert.equal(Number(await page.locator('#chunks-queued').getAttribute('data-value')), native.steal.steals_from_chunks);
  const entries = await page.locator('#chunk-table td.chunk-queue').evaluateAll(
    (cells) => cells.reduce((sum, c) => sum + Number(c.dataset.entries), 0));
  assert.equal(entries, native.steal.steals_from_chunks, 'the rows add up to the total');

  // At every snapshot, the blocks the panel says are still to place (chunks and queue entries
  // still to run) are those of its run that the native report shows placed at or after the
  // snapshot's cycle; and the rows add up to the totals.
  const frames = Number(await page.locator('#scrubber').getAttribute('max'));
  let midRun = 0;
  let queuedToRun = 0;
  let busiest = { position: frames, queuedLeft: 0 };
  for (let position = 0; position <= frames; position++) {
    await page.locator('#scrubber').fill(String(position));
    // The panel has caught up with the scrubber (before the first launch it says there is no run).
    await page.waitForFunction(() => {
      const at = document.querySelector('#playback-cycle')?.textContent.replace('cycle ', '');
      return document.querySelector('#chunks-cycle')?.textContent === at
        || document.querySelector('#chunks-none')?.textContent.includes(`At cycle ${at} `);
    });
    if (await page.locator('#chunks-none').count() > 0) {
      const at = digits(await page.locator('#playback-cycle').textContent());
      assert.equal(native.blocks.filter((b) => b.start < at).length, 0, 'no run is pictured only before the first placement');
      continue;
    }
    const cycle = digits(await page.locator('#chunks-cycle').textContent());
    const run = Number(await page.locator('#chunks-run').getAttribute('data-value'));
    const left = Number(await page.locator('#chunks-left').getAttribute('data-value'));
    const queuedLeft = Number(await page.locator('#chunks-queued-left').getAttribute('data-value'));
    const unplaced = native.blocks.filter((b) => b.kernel === run && b.start >= cycle).length;
    assert.equal(left + queuedLeft, unplaced, `cycle ${cycle}, run ${run}`);
    const rows = await page.locator('#chunk-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      left: Number(tr.querySelector('.chunk-words').dataset.left),
      toRun: Number(tr.querySelector('.chunk-queue').dataset.toRun),
    })));
    assert.equal(rows.length, 15);
    assert.equal(rows.reduce((s, r) => s + r.left, 0), left);
    assert.equal(rows.reduce((s, r) => s + r.toRun, 0), queuedLeft);
    midRun += unplaced > 0 ? 1 : 0;
    queuedToRun += queuedLeft;
    if (queuedLeft > busiest.queuedLeft) busiest = { position, queuedLeft };
  }
  assert.ok(midRun >= 3, `some snapshots catch blocks waiting to be placed (${midRun})`);
  assert.ok(queuedToRun > 0, 'some snapshot catches a steal-queue entry still to run');
  // The moment with the most queue entries still to run, for the screenshot.
  await page.locator('#scrubber').fill(String(busiest.position));
  await page.locator('#chunks-queued-left', { hasText: String(busiest.queuedLeft) }).waitFor();
  await page.evaluate(() => document.querySelector('#chunks').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'chunks-steal');

  // The timeline: blocks of the second launch (run 1) against the first (run 0).
  const sm = new Map(native.blocks.map((b) => [`${b.kernel}:${b.block}`, b.sm]));
  const second = native.blocks.filter((b) => b.kernel === 1);
  const stayed = second.filter((b) => sm.get(`0:${b.block}`) === b.sm);
  assert.ok(stayed.length > 0 && stayed.length < second.length, 'some blocks moved and some stayed');
  const longest = (blocks) => blocks.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
  for (const b of [longest(stayed), longest(second.filter((x) => !stayed.includes(x)))]) {
    const shown = await hoverBlock(page, b, native.cycles);
    const before = sm.get(`0:${b.block}`);
    const how = before === b.sm ? 'same SM' : 'moved';
    assert.equal(shown['previous run'], `SM ${before} in run 0 (${how})`, `block ${b.block}`);
    assert.equal(shown['stayed on their SM'], `${stayed.length} of ${SIZE} blocks of this run`);
  }
  await screenshot(page, 'timeline-previous-sm');
  // A block of the first launch has no previous run.
  const first = await hoverBlock(page, longest(native.blocks.filter((b) => b.kernel === 0)), native.cycles);
  assert.equal(first['previous run'], undefined);

  // Under the timeline: every launch after the first against the one before.
  let same = 0;
  for (const b of native.blocks) if (b.kernel > 0 && sm.get(`${b.kernel - 1}:${b.block}`) === b.sm) same++;
  const note = (await page.locator('#timeline-same-sm').textContent()).replace(/\u202F/g, ' ');
  assert.match(note, new RegExp(`: ${grouped(same)} of ${grouped(15 * SIZE)} \\(`));
  assert.match(note, /over 15 launches after the first\.$/);
  assert.equal(await shownInteger(page, 'stat-blocks'), 16 * SIZE);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the compare view breaks accesses, traffic and energy down as the native reports do, under DeNovo', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await choose(page, 'workload', 'stencil');
  await page.fill('#size', '64');
  await choose(page, 'machine', 'ikra-denovo');
  await page.click('#tab-compare');
  await choose(page, 'cmp-tb-0', 'rr');
  await choose(page, 'cmp-tb-1', 'steal');
  await choose(page, 'cmp-warp-0', 'gto');
  await choose(page, 'cmp-warp-1', 'gto');
  await page.click('#compare-run');
  await page.locator('#cmp-cycles-1').waitFor({ timeout: 120000 });
  const native = ['rr', 'steal'].map((tb) =>
    nativeRun(['--workload', 'stencil', '--size', '64', '--gpu', 'ikra-denovo', '--tb', tb]));
  assert.equal(await shownInteger(page, 'cmp-cycles-0'), native[0].cycles);
  assert.equal(await shownInteger(page, 'cmp-cycles-1'), native[1].cycles);

  // Where accesses were served: each segment's share, from the native counters (the
  // access breakdown of core's claims::AccessLevel).
  const served = (r) => {
    const l1 = r.l1.hits + (r.l1.owned_writes ?? 0);
    const remote = r.l2.forwarded ?? 0;
    const l2 = r.l2.hits + r.l2.writes + (r.l2.registrations ?? 0);
    const memory = r.l2.misses + r.l2.mshr_merges;
    const total = l1 + remote + l2 + memory;
    return { L1: l1 / total, 'remote L1': remote / total, L2: l2 / total, memory: memory / total };
  };
  const segments = async (id, row) => Object.fromEntries(
    (await page.locator(`#${id} ~ table tbody tr`).nth(row).locator('.breakdown-track span').evaluateAll(
      (spans) => spans.map((s) => s.title.split(': ')))).map(([name, share]) => [name, parseFloat(share) / 100]));
  for (const row of [0, 1]) {
    const shown = await segments('breakdown-accesses', row);
    for (const [part, share] of Object.entries(served(native[row]))) {
      if (share === 0) continue;
      assert.ok(Math.abs(shown[part] - share) < 0.0006, `${part} of variant ${row}: ${shown[part]} against ${share}`);
    }
  }
  assert.ok(served(native[0])['remote L1'] > 0, 'round-robin reads data other SMs own');

  // Traffic: the second bar's figure is its flit-hops over the first's.
  const hops = (r) => ['read', 'write', 'writeback', 'ownership'].reduce((sum, c) => sum + (r.network[c]?.flit_hops ?? 0), 0);
  const figure = await page.locator('#breakdown-traffic ~ table tbody tr').nth(1).locator('td.num').textContent();
  assert.equal(figure, `${(hops(native[1]) / hops(native[0])).toFixed(2)}×`);
  // Energy: the same for the paper's five components (DRAM left out).
  const energy = (r) => ['core', 'l1', 'scratchpad', 'l2', 'network'].reduce((sum, c) => sum + r.energy[c], 0);
  const energyFigure = await page.locator('#breakdown-energy ~ table tbody tr').nth(1).locator('td.num').textContent();
  assert.equal(energyFigure, `${(energy(native[1]) / energy(native[0])).toFixed(2)}×`);
  await screenshot(page, 'compare-breakdowns');
  assert.deepEqual(page.errors, []);
  await page.close();
});
