import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl, cookieFrom, filesIn, uploadRequest } from '../models/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// The whole shop with S3_BUCKET: uploads land in the bucket (not in DATA_DIR/files) and come back
// through the shop's own routes.

let dir: string;
let server: S3rver;
let s3: S3Client;
let t: TestApp;
const BUCKET = 'shop-app-files';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-s3-app-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await server.run()) as unknown as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  t = await buildTestApp({
    RATE_LIMIT_SCALE: '100',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'shop-a/',
  });
});

afterAll(async () => {
  await t?.close();
  s3?.destroy();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the shop on an S3 bucket (S3_BUCKET)', () => {
  it('stores an upload and its preview in the bucket and serves them back', async () => {
    const bytes = boxStl(20, 20, 20);
    const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes }));
    expect(res.statusCode).toBe(201);
    const model = res.json() as { id: string };
    const cookie = cookieFrom(res);

    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'shop-a/' }));
    const keys = (listed.Contents ?? []).map((o) => o.Key);
    // The file, its preview and its view mesh.
    expect(keys).toHaveLength(3);
    expect(filesIn(path.join(t.dataDir, 'files'))).toEqual([]);

    const file = await t.app.inject({ url: `/api/models/${model.id}/file`, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, Buffer.from(bytes))).toBe(0);
    const preview = await t.app.inject({ url: `/api/models/${model.id}/preview.png`, headers: { cookie } });
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    const view = await t.app.inject({ url: `/api/models/${model.id}/view.glb`, headers: { cookie } });
    expect(view.statusCode).toBe(200);
    expect(view.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
  });
});
