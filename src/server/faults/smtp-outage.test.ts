import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, postJson } from '../auth/testing.ts';
import {
  cartItem,
  makeCustomer,
  orderOfSession,
  paySimulator,
  startCheckout,
  uploadBox,
} from '../checkout/testing.ts';
import { outbox } from '../db/schema.ts';
import { retryDelayMs } from '../jobs/outbox-repository.ts';
import { startSmtpServer, type TestSmtpServer } from '../mail/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// The mail server down while customers register, ask for a password reset and pay (issue #28): every
// request succeeds at once, the mails wait in the outbox, and once SMTP is back each is sent exactly once.

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ SMTP_URL: smtp.url, RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function outboxRows() {
  return t.database.db
    .select({
      id: outbox.id,
      status: outbox.status,
      attempts: outbox.attempts,
      to: sql<string>`${outbox.payload}->>'to'`,
      subject: sql<string>`${outbox.payload}->>'subject'`,
    })
    .from(outbox)
    .orderBy(outbox.id);
}

describe('an SMTP outage during registration, password reset and payment', () => {
  it('fails no request, loses no mail, and sends each once when the server is back', async () => {
    // Ready before the outage: a customer with a checkout open, an account that forgot its password.
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 20, 'outage.stl');
    const checkout = await startCheckout(t, customer, [cartItem(model)]);
    expect(checkout.statusCode).toBe(200);
    const sessionId = checkout.json().id as string;
    const { user: forgetful } = await createUser(t.database.db, { email: 'forgetful@example.com' });
    await t.app.outbox.drain();
    const queuedBefore = (await outboxRows()).length;
    const receivedBefore = smtp.messages.length;

    await smtp.stop();
    const registered: string[] = [];
    for (const name of ['outage_a', 'outage_b', 'outage_c']) {
      const res = await postJson(t, '/api/register.php', {
        username: name,
        email: `${name}@example.com`,
        password: 'secret-pw-123',
      });
      expect(res.statusCode, name).toBe(201);
      registered.push(`${name}@example.com`);
    }
    const reset = await postJson(t, '/api/request_password_reset.php', { email: forgetful.email });
    expect(reset.statusCode).toBe(200);
    const paid = await paySimulator(t, sessionId);
    expect(paid.statusCode).toBe(200);
    expect((await orderOfSession(t, sessionId))?.status).toBe('paid');

    // Queued with their causes; every attempt fails while SMTP is down, and they stay pending.
    const queued = (await outboxRows()).slice(queuedBefore);
    const recipients = queued.map((r) => r.to);
    for (const to of [...registered, forgetful.email]) expect(recipients).toContain(to);
    const order = await orderOfSession(t, sessionId);
    expect(queued.filter((r) => r.subject.includes(`Order #${order!.id} confirmed`))).toHaveLength(1);
    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: queued.length });
    t.advance(retryDelayMs(1));
    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: queued.length });
    const waiting = (await outboxRows()).slice(queuedBefore);
    expect(waiting.map((r) => [r.status, r.attempts])).toEqual(queued.map(() => ['pending', 2]));
    expect(smtp.messages.length).toBe(receivedBefore);

    // SMTP back: each mail goes once, at its next retry; draining again sends nothing more.
    await smtp.start();
    t.advance(retryDelayMs(2));
    expect(await t.app.outbox.drain()).toEqual({ sent: queued.length, failed: 0 });
    t.advance(3600_000);
    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: 0 });

    const received = smtp.messages.slice(receivedBefore);
    expect(received).toHaveLength(queued.length);
    const sent = received.map((m) => `${m.headers.to} ${m.headers.subject}`).sort();
    expect(sent).toEqual(queued.map((r) => `${r.to} ${r.subject}`).sort());
    expect(new Set(sent).size).toBe(sent.length);
    const rows = await t.database.db
      .select({ status: outbox.status })
      .from(outbox)
      .where(eq(outbox.status, 'pending'));
    expect(rows).toEqual([]);
  });
});
