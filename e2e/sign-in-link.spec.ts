import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readOutboxDir } from '../src/server/mail/testing.ts';
import { ACCOUNT_MSG } from '../src/shared/account.ts';
import { expect, test } from './fixtures.ts';
import { unique } from './helpers.ts';

// The owner on a new browser while strangers guess their password from many addresses (issue #28): the
// login page says a sign-in link was mailed, the link's page logs this browser in and goes home, and the
// browser then logs in with its password although the attack goes on.
//
// The attack needs many client addresses, so this journey runs its own shop behind a "proxy"
// (TRUST_PROXY=1: X-Forwarded-For names the client) at the production scale of the limits; the browser's
// own requests come straight from 127.0.0.1.

type OwnShop = { baseURL: string; dataDir: string; stop(): Promise<void> };

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

async function startShop(): Promise<OwnShop> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-step-up-'));
  const baseURL = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      SMTP_URL: '',
      TRUST_PROXY: '1',
      RATE_LIMIT_SCALE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop exited during start-up:\n${output}`);
    const ready = await fetch(`${baseURL}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { baseURL, dataDir, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`The shop did not become ready:\n${output}`);
}

let shop: OwnShop;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startShop();
});
test.afterAll(async () => {
  await shop?.stop();
});

/** A POST from the shop's origin, as the client at `from` (X-Forwarded-For). */
function post(url: string, body: unknown, from: string) {
  return fetch(`${shop.baseURL}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop.baseURL, 'x-forwarded-for': from },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
}

/** Waits for the newest mail to `to` with a link starting with `prefix`. */
async function mailedLink(to: string, prefix: string, count = 1): Promise<string> {
  let links: string[] = [];
  await expect
    .poll(
      () => {
        links = readOutboxDir(path.join(shop.dataDir, 'outbox'))
          .filter((m) => m.headers.to === to)
          .flatMap((m) => m.text.split(/\s+/).filter((w) => w.startsWith(prefix)));
        return links.length;
      },
      { timeout: 15_000, message: `mail ${count} to ${to} with ${prefix}` },
    )
    .toBeGreaterThanOrEqual(count);
  return links.at(-1)!;
}

test('the owner on a new browser under attack gets a mailed sign-in link that logs them in', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const username = unique();
  const owner = { username, email: `${username}@example.com`, password: 'owner-secret-1' };
  expect((await post('/api/register.php', owner, '10.50.0.1')).status).toBe(201);
  const verify = await mailedLink(owner.email, `${shop.baseURL}/api/verify-email?token=`);
  expect((await fetch(verify, { redirect: 'manual' })).status).toBe(302);

  // Strangers on ten addresses, five wrong passwords each.
  for (let a = 1; a <= 10; a++) {
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/login.php', { username, password: 'wrong-guess' }, `10.51.0.${a}`);
      expect(res.status).toBe(401);
    }
  }

  // The owner, on a browser that never logged in, types the right password: a notice, not a session.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await page.goto(`${shop.baseURL}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('status').filter({ hasText: ACCOUNT_MSG.loginStepUp })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();

  // The mailed link opens a page that uses nothing up until asked; then this browser is logged in.
  const link = await mailedLink(owner.email, `${shop.baseURL}/sign-in?token=`);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Log in with your link' })).toBeVisible();
  await page.getByRole('button', { name: 'Log in on this browser' }).click();
  await expect(page).toHaveURL(`${shop.baseURL}/`);
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'My Orders' })).toBeVisible();

  // Used once: opened again it says so, with the way back to the login page.
  await page.goto(link);
  await page.getByRole('button', { name: 'Log in on this browser' }).click();
  await expect(page.getByRole('heading', { name: 'This sign-in link is not valid' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(ACCOUNT_MSG.signInLinkFailed);
  await expect(page.getByRole('link', { name: 'Go to the login page' })).toHaveAttribute('href', '/login');

  // The attack goes on; this browser now logs in with the password like any other it was trusted on.
  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  for (let i = 0; i < 5; i++) {
    const res = await post('/api/login.php', { username, password: 'wrong-guess' }, '10.52.0.1');
    expect((await res.json()).error).toBe(ACCOUNT_MSG.loginStepUp);
  }
  await page.goto(`${shop.baseURL}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${shop.baseURL}/`);
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('a link without a token, or a made-up one, says it is not valid and leads to the login page', async ({
  page,
}) => {
  await page.goto(`${shop.baseURL}/sign-in`);
  await expect(page.getByRole('heading', { name: 'This sign-in link is not valid' })).toBeVisible();
  await page.goto(`${shop.baseURL}/sign-in?token=${'A'.repeat(43)}`);
  await page.getByRole('button', { name: 'Log in on this browser' }).click();
  await expect(page.getByRole('alert')).toHaveText(ACCOUNT_MSG.signInLinkFailed);
  await page.getByRole('link', { name: 'Go to the login page' }).click();
  await expect(page).toHaveURL(`${shop.baseURL}/login`);
});
