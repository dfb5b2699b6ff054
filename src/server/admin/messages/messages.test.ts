import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMessage, AdminMessageList } from '../../../shared/admin-messages.ts';
import { createLoggedInUser } from '../../auth/testing.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, adminPost, makeAdmin } from '../orders/testing.ts';
import { allMessages, insertMessage } from './testing.ts';

// GET /api/admin/messages and POST /api/admin/messages/:id/handled: order, filters, counts, pages, who
// handled a message and when, and the refusals (400 a bad query or body, 404 an unknown message).

let t: TestApp;
let admin: { cookie: string; user: { id: number; username: string } };
let other: { cookie: string; user: { id: number; username: string } };
let sender: { user: { id: number; username: string } };
const ids: Record<string, number> = {};
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await buildTestApp({ SHOP_NAME: 'Badger Print Co.' });
  admin = await makeAdmin(t, 'boss');
  other = await makeAdmin(t, 'helper');
  sender = await createLoggedInUser(t);
  const db = t.database.db;
  ids.oldOpen = (await insertMessage(db, { createdAt: at('2026-01-01T10:00:00Z') })).id;
  ids.oldDone = (
    await insertMessage(db, {
      createdAt: at('2026-01-02T10:00:00Z'),
      handledAt: at('2026-01-03T10:00:00Z'),
      handledBy: other.user.id,
    })
  ).id;
  ids.newDone = (
    await insertMessage(db, {
      createdAt: at('2026-01-05T10:00:00Z'),
      handledAt: at('2026-01-05T12:00:00Z'),
      handledBy: other.user.id,
    })
  ).id;
  ids.newOpen = (
    await insertMessage(db, {
      name: 'Jane <b>Doe</b>',
      message: 'Can you print <script>alert(1)</script>?\nThanks!',
      userId: sender.user.id,
      createdAt: at('2026-01-04T10:00:00Z'),
    })
  ).id;
});
afterAll(() => t.close());

const list = async (query = '') => {
  const res = await adminGet(t, `/api/admin/messages${query}`, admin.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminMessageList;
};
const mark = (id: number | string, body: unknown, cookie = admin.cookie) =>
  adminPost(t, `/api/admin/messages/${id}/handled`, body, cookie);

describe('GET /api/admin/messages', () => {
  it('lists unhandled first, then newest first, with the counts, the sender and the shop name', async () => {
    const page = await list();
    expect(page.messages.map((m) => m.id)).toEqual([ids.newOpen, ids.oldOpen, ids.newDone, ids.oldDone]);
    expect(page).toMatchObject({
      total: 4,
      unhandled: 2,
      page: 1,
      pageSize: 20,
      shopName: 'Badger Print Co.',
    });
    const jane = page.messages[0]!;
    // The text as typed: the panel renders it as text, never as HTML.
    expect(jane).toEqual<AdminMessage>({
      id: ids.newOpen!,
      name: 'Jane <b>Doe</b>',
      email: expect.stringContaining('@example.com'),
      message: 'Can you print <script>alert(1)</script>?\nThanks!',
      user: { id: sender.user.id, username: sender.user.username },
      createdAt: '2026-01-04T10:00:00.000Z',
      handledAt: null,
      handledBy: null,
    });
    expect(page.messages[2]).toMatchObject({
      user: null,
      handledAt: '2026-01-05T12:00:00.000Z',
      handledBy: 'helper',
    });
  });

  it('filters handled (1) and unhandled (0); the unhandled count stays the whole count', async () => {
    const open = await list('?handled=0');
    expect(open.messages.map((m) => m.id)).toEqual([ids.newOpen, ids.oldOpen]);
    expect(open).toMatchObject({ total: 2, unhandled: 2 });
    const done = await list('?handled=1');
    expect(done.messages.map((m) => m.id)).toEqual([ids.newDone, ids.oldDone]);
    expect(done).toMatchObject({ total: 2, unhandled: 2 });
    expect((await list('?handled=')).total).toBe(4);
  });

  it('pages', async () => {
    const first = await list('?pageSize=3');
    expect(first.messages.map((m) => m.id)).toEqual([ids.newOpen, ids.oldOpen, ids.newDone]);
    const second = await list('?pageSize=3&page=2');
    expect(second.messages.map((m) => m.id)).toEqual([ids.oldDone]);
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect((await list('?page=9')).messages).toEqual([]);
  });

  it('refuses a bad query with 400', async () => {
    for (const [query, error] of [
      ['?handled=yes', 'Handled is 1 (handled), 0 (unhandled) or empty (all).'],
      ['?page=0', 'Page is a whole number from 1.'],
      ['?page=abc', 'Page is a whole number from 1.'],
      ['?pageSize=101', 'Page size is a whole number from 1 to 100.'],
    ]) {
      const res = await adminGet(t, `/api/admin/messages${query}`, admin.cookie);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ error });
    }
  });
});

describe('POST /api/admin/messages/:id/handled', () => {
  it('marks a message handled by this admin now, and back; the unhandled count follows', async () => {
    const before = Date.now();
    const res = await mark(ids.oldOpen!, { value: true });
    expect(res.statusCode, res.body).toBe(200);
    const { message, unhandled } = res.json() as { message: AdminMessage; unhandled: number };
    expect(message).toMatchObject({ id: ids.oldOpen, handledBy: 'boss' });
    expect(Date.parse(message.handledAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(unhandled).toBe(1);
    const [row] = (await allMessages(t.database.db)).filter((m) => m.id === ids.oldOpen);
    expect(row).toMatchObject({ handledBy: admin.user.id });

    // Marked again by another admin: who handled it first, and when, stay.
    const again = await mark(ids.oldOpen!, { value: true }, other.cookie);
    expect(again.json()).toEqual({ message, unhandled: 1 });

    const back = await mark(ids.oldOpen!, { value: false });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      message: { id: ids.oldOpen, handledAt: null, handledBy: null },
      unhandled: 2,
    });
    expect((await list()).messages.slice(0, 2).map((m) => m.id)).toEqual([ids.newOpen, ids.oldOpen]);
  });

  it('answers 404 for an unknown message or an id that is not one, and 400 for a bad body; nothing changes', async () => {
    const before = await allMessages(t.database.db);
    for (const id of [999_999, 0, 'abc', '1.5', '99999999999']) {
      const res = await mark(id, { value: true });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ error: 'Message not found.' });
    }
    for (const body of [{}, { value: 'yes' }, { value: 1 }, null]) {
      const res = await mark(ids.newOpen!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({
        error: 'Send { "value": true } to mark the message handled, false to mark it unhandled.',
      });
    }
    expect(await allMessages(t.database.db)).toEqual(before);
  });

  it('a message sent through the contact form arrives unhandled, with its account', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/send_contact_email.php',
      headers: { 'content-type': 'application/json', origin: 'http://shop.test' },
      payload: JSON.stringify({ name: 'Walk In', email: 'walk@example.com', message: 'Hello\n\n  there' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await list('?handled=0');
    expect(page.messages[0]).toMatchObject({ name: 'Walk In', message: 'Hello\n\n  there', user: null });
  });
});
