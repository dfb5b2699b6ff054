import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../auth/testing.ts';
import { users } from '../db/schema.ts';
import { buildTestApp, TEST_ORIGIN } from '../testing/test-app.ts';
import { createMailer, firstLink, maskEmail } from './mailer.ts';
import { contactMessageMail, escapeHtml, verificationMail } from './templates.ts';
import { linkIn, readOutboxDir, startSmtpServer, type TestSmtpServer } from './testing.ts';

const brand = { shopName: 'Badger Print Co.', publicUrl: 'https://shop.example.com' };

function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, log: Fastify({ logger: { level: 'info', stream } }).log };
}

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.stop());

describe('templates', () => {
  it('have a text and an HTML part, the shop name, absolute links, and escape user input', () => {
    const mail = verificationMail(brand, {
      to: 'a@example.com',
      username: '<img src=x>',
      link: 'https://shop.example.com/api/verify-email?token=abc&x=1',
    });
    expect(mail.subject).toBe('Verify your email');
    expect(mail.text).toContain('Badger Print Co.');
    expect(firstLink(mail.text)).toBe('https://shop.example.com/api/verify-email?token=abc&x=1');
    expect(mail.html).toContain('href="https://shop.example.com/api/verify-email?token=abc&amp;x=1"');
    expect(mail.html).toContain('&lt;img src=x&gt;');
    expect(mail.html).not.toContain('<img');
  });

  it('escape every HTML special character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('mask addresses for logs', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
    expect(maskEmail('broken')).toBe('***');
  });
});

describe('the outbox-file mailer (no SMTP_URL)', () => {
  it('writes a .eml per mail and logs one line naming its file, never its link (docs/security.md 22)', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    try {
      const { lines, log } = captureLog();
      const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'Shop <shop@localhost>', outboxDir }, log);
      expect(mailer.kind).toBe('outbox-files');
      const link = 'https://shop.example.com/api/verify-email?token=tok123';
      await mailer.send(verificationMail(brand, { to: 'alice@example.com', username: 'alice', link }), 7);
      await mailer.send(
        contactMessageMail(brand, {
          to: 'shop@localhost',
          name: 'Bob',
          email: 'bob@example.com',
          message: 'Hi',
        }),
        8,
      );
      mailer.close();
      const files = fs.readdirSync(outboxDir).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^\d{8}T\d{9}Z-00000007\.eml$/);
      const [verify, contact] = readOutboxDir(outboxDir);
      expect(verify?.headers.from).toBe('Shop <shop@localhost>');
      expect(verify?.headers.to).toBe('alice@example.com');
      expect(linkIn(verify!, 'https://shop.example.com/api/verify-email')).toBe(link);
      expect(verify?.html).toContain('alice');
      expect(contact?.headers['reply-to']).toBe('bob@example.com');
      const messages = lines.map((l) => JSON.parse(l).msg as string);
      expect(messages).toEqual([
        `mail to a***@example.com: Verify your email (${path.join(outboxDir, files[0]!)})`,
        `mail to s***@localhost: Contact form: Bob (${path.join(outboxDir, files[1]!)})`,
      ]);
      expect(lines.join('')).not.toContain('tok123');
    } finally {
      fs.rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});

describe('the SMTP mailer (SMTP_URL)', () => {
  it('delivers to a real SMTP server', async () => {
    const { log } = captureLog();
    const mailer = createMailer(
      { smtpUrl: smtp.url, mailFrom: 'Shop <shop@example.com>', outboxDir: '/nonexistent' },
      log,
    );
    expect(mailer.kind).toBe('smtp');
    const before = smtp.messages.length;
    await mailer.send(
      contactMessageMail(brand, {
        to: 'owner@example.com',
        name: 'Eve',
        email: 'eve@example.com',
        message: 'Hey',
      }),
      1,
    );
    mailer.close();
    const got = smtp.messages.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]?.headers.to).toBe('owner@example.com');
    expect(got[0]?.headers['reply-to']).toBe('eve@example.com');
    expect(got[0]?.text).toContain('Hey');
  });

  it('carries a registration: the verification link read from the received mail verifies the account', async () => {
    const t = await buildTestApp({ SMTP_URL: smtp.url });
    try {
      const res = await postJson(t, '/api/register.php', {
        username: 'smtpuser',
        email: 'smtpuser@example.com',
        password: 'secret-pw',
      });
      expect(res.statusCode).toBe(201);
      expect(await t.app.outbox.drain()).toEqual({ sent: 1, failed: 0 });
      const mail = smtp.messages.filter((m) => m.headers.to === 'smtpuser@example.com').at(-1)!;
      const link = linkIn(mail, `${TEST_ORIGIN}/api/verify-email?token=`);
      const visit = await t.app.inject({ url: link.slice(TEST_ORIGIN.length) });
      expect(visit.statusCode).toBe(302);
      const [user] = await t.database.db.select().from(users).where(eq(users.username, 'smtpuser'));
      expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
      // Nothing was written to the outbox directory.
      expect(readOutboxDir(path.join(t.dataDir, 'outbox'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
