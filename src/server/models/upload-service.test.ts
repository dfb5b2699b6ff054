import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { models } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import type { FileStore } from '../storage/file-store.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { AnalysisLimitError, type AnalysisPool } from './analysis-pool.ts';
import { boxStl, filesIn, inProcessPool, receivedUpload } from './testing.ts';
import { createModelFromUpload, type UploadDeps } from './upload-service.ts';

// The service without HTTP, with failures forced at each step: whatever fails, nothing is kept.

let database: Database;
let dir: string;
let store: LocalFileStore;
const silentLog = { error() {}, warn() {} } as unknown as UploadDeps['log'];
const visitor = { userId: null, visitorHash: 'a'.repeat(64) };

beforeAll(async () => {
  database = await openTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-upload-service-'));
  store = new LocalFileStore(path.join(dir, 'files'));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.delete(models);
});

/** Each call a new upload (its own content hash), whatever the bytes. */
const received = (bytes: Uint8Array) => receivedUpload(dir, bytes, 'cube.stl', `h${Math.random()}`);

const fakePool = inProcessPool;

function deps(pool: AnalysisPool, s: FileStore = store): UploadDeps {
  return { db: database.db, store: s, pool, now: () => new Date(), log: silentLog };
}

async function nothingKept() {
  expect(filesIn(path.join(dir, 'files'))).toEqual([]);
  expect(await database.db.select().from(models)).toEqual([]);
}

describe('createModelFromUpload', () => {
  it('stores the file and preview and inserts the row', async () => {
    const model = await createModelFromUpload(deps(fakePool()), received(boxStl(10, 20, 30)), visitor);
    expect(model).toMatchObject({
      triangles: 12,
      dimX: 10,
      dimY: 20,
      dimZ: 30,
      ownerVisitorHash: visitor.visitorHash,
    });
    expect(model.volumeMm3).toBeCloseTo(6000, 6);
    expect(filesIn(path.join(dir, 'files'))).toHaveLength(2);
    fs.rmSync(path.join(dir, 'files'), { recursive: true });
  });

  it('answers 422 "took too long" for a model past the time limit', async () => {
    const err = await createModelFromUpload(
      deps(fakePool(new AnalysisLimitError('timeout'))),
      received(boxStl(1, 1, 1)),
      visitor,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: 422, message: 'The model took too long to analyse.' });
    await nothingKept();
  });

  it('answers 503 with Retry-After when the analysis queue is full', async () => {
    const err = await createModelFromUpload(
      deps(fakePool(new AnalysisLimitError('busy'))),
      received(boxStl(1, 1, 1)),
      visitor,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({
      statusCode: 503,
      message: 'We are analysing many models right now. Please try again in a minute.',
      headers: { 'retry-after': '30' },
    });
    await nothingKept();
  });

  it('answers 422 for a worker that crashed, without details', async () => {
    const err = await createModelFromUpload(
      deps(fakePool(new Error('boom'))),
      received(boxStl(1, 1, 1)),
      visitor,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 422, message: 'This model could not be read.' });
    await nothingKept();
  });

  it('removes the stored file when storing the preview fails', async () => {
    let puts = 0;
    const failingSecondPut: FileStore = {
      put: async (key, source) => {
        if (++puts === 2) throw new Error('disk full');
        await store.put(key, source);
      },
      get: (key) => store.get(key),
      delete: (key) => store.delete(key),
      exists: (key) => store.exists(key),
    };
    await expect(
      createModelFromUpload(deps(fakePool(), failingSecondPut), received(boxStl(2, 2, 2)), visitor),
    ).rejects.toThrow('disk full');
    await nothingKept();
  });

  it('removes the stored files when the row cannot be inserted', async () => {
    // An owner that does not exist: the foreign key refuses the row.
    await expect(
      createModelFromUpload(deps(fakePool()), received(boxStl(3, 3, 3)), {
        userId: 999_999,
        visitorHash: null,
      }),
    ).rejects.toThrow();
    await nothingKept();
  });
});
