import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createLoggedInUser, drainedMails, postJson } from '../auth/testing.ts';
import { contactMessages, outbox } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ SHOP_EMAIL: 'owner@shop.test' });
});
afterAll(() => t.close());

let ip = 0;
/** Each call from its own address unless told; the limit has its own test. */
const send = (body: unknown, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  postJson(t, '/api/send_contact_email.php', body, options.headers ?? {}, {
    remoteAddress: options.remoteAddress ?? `10.9.0.${++ip}`,
  });

async function counts() {
  return [await countRows(t.database.db, contactMessages), await countRows(t.database.db, outbox)];
}

const THANKS = "Thank you for your message! We'll get back to you soon.";

describe('POST /api/send_contact_email.php', () => {
  it('stores the message and mails the shop with Reply-To the sender, user input escaped', async () => {
    const [messages, mails] = await counts();
    const res = await send({
      name: '  Jane <b>Doe</b> ',
      email: 'jane@example.com',
      message: 'Can you print <script>alert(1)</script> in PETG?\nThanks!',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: THANKS });
    expect(await counts()).toEqual([messages! + 1, mails! + 1]);

    const [row] = await t.database.db
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.id))
      .limit(1);
    expect(row).toMatchObject({ name: 'Jane <b>Doe</b>', email: 'jane@example.com', userId: null });

    const mail = (await drainedMails(t)).at(-1)!;
    expect(mail.headers.to).toBe('owner@shop.test');
    expect(mail.headers['reply-to']).toBe('jane@example.com');
    expect(mail.headers.subject).toBe('Contact form: Jane <b>Doe</b>');
    expect(mail.text).toContain('Can you print <script>alert(1)</script> in PETG?\nThanks!');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Doe</b>');
  });

  it('notes the account of a logged-in sender', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    const res = await send({ name: 'Me', email: user.email, message: 'Hello' }, { headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.id))
      .limit(1);
    expect(row?.userId).toBe(user.id);
  });

  it('refuses missing, malformed or oversized fields and line breaks in name or email; stores nothing', async () => {
    const ok = { name: 'Ann', email: 'ann@example.com', message: 'Hi' };
    const cases: [unknown, string][] = [
      [{}, 'Name, email and message are required.'],
      [{ ...ok, message: '   ' }, 'Name, email and message are required.'],
      [{ ...ok, name: undefined }, 'Name, email and message are required.'],
      [{ ...ok, email: 'not-an-email' }, 'Please enter a valid email address.'],
      [{ ...ok, name: 'n'.repeat(101) }, 'Name must be at most 100 characters long.'],
      [{ ...ok, message: 'm'.repeat(5001) }, 'Message must be at most 5000 characters long.'],
      [{ ...ok, name: 'Ann\r\nBcc: victim@example.com' }, 'Name and email must each be a single line.'],
      [
        { ...ok, email: 'ann@example.com\nBcc: victim@example.com' },
        'Name and email must each be a single line.',
      ],
    ];
    const before = await counts();
    for (const [body, error] of cases) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    expect(await counts()).toEqual(before);
    expect((await send({ ...ok, name: 'n'.repeat(100), message: 'm'.repeat(5000) })).statusCode).toBe(200);
  });

  it('allows 5 messages per 10 minutes per client; the 6th is a 429 with Retry-After, nothing stored, spoofed X-Forwarded-For or not', async () => {
    const body = { name: 'Flood', email: 'flood@example.com', message: 'again' };
    for (let i = 0; i < 5; i++) {
      expect((await send(body, { remoteAddress: '10.8.0.1' })).statusCode).toBe(200);
    }
    const before = await counts();
    for (const spoof of ['', '198.51.100.1', '198.51.100.2']) {
      const res = await send(body, {
        remoteAddress: '10.8.0.1',
        headers: spoof ? { 'x-forwarded-for': spoof } : {},
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: 'Too many requests. Please wait before submitting again.' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await counts()).toEqual(before);
  });
});
