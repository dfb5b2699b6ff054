import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bigAsciiStl, bigBinaryStl, bigObj, concatChunks } from './testing/generate.ts';
import { bigSphere3mf } from './testing/threemf.ts';

const probe = fileURLToPath(new URL('./testing/deopt-probe.ts', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keep-shapes-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Names of the functions and methods of the analysis' own modules (src/mesh, tests and test helpers aside). */
function meshFunctionNames(): Set<string> {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const names = new Set<string>();
  for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.startsWith('testing')) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(
      /\bfunction\*?\s+(\w+)|^\s+(?:(?:private|protected|public|static|override|readonly|async|get|set)\s+)*(\w+)\s*\(/gm,
    ))
      names.add((m[1] ?? m[2])!);
  }
  return names;
}

/** The functions whose optimized code V8 threw away because objects it checked had died. */
function weakDeopts(output: string): string[] {
  const names: string[] = [];
  for (const line of output.split('\n')) {
    const deopt = /<SharedFunctionInfo ?([^>]*)>\).*reason: weak objects/.exec(line);
    if (deopt) names.push(deopt[1] || '(anonymous)');
  }
  return names;
}

describe('kept shapes (keep-shapes.ts)', () => {
  it('keep the optimized code of every analysis across a collection between two analyses', () => {
    const MB = 1 << 20;
    fs.writeFileSync(path.join(dir, 'binary.stl'), concatChunks(bigBinaryStl(4 * MB)));
    fs.writeFileSync(path.join(dir, 'ascii.stl'), concatChunks(bigAsciiStl(4 * MB)));
    fs.writeFileSync(path.join(dir, 'sphere.obj'), concatChunks(bigObj(4 * MB)));
    fs.writeFileSync(path.join(dir, 'sphere.3mf'), bigSphere3mf(200, 200, 'prusa'));
    const run = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt', '--import', 'tsx', probe, dir], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(run.status, run.stderr).toBe(0);
    const lost = weakDeopts(run.stdout);
    // The trace sees such a loss: a class nothing keeps loses its optimized method at each collection.
    expect(lost).toContain('controlSum');
    // Binary and ASCII STL, OBJ and 3MF, each after a full collection: nothing of theirs thrown away.
    const own = meshFunctionNames();
    expect(own).toContain('indexedRun');
    expect(own).toContain('weldIndexed');
    expect(lost.filter((name) => own.has(name))).toEqual([]);
  }, 60_000);
});
