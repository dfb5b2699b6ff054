import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { countRows, drainedMails } from '../auth/testing.ts';
import {
  cartItem,
  makeCustomer,
  orderOfSession,
  paySimulator,
  post,
  startCheckout,
  uploadBox,
} from '../checkout/testing.ts';
import { models } from '../db/schema.ts';
import { DISK_FULL } from '../models/disk-space.ts';
import { boxStl, filesIn, uploadRequest } from '../models/testing.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';

// The disk full (issue #28): uploads are refused with 507 and keep nothing, while the models already stored
// go on being shown, priced, ordered and paid for. The full disk is simulated twice over: fs.statfs says
// nothing is free, and any file the store tries to write fails with ENOSPC.

const MiB = 1024 * 1024;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100', UPLOAD_MIN_FREE_MB: '512' });
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

function fillDisk() {
  vi.spyOn(fsp, 'statfs').mockImplementation(
    async () => ({ bsize: 4096, bavail: 0, bfree: 0, blocks: 1 }) as fs.StatsFs,
  );
  const put = vi
    .spyOn(LocalFileStore.prototype, 'put')
    .mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
  return { put };
}

describe('a full disk', () => {
  it('refuses new uploads with 507, while models already stored are still shown, quoted, ordered and paid', async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 20, 'stored.stl');
    const filesDir = path.join(t.dataDir, 'files');
    const storedFiles = filesIn(filesDir).sort();
    const rowsBefore = await countRows(t.database.db, models);

    const disk = fillDisk();
    const refused = await t.app.inject(
      uploadRequest({ fileName: 'new.stl', bytes: boxStl(30, 30, 30) }, customer.cookie),
    );
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual({ error: DISK_FULL });
    // Refused too where the free-space check passes but the write itself fails (ENOSPC).
    vi.spyOn(fsp, 'statfs').mockImplementation(
      async () => ({ bsize: 4096, bavail: (4096 * MiB) / 4096, bfree: 0, blocks: 1 }) as fs.StatsFs,
    );
    const failedWrite = await t.app.inject(
      uploadRequest({ fileName: 'new2.stl', bytes: boxStl(31, 31, 31) }, customer.cookie),
    );
    expect(failedWrite.statusCode).toBe(507);
    expect(disk.put).toHaveBeenCalled();
    vi.restoreAllMocks();
    const stillFull = fillDisk();
    expect(await countRows(t.database.db, models)).toBe(rowsBefore);
    expect(filesIn(filesDir).sort()).toEqual(storedFiles);

    // The stored model: its picture, its price, the cart, the checkout and the payment all work.
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: customer.cookie } });
    expect((await get(`/api/models/${model}`)).statusCode).toBe(200);
    expect((await get(`/api/models/${model}/preview.png?color=red`)).statusCode).toBe(200);
    expect((await get(`/api/models/${model}/view.glb`)).statusCode).toBe(200);
    const quote = await post(
      t,
      '/api/cart/quote',
      { items: [{ modelId: model, color: '#dc3545', strength: 3, quantity: 2 }] },
      customer.cookie,
    );
    expect(quote.statusCode).toBe(200);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/cart',
      headers: { cookie: customer.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ items: [cartItem(model, { quantity: 2 })] }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const checkout = await startCheckout(t, customer, [cartItem(model, { quantity: 2 })]);
    expect(checkout.statusCode).toBe(200);
    const sessionId = checkout.json().id as string;
    expect((await paySimulator(t, sessionId)).statusCode).toBe(200);
    const order = await orderOfSession(t, sessionId);
    expect(order?.status).toBe('paid');
    const orders = await get('/api/get_orders.php');
    expect(orders.statusCode).toBe(200);
    expect(orders.json().map((o: { id: number }) => o.id)).toContain(order!.id);
    const mails = await drainedMails(t);
    expect(mails.filter((m) => m.headers.subject?.includes(`Order #${order!.id} confirmed`))).toHaveLength(1);

    // The store was never asked to write a file for any of it.
    expect(stillFull.put).not.toHaveBeenCalled();
    expect(filesIn(filesDir).sort()).toEqual(storedFiles);
  });
});
