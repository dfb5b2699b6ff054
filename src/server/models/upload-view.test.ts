import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toObj, uvSphere } from '../../mesh/testing/generate.ts';
import type { Database } from '../db/client.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { type AnalysisPool, createAnalysisPool } from './analysis-pool.ts';
import { coarseView, ensureViewMesh, extrasSettled } from './extras-service.ts';
import { findModel } from './models-repository.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { meshStl, receivedUpload } from './testing.ts';
import { createModelFromUpload, type UploadDeps } from './upload-service.ts';
import { COARSE_VIEW_TRIANGLES } from './view-mesh.ts';

// An upload's view meshes come from its own analysis, in the same worker task, after the answer: the file is
// not read again (it is gone by then, as the upload route removes it), a big model's coarse view is at hand
// until its view mesh is stored, and the price never waits for either.

let database: Database;
let dir: string;
let pool: AnalysisPool;
const silentLog = { error() {}, warn() {} } as unknown as UploadDeps['log'];
const visitor = { userId: null, visitorHash: 'b'.repeat(64) };

beforeAll(async () => {
  database = await openTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-upload-view-'));
  pool = createAnalysisPool({ maxThreads: 1 });
});
afterAll(async () => {
  await pool.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: Uint8Array): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

/** 320,000 triangles: past the one-pass preview, the coarse view's threshold and the simplifier's. */
const bigSphere = () => uvSphere(30, 800, 201);

describe('the analysis pool: an upload task', () => {
  it('answers with the analysis first, then makes the views from the mesh it holds, without the file', async () => {
    const p = file('big.obj', toObj(bigSphere()));
    const { answer, later } = await pool.upload({ path: p, extension: 'obj', color: '#007bff' });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.analysis.triangles).toBe(320_000);
    // The answer did not wait for the views: made later, with the file removed as the upload route does.
    expect(answer.view).toBeNull();
    expect(answer.png).toBeNull();
    fs.rmSync(p);
    // The caller has answered: the task goes on.
    later!.proceed('go');
    const coarse = await later!.coarse;
    expect(coarse!.triangles).toBeLessThanOrEqual(COARSE_VIEW_TRIANGLES);
    expect(coarse!.triangles).toBeGreaterThan(COARSE_VIEW_TRIANGLES / 4);
    expect(Buffer.from(coarse!.glb.subarray(0, 4)).toString('latin1')).toBe('glTF');
    const preview = await later!.preview;
    expect(Buffer.from(preview!.png!.subarray(1, 4)).toString('latin1')).toBe('PNG');
    const view = await later!.view;
    expect(view?.viewError).toBeNull();
    expect(view!.view!.simplified).toBe(true);
    expect(view!.view!.triangles).toBeLessThanOrEqual(300_000);
    expect(view!.view!.triangles).toBeGreaterThan(250_000);
  }, 60_000);

  it('gives a small model its preview and view with the answer, and nothing later', async () => {
    const p = file('small.stl', meshStl(uvSphere(10, 40, 20)));
    const { answer, later } = await pool.upload({ path: p, extension: 'stl', color: '#007bff' });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.png).not.toBeNull();
    expect(answer.view?.triangles).toBe(answer.analysis.triangles);
    expect(await later!.coarse).toBeNull();
    expect(await later!.preview).toBeNull();
    expect(await later!.view).toBeNull();
  });

  it('makes nothing more when told the upload failed', async () => {
    const p = file('stopped.obj', toObj(bigSphere()));
    const { answer, later } = await pool.upload({ path: p, extension: 'obj', color: '#007bff' });
    expect(answer.ok).toBe(true);
    later!.proceed('stop');
    expect(await later!.coarse).toBeNull();
    expect(await later!.preview).toBeNull();
    expect(await later!.view).toBeNull();
  }, 60_000);

  it('leaves its views for later while another model waits for its price, which then does not wait for them', async () => {
    const p = file('yielding.obj', toObj(bigSphere()));
    const { answer, later } = await pool.upload({ path: p, extension: 'obj', color: '#007bff' });
    expect(answer.ok).toBe(true);
    // Another customer's model, sent while this task holds the only thread (it waits for the word to go on).
    const other = file('other.stl', meshStl(uvSphere(10, 40, 20)));
    let priced = false;
    const waiting = pool
      .analyze({ path: other, extension: 'stl', color: '#007bff' }, 'another client')
      .then((r) => {
        priced = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 50));
    expect(priced).toBe(false);
    later!.proceed('go');
    const view = await later!.view;
    expect(view).toMatchObject({ view: null, viewError: null, deferred: true });
    expect(await later!.coarse).toBeNull();
    // The preview the model's card shows is made all the same, from the mesh in memory.
    const preview = await later!.preview;
    expect(Buffer.from(preview!.png!.subarray(1, 4)).toString('latin1')).toBe('PNG');
    const result = await waiting;
    expect(result.ok && result.analysis.triangles).toBe(1_520);
  }, 60_000);

  it('answers a refused model as before, with nothing to follow', async () => {
    const p = file('flat.obj', new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'));
    const { answer, later } = await pool.upload({ path: p, extension: 'obj', color: '#007bff' });
    expect(answer.ok).toBe(false);
    expect(later).toBeNull();
  });
});

describe('createModelFromUpload with a big model', () => {
  it('answers before the view mesh is stored, keeps the coarse view meanwhile, then stores both extras', async () => {
    const store = new LocalFileStore(path.join(dir, 'files'));
    const get = vi.spyOn(store, 'get');
    // The view mesh is held back until the answer has been checked.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const heldPool: AnalysisPool = {
      ...pool,
      async upload(task, client) {
        const result = await pool.upload(task, client);
        const later = result.later!;
        return { ...result, later: { ...later, view: held.then(() => later.view) } };
      },
    };
    const upload = receivedUpload(dir, meshStl(bigSphere()), 'big.stl');
    const deps: UploadDeps = {
      db: database.db,
      store,
      pool: heldPool,
      now: () => new Date(),
      log: silentLog,
    };
    const row = await createModelFromUpload(deps, upload, visitor);
    fs.rmSync(upload.tempPath, { force: true });
    expect(row.viewKey).toBeNull();
    const coarse = await coarseView(row);
    expect(coarse?.triangles).toBeLessThanOrEqual(COARSE_VIEW_TRIANGLES);
    release();
    await extrasSettled();
    const stored = (await findModel(database.db, row.id))!;
    expect(stored.viewKey).toBeTruthy();
    expect(stored.previewKey).toBeTruthy();
    expect(stored.viewTriangles).toBeLessThanOrEqual(300_000);
    // Stored, the full view replaces the coarse one.
    expect(await coarseView(stored)).toBeNull();
    // Never read back from the store: made from the analysis' own mesh.
    expect(get).not.toHaveBeenCalled();
  }, 60_000);

  it('stores the preview but leaves the view for later while another model waits for its price, then makes it when asked for', async () => {
    const store = new LocalFileStore(path.join(dir, 'files-later'));
    // Another customer's model is sent while the big one's task holds the only thread; the task's end is held
    // back until the viewer has asked.
    let other: Promise<unknown> = Promise.resolve();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const busyPool: AnalysisPool = {
      ...pool,
      async upload(task, client) {
        const result = await pool.upload(task, client);
        const p = file('other-later.stl', meshStl(uvSphere(10, 40, 20)));
        other = pool.analyze({ path: p, extension: 'stl', color: '#007bff' }, 'another client');
        await new Promise((r) => setTimeout(r, 20));
        const later = result.later!;
        return { ...result, later: { ...later, view: held.then(() => later.view) } };
      },
    };
    // Not the earlier test's sphere: the same file of the same owner would share its stored extras.
    const upload = receivedUpload(dir, meshStl(uvSphere(31, 800, 201)), 'later.stl');
    const deps: UploadDeps = {
      db: database.db,
      store,
      pool: busyPool,
      now: () => new Date(),
      log: silentLog,
    };
    let jobs = 0;
    const countingPool: AnalysisPool = {
      ...pool,
      extras: (task, client) => {
        jobs++;
        return pool.extras(task, client);
      },
    };
    const modelsDeps = {
      ctx: { db: database.db },
      store,
      pool: countingPool,
      disk: { check: async () => {} },
      tmpDir: path.join(dir, 'tmp'),
    } as unknown as ModelsDeps;
    const log = silentLog as unknown as Parameters<typeof ensureViewMesh>[3];
    const get = vi.spyOn(store, 'get');
    const row = await createModelFromUpload(deps, upload, visitor);
    fs.rmSync(upload.tempPath, { force: true });
    expect(await coarseView(row)).toBeNull();
    // The viewer asks at once: the request waits for the upload's task, which leaves the view for later (not a
    // failure: it is not refused), and then makes it from the stored file.
    // Two requests at once (the viewer and a second tab): one job, both answered.
    const viewing = [ensureViewMesh(modelsDeps, row, '', log), ensureViewMesh(modelsDeps, row, '', log)];
    await new Promise((r) => setTimeout(r, 300)); // they are waiting for the task by then
    release();
    const [viewed, again] = await Promise.all(viewing);
    expect(jobs).toBe(1);
    expect(again!.viewKey).toBe(viewed!.viewKey);
    expect(viewed!.viewKey).toBeTruthy();
    expect(viewed!.viewTriangles).toBeLessThanOrEqual(300_000);
    expect(get).toHaveBeenCalledWith(row.storageKey);
    await other;
    await extrasSettled();
    expect((await findModel(database.db, row.id))!.previewKey).toBeTruthy();
  }, 60_000);
});
