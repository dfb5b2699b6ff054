#!/usr/bin/env node
// `npm test`: unit + API tests (vitest), then the browser journeys (Playwright) when Chromium is found.
// E2E_REQUIRED=1 turns a missing Chromium into a failure (CI). Ends with the failed and skipped tests, then
// one line "N passed, N failed" (scripts/test-summary.mjs).
// `npm test -- <files or patterns>` runs just those: unit/API files through vitest, e2e/*.spec.ts files
// through Playwright (each runner only when a pattern is for it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { combine, emptyOutcome, fromPlaywright, fromVitest, summaryLines } from './test-summary.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-tests-'));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const run = (args, env = {}) =>
  spawnSync(npx, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const patterns = process.argv.slice(2);
const isE2e = (p) => p.startsWith('e2e') || p.endsWith('.spec.ts');
const unitPatterns = patterns.filter((p) => !isE2e(p));
const e2ePatterns = patterns.filter(isE2e);
const runUnit = patterns.length === 0 || unitPatterns.length > 0;
const runE2e = patterns.length === 0 || e2ePatterns.length > 0;

let ok = true;
let unit = emptyOutcome();
let e2e = emptyOutcome();
/** Whole runners left out, named again at the end. */
const notes = [];

if (runUnit) {
  const vitestJson = path.join(tmp, 'vitest.json');
  const vitestStatus = run([
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
    ...unitPatterns,
  ]);
  if (fs.existsSync(vitestJson)) unit = fromVitest(JSON.parse(fs.readFileSync(vitestJson, 'utf8')));
  if (vitestStatus !== 0) {
    ok = false;
    // Every test passed, yet vitest failed: an error thrown outside any test (an uncaught exception in
    // the code under test, say), which its report does not list.
    if (unit.failures.length === 0)
      unit.failures.push(
        'vitest: an error outside any test (see "Unhandled Errors" above)',
        `  | vitest exited with status ${vitestStatus}`,
      );
  }
}

const chromium = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && fs.existsSync(p),
);
if (!runE2e) {
  // Only unit/API patterns were given.
} else if (process.env.SKIP_E2E === '1') {
  notes.push('browser journeys (SKIP_E2E=1)');
  console.log(`SKIPPED: ${notes.at(-1)}`);
} else if (!chromium) {
  notes.push('no Chromium (set CHROME_PATH or apt-get install -y chromium)');
  console.log(`SKIPPED: ${notes.at(-1)}`);
  if (process.env.E2E_REQUIRED === '1') ok = false;
} else {
  if (run(['vite', 'build', '--logLevel', 'warn']) !== 0) ok = false;
  const pwJson = path.join(tmp, 'playwright.json');
  const pwStatus = run(['playwright', 'test', '--reporter=list,json', ...e2ePatterns], {
    CHROME_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
  });
  if (fs.existsSync(pwJson)) e2e = fromPlaywright(JSON.parse(fs.readFileSync(pwJson, 'utf8')));
  if (pwStatus !== 0) {
    ok = false;
    if (e2e.failures.length === 0)
      e2e.failures.push(
        'playwright: failed outside any test (global setup, say)',
        `  | exit status ${pwStatus}`,
      );
  }
}

fs.rmSync(tmp, { recursive: true, force: true });
const outcome = combine(unit, e2e);
if (!ok && outcome.failed === 0) outcome.failed = 1; // a runner crashed before it could count
for (const line of summaryLines(outcome, notes)) console.log(line);
process.exit(ok ? 0 : 1);
