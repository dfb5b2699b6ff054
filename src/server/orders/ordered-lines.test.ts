import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../mesh/testing/png-decode.ts';
import { orderPayload } from '../../shared/orders.ts';
import { cartItem, orderOfSession, paySimulator, startCheckout } from '../checkout/testing.ts';
import { orderItems, orders, outbox } from '../db/schema.ts';
import { uploadAndScale } from '../models/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';

// An order's lines as ordered (issue #26): My Orders gets each line's size and scale from the stored model
// it names (a model rescaled from inches is its own row), and every preview of a line, in My Orders and in
// the confirmation mail, is drawn in the line's colour; the mail's signed images may be shown by a mail
// reader on its own origin.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

/** Share of the picture's (opaque enough) pixels that are clearly red. */
function redShare(png: Buffer): number {
  const { pixels } = decodePng(png);
  let covered = 0;
  let red = 0;
  for (let o = 0; o < pixels.length; o += 4) {
    if (pixels[o + 3]! < 128) continue;
    covered++;
    if (pixels[o]! >= Math.max(pixels[o + 1]!, pixels[o + 2]!) + 40) red++;
  }
  return covered === 0 ? 0 : red / covered;
}

const ordersOf = async (cookie: string) => {
  const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as ReturnType<typeof orderPayload.parse>[];
};

describe('GET /api/get_orders.php: each line as ordered', () => {
  it('carries the size and scale of the model ordered, and a preview in the line’s colour', async () => {
    // A 9 mm cube drawn in inches, ordered at 25.4 times its size.
    const { user, modelId, scaledId } = await uploadAndScale(t, 'inch-cube.stl');
    const [order] = await t.database.db
      .insert(orders)
      .values({ userId: user.id, status: 'paid', totalCents: 2400, subtotalCents: 2400 })
      .returning();
    const line = { orderId: order!.id, strength: 3, quantity: 1, unitPriceCents: 1200, lineTotalCents: 1200 };
    await t.database.db.insert(orderItems).values([
      { ...line, modelId: scaledId, fileName: 'inch-cube.stl', color: '#dc3545' },
      { ...line, modelId, fileName: 'inch-cube.stl', color: 'green' },
      // An old line whose model row is not there to read.
      { ...line, modelId: null, fileName: 'lost.stl', color: '#dc3545' },
    ]);
    const [mine] = await ordersOf(user.cookie);
    expect(() => orderPayload.parse(mine)).not.toThrow();
    const [scaled, original, lost] = mine!.items;
    expect(scaled).toMatchObject({
      unique_file_path: scaledId,
      dimensions: { x: 228.6, y: 228.6, z: 228.6 },
      scale: 25.4,
      preview_image_url: `/api/models/${scaledId}/preview.png?color=red`,
    });
    expect(original).toMatchObject({
      dimensions: { x: 9, y: 9, z: 9 },
      scale: 1,
      preview_image_url: `/api/models/${modelId}/preview.png?color=green`,
    });
    expect(lost).toMatchObject({ dimensions: null, scale: 1, preview_image_url: null });
    const preview = await t.app.inject({ url: scaled!.preview_image_url!, headers: { cookie: user.cookie } });
    expect(preview.statusCode).toBe(200);
    expect(redShare(preview.rawPayload)).toBeGreaterThan(0.8);
  });
});

describe('the confirmation mail’s previews', () => {
  it('are signed in the line’s colour, red, and may be shown by a mail reader (CORP cross-origin)', async () => {
    const { user, scaledId } = await uploadAndScale(t, 'mailed.stl');
    const checkout = await startCheckout(t, user, [
      cartItem(scaledId, { color: '#dc3545', fileName: 'mailed.stl' }),
    ]);
    expect(checkout.statusCode).toBe(200);
    const sessionId = checkout.json().id as string;
    // The hosted payment page shows the line in red too.
    const page = await t.app.inject(`/api/pay/simulator/${sessionId}`);
    const [pageLine] = page.json().lines as { imageUrl: string }[];
    expect(pageLine!.imageUrl).toMatch(/\/preview\.png\?exp=\d+&sig=[\w-]+&color=red$/);
    expect((await paySimulator(t, sessionId)).statusCode).toBe(200);
    const order = await orderOfSession(t, sessionId);
    const mails = await t.database.db.select().from(outbox);
    const mail = mails.find((m) => m.payload.subject.includes(`Order #${order!.id} confirmed`));
    expect(mail).toBeDefined();
    const images = [...mail!.payload.html.matchAll(/<img src="([^"]+)"/g)].map((m) =>
      m[1]!.replaceAll('&amp;', '&'),
    );
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(
      new RegExp(`^${TEST_ORIGIN}/api/models/${scaledId}/preview\\.png\\?exp=\\d+&sig=[\\w-]+&color=red$`),
    );
    // As a mail reader loads it: no cookie, from another origin.
    const res = await t.app.inject({
      url: images[0]!.slice(TEST_ORIGIN.length),
      headers: { origin: 'https://mail.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(redShare(res.rawPayload)).toBeGreaterThan(0.8);
    // The customer's own copy in My Orders stays same-origin.
    const [listed] = await ordersOf(user.cookie);
    const own = await t.app.inject({
      url: listed!.items[0]!.preview_image_url!,
      headers: { cookie: user.cookie },
    });
    expect(own.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
