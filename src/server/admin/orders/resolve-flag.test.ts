import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedInUser } from '../../auth/testing.ts';
import { orderFlags } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminPost, insertOrder, makeAdmin, snapshot } from './testing.ts';

// POST /api/admin/orders/:id/flags/:flagId/resolve: who resolved a flag, when and how, once.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let userId: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t, 'flag_admin');
  userId = (await createLoggedInUser(t)).user.id;
});
afterAll(() => t.close());

async function flagged() {
  const order = await insertOrder(t.database.db, userId, { status: 'paid' });
  const [flag] = await t.database.db
    .insert(orderFlags)
    .values({ orderId: order.id, kind: 'amount_mismatch', details: 'paid 11.00 of 12.00', blocking: true })
    .returning();
  return { order, flag: flag! };
}
const resolve = (orderId: number, flagId: number | string, note = 'Refunded the difference.') =>
  adminPost(t, `/api/admin/orders/${orderId}/flags/${flagId}/resolve`, { note }, admin.cookie);

describe('resolving a flag', () => {
  it('records who, when and how, on the flag and the timeline, and lets the order move on', async () => {
    const { order, flag } = await flagged();
    const res = await resolve(order.id, flag.id);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json().order;
    expect(detail.flags).toEqual([
      expect.objectContaining({
        id: flag.id,
        kind: 'amount_mismatch',
        blocking: true,
        resolvedAt: expect.any(String),
        resolvedBy: 'flag_admin',
        resolutionNote: 'Refunded the difference.',
      }),
    ]);
    expect(detail.timeline.at(-1)).toMatchObject({
      kind: 'flag',
      actor: 'admin',
      actorName: 'flag_admin',
      text: 'Resolved "Paid amount differs": Refunded the difference.',
    });
    expect(detail).toMatchObject({ allowedStatuses: ['queued', 'cancelled'], nextStatus: 'queued' });
  });

  it('answers 409 for a flag resolved already, 404 for another order’s or an unknown flag, 400 without a note; nothing changes', async () => {
    const { order, flag } = await flagged();
    const other = await flagged();
    expect((await resolve(order.id, flag.id)).statusCode).toBe(200);
    const before = await snapshot(t);
    const again = await resolve(order.id, flag.id, 'again');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This flag was resolved already.' });
    for (const id of [other.flag.id, 999999, 'x']) {
      const res = await resolve(order.id, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'That flag is not on this order.' });
    }
    expect((await resolve(other.order.id, other.flag.id, ' ')).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('resolves once when two admins resolve it at once', async () => {
    const { order, flag } = await flagged();
    const answers = await Promise.all([resolve(order.id, flag.id, 'one'), resolve(order.id, flag.id, 'two')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });
});
