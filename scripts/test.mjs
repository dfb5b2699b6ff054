#!/usr/bin/env node
// `npm test`: unit + API tests (vitest), then the browser journeys (Playwright) when Chromium is found.
// E2E_REQUIRED=1 turns a missing Chromium into a failure (CI). Ends with one line "N passed, N failed".
// `npm test -- <files or patterns>` runs just those: unit/API files through vitest, e2e/*.spec.ts files
// through Playwright (each runner only when a pattern is for it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

let passed = 0;
let failed = 0;
let ok = true;
// Named again just above the summary line, each with the start of its error: a CI log is often read
// from its end only.
const failures = [];
const relative = (file) => path.relative(process.cwd(), file);
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
/** The first lines of an error message, without colours, each line marked to be picked out by `.ci/run`. */
function why(message) {
  const lines = String(message ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  // Of the stack, only the first frame in the project's own code.
  const frame = /^\s*at /;
  const ours = lines.find((l) => frame.test(l) && !/node_modules|node:|<anonymous>/.test(l));
  return [...lines.filter((l) => !frame.test(l)).slice(0, 10), ...(ours ? [ours] : [])].map(
    (l) => `  | ${l}`,
  );
}

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
  if (fs.existsSync(vitestJson)) {
    const r = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    for (const file of r.testResults) {
      const bad = file.assertionResults.filter((a) => a.status === 'failed');
      for (const a of bad)
        failures.push(`${relative(file.name)} > ${a.fullName}`, ...why(a.failureMessages?.[0]));
      // A file that failed as a whole (an import error, a hook) has no failed test to name.
      if (bad.length === 0 && file.status === 'failed')
        failures.push(`${relative(file.name)}: failed as a whole`, ...why(file.message));
    }
  }
  if (vitestStatus !== 0) {
    ok = false;
    // Every test passed, yet vitest failed: an error thrown outside any test (an uncaught exception in
    // the code under test, say), which its report does not list.
    if (failures.length === 0)
      failures.push(
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
  console.log('SKIPPED: browser journeys (SKIP_E2E=1)');
} else if (!chromium) {
  console.log('SKIPPED: no Chromium (set CHROME_PATH or apt-get install -y chromium)');
  if (process.env.E2E_REQUIRED === '1') ok = false;
} else {
  if (run(['vite', 'build', '--logLevel', 'warn']) !== 0) ok = false;
  const pwJson = path.join(tmp, 'playwright.json');
  const pwStatus = run(['playwright', 'test', '--reporter=list,json', ...e2ePatterns], {
    CHROME_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
  });
  if (fs.existsSync(pwJson)) {
    const report = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
    const s = report.stats;
    passed += s.expected;
    failed += s.unexpected + (s.flaky ?? 0);
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        const bad = spec.tests.find((t) => t.status === 'unexpected' || t.status === 'flaky');
        if (!bad) continue;
        const error = bad.results.find((r) => r.error)?.error;
        failures.push(
          `${relative(path.join(report.config.rootDir, spec.file))}:${spec.line} > ${spec.title}`,
          ...why(error?.message),
          ...(error?.location ? [`  | at ${relative(error.location.file)}:${error.location.line}`] : []),
        );
      }
      for (const inner of suite.suites ?? []) walk(inner);
    };
    for (const suite of report.suites ?? []) walk(suite);
  }
  if (pwStatus !== 0) {
    ok = false;
    if (!failures.some((f) => f.startsWith('e2e/')))
      failures.push('playwright: failed outside any test (global setup, say)', `  | exit status ${pwStatus}`);
  }
}

fs.rmSync(tmp, { recursive: true, force: true });
if (!ok && failed === 0) failed = 1; // a runner crashed before it could count
for (const line of failures) console.log(line.startsWith('  | ') ? line : `FAILED: ${line}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
