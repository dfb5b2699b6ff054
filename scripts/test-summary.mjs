// What `npm test` (scripts/test.mjs) says at its end, from the runners' JSON reports: the failed tests with
// the start of their errors, the skipped ones with why, then one line "N passed, N failed" (which `.ci/run`
// reads, so it stays exactly that). A CI log is often read from its end only.
import path from 'node:path';

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

/** The first lines of an error message, without colours, each line marked to be picked out by `.ci/run`. */
export function why(message) {
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

export const emptyOutcome = () => ({ passed: 0, failed: 0, failures: [], skipped: [] });

const SKIPPED = new Set(['skipped', 'pending', 'todo']);

/**
 * Vitest's JSON report. A skipped test's reason is its `meta.skipReason` (a suite declares it with its
 * `skip` option, as src/server/testing/redis.ts does); without one, the title of the suite it is in.
 */
export function fromVitest(report, cwd = process.cwd()) {
  const out = emptyOutcome();
  out.passed = report.numPassedTests;
  out.failed = report.numFailedTests;
  for (const file of report.testResults) {
    const name = path.relative(cwd, file.name);
    const bad = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of bad) out.failures.push(`${name} > ${a.fullName}`, ...why(a.failureMessages?.[0]));
    // A file that failed as a whole (an import error, a hook) has no failed test to name.
    if (bad.length === 0 && file.status === 'failed')
      out.failures.push(`${name}: failed as a whole`, ...why(file.message));
    for (const a of file.assertionResults.filter((r) => SKIPPED.has(r.status))) {
      const reason =
        a.meta?.skipReason ?? (a.status === 'todo' ? 'todo' : `"${a.ancestorTitles[0] ?? a.title}"`);
      out.skipped.push({ file: name, reason });
    }
  }
  return out;
}

/** Playwright's JSON report: a skipped test's reason is its skip annotation's description. */
export function fromPlaywright(report, cwd = process.cwd()) {
  const out = emptyOutcome();
  const s = report.stats;
  out.passed = s.expected;
  out.failed = s.unexpected + (s.flaky ?? 0);
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const file = path.relative(cwd, path.join(report.config.rootDir, spec.file));
      for (const t of spec.tests) {
        if (t.status !== 'skipped') continue;
        const notes = [...(t.annotations ?? []), ...t.results.flatMap((r) => r.annotations ?? [])];
        const note = notes.find((a) => (a.type === 'skip' || a.type === 'fixme') && a.description);
        out.skipped.push({ file, reason: note?.description ?? `"${spec.title}"` });
      }
      const bad = spec.tests.find((t) => t.status === 'unexpected' || t.status === 'flaky');
      if (!bad) continue;
      const error = bad.results.find((r) => r.error)?.error;
      out.failures.push(
        `${file}:${spec.line} > ${spec.title}`,
        ...why(error?.message),
        ...(error?.location
          ? [`  | at ${path.relative(cwd, error.location.file)}:${error.location.line}`]
          : []),
      );
    }
    for (const inner of suite.suites ?? []) walk(inner);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

/** Both runners' outcomes as one. */
export function combine(...outcomes) {
  return outcomes.reduce(
    (all, o) => ({
      passed: all.passed + o.passed,
      failed: all.failed + o.failed,
      failures: [...all.failures, ...o.failures],
      skipped: [...all.skipped, ...o.skipped],
    }),
    emptyOutcome(),
  );
}

const tests = (n) => `${n} ${n === 1 ? 'test' : 'tests'}`;

/** One line per reason: how many tests it skipped, and in which files (with how many in each). */
export function skippedLines(skipped) {
  const byReason = new Map();
  for (const { file, reason } of skipped) {
    const files = byReason.get(reason) ?? new Map();
    files.set(file, (files.get(file) ?? 0) + 1);
    byReason.set(reason, files);
  }
  return [...byReason].map(([reason, files]) => {
    const total = [...files.values()].reduce((a, b) => a + b, 0);
    const where = [...files].map(([file, n]) => `${n} in ${file}`).join(', ');
    return `SKIPPED: ${tests(total)} (${reason}): ${where}`;
  });
}

/**
 * The end of `npm test`'s output: each failure, each skip (`notes` are whole runners left out, such as the
 * browser journeys without Chromium), then "N passed, N failed" alone on the last line.
 */
export function summaryLines(outcome, notes = []) {
  return [
    ...outcome.failures.map((line) => (line.startsWith('  | ') ? line : `FAILED: ${line}`)),
    ...notes.map((note) => `SKIPPED: ${note}`),
    ...skippedLines(outcome.skipped),
    `${outcome.passed} passed, ${outcome.failed} failed`,
  ];
}
