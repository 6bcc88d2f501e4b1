// The app with the keyboard alone: from page load, choose a workload, run it, open the share
// box, move through the run with the timeline and the scrubber, and switch views with the tab
// bar's arrow keys. Focus must move where a person expects and stay visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeRun, openPage, shownInteger, waitForApp } from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

/** What has keyboard focus: its id, role and whether a focus ring is drawn around it. */
function focused(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    const style = getComputedStyle(e);
    return {
      id: e.id, tag: e.tagName.toLowerCase(), role: e.getAttribute('role'), text: e.textContent.trim(),
      ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  });
}

/** Presses `key` until `wanted(focus)` holds, at most `limit` times; resolves to that focus. */
async function pressUntil(page, key, wanted, limit, what) {
  const visited = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    const focus = await focused(page);
    if (wanted(focus)) return focus;
    visited.push(focus.id || focus.role || focus.tag);
  }
  assert.fail(`${what} not reached within ${limit} presses of ${key}; focus went ${visited.join(' → ')}`);
}

test('a keyboard walk-through: choose a workload, run it, share it, watch it, switch views', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  const source = await page.inputValue('#source');

  // The first stops: the skip link, the header's link, then the one stop of the tab bar.
  await page.keyboard.press('Tab');
  assert.match((await focused(page)).text, /Skip to Run/);
  await pressUntil(page, 'Tab', (f) => f.role === 'tab', 2, 'the tab bar');
  assert.equal((await focused(page)).id, 'tab-simulate', 'the selected tab is the tab bar\'s only stop');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'workload', 'then the set-up, first field first');

  // Choosing from a closed menu by typing, and a size by typing over the field.
  await page.keyboard.type('vecadd');
  await page.waitForFunction(() => document.querySelector('#workload').value === 'vecadd');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'size');
  const size = await page.locator('#size').getAttribute('min');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(size);

  // On to Run: Tab passes the kernel editor without typing into it.
  const run = await pressUntil(page, 'Tab', (f) => f.id === 'run', 80, 'the Run button');
  assert.ok(run.ring, 'the focused Run button has a focus ring');
  const vecaddSource = await page.inputValue('#source');
  assert.notEqual(vecaddSource, source, 'the workload was loaded');
  assert.doesNotMatch(vecaddSource, /\t/, 'tabbing through the editor left the file alone');
  await page.keyboard.press('Enter');
  await page.locator('#stat-cycles').waitFor({ timeout: 60000 });
  assert.equal(await shownInteger(page, 'stat-cycles'),
    nativeRun(['--workload', 'vecadd', '--size', size, '--gpu', 'fermi-gtx480']).cycles);
  assert.equal((await focused(page)).id, 'run', 'focus stays on Run through the run');

  // The share box opens from its button and the link is the next stop.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'cancel');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'share');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#share', 'aria-expanded'), 'true');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'share-url');
  assert.match(await page.inputValue('#share-url'), new RegExp(`w=vecadd&n=${size}`));

  // The timeline is a slider: Home and End move the playback cursor to the run's ends.
  const slider = await pressUntil(page, 'Tab', (f) => f.role === 'slider', 20, 'the timeline');
  assert.ok(slider.ring, 'the focused timeline has a focus ring');
  const timeline = page.locator('#timeline [role="slider"]');
  await page.keyboard.press('Home');
  assert.equal(await timeline.getAttribute('aria-valuenow'), '0');
  assert.match(await page.locator('#playback-cycle').textContent(), /cycle 0$/);
  await page.keyboard.press('End');
  assert.equal(await timeline.getAttribute('aria-valuenow'), await timeline.getAttribute('aria-valuemax'));
  await page.keyboard.press('Shift+ArrowLeft');
  assert.ok(Number(await timeline.getAttribute('aria-valuenow')) < Number(await timeline.getAttribute('aria-valuemax')));

  // Playback: Play and the scrubber answer the keyboard.
  await pressUntil(page, 'Tab', (f) => f.id === 'play', 10, 'the Play button');
  await pressUntil(page, 'Tab', (f) => f.id === 'scrubber', 1, 'the scrubber');
  await page.keyboard.press('Home');
  assert.equal(await page.inputValue('#scrubber'), '0');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('#scrubber'), '1');
  assert.doesNotMatch(await page.locator('#playback-cycle').textContent(), /cycle 0$/);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Space');
  await page.locator('#play', { hasText: 'Pause' }).waitFor();
  await page.keyboard.press('Space');
  await page.locator('#play', { hasText: 'Play' }).waitFor();

  // Back up to the tab bar; the arrow keys select and focus the neighbouring views.
  await pressUntil(page, 'Shift+Tab', (f) => f.role === 'tab', 120, 'the tab bar');
  await page.keyboard.press('ArrowRight');
  assert.equal((await focused(page)).id, 'tab-compare');
  await page.locator('#view-compare').waitFor();
  assert.equal(await page.getAttribute('#tab-compare', 'aria-selected'), 'true');
  await page.keyboard.press('End');
  assert.equal((await focused(page)).id, 'tab-gallery');
  await page.locator('#view-gallery').waitFor();
  await page.keyboard.press('ArrowRight');
  assert.equal((await focused(page)).id, 'tab-simulate', 'the arrows wrap around');
  await page.locator('#view-simulate').waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.locator('#view-gallery').waitFor();
  const reproduce = await pressUntil(page, 'Tab', (f) => f.text === 'Reproduce', 40, 'a gallery card\'s Reproduce');
  assert.ok(reproduce.ring);

  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the skip link takes the keyboard straight to Run', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal((await focused(page)).id, 'run-panel');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'run');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('in the editor, Tab indents once the person has typed there, and Escape then Tab leaves', async () => {
  const page = await openPage(session.browser, session.server.url);
  await waitForApp(page);
  await page.focus('#source');
  await page.keyboard.press('End');
  const before = await page.inputValue('#source');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'source', 'Tab indents after a key pressed in the editor');
  assert.notEqual(await page.inputValue('#source'), before);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.notEqual((await focused(page)).id, 'source', 'Escape, then Tab, moves on');
  assert.deepEqual(page.errors, []);
  await page.close();
});
