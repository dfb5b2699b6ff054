import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenCitations, citationsIn, testTitlesIn, titleMatches } from './doc-citations.ts';

// Every test the docs cite exists under the title they give (docs/security.md names its tests so).

const ROOT = join(import.meta.dirname, '..', '..');
// biome-ignore lint/suspicious/noTemplateCurlyInString: a template's placeholder as its source spells it.
const STORE = '${store}';

describe('the docs’ test citations', () => {
  it('name only test files and titles that exist', () => {
    expect(brokenCitations(ROOT)).toEqual([]);
  });

  it('are read from a row: files, titles with quotes inside, cut-short titles and files alone', () => {
    const row =
      '| 26. x | y | `src/mesh/detect.test.ts` "refuses short files, without a RangeError", "reads a binary ' +
      'STL, even when its header starts with "solid""; `src/mesh/a.test.ts` (all cases, "lets an admin (10) ' +
      'in"); `e2e/x.spec.ts`; `src/b.test.ts` "answers 422 "took too long"…" |';
    expect(citationsIn('docs/x.md', row).map((c) => [c.file, c.title])).toEqual([
      ['src/mesh/detect.test.ts', 'refuses short files, without a RangeError'],
      ['src/mesh/detect.test.ts', 'reads a binary STL, even when its header starts with "solid"'],
      ['src/mesh/a.test.ts', 'lets an admin (10) in'],
      ['e2e/x.spec.ts', null],
      ['src/b.test.ts', 'answers 422 "took too long"…'],
    ]);
  });

  it('find titles of it, test, describe and their chains, templates as written, not steps', () => {
    const source = [
      "describe('a group', () => {",
      "  it('can\\'t fail', () => {});",
      '  it.each([1])("takes %s", () => {});',
      `  describe.skipIf(!redis)(\`on ${STORE} (Redis)\`, () => {});`,
      "  test.describe('journeys', () => { test('a journey', async () => { await test.step('a step', () => {}); }); });",
      '  expect(f).toBe(1); test.setTimeout(5);',
      '});',
    ].join('\n');
    expect(testTitlesIn('x.test.ts', source)).toEqual([
      'a group',
      "can't fail",
      'takes %s',
      `on ${STORE} (Redis)`,
      'journeys',
      'a journey',
    ]);
  });

  it('match a title whole, or its start when the citation ends with "…"', () => {
    const titles = [
      'answers the same 200 body; only the known one gets mail',
      'comes back in every mail’s part',
    ];
    expect(titleMatches('answers the same 200 body; only the known one gets mail', titles)).toBe(true);
    expect(titleMatches('answers the same 200 body…', titles)).toBe(true);
    expect(titleMatches('answers the same 200 body', titles)).toBe(false);
    expect(titleMatches("comes back in every mail's part", titles)).toBe(true);
    expect(titleMatches('answers a different body…', titles)).toBe(false);
  });
});
