// Editor benchmark: large edits in the kernel editor against the same edits in a bare
// <textarea> added to the same page, in headless Chromium (release dist/). Prints milliseconds
// and the ratio; asserts nothing about speed.
//
// Each edit is timed from the input (keys through the browser's input pipeline, or one input
// event) to the next frame after it. "select all + Backspace" is what a person does to clear a
// file; the bare textarea shows how much of it is the browser's own editing.
//
// Usage: make build && node tests/e2e/editor-bench.mjs [lines...]
import { launchBrowser, openPage, serveDist, waitForApp } from './harness.mjs';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const server = await serveDist();
const browser = await launchBrowser();

function text(lines) {
  const out = [];
  for (let i = 0; i < lines; i++) out.push(`    acc += a[${i} % n] * ${i % 97}.0f;  // line ${i}`);
  return out.join('\n');
}

const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

/** Milliseconds for `edit` on the element `selector`, which first holds `lines` lines. */
async function timed(lines, selector, edit) {
  const page = await openPage(browser, server.url);
  await waitForApp(page);
  await page.evaluate(({ content, bare }) => {
    let element = document.querySelector('#source');
    if (bare) {
      element = document.createElement('textarea');
      element.id = 'bare';
      element.setAttribute('wrap', 'off');
      element.style.cssText = 'position: fixed; top: 0; left: 0; width: 600px; height: 400px; z-index: 9';
      document.body.append(element);
    }
    element.value = content;
    element.dispatchEvent(new InputEvent('input', { bubbles: true }));
  }, { content: text(lines), bare: selector === '#bare' });
  await frame(page);
  await page.click(selector);
  const started = Date.now();
  await edit(page, selector, lines);
  await frame(page);
  const ms = Date.now() - started;
  await page.close();
  return ms;
}

const edits = {
  'select all + Backspace': async (page) => {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  },
  'replace all (one input event)': async (page, selector, lines) => {
    await page.evaluate(({ selector, content }) => {
      const element = document.querySelector(selector);
      element.value = content;
      element.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }, { selector, content: text(lines).replaceAll('acc', 'sum') });
  },
};

try {
  console.log('| lines | edit | editor (ms) | bare textarea (ms) | ratio |');
  console.log('|---:|---|---:|---:|---:|');
  for (const lines of sizes.length ? sizes : [1000, 3000]) {
    for (const [name, edit] of Object.entries(edits)) {
      const editor = await timed(lines, '#source', edit);
      const bare = await timed(lines, '#bare', edit);
      console.log(`| ${lines} | ${name} | ${editor} | ${bare} | ${(editor / Math.max(bare, 1)).toFixed(2)} |`);
    }
  }
} finally {
  await browser.close();
  server.close?.();
}
