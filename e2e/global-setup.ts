import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Starts the built shop on a free port with a temporary data directory; the specs read both from env.

export const E2E_ADMIN = { username: 'e2e-admin', email: 'admin@e2e.test', password: 'admin-secret-1' };

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

async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop exited during start-up:\n${log()}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The shop did not become ready:\n${log()}`);
}

export default async function globalSetup() {
  if (!fs.existsSync('dist/client/index.html')) throw new Error('Build the client first: npm run build');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  // An admin made the way a shop owner makes one: with the CLI, before the server takes the data directory.
  const admin = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/server/admin/cli.ts',
      'create',
      E2E_ADMIN.username,
      E2E_ADMIN.email,
      '--password',
      E2E_ADMIN.password,
    ],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
  );
  if (admin.status !== 0) throw new Error(`admin CLI failed:\n${admin.stdout}${admin.stderr}`);
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      SMTP_URL: '',
      // Every journey's customers share one address (127.0.0.1): the per-address limits (30 uploads per
      // 10 minutes...) are asserted by the API suites, not met by a day's worth of journeys in a few minutes.
      RATE_LIMIT_SCALE: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  await waitForHealth(baseURL, child, () => output);
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (process.env.E2E_SERVER_LOG) fs.writeFileSync(process.env.E2E_SERVER_LOG, output);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
