import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_MAILS_PER_HOUR } from '../auth/password-reset-service.ts';
import { countRows, createUser, postJson } from '../auth/testing.ts';
import { VERIFY_MAILS_PER_HOUR } from '../auth/verification-service.ts';
import { outbox } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// docs/security.md 10 and promise 9, the part that had no test: resend-verification and forgot-password
// answer a known and an unknown account with the same status and body, in about the same time (answers are
// padded to 100 ms). Timing is compared robustly: medians of interleaved runs, within a factor of 2.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

let ip = 0;
async function timed(url: string, body: unknown) {
  const start = performance.now();
  const res = await postJson(
    t,
    url,
    body,
    {},
    { remoteAddress: `10.9.${Math.floor(++ip / 250)}.${ip % 250}` },
  );
  return { ms: performance.now() - start, status: res.statusCode, body: res.body };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Interleaved runs of `known` and `unknown`; returns both answers' medians after checking they read alike. */
async function compare(url: string, known: () => unknown, unknown: (i: number) => unknown) {
  await timed(url, unknown(-1)); // warm-up
  const k: number[] = [];
  const u: number[] = [];
  for (let i = 0; i < 7; i++) {
    const a = await timed(url, known());
    const b = await timed(url, unknown(i));
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body).toBe(a.body);
    k.push(a.ms);
    u.push(b.ms);
  }
  return { known: median(k), unknown: median(u) };
}

describe('account enumeration through resend and forgot (docs/security.md 10, promise 9)', () => {
  it('resend-verification: the same 200 body for an unverified, a verified and an unknown username, in about the same time', async () => {
    const unverified = await createUser(t.database.db, { verified: false });
    const verified = await createUser(t.database.db);
    const mails = await countRows(t.database.db, outbox);
    for (const known of [unverified.user.username, verified.user.username]) {
      const m = await compare(
        '/api/resend_verification.php',
        () => ({ username: known }),
        (i) => ({ username: `ghost-resend-${i}` }),
      );
      expect(m.known).toBeGreaterThanOrEqual(95);
      expect(m.unknown).toBeGreaterThanOrEqual(95);
      expect(m.unknown / m.known).toBeGreaterThan(0.5);
      expect(m.unknown / m.known).toBeLessThan(2);
    }
    // Only the unverified account got mail, capped per hour; the verified and unknown names got none.
    expect((await countRows(t.database.db, outbox)) - mails).toBe(VERIFY_MAILS_PER_HOUR);
  });

  it('forgot-password: the same 200 body for a known and an unknown email, in about the same time', async () => {
    const known = await createUser(t.database.db);
    const mails = await countRows(t.database.db, outbox);
    const m = await compare(
      '/api/request_password_reset.php',
      () => ({ email: known.user.email }),
      (i) => ({ email: `ghost${i}@example.com` }),
    );
    expect(m.known).toBeGreaterThanOrEqual(95);
    expect(m.unknown).toBeGreaterThanOrEqual(95);
    expect(m.unknown / m.known).toBeGreaterThan(0.5);
    expect(m.unknown / m.known).toBeLessThan(2);
    // Mail went to the known account only, capped at 3 an hour (docs/security.md 13).
    expect((await countRows(t.database.db, outbox)) - mails).toBe(RESET_MAILS_PER_HOUR);
  });
});
