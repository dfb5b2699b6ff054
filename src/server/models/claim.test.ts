import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '../auth/testing.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { hashVisitorToken } from './owner.ts';
import { boxStl, cookieFrom, uploadRequest } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a visitor who logs in keeps their uploads', () => {
  it("moves the browser's models to the account at login, and the account then owns them", async () => {
    const upload = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(20, 20, 20) }));
    expect(upload.statusCode).toBe(201);
    const modelId = upload.json().id as string;
    const visitor = cookieFrom(upload, 'visitor');
    expect(visitor).toBeDefined();

    const { user, password } = await createUser(t.database.db);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login.php',
      headers: { 'content-type': 'application/json', origin: 'http://shop.test', cookie: visitor! },
      payload: JSON.stringify({ username: user.username, password }),
    });
    expect(login.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(models).where(eq(models.id, modelId));
    expect(row?.ownerUserId).toBe(user.id);

    // From another browser, the account alone is enough to fetch it.
    const cookie = await loginAs(t, user.username, password);
    const file = await t.app.inject({ url: `/api/models/${modelId}/file`, headers: { cookie } });
    expect(file.statusCode).toBe(200);
  });

  it('refuses the stored 64-hex hash as a visitor cookie: nothing moves to the account', async () => {
    const upload = await t.app.inject(uploadRequest({ fileName: 'hash.stl', bytes: boxStl(21, 21, 21) }));
    const modelId = upload.json().id as string;
    const token = cookieFrom(upload, 'visitor').slice('visitor='.length);
    const [before] = await t.database.db.select().from(models).where(eq(models.id, modelId));
    expect(before?.ownerVisitorHash).toBe(hashVisitorToken(token));

    const { user, password } = await createUser(t.database.db);
    const forged = `visitor=${before!.ownerVisitorHash}`;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login.php',
      headers: { 'content-type': 'application/json', origin: 'http://shop.test', cookie: forged },
      payload: JSON.stringify({ username: user.username, password }),
    });
    expect(login.statusCode).toBe(200);
    const [after] = await t.database.db.select().from(models).where(eq(models.id, modelId));
    expect(after).toEqual(before);
    // Nor does the hash read the model.
    const peek = await t.app.inject({ url: `/api/models/${modelId}`, headers: { cookie: forged } });
    expect(peek.statusCode).toBe(404);
  });
});

describe('logout ends the visitor cookie', () => {
  it('clears the visitor cookie with the session, so the next login on this browser claims nothing', async () => {
    const first = await createUser(t.database.db);
    const session = await loginAs(t, first.user.username, first.password);
    const upload = await t.app.inject(uploadRequest({ fileName: 'anon.stl', bytes: boxStl(22, 22, 22) }));
    const visitor = cookieFrom(upload, 'visitor');

    const logout = await t.app.inject({
      url: '/api/logout.php',
      headers: { cookie: `${session}; ${visitor}` },
    });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ message: 'Logged out successfully.' });
    const cleared = logout.cookies.find((c) => c.name === 'visitor');
    expect(cleared).toMatchObject({ value: '', path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(cleared!.expires!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(logout.cookies.find((c) => c.name === 'session')?.value).toBe('');

    // A browser that obeys logs in without the cookie: the earlier visitor's upload stays theirs.
    const second = await createUser(t.database.db);
    await loginAs(t, second.user.username, second.password);
    const [row] = await t.database.db.select().from(models).where(eq(models.id, upload.json().id));
    expect(row?.ownerUserId).toBeNull();
  });
});
