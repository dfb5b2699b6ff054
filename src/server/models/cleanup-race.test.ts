import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { type Model, models } from '../db/schema.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { type CleanupDeps, cleanupExpiredModels } from './cleanup.ts';
import { findModel, insertSharingFile } from './models-repository.ts';
import type { Owner } from './owner.ts';
import { scaleModel } from './scale-service.ts';
import { boxStl, inProcessPool, receivedUpload } from './testing.ts';
import { createModelFromUpload, type UploadDeps } from './upload-service.ts';

// The cleanup job and a re-upload of the same bytes, interleaved step by step through the pause points
// both offer (no timing): whatever the order, an upload never answers a model whose row or file the
// cleanup removes.

const HOUR = 3600_000;
const RETENTION = 72 * HOUR;

let database: Database;
let dir: string;
let store: LocalFileStore;
let clock: number;
const silentLog = { error() {}, warn() {} } as unknown as UploadDeps['log'];
const alice: Owner = { userId: null, visitorHash: 'a'.repeat(64) };
const bytes = boxStl(10, 20, 30);

beforeAll(async () => {
  database = await openTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-cleanup-race-'));
  store = new LocalFileStore(path.join(dir, 'files'));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.delete(models);
  fs.rmSync(path.join(dir, 'files'), { recursive: true, force: true });
  clock = Date.UTC(2026, 0, 1);
});

/** A point where one side waits until the test lets it go on. */
function gate() {
  let arrived!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((r) => {
    arrived = r;
  });
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return {
    reached,
    open,
    wait: async () => {
      arrived();
      await opened;
    },
  };
}

const pool = inProcessPool();

function upload(
  owner: Owner,
  beforeReuse?: UploadDeps['beforeReuse'],
  fileName = 'part.stl',
): Promise<Model> {
  const deps: UploadDeps = { db: database.db, store, pool, now: () => new Date(clock), log: silentLog };
  const received = receivedUpload(dir, bytes, fileName);
  return createModelFromUpload({ ...deps, ...(beforeReuse ? { beforeReuse } : {}) }, received, owner);
}

function cleanup(hooks: Pick<CleanupDeps, 'beforeDelete' | 'beforeFileDelete'> = {}) {
  return cleanupExpiredModels({
    db: database.db,
    store,
    now: () => new Date(clock),
    retentionMs: RETENTION,
    tmpDir: path.join(dir, 'no-tmp'),
    ...hooks,
  });
}

/** The model is still there, and so are its file and preview. */
async function expectServable(model: Model) {
  expect(await findModel(database.db, model.id)).toBeDefined();
  expect(await store.exists(model.storageKey)).toBe(true);
  if (model.previewKey) expect(await store.exists(model.previewKey)).toBe(true);
}

describe('cleanup racing a re-upload of the same bytes', () => {
  it('a row touched after the cleanup chose it is not deleted (the DELETE re-checks), nor its file', async () => {
    const old = await upload(alice);
    const oldCopy = await upload(alice, undefined, 'copy.stl'); // shares the stored file
    expect(oldCopy.storageKey).toBe(old.storageKey);
    clock += RETENTION + HOUR;

    const pause = gate();
    const run = cleanup({ beforeDelete: pause.wait });
    await pause.reached; // both rows chosen as expired
    const again = await upload(alice);
    expect(again.id).toBe(old.id);
    pause.open();

    // The copy went; the touched row, and the file it shares, stay.
    expect(await run).toEqual({ models: 1, files: 0, tempFiles: 0, orphanFiles: 0 });
    expect(await findModel(database.db, oldCopy.id)).toBeUndefined();
    await expectServable(again);
  });

  for (const [who, fileName] of [
    ['the same name (the touch path)', 'part.stl'],
    ['another name (the shared-file path)', 'other.stl'],
  ] as const) {
    it(`${who}: an upload that found the old row after the cleanup saw its file unused gets a new file`, async () => {
      const old = await upload(alice);
      clock += RETENTION + HOUR;

      const found = gate();
      const uploading = upload(alice, found.wait, fileName);
      await found.reached; // the upload has found alice's old row and means to reuse it
      const unused = gate();
      const run = cleanup({ beforeFileDelete: unused.wait });
      await unused.reached; // the row is deleted, its file seen unused, not yet deleted
      found.open();
      const model = await uploading;
      unused.open();
      expect(await run).toEqual({ models: 1, files: 2, tempFiles: 0, orphanFiles: 0 });

      expect(await store.exists(old.storageKey)).toBe(false);
      expect(model.id).not.toBe(old.id);
      expect(model.storageKey).not.toBe(old.storageKey);
      await expectServable(model);
    });

    it(`${who}: an upload that found the old row before the cleanup deleted anything keeps what it answers`, async () => {
      const old = await upload(alice);
      clock += RETENTION + HOUR;

      const found = gate();
      const uploading = upload(alice, found.wait, fileName);
      await found.reached;
      expect(await cleanup()).toEqual({ models: 1, files: 2, tempFiles: 0, orphanFiles: 0 });
      found.open();
      const model = await uploading;
      expect(model.storageKey).not.toBe(old.storageKey);
      await expectServable(model);
    });
  }

  it('scaling a model the cleanup removed meanwhile answers 404 and adds nothing', async () => {
    const old = await upload(alice);
    clock += RETENTION + HOUR;
    expect((await cleanup()).models).toBe(1);
    await expect(scaleModel(database.db, old, 25.4, alice, new Date(clock))).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await database.db.select().from(models)).toEqual([]);
  });
});

// On PostgreSQL both sides truly run at once: one holds a row lock on a connection of its own, the other
// is started and seen (pg_stat_activity) waiting for that lock before the first commits.
const onPostgres = {
  skip: !inject('pgTemplateUrl'),
  meta: { skipReason: 'PostgreSQL only: set DATABASE_URL' },
};
describe('the same race with real concurrency (PostgreSQL only)', onPostgres, () => {
  const pgPool = () => (database.db as unknown as { $client: pg.Pool }).$client;

  async function untilWaitingForLock(): Promise<void> {
    for (;;) {
      const { rows } = await pgPool().query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('a DELETE waiting on a row being touched re-checks it and leaves it', async () => {
    const old = await upload(alice);
    clock += RETENTION + HOUR;
    const client = await pgPool().connect();
    try {
      await client.query('begin');
      // touchModel, mid-transaction: the row is locked and already fresh.
      await client.query('update models set created_at = $1 where id = $2', [new Date(clock), old.id]);
      const run = cleanup();
      await untilWaitingForLock();
      await client.query('commit');
      expect(await run).toEqual({ models: 0, files: 0, tempFiles: 0, orphanFiles: 0 });
    } finally {
      client.release();
    }
    await expectServable(old);
  });

  it('a new row sharing a file waits for a DELETE of its source, then adds nothing', async () => {
    const old = await upload(alice);
    const client = await pgPool().connect();
    let inserted: Model | undefined;
    try {
      await client.query('begin');
      // The cleanup's DELETE, not yet committed.
      await client.query('delete from models where id = $1', [old.id]);
      const { id: _id, createdAt: _at, ...copy } = old;
      const sharing = insertSharingFile(database.db, old.id, {
        ...copy,
        id: `${old.id}x`,
        fileName: 'copy.stl',
      });
      await untilWaitingForLock();
      await client.query('commit');
      inserted = await sharing;
    } finally {
      client.release();
    }
    expect(inserted).toBeUndefined();
    expect(await database.db.select().from(models).where(eq(models.storageKey, old.storageKey))).toEqual([]);
  });
});
