import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The process as a shop owner runs it: `node --import tsx src/server/main.ts` on a PGlite data directory.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-main-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Started = { child: ChildProcess; url: string; output: () => string };

function start(env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve({ child, url: m[1]!, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) =>
      reject(Object.assign(new Error(`exited ${code}: ${output}`), { output, code })),
    );
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', r));
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url.replace(/\/api.*/, '') },
    body: JSON.stringify(body),
  });

describe('the server process on the embedded database', () => {
  it('keeps its data across a restart, refuses a second process on the same directory, and stops on SIGTERM', async () => {
    const first = await start();
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    const reg = await post(`${first.url}/api/register.php`, {
      username: 'persisted',
      email: 'persisted@example.com',
      password: 'secret-123',
    });
    expect(reg.status).toBe(201);

    // A second server on the same DATA_DIR stops with a clear message instead of opening PGlite.
    const second = await start().catch((err: { output: string; code: number }) => err);
    expect('code' in second ? second.code : 'started').toBe(1);
    expect('output' in second ? second.output : '').toMatch(/in use by another process/);

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);

    // After a restart the account is still there: registering it again is refused as taken.
    const again = await start();
    const taken = await post(`${again.url}/api/register.php`, {
      username: 'persisted',
      email: 'persisted@example.com',
      password: 'secret-123',
    });
    expect(taken.status).toBe(409);
    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toBe(0);
  }, 60_000);

  it('names the payment mode on its start-up line', async () => {
    const shop = await start();
    await expect.poll(() => shop.output(), { timeout: 10_000 }).toMatch(/is open at .*payments: /);
    expect(shop.output()).toMatch(/payments: the TEST simulator, no money is taken/);
    shop.child.kill('SIGTERM');
    expect(await exited(shop.child)).toBe(0);
  }, 60_000);

  it('refuses to start on PostgreSQL without a Stripe key, naming STRIPE_SECRET_KEY and PAYMENT_PROVIDER', async () => {
    const refusals: Record<string, string>[] = [
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none', NODE_ENV: 'production' },
      { STRIPE_SECRET_KEY: 'sk_live_abc' },
    ];
    for (const env of refusals) {
      const refused = await start(env).catch((err: { output: string; code: number }) => err);
      expect('code' in refused ? refused.code : 'started').toBe(1);
      expect('output' in refused ? refused.output : '').toMatch(/STRIPE_/);
    }
    const pg = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none' }).catch(
      (err: { output: string }) => err,
    );
    expect('output' in pg ? pg.output : '').toMatch(/STRIPE_SECRET_KEY[\s\S]*PAYMENT_PROVIDER=simulator/);
  }, 60_000);

  it('stops at start-up with a message naming a wrong variable', async () => {
    const bad = await start({ PORT: 'not-a-port' }).catch((err: { output: string; code: number }) => err);
    expect('code' in bad ? bad.code : 'started').toBe(1);
    expect('output' in bad ? bad.output : '').toContain('PORT');
  });
});
