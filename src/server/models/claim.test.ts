import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '../auth/testing.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
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
});
