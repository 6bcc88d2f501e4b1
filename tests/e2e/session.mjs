// One served dist/ and one Chromium per test file: the hooks every browser test file needs.
// Kept apart from harness.mjs, which the benchmark scripts import without node:test.
import { after, before } from 'node:test';
import { launchBrowser, serveDist } from './harness.mjs';

/**
 * Registers the file's `before` and `after` hooks; the returned object's `server` and
 * `browser` are set once `before` has run.
 */
export function useBrowser() {
  const session = { server: undefined, browser: undefined };
  before(async () => {
    session.server = await serveDist();
    session.browser = await launchBrowser();
  });
  after(async () => {
    await session.browser?.close();
    session.server?.stop();
  });
  return session;
}
