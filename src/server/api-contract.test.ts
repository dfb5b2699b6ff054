import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../shared/api.ts';
import { refusesMethod } from './http/route-helpers.ts';
import { buildTestApp, type TestApp } from './testing/test-app.ts';

// One contract for client and server (src/shared/api.ts): every path the client's code names is a route
// of the table, every route of the table is on the server, and the type check refuses a call to a route
// the table does not have.

const CLIENT_DIR = join(import.meta.dirname, '..', 'client');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Every `/api/...` path literal in the client's code, `${...}` as a parameter, without a query string. */
function clientPaths(): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  for (const file of sourceFiles(CLIENT_DIR)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['`](\/api\/[^'`?]*)/g)) {
      found.push({ file: relative(CLIENT_DIR, file), path: m[1]!.replace(/\$\{[^}]*\}/g, ':param') });
    }
  }
  return found;
}

const tablePatterns = Object.values(API).map((r) => r.path.replace(/:[A-Za-z]+/g, ':param'));

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the client/server contract', () => {
  it('finds every path the client calls in the shared route table', () => {
    const paths = clientPaths();
    // The client does call the server from many modules; an empty list would mean the scan is broken.
    expect(paths.length).toBeGreaterThan(15);
    const unknown = paths.filter((p) => !tablePatterns.includes(p.path));
    expect(unknown).toEqual([]);
  });

  it('finds every route of the table on the server, with its method', () => {
    const missing = Object.entries(API)
      .filter(
        ([, r]) => !t.app.hasRoute({ method: r.method, url: r.path }) || refusesMethod(r.method, r.path),
      )
      .map(([name, r]) => `${name}: ${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('fails the type check on a call to a route the server lacks, or with a body it does not take', () => {
    const probe = join(CLIENT_DIR, `contract-probe-${process.pid}.ts`);
    writeFileSync(
      probe,
      [
        "import { getJson, postJson } from './api.ts';",
        'export function probe(id: string) {',
        "  void getJson('/api/checkout');", // line 3: no such route
        "  void postJson('/api/create-checkout-session.php', { cart: [] });", // line 4: wrong body
        "  void getJson('/api/create-checkout-session.php');", // line 5: a POST route called by GET
        // line 6: fine (a model's file; written so that the linter does not take it for a lost template)
        '  void getJson(`/api/models/$' + '{id}/file`);',
        "  void postJson('/api/quote', { modelId: id, strength: 2 });", // line 7: fine
        '}',
      ].join('\n'),
    );
    try {
      const config = ts.getParsedCommandLineOfConfigFile(
        join(import.meta.dirname, '..', '..', 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
      );
      const program = ts.createProgram([probe], config!.options);
      const errorLines = ts
        .getPreEmitDiagnostics(program, program.getSourceFile(probe))
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line);
      expect(errorLines.sort()).toEqual([2, 3, 4]);
    } finally {
      rmSync(probe, { force: true });
    }
  }, 60_000);
});
