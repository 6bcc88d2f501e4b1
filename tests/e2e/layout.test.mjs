// The page on a phone (390×844 CSS pixels at 3 device pixels each) and a tablet (768×1024):
// panels stack, nothing widens the page beyond the screen (wide tables and canvases scroll in
// their own frames), and canvases are drawn at the screen's pixel density. Screenshots of each
// view land in artifacts/ as narrow-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choose, openPage, runAndWait, screenshot, waitForApp } from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

// Not Chromium's mobile emulation: it zooms out of a page that overflows, which would hide
// the very overflow checked for here.
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };
const TABLET = { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2 };

/** Fails, naming the widest elements, if the page scrolls sideways. */
async function assertNoSidewaysScroll(page, where) {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((e) => !e.parentElement?.closest('.editor-frame, .table-scroll, .viz-canvas-frame, .kernels'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprits };
  });
  const screen = page.viewportSize().width;
  assert.ok(scrollWidth <= innerWidth && innerWidth === screen,
    `${where}: the page is ${scrollWidth} px wide on a ${screen} px screen: ${culprits.join(', ')}`);
}

/** Every canvas fits its frame and has a backing store of the screen's density. */
async function assertCanvasesFitAndAreSharp(page, where) {
  const canvases = await page.evaluate(() => [...document.querySelectorAll('canvas')].map((c) => ({
    id: c.closest('figure')?.id, css: c.getBoundingClientRect().width, frame: c.parentElement.clientWidth,
    pixels: c.width, ratio: window.devicePixelRatio,
  })));
  assert.ok(canvases.length >= 3, `${where}: the timeline, warp slots and L1 are drawn`);
  for (const c of canvases) {
    assert.ok(c.css <= c.frame + 0.5, `${where}: the ${c.id} canvas (${c.css} px) fits its frame (${c.frame} px)`);
    assert.equal(c.pixels, Math.round(c.css * c.ratio), `${where}: the ${c.id} canvas has ${c.ratio} pixels per CSS pixel`);
  }
}

test('on a phone every view fits the screen\'s width, before and after runs', async () => {
  const page = await openPage(session.browser, session.server.url, PHONE);
  await waitForApp(page);
  await assertNoSidewaysScroll(page, 'Simulate');
  await screenshot(page, 'narrow-simulate');

  await choose(page, 'workload', 'vecadd');
  await page.fill('#size', await page.locator('#size').getAttribute('min'));
  await runAndWait(page);
  await assertNoSidewaysScroll(page, 'Simulate after a run');
  await assertCanvasesFitAndAreSharp(page, 'Simulate after a run');
  await page.locator('#run-panel').scrollIntoViewIfNeeded();
  await screenshot(page, 'narrow-run');

  await page.click('#tab-compare');
  await assertNoSidewaysScroll(page, 'Compare');
  await page.click('#compare-run');
  await page.locator('#cmp-cycles-1').waitFor({ timeout: 60000 });
  await assertNoSidewaysScroll(page, 'Compare after its runs');
  await screenshot(page, 'narrow-compare');

  await page.click('#tab-pairs');
  await assertNoSidewaysScroll(page, 'Co-runs');
  await screenshot(page, 'narrow-pairs');

  await page.click('#tab-gallery');
  await assertNoSidewaysScroll(page, 'Paper gallery');
  await screenshot(page, 'narrow-gallery');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('on a tablet the views fit too, and the set-up wraps onto rows', async () => {
  const page = await openPage(session.browser, session.server.url, TABLET);
  await waitForApp(page);
  for (const tab of ['compare', 'pairs', 'gallery', 'simulate']) {
    await page.click(`#tab-${tab}`);
    await page.locator(`#view-${tab}`).waitFor();
    await assertNoSidewaysScroll(page, tab);
  }
  const rows = await page.evaluate(() => new Set([...document.querySelectorAll('.setup-bar select, .setup-bar input')]
    .map((e) => Math.round(e.getBoundingClientRect().top))).size);
  assert.ok(rows >= 2, `the set-up's fields wrap (${rows} rows)`);
  await screenshot(page, 'tablet-simulate');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('narrowing the window after a run shrinks the drawings with it', async () => {
  const page = await openPage(session.browser, session.server.url, { viewport: { width: 1440, height: 900 } });
  await waitForApp(page);
  await choose(page, 'workload', 'vecadd');
  await page.fill('#size', await page.locator('#size').getAttribute('min'));
  await runAndWait(page);
  const timelineWidth = () => page.evaluate(() => document.querySelector('#timeline canvas').getBoundingClientRect().width);
  const wide = await timelineWidth();
  for (const width of [1280, 1024, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction((w) => document.querySelector('#timeline canvas').getBoundingClientRect().width < w,
      wide, { timeout: 5000 }).catch(() => {});
    await assertNoSidewaysScroll(page, `narrowed to ${width} px`);
    await assertCanvasesFitAndAreSharp(page, `narrowed to ${width} px`);
  }
  assert.ok(await timelineWidth() < wide, 'the timeline was redrawn narrower');
  assert.deepEqual(page.errors, []);
  await page.close();
});
