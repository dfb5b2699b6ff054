import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toObj, uvSphere } from '../../mesh/testing/generate.ts';
import type { Database } from '../db/client.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { type AnalysisPool, createAnalysisPool } from './analysis-pool.ts';
import { coarseView, extrasSettled } from './extras-service.ts';
import { findModel } from './models-repository.ts';
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
});
