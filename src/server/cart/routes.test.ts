import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartItem } from '../../shared/cart.ts';
import { countRows } from '../auth/testing.ts';
import { savedCarts } from '../db/schema.ts';
import { makeUser } from '../models/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';

// GET/PUT /api/cart: a logged-in customer's cart follows the account; visitors keep theirs in the browser.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const line = (over: Partial<CartItem> = {}): CartItem => ({
  id: 'line-1',
  filePath: 'm_AAAAAAAAAAAAAAAAAAAAAA',
  fileName: 'bracket.stl',
  color: '#007bff',
  strength: 3,
  cost: 14.5,
  quantity: 2,
  previewImage: '/api/models/m_AAAAAAAAAAAAAAAAAAAAAA/preview.png',
  volumeCm3: 12.3,
  dimensions: { x: 10, y: 20, z: 30 },
  notes: 'matte please',
  ...over,
});

const get = (cookie?: string) => t.app.inject({ url: '/api/cart', headers: cookie ? { cookie } : {} });
const put = (body: unknown, cookie?: string, origin = TEST_ORIGIN) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/cart',
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });

describe('the saved cart', () => {
  it('starts empty, keeps what is saved, and answers it to another session of the account', async () => {
    const user = await makeUser(t);
    expect((await get(user.cookie)).json()).toEqual({ items: [] });
    const items = [line(), line({ id: 'line-2', color: '#dc3545', quantity: 1, notes: '' })];
    const saved = await put({ items }, user.cookie);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ items });
    const again = await get(user.cookie);
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.json()).toEqual({ items });
    // Saving replaces the whole cart.
    await put({ items: [items[1]] }, user.cookie);
    expect((await get(user.cookie)).json()).toEqual({ items: [items[1]] });
  });

  it('keeps each account’s cart apart', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await put({ items: [line({ fileName: 'a.stl' })] }, a.cookie);
    expect((await get(b.cookie)).json()).toEqual({ items: [] });
  });

  it('answers 401 to a visitor and stores nothing', async () => {
    const before = await countRows(t.database.db, savedCarts);
    expect((await get()).statusCode).toBe(401);
    const res = await put({ items: [line()] });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Please log in first.' });
    expect(await countRows(t.database.db, savedCarts)).toBe(before);
  });

  it('refuses a bad cart with 400 and keeps the saved one', async () => {
    const user = await makeUser(t);
    await put({ items: [line()] }, user.cookie);
    const bad: Array<[unknown, string]> = [
      [{ items: 'all of it' }, 'expected array'],
      [{ items: [line({ quantity: 0 })] }, ''],
      [{ items: [line({ quantity: 101 })] }, ''],
      [{ items: [line({ strength: 6 })] }, ''],
      [{ items: [line({ notes: 'x'.repeat(1001) })] }, ''],
      [
        { items: [line({ previewImage: 'https://evil.example/x.png' })] },
        'A cart line’s preview is not one of this shop’s.',
      ],
      [
        { items: [line({ previewImage: 'javascript:alert(1)' })] },
        'A cart line’s preview is not one of this shop’s.',
      ],
      [
        { items: Array.from({ length: 51 }, (_, i) => line({ id: `l${i}` })) },
        'A cart holds at most 50 lines.',
      ],
    ];
    for (const [body, message] of bad) {
      const res = await put(body, user.cookie);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.json().error).toBe('string');
      if (message) expect(res.json().error).toContain(message);
    }
    expect((await get(user.cookie)).json()).toEqual({ items: [line()] });
  });

  it('refuses a save from another site (403)', async () => {
    const user = await makeUser(t);
    const res = await put({ items: [line()] }, user.cookie, 'https://evil.example');
    expect(res.statusCode).toBe(403);
    expect((await get(user.cookie)).json()).toEqual({ items: [] });
  });
});
