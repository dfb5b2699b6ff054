import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { analyzeMesh } from '../../mesh/index.ts';
import { box, type IndexedMesh, toBinaryStl, toFloat32, triangles } from '../../mesh/testing/generate.ts';
import { createSession } from '../auth/session-service.ts';
import type { AppContext } from '../context.ts';
import { type models, orderItems, orders, users } from '../db/schema.ts';
import { TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import { newModelId } from './ids.ts';
import { CONTENT_HASH, type ReceivedUpload } from './receive-upload.ts';

// Helpers for the model and pricing tests: multipart bodies built by hand, users with sessions, orders.

export type FilePart = { field?: string; fileName: string; bytes: Uint8Array | string; contentType?: string };

/** A multipart/form-data body with one or more file parts. */
export function multipartBody(files: FilePart[], boundary = `----shoptest${Date.now().toString(16)}`) {
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.fileName}"\r\n` +
          `Content-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        'latin1',
      ),
      typeof f.bytes === 'string'
        ? Buffer.from(f.bytes)
        : Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.length),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** inject() options for POST /api/uploads with one file; `cookie` is a Cookie header value. */
export function uploadRequest(file: FilePart, cookie?: string): InjectOptions {
  const body = multipartBody([file]);
  return {
    method: 'POST',
    url: '/api/uploads',
    headers: { 'content-type': body.contentType, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  };
}

/** The `name=value` of a response's Set-Cookie for `name`, ready for a Cookie header. */
export function cookieFrom(
  res: { cookies: Array<{ name: string; value: string }> },
  name = 'visitor',
): string {
  const c = res.cookies.find((k) => k.name === name);
  if (!c) throw new Error(`no ${name} cookie was set`);
  return `${name}=${c.value}`;
}

/** A binary STL of an axis-aligned box (exact in float32 for whole and half millimetres). */
export function boxStl(x: number, y: number, z: number): Uint8Array {
  return toBinaryStl(toFloat32(triangles(box(x, y, z))));
}

export function meshStl(mesh: IndexedMesh): Uint8Array {
  return toBinaryStl(toFloat32(triangles(mesh)));
}

let userCount = 0;
/** A verified user (admin if asked) with a live session; `cookie` is its Cookie header value. */
export async function makeUser(t: TestApp, options: { admin?: boolean } = {}) {
  const ctx: Pick<AppContext, 'db' | 'now'> = { db: t.database.db, now: () => new Date() };
  userCount++;
  const [user] = await ctx.db
    .insert(users)
    .values({
      username: `user${userCount}_${process.pid}`,
      email: `user${userCount}_${process.pid}@example.com`,
      passwordHash: 'not-a-password-hash',
      isAdmin: options.admin ?? false,
      emailVerifiedAt: new Date(),
    })
    .returning();
  const session = await createSession(ctx, user!.id);
  return { id: user!.id, cookie: `session=${session.token}` };
}

/** An order of `userId` holding the model. */
/** A new user's box model and its copy scaled from inches: two rows sharing one stored file. */
export async function uploadAndScale(t: TestApp, fileName: string) {
  const user = await makeUser(t);
  const res = await t.app.inject(uploadRequest({ fileName, bytes: boxStl(9, 9, 9) }, user.cookie));
  const model = res.json() as { id: string };
  const scaled = await t.app.inject({
    method: 'POST',
    url: `/api/models/${model.id}/scale`,
    headers: { cookie: user.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
    payload: JSON.stringify({ factor: 25.4 }),
  });
  return { user, modelId: model.id, scaledId: (scaled.json() as { id: string }).id };
}

export async function makeOrder(t: TestApp, userId: number, modelId: string) {
  const [order] = await t.database.db
    .insert(orders)
    .values({ userId, totalCents: 1200, subtotalCents: 1200 })
    .returning();
  await t.database.db.insert(orderItems).values({
    orderId: order!.id,
    modelId,
    fileName: 'ordered.stl',
    color: '#007bff',
    strength: 3,
    quantity: 1,
    unitPriceCents: 1200,
    lineTotalCents: 1200,
  });
  return order!.id;
}

/** Every file under a directory (none if it does not exist), for "nothing was kept" checks. */
export function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** A stored model row of a 10 mm cube with no file behind it: fills quotas without uploading. */
export function fillerModelRow(
  fields: Pick<typeof models.$inferInsert, 'ownerVisitorHash' | 'sizeBytes' | 'createdAt' | 'uploadIpHash'>,
): typeof models.$inferInsert {
  return {
    id: newModelId(),
    contentHash: newModelId(),
    fileName: 'filler.stl',
    format: 'stl-binary',
    storageKey: `f_${newModelId()}`,
    triangles: 12,
    volumeMm3: 1000,
    areaMm2: 600,
    dimX: 10,
    dimY: 10,
    dimZ: 10,
    watertight: true,
    ...fields,
  };
}

/** An upload as receive-upload hands it over: bytes written to a fresh temp file in dir. */
export function receivedUpload(
  dir: string,
  bytes: Uint8Array,
  fileName: string,
  contentHash = createHash(CONTENT_HASH).update(bytes).digest('hex'),
): ReceivedUpload {
  const tempPath = path.join(dir, `u_${Math.random().toString(36).slice(2)}.part`);
  fs.writeFileSync(tempPath, bytes);
  return { tempPath, fileName, extension: 'stl', sizeBytes: bytes.length, contentHash };
}

/** An analysis pool that answers in process (STL and OBJ), with a stand-in preview and no view mesh; or fails as told. */
export function inProcessPool(fail?: Error): AnalysisPool {
  const pool: AnalysisPool = {
    async upload(task, client) {
      return { answer: await pool.analyze(task, client), later: null };
    },
    async analyze(task) {
      if (fail) throw fail;
      if (task.extension === '3mf') throw new Error('inProcessPool reads STL and OBJ only');
      const analysis = analyzeMesh(new Uint8Array(fs.readFileSync(task.path)), task.extension);
      return {
        ok: true,
        analysis,
        png: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        previewError: null,
        view: null,
        viewError: null,
        timings: { analysis: 0, preview: 0, view: 0 },
      };
    },
    async extras() {
      return { png: null, previewError: 'not in this test', view: null, viewError: 'not in this test' };
    },
    close: async () => {},
  };
  return pool;
}
