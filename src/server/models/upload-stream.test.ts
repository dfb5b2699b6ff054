import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeMesh } from '../../mesh/analysis.ts';
import { MeshError } from '../../mesh/errors.ts';
import { bigBinaryStl, bigObj, concatChunks } from '../../mesh/testing/generate.ts';
import { bigSphere3mf, package3mf } from '../../mesh/testing/threemf.ts';
import { analyse3mf, read3mf } from '../../mesh/threemf/read.ts';
import type { Database } from '../db/client.ts';
import { models } from '../db/schema.ts';
import { LocalFileStore } from '../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import {
  type AnalysisPool,
  createAnalysisPool,
  type StreamOutcome,
  type UploadStream,
} from './analysis-pool.ts';
import { filesIn, multipartBody } from './testing.ts';
import { createModelFromUpload, type UploadDeps } from './upload-service.ts';
import { FOLLOW_MIN_BYTES, FollowedAnalysis } from './upload-stream.ts';

/** The model part of a one-part 3MF file (its start part), inflated. */
function modelPart(bytes: Uint8Array): Uint8Array {
  return unzipSync(bytes)['3D/3dmodel.model']!;
}

// An upload analysed while it streams in (issue #27): the same answer as from the whole file, a slow or
// broken client gives its thread back and the file is analysed as before, a crash falls back to the file.

const MB = 1024 * 1024;
const task = (file: string, extension: 'stl' | 'obj' = 'stl') => ({
  path: file,
  extension,
  color: '#007bff',
});

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-upload-stream-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes bytes to file in pieces, telling the follower after each, `pauseMs` apart. */
async function writeInPieces(
  file: string,
  bytes: Uint8Array,
  piece: number,
  pauseMs: number,
  s: UploadStream,
) {
  const fd = fs.openSync(file, 'w');
  try {
    for (let at = 0; at < bytes.length; at += piece) {
      const end = Math.min(bytes.length, at + piece);
      fs.writeSync(fd, bytes, at, end - at, at);
      s.written(end);
      if (pauseMs) await sleep(pauseMs);
    }
  } finally {
    fs.closeSync(fd);
  }
}

function done(outcome: StreamOutcome) {
  if (outcome.kind !== 'done') throw new Error(`expected an analysis, got ${JSON.stringify(outcome)}`);
  return outcome.analysis;
}

/** A follower as soon as the pool's one thread is free (the last task lets go of it just after answering). */
async function follower(pool: AnalysisPool, ...args: Parameters<NonNullable<AnalysisPool['stream']>>) {
  for (let k = 0; k < 200; k++) {
    const s = pool.stream!(...args);
    if (s) return s;
    await sleep(10);
  }
  throw new Error('no thread came free');
}

describe('the analysis pool following an upload', () => {
  let pool: AnalysisPool;
  beforeAll(async () => {
    pool = createAnalysisPool({ maxThreads: 1 });
    // The thread started and warm, so that the first test's bytes come while it reads.
    const warm = path.join(dir, 'warm.stl');
    fs.writeFileSync(warm, concatChunks(bigBinaryStl(MB)));
    await pool.analyze(task(warm));
  });
  afterAll(() => pool.close());

  it('reads a binary STL as it is written and answers as from the whole file', {
    timeout: 60_000,
  }, async () => {
    const bytes = concatChunks(bigBinaryStl(6 * MB));
    const file = path.join(dir, 'followed.stl');
    const s = await follower(pool, task(file), 'a', bytes.length + 200);
    // One thread, taken by the stream: no second one now.
    expect(pool.stream!(task(path.join(dir, 'other.stl')), 'b', bytes.length)).toBeNull();
    await writeInPieces(file, bytes, 512 * 1024, 40, s);
    s.end(bytes.length);
    const followed = done(await s.result);
    followed.later?.proceed('stop');
    if (!followed.answer.ok) throw new Error(followed.answer.message);
    // Most of the reading was done while the bytes came.
    expect(followed.answer.timings.streamed).toBeGreaterThan(0);
    const whole = await pool.upload(task(file), 'a');
    whole.later?.proceed('stop');
    if (!whole.answer.ok) throw new Error(whole.answer.message);
    expect(followed.answer.analysis).toEqual(whole.answer.analysis);
    expect(followed.answer.analysis).toEqual(analyzeMesh(bytes, 'stl'));
  });

  it('an OBJ whose request is longer than the file: the same answer as from the whole file', async () => {
    const bytes = concatChunks(bigObj(3 * MB));
    const file = path.join(dir, 'followed.obj');
    // The form around the file (and other fields) make the request longer than the file.
    const s = await follower(pool, task(file, 'obj'), 'a', bytes.length + 9000);
    await writeInPieces(file, bytes, 300_000, 5, s);
    s.end(bytes.length);
    const { answer, later } = done(await s.result);
    later?.proceed('stop');
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.analysis).toEqual(analyzeMesh(bytes, 'obj'));
  });

  it('an STL whose header count does not match its size: refused as from the whole file', async () => {
    const good = concatChunks(bigBinaryStl(2 * MB));
    const bytes = good.subarray(0, good.length - 20); // a record cut short: too short for its count
    let expected = '';
    try {
      analyzeMesh(bytes, 'stl');
    } catch (err) {
      expected = (err as MeshError).message;
    }
    expect(expected).not.toBe('');
    const file = path.join(dir, 'short.stl');
    // The request's length agrees with the header, so the follower first takes it for a whole binary STL.
    const s = await follower(pool, task(file), 'a', good.length + 200);
    await writeInPieces(file, bytes, 256 * 1024, 2, s);
    s.end(bytes.length);
    const { answer } = done(await s.result);
    expect(answer).toMatchObject({ ok: false, message: expected });
  });

  it('an OBJ invalid half-way: the same refusal as from the whole file, once the upload ended', async () => {
    const good = Buffer.from(concatChunks(bigObj(2 * MB)));
    const cut = good.indexOf(0x0a, MB) + 1;
    const bytes = Buffer.concat([good.subarray(0, cut), Buffer.from('v 1 2 abc\n'), good.subarray(cut)]);
    let expected = '';
    try {
      analyzeMesh(bytes, 'obj');
    } catch (err) {
      expected = (err as MeshError).message;
    }
    expect(expected).toMatch(/where a number was expected/);
    const file = path.join(dir, 'bad.obj');
    const s = await follower(pool, task(file, 'obj'), 'a', bytes.length + 200);
    await writeInPieces(file, bytes, 256 * 1024, 5, s);
    s.end(bytes.length);
    const { answer } = done(await s.result);
    expect(answer).toEqual({ ok: false, code: 'bad-number', message: expected });
  });

  it('gives a slow writer up and its thread back (the file is then analysed as usual)', async () => {
    const bytes = concatChunks(bigBinaryStl(2 * MB));
    const file = path.join(dir, 'slow.stl');
    const s = await follower(pool, task(file), 'slow', bytes.length);
    // 64 KB, then nothing: far below 4 MiB a second.
    await writeInPieces(file, bytes.subarray(0, 64 * 1024), 64 * 1024, 0, s);
    const outcome = await s.result;
    expect(outcome).toEqual({ kind: 'fallback', reason: 'slow' });
    // The thread is free again: another client's stream gets it.
    const next = await follower(pool, task(path.join(dir, 'next.stl')), 'other', bytes.length);
    next.abort();
    expect(await next.result).toEqual({ kind: 'fallback', reason: 'aborted' });
    s.end(bytes.length); // too late: nothing happens
  });

  it('gives its thread to a model waiting for one, and the waiting one goes first', async () => {
    const bytes = concatChunks(bigBinaryStl(2 * MB));
    const waiting = path.join(dir, 'waiting.stl');
    fs.writeFileSync(waiting, bytes);
    const file = path.join(dir, 'streaming.stl');
    const s = await follower(pool, task(file), 'a', bytes.length);
    await writeInPieces(file, bytes.subarray(0, MB), 256 * 1024, 0, s);
    const other = pool.analyze(task(waiting), 'b');
    expect(await s.result).toEqual({ kind: 'fallback', reason: 'busy' });
    const answer = await other;
    expect(answer).toMatchObject({ ok: true, analysis: { triangles: analyzeMesh(bytes, 'stl').triangles } });
  });

  it('stops when the upload breaks off mid-file, and gives its thread back', async () => {
    const bytes = concatChunks(bigBinaryStl(4 * MB));
    const file = path.join(dir, 'cut.stl');
    const s = await follower(pool, task(file), 'a', bytes.length);
    await writeInPieces(file, bytes.subarray(0, 2 * MB), 256 * 1024, 5, s);
    s.abort();
    expect(await s.result).toEqual({ kind: 'fallback', reason: 'aborted' });
    const again = await follower(pool, task(file), 'a', bytes.length);
    again.abort();
    expect(await again.result).toEqual({ kind: 'fallback', reason: 'aborted' });
  });

  it('a model past the time limit while followed is refused, not read again', {
    timeout: 30_000,
  }, async () => {
    const quick = createAnalysisPool({ maxThreads: 1, timeoutMs: 1 });
    try {
      const bytes = concatChunks(bigBinaryStl(8 * MB));
      const file = path.join(dir, 'limit.stl');
      fs.writeFileSync(file, bytes);
      const s = await follower(quick, task(file), 'a', bytes.length);
      s.written(bytes.length);
      s.end(bytes.length);
      await expect(s.result).rejects.toMatchObject({ reason: 'timeout' });
    } finally {
      await quick.close();
    }
  });
});

describe('a worker that crashes while following an upload', () => {
  let pool: AnalysisPool;
  let database: Database;
  const silentLog = { error() {}, warn() {} } as unknown as UploadDeps['log'];
  beforeAll(async () => {
    pool = createAnalysisPool({
      maxThreads: 1,
      workerFile: new URL('./testing-crash-worker.mjs', import.meta.url).href,
    });
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await pool.close();
    await database.close();
  });

  it('falls back to the file: the upload is analysed and stored all the same', {
    timeout: 60_000,
  }, async () => {
    const bytes = concatChunks(bigBinaryStl(3 * MB));
    const file = path.join(dir, 'crash.stl');
    const s = await follower(pool, task(file), 'a', bytes.length);
    await writeInPieces(file, bytes, 256 * 1024, 5, s);
    s.end(bytes.length);
    const outcome = await s.result;
    expect(outcome).toMatchObject({ kind: 'fallback', reason: 'failed' });
    const store = new LocalFileStore(path.join(dir, 'files'));
    const warned: unknown[] = [];
    const log = { ...silentLog, warn: (...args: unknown[]) => warned.push(args) } as UploadDeps['log'];
    const deps: UploadDeps = { db: database.db, store, pool, now: () => new Date(), log };
    const upload = {
      tempPath: file,
      fileName: 'crash.stl',
      extension: 'stl' as const,
      sizeBytes: bytes.length,
      contentHash: 'c'.repeat(64),
      followed: new FollowedAnalysis(s.result),
    };
    const model = await createModelFromUpload(deps, upload, { userId: null, visitorHash: 'v'.repeat(64) });
    const expected = analyzeMesh(bytes, 'stl');
    expect(model).toMatchObject({ triangles: expected.triangles, watertight: expected.watertight });
    expect(model.volumeMm3).toBeCloseTo(expected.volumeCm3 * 1000, 6);
    expect(filesIn(path.join(dir, 'files')).map((f) => path.basename(f))).toContain(model.storageKey);
    expect(fs.existsSync(file)).toBe(false); // renamed into the store
    expect(warned).toHaveLength(1);
  });
});

describe('POST /api/uploads over a socket, followed as it streams in', () => {
  let t: TestApp;
  let url: URL;
  const filesDir = () => path.join(t.dataDir, 'files');
  const tmpDir = () => path.join(t.dataDir, 'tmp');
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    url = new URL(`${await t.app.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`);
  });
  afterAll(() => t.close());

  type Sent = { status: number; timing: string; body: string };
  /** Posts the body in pieces `pauseMs` apart; `stopAt`: the client goes away after that many bytes. */
  function post(bytes: Uint8Array, fileName: string, piece: number, pauseMs: number, stopAt = Infinity) {
    const { payload, contentType } = multipartBody([{ fileName, bytes }]);
    return new Promise<Sent | 'gone'>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': payload.length },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode!, timing: String(res.headers['server-timing'] ?? ''), body }),
        );
      });
      req.on('error', (err) => (stopAt < payload.length ? resolve('gone') : reject(err)));
      void (async () => {
        for (let at = 0; at < payload.length; at += piece) {
          if (at >= stopAt) {
            req.destroy();
            resolve('gone');
            return;
          }
          req.write(payload.subarray(at, at + piece));
          if (pauseMs) await sleep(pauseMs);
        }
        req.end();
      })();
    });
  }

  async function rows() {
    return (await t.database.db.select({ id: models.id }).from(models)).length;
  }

  it('a fast client: analysed while it sends, the same numbers as from the file', {
    timeout: 60_000,
  }, async () => {
    const bytes = concatChunks(bigBinaryStl(4 * MB));
    const sent = await post(bytes, 'fast.stl', 256 * 1024, 0);
    if (sent === 'gone') throw new Error('the upload broke off');
    expect(sent.status).toBe(201);
    expect(sent.timing).toMatch(/(^|, )streamed;dur=/);
    // The stages in the order they happen: the checks before the file is read come first.
    expect(sent.timing).toMatch(/^checks;dur=[\d.]+, receive;dur=[\d.]+, streamed;dur=/);
    const expected = analyzeMesh(bytes, 'stl');
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({ triangles: expected.triangles, watertight: expected.watertight });
    expect(body.volumeCm3).toBeCloseTo(expected.volumeCm3, 1);
  });

  it('a 3MF: its model parts read as they arrive, the same numbers as from the file, or the same refusal', {
    timeout: 60_000,
  }, async () => {
    for (const style of ['prusa', 'bambu'] as const) {
      const bytes = bigSphere3mf(400, 200, style);
      expect(bytes.length).toBeGreaterThan(FOLLOW_MIN_BYTES);
      const sent = await post(bytes, `sphere-${style}.3mf`, 256 * 1024, 0);
      if (sent === 'gone') throw new Error('the upload broke off');
      expect(sent.status).toBe(201);
      expect(sent.timing).toMatch(/(^|, )streamed;dur=/);
      const expected = analyse3mf(await read3mf(bytes)).analysis;
      const body = JSON.parse(sent.body);
      expect(body).toMatchObject({ triangles: expected.triangles, watertight: expected.watertight });
      expect(body.volumeCm3).toBeCloseTo(expected.volumeCm3, 1);
    }
    // Not well-formed (its model ends early): refused as once received, with the reader's own message.
    const whole = bigSphere3mf(400, 200, 'prusa');
    const broken = package3mf(new TextDecoder().decode(modelPart(whole)).replace('</model>', ''), {
      level: 1,
    });
    expect(broken.length).toBeGreaterThan(FOLLOW_MIN_BYTES);
    const refusal = await read3mf(broken).then(
      () => null,
      (err: MeshError) => err.message,
    );
    const sent = await post(broken, 'broken.3mf', 256 * 1024, 0);
    if (sent === 'gone') throw new Error('the upload broke off');
    expect(sent.status).toBe(422);
    expect(sent.timing).toBe('');
    expect(JSON.parse(sent.body).error).toBe(refusal);
  });

  it('a slow client: its thread is given back and the file analysed once received', {
    timeout: 60_000,
  }, async () => {
    const bytes = concatChunks(bigBinaryStl(1.5 * MB));
    // 64 KB every 100 ms: ~0.6 MB a second.
    const sent = await post(bytes, 'slow.stl', 64 * 1024, 100);
    if (sent === 'gone') throw new Error('the upload broke off');
    expect(sent.status).toBe(201);
    expect(sent.timing).not.toMatch(/streamed/);
    expect(JSON.parse(sent.body)).toMatchObject({ triangles: analyzeMesh(bytes, 'stl').triangles });
  });

  it('a client that stops mid-file: nothing kept, and the thread is free for the next', {
    timeout: 60_000,
  }, async () => {
    await t.database.db.delete(models);
    fs.rmSync(filesDir(), { recursive: true, force: true });
    const bytes = concatChunks(bigBinaryStl(4 * MB));
    expect(await post(bytes, 'cut.stl', 256 * 1024, 2, 2 * MB)).toBe('gone');
    // The server notices the socket close a moment later.
    for (let k = 0; k < 100 && filesIn(tmpDir()).length > 0; k++) await sleep(50);
    expect(filesIn(tmpDir())).toEqual([]);
    expect(filesIn(filesDir())).toEqual([]);
    expect(await rows()).toBe(0);
    // The thread comes back once the worker has seen the cut, a moment after the files went (longer on a busy
    // machine): the next upload is followed as it streams in within a few seconds, never analysed later.
    const nextBytes = concatChunks(bigBinaryStl(2 * MB));
    let next = await post(nextBytes, 'next.stl', 256 * 1024, 0);
    for (let k = 0; k < 10 && next !== 'gone' && !/streamed/.test(next.timing); k++) {
      await sleep(200);
      next = await post(nextBytes, 'next.stl', 256 * 1024, 0);
    }
    expect(next).toMatchObject({ status: 201, timing: expect.stringMatching(/streamed/) });
  });

  it("an OBJ invalid half-way: 422 with the reader's message, nothing kept", {
    timeout: 60_000,
  }, async () => {
    await t.database.db.delete(models);
    fs.rmSync(filesDir(), { recursive: true, force: true });
    const good = Buffer.from(concatChunks(bigObj(3 * MB)));
    const cut = good.indexOf(0x0a, MB) + 1;
    const bytes = Buffer.concat([good.subarray(0, cut), Buffer.from('f 1 2 0\n'), good.subarray(cut)]);
    const expected = (() => {
      try {
        analyzeMesh(bytes, 'obj');
      } catch (err) {
        if (err instanceof MeshError) return err.message;
      }
      throw new Error('expected a refusal');
    })();
    const sent = await post(bytes, 'bad.obj', 256 * 1024, 0);
    if (sent === 'gone') throw new Error('the upload broke off');
    expect(sent.status).toBe(422);
    expect(sent.timing).toBe('');
    expect(JSON.parse(sent.body)).toMatchObject({ error: expected });
    expect(filesIn(tmpDir())).toEqual([]);
    expect(filesIn(filesDir())).toEqual([]);
    expect(await rows()).toBe(0);
  });
});
