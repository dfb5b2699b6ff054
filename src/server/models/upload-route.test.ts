import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { box, objText, toAsciiStl, toBinaryStl, toFloat32, triangles } from '../../mesh/testing/generate.ts';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { modelPayload } from '../../shared/models.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { boxStl, cookieFrom, filesIn, makeUser, multipartBody, uploadRequest } from './testing.ts';

let t: TestApp;
let filesDir: string;
let tmpDir: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  filesDir = path.join(t.dataDir, 'files');
  tmpDir = path.join(t.dataDir, 'tmp');
});
afterAll(() => t.close());

async function reset() {
  await t.database.db.delete(models);
  fs.rmSync(filesDir, { recursive: true, force: true });
}

async function rowCount() {
  return (await t.database.db.select({ id: models.id }).from(models)).length;
}

async function expectNothingKept() {
  expect(filesIn(filesDir)).toEqual([]);
  expect(filesIn(tmpDir)).toEqual([]);
  expect(await rowCount()).toBe(0);
}

describe('POST /api/uploads: accepted models', () => {
  beforeEach(reset);

  it('analyses a binary STL: 201 with the analytic numbers and prices', async () => {
    // A 100 mm cube: 1000 cm3, 600 cm2, 12 triangles; prices as hand-computed in pricing/price.test.ts.
    const res = await t.app.inject(uploadRequest({ fileName: 'Cube.STL', bytes: boxStl(100, 100, 100) }));
    expect(res.statusCode).toBe(201);
    const body = modelPayload.parse(res.json());
    expect(body).toEqual({
      id: expect.stringMatching(/^m_[A-Za-z0-9_-]{22}$/),
      fileName: 'Cube.STL',
      format: 'stl',
      triangles: 12,
      volumeCm3: 1000,
      areaCm2: 600,
      dimensions: { x: 100, y: 100, z: 100 },
      scale: 1,
      watertight: true,
      fits: true,
      warnings: [],
      previewImage: `/api/models/${body.id}/preview.png`,
      prices: { '1': 22.46, '2': 60.09, '3': 85.18, '4': 147.9, '5': 273.33 },
    });
    // A new visitor gets a long-lived, HttpOnly, SameSite=Lax cookie.
    const cookie = res.cookies.find((c) => c.name === 'visitor');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 365 * 24 * 3600 });
    expect(cookie?.secure).toBeFalsy();
    // The file, its preview and its view mesh are stored under random keys, nothing under the user's name.
    const stored = filesIn(filesDir).map((f) => path.basename(f));
    expect(stored).toHaveLength(3);
    for (const name of stored) expect(name).toMatch(/^[fpv]_[A-Za-z0-9_-]{22}$/);
    expect(filesIn(tmpDir)).toEqual([]);
  });

  it('analyses an ASCII STL: a 20 x 10 x 5 mm box', async () => {
    const bytes = toAsciiStl(triangles(box(20, 10, 5)));
    const res = await t.app.inject(uploadRequest({ fileName: 'block.stl', bytes }));
    expect(res.statusCode).toBe(201);
    // 1 cm3, 2 x (200 + 100 + 50) mm2 = 7 cm2; under the $12.00 minimum at every strength.
    expect(res.json()).toMatchObject({
      format: 'stl',
      triangles: 12,
      volumeCm3: 1,
      areaCm2: 7,
      dimensions: { x: 20, y: 10, z: 5 },
      watertight: true,
      fits: true,
      warnings: [],
      prices: { '1': 12, '2': 12, '3': 12, '4': 12, '5': 12 },
    });
  });

  it('analyses an OBJ with quads: a 30 x 20 x 10 mm box', async () => {
    const res = await t.app.inject(uploadRequest({ fileName: 'box.obj', bytes: objText(box(30, 20, 10)) }));
    expect(res.statusCode).toBe(201);
    // 6 cm3; 2 x (600 + 300 + 200) mm2 = 22 cm2; 6 quads = 12 triangles.
    expect(res.json()).toMatchObject({
      format: 'obj',
      triangles: 12,
      volumeCm3: 6,
      areaCm2: 22,
      dimensions: { x: 30, y: 20, z: 10 },
      watertight: true,
    });
  });

  it('warns about holes, inches and the build volume', async () => {
    const open = box(5, 4, 3);
    const holed = toBinaryStl(toFloat32(triangles({ vertices: open.vertices, faces: open.faces.slice(1) })));
    const small = await t.app.inject(uploadRequest({ fileName: 'open.stl', bytes: holed }));
    expect(small.statusCode).toBe(201);
    expect(small.json()).toMatchObject({
      watertight: false,
      fits: true,
      warnings: [
        {
          code: 'not_watertight',
          message: 'This model has holes in its surface (not watertight); we will print it as well as we can',
        },
        { code: 'maybe_inches', message: 'This model is very small: was it designed in inches?' },
      ],
    });
    const big = await t.app.inject(uploadRequest({ fileName: 'long.stl', bytes: boxStl(300, 10, 10) }));
    expect(big.json()).toMatchObject({
      fits: false,
      warnings: [{ code: 'too_big', message: 'This model does not fit our printer (256 x 256 x 256 mm)' }],
    });
    // Diagonal orientation is not tried, axis orientations are: 250 x 10 x 250 fits.
    const flat = await t.app.inject(uploadRequest({ fileName: 'flat.stl', bytes: boxStl(250, 10, 250) }));
    expect(flat.json()).toMatchObject({ fits: true, warnings: [] });
  });
});

describe('POST /api/uploads: refused uploads keep nothing', () => {
  beforeEach(reset);

  it('64 MiB + 1 byte: 413 before anything is kept (docs/security.md 23)', async () => {
    const res = await t.app.inject(
      uploadRequest({ fileName: 'huge.stl', bytes: new Uint8Array(MAX_UPLOAD_BYTES + 1) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'This file is larger than 64 MB.' });
    await expectNothingKept();
  });

  it('refuses names hiding another type with 400 (docs/security.md 24)', async () => {
    for (const fileName of ['x.stl.php', 'x.php%00.stl', 'x.php\u0000.stl', 'notes.txt', 'model.3mf.zip']) {
      const res = await t.app.inject(uploadRequest({ fileName, bytes: boxStl(10, 10, 10) }));
      expect(res.statusCode, fileName).toBe(400);
      expect(res.json()).toEqual({ error: 'Only .stl, .obj and .3mf files are accepted.' });
    }
    await expectNothingKept();
  });

  it('refuses a PNG or a ZIP renamed .stl with 422 (content checked)', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(200)]);
    const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(200)]);
    const asPng = await t.app.inject(uploadRequest({ fileName: 'photo.stl', bytes: png }));
    expect(asPng.statusCode).toBe(422);
    expect(asPng.json()).toEqual({
      error: 'This file is not an STL or OBJ model (it looks like a PNG image).',
    });
    const asZip = await t.app.inject(uploadRequest({ fileName: 'archive.stl', bytes: zip }));
    expect(asZip.statusCode).toBe(422);
    expect(asZip.json().error).toMatch(/ZIP archive/);
    await expectNothingKept();
  });

  it('refuses a binary STL whose header claims 0xFFFFFFFF triangles with 422 (docs/security.md 25)', async () => {
    const bytes = boxStl(10, 10, 10);
    new DataView(bytes.buffer).setUint32(80, 0xffffffff, true);
    const res = await t.app.inject(uploadRequest({ fileName: 'liar.stl', bytes }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/truncated/);
    await expectNothingKept();
  });

  it('refuses a flat surface that encloses no volume with 422, keeping nothing', async () => {
    const res = await t.app.inject(
      uploadRequest({ fileName: 'sheet.obj', bytes: 'v 0 0 0\nv 10 0 0\nv 10 10 0\nv 0 10 0\nf 1 2 3 4\n' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(
      'This model encloses no volume (it is a flat or open surface), so there is nothing to print.',
    );
    await expectNothingKept();
  });

  it('accepts a closed model smaller than 1 mm³ (Moon.stl is 0.89 mm³), with its size and the inches scale', async () => {
    const res = await t.app.inject(uploadRequest({ fileName: 'moon.stl', bytes: boxStl(1, 1, 0.89) }));
    expect(res.statusCode).toBe(201);
    const model = res.json();
    // 6 significant digits below 1 cm³ (docs/api.md), so the card can say 0.89 mm³.
    expect(model.volumeCm3).toBeCloseTo(0.00089, 9);
    expect(model.dimensions).toEqual({ x: 1, y: 1, z: 0.89 });
    expect(model.warnings.map((w: { code: string }) => w.code)).toContain('maybe_inches');
    expect(model.prices['3']).toBe(12);
    const scaled = await t.app.inject({
      method: 'POST',
      url: `/api/models/${model.id}/scale`,
      headers: { 'content-type': 'application/json', cookie: cookieFrom(res) },
      payload: { factor: 25.4 },
    });
    expect(scaled.statusCode).toBe(201);
    expect(scaled.json().dimensions.x).toBeCloseTo(25.4, 6);
  });

  it('refuses empty files, OBJ with bad indices and faceless models with 422 (docs/security.md 27, 28)', async () => {
    const cases: Array<[string, string | Uint8Array]> = [
      ['empty.stl', new Uint8Array(0)],
      ['zero.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n'],
      ['far.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n'],
      ['points.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\n'],
      [
        'nan.stl',
        'solid x\nfacet normal 0 0 1\nouter loop\nvertex nan 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n',
      ],
    ];
    for (const [fileName, bytes] of cases) {
      const res = await t.app.inject(uploadRequest({ fileName, bytes }));
      expect(res.statusCode, fileName).toBe(422);
      expect(typeof res.json().error).toBe('string');
    }
    await expectNothingKept();
  });

  it('needs a multipart body with the file in the field "file"', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const wrongField = await t.app.inject(
      uploadRequest({ field: 'model', fileName: 'a.stl', bytes: boxStl(10, 10, 10) }),
    );
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toEqual({ error: 'Send the model in the form field "file".' });
    await expectNothingKept();
  });

  it('answers 400 to a body that breaks off anywhere before its file ends, keeping nothing', async () => {
    const { payload, contentType } = multipartBody([{ fileName: 'cut.stl', bytes: boxStl(10, 10, 10) }]);
    // Up to the line break before the closing boundary: in the part's headers (once a 500) or in the file.
    const fileEnd = payload.lastIndexOf('\r\n--');
    for (let cut = 1; cut <= fileEnd; cut += cut < 200 ? 3 : 17) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { 'content-type': contentType },
        payload: payload.subarray(0, cut),
      });
      expect(res.statusCode, `cut after ${cut} bytes`).toBe(400);
      expect(res.json(), `cut after ${cut} bytes`).toEqual({
        error: 'The upload was interrupted. Please try again.',
      });
      // Answered only once the temp file is gone (it used to be created after its removal, now and then).
      expect(filesIn(tmpDir), `cut after ${cut} bytes`).toEqual([]);
    }
    await expectNothingKept();
  });

  it('answers 405 to a GET', async () => {
    expect((await t.app.inject('/api/uploads')).statusCode).toBe(405);
  });
});

describe('POST /api/uploads: dedupe by content hash', () => {
  beforeEach(reset);

  it('gives the same model for the same bytes again, a new model sharing the file under another name', async () => {
    const bytes = boxStl(40, 30, 20);
    const first = await t.app.inject(uploadRequest({ fileName: 'a.stl', bytes }));
    const cookie = cookieFrom(first);
    const again = await t.app.inject(uploadRequest({ fileName: 'a.stl', bytes }, cookie));
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const renamed = await t.app.inject(uploadRequest({ fileName: 'b.stl', bytes }, cookie));
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json().id).not.toBe(first.json().id);
    expect(renamed.json()).toEqual({
      ...first.json(),
      id: renamed.json().id,
      fileName: 'b.stl',
      previewImage: renamed.json().previewImage,
    });
    // One stored file, one preview and one view mesh for both.
    expect(filesIn(filesDir)).toHaveLength(3);
    const rows = await t.database.db.select().from(models);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.storageKey)).size).toBe(1);
    // Both known by the file's SHA-512/256 (CONTENT_HASH), taken as it arrived.
    const hash = createHash('sha512-256').update(bytes).digest('hex');
    expect(rows.map((r) => r.contentHash)).toEqual([hash, hash]);
  });

  it('analyses the same bytes from an unrelated visitor anew: no row or file of another owner is reused', async () => {
    const bytes = boxStl(40, 30, 20);
    const first = await t.app.inject(uploadRequest({ fileName: 'a.stl', bytes }));
    const user = await makeUser(t);
    const fromUser = await t.app.inject(uploadRequest({ fileName: 'a.stl', bytes }, user.cookie));
    const otherVisitor = await t.app.inject(uploadRequest({ fileName: 'a.stl', bytes }));
    for (const res of [fromUser, otherVisitor]) {
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        ...first.json(),
        id: res.json().id,
        previewImage: res.json().previewImage,
      });
    }
    const rows = await t.database.db.select().from(models);
    expect(rows).toHaveLength(3);
    // Three owners, three stored files and three previews: nothing is shared between them.
    expect(new Set(rows.map((r) => r.storageKey)).size).toBe(3);
    expect(new Set(rows.map((r) => r.previewKey)).size).toBe(3);
    expect(new Set(rows.map((r) => r.viewKey)).size).toBe(3);
    expect(filesIn(filesDir)).toHaveLength(9);
    // The other visitor cannot read the first one's model for sharing its bytes.
    const peek = await t.app.inject({
      url: `/api/models/${first.json().id}`,
      headers: { cookie: cookieFrom(otherVisitor) },
    });
    expect(peek.statusCode).toBe(404);
  });
});

describe('the visitor cookie over HTTPS', () => {
  it('is Secure', async () => {
    const https = await buildTestApp({ PUBLIC_URL: 'https://shop.example.com' });
    try {
      const res = await https.app.inject(uploadRequest({ fileName: 'c.stl', bytes: boxStl(10, 10, 10) }));
      expect(res.statusCode).toBe(201);
      expect(res.cookies.find((c) => c.name === 'visitor')).toMatchObject({ secure: true, httpOnly: true });
    } finally {
      await https.close();
    }
  });
});
