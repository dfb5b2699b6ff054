import path from 'node:path';
import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { type ParsedMail, readOutboxDir } from '../mail/testing.ts';
import { TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { hashPassword } from './passwords.ts';
import { insertUser } from './users-repository.ts';

// Test helpers for anything that needs accounts: a user factory, logging in, cookies and mail.

let serial = 0;

/** A user straight in the database (verified unless told otherwise). The password is returned in clear. */
export async function createUser(
  db: Db,
  overrides: Partial<{
    username: string;
    email: string;
    password: string;
    isAdmin: boolean;
    verified: boolean;
  }> = {},
): Promise<{ user: User; password: string }> {
  serial++;
  const tag = `${process.pid}${serial}`;
  const password = overrides.password ?? 'correct horse battery';
  const user = await insertUser(db, {
    username: overrides.username ?? `user${tag}`,
    email: overrides.email ?? `user${tag}@example.com`,
    passwordHash: await hashPassword(password),
    isAdmin: overrides.isAdmin ?? false,
    emailVerifiedAt: overrides.verified === false ? null : new Date(),
    now: new Date(),
  });
  if (!user) throw new Error('createUser: username or email taken');
  return { user, password };
}

/** POST with a JSON body from the shop's own origin (from 127.0.0.1 unless `remoteAddress` says otherwise). */
export function postJson(
  t: TestApp,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
  options: { remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    ...options,
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
    payload: JSON.stringify(payload),
  });
}

/** The `name=value` of the session cookie a response sets (for a `cookie` header), or undefined. */
export function sessionCookieOf(res: LightMyRequestResponse): string | undefined {
  const cookie = res.cookies.find((c) => c.name === 'session' || c.name === '__Host-session');
  return cookie?.value ? `${cookie.name}=${cookie.value}` : undefined;
}

/** Logs in and returns the `cookie` header value of the new session. */
export async function loginAs(t: TestApp, username: string, password: string): Promise<string> {
  const res = await postJson(t, '/api/login.php', { username, password });
  const cookie = sessionCookieOf(res);
  if (res.statusCode !== 200 || !cookie) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return cookie;
}

/** A verified user, logged in: its row, password and session cookie. */
export async function createLoggedInUser(
  t: TestApp,
  overrides: Parameters<typeof createUser>[1] = {},
): Promise<{ user: User; password: string; cookie: string }> {
  const created = await createUser(t.database.db, overrides);
  return { ...created, cookie: await loginAs(t, created.user.username, created.password) };
}

export async function countRows(db: Db, table: PgTable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

/** Sends every queued mail (to DATA_DIR/outbox without SMTP_URL) and returns all mails written so far. */
export async function drainedMails(t: TestApp): Promise<ParsedMail[]> {
  await t.app.outbox.drain();
  return readOutboxDir(path.join(t.dataDir, 'outbox'));
}
