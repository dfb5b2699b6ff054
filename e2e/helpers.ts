import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { box, toBinaryStl, toObj, triangles } from '../src/mesh/testing/generate.ts';
import type { ParsedMail } from '../src/server/mail/testing.ts';
import { expect, type Shop } from './fixtures.ts';

// Steps several journeys share: a fresh customer, the mail they get, and the models they upload.

export const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Waits for the newest mail to `to` holding a link that starts with `prefix`, and returns the link. */
export async function mailedLink(shop: Shop, to: string, prefix: string, after = 0): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const mails: ParsedMail[] = shop.mails().slice(after);
        const mail = mails
          .reverse()
          .find((m) => (m.headers.to ?? '').includes(to) && m.text.includes(prefix));
        found = mail?.text.split(/\s+/).find((w) => w.startsWith(prefix));
        return found;
      },
      { timeout: 15_000, message: `a mail to ${to} with a link to ${prefix}` },
    )
    .toBeTruthy();
  return found!;
}

export type Customer = { username: string; email: string; password: string };

/** Logs in through the form and waits for the logged-in navigation. */
export async function logIn(page: Page, customer: Customer) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
}

/** A new customer registered through the API, verified by the mailed link and logged in in `page`. */
export async function newCustomer(page: Page, shop: Shop, request: APIRequestContext): Promise<Customer> {
  const username = unique();
  const customer = { username, email: `${username}@example.com`, password: 'journey-secret-1' };
  const register = await request.post('/api/register.php', {
    data: customer,
    headers: { origin: shop.baseURL },
  });
  expect(register.status()).toBe(201);
  await page.goto(await mailedLink(shop, customer.email, `${shop.baseURL}/api/verify-email?token=`));
  await expect(page).toHaveURL(/\/login\?verified=1$/);
  await logIn(page, customer);
  return customer;
}

export const CUBE = 'cube-20mm.stl';
export const BLOCK = 'block-60x40x30.obj';

/** Writes the cube (priced at the minimum) and the block (priced by strength) into a new directory. */
export function writeModels(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-models-'));
  fs.writeFileSync(path.join(dir, CUBE), toBinaryStl(triangles(box(20, 20, 20))));
  fs.writeFileSync(path.join(dir, BLOCK), toObj(box(60, 40, 30)));
  return dir;
}

export const modelCard = (page: Page, fileName: string) => page.getByRole('article', { name: fileName });

/** Uploads the given files from `dir` together and waits until every card is priced. */
export async function uploadModels(page: Page, dir: string, files: string[]) {
  await page.getByLabel('Choose files').setInputFiles(files.map((f) => path.join(dir, f)));
  for (const f of files) {
    await expect(modelCard(page, f).locator('.price-box')).toHaveAttribute('data-state', 'quoted', {
      timeout: 30_000,
    });
  }
}
