import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installSecrets, models } from '../db/schema.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { cleanupExpiredModels } from './cleanup.ts';
import { newModelId } from './ids.ts';
import { DEFAULT_IP_QUOTA } from './quota.ts';
import { boxStl, filesIn, fillerModelRow, makeUser, uploadRequest } from './testing.ts';
import { createUploadIpHasher } from './upload-ip.ts';

// docs/security.md 31, per client address: a visitor who drops the `visitor` cookie before each upload gets a
// fresh per-owner quota, but not a fresh per-IP one. IPv6 counts per /64, like the rate limits.

const HOUR = 3600_000;
const { modelsPerDay, bytesPerDay } = DEFAULT_IP_QUOTA;

let t: TestApp;
let ipHash: (ip: string) => Promise<string>;
let size = 1;
let offset = 0;
/** The app's clock (t.advance moves it). */
const appNow = () => Date.now() + offset;
function advance(ms: number) {
  offset += ms;
  t.advance(ms);
}
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  ipHash = createUploadIpHasher(t.database.db);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(models);
});

/** Models uploaded from `ip` an hour ago, each by a different browser (cookie cycling). */
async function uploadedFrom(ip: string, n: number, sizeBytes = 1000) {
  const uploadIpHash = await ipHash(ip);
  const createdAt = new Date(appNow() - HOUR);
  const rows = Array.from({ length: n }, () =>
    fillerModelRow({
      ownerVisitorHash: newModelId().padEnd(64, '0').slice(0, 64),
      sizeBytes,
      uploadIpHash,
      createdAt,
    }),
  );
  await t.database.db.insert(models).values(rows);
}

/** A new box each time (no dedupe), from `ip`, without a cookie unless given. */
function upload(ip: string, cookie?: string) {
  size++;
  return t.app.inject({
    ...uploadRequest({ fileName: 'box.stl', bytes: boxStl(10, 10, size) }, cookie),
    remoteAddress: ip,
  });
}

// Counts read like prices: grouped ("1,000 models"), and never "1 models".
const TOO_MANY = `Your network has added ${modelsPerDay.toLocaleString('en-US')} models in the last 24 hours, the most we accept. Please try again later.`;

describe('per-IP upload quota', () => {
  it('stores a keyed hash of the address with each model, never the address', async () => {
    const res = await upload('192.0.2.7');
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(models).where(eq(models.id, res.json().id));
    expect(row?.uploadIpHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.uploadIpHash).toBe(await ipHash('192.0.2.7'));
    expect(JSON.stringify(row)).not.toContain('192.0.2.7');
    // One random per-install key, shared by every instance through the database.
    const secrets = await t.database.db.select().from(installSecrets);
    expect(secrets).toEqual([
      expect.objectContaining({ name: 'upload-ip', value: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
  });

  it('429 for a new cookie each time once the address reached the daily count; other addresses go on', async () => {
    await uploadedFrom('127.0.0.1', modelsPerDay - 3);
    for (let k = 0; k < 3; k++) expect((await upload('127.0.0.1')).statusCode).toBe(201);
    const refused = await upload('127.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(22 * 3600);
    // A logged-in customer on that network counts there too.
    const user = await makeUser(t);
    expect((await upload('127.0.0.1', user.cookie)).statusCode).toBe(429);
    expect((await upload('198.51.100.4')).statusCode).toBe(201);
    // Nothing of the refused uploads is kept: 1000 rows from 127.0.0.1, one from the other address.
    expect(await t.database.db.$count(models)).toBe(modelsPerDay + 1);
    expect(filesIn(path.join(t.dataDir, 'tmp'))).toEqual([]);
    // A day later the network may upload again.
    advance(24 * HOUR);
    expect((await upload('127.0.0.1')).statusCode).toBe(201);
  });

  it('counts an IPv6 /64 as one client', async () => {
    await uploadedFrom('2001:db8:1:2::1', modelsPerDay - 1);
    expect((await upload('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).statusCode).toBe(201);
    const refused = await upload('2001:db8:1:2::99');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY });
    expect((await upload('2001:db8:1:3::1')).statusCode).toBe(201);
  });

  it('413 past the daily bytes from one address, whoever uploaded them', async () => {
    await uploadedFrom('203.0.113.9', 1, bytesPerDay - 100);
    const refused = await upload('203.0.113.9');
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      error:
        'Your network has uploaded more than 10 GB in the last 24 hours, the most we accept. Please try again later.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.database.db.$count(models)).toBe(1);
  });

  it('the cleanup forgets the address hash of uploads older than a day', async () => {
    await uploadedFrom('192.0.2.50', 2); // an hour ago
    expect((await upload('192.0.2.50')).statusCode).toBe(201);
    const runIn = (ms: number) =>
      cleanupExpiredModels({
        db: t.database.db,
        store: new LocalFileStore(path.join(t.dataDir, 'files')),
        now: () => new Date(appNow() + ms),
        retentionMs: 72 * HOUR,
        tmpDir: path.join(t.dataDir, 'tmp'),
      });
    const hashed = async () =>
      (await t.database.db.select({ h: models.uploadIpHash }).from(models)).filter((r) => r.h !== null)
        .length;
    await runIn(0);
    expect(await hashed()).toBe(3);
    await runIn(23.5 * HOUR); // the two older uploads are past a day, the last one is not
    expect(await hashed()).toBe(1);
    expect(await t.database.db.$count(models)).toBe(3);
  });
});
