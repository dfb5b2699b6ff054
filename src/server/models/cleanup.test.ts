import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorageKey } from '../storage/file-store.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { cleanupExpiredModels } from './cleanup.ts';
import { findModel } from './models-repository.ts';
import { boxStl, cookieFrom, filesIn, makeOrder, makeUser, uploadRequest } from './testing.ts';

const HOUR = 3600_000;
const RETENTION = 72 * HOUR;

let t: TestApp;
let now: () => Date;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100', UPLOAD_RETENTION_HOURS: '72' });
  let offset = 0;
  const advance = t.advance;
  t.advance = (ms) => {
    offset += ms;
    advance(ms);
  };
  now = () => new Date(Date.now() + offset);
});
afterAll(() => t.close());

function run() {
  return cleanupExpiredModels({
    db: t.database.db,
    store: new LocalFileStore(path.join(t.dataDir, 'files')),
    now,
    retentionMs: RETENTION,
    tmpDir: path.join(t.dataDir, 'tmp'),
  });
}

const upload = async (name: string, bytes: Uint8Array, cookie?: string) =>
  (await t.app.inject(uploadRequest({ fileName: name, bytes }, cookie))).json().id as string;

describe('cleanupExpiredModels', () => {
  it('removes unordered models past the retention with their files, keeps ordered and shared ones', async () => {
    const filesDir = path.join(t.dataDir, 'files');
    const lonely = await upload('lonely.stl', boxStl(10, 11, 12));
    const buyer = await makeUser(t);
    const ordered = await upload('ordered.stl', boxStl(20, 21, 22), buyer.cookie);
    await makeOrder(t, buyer.id, ordered);
    const shared = boxStl(30, 31, 32);
    const first = await t.app.inject(uploadRequest({ fileName: 'shared.stl', bytes: shared }));
    const early = first.json().id as string;
    // Each model's file, preview and view mesh.
    expect(filesIn(filesDir)).toHaveLength(9);

    t.advance(RETENTION - HOUR);
    // The same browser, the same bytes under another name: a new model sharing the file (files are shared
    // within one owner only).
    const late = await upload('shared-again.stl', shared, cookieFrom(first));
    expect(await run()).toEqual({ models: 0, files: 0, tempFiles: 0, orphanFiles: 0 });

    t.advance(2 * HOUR);
    expect(await run()).toEqual({ models: 2, files: 3, tempFiles: 0, orphanFiles: 0 });
    expect(await findModel(t.database.db, lonely)).toBeUndefined();
    expect(await findModel(t.database.db, early)).toBeUndefined();
    expect(await findModel(t.database.db, ordered)).toBeDefined();
    expect(await findModel(t.database.db, late)).toBeDefined();
    // lonely's file, preview and view mesh went; the shared ones stay for `late`.
    expect(filesIn(filesDir)).toHaveLength(6);

    t.advance(RETENTION);
    expect(await run()).toEqual({ models: 1, files: 3, tempFiles: 0, orphanFiles: 0 });
    expect(await findModel(t.database.db, ordered)).toBeDefined();
    expect(filesIn(filesDir)).toHaveLength(3);
    // The ordered model is still served to its buyer.
    const file = await t.app.inject({
      url: `/api/models/${ordered}/file`,
      headers: { cookie: buyer.cookie },
    });
    expect(file.statusCode).toBe(200);
  });

  it('removes stored files no row names once older than an upload takes (a process killed between the file and its row)', async () => {
    const filesDir = path.join(t.dataDir, 'files');
    const kept = await upload('kept.stl', boxStl(12, 12, 12));
    const model = await findModel(t.database.db, kept);
    fs.mkdirSync(filesDir, { recursive: true });
    const orphan = path.join(filesDir, newStorageKey('f'));
    const fresh = path.join(filesDir, newStorageKey('f'));
    const notAKey = path.join(filesDir, '.put-in-progress');
    for (const file of [orphan, fresh, notAKey]) fs.writeFileSync(file, 'x');
    const old = (now().getTime() - 2 * HOUR) / 1000;
    const recent = now().getTime() / 1000;
    for (const file of [orphan, notAKey, path.join(filesDir, model!.storageKey)])
      fs.utimesSync(file, old, old);
    fs.utimesSync(fresh, recent, recent);
    expect((await run()).orphanFiles).toBe(1);
    expect(fs.existsSync(orphan)).toBe(false);
    // An upload may be between its file and its row: a fresh file stays; so do the model's and what is not ours.
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(notAKey)).toBe(true);
    expect(fs.existsSync(path.join(filesDir, model!.storageKey))).toBe(true);
    for (const file of [fresh, notAKey]) fs.rmSync(file);
  });

  it('removes none when many stored files are named by no row (a wrong database or store), and says so', async () => {
    const filesDir = path.join(t.dataDir, 'files');
    await upload('one.stl', boxStl(13, 13, 13));
    const strays = Array.from({ length: 30 }, () => path.join(filesDir, newStorageKey('f')));
    const old = (now().getTime() - 2 * HOUR) / 1000;
    for (const file of strays) {
      fs.writeFileSync(file, 'x');
      fs.utimesSync(file, old, old);
    }
    const result = await run();
    expect(result.orphanFiles).toBe(0);
    expect(result.orphanFilesHeld).toBe(30);
    expect(strays.every((file) => fs.existsSync(file))).toBe(true);
    for (const file of strays) fs.rmSync(file);
  });

  it('removes temp files left by interrupted uploads, not fresh ones', async () => {
    const tmpDir = path.join(t.dataDir, 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    const stale = path.join(tmpDir, 'u_stale.part');
    const fresh = path.join(tmpDir, 'u_fresh.part');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(fresh, 'x');
    const old = (now().getTime() - 2 * HOUR) / 1000;
    const recent = now().getTime() / 1000;
    fs.utimesSync(stale, old, old);
    fs.utimesSync(fresh, recent, recent);
    expect((await run()).tempFiles).toBe(1);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
