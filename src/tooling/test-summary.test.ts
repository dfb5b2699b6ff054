import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import type { JsonTestResults } from 'vitest/reporters';
import { combine, fromPlaywright, fromVitest, summaryLines } from '../../scripts/test-summary.mjs';

// `npm test`'s last lines (scripts/test-summary.mjs): failures, then what was skipped and why, then the one
// line `.ci/run` adds up.

const ROOT = '/repo';
const REDIS = 'Redis not reachable at redis://127.0.0.1:6379';

const vitestReport = {
  numPassedTests: 3,
  numFailedTests: 1,
  testResults: [
    {
      name: `${ROOT}/src/a.test.ts`,
      status: 'failed',
      message: '',
      assertionResults: [
        { status: 'passed', title: 'works', fullName: 'a works', ancestorTitles: ['a'], meta: {} },
        {
          status: 'failed',
          title: 'breaks',
          fullName: 'a breaks',
          ancestorTitles: ['a'],
          meta: {},
          failureMessages: ['AssertionError: expected 1 to be 2\n    at /repo/src/a.test.ts:9:5'],
        },
      ],
    },
    {
      name: `${ROOT}/src/server/auth/redis-attempt-limiter.test.ts`,
      status: 'passed',
      message: '',
      assertionResults: [
        {
          status: 'skipped',
          title: 'x',
          fullName: 'R x',
          ancestorTitles: ['R'],
          meta: { skipReason: REDIS },
        },
        {
          status: 'skipped',
          title: 'y',
          fullName: 'R y',
          ancestorTitles: ['R'],
          meta: { skipReason: REDIS },
        },
      ],
    },
    {
      name: `${ROOT}/src/server/http/rate-limit-store.test.ts`,
      status: 'passed',
      message: '',
      assertionResults: [
        { status: 'passed', title: 'p', fullName: 'p', ancestorTitles: [], meta: {} },
        {
          status: 'skipped',
          title: 'z',
          fullName: 'S z',
          ancestorTitles: ['S'],
          meta: { skipReason: REDIS },
        },
      ],
    },
    {
      name: `${ROOT}/src/server/models/cleanup-race.test.ts`,
      status: 'passed',
      message: '',
      assertionResults: [
        {
          status: 'skipped',
          title: 'races',
          fullName: 'the same race (PostgreSQL only) races',
          ancestorTitles: ['the same race (PostgreSQL only)'],
          meta: {},
        },
        { status: 'passed', title: 'q', fullName: 'q', ancestorTitles: [], meta: {} },
      ],
    },
  ],
} as unknown as JsonTestResults;

const playwrightReport = {
  config: { rootDir: `${ROOT}/e2e` },
  stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 1 },
  suites: [
    {
      specs: [
        {
          file: 'admin-settings.spec.ts',
          line: 139,
          title: 'screenshots of each settings tab',
          tests: [
            {
              status: 'skipped',
              annotations: [{ type: 'skip', description: 'SETTINGS_SHOTS_DIR is not set' }],
              results: [],
            },
          ],
        },
        {
          file: 'admin-settings.spec.ts',
          line: 20,
          title: 'saves',
          tests: [{ status: 'expected', results: [] }],
        },
      ],
    },
  ],
} as unknown as JSONReport;

/** The pattern `.ci/run` picks its count with (`grep -E '…'`), read from the script itself. */
function ciCountLine(): RegExp {
  const ci = readFileSync(join(import.meta.dirname, '..', '..', '.ci', 'run'), 'utf8');
  const pattern = ci.match(/grep -E '(\^\[0-9\][^']*passed[^']*)'/)?.[1];
  if (!pattern) throw new Error('.ci/run no longer greps a "passed, failed" line');
  return new RegExp(pattern);
}

describe("npm test's summary", () => {
  const outcome = combine(fromVitest(vitestReport, ROOT), fromPlaywright(playwrightReport, ROOT));
  const lines = summaryLines(outcome);

  it('names the failures, then each skip with its count, files and reason, then the counts', () => {
    expect(lines).toEqual([
      'FAILED: src/a.test.ts > a breaks',
      '  | AssertionError: expected 1 to be 2',
      '  |     at /repo/src/a.test.ts:9:5',
      `SKIPPED: 3 tests (${REDIS}): 2 in src/server/auth/redis-attempt-limiter.test.ts, 1 in src/server/http/rate-limit-store.test.ts`,
      'SKIPPED: 1 test ("the same race (PostgreSQL only)"): 1 in src/server/models/cleanup-race.test.ts',
      'SKIPPED: 1 test (SETTINGS_SHOTS_DIR is not set): 1 in e2e/admin-settings.spec.ts',
      '5 passed, 1 failed',
    ]);
  });

  it('ends with the one line .ci/run adds up, and no other line looks like it', () => {
    const count = ciCountLine();
    expect(lines.at(-1)).toMatch(count);
    expect(lines.slice(0, -1).filter((l) => count.test(l))).toEqual([]);
  });

  it('names a runner left out as a whole', () => {
    const none = combine(fromVitest({ ...vitestReport, testResults: [] }, ROOT));
    expect(summaryLines(none, ['browser journeys (SKIP_E2E=1)'])).toEqual([
      'SKIPPED: browser journeys (SKIP_E2E=1)',
      '3 passed, 1 failed',
    ]);
  });
});
