import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl } from './models/testing.ts';

// The production process (`npm start`): the server compiled to plain JavaScript by `npm run build:server`
// and run by `node dist/server/main.js`, no tsx anywhere. Built here into a directory of its own inside the
// repository (so that node_modules resolves), never over dist/.

const outDir = fs.mkdtempSync(path.join(process.cwd(), 'dist-test-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-compiled-'));
let child: ChildProcess | undefined;

beforeAll(() => {
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', outDir], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build:server failed: ${build.stdout}${build.stderr}`);
}, 180_000);

afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<string> {
  child = spawn(process.execPath, [path.join(outDir, 'server/main.js')], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
    },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

describe('the compiled server (npm start)', () => {
  it('has no TypeScript left: every relative import names a .js file, and the migrations are beside it', () => {
    const main = fs.readFileSync(path.join(outDir, 'server/main.js'), 'utf8');
    expect(main).toContain('from "./app.js"');
    expect(main).not.toMatch(/from "\.[^"]*\.ts"/);
    expect(fs.existsSync(path.join(outDir, 'server/db/migrations/meta/_journal.json'))).toBe(true);
    expect(fs.existsSync(path.join(outDir, 'server/models/analyze-worker.js'))).toBe(true);
  });

  it('starts with plain node, answers /healthz, and analyses an upload in its worker threads', async () => {
    const url = await start();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const form = new FormData();
    form.append('file', new Blob([Buffer.from(boxStl(20, 10, 5))]), 'box.stl');
    const upload = await fetch(`${url}/api/uploads`, {
      method: 'POST',
      body: form,
      headers: { origin: url },
    });
    expect(upload.status).toBe(201);
    const model = (await upload.json()) as { dimensions: unknown; triangles: number };
    expect(model.triangles).toBe(12);
    expect(model.dimensions).toEqual({ x: 20, y: 10, z: 5 });

    child!.kill('SIGTERM');
    const code = await new Promise((r) => child!.once('exit', r));
    expect(code).toBe(0);
  }, 60_000);
});
