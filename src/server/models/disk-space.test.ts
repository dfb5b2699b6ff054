import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { models } from '../db/schema.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { DISK_FULL, DiskSpaceGuard, statfsFreeBytes } from './disk-space.ts';
import { boxStl, filesIn, multipartBody, uploadRequest } from './testing.ts';

// A nearly full disk: uploads are refused with 507 before or while the file comes in, nothing is kept,
// and the shop owner reads one warning (a minute) about it. The disk is simulated through fs.statfs.

const MiB = 1024 * 1024;
const MIN_FREE = 512 * MiB;

/** fs.statfs answering `free()` bytes available, in 4 KiB blocks. */
function fakeStatfs(free: () => number) {
  return vi.spyOn(fsp, 'statfs').mockImplementation(async () => {
    const blocks = Math.floor(free() / 4096);
    return { bsize: 4096, bavail: blocks, bfree: blocks, blocks: blocks * 2 } as fs.StatsFs;
  });
}

describe('uploads and the free disk space', () => {
  let t: TestApp;
  let logLines: string[];
  let filesDir: string;
  let tmpDir: string;
  beforeAll(async () => {
    logLines = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp(
      { RATE_LIMIT_SCALE: '100', LOG_LEVEL: 'warn', UPLOAD_MIN_FREE_MB: '512' },
      { logStream },
    );
    filesDir = path.join(t.dataDir, 'files');
    tmpDir = path.join(t.dataDir, 'tmp');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    logLines.length = 0;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const warnings = () =>
    logLines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /disk is almost full/.test(l.msg));

  async function expectNothingKept() {
    expect(filesIn(filesDir)).toEqual([]);
    expect(filesIn(tmpDir)).toEqual([]);
    expect(await t.database.db.select({ id: models.id }).from(models)).toEqual([]);
  }

  it('507 before reading the file when the disk is below the reserve, nothing kept, the owner warned', async () => {
    fakeStatfs(() => 100 * MiB);
    const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 10) }));
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ error: DISK_FULL });
    await expectNothingKept();
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ freeBytes: 100 * MiB, minFreeBytes: MIN_FREE, refusedUploads: 1 });
  });

  it('507 when this file would take the disk below the reserve; 201 once there is room', async () => {
    t.advance(61_000); // past the previous test's warning
    const bytes = boxStl(10, 10, 10);
    let free = MIN_FREE + bytes.length; // the form around the file tips it over
    fakeStatfs(() => free);
    const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes }));
    expect(res.statusCode).toBe(507);
    await expectNothingKept();
    free = MIN_FREE + 10 * MiB;
    const ok = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes }));
    expect(ok.statusCode).toBe(201);
    await t.database.db.delete(models);
    fs.rmSync(filesDir, { recursive: true, force: true });
  });

  it('507 when the disk fills while the file streams in: the partial temp file is removed', async () => {
    let calls = 0;
    // Room for the first look (temp and files directory), then the disk is suddenly full.
    const statfs = fakeStatfs(() => (++calls <= 2 ? 10 * 1024 * MiB : MIN_FREE - 1));
    const res = await t.app.inject(uploadRequest({ fileName: 'big.stl', bytes: new Uint8Array(20 * MiB) }));
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ error: DISK_FULL });
    expect(statfs.mock.calls.length).toBeGreaterThan(2); // refused mid-way, not before
    await expectNothingKept();
  });

  it('a refusal mid-way still reads the rest of the request, so the client hears back and the connection is freed', async () => {
    let calls = 0;
    fakeStatfs(() => (++calls <= 2 ? 10 * 1024 * MiB : 0));
    const server = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    try {
      const address = new URL(await server.app.listen({ port: 0, host: '127.0.0.1' }));
      const body = multipartBody([{ fileName: 'big.stl', bytes: new Uint8Array(40 * MiB) }]);
      const req = http.request({
        host: address.hostname,
        port: address.port,
        method: 'POST',
        path: '/api/uploads',
        agent: false,
        headers: { 'content-type': body.contentType, 'content-length': body.payload.length },
      });
      const answer = new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
      req.end(body.payload);
      // Without the server reading on, 40 MiB never leave the client: this would wait until the test times out.
      await finished(req);
      const res = await answer;
      expect(res.statusCode).toBe(507);
      expect(JSON.parse(await text(res))).toEqual({ error: DISK_FULL });
      expect(filesIn(path.join(server.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('507 when storing runs out of room (ENOSPC), the stored parts removed', async () => {
    fakeStatfs(() => 10 * 1024 * MiB);
    vi.spyOn(LocalFileStore.prototype, 'put').mockRejectedValue(
      Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
    );
    const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 12) }));
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ error: DISK_FULL });
    await expectNothingKept();
  });

  it('logs one warning a minute while uploads keep being refused, with how many were', async () => {
    t.advance(61_000);
    fakeStatfs(() => 0);
    for (let k = 0; k < 3; k++) {
      const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 10) }));
      expect(res.statusCode).toBe(507);
    }
    expect(warnings()).toHaveLength(1);
    t.advance(61_000);
    await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(10, 10, 10) }));
    // The second line counts the two refused quietly after the first, and itself.
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1].refusedUploads).toBe(3);
    await expectNothingKept();
  });
});

describe('statfsFreeBytes and the guard', () => {
  const silent = { warn() {} } as unknown as Parameters<DiskSpaceGuard['check']>[1];

  it('reads the nearest existing directory (the files directory appears on first use)', async () => {
    const free = await statfsFreeBytes(path.join(os.tmpdir(), 'no-such-dir', 'files'));
    expect(free).toBeGreaterThan(0);
  });

  it('checks every directory given, and lets uploads through when the disk cannot be read', async () => {
    const guard = (freeBytes: (dir: string) => Promise<number>) =>
      new DiskSpaceGuard({
        dirs: ['/tmp-disk', '/files-disk'],
        minFreeBytes: 100,
        freeBytes,
        now: () => new Date(),
      });
    await expect(guard(async (d) => (d === '/files-disk' ? 50 : 1e9)).check(0, silent)).rejects.toMatchObject(
      {
        statusCode: 507,
      },
    );
    await expect(guard(async () => 1e9).check(1000, silent)).resolves.toBeUndefined();
    await expect(
      guard(async () => {
        throw new Error('ENOSYS');
      }).check(0, silent),
    ).resolves.toBeUndefined();
  });
});
