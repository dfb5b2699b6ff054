// The differential test of the fast topology (issue #27): every fixture's analysis, and those of 3MF files
// built from them and of generated models reaching every branch (testing/fixture-analyses.ts), are the
// ones the code gave before it was made fast, bit for bit (JSON keeps every double exactly).

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURE_ANALYSES_FILE, fixtureAnalyses } from './testing/fixture-analyses.ts';

describe('analyses of the fixtures, before and after the fast topology', () => {
  it('are the recorded ones, bit for bit', async () => {
    const recorded = JSON.parse(fs.readFileSync(FIXTURE_ANALYSES_FILE, 'utf8')) as Record<string, unknown>;
    const now = await fixtureAnalyses();
    // Every recorded case still runs, and the 3MF ones are there (a quarter of them at least).
    expect(now.map(([name]) => name)).toEqual(Object.keys(recorded));
    expect(now.filter(([name]) => name.endsWith('.3mf')).length).toBeGreaterThan(now.length / 4);
    for (const [name, analysis] of now)
      expect({ name, analysis }).toEqual({ name, analysis: recorded[name] });
  });
});
