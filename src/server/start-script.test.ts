import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without types
import { builtFingerprint, fingerprint } from '../../scripts/build-once.mjs';

// `npm start` (scripts/start.mjs): builds only when the sources changed, into a directory of its own that
// is swapped in whole, so two instances started at once from one checkout both start (issue 28: one
// stopped with "Can't find meta/_journal.json" while the other rebuilt dist/ under it).

const repo = process.cwd();
const made: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A checkout of its own: the build's inputs copied, node_modules shared. */
function checkout(): string {
  const root = tempDir('shop-checkout-');
  for (const item of ['src', 'scripts', 'vite.config.ts', 'tsconfig.json', 'tsconfig.server.json']) {
    fs.cpSync(path.join(repo, item), path.join(root, item), {
      recursive: true,
      filter: (from) => !from.endsWith('.test.ts') && !from.endsWith('.test.tsx'),
    });
  }
  for (const file of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(repo, file), path.join(root, file));
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

type Started = { url: string; output: () => string };

function start(root: string): Promise<Started> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: tempDir('shop-start-data-'),
      LOG_LEVEL: 'info',
    },
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve({ url: m[1]!, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

const builds = (s: Started) => s.output().split('building the client and the server').length - 1;

describe('the build before npm start', () => {
  it('fingerprints the sources: the same tree the same, any edit, new file or removal another', () => {
    const root = tempDir('shop-fingerprint-');
    fs.mkdirSync(path.join(root, 'src/a'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/a/x.ts'), 'export const x = 1;\n');
    fs.writeFileSync(path.join(root, 'package.json'), '{}');
    const first = fingerprint(root);
    expect(fingerprint(root)).toBe(first);
    fs.writeFileSync(path.join(root, 'src/a/x.ts'), 'export const x = 2;\n');
    const edited = fingerprint(root);
    expect(edited).not.toBe(first);
    fs.writeFileSync(path.join(root, 'src/a/y.ts'), '');
    const added = fingerprint(root);
    expect(added).not.toBe(edited);
    fs.rmSync(path.join(root, 'src/a/y.ts'));
    expect(fingerprint(root)).toBe(edited);
    // A file moved keeps its bytes but not its place: a different build.
    fs.renameSync(path.join(root, 'src/a/x.ts'), path.join(root, 'src/x.ts'));
    expect(fingerprint(root)).not.toBe(edited);
    expect(builtFingerprint(path.join(root, 'dist'))).toBeNull();
  });

  it("gives the build lock to one start at a time, eight at once over a dead owner's lock, and leaves nothing", async () => {
    const root = tempDir('shop-lock-');
    const lock = path.join(root, 'dist.lock');
    const log = path.join(root, 'log');
    const script = `
      const fs = await import('node:fs');
      const { withLock } = await import(${JSON.stringify(path.join(repo, 'scripts/build-once.mjs'))});
      await withLock(${JSON.stringify(lock)}, async () => {
        fs.appendFileSync(${JSON.stringify(log)}, 'in\\n');
        await new Promise((r) => setTimeout(r, 5));
        fs.appendFileSync(${JSON.stringify(log)}, 'out\\n');
      });`;
    const run = promisify(execFile);
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      // Each round starts over a lock whose owner died mid-build: every start judges it dead at once.
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), '2147483646');
      await Promise.all(
        Array.from({ length: 8 }, () => run(process.execPath, ['--input-type=module', '-e', script])),
      );
    }
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(rounds * 16);
    // Never two holders: every "in" is followed by its "out".
    expect(lines).toEqual(lines.map((_, i) => (i % 2 === 0 ? 'in' : 'out')));
    expect(fs.readdirSync(root).sort()).toEqual(['log']);
  }, 120_000);

  it('starts two instances at once from one checkout: one build, both serve; the next start builds nothing', async () => {
    const root = checkout();
    // A lock left by a process that died mid-build is taken over, not waited on for ever.
    fs.mkdirSync(path.join(root, 'dist.lock'));
    fs.writeFileSync(path.join(root, 'dist.lock/pid'), '2147483646');

    const [a, b] = await Promise.all([start(root), start(root)]);
    expect(builds(a) + builds(b)).toBe(1);
    for (const s of [a, b]) {
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      const home = await fetch(`${s.url}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('<div id="root">');
    }
    expect(builtFingerprint(path.join(root, 'dist'))).toBe(fingerprint(root));
    // Nothing left beside dist/: no lock, no half build.
    expect(fs.readdirSync(root).filter((n) => n.startsWith('dist'))).toEqual(['dist']);

    const c = await start(root);
    expect(builds(c)).toBe(0);
    expect((await fetch(`${c.url}/healthz`)).status).toBe(200);
  }, 420_000);
});
