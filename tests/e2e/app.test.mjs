// End-to-end: the page, its Web Worker and the engine, in headless Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fillForm, launchBrowser, nativeSweep, openPage, screenshot, serveDist, shownInteger } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

test('a sweep run in the worker shows what the native engine computes', async () => {
  const page = await openPage(browser, server.url);
  await fillForm(page, {
    'pattern': 'random', 'cache-kib': 8, 'line-bytes': 128, 'ways': 2, 'replacement': 'fifo',
    'footprint-kib': 48, 'accesses-per-pass': 700000, 'seed': 1234, 'passes': 3,
  });
  await page.click('#run');
  await page.locator('#report').waitFor({ timeout: 30000 });

  const expected = nativeSweep(['--pattern', 'random', '--cache-bytes', '8192', '--line-bytes', '128', '--ways', '2',
    '--replacement', 'fifo', '--footprint-bytes', String(48 * 1024), '--accesses-per-pass', '700000',
    '--seed', '1234', '--passes', '3']);
  assert.equal(expected.accesses, 2100000);
  assert.equal(await shownInteger(page, 'result-accesses'), expected.accesses);
  assert.equal(await shownInteger(page, 'result-hits'), expected.hits);
  assert.equal(await shownInteger(page, 'result-misses'), expected.misses);
  assert.equal(await shownInteger(page, 'result-evictions'), expected.evictions);
  assert.equal(await page.locator('#progress').getAttribute('aria-valuenow'), '100');
  // The chart has one point per frame window that the worker streamed (200 per run).
  const points = await page.locator('.chart .series').getAttribute('points');
  assert.equal(points.trim().split(/\s+/).length, 200);
  await screenshot(page, 'sweep-done');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel stops a long run and the worker takes the next one', async () => {
  const page = await openPage(browser, server.url);
  // Ten billion accesses: minutes of work, so only Cancel can end it within the test.
  await fillForm(page, { 'pattern': 'random', 'accesses-per-pass': 1000000000, 'passes': 10 });
  await page.click('#run');
  const bar = page.locator('#progress');
  await page.waitForFunction(() => Number(document.querySelector('#progress')?.getAttribute('aria-valuenow')) >= 0
    && /Running: [1-9]/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 15000 });
  assert.ok(await bar.isVisible());
  await screenshot(page, 'sweep-running');
  await page.click('#cancel');
  await page.locator('#status', { hasText: 'Cancelled after' }).waitFor({ timeout: 5000 });
  assert.ok(await page.locator('#run').isEnabled());

  await fillForm(page, { 'accesses-per-pass': 10000, 'passes': 1 });
  await page.click('#run');
  await page.locator('#report').waitFor({ timeout: 10000 });
  assert.equal(await shownInteger(page, 'result-accesses'), 10000);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an invalid value is marked at its field and Run is disabled', async () => {
  const page = await openPage(browser, server.url);
  await fillForm(page, { 'ways': '3' });
  const field = page.locator('.field.invalid');
  await field.waitFor();
  assert.equal(await field.locator('input').getAttribute('id'), 'cache-kib');
  assert.match(await field.locator('.hint').textContent(), /multiple of line size x ways = 128 x 3 = 384 bytes/);
  assert.ok(await page.locator('#run').isDisabled());
  await screenshot(page, 'invalid-field');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a worker panic becomes a message and a fresh worker takes over', async () => {
  const page = await openPage(browser, `${server.url}?debug=1`);
  await page.click('#crash-worker');
  const status = page.locator('#status');
  await status.filter({ hasText: 'The simulation worker crashed' }).waitFor({ timeout: 5000 });
  assert.match(await status.textContent(), /asked the worker to crash/);
  await page.locator('#engine-status', { hasText: 'Engine: ready' }).waitFor({ timeout: 10000 });
  await screenshot(page, 'worker-crashed');

  await fillForm(page, { 'accesses-per-pass': 5000, 'passes': 2 });
  await page.click('#run');
  await page.locator('#report').waitFor({ timeout: 10000 });
  assert.equal(await shownInteger(page, 'result-accesses'), 10000);
  // The only errors allowed are the crashed worker's own.
  assert.deepEqual(page.errors.filter((e) => !/unreachable|asked the worker to crash/.test(e)), []);
  await page.close();
});

test('a panic on the page shows a banner instead of leaving it dead', async () => {
  const page = await openPage(browser, `${server.url}?debug=1`);
  await page.click('#crash-page');
  const banner = page.locator('#fatal');
  await banner.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await banner.textContent(), /internal error\. Reload the page.*the page was asked to crash/s);
  await screenshot(page, 'page-crashed');
  await page.close();
});
