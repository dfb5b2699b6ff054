import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { hashVisitorToken } from './owner.ts';
import { boxStl, filesIn, fillerModelRow, uploadRequest } from './testing.ts';

// docs/security.md 31: a per-IP rate limit on uploads, and per-owner quotas (models a day, bytes stored).

describe('upload rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '0.1' }); // 30 per 10 minutes x 0.1 = 3
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit for one IP', async () => {
    for (let k = 0; k < 3; k++) {
      expect((await t.app.inject(uploadRequest({ fileName: 'n.txt', bytes: 'x' }))).statusCode).toBe(400);
    }
    const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 10) }));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      error: 'Too many uploads from your network. Please wait a few minutes and try again.',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited.
    const other = await t.app.inject({
      ...uploadRequest({ fileName: 'n.txt', bytes: 'x' }),
      remoteAddress: '10.0.0.2',
    });
    expect(other.statusCode).toBe(400);
  });
});

describe('per-owner quotas', () => {
  let t: TestApp;
  const token = 'q'.repeat(43);
  const cookie = `visitor=${token}`;
  const row = (sizeBytes: number, createdAt: Date) =>
    fillerModelRow({ ownerVisitorHash: hashVisitorToken(token), sizeBytes, createdAt });

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  });
  afterAll(() => t.close());

  it('answers 429 after 200 models in 24 hours, storing nothing', async () => {
    const now = new Date();
    await t.database.db.insert(models).values(Array.from({ length: 200 }, () => row(1000, now)));
    const res = await t.app.inject(
      uploadRequest({ fileName: 'one-more.stl', bytes: boxStl(10, 10, 10) }, cookie),
    );
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/200 models in the last 24 hours/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(filesIn(`${t.dataDir}/files`)).toEqual([]);
    // A day later the same browser may upload again.
    t.advance(24 * 3600_000 + 1000);
    const later = await t.app.inject(
      uploadRequest({ fileName: 'one-more.stl', bytes: boxStl(10, 10, 10) }, cookie),
    );
    expect(later.statusCode).toBe(201);
  });

  it('answers 413 past 2 GB of stored files', async () => {
    await t.database.db.delete(models);
    fs.rmSync(`${t.dataDir}/files`, { recursive: true, force: true });
    await t.database.db.insert(models).values(row(2 * 1024 ** 3 - 100, new Date(Date.now() - 48 * 3600_000)));
    const res = await t.app.inject(
      uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 10) }, cookie),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/more than 2 GB/);
    expect(filesIn(`${t.dataDir}/files`)).toEqual([]);
    expect(filesIn(`${t.dataDir}/tmp`)).toEqual([]);
  });
});
