// The engine in the browser: the same inputs must give the same report as natively, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeBenchReport, openPage, runBenchInWorker } from './harness.mjs';
import { useBrowser } from './session.mjs';

const session = useBrowser();

test('the worker reports exactly what the native engine reports', async () => {
  const page = await openPage(session.browser, session.server.url);
  for (const workload of ['streaming', 'thrashing', 'compute', 'divergent']) {
    const expected = nativeBenchReport(workload);
    const { report } = await runBenchInWorker(page, workload, true);
    assert.equal(report.kind, 'Simulation');
    delete report.kind;
    assert.ok(expected.warp_instructions > 1000, `${workload} does real work`);
    assert.deepEqual(report, expected, `${workload}: wasm and native reports differ`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
