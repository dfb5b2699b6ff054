import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run dev` (scripts/dev.mjs) stopped with SIGTERM leaves nothing behind: neither the server (under
// node --watch) nor Vite keeps its port.

const ROOT = path.join(import.meta.dirname, '..', '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-dev-'));
afterAll(async () => {
  // A failed run still stops what it started (dev.mjs passes the signal on to both groups).
  for (const child of started.filter((c) => c.exitCode === null && c.signalCode === null)) {
    const exit = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exit;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether anything accepts a connection on the port, over IPv4 or IPv6 (Vite's "localhost" may be either). */
async function listening(port: number): Promise<boolean> {
  const attempt = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  return (await Promise.all(['127.0.0.1', '::1'].map(attempt))).some(Boolean);
}

type Dev = { child: ChildProcess; port: number; vitePort: number; exited: Promise<number | null> };
const started: ChildProcess[] = [];

/** dev.mjs on two free ports, once both the server and Vite accept connections. */
async function startDev(): Promise<Dev> {
  const [port, vitePort] = [await freePort(), await freePort()];
  let output = '';
  const child = spawn(process.execPath, ['scripts/dev.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      VITE_PORT: String(vitePort),
      HOST: '127.0.0.1',
      DATA_DIR: fs.mkdtempSync(path.join(dataDir, 'data-')),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  await expect
    .poll(async () => [await listening(port), await listening(vitePort)], {
      timeout: 90_000,
      interval: 250,
      message: `both ports open; output so far:\n${output}`,
    })
    .toEqual([true, true]);
  return { child, port, vitePort, exited };
}

/** Both ports refuse connections (the system may take a moment to release a socket of a process gone). */
async function bothFree({ port, vitePort }: Dev) {
  await expect
    .poll(async () => [await listening(port), await listening(vitePort)], { timeout: 5000, interval: 100 })
    .toEqual([false, false]);
}

describe('npm run dev', () => {
  it('stops both the server and Vite on SIGTERM, freeing both ports', async () => {
    const dev = await startDev();
    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
    await bothFree(dev);
  }, 120_000);

  it('stops the server when Vite ends, and exits with a failure', async () => {
    const dev = await startDev();
    const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout;
    const vite = ps.split('\n').find((l) => l.includes(`vite.js --port ${dev.vitePort} `));
    expect(vite, 'the Vite process').toBeDefined();
    process.kill(Number(vite!.trim().split(/\s+/)[0]), 'SIGKILL');
    expect(await dev.exited).toBe(1);
    await bothFree(dev);
  }, 120_000);
});
