import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { box } from '../../mesh/testing/generate.ts';
import { modelXml, type ObjectSpec, package3mf, simple3mf } from '../../mesh/testing/threemf.ts';
import type { Database } from '../db/client.ts';
import { models } from '../db/schema.ts';
import { createAnalysisPool } from '../models/analysis-pool.ts';
import { boxStl, filesIn, receivedUpload, uploadRequest } from '../models/testing.ts';
import { createModelFromUpload, LIMIT_MESSAGES, type UploadDeps } from '../models/upload-service.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { openTestDatabase } from '../testing/test-db.ts';

// Issue #28 (docs/security.md 30, promise 8): models made to exhaust the analysis. One that makes its worker
// exceed the memory cap is refused (422 "too complex"), nothing is kept, the thread is replaced and the next
// model is analysed. 3MF files built to blow up (deep or looping components, a fan-out placing millions of
// copies, a vertex index past the mesh) are refused in bounded time with a message naming the problem.

const triangle = { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], faces: [[0, 1, 2]] };

/** `n` one-triangle objects the build never uses, and a 10 mm box it prints: cheap to send, costly to hold. */
function manyObjects3mf(n: number): Uint8Array {
  const objects: ObjectSpec[] = Array.from({ length: n }, (_, k) => ({ id: k + 1, mesh: triangle }));
  objects.push({ id: n + 1, mesh: box(10, 10, 10) });
  return simple3mf({ objects, build: [{ objectid: n + 1 }] });
}

/** Object k holds `fan` copies of object k - 1, `levels` deep, over `leaf` (object 1). */
function fanOut3mf(levels: number, fan: number, leaf: ObjectSpec, extra: ObjectSpec[] = []): Uint8Array {
  const objects: ObjectSpec[] = [leaf, ...extra];
  for (let k = 2; k <= levels; k++)
    objects.push({ id: k, components: Array.from({ length: fan }, () => ({ objectid: k - 1 })) });
  return simple3mf({ objects, build: [{ objectid: levels }, ...extra.map((o) => ({ objectid: o.id }))] });
}

describe('the analysis worker past its memory cap', () => {
  let database: Database;
  let dir: string;
  let store: LocalFileStore;
  const visitor = { userId: null, visitorHash: 'b'.repeat(64) };
  const log = { error() {}, warn() {}, info() {} } as unknown as UploadDeps['log'];
  beforeAll(async () => {
    database = await openTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-render-limits-'));
    store = new LocalFileStore(path.join(dir, 'files'));
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const received = (bytes: Uint8Array, fileName: string, extension: 'stl' | '3mf') => ({
    ...receivedUpload(dir, bytes, fileName),
    extension,
  });

  it('refuses the model with 422 "too complex", keeps nothing, and analyses the next one', async () => {
    // A 16 MB heap holds the worker and an ordinary model, not 60,000 objects (about 180 KB of 3MF).
    const pool = createAnalysisPool({ maxThreads: 1, maxOldGenerationSizeMb: 16, timeoutMs: 90_000 });
    const deps: UploadDeps = { db: database.db, store, pool, now: () => new Date(), log };
    try {
      const before = await createModelFromUpload(
        deps,
        received(boxStl(10, 10, 10), 'before.stl', 'stl'),
        visitor,
      );
      expect(before.triangles).toBe(12);
      const kept = filesIn(path.join(dir, 'files')).sort();

      const err = await createModelFromUpload(
        deps,
        received(manyObjects3mf(60_000), 'many.3mf', '3mf'),
        visitor,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ statusCode: 422, message: LIMIT_MESSAGES.memory });
      expect((await database.db.select().from(models)).map((m) => m.id)).toEqual([before.id]);
      expect(filesIn(path.join(dir, 'files')).sort()).toEqual(kept);

      // The pool replaced the thread that ran out: the next model is analysed as usual.
      const after = await createModelFromUpload(
        deps,
        received(boxStl(20, 10, 10), 'after.stl', 'stl'),
        visitor,
      );
      expect(after).toMatchObject({ triangles: 12, dimX: 20 });
    } finally {
      await pool.close();
    }
  }, 240_000);

  it('refuses a 3MF whose components fan out into billions of empty visits by their count, at once', async () => {
    // 2^31 visits of objects that place nothing: no object or triangle limit is reached; the placements are
    // counted and refused long before the time limit.
    const pool = createAnalysisPool({ maxThreads: 1, timeoutMs: 8_000 });
    const deps: UploadDeps = { db: database.db, store, pool, now: () => new Date(), log };
    try {
      await database.db.delete(models);
      const kept = filesIn(path.join(dir, 'files')).sort();
      const empty: ObjectSpec = { id: 1, components: [] };
      const started = Date.now();
      const err = await createModelFromUpload(
        deps,
        received(fanOut3mf(32, 2, empty, [{ id: 100, mesh: box(10, 10, 10) }]), 'fan.3mf', '3mf'),
        visitor,
      ).catch((e: unknown) => e);
      expect(err).toMatchObject({
        statusCode: 422,
        message: "This 3MF file's components place objects more than 1,000,000 times: we cannot analyse it.",
      });
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(await database.db.select().from(models)).toEqual([]);
      expect(filesIn(path.join(dir, 'files')).sort()).toEqual(kept);
      const after = await createModelFromUpload(
        deps,
        received(boxStl(30, 10, 10), 'next.stl', 'stl'),
        visitor,
      );
      expect(after.triangles).toBe(12);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('POST /api/uploads: 3MF files built to blow up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(models);
  });

  const files = () => filesIn(path.join(t.dataDir, 'files')).sort();

  it.each<[string, () => Uint8Array, RegExp]>([
    [
      'components nested 40 deep',
      () => fanOut3mf(40, 1, { id: 1, mesh: box(10, 10, 10) }),
      /^This 3MF file nests components more than 32 deep: we cannot analyse it\.$/,
    ],
    [
      'an object that contains itself',
      () =>
        simple3mf({
          objects: [
            { id: 1, mesh: box(10, 10, 10) },
            { id: 2, components: [{ objectid: 1 }, { objectid: 2 }] },
          ],
          build: [{ objectid: 2 }],
        }),
      /^Object 2 of this 3MF file contains itself/,
    ],
    [
      'a fan-out placing a box 2^29 times',
      () => fanOut3mf(30, 2, { id: 1, mesh: box(10, 10, 10) }),
      /^This 3MF file places more than 100,000 objects: we cannot analyse it\.$/,
    ],
    [
      'a build of 101 items of 1,000 components each',
      () =>
        simple3mf({
          objects: [
            { id: 1, mesh: triangle },
            { id: 2, components: Array.from({ length: 1000 }, () => ({ objectid: 1 })) },
          ],
          build: Array.from({ length: 101 }, () => ({ objectid: 2 })),
        }),
      /^This 3MF file places more than 100,000 objects/,
    ],
  ])('refuses %s in bounded time with 422 and its reason, keeping nothing', async (_what, make, message) => {
    const before = files();
    const started = Date.now();
    const res = await t.app.inject(uploadRequest({ fileName: 'bomb.3mf', bytes: make() }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatch(message);
    // Well inside the 20 s time limit: refused by a count, not stopped by the clock.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await t.database.db.select().from(models)).toEqual([]);
    expect(files()).toEqual(before);
  });

  // Indices are kept in an Int32Array: 2^32 once wrapped to vertex 0 and was accepted, and 2^31 turned
  // negative; each is now refused naming the index.
  it.each(['4294967296', '2147483648'])(
    'refuses a triangle naming vertex %s of an 8-vertex mesh, naming it',
    async (index) => {
      const xml = modelXml({ objects: [{ id: 1, mesh: box(10, 10, 10) }], build: [{ objectid: 1 }] }).replace(
        'v1="0"',
        `v1="${index}"`,
      );
      const res = await t.app.inject(uploadRequest({ fileName: 'index.3mf', bytes: package3mf(xml) }));
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe(
        `A triangle of object 1 in this 3MF file names vertex ${index}, but the object has 8 vertices.`,
      );
    },
  );
});
