// End-to-end: the page, its Web Worker and the engine, in headless Chromium. Numbers the page
// shows are checked against the native CLI on the same set-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  card, cardOutcome, choose, nativeDump, nativeReproduce, nativeRun, nativeSwlSweep, openPage, runAndWait, screenshot, shownInteger,
  waitForApp,
} from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

/** Opens the app on library workload `id` at its smallest size. Resolves to that size. */
async function openSmallest(page, id) {
  await waitForApp(page);
  await choose(page, 'workload', id);
  const min = await page.locator('#size').getAttribute('min');
  await page.fill('#size', min);
  return Number(min);
}

test('an error in the kernel file is marked at its line and column, and Run waits for a fix', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  const source = await page.inputValue('#source');
  const line = source.split('\n').length + 1;
  await page.fill('#source', `${source}\n__global__ void broken(int *a) { a[0] = undefined_name; }\n`);
  const marker = page.locator(`.diag-error[data-line="${line}"]`);
  await marker.waitFor({ timeout: 10000 });
  assert.equal(await marker.getAttribute('data-column'), '41');
  await page.locator(`.gutter-marker[data-line="${line}"]`).waitFor();
  assert.match(await page.locator('#problems').textContent(), new RegExp(`${line}:41 error: undefined name .undefined_name.`));
  assert.ok(await page.locator('#run').isDisabled(), 'Run is disabled while the file has errors');
  await screenshot(page, 'editor-error');

  // Fixing it clears the marker and enables Run again.
  await page.fill('#source', source);
  await page.locator('.diag-error').first().waitFor({ state: 'detached', timeout: 10000 });
  await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 10000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('code nested deeper than a worker\'s stack allows is a located error, not a crash', async () => {
  // 30 device functions of 60 nested blocks, each calling the next: compiled natively, it once
  // overflowed the worker's stack ("Maximum call stack size exceeded").
  const lines = [];
  for (let i = 0; i < 30; i++) {
    const body = i === 0 ? 'x = x + 1.0f;' : `x = f${i - 1}(x);`;
    lines.push(`__device__ float f${i}(float x) { ${'{ '.repeat(60)}${body}${' }'.repeat(60)} return x; }`);
  }
  lines.push('__global__ void k(float* a) { a[threadIdx.x] = f29(a[threadIdx.x]); }');
  lines.push('host { float a[32]; k<<<1, 32>>>(a); }');
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.fill('#source', lines.join('\n'));
  await page.locator('#problems', { hasText: 'nests more than 256 levels deep' }).waitFor({ timeout: 20000 });
  assert.ok(await page.locator('#run').isDisabled(), 'Run waits for a fix');
  assert.equal(await page.locator('.notice').count(), 0, 'no worker crashed');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a grid of four million blocks runs, and the timeline draws an even sample of them', async () => {
  // Once the report kept a record per block: 16 M blocks took the tab to 7 GB and froze it.
  // The report now keeps at most 65 536, every 64th of 2^22 here, and says so.
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.fill('#source', '__global__ void k(float* a) { }\nhost { float a[4]; k<<<4194304, 32>>>(a); }\n');
  await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 10000 });
  await runAndWait(page, 120000);
  assert.equal(await shownInteger(page, 'stat-blocks'), 4194304);
  const note = await page.locator('#timeline-sampled').textContent();
  assert.match(note, /4.194.304 blocks ran.*one block in every 64 is drawn \(65.536 of them\)/);
  await screenshot(page, 'timeline-sampled');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a storm of 901 120 device grids: the page gets the first runs whole and the rest totalled per kernel', async () => {
  // Once the worker sent a record per kernel run: the page took about 30 s to take them in.
  // 880 × 1024 threads each launch one grid: 1 + 901 120 runs, 4 096 kept whole, 897 025 totalled.
  const source = '__global__ void child(int *out) { out[threadIdx.x] = 1; }\n'
    + '__global__ void parent(int *out) { child<<<1, 32>>>(out); }\n'
    + 'host { int out[32]; parent<<<880, 1024>>>(out); }\n';
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.evaluate((text) => {
    const editor = document.querySelector('#source');
    editor.value = text;
    editor.dispatchEvent(new InputEvent('input', { bubbles: true }));
  }, source);
  await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 10000 });
  await runAndWait(page, 120000);
  assert.equal(await shownInteger(page, 'stat-blocks'), 880 + 901120);
  assert.match(await page.locator('#stat-blocks').locator('xpath=..').textContent(), /901.121 kernel runs/);
  assert.match(await page.locator('#run-groups-note').textContent(), /first 4.096 runs whole and totals the other 897.025/);
  const rows = await page.locator('#kernel-table tr.run-group').allTextContents();
  assert.equal(rows.length, 1);
  assert.match(rows[0], /^…child897.025.*897.025 runs, from the device$/);
  assert.match(await page.locator('ul[aria-label="Kernels"]').textContent(), /parent.*child× 901.120/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a library workload runs in the worker and the page shows the native engine\'s numbers', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openSmallest(page, 'vecadd');
  const cycles = await runAndWait(page);
  const expected = nativeRun(['--workload', 'vecadd', '--size', String(size), '--gpu', 'fermi-gtx480']);
  assert.equal(cycles, expected.cycles);
  assert.equal(await shownInteger(page, 'stat-instructions'), expected.warp_instructions);
  assert.equal(await shownInteger(page, 'stat-blocks'), expected.blocks.length);
  // The timeline has drawn something, the charts have lines, playback has frames.
  const inked = await page.evaluate(() => {
    const canvas = document.querySelector('#timeline canvas, canvas#timeline');
    if (!canvas) return 0;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && (data[i] < 240 || data[i + 1] < 240)) coloured++;
    return coloured;
  });
  assert.ok(inked > 500, `the timeline is drawn (${inked} coloured pixels)`);
  assert.ok(await page.locator('#chart-ipc path').count() > 0, 'the IPC chart has a line');
  assert.ok(Number(await page.locator('#scrubber').getAttribute('max')) >= 1, 'playback has several frames');
  await page.locator('#scrubber').focus();
  await page.keyboard.press('Home');
  assert.match(await page.locator('#playback-cycle').textContent(), /cycle 0$/);
  // Half-way through, for the screenshot: blocks resident, warps busy, the L1 filling.
  const frames = Number(await page.locator('#scrubber').getAttribute('max'));
  await page.locator('#scrubber').fill(String(Math.floor(frames / 2)));
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'simulate');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a finished run\'s buffer downloads as text, element for element what the native --dump writes', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openSmallest(page, 'vecadd');
  await runAndWait(page);
  const choices = await page.locator('#export-buffer-choice option').allTextContents();
  assert.deepEqual(choices, ['a', 'b', 'c']);
  await page.selectOption('#export-buffer-choice', { label: 'c' });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-buffer')]);
  assert.equal(download.suggestedFilename(), 'c.txt');
  const text = readFileSync(await download.path(), 'utf8');
  const expected = nativeDump(['--workload', 'vecadd', '--size', String(size), '--gpu', 'fermi-gtx480'], 'c');
  assert.equal(text.split('\n').length - 1, size, 'one line per element');
  assert.equal(text, expected);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a #define changed in the Parameters panel overrides the file, like -D', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await choose(page, 'workload', 'stencil');
  const field = page.locator('#defines input').first();
  await field.waitFor({ timeout: 10000 });
  const name = (await field.getAttribute('id')).replace(/^define-/, '');
  const value = String(Number(await field.inputValue()) / 2);
  await field.fill(value);
  await field.press('Tab');
  await page.locator('.define.changed').waitFor();
  await page.waitForFunction(() => /launch/.test(document.querySelector('#compile-status')?.textContent ?? ''),
    null, { timeout: 10000 });
  const cycles = await runAndWait(page);
  assert.equal(cycles, nativeRun(['--workload', 'stencil', '-D', `${name}=${value}`]).cycles);
  // The size knob travels as `n=`, any other macro as `d=NAME:VALUE`.
  assert.match(page.url(), new RegExp(`(n=${value}|d=${name}:${value})(&|$)`), 'the override is in the share link');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** The most blocks one SM held at the same time in a native report's block timeline. */
function mostResidentPerSm(report) {
  const events = new Map();
  for (const block of report.blocks) {
    if (!events.has(block.sm)) events.set(block.sm, []);
    events.get(block.sm).push([block.start, 1], [block.end, -1]);
  }
  let most = 0;
  for (const list of events.values()) {
    // A block ending on the cycle another starts has left first.
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let resident = 0;
    for (const [, change] of list) {
      resident += change;
      most = Math.max(most, resident);
    }
  }
  return most;
}

/** The (line, column) of the editor's caret, from 1. */
async function caret(page) {
  return page.evaluate(() => {
    const source = document.querySelector('#source');
    const before = source.value.slice(0, source.selectionStart).split('\n');
    return { focused: document.activeElement === source, line: before.length, column: before.at(-1).length + 1 };
  });
}

test('the Launches panel lists the launches with the engine\'s occupancy, follows Parameters and hardware, and leads to the source', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await choose(page, 'machine', 'fermi-gtx480');
  await choose(page, 'workload', 'hotspot');
  const row = page.locator('#launches-table tr.launch');
  await row.first().waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#launches-table tr.launch .launch-kernel')?.textContent === 'hotspot',
    null, { timeout: 10000 });

  // Twenty launches from one loop: one row, with the grid and block the native engine ran and
  // as many blocks per SM as it ever held on one SM.
  const native = nativeRun(['--workload', 'hotspot', '--gpu', 'fermi-gtx480']);
  assert.equal(native.kernels.length, 20);
  assert.equal(await row.count(), 1, 'identical launches in a loop make one row');
  assert.equal(await row.locator('.launch-repeat').textContent(), '×20');
  assert.equal(await row.getAttribute('data-grid'), '16,16,1', 'dim3(N / TILE, N / TILE) with N = 256, TILE = 16');
  assert.equal(await row.getAttribute('data-block'), '16,16,1');
  assert.equal(16 * 16, native.kernels[0].blocks);
  const perSm = Number(await row.getAttribute('data-blocks-per-sm'));
  assert.equal(perSm, mostResidentPerSm(native));
  assert.equal(perSm, 6, '8 warps a block, 48 warp slots an SM');
  assert.match(await row.textContent(), /warp slots/);
  assert.deepEqual(await row.locator('.define-ref').allTextContents(), ['N', 'TILE', 'N', 'TILE', 'TILE', 'TILE']);

  // Fewer thread-block slots: the panel follows the machine, as the engine does.
  await page.fill('#hw-core-max_tbs_per_sm', '4');
  await page.waitForFunction(() => document.querySelector('#launches-table tr.launch')?.dataset.blocksPerSm === '4',
    null, { timeout: 10000 });
  assert.match(await row.textContent(), /thread-block slots/);
  const fewerSlots = nativeRun(['--workload', 'hotspot', '--gpu', 'fermi-gtx480', '--set', 'core.max_tbs_per_sm=4']);
  assert.equal(mostResidentPerSm(fewerSlots), 4);
  await page.fill('#hw-core-max_tbs_per_sm', '8');
  await page.waitForFunction(() => document.querySelector('#launches-table tr.launch')?.dataset.blocksPerSm === '6',
    null, { timeout: 10000 });

  // A define named in the grid leads to its Parameters field; changing it there changes the grid.
  await row.locator('.define-ref', { hasText: 'N' }).first().click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'define-N');
  await page.fill('#define-N', '128');
  await page.press('#define-N', 'Tab');
  await page.waitForFunction(() => document.querySelector('#launches-table tr.launch')?.dataset.grid === '8,8,1',
    null, { timeout: 10000 });

  // The row leads to the launch statement: by a click anywhere on it, or Enter on its button.
  const line = Number(await row.getAttribute('data-line'));
  const column = Number(await row.getAttribute('data-column'));
  const source = await page.inputValue('#source');
  assert.match(source.split('\n')[line - 1].slice(column - 1), /^hotspot<<</);
  await row.locator('.launch-kernel').click();
  assert.deepEqual(await caret(page), { focused: true, line, column });
  await page.evaluate(() => document.querySelector('#source').setSelectionRange(0, 0));
  await row.locator('.launch-go').focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await caret(page), { focused: true, line, column });

  await page.locator('#launches').scrollIntoViewIfNeeded();
  await screenshot(page, 'launches');

  // While the file has errors, the last good sequence stays, dimmed.
  await page.fill('#source', `${source}\nbroken`);
  await page.locator('#launches.stale').waitFor({ timeout: 10000 });
  assert.equal(await row.getAttribute('data-grid'), '8,8,1');
  await page.fill('#source', source);
  await page.locator('#launches.stale').waitFor({ state: 'detached', timeout: 10000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel stops a long run and the next run goes ahead', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  // The largest size of a slow workload: minutes of simulation, so Cancel always comes first.
  await choose(page, 'workload', 'coloring');
  await page.fill('#size', await page.locator('#size').getAttribute('max'));
  await page.click('#run');
  await page.waitForFunction(() => /Running: cycle [1-9]/.test(document.querySelector('#status')?.textContent ?? ''),
    null, { timeout: 20000 });
  await page.click('#cancel');
  await page.locator('#status', { hasText: 'Cancelled at cycle' }).waitFor({ timeout: 5000 });
  await screenshot(page, 'cancelled');
  await openSmallest(page, 'vecadd');
  await runAndWait(page);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the compare view runs two warp schedulers and shows their speedup', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openSmallest(page, 'vecadd');
  await page.click('#tab-compare');
  await choose(page, 'cmp-warp-0', 'lrr');
  await choose(page, 'cmp-warp-1', 'gto');
  await page.click('#compare-run');
  await page.locator('#cmp-cycles-1').waitFor({ timeout: 60000 });
  const lrr = nativeRun(['--workload', 'vecadd', '--size', String(size), '--warp', 'lrr']).cycles;
  const gto = nativeRun(['--workload', 'vecadd', '--size', String(size), '--warp', 'gto']).cycles;
  assert.equal(await shownInteger(page, 'cmp-cycles-0'), lrr);
  assert.equal(await shownInteger(page, 'cmp-cycles-1'), gto);
  assert.equal(await page.locator('#cmp-speedup-1').textContent(), `${(lrr / gto).toFixed(2)}×`);
  await page.locator('#chart-ipc').waitFor();
  await screenshot(page, 'compare');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a policy\'s parameters are fields beside its menu, checked as typed, carried by the link and the compare view', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openSmallest(page, 'vecadd');
  assert.equal(await page.locator('#warp-policy-limit').count(), 0, 'GTO has no parameters');
  await choose(page, 'warp-policy', 'swl');
  const limit = page.locator('#warp-policy-limit');
  await limit.waitFor();
  assert.equal(await limit.inputValue(), '8');
  assert.match(await page.locator('#warp-policy-limit-hint').textContent(), /^1–64, default 8$/);

  // A bad value is marked at the field with the engine's reason; the spec keeps the last good one.
  await limit.fill('0');
  assert.equal(await limit.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#warp-policy-limit-hint').textContent(),
    '`limit` must be a whole number from 1 to 64, not `0`');
  await limit.fill('2');
  assert.equal(await limit.getAttribute('aria-invalid'), 'false');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('warp') === 'swl:limit=2');

  const cycles = await runAndWait(page);
  const swl = nativeRun(['--workload', 'vecadd', '--size', String(size), '--warp', 'swl:limit=2']).cycles;
  const gto = nativeRun(['--workload', 'vecadd', '--size', String(size), '--warp', 'gto']).cycles;
  assert.equal(cycles, swl);
  assert.notEqual(swl, gto, 'the limit changes the schedule');

  // The link restores the tuned policy.
  const restored = await openPage(session.browser, page.url());
  await waitForApp(restored);
  assert.equal(await restored.locator('#warp-policy').inputValue(), 'swl');
  assert.equal(await restored.locator('#warp-policy-limit').inputValue(), '2');
  await restored.close();

  // The compare view tunes each variant on its own.
  await page.click('#tab-compare');
  await choose(page, 'cmp-warp-0', 'gto');
  await choose(page, 'cmp-warp-1', 'swl');
  await page.locator('#cmp-warp-1-limit').fill('2');
  await page.click('#compare-run');
  await page.locator('#cmp-cycles-1').waitFor({ timeout: 60000 });
  assert.equal(await shownInteger(page, 'cmp-cycles-0'), gto);
  assert.equal(await shownInteger(page, 'cmp-cycles-1'), swl);
  assert.match(await page.locator('#compare-table tbody tr').nth(1).locator('th').textContent(), /Static warp limit \(limit 2\)/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a share link restores the whole set-up, and its embed view runs', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await choose(page, 'machine', 'ccws-fermi');
  const size = await openSmallest(page, 'hotspot');
  await choose(page, 'warp-policy', 'lrr');
  await page.fill('#hw-l1-ways', '4');
  await page.click('#share');
  const url = await page.inputValue('#share-url');
  assert.match(url, /w=hotspot/);
  assert.match(url, /hw=[^&]*l1\.ways:4/);
  await page.close();

  const restored = await openPage(session.browser, url);
  await waitForApp(restored);
  assert.equal(await restored.inputValue('#workload'), 'hotspot');
  assert.equal(await restored.inputValue('#size'), String(size));
  assert.equal(await restored.inputValue('#machine'), 'ccws-fermi');
  assert.equal(await restored.inputValue('#warp-policy'), 'lrr');
  assert.equal(await restored.inputValue('#hw-l1-ways'), '4');
  assert.deepEqual(restored.errors, []);
  await restored.close();

  const embed = await openPage(session.browser, `${url}&embed=1`);
  await embed.locator('#run').waitFor({ timeout: 20000 });
  assert.equal(await embed.locator('.masthead').isVisible(), false, 'no page chrome in an iframe');
  assert.equal(await embed.locator('#tab-compare').count(), 0, 'embed mode is run-and-watch only');
  await embed.click('#run');
  await embed.locator('#status', { hasText: 'Finished' }).waitFor({ timeout: 60000 });
  await embed.locator('#scrubber').waitFor();
  await screenshot(embed, 'embed');
  assert.deepEqual(embed.errors, []);
  await embed.close();
});

test('a link to a kernel file too long for a request line opens: the set-up travels in the fragment', async () => {
  // Once the kernel text rode in the query string, and a link over 64 KB got a bare
  // "414 URI Too Long" from the server before the page could load.
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  const noise = [];
  let x = 12345;
  for (let i = 0; i < 6000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    noise.push(`// ${x.toString(36)}${(x * 7).toString(36)}${(x * 13).toString(36)}${(x * 31).toString(36)}`);
  }
  const source = `${noise.join('\n')}\n__global__ void k(float* a) { a[threadIdx.x] += 1.0f; }\nhost { float a[64]; k<<<1, 64>>>(a); }\n`;
  // Set in one input event (typing 6,000 lines through the keyboard would take minutes).
  await page.evaluate((text) => {
    const editor = document.querySelector('#source');
    editor.value = text;
    editor.dispatchEvent(new InputEvent('input', { bubbles: true }));
  }, source);
  await page.waitForFunction(() => location.hash.length > 65536, null, { timeout: 10000 });
  const link = page.url();
  assert.ok(!new URL(link).search.includes('src='), 'the kernel text is not in the query string');
  const restored = await openPage(session.browser, link);
  await waitForApp(restored);
  assert.equal(await restored.inputValue('#source'), source);
  await runAndWait(restored);
  assert.deepEqual([...page.errors, ...restored.errors], []);
  await restored.close();
  await page.close();
});

test('a link\'s size and cycle budget are checked as the fields check them, marked there, and Run still works', async () => {
  // A budget beyond 2^53 once reached the worker and blocked every run until reload; 0 became 1.
  for (const max of ['9007199254740993', '0']) {
    const page = await openPage(session.browser, `${session.server.url}?w=vecadd&n=1024&m=fermi-gtx480&max=${max}`);
    await waitForApp(page);
    await page.locator('#link-notes').waitFor({ timeout: 20000 });
    assert.match(await page.locator('#link-notes').textContent(), new RegExp(`cycle budget .${max}. was replaced by the default`));
    const field = page.locator('#max-cycles');
    await page.waitForFunction((v) => document.querySelector('#max-cycles')?.value === v, max, { timeout: 10000 });
    assert.equal(await field.getAttribute('aria-invalid'), 'true', 'the field shows the link\'s value, marked');
    assert.match(await page.locator('#max-cycles-hint').textContent(), /between 1000 and 10000000000/);
    const cycles = await runAndWait(page);
    assert.ok(cycles > 0, 'the run uses the default budget');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  const page = await openPage(session.browser, `${session.server.url}?w=vecadd&n=99999999999&m=fermi-gtx480`);
  await waitForApp(page);
  await page.locator('#link-notes').waitFor({ timeout: 20000 });
  assert.match(await page.locator('#link-notes').textContent(), /size .99999999999. was replaced by the file's default/);
  await page.waitForFunction(() => document.querySelector('#size')?.value === '99999999999', null, { timeout: 10000 });
  assert.equal(await page.locator('#size').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('under CIAO-C the interference panel shows who evicts whom and which warps are isolated', async () => {
  // ATAX's row walk, one block of 8 warps on SM 0, with CIAO acting early (a 0.01 % cutoff, short epochs).
  const spec = 'ciao-c:high_cutoff=1,high_epoch=100,low_epoch=10';
  const page = await openPage(session.browser,
    `${session.server.url}?w=atax&n=256&m=fermi-gtx480&warp=${encodeURIComponent(spec)}`);
  await waitForApp(page);
  const cycles = await runAndWait(page, 120000);
  const native = nativeRun(['--workload', 'atax', '--size', '256', '--gpu', 'fermi-gtx480', '--warp', spec]);
  assert.equal(cycles, native.cycles);
  assert.ok(native.l1.smc_hits > 0 && native.stalls.throttled > 0, 'CIAO-C isolates and stalls on this run');
  const panel = page.locator('#interference');
  await panel.waitFor();
  assert.match(await page.locator('#interference-title').textContent(), /SM 0$/);
  assert.equal(Number(await page.locator('#interference-vta-hits').getAttribute('data-value')), native.sms[0].victim_tag_hits);
  // A moment with isolated warps: each victim names a live interferer other than itself.
  const frames = Number(await page.locator('#scrubber').getAttribute('max'));
  let found = false;
  for (let step = 1; step < 24 && !found; step++) {
    await page.locator('#scrubber').fill(String(Math.floor((frames * step) / 24)));
    await page.locator('#interference-cycle').waitFor();
    found = Number(await page.locator('#interference-isolated').textContent()) > 0
      && await page.locator('#interference-table tbody tr').count() > 0;
  }
  assert.ok(found, 'some moment of the run has isolated warps and named interferers');
  const rows = await page.locator('#interference-table tbody tr').evaluateAll((trs) => trs.map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  for (const [victim, interferer] of rows) {
    assert.notEqual(victim.split(' ')[0], interferer.split(' ')[0], 'nobody is its own interferer');
    assert.doesNotMatch(interferer, /gone/, 'the interferer is live');
  }
  // Beside the L1 heat map, the shared-memory cache's lines, each for the warp slot that filled it.
  const strip = page.locator('#smc-strip');
  await strip.waitFor();
  assert.equal(await strip.locator('rect').count(), 256, '256 lines in the 48 KB the block leaves');
  assert.ok(await strip.locator('rect[data-owner]:not([data-owner=""])').count() > 0, 'redirected lines are there');
  await page.locator('#chart-interference-warps line.cursor').waitFor({ state: 'attached' });
  await page.evaluate(() => document.querySelector('#interference').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'interference');
  // The statistics carry the shared-memory cache and the active warps.
  assert.equal(await shownInteger(page, 'stat-vta-hits'), native.victim_tag_hits);
  await page.locator('#stat-active-warps').waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a gallery card runs its claim row in parallel workers and judges it as the native test does', async () => {
  const id = 'ccws-5.2-13';
  const native = nativeReproduce(id);
  assert.equal(native.agrees, true, 'natively the row is what it records');
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.click('#tab-gallery');

  // Every headline row is a card, grouped by paper (every row runs: none is pending).
  assert.equal(await page.locator('.status-badge', { hasText: /pending/i }).count(), 0);
  assert.equal(await page.locator('#paper-ccws').textContent(), 'Cache-Conscious Wavefront Scheduling');

  const two = card(page, id);
  assert.match(await two.locator('.status-badge').textContent(), /known failure/i);
  assert.equal(await two.locator('.paper-says').textContent(), native.paper_says);
  assert.match(await two.locator('.setup').textContent(), /--set l1\.size_bytes=262144/);
  await two.locator('button', { hasText: 'Reproduce' }).click();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (cores >= 2) {
    // Its runs go to more than one worker at once (eight runs of a few seconds each).
    await page.waitForFunction((sel) => document.querySelectorAll(`${sel} td.running`).length >= 2,
      `[id="card-${id}"]`, { timeout: 60000 });
  }
  const shown = await cardOutcome(two);
  const expected = native.checks.map(({ metric, expected, holds, seen }) => ({ metric, expected, holds, seen }));
  assert.deepEqual(shown, { holds: native.holds, checks: expected });
  assert.equal(await two.locator('.mismatch').count(), 0, 'the card agrees with its row');
  assert.equal(await two.locator('td.done').count(), 8);
  await two.scrollIntoViewIfNeeded();
  await screenshot(page, 'gallery');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a card opens one of its workloads in the compare view with its variants', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.click('#tab-gallery');
  await card(page, 'ccws-5.2-13').getByRole('button', { name: 'Open memcached in the compare view' }).click();
  await page.locator('#view-compare').waitFor();
  assert.equal(await page.inputValue('#workload'), 'memcached');
  assert.equal(await page.inputValue('#machine'), 'ccws-fermi');
  const rows = await page.locator('#compare-table tbody th[scope="row"]').allTextContents();
  assert.equal(rows.length, 2);
  assert.match(rows[1], /l1\.size_bytes=262144/, 'the variant keeps its larger L1');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * Opens the CCWS paper's GC (a tracing collector's mark phase) at 4096 objects on its machine
 * under warp policy `warp`: a few seconds a run, with an interior best warp limit.
 */
async function openGc(page, warp) {
  await waitForApp(page);
  await choose(page, 'machine', 'ccws-fermi');
  await choose(page, 'workload', 'gc');
  await page.fill('#size', '4096');
  await choose(page, 'warp-policy', warp);
  return 4096;
}

test('under CCWS the lost-locality panel shows each warp\'s score against the cutoff, as the engine held them', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openGc(page, 'ccws');
  // The L1 pictured, and the panel with it: SM 3 (the first SMs run no mark work at this size).
  await choose(page, 'heat-sm', 3);
  const cycles = await runAndWait(page, 120000);
  const native = nativeRun(['--workload', 'gc', '--size', String(size), '--gpu', 'ccws-fermi', '--warp', 'ccws']);
  assert.equal(cycles, native.cycles);
  // The statistics carry CCWS's own counts and the L1's hits by locality, as the engine counted them.
  assert.ok(native.victim_tag_hits > 0 && native.gated_loads > 0, 'the workload throttles under CCWS');
  assert.equal(await shownInteger(page, 'stat-vta-hits'), native.victim_tag_hits);
  assert.equal(await shownInteger(page, 'stat-gated-loads'), native.gated_loads);
  assert.equal(await shownInteger(page, 'stat-l1-intra-warp'), native.l1.intra_warp_hits);
  assert.equal(await shownInteger(page, 'stat-l1-inter-warp'), native.l1.inter_warp_hits);

  // At the end of the run (the scrubber's last position) the panel's VTA hits are SM 3's.
  const panel = page.locator('#lost-locality');
  await panel.waitFor();
  assert.match(await page.locator('#locality-title').textContent(), /SM 3$/);
  assert.ok(native.sms[3].victim_tag_hits > 0);
  assert.equal(Number(await page.locator('#locality-vta-hits').getAttribute('data-value')), native.sms[3].victim_tag_hits);

  // Find a moment with warps held back, and check the picture is the gate's: live scores sorted
  // largest first and stacked, the cutoff live warps × the base score of 100, and a warp held
  // back exactly when its share starts at or past the cutoff (the first-ranked always loads).
  const frames = Number(await page.locator('#scrubber').getAttribute('max'));
  let found = false;
  for (let step = 1; step < 24 && !found; step++) {
    const position = Math.floor((frames * step) / 24);
    await page.locator('#scrubber').fill(String(position));
    await page.locator('#locality-cycle').waitFor();
    found = (await page.locator('#locality-held').textContent()) !== 'none';
  }
  assert.ok(found, 'some moment of the run holds warps back');
  const segments = await page.locator('#locality-stack g.segment').evaluateAll((gs) => gs.map((g) => ({
    slot: Number(g.dataset.slot), score: Number(g.dataset.score), start: Number(g.dataset.start),
    mayLoad: g.dataset.mayLoad === 'true',
  })));
  const live = Number(await page.locator('#locality-live').textContent());
  const cutoff = Number(await page.locator('#locality-cutoff').getAttribute('data-value'));
  assert.equal(segments.length, live);
  assert.equal(cutoff, 100 * live, 'cutoff = live warps × base score');
  let before = 0;
  segments.forEach((s, rank) => {
    assert.ok(s.score >= 100, `slot ${s.slot} is at least at the base`);
    if (rank > 0) assert.ok(s.score <= segments[rank - 1].score, 'largest first');
    assert.equal(s.start, before, 'stacked');
    assert.equal(s.mayLoad, rank === 0 || s.start < cutoff, `slot ${s.slot} at rank ${rank}`);
    before += s.score;
  });
  const held = segments.filter((s) => !s.mayLoad).length;
  assert.ok(held > 0);
  assert.match(await page.locator('#locality-held').textContent(), new RegExp(`^${held} \\(slots? `));
  assert.equal(Number(await page.locator('#locality-may-load').textContent()), live - held);
  // Over time: the warps that may load and the VTA hits, with the playback cursor.
  assert.ok(await page.locator('#chart-locality-warps .series path').count() === 2);
  await page.locator('#chart-locality-hits line.cursor').waitFor({ state: 'attached' });
  await page.evaluate(() => document.querySelector('#lost-locality').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'lost-locality');
  await page.evaluate(() => document.querySelector('#stats').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'stats-ccws');

  // Under GTO there are no scores: no panel, and no CCWS rows in the statistics.
  await choose(page, 'warp-policy', 'gto');
  const gto = nativeRun(['--workload', 'gc', '--size', String(size), '--gpu', 'ccws-fermi', '--warp', 'gto']).cycles;
  assert.notEqual(gto, cycles);
  await page.click('#run');
  await page.waitForFunction((expected) => Number((document.querySelector('#stat-cycles')?.textContent ?? '')
    .replace(/[^0-9]/g, '')) === expected, gto, { timeout: 120000 });
  assert.equal(await page.locator('#lost-locality').count(), 0);
  assert.equal(await page.locator('#stat-vta-hits').count(), 0);
  assert.equal(await page.locator('#smc-strip').count(), 0, 'no shared-memory cache without CIAO');
  assert.equal(await page.locator('#interference').count(), 0);
  assert.equal(await page.locator('#stat-gated-loads').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('one click sweeps the static warp limit over the worker pool, and the chart\'s points are the native CLI\'s', async () => {
  const page = await openPage(session.browser, session.server.url);
  const size = await openGc(page, 'ccws');
  await runAndWait(page, 120000);
  assert.equal(await page.locator('#swl-status').textContent(), '');
  await page.click('#swl-sweep');
  await page.locator('#swl-status', { hasText: /of 12 limits done/ }).waitFor({ timeout: 10000 });
  await page.locator('#swl-status', { hasText: 'All 12 limits done.' }).waitFor({ timeout: 300000 });

  const native = nativeSwlSweep(['--workload', 'gc', '--size', String(size), '--gpu', 'ccws-fermi',
    '--limits', '1-8,12,16,24,32']);
  const points = (id) => page.locator(`#${id} circle.point`).evaluateAll((cs) => cs.map((c) => [
    Number(c.dataset.x), Number(c.dataset.y)]));
  // Bit for bit: the page prints each f64 as its shortest exact text, as serde_json does.
  assert.deepEqual(await points('swl-ipc'), native.map((p) => [p.limit, p.ipc]));
  assert.deepEqual(await points('swl-mpki'), native.map((p) => [p.limit, p.l1_mpki]));
  for (const p of native) {
    assert.equal(await shownInteger(page, `swl-row-${p.limit} td:nth-of-type(1)`), p.cycles, `limit ${p.limit}`);
  }
  // Best-SWL is the CLI's: the first of the highest IPC.
  const best = native.reduce((b, p) => (p.ipc > b.ipc ? p : b));
  assert.match(await page.locator(`#swl-row-${best.limit}`).getAttribute('class'), /\bbest\b/);
  assert.equal(await page.locator('#swl-ipc .marker text', { hasText: `Best-SWL ${best.limit}` }).count(), 1);
  assert.match(await page.locator('#swl-summary').textContent(), new RegExp(`^Best-SWL: ${best.limit} warps? `));
  // The run's own policy (CCWS) is the dashed rule at its IPC.
  assert.equal(await page.locator('#swl-ipc .rule').count(), 1);
  await page.evaluate(() => document.querySelector('#swl-panel').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'swl-sweep');
  await page.evaluate(() => document.querySelector('#swl-table').scrollIntoView({ block: 'end' }));
  await screenshot(page, 'swl-sweep-table');

  // Sweep again and cancel: it stops; a new Run clears it.
  await page.click('#swl-sweep');
  await page.locator('#swl-status', { hasText: /of 12 limits done/ }).waitFor({ timeout: 10000 });
  await page.click('#swl-cancel');
  await page.locator('#swl-status', { hasText: /^Stopped: \d+ of 12 limits ran\.$/ }).waitFor({ timeout: 10000 });
  await page.click('#run');
  await page.locator('#swl-summary').waitFor({ state: 'detached', timeout: 10000 });
  await page.locator('#stat-cycles').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('#swl-summary').count(), 0, 'a new run starts without a sweep');
  assert.equal(await page.locator('#swl-status').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a worker panic becomes a message and a fresh worker takes over', async () => {
  const page = await openPage(session.browser, `${session.server.url}?debug=1`);
  await waitForApp(page);
  await page.click('#crash-worker');
  await page.locator('.notice.error, #status.error').first().waitFor({ timeout: 5000 });
  await page.locator('#engine-status', { hasText: 'Engine: ready' }).waitFor({ timeout: 10000 });
  await openSmallest(page, 'vecadd');
  await runAndWait(page);
  // The only errors allowed are the crashed worker's own.
  assert.deepEqual(page.errors.filter((e) => !/unreachable|asked the worker to crash/.test(e)), []);
  await page.close();
});

test('a worker not started for diagnostics ignores the Crash request', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  assert.equal(await page.locator('#crash-worker').count(), 0, 'no diagnostics without ?debug=1');
  // A script of the page's own starts a worker as the page does and sends it Crash, then asks
  // for the menus: a worker that crashed would never answer.
  const answered = await page.evaluate(() => new Promise((resolve) => {
    const worker = new Worker('./worker_loader.js', { type: 'module' });
    worker.onerror = () => resolve('error');
    worker.onmessage = (event) => {
      if (event.data.type === 'Ready') {
        worker.postMessage({ type: 'Crash' });
        worker.postMessage({ type: 'Catalog' });
      } else if (event.data.type === 'Failed') {
        resolve('failed');
      } else if (event.data.type === 'Catalog') {
        resolve('catalog');
      }
    };
  }));
  assert.equal(answered, 'catalog');
  await page.close();
});

test('a worker whose files are missing is given up once, with a message, not restarted', async () => {
  // worker_bg.wasm missing: the worker reports the failure at once. worker.js missing: it
  // reports nothing and never says it is ready, so the page gives it up after 20 s.
  for (const [file, waitMs] of [['worker_bg.wasm', 10000], ['worker.js', 30000]]) {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(`**/${file}`, (route) => route.fulfill({ status: 404, body: 'not found' }));
    const page = await context.newPage();
    let workers = 0;
    page.on('worker', () => { workers += 1; });
    await page.goto(session.server.url);
    await page.locator('#engine-status', { hasText: 'unavailable' }).waitFor({ timeout: waitMs });
    const notice = await page.locator('.notice').first().textContent();
    assert.match(notice, /could not start|cannot start/, `${file}: ${notice}`);
    await page.waitForTimeout(1000);
    assert.equal(workers, 1, `${file}: one worker tried, none restarted`);
    await context.close();
  }
});

test('a panic on the page shows a banner instead of leaving it dead', async () => {
  const page = await openPage(session.browser, `${session.server.url}?debug=1`);
  await waitForApp(page);
  await page.click('#crash-page');
  const banner = page.locator('#fatal');
  await banner.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await banner.textContent(), /internal error\. Reload the page.*the page was asked to crash/s);
  await page.close();
});

test('programs side by side: a link brings the co-runner and the gates, the timeline colours by program, and the pair matrix is the native engine\'s', async () => {
  const machine = ['--gpu', 'cke-maxwell', '--set', 'core.sm_count=2', '--set', 'window.cycles=20000'];
  const link = '?w=backprop&with=spmv&m=cke-maxwell&hw=core.sm_count:2,window.cycles:20000&tb=smk&warp=gto%2Bdmil';
  const page = await openPage(session.browser, `${session.server.url}${link}`);
  await waitForApp(page);
  assert.deepEqual(await page.locator('.program-chips .chip span').allTextContents(), ['spmv']);
  assert.equal(await page.locator('#warp-policy-gates-dmil').isChecked(), true);
  assert.equal(await page.locator('#warp-policy-gates-qbmi').isChecked(), false);
  // Two arbiters of the LSU are refused as they are checked, with the engine's reason.
  await page.check('#warp-policy-gates-rbmi');
  await page.check('#warp-policy-gates-qbmi');
  await page.locator('#warp-policy-gates-hint', { hasText: 'use one of them' }).waitFor();
  await page.uncheck('#warp-policy-gates-rbmi');
  await page.uncheck('#warp-policy-gates-qbmi');

  assert.equal(await runAndWait(page, 120000), 20000);
  const together = nativeRun(['--workload', 'backprop+spmv', ...machine, '--tb', 'smk', '--warp', 'gto+dmil']);
  assert.deepEqual(together.parts.map((p) => p.name), ['backprop', 'spmv']);
  // The timeline's legend counts each program's blocks as the native report names their runs.
  const blocks = [0, 0];
  for (const b of together.blocks) blocks[together.run_parts[b.kernel]] += 1;
  const legend = await page.locator('#timeline-program-legend li').evaluateAll((items) => items.map((li) => [
    li.childNodes[1].textContent, Number(li.querySelector('.runs').textContent.replace(/\D/g, ''))]));
  assert.deepEqual(legend, [['backprop', blocks[0]], ['spmv', blocks[1]]]);
  assert.equal(await page.locator('#program-series svg').count(), 2, 'each program\'s IPC and LSU stalls over time');

  // The pair matrix starts from the set-up's programs and window.
  await page.click('#tab-pairs');
  assert.deepEqual(await page.locator('[aria-labelledby="pairs-title"] .chip span').allTextContents(), ['backprop', 'spmv']);
  assert.equal(await page.locator('#pair-window').inputValue(), '20000');
  await page.click('#pair-run');
  await page.locator('#pair-status', { hasText: 'All 3 runs done.' }).waitFor({ timeout: 120000 });
  // Alone: round-robin blocks, the warp scheduler without its gate (the claim rows' rule).
  const solo = (id) => nativeRun(['--workload', id, ...machine, '--tb', 'rr', '--warp', 'gto']);
  const alone = [solo('backprop'), solo('spmv')];
  const normalized = together.parts.map((p, i) =>
    (p.warp_instructions / together.cycles) / (alone[i].warp_instructions / alone[i].cycles));
  const cell = page.locator('#pair-0-1');
  assert.equal(Number(await cell.getAttribute('data-wspd')), 0 + normalized[0] + normalized[1]);
  assert.equal(await cell.getAttribute('data-normalized'), normalized.join(','));
  assert.equal(await page.locator('#pair-1-0').getAttribute('data-wspd'), await cell.getAttribute('data-wspd'));
  await page.evaluate(() => document.querySelector('#pair-matrix').scrollIntoView({ block: 'end' }));
  await screenshot(page, 'pair-matrix');
  assert.deepEqual(page.errors, []);
  await page.close();
});
