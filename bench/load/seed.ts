// The load bench's customer, made through the HTTP API as a real one is: registered, verified from the mail
// in the outbox, logged in, with one model and `orders` orders checked out and paid on the simulator.
import path from 'node:path';
import { box, toBinaryStl, triangles } from '../../src/mesh/testing/generate.ts';
import { readOutboxDir } from '../../src/server/mail/testing.ts';
import type { SimulatorSessionPayload } from '../../src/shared/checkout.ts';

export type Customer = { cookie: string; modelId: string };

/** `name=value; ...` of every Set-Cookie in a response, for a Cookie header. */
function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function expectStatus(res: Response, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
}

async function verificationToken(dataDir: string, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = readOutboxDir(path.join(dataDir, 'outbox')).find((m) =>
      (m.headers.to ?? '').includes(email),
    );
    const token = /\/api\/verify-email\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no verification mail to ${email} in ${dataDir}/outbox`);
}

export async function seedCustomer(url: string, dataDir: string, orders: number): Promise<Customer> {
  const origin = { origin: url, 'content-type': 'application/json' };
  const username = `loadbench${Date.now().toString(36)}`;
  const account = { username, email: `${username}@example.com`, password: 'load-bench-secret-1' };
  const post = (route: string, body: unknown, cookie = '') =>
    fetch(url + route, {
      method: 'POST',
      headers: { ...origin, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  await expectStatus(await post('/api/register.php', account), 201, 'register');
  const token = await verificationToken(dataDir, account.email);
  const verify = await fetch(`${url}/api/verify-email?token=${token}`, { redirect: 'manual' });
  await expectStatus(verify, 302, 'verify-email');
  const login = await post('/api/login.php', { username, password: account.password });
  await expectStatus(login, 200, 'login');
  const cookie = cookiesOf(login);

  const form = new FormData();
  const stl = toBinaryStl(triangles(box(20, 30, 10)));
  form.append('file', new Blob([Buffer.from(stl)]), 'load-bench-part.stl');
  const upload = await fetch(`${url}/api/uploads`, {
    method: 'POST',
    headers: { origin: url, cookie },
    body: form,
  });
  await expectStatus(upload, 201, 'upload');
  const model = (await upload.json()) as {
    id: string;
    fileName: string;
    previewImage: string;
    volumeCm3: number;
    dimensions: { x: number; y: number; z: number };
    prices: Record<string, number>;
  };

  for (let k = 0; k < orders; k++) {
    const line = {
      id: `line-${model.id}-${k}`,
      filePath: model.id,
      fileName: model.fileName,
      color: '#28a745',
      strength: 3,
      cost: model.prices['3'] ?? 0,
      // A quantity of its own per order: no two carts alike.
      quantity: 1 + (k % 50),
      previewImage: model.previewImage,
      volumeCm3: model.volumeCm3,
      dimensions: model.dimensions,
      notes: '',
    };
    const checkout = await post(
      '/api/create-checkout-session.php',
      { cartItems: [line], shipTo: 'US' },
      cookie,
    );
    await expectStatus(checkout, 200, `checkout ${k + 1}`);
    const { id } = (await checkout.json()) as { id: string };
    const session = await fetch(`${url}/api/pay/simulator/${id}`, { headers: { cookie } });
    await expectStatus(session, 200, `simulator session ${k + 1}`);
    const { shippingOptions } = (await session.json()) as SimulatorSessionPayload;
    const paid = await post(
      `/api/pay/simulator/${id}/pay`,
      {
        card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
        shipping: {
          name: 'Ada Lovelace',
          line1: '1 Capitol Square',
          line2: '',
          city: 'Madison',
          state: 'WI',
          postalCode: '53703',
          country: 'US',
        },
        shippingOption: shippingOptions[0]!.id,
      },
      cookie,
    );
    await expectStatus(paid, 200, `payment ${k + 1}`);
  }
  return { cookie, modelId: model.id };
}
