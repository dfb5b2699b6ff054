import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { models } from '../db/schema.ts';
import { ONLY_MODEL_FILES } from '../models/file-name.ts';
import { boxStl, cookieFrom, filesIn } from '../models/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// Issue #28 (docs/security.md 24, 32): file names made to escape the store or fool whoever reads them: a
// path (`../../etc/passwd.stl`, Windows back slashes), control characters, a right-to-left override, a very
// long name. Over HTTP, as a browser sends them (the file name as UTF-8 in the multipart header): refused
// with 400 keeping nothing, or kept as a plain base name. The stored file's key is random, never made from
// the name, and the download's Content-Disposition cannot be broken out of.

let t: TestApp;
let filesDir: string;
let tmpDir: string;
let size = 10;
beforeAll(async () => {
  // Many uploads from one address: the per-address upload rate is not what this file is about.
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  filesDir = path.join(t.dataDir, 'files');
  tmpDir = path.join(t.dataDir, 'tmp');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(models);
});

/** POST /api/uploads with the name written as raw UTF-8 bytes, as browsers do; new bytes each time. */
function upload(fileName: string, cookie?: string): InjectOptions {
  const boundary = `----render${Date.now().toString(16)}`;
  size += 1;
  const bytes = boxStl(size, 10, 10);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
      'utf8',
    ),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    method: 'POST',
    url: '/api/uploads',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(cookie ? { cookie } : {}),
    },
    payload,
  };
}

async function rows() {
  return t.database.db.select().from(models);
}

describe('hostile file names over HTTP', () => {
  it.each([
    ['../../etc/passwd.stl', 'passwd.stl'],
    ['..\\..\\x.stl', 'x.stl'],
    ['/etc/cron.d/job.stl', 'job.stl'],
    ['....//....//deep.stl', 'deep.stl'],
    ['C:\\Windows\\System32\\drivers.stl', 'drivers.stl'],
    ['evil\u202Egpj.stl', 'evilgpj.stl'],
    ['<img src=x onerror=alert(1)>.stl', '<img src=x onerror=alert(1)>.stl'],
  ])('keeps %j as the plain name %j, under a random key, offered back safely', async (sent, shown) => {
    const res = await t.app.inject(upload(sent));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fileName).toBe(shown);
    const [row] = await rows();
    expect(row!.fileName).toBe(shown);
    // The key is random: nothing of the name is in it, nor in any path on disk, and every file is in the store.
    expect(row!.storageKey).toMatch(/^f_[A-Za-z0-9_-]{22}$/);
    for (const dir of [filesDir, tmpDir]) expect(fs.existsSync(path.resolve(dir, sent))).toBe(false);
    const stem = shown.slice(0, shown.lastIndexOf('.'));
    // (A one-letter stem could be in a random key by chance.)
    if (stem.length > 3)
      for (const file of filesIn(t.dataDir)) expect(path.basename(file)).not.toContain(stem);
    expect(filesIn(filesDir).some((f) => f.endsWith(row!.storageKey))).toBe(true);

    const file = await t.app.inject({
      url: `/api/models/${row!.id}/file`,
      headers: { cookie: cookieFrom(res) },
    });
    expect(file.statusCode).toBe(200);
    const disposition = file.headers['content-disposition'] as string;
    const [, fallback, exact] = /^attachment; filename="([^"\\\r\n]*)"; filename\*=UTF-8''([^\s;"]+)$/.exec(
      disposition,
    )!;
    expect(fallback).toMatch(/^[A-Za-z0-9._ ()-]+$/);
    expect(decodeURIComponent(exact!)).toBe(shown);
  });

  it('refuses every control character (and DEL) with 400, keeping nothing', async () => {
    // CR and LF would end the multipart header itself: the part is then not a file part at all (400 too).
    const controls = [...Array.from({ length: 32 }, (_, c) => c), 0x7f, 0x85, 0x9f];
    const kept = filesIn(filesDir);
    for (const c of controls) {
      const name = `bad${String.fromCharCode(c)}name.stl`;
      const res = await t.app.inject(upload(name));
      expect(res.statusCode, `U+${c.toString(16).padStart(4, '0')}`).toBe(400);
      if (c !== 0x0a && c !== 0x0d) expect(res.json()).toEqual({ error: ONLY_MODEL_FILES });
    }
    expect(await rows()).toEqual([]);
    expect(filesIn(filesDir)).toEqual(kept);
    expect(filesIn(tmpDir)).toEqual([]);
  });

  it('shortens a very long name to 200 characters, keeping its extension', async () => {
    const res = await t.app.inject(upload(`${'ä'.repeat(5000)}.stl`));
    expect(res.statusCode, res.body).toBe(201);
    const name = res.json().fileName as string;
    expect(name).toHaveLength(200);
    expect(name).toBe(`${'ä'.repeat(196)}.stl`);
    const [row] = await rows();
    expect(row!.fileName).toBe(name);
  });
});
