import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, postJson } from '../auth/testing.ts';
import { outbox } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { startSmtpServer, type TestSmtpServer } from '../mail/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { enqueueMail, MAX_ATTEMPTS, retryDelayMs } from './outbox-repository.ts';
import { drainOutbox } from './outbox-worker.ts';

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

const mail = (to: string) => ({ to, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });

function fakeMailer(send: Mailer['send']): Mailer & { sent: number[] } {
  const sent: number[] = [];
  return {
    kind: 'smtp',
    sent,
    async send(m, id) {
      await send(m, id);
      sent.push(id);
    },
    close() {},
  };
}

describe('an SMTP outage (docs/domain.md)', () => {
  it('fails no request and loses no mail: it is sent once when the server is back', async () => {
    await smtp.stop();
    const res = await postJson(t, '/api/register.php', {
      username: 'outage',
      email: 'outage@example.com',
      password: 'secret-pw',
    });
    expect(res.statusCode).toBe(201);

    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: 1 });
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.status, 'pending'));
    expect(row).toMatchObject({ attempts: 1, lockedUntil: null });
    expect(row?.lastError).toBeTruthy();

    await smtp.start();
    // Not due yet: the first retry waits 10 s.
    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: 0 });
    t.advance(retryDelayMs(1));
    expect(await t.app.outbox.drain()).toEqual({ sent: 1, failed: 0 });
    expect(await t.app.outbox.drain()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages.filter((m) => m.headers.to === 'outage@example.com')).toHaveLength(1);
    const [sent] = await t.database.db.select().from(outbox).where(eq(outbox.id, row!.id));
    expect(sent?.status).toBe('sent');
    expect(sent?.sentAt).toBeInstanceOf(Date);
  });
});

describe('drainOutbox', () => {
  const ctx = () => ({ db: t.database.db, now: () => new Date(Date.now() + offset) });
  let offset = 0;

  it('backs off exponentially (10 s, 20 s ... at most 1 h) and gives up after 12 attempts', async () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(20)).toBe(3600_000);

    const id = await enqueueMail(t.database.db, mail('doomed@example.com'), { now: ctx().now() });
    const failing = fakeMailer(async () => {
      throw new Error('550 mailbox unavailable');
    });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await drainOutbox(ctx(), failing)).toEqual({ sent: 0, failed: 1 });
      const [row] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(row?.attempts).toBe(attempt);
      expect(row?.status).toBe(attempt < MAX_ATTEMPTS ? 'pending' : 'dead');
      if (attempt < MAX_ATTEMPTS) {
        const wait = row!.nextAttemptAt.getTime() - ctx().now().getTime();
        expect(wait).toBeGreaterThan(retryDelayMs(attempt) - 5000);
        expect(wait).toBeLessThanOrEqual(retryDelayMs(attempt));
      }
      offset += retryDelayMs(attempt);
    }
    // Dead mail is never tried again.
    offset += 24 * 3600_000;
    expect(await drainOutbox(ctx(), failing)).toEqual({ sent: 0, failed: 0 });
  });

  it('sends each mail once when two workers drain at the same time', async () => {
    const ids = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) =>
        enqueueMail(t.database.db, mail(`many${i}@example.com`), { now: ctx().now() }),
      ),
    );
    const slow = fakeMailer(() => new Promise((resolve) => setTimeout(resolve, 5)));
    const [a, b] = await Promise.all([drainOutbox(ctx(), slow), drainOutbox(ctx(), slow)]);
    expect(a.sent + b.sent).toBe(6);
    expect([...slow.sent].sort((x, y) => x - y)).toEqual(ids.sort((x, y) => x - y));
  });

  it('queues nothing when the transaction that queued it rolls back', async () => {
    const before = await countRows(t.database.db, outbox);
    await expect(
      t.database.db.transaction(async (tx) => {
        await enqueueMail(tx, mail('never@example.com'));
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await countRows(t.database.db, outbox)).toBe(before);
  });
});

describe('the background worker (outside tests)', () => {
  it('sends right after the commit, without anyone draining, and stops with the app', async () => {
    const live = await buildTestApp({ NODE_ENV: 'development', SMTP_URL: smtp.url });
    try {
      const res = await postJson(live, '/api/resend_verification.php', { username: 'nobody' });
      expect(res.statusCode).toBe(200);
      await postJson(live, '/api/send_contact_email.php', {
        name: 'Live',
        email: 'live@example.com',
        message: 'Hello from the worker test',
      });
      const deadline = Date.now() + 5000;
      while (
        !smtp.messages.some((m) => m.headers['reply-to'] === 'live@example.com') &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(smtp.messages.filter((m) => m.headers['reply-to'] === 'live@example.com')).toHaveLength(1);
    } finally {
      await live.close();
    }
  });
});

describe('a sent mail', () => {
  it('keeps its recipient and subject but not its body, which may hold a one-time link', async () => {
    const id = await enqueueMail(t.database.db, {
      ...mail('kept@example.com'),
      text: 'token=abc',
      html: 'token=abc',
    });
    await t.app.outbox.drain();
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row?.status).toBe('sent');
    expect(row?.payload).toMatchObject({
      to: 'kept@example.com',
      subject: 'Hello',
      text: '[sent]',
      html: '[sent]',
    });
    expect(smtp.messages.some((m) => m.text.includes('token=abc'))).toBe(true);
  });
});
