import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerChanged } from '../../../shared/admin-customers.ts';
import { createUser, drainedMails, loginAs } from '../../auth/testing.ts';
import { linkIn } from '../../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { accountsSnapshot, change, eventsOf, userRow } from './testing.ts';

// POST /api/admin/customers/:id/verify and /resend-verification: staff vouch for an email address, or send
// the verification mail again; each is on the account's history with who and when.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

describe('POST /api/admin/customers/:id/verify', () => {
  it('marks the email verified (the customer can log in), retires the open links and records who', async () => {
    const { user, password } = await createUser(t.database.db, { verified: false });
    expect((await change(t, user.id, 'resend-verification', {}, admin.cookie)).statusCode).toBe(200);
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1);
    const link = linkIn(mail!, `${TEST_ORIGIN}/api/verify-email?token=`).slice(TEST_ORIGIN.length);
    const res = await change(t, user.id, 'verify', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = adminCustomerChanged.parse(res.json());
    expect(body.message).toBe(`${user.username}'s email address is marked verified.`);
    expect(body.detail.customer).toMatchObject({ id: user.id, verified: true });
    expect(body.detail.events[0]).toMatchObject({ action: 'verified', actorName: admin.user.username });
    expect((await userRow(t, user.id)).emailVerifiedAt).not.toBeNull();
    const events = await eventsOf(t, user.id);
    expect(events.map((e) => [e.action, e.actorUserId])).toEqual([
      ['verification_sent', admin.user.id],
      ['verified', admin.user.id],
    ]);
    await loginAs(t, user.username, password);
    // The link mailed before is retired.
    expect((await t.app.inject({ url: link, headers: { accept: 'application/json' } })).statusCode).toBe(400);
  });

  it('refuses an account verified already with 409, and a bad body with 400, changing nothing', async () => {
    const { user } = await createUser(t.database.db);
    const unverified = (await createUser(t.database.db, { verified: false })).user;
    const before = await accountsSnapshot(t);
    const again = await change(t, user.id, 'verify', { value: true }, admin.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This email address is verified already.' });
    for (const body of [{}, { value: false }, { value: 'true' }, [], 'yes']) {
      const res = await change(t, unverified.id, 'verify', body, admin.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await change(t, 987654, 'verify', { value: true }, admin.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Customer not found.' });
  });
});

describe('POST /api/admin/customers/:id/resend-verification', () => {
  it('queues a fresh verification mail whose link verifies the account, and records who sent it', async () => {
    const { user } = await createUser(t.database.db, { verified: false });
    const res = await change(t, user.id, 'resend-verification', {}, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = adminCustomerChanged.parse(res.json());
    expect(body.message).toBe(`A verification mail is on its way to ${user.email}.`);
    expect(body.detail.events[0]).toMatchObject({
      action: 'verification_sent',
      actorName: admin.user.username,
      note: `to ${user.email}`,
    });
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1);
    expect(mail).toBeDefined();
    const link = linkIn(mail!, `${TEST_ORIGIN}/api/verify-email?token=`).slice(TEST_ORIGIN.length);
    const visit = await t.app.inject({ url: link });
    expect(visit.headers.location).toBe('/login?verified=1');
    expect((await userRow(t, user.id)).emailVerifiedAt).not.toBeNull();
  });

  it('refuses an account verified already with 409 and sends nothing', async () => {
    const { user } = await createUser(t.database.db);
    const before = await accountsSnapshot(t);
    const res = await change(t, user.id, 'resend-verification', {}, admin.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'This email address is verified already: there is no verification mail to send.',
    });
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('keeps the hourly cap of 3 verification mails an account: the 4th is a 429 and sends nothing', async () => {
    const { user } = await createUser(t.database.db, { verified: false });
    for (let n = 0; n < 3; n++) {
      const res = await change(t, user.id, 'resend-verification', {}, admin.cookie);
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await accountsSnapshot(t);
    const res = await change(t, user.id, 'resend-verification', {}, admin.cookie);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/3 verification mails in the last hour/);
    expect(await accountsSnapshot(t)).toEqual(before);
    t.advance(3600_000 + 1000);
    expect((await change(t, user.id, 'resend-verification', {}, admin.cookie)).statusCode).toBe(200);
  });
});
