import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerDetail } from '../../shared/admin-customers.ts';
import { captureLog } from '../testing/log-capture.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { boxStl, cookieFrom, makeUser, uploadRequest } from './testing.ts';

// Staff downloads of customers' files are recorded (issue 28): on the customer's account history, which
// the admin's customer page lists, and in the log. Nobody else's reads are.

const log = captureLog();
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'info', RATE_LIMIT_SCALE: '100' }, { logStream: log.stream });
});
afterAll(() => t.close());

const history = async (userId: number, adminCookie: string) => {
  const res = await t.app.inject({ url: `/api/admin/customers/${userId}`, headers: { cookie: adminCookie } });
  expect(res.statusCode).toBe(200);
  return adminCustomerDetail.parse(res.json()).events;
};

describe("staff downloads of customers' files", () => {
  it("writes who downloaded which file on the customer's history and in the log; the owner's own reads are not", async () => {
    const customer = await makeUser(t);
    const admin = await makeUser(t, { admin: true });
    const model = (
      await t.app.inject(
        uploadRequest({ fileName: 'bracket.stl', bytes: boxStl(20, 10, 5) }, customer.cookie),
      )
    ).json();

    const own = await t.app.inject({
      url: `/api/models/${model.id}/file`,
      headers: { cookie: customer.cookie },
    });
    expect(own.statusCode).toBe(200);
    expect(await history(customer.id, admin.cookie)).toEqual([]);

    log.lines.length = 0;
    const staff = await t.app.inject({
      url: `/api/models/${model.id}/file`,
      headers: { cookie: admin.cookie },
    });
    expect(staff.statusCode).toBe(200);
    const events = await history(customer.id, admin.cookie);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'file_downloaded', note: `bracket.stl (model ${model.id})` });
    expect(log.entries()).toContainEqual(
      expect.objectContaining({
        msg: 'staff downloaded a customer model file',
        modelId: model.id,
        staffUserId: admin.id,
        ownerUserId: customer.id,
      }),
    );
    // The preview and the model's facts are not the file: not recorded.
    await t.app.inject({ url: `/api/models/${model.id}`, headers: { cookie: admin.cookie } });
    expect(await history(customer.id, admin.cookie)).toHaveLength(1);
  });

  it("logs a download of a visitor's model (no account to write it on) and records nothing for a refused one", async () => {
    const admin = await makeUser(t, { admin: true });
    const upload = await t.app.inject(uploadRequest({ fileName: 'visitor.stl', bytes: boxStl(5, 5, 5) }));
    const model = upload.json();
    expect(cookieFrom(upload)).toBeTruthy();
    log.lines.length = 0;
    expect(
      (await t.app.inject({ url: `/api/models/${model.id}/file`, headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(log.entries().filter((e) => e.msg === 'staff downloaded a customer model file')).toHaveLength(1);

    log.lines.length = 0;
    const stranger = await makeUser(t);
    expect(
      (await t.app.inject({ url: `/api/models/${model.id}/file`, headers: { cookie: stranger.cookie } }))
        .statusCode,
    ).toBe(404);
    expect(log.entries().filter((e) => e.msg === 'staff downloaded a customer model file')).toEqual([]);
  });
});
