// Types of scripts/test-summary.mjs (plain JavaScript, run by `node scripts/test.mjs` without a loader), for its
// test in src/tooling.
import type { JSONReport } from '@playwright/test/reporter';
import type { JsonTestResults } from 'vitest/reporters';

/** One skipped test: its file and why (a declared reason, or the quoted title of its suite). */
export type Skip = { file: string; reason: string };
export type Outcome = { passed: number; failed: number; failures: string[]; skipped: Skip[] };

export function why(message: unknown): string[];
export function emptyOutcome(): Outcome;
export function fromVitest(report: JsonTestResults, cwd?: string): Outcome;
export function fromPlaywright(report: JSONReport, cwd?: string): Outcome;
export function combine(...outcomes: Outcome[]): Outcome;
export function skippedLines(skipped: Skip[]): string[];
export function summaryLines(outcome: Outcome, notes?: string[]): string[];
